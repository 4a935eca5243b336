import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Serialises the write transactions of one process on one file, so that
/// they queue here at once instead of polling SQLite's lock. Writers of other
/// processes are serialised by SQLite's own write lock.
///
/// A semaphore rather than a mutex: the lock is held from `beginWrite()` to
/// `commitWrite()`, and nothing requires those to run on one thread (a Realm
/// confined to an actor may hop threads between them).
final class WriteLock: Sendable {
    private let semaphore = DispatchSemaphore(value: 1)
    private let owner = Mutex<pthread_t?>(nil)

    /// Waits for the lock. Throws instead of deadlocking when the calling
    /// thread already holds it through another transaction.
    func lock(path: String) throws(RealmError) {
        let current = pthread_self()
        if owner.withLock({ $0.map { pthread_equal($0, current) != 0 } ?? false }) {
            throw RealmError(
                .invalidTransactionState,
                "Cannot begin a write transaction on '\(path)': this thread is already in a write transaction on the same file through another Realm instance, and would wait for itself forever.")
        }
        semaphore.wait()
        owner.withLock { $0 = current }
    }

    /// Waits for the lock without blocking the caller's thread: at once
    /// when it is free, otherwise on a thread of its own while the calling
    /// task is suspended. The lock is then held for no thread in particular
    /// (an actor's write may hop threads), until ``unlock()``.
    ///
    /// Returns false, without the lock, when the task is cancelled while
    /// it waits: the waiting thread looks every few milliseconds, since a
    /// semaphore's wait cannot be interrupted.
    func lockSuspending() async -> Bool {
        if semaphore.wait(timeout: .now()) == .success { return true }
        let cancelled = CancellationFlag()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let semaphore = semaphore
                Thread {
                    while true {
                        if semaphore.wait(timeout: .now() + .milliseconds(20)) == .success {
                            // Cancelled meanwhile: the lock goes back. Read
                            // once: a cancellation after this is the
                            // caller's to see (it releases the lock).
                            let wasCancelled = cancelled.isSet
                            if wasCancelled { semaphore.signal() }
                            continuation.resume(returning: !wasCancelled)
                            return
                        }
                        if cancelled.isSet {
                            continuation.resume(returning: false)
                            return
                        }
                    }
                }.start()
            }
        } onCancel: {
            cancelled.set()
        }
    }

    /// Set once, when the waiting task is cancelled.
    private final class CancellationFlag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .acquiring) }
        func set() { value.store(true, ordering: .releasing) }
    }

    func unlock() {
        owner.withLock { $0 = nil }
        semaphore.signal()
    }
}

/// The write lock of a file, taken by ``Coordinator/reserveWriteLock()``
/// for a write that ``Transaction/beginWrite(using:)`` then begins: its
/// wait happened without blocking a thread. Released unused when dropped.
public final class WriteLockReservation: @unchecked Sendable {
    // @unchecked: `lock` is Sendable; `isHeld` changes on the thread that
    // uses the reservation, which hands it on, not shares it.
    private let lock: WriteLock
    private var isHeld = true

    init(_ lock: WriteLock) {
        self.lock = lock
    }

    /// Gives the lock to a write transaction, which releases it when the
    /// write ends.
    func handOver() {
        precondition(isHeld, "A write lock reservation begins one write.")
        isHeld = false
    }

    /// Releases the lock without writing (the task waiting for it was
    /// cancelled, say).
    public func release() {
        guard isHeld else { return }
        isHeld = false
        lock.unlock()
    }

    deinit {
        release()
    }
}

extension Coordinator {
    /// Takes this process's write lock on the file for a write to come,
    /// suspending the calling task (not blocking its thread) while another
    /// transaction of this process writes. Writers of other processes are
    /// waited for when the write begins, as SQLite's busy timeout waits.
    ///
    /// Returns nil, without the lock, when the task is cancelled while it
    /// waits.
    public func reserveWriteLock() async -> WriteLockReservation? {
        guard await writeLock.lockSuspending() else { return nil }
        return WriteLockReservation(writeLock)
    }
}
