import Foundation

/// The same workloads on encrypted Realms (AES-256 and HMAC-SHA-256 on
/// every page, the write-ahead log's included): its time over the plain
/// contender's is the cost of encryption.
public final class EncryptedRealmContender: RealmContender {
    override public class var name: String { "realm-encrypted" }
    override class var encryptionKey: Data? { key }

    private static let key = Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 17) })
}
