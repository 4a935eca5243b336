import Foundation
import RealmCore
import RealmSyncEngine
import RealmSyncWire
import Synchronization

/// One synced Realm on the server (Docs/SyncDesign.md, "Storage"): a file
/// of its own in the data folder holding, in one SQLite database,
///
/// - the history: every changeset integrated, with its server version;
/// - the clients: each client file's owner, the last client version
///   integrated from it and the last server version it said it has;
/// - the materialized state: the Realm itself, with every changeset
///   applied by the same rules as on the clients.
///
/// Integrating an upload applies it to the state and appends it to the
/// history in one SQLite transaction, committed durably before the
/// acknowledgement is sent. Applying it is also the check: a changeset
/// that contradicts the Realm's schema is refused whole.
///
/// All file work runs on the Realm's own serial queue (a state being read
/// for a client, on its reader's: ``StateReader``), off the server's event
/// loops and Swift's cooperative pool.
///
/// On PostgreSQL (``PostgresRealmLog``), the database holds the history
/// and the clients, and decides the order of versions; the file is this
/// process's copy, brought up to date from the database before it is
/// written and whenever another process commits (ServerRealm+Shared.swift).
final class ServerRealm: @unchecked Sendable {
    // @unchecked: `transaction` and `recorder` are used only on `queue`;
    // the rest is locked or atomic.

    let path: RealmPath
    /// The history shared with other server processes, when there is one.
    let log: PostgresRealmLog?
    private let queue: DispatchQueue
    let coordinator: Coordinator
    let transaction: Transaction
    let recorder: ChangesetRecorder
    private let latest: Atomic<UInt64>
    /// The bytes of the changesets in the file's history (an estimate
    /// between compactions, which count them again).
    private let historyBytes = Atomic<Int>(0)
    /// The bytes of the state encoded as a snapshot, when measured (0:
    /// not yet).
    private let dataBytes = Atomic<Int>(0)
    /// A catch-up asked for by another process's commit is on its way.
    let catchUpPending = Atomic<Bool>(false)
    private let watchers = Mutex<[UInt64: AsyncStream<Void>.Continuation]>([:])
    /// Made when a query-based client first binds.
    private let views = Mutex<ViewReader?>(nil)
    private let nextWatcher = Atomic<UInt64>(1)

    /// Opens (or makes) the Realm's file at `fileURL`, and brings it up to
    /// date from `log` when there is one.
    init(path: RealmPath, fileURL: URL, log: PostgresRealmLog? = nil) throws(RealmError) {
        self.path = path
        self.log = log
        queue = DispatchQueue(label: "realm.sync.server.realm\(path)")
        do {
            try FileManager.default.createDirectory(at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw RealmError(.fileAccess, "The folder of the synced Realm '\(path)' cannot be made: \(error.localizedDescription)")
        }
        let coordinator = try Coordinator.open(.file(fileURL.path))
        self.coordinator = coordinator
        recorder = try ChangesetRecorder.installedRecorder(on: coordinator)
        transaction = try coordinator.makeTransaction()
        try transaction.beginWrite()
        do {
            try transaction.replicationExecute("""
                CREATE TABLE IF NOT EXISTS server_history (
                    server_version INTEGER PRIMARY KEY,
                    client_file_ident INTEGER NOT NULL,
                    client_version INTEGER NOT NULL,
                    changeset BLOB NOT NULL,
                    salt INTEGER NOT NULL DEFAULT 0
                );
                CREATE TABLE IF NOT EXISTS server_clients (
                    client_file_ident INTEGER PRIMARY KEY,
                    owner TEXT NOT NULL,
                    last_client_version INTEGER NOT NULL DEFAULT 0,
                    last_server_version INTEGER NOT NULL DEFAULT 0,
                    last_seen INTEGER NOT NULL DEFAULT 0,
                    query_based INTEGER NOT NULL DEFAULT 0
                );
                CREATE TABLE IF NOT EXISTS server_state (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    latest_version INTEGER NOT NULL,
                    compacted_through INTEGER NOT NULL,
                    compacted_salt INTEGER NOT NULL DEFAULT 0
                );
                INSERT OR IGNORE INTO server_state (id, latest_version, compacted_through) VALUES (1, 0, 0);
                CREATE TABLE IF NOT EXISTS server_own_changes (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    last_client_version INTEGER NOT NULL,
                    last_timestamp INTEGER NOT NULL
                );
                INSERT OR IGNORE INTO server_own_changes (id, last_client_version, last_timestamp) VALUES (1, 0, 0);
                """)
            // Files made before server versions had salts, or clients
            // could sync query-based.
            for (table, column) in [("server_history", "salt"), ("server_state", "compacted_salt"), ("server_clients", "query_based")] {
                let select = try transaction.queryStatement("SELECT COUNT(*) FROM pragma_table_info('\(table)') WHERE name = '\(column)'")
                _ = try select.step()
                let exists = select.int64(at: 0) > 0
                select.reset()
                if !exists { try transaction.replicationExecute("ALTER TABLE \(table) ADD COLUMN \(column) INTEGER NOT NULL DEFAULT 0") }
            }
            try transaction.commitWrite()
        } catch {
            transaction.cancelWrite()
            throw error
        }
        latest = Atomic(0)
        latest.store(try Self.serverState(transaction).latest, ordering: .releasing)
        historyBytes.store(try countHistoryBytes(), ordering: .relaxed)
        if let log { try catchUpNow(log) }
    }

    /// The newest server version.
    var latestVersion: UInt64 { latest.load(ordering: .acquiring) }

    /// Notes that the file's newest version is now `version` (on the queue,
    /// once committed).
    func noteLatest(_ version: UInt64) {
        latest.store(version, ordering: .releasing)
    }

    // MARK: Clients

    /// How a bound client catches up.
    enum CatchUp: Equatable {
        /// With the history after the server version it has integrated.
        case history
        /// With the Realm's state (``StateSnapshot``): it has integrated
        /// nothing yet, or was offline past compaction.
        case state
    }

    /// Registers the client file `ident` of user `owner` (or finds it),
    /// notes that it has integrated up to `lastServerVersion`, and returns
    /// the last client version integrated from it and how it catches up.
    ///
    /// - Throws: ``SessionError`` when the identity is another user's, or
    ///   the client has integrated versions this server never had (it was
    ///   restored from a backup: the client must reset its copy).
    ///
    /// A client that synced query-based before and now syncs the whole
    /// Realm catches up from the state: the history after its version
    /// lacks the objects its view left out.
    func register(client ident: UInt64, owner: String, lastServerVersion: UInt64, salt: UInt64,
                  queryBased: Bool = false) async throws(SessionError) -> (acknowledged: UInt64, catchUp: CatchUp) {
        try await run { () throws(SessionError) in
            try self.storage { () throws(RealmError) in
                try self.registerNow(client: ident, owner: owner, lastServerVersion: lastServerVersion, salt: salt, queryBased: queryBased)
            }.get()
        }
    }

    private func registerNow(client ident: UInt64, owner: String, lastServerVersion: UInt64, salt: UInt64,
                             queryBased: Bool) throws(RealmError) -> Result<(acknowledged: UInt64, catchUp: CatchUp), SessionError> {
        if let log {
            // The client may have integrated a version another process
            // committed since this copy was last brought up to date.
            try catchUpNow(log)
            if lastServerVersion > (try Self.serverState(transaction)).latest { try catchUpNow(log) }
        }
        let state = try Self.serverState(transaction)
        guard lastServerVersion <= state.latest else {
            return .failure(SessionError(.badServerVersion, "The client has integrated server version \(lastServerVersion) of '\(path)', which has \(state.latest): the server was restored from a backup. The client must reset its copy."))
        }
        // The version's salt tells this server's version from the one of
        // the same number a server restored from a backup lost: then the
        // client's history and this one differ from some version on.
        let known = try self.salt(of: lastServerVersion)
        if salt != 0, known != 0, salt != known {
            return .failure(SessionError(.divergingHistories, "The client's server version \(lastServerVersion) of '\(path)' is not this server's: the server was restored from a backup. The client must reset its copy."))
        }
        // A client that has integrated nothing catches up faster from the
        // state than by replaying the history; one offline past compaction
        // has no other way. Either keeps its unsynced changes: the state's
        // instructions commute with them.
        var catchUp: CatchUp = lastServerVersion < state.compactedThrough || (lastServerVersion == 0 && state.latest > 0) ? .state : .history
        if let log { return try registerShared(log, client: ident, owner: owner, lastServerVersion: lastServerVersion, queryBased: queryBased, catchUp: catchUp) }
        return try write { () throws(RealmError) -> Result<(acknowledged: UInt64, catchUp: CatchUp), SessionError> in
            let select = try transaction.queryStatement("SELECT owner, last_client_version, query_based FROM server_clients WHERE client_file_ident = ?")
            select.bind(Int64(bitPattern: ident), at: 1)
            var found: (owner: String, lastClientVersion: UInt64, wasQueryBased: Bool)?
            if try select.step() { found = (select.string(at: 0), UInt64(bitPattern: select.int64(at: 1)), select.int64(at: 2) != 0) }
            select.reset()
            if let found, found.owner != owner {
                return .failure(SessionError(.badClientFileIdent, "The client file identity \(ident) belongs to another user's client of '\(path)'."))
            }
            if found?.wasQueryBased == true, !queryBased { catchUp = .state }
            let upsert = try transaction.replicationStatement("""
                INSERT INTO server_clients (client_file_ident, owner, last_server_version, last_seen, query_based) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (client_file_ident) DO UPDATE SET last_server_version = MAX(last_server_version, excluded.last_server_version),
                    last_seen = excluded.last_seen, query_based = excluded.query_based
                """)
            upsert.bind(Int64(bitPattern: ident), at: 1)
            upsert.bind(owner, at: 2)
            upsert.bind(Int64(bitPattern: lastServerVersion), at: 3)
            upsert.bind(Self.now(), at: 4)
            upsert.bind(Int64(queryBased ? 1 : 0), at: 5)
            try upsert.run()
            return .success((found?.lastClientVersion ?? 0, catchUp))
        }
    }

    /// A reader of the Realm's state at its newest version, in chunks
    /// (``StateSnapshot``), for a client catching up from it.
    func stateReader() async throws(SessionError) -> StateReader {
        do {
            return try await StateReader.open(coordinator: coordinator, label: "realm.sync.server.state\(path)")
        } catch {
            throw SessionError(.otherSessionError, "The server could not read the synced Realm '\(path)': \(error.message)", tryAgain: true)
        }
    }

    // MARK: Compaction

    /// Deletes the history every client seen within `retention` has
    /// integrated, once `interval` versions have accumulated since the last
    /// compaction, or once the history outweighs the data (below 32 KB,
    /// it may), so that the history stays within about the data's size
    /// plus what clients still need. A client behind the compacted
    /// history catches up from the state instead.
    func compactIfNeeded(interval: UInt64, retention: TimeInterval) async throws(SessionError) {
        try await run { () throws(SessionError) in
            try self.storage { () throws(RealmError) in
                if let log = self.log {
                    try self.compactSharedNow(log, interval: interval, retention: retention)
                } else {
                    try self.compactNow(interval: interval, retention: retention)
                }
            }
        }
    }

    private func compactNow(interval: UInt64, retention: TimeInterval) throws(RealmError) {
        let state = try Self.serverState(transaction)
        guard try isCompactionDue(state, interval: interval) else { return }
        let select = try transaction.queryStatement("SELECT COALESCE(MIN(last_server_version), ?) FROM server_clients WHERE last_seen >= ?")
        select.bind(Int64(bitPattern: state.latest), at: 1)
        select.bind(Self.now() - Int64(retention * 1000), at: 2)
        _ = try select.step()
        let horizon = min(UInt64(bitPattern: select.int64(at: 0)), state.latest)
        select.reset()
        guard horizon > state.compactedThrough else { return }
        let horizonSalt = try salt(of: horizon)
        _ = try write { () throws(RealmError) -> Result<Void, SessionError> in
            try deleteHistoryNow(through: horizon, salt: horizonSalt)
            return .success(())
        }
    }

    /// The history's size below which it is not compacted for its size:
    /// a small Realm's data is smaller than a handful of changesets.
    static let historyBytesFloor = 32 << 10

    /// Whether `interval` versions accumulated since the last compaction,
    /// or the history outweighs the data: the Realm's state as the
    /// changesets of a ``StateSnapshot`` would carry it, measured the first
    /// time the history passes the floor and again at each compaction, so
    /// that measuring costs no more than the history it lets go.
    func isCompactionDue(_ state: (latest: UInt64, compactedThrough: UInt64), interval: UInt64) throws(RealmError) -> Bool {
        if state.latest - state.compactedThrough >= interval { return true }
        let history = historyBytes.load(ordering: .relaxed)
        guard history >= Self.historyBytesFloor else { return false }
        var data = dataBytes.load(ordering: .relaxed)
        if data == 0 {
            data = try measureDataBytes()
            noteDataBytes(data)
        }
        return history >= data
    }

    /// The size of the state, encoded as a snapshot, read in chunks.
    private func measureDataBytes() throws(RealmError) -> Int {
        try transaction.refresh()
        var stream = StateSnapshot.Stream(transaction)
        var bytes = 0
        while let chunk = try stream.next(instructions: StateReader.chunkInstructions) {
            for changeset in chunk { bytes += ChangesetCoding.encode(changeset).count }
        }
        return bytes
    }

    /// Notes the state's size, measured (at least 1: measured).
    func noteDataBytes(_ bytes: Int) {
        dataBytes.store(max(1, bytes), ordering: .relaxed)
    }

    private func countHistoryBytes() throws(RealmError) -> Int {
        let select = try transaction.queryStatement("SELECT COALESCE(SUM(LENGTH(changeset)), 0) FROM server_history")
        defer { select.reset() }
        _ = try select.step()
        return Int(select.int64(at: 0))
    }

    /// Inside a write: deletes the history through `horizon`, whose salt
    /// is `salt`.
    func deleteHistoryNow(through horizon: UInt64, salt: UInt64) throws(RealmError) {
        let delete = try transaction.replicationStatement("DELETE FROM server_history WHERE server_version <= ?")
        delete.bind(Int64(bitPattern: horizon), at: 1)
        try delete.run()
        historyBytes.store(try countHistoryBytes(), ordering: .relaxed)
        // The data is measured again when the history next passes the
        // floor (a compaction that kept a snapshot notes its size).
        dataBytes.store(0, ordering: .relaxed)
        let save = try transaction.replicationStatement("UPDATE server_state SET compacted_through = ?, compacted_salt = ? WHERE id = 1")
        save.bind(Int64(bitPattern: horizon), at: 1)
        save.bind(Int64(bitPattern: salt), at: 2)
        try save.run()
    }

    /// The newest server version and the last one compacted away.
    func historyExtent() async throws(SessionError) -> (latest: UInt64, compactedThrough: UInt64) {
        try await run { () throws(SessionError) in
            try self.storage { () throws(RealmError) in try Self.serverState(self.transaction) }
        }
    }

    static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    // MARK: Integration

    /// Integrates the changesets of client file `ident`, in client-version
    /// order, and returns the last client version integrated from it.
    /// Changesets it integrated before (uploaded again after a lost
    /// acknowledgement) are skipped.
    ///
    /// `acknowledging` is called with that version before the Realm's
    /// watchers wake, the uploader's own sender among them, so that the
    /// uploader learns of the new version and of its acknowledgement in
    /// one message.
    ///
    /// - Throws: ``SessionError`` (`badChangeset`, `badClientVersion`)
    ///   when one cannot be integrated; none of them is then.
    func integrate(_ changesets: [Changeset], from ident: UInt64, acknowledging: (UInt64) -> Void) async throws(SessionError) {
        let (acknowledged, newVersions) = try await run { () throws(SessionError) -> (UInt64, Bool) in
            try self.storage { () throws(RealmError) in
                guard let log = self.log else { return try self.integrateNow(changesets, from: ident, locked: nil) }
                return try self.database {
                    try log.withLockedRealm(self.path) { locked in
                        try self.catchUpNow(locked)
                        return try self.integrateNow(changesets, from: ident, locked: locked)
                    }
                }
            }.get()
        }
        acknowledging(acknowledged)
        if newVersions { wakeWatchers() }
    }

    /// The newest timestamp a changeset may carry: a day past the
    /// server's clock, room for any device's clock error.
    static func latestAcceptableTimestamp() -> Int64 {
        Int64(Date().timeIntervalSince1970 * 1000) + 86_400_000
    }

    /// Integrates on the queue; `locked` holds the shared history's lock
    /// when there is one, and gets the new versions, committed before the
    /// file's write is.
    private func integrateNow(_ changesets: [Changeset], from ident: UInt64,
                              locked: PostgresRealmLog.LockedRealm?) throws(RealmError) -> Result<(UInt64, Bool), SessionError> {
        let first = try Self.serverState(transaction).latest
        var latest = first
        // The database knows what every process integrated from the client.
        var last: UInt64
        if let locked {
            last = try database { try locked.lastClientVersion(of: ident) }
        } else {
            last = try lastClientVersion(of: ident)
        }
        var rows: [HistoryEntry] = []
        let outcome = try write { () throws(RealmError) -> Result<(UInt64, Bool), SessionError> in
            for changeset in changesets {
                guard changeset.clientFileIdent == ident else {
                    return .failure(SessionError(.badChangeset, "A changeset of client \(changeset.clientFileIdent) was uploaded by client \(ident)."))
                }
                if changeset.clientVersion <= last { continue }
                guard changeset.clientVersion == last + 1 else {
                    return .failure(SessionError(.badClientVersion, "Client version \(changeset.clientVersion) follows \(last)."))
                }
                guard changeset.lastServerVersion <= first else {
                    return .failure(SessionError(.badServerVersion, "A changeset made after server version \(changeset.lastServerVersion) of '\(path)', which has \(first)."))
                }
                // Every replica stamps its writes after the stamps it has
                // seen: one from far in the future would win every conflict
                // after it, for everyone.
                guard changeset.timestamp <= Self.latestAcceptableTimestamp() else {
                    return .failure(SessionError(.badChangeset, "Client version \(changeset.clientVersion) is stamped \(changeset.timestamp) ms, more than a day ahead of the server's clock."))
                }
                latest += 1
                do throws(RealmError) {
                    try ChangesetApplier.apply(changeset, serverVersion: latest, in: transaction, recorder: recorder)
                } catch {
                    // A failure of the disk is the server's, to try again;
                    // anything else is the changeset's.
                    if [RealmError.Kind.storage, .fileAccess, .corruptFile].contains(error.kind) { throw error }
                    return .failure(SessionError(.badChangeset, "Client version \(changeset.clientVersion) cannot be integrated into '\(path)': \(error.message)"))
                }
                let row = HistoryEntry(serverVersion: latest, clientFileIdent: ident, clientVersion: changeset.clientVersion,
                                                      changeset: ChangesetCoding.encode(changeset), salt: Self.newSalt())
                try insertHistoryNow(row)
                rows.append(row)
                last = changeset.clientVersion
            }
            guard latest > first else { return .success((last, false)) }
            // What the client had integrated when it made its newest
            // changeset: the history before it can go for this client.
            let integrated = changesets.map(\.lastServerVersion).max() ?? 0
            let client = try transaction.replicationStatement("""
                UPDATE server_clients SET last_client_version = ?, last_server_version = MAX(last_server_version, ?), last_seen = ?
                WHERE client_file_ident = ?
                """)
            client.bind(Int64(bitPattern: last), at: 1)
            client.bind(Int64(bitPattern: integrated), at: 2)
            client.bind(Self.now(), at: 3)
            client.bind(Int64(bitPattern: ident), at: 4)
            try client.run()
            try saveLatestNow(latest)
            if let locked {
                try database {
                    try locked.commitAppending(rows, by: .client(ident: ident, lastClientVersion: last, lastServerVersion: integrated,
                                                                 seen: Self.now()))
                }
            }
            return .success((last, true))
        }
        if case .success((_, true)) = outcome { self.latest.store(latest, ordering: .releasing) }
        return outcome
    }

    /// Inside a write: appends `row` to the file's history.
    func insertHistoryNow(_ row: HistoryEntry) throws(RealmError) {
        let insert = try transaction.replicationStatement(
            "INSERT INTO server_history (server_version, client_file_ident, client_version, changeset, salt) VALUES (?, ?, ?, ?, ?)")
        insert.bind(Int64(bitPattern: row.serverVersion), at: 1)
        insert.bind(Int64(bitPattern: row.clientFileIdent), at: 2)
        insert.bind(Int64(bitPattern: row.clientVersion), at: 3)
        insert.bind(Data(row.changeset), at: 4)
        insert.bind(Int64(bitPattern: row.salt), at: 5)
        try insert.run()
        historyBytes.add(row.changeset.count, ordering: .relaxed)
    }

    /// Inside a write: makes `version` the file's newest.
    func saveLatestNow(_ version: UInt64) throws(RealmError) {
        let save = try transaction.replicationStatement("UPDATE server_state SET latest_version = ? WHERE id = 1")
        save.bind(Int64(bitPattern: version), at: 1)
        try save.run()
    }

    /// Runs `body` in a write transaction, committed when it succeeds and
    /// cancelled when it throws or fails.
    ///
    /// A copy of a history PostgreSQL holds commits without syncing the
    /// disk: the database is the durable one, and a copy that lost its
    /// last commits to a power cut catches up from it.
    func write<T>(_ body: () throws(RealmError) -> Result<T, SessionError>) throws(RealmError) -> Result<T, SessionError> {
        if log == nil {
            try transaction.beginWrite()
        } else {
            try transaction.beginWriteWithoutSyncingTheDisk()
        }
        let outcome: Result<T, SessionError>
        do {
            outcome = try body()
            if case .success = outcome { try transaction.commitWrite() } else { transaction.cancelWrite() }
        } catch {
            transaction.cancelWrite()
            throw error
        }
        return outcome
    }

    // MARK: The server's own changes

    /// The client file identity of the changesets the server makes itself
    /// (a permission Realm's): above the 62 bits clients choose theirs
    /// from, so that no client can be it.
    static let serverClientIdent: UInt64 = .max

    /// Makes the changes `instructions` computes from the Realm's state
    /// (inside the write, so that nothing comes between reading and
    /// writing) as one changeset of the server's own, integrated and sent
    /// as any client's; nothing when it computes none.
    ///
    /// Its stamps are after every stamp the server made before, whatever
    /// its clock did since, so that a later change always wins over an
    /// earlier one.
    func writeAsServer(_ instructions: @escaping @Sendable (Transaction) throws(RealmError) -> [Instruction]) async throws(SessionError) {
        let newVersion = try await run { () throws(SessionError) -> Bool in
            try self.storage { () throws(RealmError) in
                guard let log = self.log else { return try self.writeAsServerNow(instructions, locked: nil) }
                return try self.database {
                    try log.withLockedRealm(self.path) { locked in
                        try self.catchUpNow(locked)
                        return try self.writeAsServerNow(instructions, locked: locked)
                    }
                }
            }.get()
        }
        if newVersion { wakeWatchers() }
    }

    private func writeAsServerNow(_ instructions: (Transaction) throws(RealmError) -> [Instruction],
                                  locked: PostgresRealmLog.LockedRealm?) throws(RealmError) -> Result<Bool, SessionError> {
        var latest: UInt64 = 0
        let outcome = try write { () throws(RealmError) -> Result<Bool, SessionError> in
            let made = try instructions(transaction)
            guard !made.isEmpty else { return .success(false) }
            let first = try Self.serverState(transaction).latest
            let select = try transaction.queryStatement("SELECT last_client_version, last_timestamp FROM server_own_changes WHERE id = 1")
            _ = try select.step()
            // The database knows every process's own changes.
            let clientVersion = (locked?.extent.ownClientVersion ?? UInt64(bitPattern: select.int64(at: 0))) + 1
            let lastTimestamp = locked?.extent.ownTimestamp ?? select.int64(at: 1)
            select.reset()
            let timestamp = max(Self.now(), lastTimestamp == .max ? .max : lastTimestamp + 1)
            let changeset = Changeset(clientFileIdent: Self.serverClientIdent, clientVersion: clientVersion, lastServerVersion: first,
                                      timestamp: timestamp, firstSequence: 0, instructions: made)
            latest = first + 1
            try ChangesetApplier.apply(changeset, serverVersion: latest, in: transaction, recorder: recorder)
            let row = HistoryEntry(serverVersion: latest, clientFileIdent: Self.serverClientIdent, clientVersion: clientVersion,
                                                  changeset: ChangesetCoding.encode(changeset), salt: Self.newSalt())
            try insertHistoryNow(row)
            let own = try transaction.replicationStatement("UPDATE server_own_changes SET last_client_version = ?, last_timestamp = ? WHERE id = 1")
            own.bind(Int64(bitPattern: clientVersion), at: 1)
            own.bind(timestamp, at: 2)
            try own.run()
            try saveLatestNow(latest)
            if let locked {
                try database { try locked.commitAppending([row], by: .server(clientVersion: clientVersion, timestamp: timestamp)) }
            }
            return .success(true)
        }
        if case .success(true) = outcome { self.latest.store(latest, ordering: .releasing) }
        return outcome
    }

    // MARK: Downloads

    /// Other clients' changesets after server version `after` for client
    /// file `ident`, encoded, in server order, until about `maximumBytes`
    /// (always at least one), the server version the client reaches by
    /// integrating them (past its own changesets too), and the bytes left
    /// after that for the client's progress: one trip to the Realm's queue.
    /// `isCompactedPast` (and nothing else) when compaction deleted
    /// history after `after`: the client must catch up from the state.
    func downloads(after: UInt64, for ident: UInt64, maximumBytes: Int) async throws(SessionError)
        -> (changesets: [(serverVersion: UInt64, bytes: [UInt8])], reached: UInt64, salts: [UInt64: UInt64], bytesAfter: UInt64,
            isCompactedPast: Bool) {
        try await run { () throws(SessionError) in
            try self.storage { () throws(RealmError) in
                try self.transaction.refresh()
                if after < (try Self.serverState(self.transaction)).compactedThrough { return ([], after, [:], 0, true) }
                let select = try self.transaction.queryStatement(
                    "SELECT server_version, client_file_ident, changeset, salt FROM server_history WHERE server_version > ? ORDER BY server_version")
                defer { select.reset() }
                select.bind(Int64(bitPattern: after), at: 1)
                var changesets: [(serverVersion: UInt64, bytes: [UInt8])] = []
                var salts: [UInt64: UInt64] = [:]
                var bytes = 0
                var reached = after
                while try select.step() {
                    let version = UInt64(bitPattern: select.int64(at: 0))
                    if UInt64(bitPattern: select.int64(at: 1)) != ident {
                        if !changesets.isEmpty, bytes >= maximumBytes { break }
                        let changeset = Array(select.data(at: 2))
                        bytes += changeset.count
                        changesets.append((version, changeset))
                        salts[version] = UInt64(bitPattern: select.int64(at: 3))
                    }
                    reached = version
                    salts[reached] = UInt64(bitPattern: select.int64(at: 3))
                }
                select.reset()
                // When no row was read, `reached` is `after`.
                salts[reached] = try self.salt(of: reached)
                return (changesets, reached, salts, try self.bytesToDownloadNow(after: reached, for: ident), false)
            }
        }
    }

    /// The bytes of other clients' changesets after server version `after`
    /// for client file `ident`: what it has to download.
    func bytesToDownload(after: UInt64, for ident: UInt64) async throws(SessionError) -> UInt64 {
        try await run { () throws(SessionError) in
            try self.storage { () throws(RealmError) in
                try self.transaction.refresh()
                return try self.bytesToDownloadNow(after: after, for: ident)
            }
        }
    }

    private func bytesToDownloadNow(after: UInt64, for ident: UInt64) throws(RealmError) -> UInt64 {
        let select = try transaction.queryStatement(
            "SELECT COALESCE(SUM(LENGTH(changeset)), 0) FROM server_history WHERE server_version > ? AND client_file_ident != ?")
        defer { select.reset() }
        select.bind(Int64(bitPattern: after), at: 1)
        select.bind(Int64(bitPattern: ident), at: 2)
        _ = try select.step()
        return UInt64(bitPattern: select.int64(at: 0))
    }

    // MARK: Watching

    /// A stream that yields whenever new server versions are integrated.
    func watch() -> (id: UInt64, changes: AsyncStream<Void>) {
        let id = nextWatcher.add(1, ordering: .relaxed).oldValue
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        watchers.withLock { $0[id] = continuation }
        return (id, stream)
    }

    func unwatch(_ id: UInt64) {
        watchers.withLock { $0.removeValue(forKey: id) }?.finish()
    }

    func wakeWatchers() {
        for continuation in watchers.withLock({ Array($0.values) }) { continuation.yield() }
    }

    /// The reader of the Realm's query-based views, made the first time.
    func viewReader() throws(RealmError) -> ViewReader {
        try views.withLock { reader throws(RealmError) -> ViewReader in
            if let reader { return reader }
            let made = try ViewReader(coordinator: coordinator, label: "realm.sync.server.views\(path)")
            reader = made
            return made
        }
    }

    // MARK: Salts

    /// The salt of server version `version`: a random number given to each
    /// version when it is made, so that a client can tell this server's
    /// version from the one of the same number a server restored from a
    /// backup lost. 0 when unknown (version 0, a version compacted away, a
    /// file from before salts).
    func salt(of version: UInt64) throws(RealmError) -> UInt64 {
        try Self.salt(of: version, in: transaction)
    }

    /// The salt of server version `version`, as `transaction` reads it.
    static func salt(of version: UInt64, in transaction: Transaction) throws(RealmError) -> UInt64 {
        guard version > 0 else { return 0 }
        let select = try transaction.queryStatement("SELECT salt FROM server_history WHERE server_version = ?")
        defer { select.reset() }
        select.bind(Int64(bitPattern: version), at: 1)
        if try select.step() { return UInt64(bitPattern: select.int64(at: 0)) }
        let compacted = try transaction.queryStatement("SELECT compacted_salt FROM server_state WHERE id = 1 AND compacted_through = ?")
        defer { compacted.reset() }
        compacted.bind(Int64(bitPattern: version), at: 1)
        return try compacted.step() ? UInt64(bitPattern: compacted.int64(at: 0)) : 0
    }

    /// The salt of version `version`, from the Realm's queue.
    func saltOfVersion(_ version: UInt64) async throws(SessionError) -> UInt64 {
        try await run { () throws(SessionError) in
            try self.storage { () throws(RealmError) in
                try self.transaction.refresh()
                return try self.salt(of: version)
            }
        }
    }

    private static func newSalt() -> UInt64 {
        UInt64.random(in: 1...UInt64(Int64.max))
    }

    // MARK: Plumbing

    private func lastClientVersion(of ident: UInt64) throws(RealmError) -> UInt64 {
        try Self.lastClientVersion(of: ident, in: transaction)
    }

    /// The last client version integrated from client file `ident`, as
    /// `transaction` reads it.
    static func lastClientVersion(of ident: UInt64, in transaction: Transaction) throws(RealmError) -> UInt64 {
        let select = try transaction.queryStatement("SELECT last_client_version FROM server_clients WHERE client_file_ident = ?")
        defer { select.reset() }
        select.bind(Int64(bitPattern: ident), at: 1)
        return try select.step() ? UInt64(bitPattern: select.int64(at: 0)) : 0
    }

    static func serverState(_ transaction: Transaction) throws(RealmError) -> (latest: UInt64, compactedThrough: UInt64) {
        let select = try transaction.queryStatement("SELECT latest_version, compacted_through FROM server_state WHERE id = 1")
        defer { select.reset() }
        guard try select.step() else { return (0, 0) }
        return (UInt64(bitPattern: select.int64(at: 0)), UInt64(bitPattern: select.int64(at: 1)))
    }

    /// Runs `body` on the Realm's queue.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws(SessionError) -> T) async throws(SessionError) -> T {
        let result: Result<T, SessionError> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: Result { () throws(SessionError) in try body() }) }
        }
        return try result.get()
    }

    /// Runs storage work, turning a storage failure into a session error
    /// the client may retry.
    func storage<T>(_ body: () throws(RealmError) -> T) throws(SessionError) -> T {
        do {
            return try body()
        } catch {
            throw SessionError(.otherSessionError, "The server could not use the synced Realm '\(path)': \(error.message)", tryAgain: true)
        }
    }
}
