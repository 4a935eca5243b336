import Dispatch
import RealmCore

/// Where a synced Realm's query-based views are computed: a read
/// transaction and a queue of their own, one per Realm, so that evaluating
/// subscriptions never holds up the uploads its writer integrates
/// (Docs/SyncDesign.md, "Query-based sync"). Each computation reads the
/// newest version whole: the history and the state at one version.
final class ViewReader: @unchecked Sendable {
    // @unchecked: `transaction` is used only on `queue`.

    private let queue: DispatchQueue
    private let transaction: Transaction

    init(coordinator: Coordinator, label: String) throws(RealmError) {
        queue = DispatchQueue(label: label)
        transaction = try coordinator.makeTransaction()
    }

    /// Runs `body` on the reader's queue with its transaction at the
    /// newest version.
    func read<T: Sendable>(_ body: @escaping @Sendable (Transaction) throws(RealmError) -> T) async throws(RealmError) -> T {
        let result: Result<T, RealmError> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: Result { () throws(RealmError) in
                    try self.transaction.refresh()
                    return try body(self.transaction)
                })
            }
        }
        return try result.get()
    }
}
