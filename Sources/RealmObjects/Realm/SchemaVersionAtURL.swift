import Foundation
import RealmCore

/// The schema version of the Realm file at `fileURL`, read without opening
/// it for use: no schema is checked and no migration runs, so it tells
/// whether a migration will be needed before one is run.
///
/// ```swift
/// let version = try schemaVersionAtURL(Realm.Configuration.defaultConfiguration.fileURL!)
/// ```
///
/// - Throws: ``Realm/Error`` with code `fail` when there is no file (as in
///   Realm 3.13, whose own test expects it; later versions say
///   `invalidDatabase`) or for a key that is not 64 bytes long, and
///   `fileAccess` for a file that is not a Realm or an encryption key that
///   does not open it.
public func schemaVersionAtURL(_ fileURL: URL, encryptionKey: Data? = nil) throws -> UInt64 {
    try Realm.Configuration.validate(encryptionKey, for: "reading the schema version of '\(fileURL.path)'")
    do {
        return try Coordinator.schemaVersion(atPath: fileURL.path, encryptionKey: encryptionKey)
    } catch where error.kind == .fileNotFound {
        throw Realm.Error(.fail, "Cannot read the schema version of the Realm at '\(fileURL.path)': it has not been created yet.", fileURL: fileURL)
    } catch {
        throw Realm.Error(error, fileURL: fileURL)
    }
}

extension Realm {
    /// The schema version of the Realm file at `fileURL`; see the function
    /// ``schemaVersionAtURL(_:encryptionKey:)``.
    public static func schemaVersion(at fileURL: URL, encryptionKey: Data? = nil) throws -> UInt64 {
        try schemaVersionAtURL(fileURL, encryptionKey: encryptionKey)
    }
}
