#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An error a caller can recover from: a file that cannot be opened, a schema
/// that needs a migration, a value that does not fit its property.
///
/// The message always names what is concerned (the file, the class, the
/// property, the SQL statement) so that it can be shown as it is. Errors never
/// leave a half-applied change behind: an operation that throws has changed
/// nothing, and the enclosing write transaction stays usable.
public struct RealmError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is, for callers that branch on it.
    public enum Kind: Sendable, Equatable {
        /// The file could not be opened, created, read or written (an I/O
        /// error, a full disk), for a reason no other kind names.
        case fileAccess
        /// The file, or the directory it should be in, does not exist.
        case fileNotFound
        /// The process may not open or create the file.
        case filePermissionDenied
        /// A file that is to be written already exists.
        case fileExists
        /// The file exists but is not a Realm: another SQLite database, or
        /// not a database at all.
        case notARealm
        /// The file is damaged: truncated, or with pages SQLite cannot read.
        case corruptFile
        /// The file was written by a newer, incompatible format version.
        case incompatibleFormat
        /// The file is in use by another Realm where exclusive access is
        /// needed (deleting its files, compacting).
        case fileInUse
        /// A model schema is invalid (bad name, unsupported type, missing
        /// link target …).
        case invalidSchema
        /// The stored schema differs from the wanted one and a migration
        /// (a higher schema version) is required.
        case schemaMismatch
        /// A class or property name that the schema does not have.
        case unknownName
        /// A value the operation cannot take, for a reason no other kind
        /// names (a link to an embedded class, a key out of range …).
        case invalidValue
        /// A value of another type than its property's.
        case wrongType
        /// No value (nil, or none given) for a required property.
        case missingValue
        /// A string or data value over the 16 MB limit.
        case valueTooLarge
        /// An object with the same primary key already exists.
        case duplicatePrimaryKey
        /// The object was deleted, or never existed in this Realm.
        case objectNotFound
        /// An operation that needs a write transaction outside of one, a
        /// nested write, or a write to a read-only Realm.
        case invalidTransactionState
        /// An index outside a list's bounds.
        case indexOutOfBounds
        /// SQLite reported an error not covered by another kind.
        case storage
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// A complete sentence that names the file, class, property or statement.
    public let message: String
    /// SQLite's primary result code, when SQLite reported the failure.
    public let sqliteCode: Int32?

    /// Whether this error says the file is damaged or cannot be read: SQLite
    /// found a page that does not check out or a table the catalog names
    /// missing, the file is not a database, or reading it failed.
    package var isDamage: Bool {
        kind == .corruptFile || kind == .notARealm || (kind == .fileAccess && sqliteCode != nil)
    }

    /// Creates an error of `kind` with a message that stands on its own.
    public init(_ kind: Kind, _ message: String, sqliteCode: Int32? = nil) {
        self.kind = kind
        self.message = message
        self.sqliteCode = sqliteCode
    }

    public var description: String { message }
}

extension RealmError.Kind {
    /// The kind of a failed file operation, from the `errno` it set.
    static func file(errno code: Int32) -> Self {
        switch code {
        case ENOENT, ENOTDIR: .fileNotFound
        case EACCES, EPERM, EROFS: .filePermissionDenied
        case EEXIST: .fileExists
        default: .fileAccess
        }
    }
}
