import RealmCore
import RealmQuery

/// One collection registration: the collection's element identities at the
/// last delivery, and how to compute and report the change to the current
/// version.
///
/// Results over one class's own columns are maintained from the change
/// sets (``MaintainedMatches``): after a commit only the objects it touched
/// are read. Other collections run their query again and diff the
/// identities.
final class CollectionNotifier {
    /// The element identities of the collection now.
    private let snapshot: () throws -> [CollectionDiff.Identity]
    /// The class of the elements, for objects (nil for values).
    private let className: String?
    private let keyPaths: [String]?
    /// The query of a `Results`, to maintain its matches.
    private let query: Query?
    private let deliverChange: (RealmCollectionChange<Void>) -> Void
    /// The identities at the last delivery, when not maintained.
    private var last: [CollectionDiff.Identity] = []
    private var maintained: MaintainedMatches?
    private var lastVersion: UInt64 = 0
    private var failed = false
    weak var token: NotificationToken?

    init(className: String?, keyPaths: [String]?, query: Query? = nil, snapshot: @escaping () throws -> [CollectionDiff.Identity],
         deliver: @escaping (RealmCollectionChange<Void>) -> Void) {
        self.className = className
        self.keyPaths = keyPaths
        self.query = query
        self.snapshot = snapshot
        self.deliverChange = deliver
    }

    /// Records the starting state and delivers `.initial`.
    func start(in state: RealmState) {
        do {
            try takeBaseline(state.transaction)
            deliverChange(.initial(()))
        } catch {
            fail(error)
        }
    }

    /// Takes the current state as the baseline without reporting.
    func rebase(in state: RealmState) {
        guard !failed else { return }
        try? takeBaseline(state.transaction)
    }

    private func takeBaseline(_ transaction: Transaction) throws {
        lastVersion = try transaction.version
        if let query, let matches = try MaintainedMatches(query: query, in: transaction) {
            maintained = matches
            last = []
        } else {
            maintained = nil
            last = try snapshot()
        }
    }

    func deliver(in state: RealmState) {
        guard !failed else { return }
        do {
            let transaction = state.transaction
            let version = try transaction.version
            guard version != lastVersion else { return }
            let changeSets = try transaction.changeSets(after: lastVersion)
            let inspector = ChangeInspector(changeSets)
            let filter = className.flatMap { KeyPathFilter.make(keyPaths, className: $0, schema: transaction.schema) }
            let isModified = { (identity: CollectionDiff.Identity) -> Bool in
                guard let className = self.className, case .object(let key) = identity.value else { return false }
                return inspector.isChanged(className, key, filter: filter, in: transaction)
            }
            let changes: (deletions: [Int], insertions: [Int], modifications: [Int])
            if var matches = maintained {
                if let changeSets, inspector.isComplete, let update = try matches.update(after: changeSets, in: transaction) {
                    changes = Self.changes(update, of: matches.keys, touchingLinks: inspector.touchesClasses(otherThan: matches.className),
                                           isModified: isModified)
                    maintained = matches
                } else {
                    let old = Self.identities(matches.keys)
                    maintained = try MaintainedMatches(query: query!, in: transaction)
                    changes = CollectionDiff.changes(from: old, to: Self.identities(maintained?.keys ?? []), isModified: isModified)
                }
            } else {
                let current = try snapshot()
                changes = CollectionDiff.changes(from: last, to: current, isModified: isModified)
                last = current
            }
            lastVersion = version
            if changes.deletions.isEmpty && changes.insertions.isEmpty && changes.modifications.isEmpty { return }
            deliverChange(.update((), deletions: changes.deletions, insertions: changes.insertions, modifications: changes.modifications))
        } catch {
            fail(error)
        }
    }

    /// The notification's indices from a maintained update: the objects
    /// modified in place, and (when objects of other classes changed) any
    /// other kept object that changed through its links.
    private static func changes(_ update: MaintainedMatches.Changes, of keys: [ObjectKey], touchingLinks: Bool,
                                isModified: (CollectionDiff.Identity) -> Bool) -> (deletions: [Int], insertions: [Int], modifications: [Int]) {
        var modifications: [Int]
        if touchingLinks {
            let inserted = Set(update.insertions)
            modifications = keys.indices.filter { index in
                !inserted.contains(index) && isModified(CollectionDiff.Identity(value: .object(keys[index]), occurrence: 0))
            }
        } else {
            modifications = update.modifiedInPlace.filter { isModified(CollectionDiff.Identity(value: .object(keys[$0]), occurrence: 0)) }
        }
        modifications.sort()
        return (update.deletions, update.insertions, modifications)
    }

    private static func identities(_ keys: [ObjectKey]) -> [CollectionDiff.Identity] {
        keys.map { CollectionDiff.Identity(value: .object($0), occurrence: 0) }
    }

    private func fail(_ error: Swift.Error) {
        failed = true
        deliverChange(.error(error))
    }
}
