import Foundation

/// A look at a file's first bytes before SQLite touches it, so that a file
/// that is not a database, or one cut short, is refused without being
/// changed.
enum FileProbe {
    enum Finding: Equatable {
        case missing
        /// Zero bytes: a new file (SQLite creates such files too).
        case empty
        case database
    }

    private static let header = Array("SQLite format 3\0".utf8)

    /// Looks at the file at `path`; `encrypted` says whether it is to be
    /// opened with a key, in which case its header is ciphertext and only a
    /// plain SQLite header is refused here (the encrypting VFS checks the
    /// rest, page by page).
    static func inspect(path: String, encrypted: Bool = false) throws(RealmError) -> Finding {
        // The reason comes from the failed open itself: asking afterwards
        // whether the file exists races with another process creating it
        // (a CI run took a file made in between for one it could not read).
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT:
                return .missing
            case EACCES, EPERM:
                throw RealmError(.filePermissionDenied, "Unable to open a Realm at path '\(path)': permission denied.")
            default:
                throw RealmError(.fileAccess, "Unable to open a Realm at path '\(path)': \(String(cString: strerror(code))).")
            }
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        defer { try? handle.close() }
        let prefix: Data
        let size: UInt64
        do {
            prefix = try handle.read(upToCount: 100) ?? Data()
            size = try handle.seekToEnd()
        } catch {
            throw RealmError(.fileAccess, "Unable to read the Realm file at '\(path)': \(error.localizedDescription)")
        }
        if size == 0 { return .empty }
        let bytes = [UInt8](prefix)
        let isPlainDatabase = bytes.count >= header.count && Array(bytes[0..<header.count]) == header
        if encrypted {
            guard !isPlainDatabase else {
                throw RealmError(
                    .notARealm,
                    "Unable to open a Realm at path '\(path)': invalid database: the file is not encrypted, but an encryption key was given.")
            }
            return .database
        }
        guard isPlainDatabase else {
            throw RealmError(
                .notARealm,
                "The file at '\(path)' is not a Realm file: it is not a SQLite database (an invalid database; if it is an encrypted Realm, open it with its encryption key).")
        }
        guard bytes.count == 100 else {
            throw RealmError(.corruptFile, "The Realm file at '\(path)' is truncated: it is \(size) bytes long, shorter than its header.")
        }
        // Page size at offset 16 (1 means 65536), page count at 28, valid when
        // the change counter at 24 equals the version-valid-for number at 92.
        let rawPageSize = UInt32(bytes[16]) << 8 | UInt32(bytes[17])
        let pageSize = rawPageSize == 1 ? 65_536 : UInt64(rawPageSize)
        let pageCount = bigEndian(bytes, at: 28)
        // A checkpoint killed partway leaves the main file shorter than the
        // page count its header (copied from the log first) records, while
        // the log still holds every committed page: SQLite recovers that,
        // so only a file without such a log is refused here.
        if bigEndian(bytes, at: 24) == bigEndian(bytes, at: 92), pageCount > 0, size < pageSize * UInt64(pageCount),
           !hasWriteAheadLog(path + "-wal") {
            throw RealmError(
                .corruptFile,
                "The Realm file at '\(path)' is truncated: its header records \(pageCount) pages of \(pageSize) bytes, but it is only \(size) bytes long.")
        }
        return .database
    }

    /// Whether `path` is a write-ahead log with at least one frame: its
    /// header starts with one of SQLite's two magic numbers.
    private static func hasWriteAheadLog(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 32), header.count == 32,
              let size = try? handle.seekToEnd(), size > 32 else { return false }
        let magic = bigEndian([UInt8](header), at: 0)
        return magic == 0x377F_0682 || magic == 0x377F_0683
    }

    private static func bigEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }
}
