import Foundation
import RealmCore
import Synchronization

extension Realm {
    /// Where a Realm lives and how it is opened, as in RealmSwift.
    ///
    /// ```swift
    /// var config = Realm.Configuration()
    /// config.fileURL = URL(fileURLWithPath: "/var/lib/myapp/data.realm")
    /// config.schemaVersion = 2
    /// config.migrationBlock = { migration, oldSchemaVersion in … }
    /// let realm = try Realm(configuration: config)
    /// ```
    public struct Configuration: @unchecked Sendable {
        // @unchecked: the closures (migrationBlock, shouldCompactOnLaunch)
        // are called only on the thread that opens the Realm, never
        // concurrently; the rest are value types.

        /// The configuration `Realm()` uses: the file `default.realm` in the
        /// current working directory, which is what a Linux command-line
        /// tool or server expects. Set it to change what `Realm()` opens.
        public static var defaultConfiguration: Configuration {
            get { defaultStorage.withLock { $0 } }
            set { defaultStorage.withLock { $0 = newValue } }
        }

        private static let defaultStorage = Mutex(Configuration())

        /// The default file: `default.realm` in the current directory.
        public static var defaultFileURL: URL {
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("default.realm")
        }

        /// The file; setting it clears `inMemoryIdentifier` (and makes a
        /// synced configuration an ordinary one: the sync client manages
        /// where synced Realms live).
        public var fileURL: URL? {
            get { storedFileURL }
            set {
                storedFileURL = newValue
                synchronizer = nil
                if newValue != nil { storedInMemoryIdentifier = nil }
            }
        }
        private var storedFileURL: URL?

        /// The name of an in-memory Realm; setting it clears `fileURL` (and
        /// makes a synced configuration an ordinary one).
        public var inMemoryIdentifier: String? {
            get { storedInMemoryIdentifier }
            set {
                storedInMemoryIdentifier = newValue
                synchronizer = nil
                if newValue != nil { storedFileURL = nil }
            }
        }
        private var storedInMemoryIdentifier: String?

        /// Set by the sync client (RealmSync's `syncConfiguration`) with
        /// the synced file's location.
        package var synchronizer: (any RealmSynchronizer)?

        /// How long SQLite waits for another process's lock before a
        /// statement fails as busy; a minute, shortened by tests of what
        /// follows (see ``Realm/beginWrite()``).
        package var busyTimeoutMilliseconds = Connection.defaultBusyTimeout

        /// Makes this a synced configuration of the file at `fileURL`.
        package mutating func synchronize(fileURL: URL, with synchronizer: any RealmSynchronizer) {
            self.fileURL = fileURL
            self.synchronizer = synchronizer
        }

        /// A 64-byte key to encrypt the file with, or nil for a plain file.
        ///
        /// The first 32 bytes key AES-256, the last 32 HMAC-SHA-256. The same
        /// key must be given every time the file is opened; a wrong key fails
        /// the open with an error that says the database is invalid. An
        /// in-memory Realm accepts a key too (its data stays in memory,
        /// encrypted all the same). See Docs/Encryption.md.
        public var encryptionKey: Data?
        /// Opens the file for reading only; writes then fail.
        public var readOnly: Bool
        /// The version of the schema the models describe.
        public var schemaVersion: UInt64
        /// Runs when the file's schema version is lower than `schemaVersion`.
        public var migrationBlock: MigrationBlock?
        /// Deletes the file instead of migrating when a migration is needed.
        public var deleteRealmIfMigrationNeeded: Bool
        /// Asked, with the file's total and used bytes, whether to compact
        /// the file when it is first opened in this process.
        public var shouldCompactOnLaunch: ((Int, Int) -> Bool)?
        /// The classes this Realm may hold; nil for every class the program
        /// uses (classes are registered when first used, and with the
        /// classes they link to).
        public var objectTypes: [Object.Type]?

        /// A configuration; with neither a file URL nor an in-memory
        /// identifier, the file is ``defaultFileURL``.
        public init(
            fileURL: URL? = nil,
            inMemoryIdentifier: String? = nil,
            encryptionKey: Data? = nil,
            readOnly: Bool = false,
            schemaVersion: UInt64 = 0,
            migrationBlock: MigrationBlock? = nil,
            deleteRealmIfMigrationNeeded: Bool = false,
            shouldCompactOnLaunch: ((Int, Int) -> Bool)? = nil,
            objectTypes: [Object.Type]? = nil
        ) {
            self.storedFileURL = inMemoryIdentifier == nil ? (fileURL ?? Self.defaultFileURL) : nil
            self.storedInMemoryIdentifier = inMemoryIdentifier
            self.encryptionKey = encryptionKey
            self.readOnly = readOnly
            self.schemaVersion = schemaVersion
            self.migrationBlock = migrationBlock
            self.deleteRealmIfMigrationNeeded = deleteRealmIfMigrationNeeded
            self.shouldCompactOnLaunch = shouldCompactOnLaunch
            self.objectTypes = objectTypes
        }

        /// What identifies the Realm this configuration opens: the
        /// standardized file path, or the in-memory identifier.
        var identity: String {
            if let identifier = inMemoryIdentifier { return "memory:" + identifier }
            return (fileURL ?? Self.defaultFileURL).standardizedFileURL.path
        }

        var location: Coordinator.Configuration.Location {
            if let identifier = inMemoryIdentifier { return .inMemory(identifier: identifier) }
            return .file((fileURL ?? Self.defaultFileURL).path)
        }
    }
}

/// A migration, called with the migration and the file's old schema
/// version.
public typealias MigrationBlock = (_ migration: Migration, _ oldSchemaVersion: UInt64) throws -> Void
