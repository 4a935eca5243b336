import RealmCore

/// One collection registration: the collection's element identities at the
/// last delivery, and how to compute and report the change to the current
/// version.
final class CollectionNotifier {
    /// The element identities of the collection now.
    private let snapshot: () throws -> [CollectionDiff.Identity]
    /// The class of the elements, for objects (nil for values).
    private let className: String?
    private let keyPaths: [String]?
    private let deliverChange: (RealmCollectionChange<Void>) -> Void
    private var last: [CollectionDiff.Identity] = []
    private var lastVersion: UInt64 = 0
    private var failed = false
    weak var token: NotificationToken?

    init(className: String?, keyPaths: [String]?, snapshot: @escaping () throws -> [CollectionDiff.Identity],
         deliver: @escaping (RealmCollectionChange<Void>) -> Void) {
        self.className = className
        self.keyPaths = keyPaths
        self.snapshot = snapshot
        self.deliverChange = deliver
    }

    /// Records the starting state and delivers `.initial`.
    func start(in state: RealmState) {
        do {
            last = try snapshot()
            lastVersion = try state.transaction.version
            deliverChange(.initial(()))
        } catch {
            fail(error)
        }
    }

    /// Takes the current state as the baseline without reporting.
    func rebase(in state: RealmState) {
        guard !failed else { return }
        last = (try? snapshot()) ?? last
        lastVersion = (try? state.transaction.version) ?? lastVersion
    }

    func deliver(in state: RealmState) {
        guard !failed else { return }
        do {
            let transaction = state.transaction
            let version = try transaction.version
            guard version != lastVersion else { return }
            let inspector = ChangeInspector(try transaction.changeSets(after: lastVersion))
            let current = try snapshot()
            let filter = className.flatMap { KeyPathFilter.make(keyPaths, className: $0, schema: transaction.schema) }
            let changes = CollectionDiff.changes(from: last, to: current) { identity in
                guard let className, case .object(let key) = identity.value else { return false }
                return inspector.isChanged(className, key, filter: filter, in: transaction)
            }
            last = current
            lastVersion = version
            if changes.deletions.isEmpty && changes.insertions.isEmpty && changes.modifications.isEmpty { return }
            deliverChange(.update((), deletions: changes.deletions, insertions: changes.insertions, modifications: changes.modifications))
        } catch {
            fail(error)
        }
    }

    private func fail(_ error: Swift.Error) {
        failed = true
        deliverChange(.error(error))
    }
}
