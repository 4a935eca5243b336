internal import CStorage
import Foundation

/// A prepared SQLite statement: bind, step, read columns.
///
/// Statements belong to one ``Connection`` and are used by one thread at a
/// time. Cached statements are reset (not finalized) between uses, so that the
/// SQL is compiled once per connection.
package final class Statement {
    let handle: OpaquePointer
    /// The SQL text, for error messages.
    package let sql: String
    private unowned let connection: Connection

    init(handle: OpaquePointer, sql: String, connection: Connection) {
        self.handle = handle
        self.sql = sql
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    // MARK: Executing

    /// Resets the statement so it can run again; bindings are kept until
    /// replaced. Never fails: an error of the previous run was already
    /// reported by `step`.
    @inline(__always)
    package func reset() {
        sqlite3_reset(handle)
    }

    /// Advances to the next row. Returns true when a row is available and
    /// false when the statement has finished.
    @inline(__always)
    package func step() throws(RealmError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            let error = connection.error(code: code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs a statement that returns no rows, then resets it.
    package func run() throws(RealmError) {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    // MARK: Binding (1-based indices, as in SQLite)

    @inline(__always)
    package func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(handle, index, value)
    }

    @inline(__always)
    package func bind(_ value: Double, at index: Int32) {
        sqlite3_bind_double(handle, index, value)
    }

    @inline(__always)
    package func bindNull(at index: Int32) {
        sqlite3_bind_null(handle, index)
    }

    package func bind(_ value: String, at index: Int32) {
        var value = value
        value.withUTF8 { bytes in
            _ = cstorage_bind_text(handle, index, bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, Int64(bytes.count))
        }
    }

    package func bind(bytes: UnsafeRawBufferPointer, at index: Int32) {
        _ = cstorage_bind_blob(handle, index, bytes.baseAddress, Int64(bytes.count))
    }

    package func bind(_ value: Data, at index: Int32) {
        value.withUnsafeBytes { bind(bytes: $0, at: index) }
    }

    // MARK: Reading (0-based column indices, as in SQLite)

    @inline(__always)
    package func isNull(at column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    @inline(__always)
    package func isBlob(at column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_BLOB
    }

    /// Whether column `column` holds a value of storage class `storage`
    /// (cheaper than ``storageClass(at:)``, which makes the enum).
    @inline(__always)
    package func holds(_ storage: StorageClass, at column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == storage.rawValue
    }

    /// SQLite's five storage classes.
    package enum StorageClass: Int32, CustomStringConvertible {
        case integer = 1, real = 2, text = 3, blob = 4, null = 5

        package var description: String {
            switch self {
            case .integer: "an integer"
            case .real: "a real number"
            case .text: "text"
            case .blob: "a blob"
            case .null: "no value"
            }
        }
    }

    @inline(__always)
    package func storageClass(at column: Int32) -> StorageClass {
        StorageClass(rawValue: sqlite3_column_type(handle, column)) ?? .null
    }

    /// The database file's path, for error messages.
    package var path: String { connection.path }

    /// Records damage found while reading a row, for the connection's owner
    /// to report at its next throwing call.
    package func reportDamage(_ error: RealmError) {
        connection.noteDamage(error)
    }

    @inline(__always)
    package func int64(at column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    @inline(__always)
    package func double(at column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    package func string(at column: Int32) -> String {
        // Asking for the text before its length is the order SQLite documents
        // as safe; a NULL pointer means an empty string or an out-of-memory.
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    package func data(at column: Int32) -> Data {
        guard let bytes = sqlite3_column_blob(handle, column) else { return Data() }
        let count = Int(sqlite3_column_bytes(handle, column))
        return Data(bytes: bytes, count: count)
    }

    /// Calls `body` with the blob's bytes, valid only during the call.
    package func withBlob<R>(at column: Int32, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let bytes = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return body(UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : count))
    }

    /// The number of columns in the result.
    package var columnCount: Int32 {
        sqlite3_column_count(handle)
    }

    /// The name of a result column.
    package func columnName(at column: Int32) -> String {
        sqlite3_column_name(handle, column).map { String(cString: $0) } ?? ""
    }
}
