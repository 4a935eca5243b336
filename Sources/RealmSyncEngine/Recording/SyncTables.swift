import Foundation
import RealmCore
import RealmSyncWire

/// The tables sync keeps beside the data in a synced Realm's file
/// (Docs/SyncDesign.md, "Storage"), and the statements that read and write
/// them inside a write transaction.
package enum SyncTables {
    /// Creates the tables a file lacks (inside the write transaction).
    static func prepare(_ transaction: Transaction) throws(RealmError) {
        try transaction.replicationExecute("""
            CREATE TABLE IF NOT EXISTS sync_state (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                client_file_ident INTEGER NOT NULL,
                last_server_version INTEGER NOT NULL DEFAULT 0,
                last_client_version INTEGER NOT NULL DEFAULT 0,
                last_timestamp INTEGER NOT NULL DEFAULT 0,
                next_sequence INTEGER NOT NULL DEFAULT 1,
                next_counter INTEGER NOT NULL DEFAULT 1,
                last_server_salt INTEGER NOT NULL DEFAULT 0
            );
            CREATE TABLE IF NOT EXISTS sync_history (
                client_version INTEGER PRIMARY KEY,
                changeset BLOB NOT NULL
            );
            CREATE TABLE IF NOT EXISTS sync_objects (
                class TEXT NOT NULL,
                object_key INTEGER NOT NULL,
                client INTEGER NOT NULL,
                counter INTEGER NOT NULL,
                PRIMARY KEY (class, object_key)
            ) WITHOUT ROWID;
            CREATE UNIQUE INDEX IF NOT EXISTS sync_objects_by_identity ON sync_objects (class, client, counter);
            CREATE TABLE IF NOT EXISTS sync_lists (
                class TEXT NOT NULL,
                owner INTEGER NOT NULL,
                property TEXT NOT NULL,
                elements BLOB NOT NULL,
                PRIMARY KEY (class, owner, property)
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS sync_embedded (
                class TEXT NOT NULL,
                object_key INTEGER NOT NULL,
                identity BLOB NOT NULL,
                PRIMARY KEY (class, object_key)
            ) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS sync_embedded_by_identity ON sync_embedded (class, identity);
            CREATE TABLE IF NOT EXISTS sync_schema (
                class TEXT NOT NULL,
                property TEXT NOT NULL,
                PRIMARY KEY (class, property)
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS sync_incarnations (
                class TEXT NOT NULL,
                primary_key BLOB NOT NULL,
                next INTEGER NOT NULL,
                PRIMARY KEY (class, primary_key)
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS sync_tombstones (
                class TEXT NOT NULL,
                identity BLOB NOT NULL,
                PRIMARY KEY (class, identity)
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS sync_stamps (
                class TEXT NOT NULL,
                object_key INTEGER NOT NULL,
                property TEXT NOT NULL,
                timestamp INTEGER NOT NULL,
                client INTEGER NOT NULL,
                sequence INTEGER NOT NULL,
                PRIMARY KEY (class, object_key, property)
            ) WITHOUT ROWID;
            """)
        // A query-based file's subscriptions (Docs/SyncDesign.md,
        // "Query-based sync").
        try transaction.replicationExecute("""
            CREATE TABLE IF NOT EXISTS sync_subscriptions (
                name TEXT PRIMARY KEY,
                query BLOB NOT NULL,
                state INTEGER NOT NULL,
                error TEXT,
                created INTEGER NOT NULL
            );
            """)
        // Links waiting for their targets (added in session 29: files
        // made before get the table here).
        try transaction.replicationExecute(PendingLinks.createTable)
        // Registers of sets and maps (added in session 31).
        try transaction.replicationExecute(MemberRegisters.createTable)
        // Names of nested collections (added in session 32).
        try transaction.replicationExecute(NestedNames.createTable)
        // Files synced before server versions had salts.
        let columns = try transaction.queryStatement("SELECT COUNT(*) FROM pragma_table_info('sync_state') WHERE name = 'last_server_salt'")
        _ = try columns.step()
        let hasSalt = columns.int64(at: 0) > 0
        columns.reset()
        if !hasSalt {
            try transaction.replicationExecute("ALTER TABLE sync_state ADD COLUMN last_server_salt INTEGER NOT NULL DEFAULT 0")
        }
    }

    /// The file's sync state row, made with a new client file identity
    /// when missing.
    static func state(_ transaction: Transaction) throws(RealmError) -> SyncState {
        let select = try transaction.replicationStatement(
            "SELECT client_file_ident, last_server_version, last_client_version, last_timestamp, next_sequence, next_counter, last_server_salt FROM sync_state WHERE id = 1")
        defer { select.reset() }
        if try select.step() {
            return SyncState(clientFileIdent: UInt64(bitPattern: select.int64(at: 0)), lastServerVersion: UInt64(bitPattern: select.int64(at: 1)),
                             lastClientVersion: UInt64(bitPattern: select.int64(at: 2)), lastTimestamp: select.int64(at: 3),
                             nextSequence: UInt64(bitPattern: select.int64(at: 4)), nextCounter: UInt64(bitPattern: select.int64(at: 5)),
                             lastServerSalt: UInt64(bitPattern: select.int64(at: 6)))
        }
        let state = SyncState(clientFileIdent: SyncState.newClientFileIdent(), lastServerVersion: 0, lastClientVersion: 0,
                              lastTimestamp: 0, nextSequence: 1, nextCounter: 1, lastServerSalt: 0)
        try save(state, transaction)
        return state
    }

    /// The file's sync state row as stored, or nil before the first
    /// write chose the client file identity; read outside a write too.
    static func storedState(_ transaction: Transaction) throws(RealmError) -> SyncState? {
        let select = try transaction.queryStatement(
            "SELECT client_file_ident, last_server_version, last_client_version, last_timestamp, next_sequence, next_counter, last_server_salt FROM sync_state WHERE id = 1")
        defer { select.reset() }
        guard try select.step() else { return nil }
        return SyncState(clientFileIdent: UInt64(bitPattern: select.int64(at: 0)), lastServerVersion: UInt64(bitPattern: select.int64(at: 1)),
                         lastClientVersion: UInt64(bitPattern: select.int64(at: 2)), lastTimestamp: select.int64(at: 3),
                         nextSequence: UInt64(bitPattern: select.int64(at: 4)), nextCounter: UInt64(bitPattern: select.int64(at: 5)),
                         lastServerSalt: UInt64(bitPattern: select.int64(at: 6)))
    }

    static func save(_ state: SyncState, _ transaction: Transaction) throws(RealmError) {
        let statement = try transaction.replicationStatement("""
            INSERT OR REPLACE INTO sync_state (id, client_file_ident, last_server_version, last_client_version, last_timestamp, next_sequence,
                next_counter, last_server_salt)
            VALUES (1, ?, ?, ?, ?, ?, ?, ?)
            """)
        statement.bind(Int64(bitPattern: state.clientFileIdent), at: 1)
        statement.bind(Int64(bitPattern: state.lastServerVersion), at: 2)
        statement.bind(Int64(bitPattern: state.lastClientVersion), at: 3)
        statement.bind(state.lastTimestamp, at: 4)
        statement.bind(Int64(bitPattern: state.nextSequence), at: 5)
        statement.bind(Int64(bitPattern: state.nextCounter), at: 6)
        statement.bind(Int64(bitPattern: state.lastServerSalt), at: 7)
        try statement.run()
    }

    // MARK: Object identities

    /// The global key of an object of a class without a primary key.
    static func globalKey(of key: ObjectKey, className: String, _ transaction: Transaction) throws(RealmError) -> GlobalKey? {
        let select = try transaction.queryStatement("SELECT client, counter FROM sync_objects WHERE class = ? AND object_key = ?")
        defer { select.reset() }
        select.bind(className, at: 1)
        select.bind(key.rawValue, at: 2)
        guard try select.step() else { return nil }
        return GlobalKey(client: UInt64(bitPattern: select.int64(at: 0)), counter: UInt64(bitPattern: select.int64(at: 1)))
    }

    static func setGlobalKey(_ global: GlobalKey, of key: ObjectKey, className: String, _ transaction: Transaction) throws(RealmError) {
        let insert = try transaction.replicationStatement("INSERT OR REPLACE INTO sync_objects (class, object_key, client, counter) VALUES (?, ?, ?, ?)")
        insert.bind(className, at: 1)
        insert.bind(key.rawValue, at: 2)
        insert.bind(Int64(bitPattern: global.client), at: 3)
        insert.bind(Int64(bitPattern: global.counter), at: 4)
        try insert.run()
    }

    /// The local key of the object with global key `global`.
    static func localKey(of global: GlobalKey, className: String, _ transaction: Transaction) throws(RealmError) -> ObjectKey? {
        let select = try transaction.queryStatement("SELECT object_key FROM sync_objects WHERE class = ? AND client = ? AND counter = ?")
        defer { select.reset() }
        select.bind(className, at: 1)
        select.bind(Int64(bitPattern: global.client), at: 2)
        select.bind(Int64(bitPattern: global.counter), at: 3)
        return try select.step() ? ObjectKey(select.int64(at: 0)) : nil
    }

    /// The identity of an embedded object, stored when it was made.
    static func embeddedIdentity(of key: ObjectKey, className: String, _ transaction: Transaction) throws(RealmError) -> ObjectIdentity? {
        let select = try transaction.queryStatement("SELECT identity FROM sync_embedded WHERE class = ? AND object_key = ?")
        defer { select.reset() }
        select.bind(className, at: 1)
        select.bind(key.rawValue, at: 2)
        guard try select.step() else { return nil }
        do {
            return try ChangesetCoding.decodeIdentity(Array(select.data(at: 0)))
        } catch {
            throw RealmError(.corruptFile, "The sync identity of an embedded '\(className)' cannot be read: \(error)")
        }
    }

    static func setEmbeddedIdentity(_ identity: ObjectIdentity, of key: ObjectKey, className: String, _ transaction: Transaction) throws(RealmError) {
        // An embedded object replaced by another in its slot was deleted by
        // RealmCore without telling sync: its row goes now, so that the
        // identity names the new object alone.
        let stale = try transaction.replicationStatement("DELETE FROM sync_embedded WHERE class = ? AND identity = ?")
        stale.bind(className, at: 1)
        stale.bind(Data(ChangesetCoding.encode(identity: identity)), at: 2)
        try stale.run()
        // What sync kept of an embedded object RealmCore deleted with its
        // owner or slot went unforgotten; SQLite may give its key to this
        // new object (keys are reused after the largest is deleted), which
        // must not inherit it.
        try forgetObject(key, className: className, transaction)
        let insert = try transaction.replicationStatement("INSERT OR REPLACE INTO sync_embedded (class, object_key, identity) VALUES (?, ?, ?)")
        insert.bind(className, at: 1)
        insert.bind(key.rawValue, at: 2)
        insert.bind(Data(ChangesetCoding.encode(identity: identity)), at: 3)
        try insert.run()
    }

    /// The local key of the embedded object with this identity, if it
    /// still exists (RealmCore deletes embedded objects with their owner,
    /// or when another takes their place, without telling sync).
    static func localKey(ofEmbedded identity: ObjectIdentity, className: String, _ transaction: Transaction) throws(RealmError) -> ObjectKey? {
        let select = try transaction.queryStatement("SELECT object_key FROM sync_embedded WHERE class = ? AND identity = ?")
        select.bind(className, at: 1)
        select.bind(Data(ChangesetCoding.encode(identity: identity)), at: 2)
        let key = try select.step() ? ObjectKey(select.int64(at: 0)) : nil
        select.reset()
        guard let key else { return nil }
        return try transaction.objectExists(key, in: transaction.classHandle(named: className)) ? key : nil
    }

    static func forgetObject(_ key: ObjectKey, className: String, _ transaction: Transaction) throws(RealmError) {
        for table in ["sync_objects", "sync_embedded", "sync_stamps", "sync_pending_links"] {
            let delete = try transaction.replicationStatement("DELETE FROM \(table) WHERE class = ? AND object_key = ?")
            delete.bind(className, at: 1)
            delete.bind(key.rawValue, at: 2)
            try delete.run()
        }
        for table in ["sync_lists", "sync_members", "sync_nested"] {
            let delete = try transaction.replicationStatement("DELETE FROM \(table) WHERE class = ? AND owner = ?")
            delete.bind(className, at: 1)
            delete.bind(key.rawValue, at: 2)
            try delete.run()
        }
    }

    // MARK: Schema

    /// The classes and properties replicated so far: class name to its
    /// properties' names.
    static func replicatedSchema(_ transaction: Transaction) throws(RealmError) -> [String: Set<String>] {
        let select = try transaction.queryStatement("SELECT class, property FROM sync_schema")
        defer { select.reset() }
        var schema: [String: Set<String>] = [:]
        while try select.step() {
            schema[select.string(at: 0), default: []].insert(select.string(at: 1))
        }
        return schema
    }

    /// Notes a class (`property` empty) or property as replicated.
    static func noteReplicated(className: String, property: String, _ transaction: Transaction) throws(RealmError) {
        let insert = try transaction.replicationStatement("INSERT OR IGNORE INTO sync_schema (class, property) VALUES (?, ?)")
        insert.bind(className, at: 1)
        insert.bind(property, at: 2)
        try insert.run()
    }

    // MARK: Incarnations

    /// The incarnation of the primary-key object of `className` with this
    /// key: 0 until an object with that key is deleted, then one more at
    /// each deletion.
    package static func incarnation(className: String, primaryKey: SyncValue, _ transaction: Transaction) throws(RealmError) -> UInt32 {
        let select = try transaction.queryStatement("SELECT next FROM sync_incarnations WHERE class = ? AND primary_key = ?")
        defer { select.reset() }
        select.bind(className, at: 1)
        select.bind(Data(ChangesetCoding.encode(identity: .primaryKey(primaryKey, incarnation: 0))), at: 2)
        return try select.step() ? UInt32(truncatingIfNeeded: select.int64(at: 0)) : 0
    }

    /// Whether any primary key of `className` has ended an incarnation:
    /// when none has, every one is at 0.
    static func hasIncarnations(className: String, _ transaction: Transaction) throws(RealmError) -> Bool {
        let select = try transaction.queryStatement("SELECT EXISTS (SELECT 1 FROM sync_incarnations WHERE class = ?)")
        defer { select.reset() }
        select.bind(className, at: 1)
        return try select.step() && select.int64(at: 0) != 0
    }

    /// Makes `incarnation` the current one of a primary key (an object
    /// another replica made again after a deletion).
    static func setIncarnation(_ incarnation: UInt32, className: String, primaryKey: SyncValue, _ transaction: Transaction) throws(RealmError) {
        guard incarnation > 0 else { return }
        try endIncarnation(incarnation - 1, className: className, primaryKey: primaryKey, transaction)
    }

    /// Notes that incarnation `deleted` of the object is gone: the next one
    /// is a new object.
    static func endIncarnation(_ deleted: UInt32, className: String, primaryKey: SyncValue, _ transaction: Transaction) throws(RealmError) {
        let upsert = try transaction.replicationStatement("INSERT OR REPLACE INTO sync_incarnations (class, primary_key, next) VALUES (?, ?, ?)")
        upsert.bind(className, at: 1)
        upsert.bind(Data(ChangesetCoding.encode(identity: .primaryKey(primaryKey, incarnation: 0))), at: 2)
        upsert.bind(Int64(deleted) + 1, at: 3)
        try upsert.run()
    }

    // MARK: Tombstones

    /// Whether an object without a primary key was erased.
    static func isTombstoned(_ identity: ObjectIdentity, className: String, _ transaction: Transaction) throws(RealmError) -> Bool {
        let select = try transaction.queryStatement("SELECT 1 FROM sync_tombstones WHERE class = ? AND identity = ?")
        defer { select.reset() }
        select.bind(className, at: 1)
        select.bind(Data(ChangesetCoding.encode(identity: identity)), at: 2)
        return try select.step()
    }

    static func addTombstone(_ identity: ObjectIdentity, className: String, _ transaction: Transaction) throws(RealmError) {
        let insert = try transaction.replicationStatement("INSERT OR IGNORE INTO sync_tombstones (class, identity) VALUES (?, ?)")
        insert.bind(className, at: 1)
        insert.bind(Data(ChangesetCoding.encode(identity: identity)), at: 2)
        try insert.run()
    }

    /// The stamp of the last write to a property, if any.
    static func stamp(of key: ObjectKey, className: String, property: String, _ transaction: Transaction) throws(RealmError) -> Stamp? {
        let select = try transaction.queryStatement(
            "SELECT timestamp, client, sequence FROM sync_stamps WHERE class = ? AND object_key = ? AND property = ?")
        defer { select.reset() }
        select.bind(className, at: 1)
        select.bind(key.rawValue, at: 2)
        select.bind(property, at: 3)
        guard try select.step() else { return nil }
        return Stamp(timestamp: select.int64(at: 0), client: UInt64(bitPattern: select.int64(at: 1)), sequence: UInt64(bitPattern: select.int64(at: 2)))
    }

    /// Notes a changeset of another replica as integrated: its server
    /// version, and its timestamp as seen (later local writes are stamped
    /// after it).
    static func noteIntegrated(serverVersion: UInt64, salt: UInt64? = nil, timestamp: Int64, _ transaction: Transaction) throws(RealmError) {
        let current = try state(transaction)
        var updated = current
        updated.lastServerVersion = max(current.lastServerVersion, serverVersion)
        updated.lastTimestamp = max(current.lastTimestamp, timestamp)
        // The salt goes with the version the server said it is of; a
        // version reached without one has none known.
        if serverVersion > current.lastServerVersion {
            updated.lastServerSalt = salt ?? 0
        } else if let salt, serverVersion == current.lastServerVersion {
            updated.lastServerSalt = salt
        }
        guard updated != current else { return }
        try save(updated, transaction)
    }

    /// The changesets recorded after client version `after`, encoded,
    /// oldest first.
    static func encodedHistory(after: UInt64, _ transaction: Transaction) throws(RealmError) -> [(clientVersion: UInt64, bytes: [UInt8])] {
        let select = try transaction.queryStatement("SELECT client_version, changeset FROM sync_history WHERE client_version > ? ORDER BY client_version")
        defer { select.reset() }
        select.bind(Int64(bitPattern: after), at: 1)
        var changesets: [(clientVersion: UInt64, bytes: [UInt8])] = []
        while try select.step() {
            changesets.append((UInt64(bitPattern: select.int64(at: 0)), Array(select.data(at: 1))))
        }
        return changesets
    }

    /// The encoded size of the changesets kept with client versions in
    /// `range`.
    static func historyBytes(in range: ClosedRange<UInt64>, _ transaction: Transaction) throws(RealmError) -> UInt64 {
        let select = try transaction.queryStatement(
            "SELECT COALESCE(SUM(LENGTH(changeset)), 0) FROM sync_history WHERE client_version BETWEEN ? AND ?")
        defer { select.reset() }
        select.bind(Int64(clamping: range.lowerBound), at: 1)
        select.bind(Int64(clamping: range.upperBound), at: 2)
        _ = try select.step()
        return UInt64(bitPattern: select.int64(at: 0))
    }

    /// The newest client version kept, or nil.
    static func newestHistory(_ transaction: Transaction) throws(RealmError) -> UInt64? {
        let select = try transaction.queryStatement("SELECT MAX(client_version) FROM sync_history")
        defer { select.reset() }
        guard try select.step(), !select.isNull(at: 0) else { return nil }
        return UInt64(bitPattern: select.int64(at: 0))
    }

    /// The oldest client version kept, or nil.
    static func oldestHistory(_ transaction: Transaction) throws(RealmError) -> UInt64? {
        let select = try transaction.queryStatement("SELECT MIN(client_version) FROM sync_history")
        defer { select.reset() }
        guard try select.step(), !select.isNull(at: 0) else { return nil }
        return UInt64(bitPattern: select.int64(at: 0))
    }

    /// Forgets the changesets up to client version `through`.
    static func deleteHistory(through clientVersion: UInt64, _ transaction: Transaction) throws(RealmError) {
        let delete = try transaction.replicationStatement("DELETE FROM sync_history WHERE client_version <= ?")
        delete.bind(Int64(bitPattern: clientVersion), at: 1)
        try delete.run()
    }

    /// The changesets recorded after client version `after`, oldest first.
    static func history(after: UInt64, _ transaction: Transaction) throws(RealmError) -> [Changeset] {
        let select = try transaction.queryStatement("SELECT changeset FROM sync_history WHERE client_version > ? ORDER BY client_version")
        defer { select.reset() }
        select.bind(Int64(bitPattern: after), at: 1)
        var changesets: [Changeset] = []
        while try select.step() {
            do {
                changesets.append(try ChangesetCoding.decode(Array(select.data(at: 0))))
            } catch {
                throw RealmError(.corruptFile, "A recorded changeset of the Realm cannot be read: \(error)")
            }
        }
        return changesets
    }

    /// Appends a changeset made by this replica.
    static func appendHistory(_ changeset: Changeset, _ transaction: Transaction) throws(RealmError) {
        let bytes = ChangesetCoding.encode(changeset)
        let insert = try transaction.replicationStatement("INSERT INTO sync_history (client_version, changeset) VALUES (?, ?)")
        insert.bind(Int64(bitPattern: changeset.clientVersion), at: 1)
        insert.bind(Data(bytes), at: 2)
        try insert.run()
    }

    // MARK: Stamps

    static func setStamp(_ stamp: Stamp, of key: ObjectKey, className: String, property: String, _ transaction: Transaction) throws(RealmError) {
        let upsert = try transaction.replicationStatement(
            "INSERT OR REPLACE INTO sync_stamps (class, object_key, property, timestamp, client, sequence) VALUES (?, ?, ?, ?, ?, ?)")
        upsert.bind(className, at: 1)
        upsert.bind(key.rawValue, at: 2)
        upsert.bind(property, at: 3)
        upsert.bind(stamp.timestamp, at: 4)
        upsert.bind(Int64(bitPattern: stamp.client), at: 5)
        upsert.bind(Int64(bitPattern: stamp.sequence), at: 6)
        try upsert.run()
    }
}

/// The row of `sync_state`.
struct SyncState: Equatable {
    /// What a session needs of it.
    var fileState: SyncFileState {
        SyncFileState(clientFileIdent: clientFileIdent, lastServerVersion: lastServerVersion, lastServerSalt: lastServerSalt,
                      lastClientVersion: lastClientVersion)
    }

    var clientFileIdent: UInt64
    var lastServerVersion: UInt64
    var lastClientVersion: UInt64
    var lastTimestamp: Int64
    var nextSequence: UInt64
    var nextCounter: UInt64
    /// The salt of `lastServerVersion`, as the server sent it (0 when
    /// unknown).
    var lastServerSalt: UInt64

    /// A client file identity chosen by the client: 62 random bits, never
    /// 0. The server registers it at the first bind rather than hand one
    /// out, so that objects made offline before then need no renaming
    /// (Docs/SyncDesign.md, "Identities").
    static func newClientFileIdent() -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        return UInt64.random(in: 1...(UInt64(1) << 62), using: &generator)
    }
}
