import Foundation

extension Realm.Configuration {
    /// The length of an encryption key: 32 bytes for AES-256, then 32 for
    /// HMAC-SHA-256.
    static let encryptionKeySize = 64

    static func wrongKeySizeMessage(_ count: Int, for purpose: String) -> String {
        "Encryption key must be exactly \(encryptionKeySize) bytes long; it is \(count) bytes (\(purpose))."
    }

    /// Refuses a key of the wrong length before any file is touched.
    func validateEncryptionKey() throws {
        if let key = encryptionKey, key.count != Self.encryptionKeySize {
            throw Realm.Error(.fail, Self.wrongKeySizeMessage(key.count, for: "opening '\(identity)'"))
        }
    }
}
