import Foundation
import Logging
import NIOCore
import PostgresNIO

/// The synced Realms' histories in PostgreSQL (issue 37; Docs/SyncDesign.md,
/// "Several server processes"): what every server process on the database
/// shares, and what decides the order of each Realm's history.
///
/// - `realm_realms`: per Realm, its newest server version, the history
///   compacted away, the server's own changes. A writer locks the Realm's
///   row (`SELECT … FOR UPDATE`) for its whole transaction, so that the
///   versions it appends follow every version committed before, whichever
///   process committed them.
/// - `realm_history`: every changeset integrated, as it was uploaded.
/// - `realm_clients`: each client file's owner and progress.
/// - `realm_snapshots`: the state at the last compaction, for a process
///   whose copy of a Realm is behind the compacted history.
///
/// Each process keeps its own copy of a Realm's materialized state (the
/// Realm's file in its data folder, ``ServerRealm``), brought up to date
/// from the history here before it is read or written. The history is a
/// fold: the same changesets applied in the same order give the same
/// state in every process.
///
/// Every method waits for the database: they run on a Realm's queue,
/// never on an event loop or Swift's concurrency pool.
final class PostgresRealmLog: Sendable {
    private let pool: BlockingPostgresPool

    /// The channel a process notifies when it commits new versions of a
    /// Realm (`"<version> <path>"`) or changes permissions
    /// (`"p <realm path or pattern> <user>"`): ``PostgresChangeListener``.
    static let changeChannel = "realm_changes"

    init(url: PostgresURL, connections: Int, logger: Logger) {
        pool = BlockingPostgresPool(configuration: url.connectionConfiguration, size: connections, logger: logger)
    }

    func shutdown() {
        pool.shutdown()
    }

    /// What `realm_realms` holds for a Realm (all 0 for a Realm never
    /// written).
    struct Extent: Equatable {
        var latest: UInt64 = 0
        var compactedThrough: UInt64 = 0
        var compactedSalt: UInt64 = 0
        /// The version of the snapshot in `realm_snapshots` (0: none).
        var snapshotVersion: UInt64 = 0
        var ownClientVersion: UInt64 = 0
        var ownTimestamp: Int64 = 0
    }

    /// A client file as `realm_clients` holds it.
    struct ClientRow: Equatable {
        var owner: String
        var lastClientVersion: UInt64
        var isQueryBased: Bool
    }

    // MARK: Reading

    func extent(of path: RealmPath) throws -> Extent {
        try pool.withConnection { connection in try Self.extent(of: path, on: connection, locking: false) ?? Extent() }
    }

    /// The history after server version `after`, in order: at most
    /// `limit` rows.
    func history(of path: RealmPath, after: UInt64, limit: Int = 10_000) throws -> [HistoryEntry] {
        try pool.withConnection { connection in try Self.history(of: path, after: after, through: .max, limit: limit, on: connection) }
    }

    /// Registers client file `ident` of `owner` (or finds it), notes the
    /// server version it has integrated and when it was seen, and returns
    /// it as it was before (nil when new). A file of another owner is
    /// returned and left as it is.
    func register(client ident: UInt64, of path: RealmPath, owner: String, lastServerVersion: UInt64, isQueryBased: Bool,
                  seen: Int64) throws -> ClientRow? {
        try pool.withConnection { connection in
            try connection.transaction {
                let pathText = path.description
                let found = try connection.query("""
                    SELECT owner, last_client_version, query_based FROM realm_clients
                    WHERE path = \(pathText) AND client_file_ident = \(Int64(bitPattern: ident)) FOR UPDATE
                    """).first.map { row in
                    let (owner, version, queryBased) = try row.decode((String, Int64, Bool).self)
                    return ClientRow(owner: owner, lastClientVersion: UInt64(bitPattern: version), isQueryBased: queryBased)
                }
                if let found, found.owner != owner { return found }
                // Two processes registering a new file at once: one
                // inserts, the other updates.
                try connection.query("""
                    INSERT INTO realm_clients (path, client_file_ident, owner, last_server_version, last_seen, query_based)
                    VALUES (\(pathText), \(Int64(bitPattern: ident)), \(owner), \(Int64(bitPattern: lastServerVersion)), \(seen), \(isQueryBased))
                    ON CONFLICT (path, client_file_ident) DO UPDATE SET
                        last_server_version = GREATEST(realm_clients.last_server_version, excluded.last_server_version),
                        last_seen = excluded.last_seen, query_based = excluded.query_based
                    WHERE realm_clients.owner = excluded.owner
                    """)
                return found
            }
        }
    }

    /// Tells every process listening that the permissions of `realmPath`
    /// (a path or pattern) changed for `user` (or `*`).
    func notifyPermissionsChanged(realmPath: String, user: String) throws {
        _ = try pool.withConnection { connection in
            try connection.query("SELECT pg_notify(\(Self.changeChannel), \("p \(realmPath) \(user)"))")
        }
    }

    // MARK: Writing

    /// Runs `body` in a transaction holding the Realm's lock: no other
    /// writer of the Realm, in any process, goes on until it ends.
    /// `body` commits (``LockedRealm/commitAppending(_:by:)`` or
    /// ``LockedRealm/commit(notifying:)``); a transaction it leaves open,
    /// or throws out of, is rolled back.
    func withLockedRealm<T>(_ path: RealmPath, _ body: (LockedRealm) throws -> T) throws -> T {
        try pool.withConnection { connection in
            try connection.transaction {
                var found = try Self.extent(of: path, on: connection, locking: true)
                if found == nil {
                    // The Realm's first write: its row, then its lock.
                    try connection.query("INSERT INTO realm_realms (path) VALUES (\(path.description)) ON CONFLICT DO NOTHING")
                    found = try Self.extent(of: path, on: connection, locking: true)
                }
                let extent = found ?? Extent()
                let locked = LockedRealm(path: path, extent: extent, connection: connection)
                let result = try body(locked)
                if connection.isInTransaction { try connection.rollback() }
                return result
            }
        }
    }

    /// A Realm locked for writing, inside its transaction.
    final class LockedRealm {
        let path: RealmPath
        /// The Realm as the lock found it.
        let extent: Extent
        private let connection: BlockingPostgresConnection
        private var pathText: String { path.description }

        fileprivate init(path: RealmPath, extent: Extent, connection: BlockingPostgresConnection) {
            self.path = path
            self.extent = extent
            self.connection = connection
        }

        /// The history in `(after, through]`, in order.
        func history(after: UInt64, through: UInt64) throws -> [HistoryEntry] {
            try PostgresRealmLog.history(of: path, after: after, through: through, limit: nil, on: connection)
        }

        /// The snapshot of the Realm's state at `extent.snapshotVersion`:
        /// the ``StateSnapshot`` changesets, encoded, in order.
        func snapshot() throws -> [[UInt8]] {
            var changesets: [[UInt8]] = []
            for row in try connection.query("SELECT changesets FROM realm_snapshots WHERE path = \(pathText) ORDER BY part") {
                changesets += try SnapshotFraming.split(try row.decode(ByteBuffer.self))
            }
            return changesets
        }

        /// The last client version integrated from each client file.
        func clientVersions() throws -> [(ident: UInt64, lastClientVersion: UInt64)] {
            try connection.query("SELECT client_file_ident, last_client_version FROM realm_clients WHERE path = \(pathText)").map { row in
                let (ident, version) = try row.decode((Int64, Int64).self)
                return (UInt64(bitPattern: ident), UInt64(bitPattern: version))
            }
        }

        func lastClientVersion(of ident: UInt64) throws -> UInt64 {
            try connection.query("""
                SELECT last_client_version FROM realm_clients WHERE path = \(pathText) AND client_file_ident = \(Int64(bitPattern: ident))
                """).first.map { UInt64(bitPattern: try $0.decode(Int64.self)) } ?? 0
        }

        /// Whose changesets an append holds, and what it notes of them.
        enum Author {
            /// A client file's, integrated through `lastClientVersion`,
            /// made after it had integrated `lastServerVersion`.
            case client(ident: UInt64, lastClientVersion: UInt64, lastServerVersion: UInt64, seen: Int64)
            /// The server's own, the newest of client version `clientVersion`
            /// and stamp `timestamp`.
            case server(clientVersion: UInt64, timestamp: Int64)
        }

        /// Appends `rows` to the history, makes the last one the Realm's
        /// newest version, notes the author's progress, tells every process
        /// listening, and commits: one statement, then the commit.
        func commitAppending(_ rows: [HistoryEntry], by author: Author) throws {
            guard let last = rows.last else { return try connection.commit() }
            let latest = Int64(bitPattern: last.serverVersion)
            // A client's progress is another table's row, noted in the same
            // statement; the server's own is the Realm's row, which one
            // statement may not update twice.
            var clientProgress: (ident: Int64, lastClientVersion: Int64, lastServerVersion: Int64, seen: Int64) = (0, 0, 0, 0)
            if case .client(let ident, let lastClientVersion, let lastServerVersion, let seen) = author {
                clientProgress = (Int64(bitPattern: ident), Int64(bitPattern: lastClientVersion), Int64(bitPattern: lastServerVersion), seen)
            }
            try connection.query("""
                WITH appended AS (
                    INSERT INTO realm_history (path, server_version, client_file_ident, client_version, changeset, salt)
                    SELECT \(pathText), * FROM UNNEST(\(rows.map { Int64(bitPattern: $0.serverVersion) })::BIGINT[],
                        \(rows.map { Int64(bitPattern: $0.clientFileIdent) })::BIGINT[], \(rows.map { Int64(bitPattern: $0.clientVersion) })::BIGINT[],
                        \(rows.map { ByteBuffer(bytes: $0.changeset) })::BYTEA[], \(rows.map { Int64(bitPattern: $0.salt) })::BIGINT[])
                    RETURNING 1
                ), newest AS (
                    UPDATE realm_realms SET latest_version = \(latest) WHERE path = \(pathText) RETURNING 1
                ), client AS (
                    UPDATE realm_clients SET last_client_version = \(clientProgress.lastClientVersion),
                        last_server_version = GREATEST(last_server_version, \(clientProgress.lastServerVersion)), last_seen = \(clientProgress.seen)
                    WHERE path = \(pathText) AND client_file_ident = \(clientProgress.ident) AND \(clientProgress.seen) > 0 RETURNING 1
                )
                SELECT pg_notify(\(PostgresRealmLog.changeChannel), \("\(last.serverVersion) \(pathText)")),
                    (SELECT COUNT(*) FROM appended), (SELECT COUNT(*) FROM newest), (SELECT COUNT(*) FROM client)
                """)
            if case .server(let clientVersion, let timestamp) = author {
                try connection.query("""
                    UPDATE realm_realms SET own_client_version = \(Int64(bitPattern: clientVersion)), own_timestamp = \(timestamp)
                    WHERE path = \(pathText)
                    """)
            }
            try connection.commit()
        }

        /// The oldest server version a client seen since `seenSince` still
        /// needs the history after (`latest` when none).
        func horizon(seenSince: Int64) throws -> UInt64 {
            let row = try connection.query("""
                SELECT MIN(last_server_version) FROM realm_clients WHERE path = \(pathText) AND last_seen >= \(seenSince)
                """).first
            let oldest = try row?.decode(Int64?.self).map { UInt64(bitPattern: $0) }
            return min(oldest ?? extent.latest, extent.latest)
        }

        /// Deletes the history through `horizon` and keeps `snapshot`, the
        /// state at the newest version, in place of the previous one.
        func compact(through horizon: UInt64, salt: UInt64, snapshot: [[UInt8]]) throws {
            try connection.query("DELETE FROM realm_snapshots WHERE path = \(pathText)")
            for (part, bytes) in SnapshotFraming.parts(of: snapshot).enumerated() {
                try connection.query("INSERT INTO realm_snapshots (path, part, changesets) VALUES (\(pathText), \(part), \(bytes))")
            }
            try connection.query("DELETE FROM realm_history WHERE path = \(pathText) AND server_version <= \(Int64(bitPattern: horizon))")
            try connection.query("""
                UPDATE realm_realms SET compacted_through = \(Int64(bitPattern: horizon)), compacted_salt = \(Int64(bitPattern: salt)),
                    snapshot_version = latest_version
                WHERE path = \(pathText)
                """)
        }

        /// Commits, telling every process listening that the Realm is now
        /// at `version` (when it changed).
        func commit(notifying version: UInt64?) throws {
            if let version {
                try connection.query("SELECT pg_notify(\(PostgresRealmLog.changeChannel), \("\(version) \(pathText)"))")
            }
            try connection.commit()
        }
    }

    // MARK: Statements

    /// The Realm's row, nil when it has none yet.
    private static func extent(of path: RealmPath, on connection: BlockingPostgresConnection, locking: Bool) throws -> Extent? {
        let query: PostgresQuery = locking
            ? """
              SELECT latest_version, compacted_through, compacted_salt, snapshot_version, own_client_version, own_timestamp
              FROM realm_realms WHERE path = \(path.description) FOR UPDATE
              """
            : """
              SELECT latest_version, compacted_through, compacted_salt, snapshot_version, own_client_version, own_timestamp
              FROM realm_realms WHERE path = \(path.description)
              """
        guard let row = try connection.query(query).first else { return nil }
        let (latest, compacted, salt, snapshot, own, timestamp) = try row.decode((Int64, Int64, Int64, Int64, Int64, Int64).self)
        return Extent(latest: UInt64(bitPattern: latest), compactedThrough: UInt64(bitPattern: compacted),
                      compactedSalt: UInt64(bitPattern: salt), snapshotVersion: UInt64(bitPattern: snapshot),
                      ownClientVersion: UInt64(bitPattern: own), ownTimestamp: timestamp)
    }

    private static func history(of path: RealmPath, after: UInt64, through: UInt64, limit: Int?,
                                on connection: BlockingPostgresConnection) throws -> [HistoryEntry] {
        let upper = Int64(bitPattern: min(through, UInt64(Int64.max)))
        return try connection.query("""
            SELECT server_version, client_file_ident, client_version, changeset, salt FROM realm_history
            WHERE path = \(path.description) AND server_version > \(Int64(bitPattern: after)) AND server_version <= \(upper)
            ORDER BY server_version LIMIT \(Int64(limit ?? Int(Int32.max)))
            """).map { row in
            let (version, ident, clientVersion, changeset, salt) = try row.decode((Int64, Int64, Int64, ByteBuffer, Int64).self)
            return HistoryEntry(serverVersion: UInt64(bitPattern: version), clientFileIdent: UInt64(bitPattern: ident),
                              clientVersion: UInt64(bitPattern: clientVersion), changeset: Array(changeset.readableBytesView),
                              salt: UInt64(bitPattern: salt))
        }
    }
}

/// The changesets of a snapshot in `realm_snapshots` rows: each a 4-byte
/// big-endian length and the encoded changeset, in parts of about 1 MB.
enum SnapshotFraming {
    static let partBytes = 1 << 20

    static func parts(of changesets: [[UInt8]]) -> [ByteBuffer] {
        var parts: [ByteBuffer] = []
        var current = ByteBuffer()
        for changeset in changesets {
            if current.readableBytes > 0, current.readableBytes + changeset.count > partBytes {
                parts.append(current)
                current = ByteBuffer()
            }
            current.writeInteger(UInt32(changeset.count))
            current.writeBytes(changeset)
        }
        if current.readableBytes > 0 { parts.append(current) }
        return parts
    }

    static func split(_ part: ByteBuffer) throws -> [[UInt8]] {
        var part = part
        var changesets: [[UInt8]] = []
        while part.readableBytes > 0 {
            guard let length = part.readInteger(as: UInt32.self), let bytes = part.readBytes(length: Int(length)) else {
                throw SnapshotFramingError()
            }
            changesets.append(bytes)
        }
        return changesets
    }
}

/// A snapshot row that is not a whole number of framed changesets.
struct SnapshotFramingError: Error, CustomStringConvertible {
    var description: String { "a snapshot of a synced Realm in PostgreSQL is damaged" }
}
