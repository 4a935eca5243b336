import Dispatch
import RealmCore
import RealmSyncEngine
import RealmSyncWire

/// Where a synced Realm's query-based views are computed: a read
/// transaction and a queue of their own, one per Realm, so that evaluating
/// subscriptions never holds up the uploads its writer integrates
/// (Docs/SyncDesign.md, "Query-based sync"). Each computation reads the
/// newest version whole: the history and the state at one version.
final class ViewReader: @unchecked Sendable {
    // @unchecked: `transaction` and `identities` are used only on `queue`.

    private let queue: DispatchQueue
    private let transaction: Transaction
    private let identities = Identities()

    /// The identities of the objects views have held, by class and key: a
    /// key names one object for good (keys are never reused, and an
    /// object's primary key, incarnation and global key never change), so
    /// a view evaluated again after each change looks each object up once,
    /// not once per change. Forgotten whole past a bound.
    final class Identities {
        private var byClass: [String: [ObjectKey: ObjectIdentity]] = [:]
        private var count = 0
        static let limit = 1_000_000

        func identity(of key: ObjectKey, in handle: ClassHandle, _ transaction: Transaction) throws(RealmError) -> ObjectIdentity? {
            if let known = byClass[handle.className]?[key] { return known }
            guard let identity = try TopLevelObjects.identity(of: key, in: handle, transaction) else { return nil }
            if count >= Self.limit {
                byClass = [:]
                count = 0
            }
            byClass[handle.className, default: [:]][key] = identity
            count += 1
            return identity
        }
    }

    init(coordinator: Coordinator, label: String) throws(RealmError) {
        queue = DispatchQueue(label: label)
        transaction = try coordinator.makeTransaction()
    }

    /// Runs `body` on the reader's queue with its transaction at the
    /// newest version, and the identities known.
    func read<T: Sendable>(_ body: @escaping @Sendable (Transaction, Identities) throws(RealmError) -> T) async throws(RealmError) -> T {
        let result: Result<T, RealmError> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: Result { () throws(RealmError) in
                    // A read left open would pin its version between
                    // changes, and the file's log could not be
                    // checkpointed past it.
                    defer { self.transaction.invalidate() }
                    try self.transaction.refresh()
                    return try body(self.transaction, self.identities)
                })
            }
        }
        return try result.get()
    }
}
