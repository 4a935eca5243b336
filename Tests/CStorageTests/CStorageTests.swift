import CSQLite
import CStorage
import Foundation
import Testing

// zlib's error codes, as the shim documents them.
private let zStreamError: Int32 = -2
private let zDataError: Int32 = -3
private let zBufError: Int32 = -5

/// Deterministic bytes: a SplitMix64 stream, partly repetitive so that it
/// compresses somewhat.
private func sampleBytes(_ count: Int, seed: UInt64 = 1, repetitive: Bool = true) -> [UInt8] {
    var state = seed
    var bytes = [UInt8]()
    bytes.reserveCapacity(count)
    while bytes.count < count {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        if repetitive && z % 4 == 0 {
            // A run of text, which zlib finds again and again.
            bytes += Array("realm-swift-sqlite ".utf8).prefix(count - bytes.count)
        } else {
            withUnsafeBytes(of: z) { bytes += $0.prefix(count - bytes.count) }
        }
    }
    return bytes
}

/// Compresses with the shim; returns the status and the compressed bytes.
private func compress(_ input: [UInt8], level: Int32 = 6, capacity: Int? = nil) -> (status: Int32, bytes: [UInt8]) {
    var length = capacity ?? cstorage_compress_bound(input.count)
    var output = [UInt8](repeating: 0, count: max(length, 1))
    let status = input.withUnsafeBytes { source in
        output.withUnsafeMutableBytes { destination in
            cstorage_compress(source.baseAddress, source.count, destination.baseAddress, &length, level)
        }
    }
    return (status, status == 0 ? Array(output.prefix(length)) : [])
}

/// Decompresses with the shim into a buffer of `count` bytes.
private func uncompress(_ input: [UInt8], count: Int) -> (status: Int32, bytes: [UInt8], length: Int) {
    var length = count
    var output = [UInt8](repeating: 0xAA, count: max(count, 1))
    let status = input.withUnsafeBytes { source in
        output.withUnsafeMutableBytes { destination in
            cstorage_uncompress(source.baseAddress, source.count, destination.baseAddress, &length)
        }
    }
    return (status, Array(output.prefix(count)), length)
}

@Suite struct CompressionShimTests {
    @Test func roundTripOfEmptyInput() {
        let compressed = compress([])
        #expect(compressed.status == 0)
        #expect(!compressed.bytes.isEmpty, "a zlib stream has a header even for no data")
        #expect(compressed.bytes.count <= cstorage_compress_bound(0))
        let restored = uncompress(compressed.bytes, count: 0)
        #expect(restored.status == 0)
        #expect(restored.length == 0)
    }

    @Test func roundTripWithNullSourceForEmptyInput() {
        var length = cstorage_compress_bound(0)
        var output = [UInt8](repeating: 0, count: length)
        let status = output.withUnsafeMutableBytes { destination in
            cstorage_compress(nil, 0, destination.baseAddress, &length, 6)
        }
        #expect(status == 0)
        #expect(uncompress(Array(output.prefix(length)), count: 0).status == 0)
    }

    @Test(arguments: [1, 2, 17, 100, 4096])
    func roundTripOfSmallInputs(count: Int) {
        let input = sampleBytes(count, seed: UInt64(count))
        let compressed = compress(input)
        #expect(compressed.status == 0)
        #expect(compressed.bytes.count <= cstorage_compress_bound(count))
        let restored = uncompress(compressed.bytes, count: count)
        #expect(restored.status == 0)
        #expect(restored.length == count)
        #expect(restored.bytes == input)
    }

    @Test func roundTripOfOneMegabyte() {
        let input = sampleBytes(1 << 20, seed: 77)
        let compressed = compress(input)
        #expect(compressed.status == 0)
        // Partly repetitive data does compress.
        #expect(compressed.bytes.count < input.count)
        let restored = uncompress(compressed.bytes, count: input.count)
        #expect(restored.status == 0)
        #expect(restored.length == input.count)
        #expect(restored.bytes == input)
    }

    @Test func roundTripOfIncompressibleMegabyte() {
        let input = sampleBytes(1 << 20, seed: 78, repetitive: false)
        let bound = cstorage_compress_bound(input.count)
        #expect(bound >= input.count)
        let compressed = compress(input)
        #expect(compressed.status == 0)
        #expect(compressed.bytes.count <= bound)
        #expect(uncompress(compressed.bytes, count: input.count).bytes == input)
    }

    @Test(arguments: [0, 1, 9] as [Int32])
    func everyLevelRoundTrips(level: Int32) {
        let input = Array(repeating: Array("abcabcabd".utf8), count: 1000).flatMap { $0 }
        let compressed = compress(input, level: level)
        #expect(compressed.status == 0)
        if level > 0 { #expect(compressed.bytes.count < input.count / 10) }
        #expect(uncompress(compressed.bytes, count: input.count).bytes == input)
    }

    @Test func invalidLevelIsAnError() {
        let status = compress(Array("data".utf8), level: 42).status
        #expect(status < 0)
        #expect(status == zStreamError)
    }

    @Test func destinationTooSmallIsAnError() {
        let input = sampleBytes(10_000, seed: 3, repetitive: false)
        let status = compress(input, capacity: 100).status
        #expect(status < 0)
        #expect(status == zBufError)
    }

    @Test func corruptInputIsAnError() {
        let input = sampleBytes(5000, seed: 5)
        let compressed = compress(input).bytes
        // Not zlib at all.
        #expect(uncompress(Array("definitely not zlib".utf8), count: 19).status < 0)
        #expect(uncompress([], count: 10).status < 0)
        // A damaged header.
        var header = compressed
        header[0] ^= 0xFF
        #expect(uncompress(header, count: input.count).status == zDataError)
        // A flipped bit in the body or the checksum is caught by Adler-32 at
        // the latest.
        for position in [compressed.count / 2, compressed.count - 1] {
            var damaged = compressed
            damaged[position] ^= 0x10
            let result = uncompress(damaged, count: input.count)
            #expect(result.status < 0, "damage at \(position)")
        }
        // Truncated input.
        #expect(uncompress(Array(compressed.prefix(compressed.count / 2)), count: input.count).status < 0)
        #expect(uncompress(Array(compressed.dropLast()), count: input.count).status < 0)
        // Trailing bytes after the stream mean the framing is wrong.
        #expect(uncompress(compressed + [0, 1, 2], count: input.count).status == zDataError)
    }

    @Test func wrongStatedSizeIsAnError() {
        let input = sampleBytes(5000, seed: 6)
        let compressed = compress(input).bytes
        // Too small: the output does not fit.
        let short = uncompress(compressed, count: input.count - 1)
        #expect(short.status < 0)
        #expect(short.status == zBufError)
        #expect(uncompress(compressed, count: 0).status < 0)
        // Too large: fewer bytes than stated were produced.
        let long = uncompress(compressed, count: input.count + 1)
        #expect(long.status < 0)
        #expect(long.status == zDataError)
        #expect(uncompress(compress([]).bytes, count: 1).status < 0)
        // The right size still works.
        #expect(uncompress(compressed, count: input.count).status == 0)
    }
}

/// An in-memory SQLite database with a one-column table.
private final class Database {
    private(set) var handle: OpaquePointer?

    init() throws {
        guard sqlite3_open(":memory:", &handle) == SQLITE_OK else {
            throw DatabaseError(message: "sqlite3_open failed")
        }
        try execute("CREATE TABLE t (id INTEGER PRIMARY KEY, x)")
    }

    deinit { sqlite3_close(handle) }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw DatabaseError(message: String(cString: sqlite3_errmsg(handle)))
        }
    }

    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw DatabaseError(message: String(cString: sqlite3_errmsg(handle)))
        }
        return statement
    }

    /// Inserts one row, with `bind` binding parameter 1; returns its id and
    /// the binding's result code.
    func insert(_ bind: (OpaquePointer) -> Int32) throws -> (id: Int64, code: Int32) {
        let statement = try prepare("INSERT INTO t (x) VALUES (?)")
        defer { sqlite3_finalize(statement) }
        let code = bind(statement)
        guard code == SQLITE_OK else { return (-1, code) }
        guard sqlite3_step(statement) == SQLITE_DONE else {
            throw DatabaseError(message: String(cString: sqlite3_errmsg(handle)))
        }
        return (sqlite3_last_insert_rowid(handle), code)
    }

    /// The stored type (`typeof(x)`), bytes and `length(x)` of a row.
    func read(_ id: Int64) throws -> (type: String, bytes: [UInt8], length: Int64) {
        let statement = try prepare("SELECT typeof(x), x, length(x) FROM t WHERE id = ?")
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_int64(statement, 1, id)
        guard sqlite3_step(statement) == SQLITE_ROW else { throw DatabaseError(message: "no row \(id)") }
        let type = String(cString: sqlite3_column_text(statement, 0))
        let count = Int(sqlite3_column_bytes(statement, 1))
        var bytes: [UInt8] = []
        if type == "blob", let pointer = sqlite3_column_blob(statement, 1) {
            bytes = Array(UnsafeRawBufferPointer(start: pointer, count: count))
        } else if type == "text", let pointer = sqlite3_column_text(statement, 1) {
            bytes = Array(UnsafeBufferPointer(start: pointer, count: count))
        }
        return (type, bytes, sqlite3_column_int64(statement, 2))
    }
}

private struct DatabaseError: Error {
    let message: String
}

@Suite struct BindShimTests {
    private func bindText(_ text: [UInt8], _ database: Database) throws -> (type: String, bytes: [UInt8], length: Int64) {
        let row = try database.insert { statement in
            text.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    cstorage_bind_text(statement, 1, $0.baseAddress, Int64($0.count))
                }
            }
        }
        #expect(row.code == SQLITE_OK)
        return try database.read(row.id)
    }

    private func bindBlob(_ blob: [UInt8], _ database: Database) throws -> (type: String, bytes: [UInt8], length: Int64) {
        let row = try database.insert { statement in
            blob.withUnsafeBytes { cstorage_bind_blob(statement, 1, $0.baseAddress, Int64($0.count)) }
        }
        #expect(row.code == SQLITE_OK)
        return try database.read(row.id)
    }

    @Test func asciiText() throws {
        let database = try Database()
        let stored = try bindText(Array("hello".utf8), database)
        #expect(stored.type == "text")
        #expect(stored.bytes == Array("hello".utf8))
        #expect(stored.length == 5)
    }

    @Test func textWithEmbeddedNulSurvives() throws {
        let database = try Database()
        let text: [UInt8] = Array("a".utf8) + [0] + Array("b\u{0}c".utf8)
        let stored = try bindText(text, database)
        #expect(stored.type == "text")
        #expect(stored.bytes == text)
        // A NUL must not end the text early when bytes are read back; the
        // bound length, not the terminator, decides.
        #expect(stored.bytes.count == 5)
    }

    @Test func nonASCIITextSurvives() throws {
        let database = try Database()
        let string = "héllo wörld — 日本語 🐶🏳️‍🌈"
        let stored = try bindText(Array(string.utf8), database)
        #expect(stored.type == "text")
        #expect(String(decoding: stored.bytes, as: UTF8.self) == string)
        // length() counts characters (code points) for text.
        #expect(stored.length == Int64(string.unicodeScalars.count))
    }

    @Test func emptyTextIsEmptyNotNull() throws {
        let database = try Database()
        let stored = try bindText([], database)
        #expect(stored.type == "text")
        #expect(stored.bytes == [])
        #expect(stored.length == 0)
        // A null pointer with no length is empty text as well.
        let row = try database.insert { cstorage_bind_text($0, 1, nil, 0) }
        #expect(row.code == SQLITE_OK)
        let fromNull = try database.read(row.id)
        #expect(fromNull.type == "text")
        #expect(fromNull.length == 0)
    }

    @Test func partialLengthBindsOnlyThatPrefix() throws {
        let database = try Database()
        let row = try database.insert { statement in
            Array("abcdef".utf8).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { cstorage_bind_text(statement, 1, $0.baseAddress, 3) }
            }
        }
        #expect(try database.read(row.id).bytes == Array("abc".utf8))
    }

    @Test func blobRoundTrip() throws {
        let database = try Database()
        let blob: [UInt8] = [0, 1, 2, 0, 255, 128, 0]
        let stored = try bindBlob(blob, database)
        #expect(stored.type == "blob")
        #expect(stored.bytes == blob)
        #expect(stored.length == Int64(blob.count))
        let large = sampleBytes(300_000, seed: 9)
        let storedLarge = try bindBlob(large, database)
        #expect(storedLarge.type == "blob")
        #expect(storedLarge.bytes == large)
    }

    @Test func emptyBlobIsAZeroLengthBlobNotNull() throws {
        let database = try Database()
        // From an empty array (whose base address may be nil).
        let stored = try bindBlob([], database)
        #expect(stored.type == "blob")
        #expect(stored.length == 0)
        // From a null pointer.
        let nullRow = try database.insert { cstorage_bind_blob($0, 1, nil, 0) }
        #expect(nullRow.code == SQLITE_OK)
        #expect(try database.read(nullRow.id).type == "blob")
        // From a valid pointer with a zero length.
        var byte: UInt8 = 7
        let pointerRow = try database.insert { statement in
            withUnsafeBytes(of: &byte) { cstorage_bind_blob(statement, 1, $0.baseAddress, 0) }
        }
        #expect(pointerRow.code == SQLITE_OK)
        let fromPointer = try database.read(pointerRow.id)
        #expect(fromPointer.type == "blob")
        #expect(fromPointer.length == 0)
        // And SQL agrees: the rows are not NULL and equal the empty blob.
        let statement = try database.prepare("SELECT count(*) FROM t WHERE x IS NOT NULL AND x = x''")
        defer { sqlite3_finalize(statement) }
        #expect(sqlite3_step(statement) == SQLITE_ROW)
        #expect(sqlite3_column_int64(statement, 0) == 3)
    }

    @Test func buffersMayBeFreedRightAfterBinding() throws {
        let database = try Database()
        let statement = try database.prepare("INSERT INTO t (id, x) VALUES (?, ?)")
        defer { sqlite3_finalize(statement) }
        let text = Array("transient text ✓".utf8)
        let blob = sampleBytes(1000, seed: 11)

        // Text: bind, then scribble over and free the buffer before stepping.
        let textBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: text.count)
        text.withUnsafeBufferPointer { source in
            source.withMemoryRebound(to: CChar.self) { textBuffer.update(from: $0.baseAddress!, count: text.count) }
        }
        sqlite3_bind_int64(statement, 1, 1)
        #expect(cstorage_bind_text(statement, 2, textBuffer, Int64(text.count)) == SQLITE_OK)
        textBuffer.update(repeating: 0x58, count: text.count)
        textBuffer.deallocate()
        #expect(sqlite3_step(statement) == SQLITE_DONE)
        sqlite3_reset(statement)

        // Blob: the same.
        let blobBuffer = UnsafeMutableRawPointer.allocate(byteCount: blob.count, alignment: 1)
        blob.withUnsafeBytes { blobBuffer.copyMemory(from: $0.baseAddress!, byteCount: blob.count) }
        sqlite3_bind_int64(statement, 1, 2)
        #expect(cstorage_bind_blob(statement, 2, blobBuffer, Int64(blob.count)) == SQLITE_OK)
        blobBuffer.initializeMemory(as: UInt8.self, repeating: 0x58, count: blob.count)
        blobBuffer.deallocate()
        #expect(sqlite3_step(statement) == SQLITE_DONE)

        let storedText = try database.read(1)
        #expect(storedText.type == "text")
        #expect(storedText.bytes == text)
        let storedBlob = try database.read(2)
        #expect(storedBlob.type == "blob")
        #expect(storedBlob.bytes == blob)
    }

    @Test func bindingErrorsAreReturned() throws {
        let database = try Database()
        let statement = try database.prepare("SELECT ?")
        defer { sqlite3_finalize(statement) }
        let bytes = Array("abc".utf8)
        // A parameter index out of range.
        let textCode = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cstorage_bind_text(statement, 2, $0.baseAddress, 3) }
        }
        #expect(textCode == SQLITE_RANGE)
        let blobCode = bytes.withUnsafeBytes { cstorage_bind_blob(statement, 0, $0.baseAddress, 3) }
        #expect(blobCode == SQLITE_RANGE)
        #expect(cstorage_bind_blob(statement, 5, nil, 0) == SQLITE_RANGE)

        // Values over the connection's length limit are rejected.
        sqlite3_limit(database.handle, SQLITE_LIMIT_LENGTH, 10)
        let long = Array(repeating: UInt8(ascii: "x"), count: 20)
        let longText = long.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cstorage_bind_text(statement, 1, $0.baseAddress, 20) }
        }
        #expect(longText == SQLITE_TOOBIG)
        let longBlob = long.withUnsafeBytes { cstorage_bind_blob(statement, 1, $0.baseAddress, 20) }
        #expect(longBlob == SQLITE_TOOBIG)
        // Within the limit still works.
        let shortText = long.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cstorage_bind_text(statement, 1, $0.baseAddress, 10) }
        }
        #expect(shortText == SQLITE_OK)
        #expect(sqlite3_step(statement) == SQLITE_ROW)
        #expect(sqlite3_column_bytes(statement, 0) == 10)
    }
}

/// The rowid log collects what the update hook reports of deletions, and
/// nothing else.
@Suite struct RowidLogTests {
    private func execute(_ db: OpaquePointer, _ sql: String) {
        #expect(sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK, "\(sql)")
    }

    @Test func collectsTheRowidsOfDeletedRowsOnly() throws {
        var handle: OpaquePointer?
        #expect(sqlite3_open(":memory:", &handle) == SQLITE_OK)
        let db = try #require(handle)
        defer { sqlite3_close(db) }
        execute(db, "CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)")
        execute(db, "WITH RECURSIVE n(i) AS (SELECT -500 UNION ALL SELECT i + 1 FROM n WHERE i < 999) INSERT INTO t SELECT i, 'x' || i FROM n")

        // The hook keeps the pointer: it must outlive the call, as `&log`
        // would not.
        let log = UnsafeMutablePointer<cstorage_rowid_log>.allocate(capacity: 1)
        log.initialize(to: cstorage_rowid_log())
        defer { log.deallocate() }
        cstorage_rowid_log_attach(db, log)
        // Inserts and updates are not logged; every deleted row is, past
        // the buffer's first growths.
        execute(db, "INSERT INTO t VALUES (5000, 'new'); UPDATE t SET v = 'y' WHERE k < 0")
        execute(db, "DELETE FROM t WHERE k % 3 = 0")
        cstorage_rowid_log_detach(db)
        execute(db, "DELETE FROM t WHERE k = 1")

        let logged = Array(UnsafeBufferPointer(start: log.pointee.rowids, count: log.pointee.count))
        #expect(log.pointee.out_of_memory == 0)
        #expect(logged == Array(stride(from: -498, through: 999, by: 3)).map(Int64.init))
        cstorage_rowid_log_free(log)
        #expect(log.pointee.rowids == nil && log.pointee.count == 0 && log.pointee.capacity == 0)
    }

    @Test func realmSumWrapsAroundInAnyOrder() throws {
        var handle: OpaquePointer?
        #expect(sqlite3_open(":memory:", &handle) == SQLITE_OK)
        let db = try #require(handle)
        defer { sqlite3_close(db) }
        #expect(cstorage_register_functions(db) == SQLITE_OK)
        execute(db, "CREATE TABLE t (k INTEGER PRIMARY KEY, v INTEGER)")
        // A partial sum overflows in key order; the whole sum fits.
        execute(db, "INSERT INTO t (v) VALUES (\(Int64.max)), (1), (NULL), (-5)")

        func sum(_ sql: String) -> (status: Int32, value: Int64?) {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { return (-1, nil) }
            defer { sqlite3_finalize(statement) }
            let status = sqlite3_step(statement)
            let value = status == SQLITE_ROW && sqlite3_column_type(statement, 0) != SQLITE_NULL ? sqlite3_column_int64(statement, 0) : nil
            return (status, value)
        }
        #expect(sum("SELECT sum(v) FROM t ORDER BY k").status == SQLITE_ERROR)
        #expect(sum("SELECT realm_sum(v) FROM (SELECT v FROM t ORDER BY k)").value == Int64.max - 4)
        #expect(sum("SELECT realm_sum(v) FROM (SELECT v FROM t ORDER BY k DESC)").value == Int64.max - 4)
        #expect(sum("SELECT realm_sum(v) FROM t WHERE v IS NULL").status == SQLITE_ROW)
        #expect(sum("SELECT realm_sum(v) FROM t WHERE v IS NULL").value == nil)

        // A whole sum that does not fit wraps around, as Realm's does.
        execute(db, "INSERT INTO t (v) VALUES (10)")
        #expect(sum("SELECT realm_sum(v) FROM t").value == Int64.max &+ 6)
    }

    /// A pipe whose reader is gone: the write fails with EPIPE, and the
    /// process (this test) lives on. Without the shim, SIGPIPE's default
    /// action ends it.
    @Test func writingToAPipeWithoutReaderFailsWithoutSIGPIPE() throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        close(descriptors[0])
        defer { close(descriptors[1]) }
        var byte: UInt8 = 1
        for _ in 0..<3 {
            let written = cstorage_write_without_sigpipe(descriptors[1], &byte, 1)
            #expect(written == -1)
            #expect(errno == EPIPE)
        }
        // The thread's signal mask is as it was: SIGPIPE not blocked.
        var mask = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &mask)
        #expect(sigismember(&mask, SIGPIPE) == 0)
        var pending = sigset_t()
        sigpending(&pending)
        #expect(sigismember(&pending, SIGPIPE) == 0)

        // A pipe with a reader takes the byte.
        #expect(pipe(&descriptors) == 0)
        defer { close(descriptors[0]); close(descriptors[1]) }
        #expect(cstorage_write_without_sigpipe(descriptors[1], &byte, 1) == 1)
    }
}
