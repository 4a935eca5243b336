import BenchmarkSupport
import Foundation
import GRDBSQLite
import Synchronization

/// The SQLite C API used directly, with prepared statements reused in
/// loops, explicit transactions, and only the columns each workload needs:
/// the floor under any SQLite-backed library.
public final class SQLiteContender: Contender {
    public static let name = "sqlite"

    private let scratch: ScratchSpace
    private var large: (count: Int, connection: Connection, file: URL)?
    private var lookup: (count: Int, connection: Connection)?
    private var tenInts: (count: Int, connection: Connection)?
    private var list: (count: Int, connection: Connection)?
    private var openFile: URL?

    public init(directory: URL) throws {
        scratch = try ScratchSpace(root: directory)
    }

    /// The version of the SQLite library every contender links.
    public static var libraryVersion: String {
        String(cString: sqlite3_libversion())
    }

    // MARK: Files

    private func freshConnection(_ purpose: String) throws -> (Connection, URL) {
        let directory = try scratch.makeDirectory(purpose)
        let connection = try Connection(path: directory.appendingPathComponent("\(purpose).sqlite").path)
        try connection.execute(schemaSQL)
        return (connection, directory)
    }

    private static let insertSQL = "INSERT INTO bench (id, stringCol, indexedString, intCol) VALUES (?, ?, ?, ?)"

    private static func insert(_ i: Int, with statement: Statement) throws {
        statement.bind(i, at: 1)
        statement.bind(Dataset.stringCol(i), at: 2)
        statement.bind(Dataset.uniqueString(i), at: 3)
        statement.bind(Dataset.intCol(i), at: 4)
        try statement.run()
    }

    private static func populate(_ connection: Connection, count: Int) throws {
        let insert = try connection.prepare(insertSQL)
        for start in stride(from: 0, to: count, by: 100_000) {
            try connection.write {
                for i in start..<min(start + 100_000, count) { try Self.insert(i, with: insert) }
            }
        }
    }

    public func storageSettings() throws -> StorageSettings {
        let (connection, directory) = try freshConnection("settings")
        defer { try? FileManager.default.removeItem(at: directory) }
        return StorageSettings(
            journalMode: try connection.text("PRAGMA journal_mode"),
            synchronous: StorageSettings.synchronousName(try connection.integer("PRAGMA synchronous")),
            source: "read back from the connection")
    }

    // MARK: Inserts

    private static func countAndSum(_ connection: Connection) throws -> [Int] {
        [try connection.integer("SELECT count(*) FROM bench"), try connection.integer("SELECT coalesce(sum(intCol), 0) FROM bench")]
    }

    public func insertInOneTransaction(count: Int) throws -> Trial {
        let (connection, directory) = try freshConnection("insert")
        return Trial(scratchDirectory: directory, measure: {
            let insert = try connection.prepare(Self.insertSQL)
            try connection.write {
                for i in 0..<count { try Self.insert(i, with: insert) }
            }
        }, result: { try Self.countAndSum(connection) })
    }

    public func insertInSeparateTransactions(count: Int) throws -> Trial {
        let (connection, directory) = try freshConnection("insert-each")
        return Trial(scratchDirectory: directory, measure: {
            let insert = try connection.prepare(Self.insertSQL)
            for i in 0..<count {
                try connection.write { try Self.insert(i, with: insert) }
            }
        }, result: { try Self.countAndSum(connection) })
    }

    // MARK: The large data set

    private func largeConnection(_ count: Int) throws -> Connection {
        if let large, large.count == count { return large.connection }
        let (connection, directory) = try freshConnection("large")
        try Self.populate(connection, count: count)
        large = (count, connection, directory.appendingPathComponent("large.sqlite"))
        return connection
    }

    public func countMatches(among count: Int) throws -> Trial {
        let connection = try largeConnection(count)
        let tally = Tally()
        return Trial(measure: {
            tally.value = try connection.read {
                let statement = try connection.prepare("SELECT count(*) FROM bench WHERE stringCol = ?")
                statement.bind("a", at: 1)
                _ = try statement.step()
                return statement.int(0)
            }
        }, result: { tally.values })
    }

    public func enumerateMatches(among count: Int) throws -> Trial {
        let connection = try largeConnection(count)
        let tally = Tally(2)
        return Trial(measure: {
            tally.values = try connection.read {
                let statement = try connection.prepare("SELECT intCol FROM bench WHERE stringCol = ?")
                statement.bind("a", at: 1)
                var visited = 0, sum = 0
                while try statement.step() {
                    visited += 1
                    sum += statement.int(0)
                }
                return [visited, sum]
            }
        }, result: { tally.values })
    }

    public func readMatchesByIndex(among count: Int) throws -> Trial {
        let connection = try largeConnection(count)
        let tally = Tally(2)
        return Trial(measure: {
            let values = try connection.read {
                let statement = try connection.prepare("SELECT intCol FROM bench WHERE stringCol = ?")
                statement.bind("a", at: 1)
                var values: [Int] = []
                while try statement.step() { values.append(statement.int(0)) }
                return values
            }
            var sum = 0
            for i in 0..<values.count { sum += values[i] }
            tally.values = [values.count, sum]
        }, result: { tally.values })
    }

    public func sortByInt(count: Int) throws -> Trial {
        let connection = try largeConnection(count)
        let tally = Tally(3)
        return Trial(measure: {
            tally.values = try connection.read {
                let sorted = try connection.prepare("SELECT id FROM bench ORDER BY intCol")
                var ids: [Int] = []
                while try sorted.step() { ids.append(sorted.int(0)) }
                let lookup = try connection.prepare("SELECT intCol FROM bench WHERE id = ?")
                return try [ids[0], ids[ids.count / 2], ids[ids.count - 1]].map { id in
                    lookup.bind(id, at: 1)
                    defer { lookup.reset() }
                    guard try lookup.step() else { throw BenchmarkError("No object \(id)") }
                    return lookup.int(0)
                }
            }
        }, result: { tally.values })
    }

    public func largeDatasetFile(count: Int) throws -> URL {
        _ = try largeConnection(count)
        return large!.file
    }

    public func enumerateAll(inExisting file: URL, count: Int) throws -> Trial {
        let connection = try Connection(path: file.path)
        let tally = Tally(2)
        return Trial(measure: {
            tally.values = try connection.read {
                let statement = try connection.prepare("SELECT intCol FROM bench")
                var visited = 0, sum = 0
                while try statement.step() {
                    visited += 1
                    sum += statement.int(0)
                }
                return [visited, sum]
            }
        }, result: { tally.values })
    }

    // MARK: Fetch

    public func fetchTenInts(count: Int) throws -> Trial {
        let connection: Connection
        if let tenInts, tenInts.count == count {
            connection = tenInts.connection
        } else {
            connection = try freshConnection("ten-ints").0
            let insert = try connection.prepare("INSERT INTO tenInts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
            try connection.write {
                for i in 0..<count {
                    for k in 0..<10 { insert.bind(Dataset.tenInts(i, k), at: Int32(k + 1)) }
                    try insert.run()
                }
            }
            tenInts = (count, connection)
        }
        let tally = Tally(2)
        return Trial(measure: {
            tally.values = try connection.read {
                let statement = try connection.prepare("SELECT i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM tenInts")
                var visited = 0, sum = 0
                while try statement.step() {
                    visited += 1
                    for k in Int32(0)..<10 { sum += statement.int(k) }
                }
                return [visited, sum]
            }
        }, result: { tally.values })
    }

    // MARK: Lookups

    private func lookupConnection(_ count: Int) throws -> Connection {
        if let lookup, lookup.count == count { return lookup.connection }
        let connection = try freshConnection("lookup").0
        let insert = try connection.prepare("INSERT INTO lookup (id, indexedString, unindexedString, intCol) VALUES (?, ?, ?, ?)")
        try connection.write {
            for i in 0..<count {
                insert.bind(i, at: 1)
                insert.bind(Dataset.uniqueString(i), at: 2)
                insert.bind(Dataset.uniqueString(i), at: 3)
                insert.bind(Dataset.intCol(i), at: 4)
                try insert.run()
            }
        }
        lookup = (count, connection)
        return connection
    }

    /// Runs `sql` (one `?`) once per key with one prepared statement,
    /// summing the first column of the single row each finds.
    private func lookUp(_ keys: [Int], among count: Int, sql: String, bind: @escaping (Statement, Int) -> Void) throws -> Trial {
        let connection = try lookupConnection(count)
        let tally = Tally()
        return Trial(measure: {
            tally.value = try connection.read {
                let statement = try connection.prepare(sql)
                var sum = 0
                for key in keys {
                    bind(statement, key)
                    guard try statement.step() else { throw BenchmarkError("No row for key \(key)") }
                    sum += statement.int(0)
                    statement.reset()
                }
                return sum
            }
        }, result: { tally.values })
    }

    public func lookUpPrimaryKeys(_ keys: [Int], among count: Int) throws -> Trial {
        try lookUp(keys, among: count, sql: "SELECT intCol FROM lookup WHERE id = ?") { $0.bind($1, at: 1) }
    }

    public func lookUpIndexedStrings(_ keys: [Int], among count: Int) throws -> Trial {
        try lookUp(keys, among: count, sql: "SELECT intCol FROM lookup WHERE indexedString = ?") {
            $0.bind(Dataset.uniqueString($1), at: 1)
        }
    }

    public func lookUpUnindexedStrings(_ keys: [Int], among count: Int) throws -> Trial {
        try lookUp(keys, among: count, sql: "SELECT intCol FROM lookup WHERE unindexedString = ?") {
            $0.bind(Dataset.uniqueString($1), at: 1)
        }
    }

    public func queryIn(_ keys: [Int], among count: Int) throws -> Trial {
        let connection = try lookupConnection(count)
        let tally = Tally(2)
        return Trial(measure: {
            tally.values = try connection.read {
                let placeholders = Array(repeating: "?", count: keys.count).joined(separator: ", ")
                let statement = try connection.prepare("SELECT intCol FROM lookup WHERE id IN (\(placeholders))")
                for (index, key) in keys.enumerated() { statement.bind(key, at: Int32(index + 1)) }
                var visited = 0, sum = 0
                while try statement.step() {
                    visited += 1
                    sum += statement.int(0)
                }
                return [visited, sum]
            }
        }, result: { tally.values })
    }

    // MARK: Deletes

    public func deleteAll(count: Int) throws -> Trial {
        let (connection, directory) = try freshConnection("delete-all")
        try Self.populate(connection, count: count)
        return Trial(scratchDirectory: directory, measure: {
            try connection.write { try connection.execute("DELETE FROM bench") }
        }, result: {
            [try connection.integer("SELECT count(*) FROM bench")]
        })
    }

    public func deleteMatches(among count: Int) throws -> Trial {
        let (connection, directory) = try freshConnection("delete-matches")
        try Self.populate(connection, count: count)
        return Trial(scratchDirectory: directory, measure: {
            try connection.write {
                let delete = try connection.prepare("DELETE FROM bench WHERE stringCol = ?")
                delete.bind("a", at: 1)
                try delete.run()
            }
        }, result: {
            [try connection.integer("SELECT count(*) FROM bench"),
             try connection.integer("SELECT count(*) FROM bench WHERE stringCol = 'a'")]
        })
    }

    // MARK: Lists

    private static func append(_ count: Int, to owner: Int, in connection: Connection) throws {
        let length = try connection.prepare("SELECT count(*) FROM listItem WHERE listOwnerId = ?")
        length.bind(owner, at: 1)
        _ = try length.step()
        let start = length.int(0)
        let insert = try connection.prepare("INSERT INTO listItem (listOwnerId, position, score) VALUES (?, ?, ?)")
        for i in 0..<count {
            insert.bind(owner, at: 1)
            insert.bind(start + i, at: 2)
            insert.bind(Dataset.listValue(i), at: 3)
            try insert.run()
        }
    }

    private static func listSummary(_ connection: Connection) throws -> [Int] {
        [try connection.integer("SELECT count(*) FROM listItem WHERE listOwnerId = 1"),
         try connection.integer("SELECT coalesce(sum(score), 0) FROM listItem WHERE listOwnerId = 1")]
    }

    public func appendToList(count: Int) throws -> Trial {
        let (connection, directory) = try freshConnection("list-append")
        try connection.execute("INSERT INTO listOwner (id) VALUES (1)")
        return Trial(scratchDirectory: directory, measure: {
            try connection.write { try Self.append(count, to: 1, in: connection) }
        }, result: { try Self.listSummary(connection) })
    }

    public func iterateList(count: Int) throws -> Trial {
        let connection: Connection
        if let list, list.count == count {
            connection = list.connection
        } else {
            connection = try freshConnection("list").0
            try connection.write {
                try connection.execute("INSERT INTO listOwner (id) VALUES (1)")
                try Self.append(count, to: 1, in: connection)
            }
            list = (count, connection)
        }
        let tally = Tally(2)
        return Trial(measure: {
            tally.values = try connection.read {
                let statement = try connection.prepare("SELECT score FROM listItem WHERE listOwnerId = ? ORDER BY position")
                statement.bind(1, at: 1)
                var visited = 0, sum = 0
                while try statement.step() {
                    visited += 1
                    sum += statement.int(0)
                }
                return [visited, sum]
            }
        }, result: { tally.values })
    }

    // MARK: Notifications

    public func measureCommitLatency(commits: Int) throws -> Trial {
        let (writer, directory) = try freshConnection("notify")
        let probe = LatencyProbe()
        // SQLite has no cross-connection notification: the writer wakes
        // the observer thread once COMMIT returns (as a commit hook or a
        // hand-written notifier would), and the observer re-runs the
        // query on its own connection (the keys of every object, as a
        // collection notification does) before calling back.
        let observer = RawObserver(connection: try Connection(path: directory.appendingPathComponent("notify.sqlite").path))
        let thread = Thread {
            observer.run(probe: probe)
        }
        thread.start()
        _ = try probe.waitUntilObserved(0)

        return Trial(scratchDirectory: directory, samples: {
            defer { observer.stop() }
            let insert = try writer.prepare(Self.insertSQL)
            var latencies: [Double] = []
            latencies.reserveCapacity(commits)
            for i in 0..<commits {
                try writer.execute("BEGIN IMMEDIATE")
                try Self.insert(i, with: insert)
                let start = ContinuousClock.now
                try writer.execute("COMMIT")
                observer.commitDidEnd()
                let seen = try probe.waitUntilObserved(i + 1)
                latencies.append(seconds(from: start, to: seen))
            }
            return latencies
        }, result: {
            [probe.seenCount]
        })
    }

    // MARK: Opening

    private func closedOpenFile() throws -> URL {
        if let openFile { return openFile }
        let directory = try scratch.makeDirectory("open")
        let file = directory.appendingPathComponent("open.sqlite")
        do {
            let connection = try Connection(path: file.path)
            try connection.execute(schemaSQL)
            try Self.populate(connection, count: openDatasetCount)
        }
        openFile = file
        return file
    }

    public func openUncached(times: Int) throws -> Trial {
        let file = try closedOpenFile()
        let tally = Tally()
        return Trial(measure: {
            var total = 0
            for _ in 0..<times {
                let connection = try Connection(path: file.path)
                total += try connection.integer("SELECT count(*) FROM bench")
            }
            tally.value = total
        }, result: { tally.values })
    }

    /// A connection is the only handle SQLite has; there is nothing to
    /// cache.
    public func openCached(times: Int) throws -> Trial? {
        nil
    }
}

/// The observer thread of the latency workload: waits for the writer's
/// signal, re-reads, reports to the probe.
///
/// `@unchecked Sendable`: the connection is used by the observer thread
/// only, after `init` hands it over; the rest is synchronised.
private final class RawObserver: @unchecked Sendable {
    private let connection: Connection
    private let commits = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let stopping = Mutex(false)

    init(connection: Connection) {
        self.connection = connection
    }

    func run(probe: LatencyProbe) {
        defer { finished.signal() }
        do {
            let keys = try connection.prepare("SELECT id FROM bench")
            while true {
                var count = 0
                while try keys.step() { count += 1 }
                keys.reset()
                probe.observe(count: count)
                commits.wait()
                if stopping.withLock({ $0 }) { return }
            }
        } catch {
            print("The SQLite observer failed: \(error)")
        }
    }

    /// Called by the writer after COMMIT returns.
    func commitDidEnd() {
        commits.signal()
    }

    func stop() {
        stopping.withLock { $0 = true }
        commits.signal()
        finished.wait()
    }
}
