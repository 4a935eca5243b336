import Foundation

/// What an encryption key must be: 64 bytes, the first 32 for AES-256, the
/// last 32 for HMAC-SHA-256 (see Docs/Encryption.md).
package enum EncryptionKey {
    static let size = 64

    /// Refuses a key that is not 64 bytes long, with an error
    /// (`invalidValue`) that says what `purpose` it was given for.
    package static func validate(_ key: Data?, for purpose: String) throws(RealmError) {
        guard let key, key.count != size else { return }
        throw RealmError(.invalidValue, "Encryption key must be exactly \(size) bytes long; it is \(key.count) bytes (\(purpose)).")
    }
}
