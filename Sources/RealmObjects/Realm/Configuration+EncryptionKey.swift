import Foundation
import RealmCore

extension Realm.Configuration {
    /// Refuses a key of the wrong length before any file is touched.
    func validateEncryptionKey() throws {
        try Self.validate(encryptionKey, for: "opening '\(identity)'")
    }

    /// Refuses a key that is not 64 bytes long, as a `Realm.Error` with code
    /// `fail`; `purpose` says what it was given for.
    static func validate(_ key: Data?, for purpose: String) throws {
        do {
            try EncryptionKey.validate(key, for: purpose)
        } catch {
            throw Realm.Error(error)
        }
    }
}
