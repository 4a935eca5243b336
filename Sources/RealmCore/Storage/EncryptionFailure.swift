internal import CStorage

/// The encrypting VFS's refusals (CStorage's EncryptedVFS.c), turned into
/// errors that say which file, which page, and why.
enum EncryptionFailure {
    /// The error for SQLite's result `code` when it reports an I/O error
    /// the encrypting VFS raised on this thread; nil for any other error.
    static func take(code: Int32, path: String) -> RealmError? {
        guard code & 0xff == SQLITE_IOERR else { return nil }
        var failure = cstorage_encryption_failure()
        guard cstorage_encryption_take_failure(&failure) == 1 else { return nil }
        let page = failure.page
        let log = failure.in_log == 1
        let place = log ? "frame \(page) of the write-ahead log '\(path)-wal'" : "page \(page)"
        switch Int(failure.reason) {
        case Int(CSTORAGE_FAILURE_AUTHENTICATION) where !log && page == 1:
            return RealmError(
                .notARealm,
                "Unable to open a Realm at path '\(path)': invalid database: the encryption key is wrong, or the file was not encrypted with it (its first page fails authentication).",
                sqliteCode: SQLITE_IOERR)
        case Int(CSTORAGE_FAILURE_AUTHENTICATION):
            return RealmError(
                .corruptFile,
                "The Realm file at '\(path)' is damaged: \(place) fails authentication (changed on disk, moved, or not written with this key).",
                sqliteCode: SQLITE_IOERR)
        case Int(CSTORAGE_FAILURE_TRUNCATED):
            return RealmError(.corruptFile, "The Realm file at '\(path)' is truncated: it ends inside \(place).", sqliteCode: SQLITE_IOERR)
        case Int(CSTORAGE_FAILURE_UNSUPPORTED_WRITE):
            return RealmError(
                .fileAccess,
                "Unable to write \(place) of the encrypted Realm at '\(path)': the encrypted format needs 4096-byte pages with \(CSTORAGE_ENCRYPTION_RESERVED_BYTES) reserved bytes, written whole.",
                sqliteCode: SQLITE_IOERR)
        default:
            return RealmError(.fileAccess, "Unable to encrypt or decrypt \(place) of the Realm at '\(path)': OpenSSL failed.", sqliteCode: SQLITE_IOERR)
        }
    }
}
