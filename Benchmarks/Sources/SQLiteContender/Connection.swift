import BenchmarkSupport
import GRDBSQLite

/// A SQLite connection, with only what the benchmark needs: the C API
/// behind the thinnest wrapper that keeps the workloads readable.
final class Connection {
    let handle: OpaquePointer

    /// Opens (creating when missing) the file at `path` in WAL mode with
    /// `synchronous = FULL`.
    init(path: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            if let handle { sqlite3_close_v2(handle) }
            throw BenchmarkError("sqlite3_open_v2(\(path)) failed: \(code)")
        }
        self.handle = handle
        try execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL")
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements, ignoring rows.
    func execute(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code, sql) }
    }

    func prepare(_ sql: String) throws -> Statement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code, sql) }
        return Statement(statement, connection: self)
    }

    /// The integer in the first column of the first row.
    func integer(_ sql: String) throws -> Int {
        let statement = try prepare(sql)
        guard try statement.step() else { throw BenchmarkError("No row for \(sql)") }
        return statement.int(0)
    }

    /// The text in the first column of the first row.
    func text(_ sql: String) throws -> String {
        let statement = try prepare(sql)
        guard try statement.step(), let text = sqlite3_column_text(statement.handle, 0) else {
            throw BenchmarkError("No row for \(sql)")
        }
        return String(cString: text)
    }

    /// Runs `body` in a read transaction (one snapshot, and one WAL read
    /// lock instead of one per statement).
    func read<T>(_ body: () throws -> T) throws -> T {
        try transaction("BEGIN", body)
    }

    /// Runs `body` in a write transaction and commits.
    func write<T>(_ body: () throws -> T) throws -> T {
        try transaction("BEGIN IMMEDIATE", body)
    }

    private func transaction<T>(_ begin: String, _ body: () throws -> T) throws -> T {
        try execute(begin)
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    func error(_ code: Int32, _ sql: String) -> BenchmarkError {
        BenchmarkError("SQLite error \(code) (\(String(cString: sqlite3_errmsg(handle)))) in \(sql)")
    }
}

/// A prepared statement.
final class Statement {
    let handle: OpaquePointer
    private let connection: Connection

    init(_ handle: OpaquePointer, connection: Connection) {
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    func bind(_ value: Int, at index: Int32) {
        sqlite3_bind_int64(handle, index, sqlite3_int64(value))
    }

    func bind(_ value: String, at index: Int32) {
        // SQLITE_TRANSIENT: SQLite copies the bytes (the Swift string's
        // C representation only lives during the call).
        sqlite3_bind_text(handle, index, value, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
    }

    /// Steps; true when a row is available.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw connection.error(code, String(cString: sqlite3_sql(handle)))
        }
    }

    /// Runs a statement that returns no rows, then resets it.
    func run() throws {
        _ = try step()
        reset()
    }

    func int(_ column: Int32) -> Int {
        Int(sqlite3_column_int64(handle, column))
    }

    func reset() {
        sqlite3_reset(handle)
    }
}

/// The schema GRDB's migrator creates for the same tables (compared with
/// `sqlite_master` when the benchmark was written), so that the two SQL
/// contenders differ in their API only.
let schemaSQL = """
    CREATE TABLE "bench" ("id" INTEGER PRIMARY KEY, "stringCol" TEXT NOT NULL, "indexedString" TEXT NOT NULL, "intCol" INTEGER NOT NULL);
    CREATE INDEX "bench_on_indexedString" ON "bench"("indexedString");
    CREATE TABLE "lookup" ("id" INTEGER PRIMARY KEY, "indexedString" TEXT NOT NULL, "unindexedString" TEXT NOT NULL, "intCol" INTEGER NOT NULL);
    CREATE INDEX "lookup_on_indexedString" ON "lookup"("indexedString");
    CREATE TABLE "tenInts" ("i0" INTEGER NOT NULL, "i1" INTEGER NOT NULL, "i2" INTEGER NOT NULL, "i3" INTEGER NOT NULL, "i4" INTEGER NOT NULL, "i5" INTEGER NOT NULL, "i6" INTEGER NOT NULL, "i7" INTEGER NOT NULL, "i8" INTEGER NOT NULL, "i9" INTEGER NOT NULL);
    CREATE TABLE "listOwner" ("id" INTEGER PRIMARY KEY);
    CREATE TABLE "listItem" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "listOwnerId" INTEGER NOT NULL REFERENCES "listOwner"("id") ON DELETE CASCADE, "position" INTEGER NOT NULL, "score" INTEGER NOT NULL);
    CREATE INDEX "index_listItem_on_listOwnerId_position" ON "listItem"("listOwnerId", "position");
    """
