import Dispatch
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

    func unlock() {
        owner.withLock { $0 = nil }
        semaphore.signal()
    }
}
