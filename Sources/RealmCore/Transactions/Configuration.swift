import Foundation

extension Coordinator {
    /// Where a Realm lives and how it is opened.
    public struct Configuration: Sendable {
        /// Where the data lives.
        public enum Location: Hashable, Sendable {
            /// A file at this path (created when missing, unless read-only).
            case file(String)
            /// Memory only: the data lives while any transaction with this
            /// identifier is alive in this process, then it is gone.
            case inMemory(identifier: String)
        }

        /// How far a commit is durable once `commitWrite()` returns.
        public enum Durability: Sendable {
            /// Survives a crash of the process and a loss of power (SQLite's
            /// `synchronous = FULL` in WAL mode). The default, as in Realm.
            case full
            /// Survives a crash of the process; the last commits may be lost
            /// if the machine loses power (`synchronous = NORMAL`). Faster
            /// commits.
            case crashOnly
        }

        public var location: Location
        /// Whether the file is opened for reading only; writes then fail with
        /// ``RealmError/Kind/invalidTransactionState``.
        public var isReadOnly: Bool
        public var durability: Durability
        /// The 64-byte key the file is encrypted with (AES-256 with the
        /// first 32 bytes, HMAC-SHA-256 with the last 32), or nil for a
        /// plain file. An in-memory Realm with a key encrypts its private
        /// file the same way.
        public var encryptionKey: Data?
        /// The schema the caller wants, or nil to use whatever is stored.
        /// Classes it lacks are added; other differences need a migration.
        public var schema: Schema?
        /// The version of `schema`; must not be lower than the stored one.
        public var schemaVersion: UInt64
        /// Runs inside the write transaction that migrates the file to
        /// `schema`, after the schema has been applied, whenever
        /// `schemaVersion` is higher than the stored one (whether or not the
        /// schema changed). Throwing from it cancels the migration and leaves
        /// the file as it was.
        public var migration: (@Sendable (MigrationContext) throws -> Void)?
        /// Whether the schema only grows (a synced Realm's): opening adds
        /// the classes and properties `schema` has that the file lacks,
        /// keeps those the file has that `schema` lacks (other clients use
        /// them), needs no version or migration for either, and refuses a
        /// change to an existing class or property.
        package var isSchemaAdditive = false
        /// How long a statement waits for another process's lock before it
        /// fails as busy, in milliseconds. Shorter only in tests of what
        /// follows a busy file; every transaction of a file shares the
        /// value its first opener gave.
        package var busyTimeoutMilliseconds = Connection.defaultBusyTimeout

        public init(
            location: Location,
            isReadOnly: Bool = false,
            durability: Durability = .full,
            encryptionKey: Data? = nil,
            schema: Schema? = nil,
            schemaVersion: UInt64 = 0,
            migration: (@Sendable (MigrationContext) throws -> Void)? = nil
        ) {
            self.location = location
            self.isReadOnly = isReadOnly
            self.durability = durability
            self.encryptionKey = encryptionKey
            self.schema = schema
            self.schemaVersion = schemaVersion
            self.migration = migration
        }

        /// A configuration for the file at `path`.
        public static func file(_ path: String, schema: Schema? = nil, schemaVersion: UInt64 = 0) -> Configuration {
            Configuration(location: .file(path), schema: schema, schemaVersion: schemaVersion)
        }

        /// A configuration for the in-memory Realm named `identifier`.
        public static func inMemory(_ identifier: String, schema: Schema? = nil, schemaVersion: UInt64 = 0) -> Configuration {
            Configuration(location: .inMemory(identifier: identifier), schema: schema, schemaVersion: schemaVersion)
        }
    }
}

/// What a migration sees: the schema and version it migrates from, the
/// changes, the write transaction at the new schema, and a read transaction
/// pinned at the last version before the migration (the old data, still
/// readable through the old schema).
public struct MigrationContext {
    public let oldSchemaVersion: UInt64
    public let newSchemaVersion: UInt64
    public let oldSchema: Schema
    public let changes: [SchemaChange]
    /// The write transaction, already at the new schema.
    public let transaction: Transaction
    /// A read transaction at the version before the migration began.
    public let oldTransaction: Transaction
}
