import Dispatch
import HummingbirdBcrypt

/// Hashes and checks passwords with bcrypt: salted, and slow on purpose
/// (2^cost rounds), off the threads that serve requests.
struct PasswordHasher: Sendable {
    let cost: UInt8

    /// The longest password accepted: bcrypt reads only 72 bytes, so a
    /// longer one would be silently cut.
    static let maximumLength = 72

    func hash(_ password: String) async -> String {
        let cost = cost
        return await offloaded { Bcrypt.hash(password, cost: cost) }
    }

    func verify(_ password: String, against hash: String) async -> Bool {
        await offloaded { Bcrypt.verify(password, hash: hash) }
    }

    private func offloaded<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }
}
