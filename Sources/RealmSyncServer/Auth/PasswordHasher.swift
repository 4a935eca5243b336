import Foundation
import HummingbirdBcrypt
import RealmSyncWire

/// Hashes and checks passwords with bcrypt: salted, and slow on purpose
/// (2^cost rounds), off the threads that serve requests and at most one
/// per core at a time, so that a flood of logins queues rather than
/// starting a thread per request.
struct PasswordHasher: Sendable {
    let cost: UInt8

    /// The costs bcrypt takes.
    static let costs: ClosedRange<UInt8> = 4...31

    /// The longest password accepted: bcrypt reads only 72 bytes, so a
    /// longer one would be silently cut.
    static let maximumLength = 72

    private static let queue: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "io.realm.sync.server.passwords"
        queue.maxConcurrentOperationCount = max(1, ProcessInfo.processInfo.activeProcessorCount)
        return queue
    }()

    /// Refuses a password bcrypt would not hash faithfully: empty, over
    /// 72 bytes (cut), or holding a NUL (cut there).
    static func requireAcceptable(_ password: String) throws(Problem) {
        guard !password.isEmpty, password.utf8.count <= maximumLength, !password.utf8.contains(0) else {
            throw Problem.invalidParameters("a password is 1 to \(maximumLength) bytes, without NUL characters")
        }
    }

    func hash(_ password: String) async -> String {
        let cost = cost
        return await offloaded { Bcrypt.hash(password, cost: cost) }
    }

    func verify(_ password: String, against hash: String) async -> Bool {
        await offloaded { Bcrypt.verify(password, hash: hash) }
    }

    private func offloaded<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Self.queue.addOperation { continuation.resume(returning: work()) }
        }
    }
}
