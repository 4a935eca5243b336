import Foundation
import RealmCore
import Synchronization

/// Computes the changes of one Realm's collection registrations on a
/// background queue after each commit, so that the registering thread only
/// delivers them.
///
/// The worker reads through a transaction of its own, at the newest
/// version, and ends that read when done so that it pins no version between
/// commits. Commits that arrive while a computation is pending are covered
/// by it (it reads the newest version when it starts).
final class NotificationWorker: Sendable {
    private let coordinator: Coordinator
    private let queue = DispatchQueue(label: "realm.notification-worker")
    private let notifiers = Mutex<[UncheckedWeak<CollectionNotifier>]>([])
    private let isScheduled = Mutex(false)
    /// Used on `queue` only.
    private let transaction = UncheckedSendable(TransactionSlot())

    private final class TransactionSlot {
        var transaction: Transaction?
    }

    init(coordinator: Coordinator) {
        self.coordinator = coordinator
    }

    func add(_ notifier: CollectionNotifier) {
        notifiers.withLock { list in
            list.removeAll { $0.value == nil }
            list.append(UncheckedWeak(notifier))
        }
    }

    var isIdle: Bool {
        notifiers.withLock { list in list.allSatisfy { $0.value == nil } }
    }

    /// Computes every registration's change to the newest version, then
    /// calls `completion` (on the worker's queue). When a computation is
    /// already pending, it covers this commit too, and `completion` is not
    /// called again.
    func computeChanges(then completion: @escaping @Sendable () -> Void) {
        let alreadyScheduled = isScheduled.withLock { flag in
            defer { flag = true }
            return flag
        }
        guard !alreadyScheduled else { return }
        queue.async { [self] in
            isScheduled.withLock { $0 = false }
            let live = notifiers.withLock { list in list.compactMap(\.value) }
            if !live.isEmpty, let transaction = openTransaction() {
                if (try? transaction.refresh()) != nil {
                    for notifier in live { notifier.precompute(in: transaction) }
                }
                transaction.invalidate()
            }
            completion()
        }
    }

    private func openTransaction() -> Transaction? {
        let slot = transaction.value
        if slot.transaction == nil { slot.transaction = try? coordinator.makeTransaction() }
        return slot.transaction
    }
}
