import BenchmarkSupport
import Dispatch
import Foundation
import GRDB

/// GRDB at its fastest, as its own performance tests use it: the peer
/// every realm ratio is held to.
///
/// - A `DatabaseQueue` in WAL mode, except for the notification workload,
///   where an observer reads while the writer commits: a `DatabasePool`.
/// - Records with a hand-written `init(row:)` reading columns by index and
///   a `databaseSelection` naming their columns (``BenchRecord``).
/// - `fetchCursor` to enumerate, `fetchAll` where an array is wanted,
///   `db.cachedStatement(sql:)` in every loop of queries, and inserts
///   through one prepared statement with `setUncheckedArguments`.
///
/// Reads go through `queue.read`, one block per measured operation: one
/// read transaction, as realm's reads have.
public final class GRDBContender: Contender {
    public static let name = "grdb"

    private let scratch: ScratchSpace
    private var large: (count: Int, queue: DatabaseQueue, file: URL)?
    private var lookup: (count: Int, queue: DatabaseQueue)?
    private var tenInts: (count: Int, queue: DatabaseQueue)?
    private var list: (count: Int, queue: DatabaseQueue)?
    private var openFile: URL?

    public init(directory: URL) throws {
        scratch = try ScratchSpace(root: directory)
    }

    // MARK: Files

    /// A queue on a new file with the schema.
    private func freshQueue(_ purpose: String) throws -> (DatabaseQueue, URL) {
        let directory = try scratch.makeDirectory(purpose)
        let queue = try openQueue(directory.appendingPathComponent("\(purpose).sqlite"))
        try migrator.migrate(queue)
        return (queue, directory)
    }

    private static func populate(_ queue: DatabaseQueue, count: Int) throws {
        for start in stride(from: 0, to: count, by: 100_000) {
            try queue.write { db in
                let statement = try db.cachedStatement(sql: BenchRecord.insertSQL)
                for i in start..<min(start + 100_000, count) { try BenchRecord(i).insert(with: statement) }
            }
        }
    }

    public func storageSettings() throws -> StorageSettings {
        let (queue, directory) = try freshQueue("settings")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (mode, level) = try queue.writeWithoutTransaction { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "?",
             try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1)
        }
        let pool = try openPool(directory.appendingPathComponent("pool.sqlite"))
        let poolLevel = try pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
        guard poolLevel == level else {
            throw BenchmarkError("grdb's queue runs synchronous = \(level), its pool \(poolLevel)")
        }
        return StorageSettings(journalMode: mode, synchronous: StorageSettings.synchronousName(level),
                               source: "read back from the queue's connection and the pool's writer")
    }

    // MARK: Inserts

    private static func countAndSum(_ queue: DatabaseQueue) throws -> [Int] {
        try queue.read { db in
            [try BenchRecord.fetchCount(db),
             try Int.fetchOne(db, sql: "SELECT coalesce(sum(intCol), 0) FROM bench") ?? 0]
        }
    }

    public func insertInOneTransaction(count: Int) throws -> Trial {
        let (queue, directory) = try freshQueue("insert")
        return Trial(scratchDirectory: directory, measure: {
            try queue.write { db in
                let statement = try db.cachedStatement(sql: BenchRecord.insertSQL)
                for i in 0..<count { try BenchRecord(i).insert(with: statement) }
            }
        }, result: { try Self.countAndSum(queue) })
    }

    public func insertInSeparateTransactions(count: Int) throws -> Trial {
        let (queue, directory) = try freshQueue("insert-each")
        return Trial(scratchDirectory: directory, measure: {
            for i in 0..<count {
                try queue.write { db in
                    try BenchRecord(i).insert(with: db.cachedStatement(sql: BenchRecord.insertSQL))
                }
            }
        }, result: { try Self.countAndSum(queue) })
    }

    // MARK: The large data set

    private func largeQueue(_ count: Int) throws -> DatabaseQueue {
        if let large, large.count == count { return large.queue }
        let (queue, directory) = try freshQueue("large")
        try Self.populate(queue, count: count)
        large = (count, queue, directory.appendingPathComponent("large.sqlite"))
        return queue
    }

    /// The matches of `stringCol == 'a'`, through the query interface
    /// (which selects `databaseSelection`).
    private static var matches: QueryInterfaceRequest<BenchRecord> { BenchRecord.filter(BenchRecord.Columns.stringCol == "a") }

    public func countMatches(among count: Int) throws -> Trial {
        let queue = try largeQueue(count)
        let tally = Tally()
        return Trial(measure: {
            tally.value = try queue.read { db in try Self.matches.fetchCount(db) }
        }, result: { tally.values })
    }

    public func enumerateMatches(among count: Int) throws -> Trial {
        let queue = try largeQueue(count)
        let tally = Tally(2)
        return Trial(measure: {
            tally.values = try queue.read { db in
                var visited = 0, sum = 0
                let records = try Self.matches.fetchCursor(db)
                while let record = try records.next() {
                    visited += 1
                    sum += record.intCol
                }
                return [visited, sum]
            }
        }, result: { tally.values })
    }

    public func readMatchesByIndex(among count: Int) throws -> Trial {
        let queue = try largeQueue(count)
        let tally = Tally(2)
        return Trial(measure: {
            // What a GRDB user does to read the i-th match: fetch them all
            // into an array, then index it.
            let matches = try queue.read { db in try Self.matches.fetchAll(db) }
            var sum = 0
            for i in 0..<matches.count { sum += matches[i].intCol }
            tally.values = [matches.count, sum]
        }, result: { tally.values })
    }

    public func sortByInt(count: Int) throws -> Trial {
        let queue = try largeQueue(count)
        let tally = Tally(3)
        return Trial(measure: {
            tally.values = try queue.read { db in
                let ids = try Int.fetchAll(db, sql: "SELECT id FROM bench ORDER BY intCol")
                let byID = try db.cachedStatement(sql: "SELECT id, stringCol, indexedString, intCol FROM bench WHERE id = ?")
                return try [ids[0], ids[ids.count / 2], ids[ids.count - 1]].map { id in
                    try BenchRecord.fetchOne(byID, arguments: [id])!.intCol
                }
            }
        }, result: { tally.values })
    }

    public func largeDatasetFile(count: Int) throws -> URL {
        _ = try largeQueue(count)
        return large!.file
    }

    public func enumerateAll(inExisting file: URL, count: Int) throws -> Trial {
        let queue = try openQueue(file)
        let tally = Tally(2)
        return Trial(measure: {
            tally.values = try queue.read { db in
                var visited = 0, sum = 0
                let records = try BenchRecord.fetchCursor(db)
                while let record = try records.next() {
                    visited += 1
                    sum += record.intCol
                }
                return [visited, sum]
            }
        }, result: { tally.values })
    }

    // MARK: Fetch

    public func fetchTenInts(count: Int) throws -> Trial {
        let queue: DatabaseQueue
        if let tenInts, tenInts.count == count {
            queue = tenInts.queue
        } else {
            queue = try freshQueue("ten-ints").0
            try queue.write { db in
                let statement = try db.cachedStatement(sql: TenIntsRecord.insertSQL)
                for i in 0..<count { try TenIntsRecord(i).insert(with: statement) }
            }
            tenInts = (count, queue)
        }
        let tally = Tally(2)
        return Trial(measure: {
            // As GRDB's FetchRecordOptimizedTests: fetchAll.
            let records = try queue.read { db in try TenIntsRecord.fetchAll(db) }
            var sum = 0
            for record in records {
                sum += record.i0 + record.i1 + record.i2 + record.i3 + record.i4
                sum += record.i5 + record.i6 + record.i7 + record.i8 + record.i9
            }
            tally.values = [records.count, sum]
        }, result: { tally.values })
    }

    // MARK: Lookups

    private func lookupQueue(_ count: Int) throws -> DatabaseQueue {
        if let lookup, lookup.count == count { return lookup.queue }
        let queue = try freshQueue("lookup").0
        try queue.write { db in
            let statement = try db.cachedStatement(sql: LookupRecord.insertSQL)
            for i in 0..<count { try LookupRecord(i).insert(with: statement) }
        }
        lookup = (count, queue)
        return queue
    }

    /// Runs `sql` (one argument) once per key through one cached
    /// statement, decoding the record each finds.
    private func lookUp(_ keys: [Int], among count: Int, column: String,
                        argument: @escaping (Int) -> any DatabaseValueConvertible) throws -> Trial {
        let queue = try lookupQueue(count)
        let sql = "SELECT id, indexedString, unindexedString, intCol FROM lookup WHERE \(column) = ?"
        let tally = Tally()
        return Trial(measure: {
            tally.value = try queue.read { db in
                var sum = 0
                let statement = try db.cachedStatement(sql: sql)
                for key in keys {
                    sum += try LookupRecord.fetchOne(statement, arguments: [argument(key)])!.intCol
                }
                return sum
            }
        }, result: { tally.values })
    }

    public func lookUpPrimaryKeys(_ keys: [Int], among count: Int) throws -> Trial {
        try lookUp(keys, among: count, column: "id") { $0 }
    }

    public func lookUpIndexedStrings(_ keys: [Int], among count: Int) throws -> Trial {
        try lookUp(keys, among: count, column: "indexedString") { Dataset.uniqueString($0) }
    }

    public func lookUpUnindexedStrings(_ keys: [Int], among count: Int) throws -> Trial {
        try lookUp(keys, among: count, column: "unindexedString") { Dataset.uniqueString($0) }
    }

    public func queryIn(_ keys: [Int], among count: Int) throws -> Trial {
        let queue = try lookupQueue(count)
        let tally = Tally(2)
        return Trial(measure: {
            tally.values = try queue.read { db in
                var visited = 0, sum = 0
                let records = try LookupRecord.fetchCursor(db, keys: keys)
                while let record = try records.next() {
                    visited += 1
                    sum += record.intCol
                }
                return [visited, sum]
            }
        }, result: { tally.values })
    }

    // MARK: Deletes

    public func deleteAll(count: Int) throws -> Trial {
        let (queue, directory) = try freshQueue("delete-all")
        try Self.populate(queue, count: count)
        return Trial(scratchDirectory: directory, measure: {
            _ = try queue.write { db in try BenchRecord.deleteAll(db) }
        }, result: {
            [try queue.read { db in try BenchRecord.fetchCount(db) }]
        })
    }

    public func deleteMatches(among count: Int) throws -> Trial {
        let (queue, directory) = try freshQueue("delete-matches")
        try Self.populate(queue, count: count)
        return Trial(scratchDirectory: directory, measure: {
            _ = try queue.write { db in try Self.matches.deleteAll(db) }
        }, result: {
            try queue.read { db in [try BenchRecord.fetchCount(db), try Self.matches.fetchCount(db)] }
        })
    }

    // MARK: Lists

    private static func listSummary(_ queue: DatabaseQueue) throws -> [Int] {
        try queue.read { db in
            let items = try ListItemRecord.fetchAll(db, sql: ListItemRecord.elementsSQL, arguments: [1])
            return [items.count, items.reduce(0) { $0 + $1.score }]
        }
    }

    /// Appends `count` elements to the list of owner `ownerID`, after its
    /// last position, through one cached insert statement.
    private static func append(_ count: Int, to ownerID: Int, in db: Database) throws {
        var position = try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM listItem WHERE listOwnerId = ?"), arguments: [ownerID])!
        let insert = try db.cachedStatement(sql: ListItemRecord.insertSQL)
        for i in 0..<count {
            insert.setUncheckedArguments([ownerID, position, Dataset.listValue(i)])
            try insert.execute()
            position += 1
        }
    }

    public func appendToList(count: Int) throws -> Trial {
        let (queue, directory) = try freshQueue("list-append")
        try queue.write { db in try db.execute(sql: "INSERT INTO listOwner (id) VALUES (1)") }
        return Trial(scratchDirectory: directory, measure: {
            try queue.write { db in try Self.append(count, to: 1, in: db) }
        }, result: { try Self.listSummary(queue) })
    }

    public func iterateList(count: Int) throws -> Trial {
        let queue: DatabaseQueue
        if let list, list.count == count {
            queue = list.queue
        } else {
            queue = try freshQueue("list").0
            try queue.write { db in
                try db.execute(sql: "INSERT INTO listOwner (id) VALUES (1)")
                try Self.append(count, to: 1, in: db)
            }
            list = (count, queue)
        }
        let tally = Tally(2)
        return Trial(measure: {
            tally.values = try queue.read { db in
                var visited = 0, sum = 0
                let items = try ListItemRecord.fetchCursor(db.cachedStatement(sql: ListItemRecord.elementsSQL), arguments: [1])
                while let item = try items.next() {
                    visited += 1
                    sum += item.score
                }
                return [visited, sum]
            }
        }, result: { tally.values })
    }

    // MARK: Sets and maps

    /// The queue holding the populated set and map (owner 1), reused.
    private var collections: (count: Int, queue: DatabaseQueue)?

    private static func fillCollections(_ count: Int, set: Bool, map: Bool, in db: Database) throws {
        let insertElement = try db.cachedStatement(sql: "INSERT OR IGNORE INTO setElement (collectionOwnerId, value) VALUES (1, ?)")
        let insertEntry = try db.cachedStatement(sql: "INSERT OR REPLACE INTO mapEntry (collectionOwnerId, key, value) VALUES (1, ?, ?)")
        for i in 0..<count {
            if set {
                insertElement.setUncheckedArguments([i])
                try insertElement.execute()
            }
            if map {
                insertEntry.setUncheckedArguments([Dataset.mapKey(i), i])
                try insertEntry.execute()
            }
        }
    }

    private func populatedCollections(count: Int) throws -> DatabaseQueue {
        if let collections, collections.count == count { return collections.queue }
        let queue = try freshQueue("collections").0
        try queue.write { db in
            try db.execute(sql: "INSERT INTO collectionOwner (id) VALUES (1)")
            try Self.fillCollections(count, set: true, map: true, in: db)
        }
        collections = (count, queue)
        return queue
    }

    private static func summary(_ queue: DatabaseQueue, table: String) throws -> [Int] {
        try queue.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT count(*), total(value) FROM \(table) WHERE collectionOwnerId = 1")!
            return [row[0], Int(row[1] as Double)]
        }
    }

    public func insertIntoSet(count: Int) throws -> Trial? {
        let (queue, directory) = try freshQueue("set-insert")
        try queue.write { db in try db.execute(sql: "INSERT INTO collectionOwner (id) VALUES (1)") }
        return Trial(scratchDirectory: directory, measure: {
            try queue.write { db in try Self.fillCollections(count, set: true, map: false, in: db) }
        }, result: { try Self.summary(queue, table: "setElement") })
    }

    public func lookUpInSet(_ keys: [Int], among count: Int) throws -> Trial? {
        let queue = try populatedCollections(count: count)
        let tally = Tally(1)
        return Trial(measure: {
            tally.values = try queue.read { db in
                let statement = try db.cachedStatement(sql: "SELECT 1 FROM setElement WHERE collectionOwnerId = 1 AND value = ?")
                var found = 0
                for key in keys where try Bool.fetchOne(statement, arguments: [key]) != nil { found += 1 }
                return [found]
            }
        }, result: { tally.values })
    }

    public func iterateSet(count: Int) throws -> Trial? {
        let queue = try populatedCollections(count: count)
        let tally = Tally(2)
        return Trial(measure: {
            tally.values = try queue.read { db in
                var visited = 0, sum = 0
                let values = try Int.fetchCursor(db.cachedStatement(sql: "SELECT value FROM setElement WHERE collectionOwnerId = 1"))
                while let value = try values.next() {
                    visited += 1
                    sum += value
                }
                return [visited, sum]
            }
        }, result: { tally.values })
    }

    public func insertIntoMap(count: Int) throws -> Trial? {
        let (queue, directory) = try freshQueue("map-insert")
        try queue.write { db in try db.execute(sql: "INSERT INTO collectionOwner (id) VALUES (1)") }
        return Trial(scratchDirectory: directory, measure: {
            try queue.write { db in try Self.fillCollections(count, set: false, map: true, in: db) }
        }, result: { try Self.summary(queue, table: "mapEntry") })
    }

    public func lookUpInMap(_ keys: [Int], among count: Int) throws -> Trial? {
        let queue = try populatedCollections(count: count)
        let tally = Tally(1)
        return Trial(measure: {
            tally.values = try queue.read { db in
                let statement = try db.cachedStatement(sql: "SELECT value FROM mapEntry WHERE collectionOwnerId = 1 AND key = ?")
                var sum = 0
                for key in keys { sum += try Int.fetchOne(statement, arguments: [Dataset.mapKey(key)]) ?? 0 }
                return [sum]
            }
        }, result: { tally.values })
    }

    public func iterateMap(count: Int) throws -> Trial? {
        let queue = try populatedCollections(count: count)
        let tally = Tally(2)
        return Trial(measure: {
            tally.values = try queue.read { db in
                var visited = 0, sum = 0
                let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT key, value FROM mapEntry WHERE collectionOwnerId = 1"))
                while let row = try rows.next() {
                    let _: String = row[0]
                    visited += 1
                    sum += row[1] as Int
                }
                return [visited, sum]
            }
        }, result: { tally.values })
    }

    // MARK: Mixed values

    public func countMixedMatches(among count: Int) throws -> Trial? {
        let queue = try freshQueue("mixed").0
        try queue.write { db in
            let insert = try db.cachedStatement(sql: "INSERT INTO mixedItem (value) VALUES (?)")
            for i in 0..<count {
                switch Dataset.mixedValue(i) {
                case .int(let value): insert.setUncheckedArguments([value])
                case .string(let value): insert.setUncheckedArguments([value])
                case .double(let value): insert.setUncheckedArguments([value])
                }
                try insert.execute()
            }
        }
        let tally = Tally()
        return Trial(measure: {
            tally.value = try queue.read { db in
                try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM mixedItem WHERE value = ?"),
                                 arguments: [Dataset.mixedProbe])!
            }
        }, result: { tally.values })
    }

    // MARK: Notifications

    public func measureCommitLatency(commits: Int) throws -> Trial {
        let directory = try scratch.makeDirectory("notify")
        let pool = try openPool(directory.appendingPathComponent("notify.sqlite"))
        try migrator.migrate(pool)
        let probe = LatencyProbe()
        // The observer: a ValueObservation of the table's records,
        // delivering on a serial queue of its own; a pool lets it read
        // while the writer writes.
        let observation = ValueObservation.tracking { db in try BenchRecord.fetchAll(db) }
        let queue = DispatchQueue(label: "grdb-observer")
        let cancellable = observation.start(
            in: pool,
            scheduling: .async(onQueue: queue),
            onError: { error in print("ValueObservation failed: \(error)") },
            onChange: { records in probe.observe(count: records.count) })
        _ = try probe.waitUntilObserved(0)

        return Trial(scratchDirectory: directory, samples: {
            defer { cancellable.cancel() }
            var latencies: [Double] = []
            latencies.reserveCapacity(commits)
            for i in 0..<commits {
                // The commit starts when the write block returns.
                let start = try pool.write { db in
                    try BenchRecord(i).insert(with: db.cachedStatement(sql: BenchRecord.insertSQL))
                    return ContinuousClock.now
                }
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
            let queue = try openQueue(file)
            try migrator.migrate(queue)
            try Self.populate(queue, count: openDatasetCount)
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
                let queue = try openQueue(file)
                total += try queue.read { db in try BenchRecord.fetchCount(db) }
            }
            tally.value = total
        }, result: { tally.values })
    }

    /// GRDB has no per-thread cache of open databases: an application
    /// keeps its queue, and reading through it is not opening anything.
    public func openCached(times: Int) throws -> Trial? {
        nil
    }
}
