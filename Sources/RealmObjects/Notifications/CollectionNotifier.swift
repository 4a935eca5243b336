import Foundation
import RealmCore
import RealmQuery
import Synchronization

/// One collection registration: the collection's state at the last
/// delivery, and how to compute and report the change to a newer version.
///
/// The change is computed off the registering thread when it can be: after
/// each commit the Realm's ``NotificationWorker`` computes it, on its own
/// transaction, from the last delivered state to the newest version; the
/// registering thread then delivers that result if its Realm reads the same
/// version, and otherwise (another commit came in between) computes the
/// change itself. Either way the indices describe exactly the step from the
/// last delivered state to the state the handler sees.
///
/// Results over one class's own columns are maintained from the change
/// sets (``MaintainedMatches``): after a commit only the objects it touched
/// are read. Other collections read their elements again and diff them.
final class CollectionNotifier: @unchecked Sendable {
    // @unchecked: `baseline` and `precomputed` are guarded by `lock`; the
    // worker only reads the baseline and writes `precomputed`. `failed` and
    // `deliverChange` are used on the registering thread only; the other
    // stored properties are immutable and Sendable.

    /// The elements of the collection at a transaction's version: object
    /// keys or values. Must not touch thread-confined objects, as the
    /// worker calls it.
    typealias Elements = @Sendable (Transaction) throws -> [Value]

    private struct State {
        var version: UInt64
        /// The element identities, when not maintained.
        var identities: [CollectionDiff.Identity]
        var maintained: MaintainedMatches?
    }

    private struct Step {
        let from: UInt64
        let to: State
        let changes: (deletions: [Int], insertions: [Int], modifications: [Int])
    }

    private let elements: Elements
    /// The class of the elements, for objects (nil for values).
    private let className: String?
    /// The object an element holds: the element itself when it is an
    /// object key; for a map of objects, the object of the entry.
    private let objectKey: @Sendable (Value) -> ObjectKey?
    private let keyPaths: [String]?
    /// Whether the elements are a list of values, whose replacements are
    /// reported as modifications (see `CollectionDiff.pairingReplacements`).
    private let isListOfValues: Bool
    /// For a list property of values, the list, whose changes then come
    /// from the change sets' record of its operations
    /// (``ListChangeComposition``).
    private let recordedList: ListIdentifier?
    /// The query of a `Results`, to maintain its matches.
    private let query: Query?
    private let deliverChange: (RealmCollectionChange<Void>) -> Void
    private let lock = NSLock()
    private var baseline = State(version: 0, identities: [], maintained: nil)
    /// The worker's step from `baseline` to a newer version.
    private var precomputed: Step?
    private var failed = false
    weak var token: NotificationToken?
    /// How many deliveries, in this process, used a change the worker had
    /// computed (a statistic, for tests and diagnostics).
    static let deliveriesComputedOffThread = Atomic<Int>(0)

    init(className: String?, keyPaths: [String]?, query: Query? = nil, isListOfValues: Bool = false, recordedList: ListIdentifier? = nil,
         elements: @escaping Elements,
         objectKey: @escaping @Sendable (Value) -> ObjectKey? = CollectionNotifier.elementKey,
         deliver: @escaping (RealmCollectionChange<Void>) -> Void) {
        self.className = className
        self.objectKey = objectKey
        self.keyPaths = keyPaths
        self.isListOfValues = isListOfValues
        self.recordedList = recordedList
        self.query = query
        self.elements = elements
        self.deliverChange = deliver
    }

    /// Whether `.initial` is still to be delivered: it arrives after
    /// `observe` returns, at the next delivery (seed 000: "the initial
    /// results ... are delivered asynchronously").
    private var initialIsPending = false

    /// Records the starting state; `.initial` follows at the next delivery.
    func start(in state: RealmState) {
        do {
            let transaction = state.transaction
            let initial = try currentState(in: transaction)
            lock.withLock { baseline = initial }
            initialIsPending = true
        } catch {
            fail(error)
        }
    }

    /// Takes the current state as the baseline without reporting.
    func rebase(in state: RealmState) {
        guard !failed, let current = try? currentState(in: state.transaction) else { return }
        lock.withLock {
            baseline = current
            precomputed = nil
        }
    }

    /// Computes, on the worker, the change from the baseline to the version
    /// `transaction` reads, for the registering thread to deliver.
    func precompute(in transaction: Transaction) {
        guard let version = try? transaction.version else { return }
        let base: State? = lock.withLock {
            if let precomputed, precomputed.from == baseline.version, precomputed.to.version == version { return nil }
            return baseline
        }
        guard let base, let step = try? step(from: base, in: transaction) else { return }
        lock.withLock {
            if baseline.version == step.from { precomputed = step }
        }
    }

    /// Delivers the change from the last delivery to the version the
    /// Realm reads, if anything changed.
    func deliver(in state: RealmState) {
        guard !failed else { return }
        if initialIsPending {
            // `.initial` is the collection as it is when delivered; changes
            // committed since registering are part of it, not an update.
            initialIsPending = false
            rebase(in: state)
            deliverChange(.initial(()))
            return
        }
        do {
            let transaction = state.transaction
            let version = try transaction.version
            let ready: Step? = lock.withLock {
                defer { precomputed = nil }
                guard let precomputed, precomputed.from == baseline.version, precomputed.to.version == version else { return nil }
                return precomputed
            }
            let base = lock.withLock { baseline }
            if ready != nil { Self.deliveriesComputedOffThread.add(1, ordering: .relaxed) }
            guard let step = try ready ?? step(from: base, in: transaction) else { return }
            lock.withLock { baseline = step.to }
            let changes = step.changes
            if changes.deletions.isEmpty && changes.insertions.isEmpty && changes.modifications.isEmpty { return }
            deliverChange(.update((), deletions: changes.deletions, insertions: changes.insertions, modifications: changes.modifications))
        } catch {
            fail(error)
        }
    }

    // MARK: Computing

    private func currentState(in transaction: Transaction) throws -> State {
        let version = try transaction.version
        if let query, let matches = try MaintainedMatches(query: query, in: transaction) {
            return State(version: version, identities: [], maintained: matches)
        }
        return State(version: version, identities: CollectionDiff.identities(try elements(transaction)), maintained: nil)
    }

    /// The step from `base` to the version `transaction` reads; nil when
    /// that is the same version.
    private func step(from base: State, in transaction: Transaction) throws -> Step? {
        let version = try transaction.version
        guard version != base.version else { return nil }
        let changeSets = try transaction.changeSets(after: base.version)
        let inspector = ChangeInspector(changeSets)
        let filter = className.flatMap { KeyPathFilter.make(keyPaths, className: $0, schema: transaction.schema) }
        let className = self.className
        let objectKey = self.objectKey
        let isModified = { (identity: CollectionDiff.Identity) -> Bool in
            guard let className, let key = objectKey(identity.value) else { return false }
            return inspector.isChanged(className, key, filter: filter, in: transaction)
        }
        if var matches = base.maintained {
            if let changeSets, inspector.isComplete, let update = try matches.update(after: changeSets, in: transaction) {
                // Objects of the same class changed can reach kept objects
                // through links too (a friend's name, `dogs.owner.name`),
                // when the class has links that count.
                let touchingLinks = inspector.touchesClasses(otherThan: matches.className)
                    || (inspector.touches(matches.className) && Self.hasCountedLinks(matches.className, filter: filter, in: transaction))
                    || (filter?.namesLinkingObjects == true && inspector.addsLinks(otherThan: matches.className))
                let changes = Self.changes(update, of: matches.keys, touchingLinks: touchingLinks, isModified: isModified)
                return Step(from: base.version, to: State(version: version, identities: [], maintained: matches), changes: changes)
            }
            let old = Self.identities(matches.keys)
            let current = try currentState(in: transaction)
            let new = current.maintained.map { Self.identities($0.keys) } ?? current.identities
            return Step(from: base.version, to: current, changes: CollectionDiff.changes(
                from: Self.separatingRecreated(old, inspector: inspector, className: className), to: new, isModified: isModified))
        }
        let current = try currentState(in: transaction)
        let new = current.maintained.map { Self.identities($0.keys) } ?? current.identities
        if let recordedList, let changeSets, inspector.isComplete,
           let recorded = ListChangeComposition.compose(changeSets.map { $0.lists[recordedList] }, baseCount: base.identities.count,
                                                        newCount: new.count) {
            return Step(from: base.version, to: current, changes: recorded)
        }
        var changes = CollectionDiff.changes(
            from: Self.separatingRecreated(base.identities, inspector: inspector, className: className), to: new, isModified: isModified)
        if isListOfValues {
            changes = CollectionDiff.pairingReplacements(changes, oldCount: base.identities.count, newCount: new.count)
        }
        return Step(from: base.version, to: current, changes: changes)
    }

    /// Whether the class has a link (to-one, list, or named linking
    /// objects) through which a change of another object counts.
    private static func hasCountedLinks(_ className: String, filter: KeyPathFilter?, in transaction: Transaction) -> Bool {
        guard let schema = transaction.schema[className] else { return false }
        return schema.properties.indices.contains { index in
            let property = schema.properties[index]
            guard property.type == .object || property.type == .linkingObjects else { return false }
            guard let filter else { return property.type == .object }
            return filter.includes(index)
        }
    }

    /// `old` with the objects deleted and then created again under the same
    /// key made unlike any new identity, so that they are reported as a
    /// deletion and an insertion, as Realm reports them.
    private static func separatingRecreated(_ old: [CollectionDiff.Identity], inspector: ChangeInspector,
                                            className: String?) -> [CollectionDiff.Identity] {
        guard let className else { return old }
        return old.map { identity in
            guard case .object(let key) = identity.value, inspector.isRecreated(className, key) else { return identity }
            return CollectionDiff.Identity(value: identity.value, occurrence: -1 - identity.occurrence)
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

    /// The object key an element is, if it is one.
    @Sendable static func elementKey(_ element: Value) -> ObjectKey? {
        if case .object(let key) = element { return key }
        return nil
    }

    private static func identities(_ keys: [ObjectKey]) -> [CollectionDiff.Identity] {
        keys.map { CollectionDiff.Identity(value: .object($0), occurrence: 0) }
    }

    private func fail(_ error: Swift.Error) {
        failed = true
        deliverChange(.error(error))
    }
}
