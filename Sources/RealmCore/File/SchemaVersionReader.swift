import Foundation

extension Coordinator {
    /// The schema version of the Realm file at `path`, read without opening
    /// it for use: no coordinator, no schema check, no migration, nothing
    /// written. An encrypted file needs its `encryptionKey`.
    ///
    /// - Throws: `fileNotFound` when there is no file, `notARealm` or
    ///   `corruptFile` for a file that is not a readable Realm, `fileAccess`
    ///   when it cannot be read.
    public static func schemaVersion(atPath path: String, encryptionKey: Data? = nil) throws(RealmError) -> UInt64 {
        switch try FileProbe.inspect(path: path, encrypted: encryptionKey != nil) {
        case .missing:
            throw RealmError(.fileNotFound, "Unable to read the schema version of '\(path)': the file does not exist.")
        case .empty:
            throw RealmError(.notARealm, "Unable to read the schema version of '\(path)': the file is empty, not a Realm.")
        case .database:
            break
        }
        let connection = try Connection(path: path, readOnly: true, encryptionKey: encryptionKey)
        let tables = try connection.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'realm_metadata'")
        guard try tables.step(), tables.int64(at: 0) == 1 else {
            throw RealmError(.notARealm, "The file at '\(path)' is not a Realm file: it has no Realm metadata.")
        }
        guard let version = try connection.scalar("SELECT schema_version FROM realm_metadata WHERE id = 1") else {
            throw RealmError(.corruptFile, "The Realm file at '\(path)' has no metadata row.")
        }
        return UInt64(bitPattern: version)
    }
}
