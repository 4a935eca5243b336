internal import CStorage
import Foundation

/// One SQLite connection, with a cache of prepared statements.
///
/// A connection is used by one thread at a time; it is opened in SQLite's
/// multi-thread mode, so moving it between threads (as the coordinator's pool
/// does) is safe while sharing it is not.
package final class Connection {
    let handle: OpaquePointer
    /// The database file's path, for error messages.
    package let path: String
    /// Whether the file is read and written through the encrypting VFS.
    package let isEncrypted: Bool
    /// The lock marking the file in use, held until this connection has
    /// closed (``FileLock``); nil for a connection no coordinator opened.
    var fileLock: FileLock?
    // The statement caches are consulted several times per transaction
    // (seven times in a one-object write), by the one thread that uses the
    // connection at a time: access tracking, three runtime calls a lookup,
    // is left off.
    @exclusivity(unchecked) private var statementCache: [String: Statement] = [:]
    /// The statements asked for last, most recent first: a loop asks for
    /// the same few statements over and over (the sync tables' per
    /// instruction), and comparing the same string literal is cheaper
    /// than hashing it.
    @exclusivity(unchecked) private var recentStatements: [Statement] = []
    private static let recentStatementCapacity = 8

    /// Opens (and, unless `readOnly`, creates) the database at `path`;
    /// through the encrypting VFS when an `encryptionKey` (64 bytes) is
    /// given. `logSyncsEachCommit` tells the VFS whether every commit syncs
    /// the write-ahead log (synchronous = FULL), as it must know to tell a
    /// damaged log frame from one torn by a power loss.
    /// `busyTimeoutMilliseconds` is how long a statement waits for another
    /// process's lock before it fails with `SQLITE_BUSY`.
    package init(path: String, readOnly: Bool, encryptionKey: Data? = nil, logSyncsEachCommit: Bool = true,
                 busyTimeoutMilliseconds: Int32 = Connection.defaultBusyTimeout) throws(RealmError) {
        var handle: OpaquePointer?
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        flags |= readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let status: Int32
        if let encryptionKey {
            try EncryptionKey.validate(encryptionKey, for: "opening '\(path)'")
            status = encryptionKey.withUnsafeBytes { key in
                cstorage_open_encrypted(path, flags, key.bindMemory(to: UInt8.self).baseAddress, logSyncsEachCommit ? 1 : 0, &handle)
            }
        } else {
            status = sqlite3_open_v2(path, &handle, flags, nil)
        }
        guard status == SQLITE_OK, let handle else {
            let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
                ?? String(cString: sqlite3_errstr(status))
            // SQLite keeps the errno of the system call that failed: it
            // tells a missing directory from a denied permission.
            let systemError = handle.map { sqlite3_system_errno($0) } ?? 0
            sqlite3_close_v2(handle)
            if let refusal = EncryptionFailure.take(code: status, path: path) { throw refusal }
            let kind: RealmError.Kind = switch status & 0xff {
            case SQLITE_CANTOPEN: .file(errno: systemError)
            // An encrypted file's first page is read while opening it.
            case SQLITE_CORRUPT: .corruptFile
            case SQLITE_NOTADB: .notARealm
            default: .fileAccess
            }
            throw RealmError(kind, "Unable to open a Realm at path '\(path)': \(message).", sqliteCode: status & 0xff)
        }
        self.isEncrypted = encryptionKey != nil
        self.handle = handle
        self.path = path
        let registered = cstorage_register_functions(handle)
        guard registered == SQLITE_OK else {
            sqlite3_close_v2(handle)
            throw RealmError(.storage, "Unable to register the SQL functions on the Realm at path '\(path)': \(String(cString: sqlite3_errstr(registered))).",
                             sqliteCode: registered)
        }
        // Writers of other processes hold SQLite's write lock only for the
        // length of a commit; waiting for it is what a Realm user expects
        // (`beginWrite()` blocks). Writers of this process queue on the
        // coordinator's lock first and never reach this.
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        walPolicy.initialize(to: cstorage_wal_policy(
            restart_frames: Self.logRestartFrames, reader_wait_ms: 50, busy_timeout_ms: busyTimeoutMilliseconds,
            next_restart_frames: 0, restarts: 0, blocked_restarts: 0))
        cstorage_wal_policy_install(handle, walPolicy)
        // After a restart, a log that a pinned reader let grow is cut back
        // to this size, so that its disk space comes back.
        sqlite3_exec(handle, "PRAGMA journal_size_limit = \(Int(Self.logRestartFrames) * 4096 * 2)", nil, nil, nil)
        if isEncrypted {
            // Both read the schema, which needs the lock the busy timeout
            // waits for; the first read of a wrong key's file fails here.
            try execute("PRAGMA page_size = \(CSTORAGE_ENCRYPTED_PAGE_SIZE); PRAGMA cache_size = -\(CSTORAGE_ENCRYPTED_CACHE_KIB)")
        }
    }

    deinit {
        recentStatements.removeAll()
        statementCache.removeAll()
        sqlite3_close_v2(handle)
        walPolicy.deallocate()
    }

    /// How long a statement waits for another process's lock, in
    /// milliseconds, unless its configuration says otherwise.
    package static let defaultBusyTimeout: Int32 = 60_000

    /// Frames in the log (4 KiB each at the default page size) past which a
    /// commit restarts it: with readers that refresh, the log stays near
    /// 8 MiB (twice that when a restart had to wait for a slow reader),
    /// where it grew by some 80 MiB a second while one of them always held
    /// a snapshot.
    static let logRestartFrames: Int32 = 2_048

    /// This connection's state for `cstorage_wal_policy_install`.
    private let walPolicy = UnsafeMutablePointer<cstorage_wal_policy>.allocate(capacity: 1)

    /// Restarts of the log this connection made, and those readers
    /// prevented.
    package var logRestarts: (done: Int64, blocked: Int64) {
        (walPolicy.pointee.restarts, walPolicy.pointee.blocked_restarts)
    }

    // MARK: Statements

    /// Compiles `sql` into a statement owned by the caller.
    package func prepare(_ sql: String, persistent: Bool = false) throws(RealmError) -> Statement {
        var statement: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let status = sqlite3_prepare_v3(handle, sql, -1, flags, &statement, nil)
        guard status == SQLITE_OK, let statement else {
            let error = error(code: status, sql: sql)
            // The library prepares SQL for the tables and columns its
            // catalog names; when the file lacks one, the file is damaged.
            // SQLite has no code of its own for this, only its message.
            let message = String(cString: sqlite3_errmsg(handle))
            if status & 0xff == SQLITE_ERROR, message.hasPrefix("no such table") || message.hasPrefix("no such column") {
                throw RealmError(.corruptFile, error.message, sqliteCode: error.sqliteCode)
            }
            throw error
        }
        return Statement(handle: statement, sql: sql, connection: self)
    }

    /// A statement for `sql` compiled once per connection and reused; reset
    /// before it is returned.
    package func cachedStatement(_ sql: String) throws(RealmError) -> Statement {
        if let index = recentStatements.firstIndex(where: { $0.sql.utf8.count == sql.utf8.count && $0.sql == sql }) {
            let statement = recentStatements[index]
            if index > 0 {
                recentStatements.remove(at: index)
                recentStatements.insert(statement, at: 0)
            }
            statement.reset()
            return statement
        }
        let statement: Statement
        if let cached = statementCache[sql] {
            cached.reset()
            statement = cached
        } else {
            statement = try prepare(sql, persistent: true)
            statementCache[sql] = statement
        }
        if recentStatements.count == Self.recentStatementCapacity { recentStatements.removeLast() }
        recentStatements.insert(statement, at: 0)
        return statement
    }

    /// Drops every cached statement, after a schema change made them refer
    /// to tables or columns that may be gone.
    package func clearStatementCache() {
        recentStatements.removeAll()
        statementCache.removeAll()
    }

    /// Runs one or more SQL statements that return no rows.
    package func execute(_ sql: String) throws(RealmError) {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else {
            throw error(code: status, sql: sql)
        }
    }

    /// Runs `sql` and returns the first column of its first row as an integer.
    package func scalar(_ sql: String) throws(RealmError) -> Int64? {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        return try statement.step() && !statement.isNull(at: 0) ? statement.int64(at: 0) : nil
    }

    /// Like ``scalar(_:)`` for a statement run once: it is not cached.
    package func scalarUncached(_ sql: String) throws(RealmError) -> Int64? {
        let statement = try prepare(sql)
        defer { statement.reset() }
        return try statement.step() && !statement.isNull(at: 0) ? statement.int64(at: 0) : nil
    }

    /// Runs `body` and returns the rowids of the rows it deleted, in the
    /// order SQLite deleted them, as SQLite's update hook reports them.
    ///
    /// The hook does not see the truncate optimization, which an
    /// unconditional `DELETE FROM t` uses: give such a statement a WHERE.
    package func rowidsDeleted(by body: () throws(RealmError) -> Void) throws(RealmError) -> [Int64] {
        let log = UnsafeMutablePointer<cstorage_rowid_log>.allocate(capacity: 1)
        log.initialize(to: cstorage_rowid_log())
        defer {
            cstorage_rowid_log_free(log)
            log.deallocate()
        }
        cstorage_rowid_log_attach(handle, log)
        defer { cstorage_rowid_log_detach(handle) }
        try body()
        guard log.pointee.out_of_memory == 0 else {
            throw RealmError(.storage, "Out of memory recording the objects deleted from '\(path)'.")
        }
        return Array(UnsafeBufferPointer(start: log.pointee.rowids, count: log.pointee.count))
    }

    /// Copies the schema and every row of this connection's main database
    /// into `destination`, an empty database, as this connection sees them:
    /// inside a write transaction, with its uncommitted changes (which
    /// neither another connection nor SQLite's backup API can see).
    package func copyContents(into destination: Connection) throws(RealmError) {
        var tables: [String] = []
        var laterSQL: [String] = []
        let schema = try prepare("SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid")
        try destination.execute("BEGIN")
        do {
            while try schema.step() {
                let sql = schema.string(at: 2)
                if schema.string(at: 0) == "table" {
                    try destination.execute(sql)
                    tables.append(schema.string(at: 1))
                } else {
                    // Indexes once the rows are in: faster to build at once.
                    laterSQL.append(sql)
                }
            }
            for table in tables {
                try copyRows(of: table, into: destination)
            }
            for sql in laterSQL { try destination.execute(sql) }
            try destination.execute("COMMIT")
        } catch {
            try? destination.execute("ROLLBACK")
            throw error
        }
    }

    /// Copies the rows of `table`, every column as SQLite stores it.
    private func copyRows(of table: String, into destination: Connection) throws(RealmError) {
        let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        let rows = try prepare("SELECT * FROM \(quoted)")
        let width = sqlite3_column_count(rows.handle)
        guard width > 0 else { return }
        let placeholders = Array(repeating: "?", count: Int(width)).joined(separator: ", ")
        let insert = try destination.prepare("INSERT INTO \(quoted) VALUES (\(placeholders))")
        while try rows.step() {
            for column in 0..<width {
                sqlite3_bind_value(insert.handle, column + 1, sqlite3_column_value(rows.handle, column))
            }
            try insert.run()
        }
    }

    // MARK: State

    /// The number of rows changed by the most recent INSERT, UPDATE or DELETE.
    package var changes: Int {
        Int(sqlite3_changes64(handle))
    }

    /// Whether the connection is outside any transaction.
    package var isAutocommit: Bool {
        sqlite3_get_autocommit(handle) != 0
    }

    // MARK: Damage

    /// The first damage found while reading, not yet handed to a caller.
    private var pendingDamage: RealmError?

    /// Keeps `error`, found where no error can be thrown (a value of the
    /// wrong storage class in a row being read), for ``takeDamage()``, and
    /// logs it once per file.
    package func noteDamage(_ error: RealmError) {
        if pendingDamage == nil { pendingDamage = error }
        DamageLog.shared.log(error, for: path)
    }

    /// The damage noted since the last call, if any.
    package func takeDamage() -> RealmError? {
        defer { pendingDamage = nil }
        return pendingDamage
    }

    // MARK: Errors

    /// Turns SQLite's last error into a ``RealmError`` that names the file and
    /// the statement.
    package func error(code: Int32, sql: String) -> RealmError {
        if let refusal = EncryptionFailure.take(code: code, path: path) { return refusal }
        let message = String(cString: sqlite3_errmsg(handle))
        let primary = code & 0xff
        let kind: RealmError.Kind
        switch primary {
        case SQLITE_CORRUPT: kind = .corruptFile
        case SQLITE_NOTADB: kind = .notARealm
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_READONLY, SQLITE_FULL, SQLITE_IOERR: kind = .fileAccess
        // A value longer than SQLite's limit: writes refuse values over
        // 16 MB before SQLite sees them, so only a damaged record header
        // that claims such a length gives this.
        case SQLITE_TOOBIG: kind = .corruptFile
        default: kind = .storage
        }
        return RealmError(kind, "SQLite error \(code) (\(message)) in '\(path)' running: \(sql)", sqliteCode: primary)
    }

    /// SQLite's primary code for constraint violations, for callers that
    /// translate them into their own errors.
    package static let constraintCode = SQLITE_CONSTRAINT

    /// SQLite's primary code for a lock another connection holds.
    package static let busyCode = SQLITE_BUSY
}
