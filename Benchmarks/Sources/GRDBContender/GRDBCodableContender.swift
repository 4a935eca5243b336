import BenchmarkSupport
import Dispatch
import Foundation
import GRDB

/// GRDB as its documentation first shows it, the second GRDB row of the
/// report: a `DatabasePool` (WAL), Codable records (decoded by column
/// name through `Decodable`), the query interface (`filter`, `order`, `fetchCount`,
/// `fetchCursor`, `fetchAll`, `fetchOne(_:key:)`), `insert` in a `write`
/// block, a `hasMany` association for the list, and `ValueObservation`
/// for notifications.
///
/// Reads go through `pool.read`, one block per measured operation, as the
/// docs advise for consistent reads.
public final class GRDBCodableContender: Contender {
    public static let name = "grdb-codable"

    private let scratch: ScratchSpace
    private var large: (count: Int, pool: DatabasePool, file: URL)?
    private var lookup: (count: Int, pool: DatabasePool)?
    private var tenInts: (count: Int, pool: DatabasePool)?
    private var list: (count: Int, pool: DatabasePool)?
    private var openFile: URL?

    public init(directory: URL) throws {
        scratch = try ScratchSpace(root: directory)
    }

    // MARK: Files

    /// A pool on a new file with the schema.
    private func freshPool(_ purpose: String) throws -> (DatabasePool, URL) {
        let directory = try scratch.makeDirectory(purpose)
        let pool = try openPool(directory.appendingPathComponent("\(purpose).sqlite"))
        try migrator.migrate(pool)
        return (pool, directory)
    }

    private static func populate(_ pool: DatabasePool, count: Int) throws {
        for start in stride(from: 0, to: count, by: 100_000) {
            try pool.write { db in
                for i in start..<min(start + 100_000, count) { try CodableBenchRecord(i).insert(db) }
            }
        }
    }

    public func storageSettings() throws -> StorageSettings {
        let (pool, directory) = try freshPool("settings")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (mode, level) = try pool.writeWithoutTransaction { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "?",
             try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1)
        }
        return StorageSettings(journalMode: mode, synchronous: StorageSettings.synchronousName(level),
                               source: "read back from the pool's writer connection")
    }

    // MARK: Inserts

    private static func countAndSum(_ pool: DatabasePool) throws -> [Int] {
        try pool.read { db in
            [try CodableBenchRecord.fetchCount(db),
             try CodableBenchRecord.select(sum(CodableBenchRecord.Columns.intCol), as: Int.self).fetchOne(db) ?? 0]
        }
    }

    public func insertInOneTransaction(count: Int) throws -> Trial {
        let (pool, directory) = try freshPool("insert")
        return Trial(scratchDirectory: directory, measure: {
            try pool.write { db in
                for i in 0..<count { try CodableBenchRecord(i).insert(db) }
            }
        }, result: { try Self.countAndSum(pool) })
    }

    public func insertInSeparateTransactions(count: Int) throws -> Trial {
        let (pool, directory) = try freshPool("insert-each")
        return Trial(scratchDirectory: directory, measure: {
            for i in 0..<count {
                try pool.write { db in try CodableBenchRecord(i).insert(db) }
            }
        }, result: { try Self.countAndSum(pool) })
    }

    // MARK: The large data set

    private func largePool(_ count: Int) throws -> DatabasePool {
        if let large, large.count == count { return large.pool }
        let (pool, directory) = try freshPool("large")
        try Self.populate(pool, count: count)
        large = (count, pool, directory.appendingPathComponent("large.sqlite"))
        return pool
    }

    public func countMatches(among count: Int) throws -> Trial {
        let pool = try largePool(count)
        let tally = Tally()
        return Trial(measure: {
            tally.value = try pool.read { db in
                try CodableBenchRecord.filter(CodableBenchRecord.Columns.stringCol == "a").fetchCount(db)
            }
        }, result: { tally.values })
    }

    public func enumerateMatches(among count: Int) throws -> Trial {
        let pool = try largePool(count)
        let tally = Tally(2)
        return Trial(measure: {
            tally.values = try pool.read { db in
                var visited = 0, sum = 0
                let records = try CodableBenchRecord.filter(CodableBenchRecord.Columns.stringCol == "a").fetchCursor(db)
                while let record = try records.next() {
                    visited += 1
                    sum += record.intCol
                }
                return [visited, sum]
            }
        }, result: { tally.values })
    }

    public func readMatchesByIndex(among count: Int) throws -> Trial {
        let pool = try largePool(count)
        let tally = Tally(2)
        return Trial(measure: {
            // What a GRDB user does to read the i-th match: fetch them all
            // into an array, then index it.
            let matches = try pool.read { db in
                try CodableBenchRecord.filter(CodableBenchRecord.Columns.stringCol == "a").fetchAll(db)
            }
            var sum = 0
            for i in 0..<matches.count { sum += matches[i].intCol }
            tally.values = [matches.count, sum]
        }, result: { tally.values })
    }

    public func sortByInt(count: Int) throws -> Trial {
        let pool = try largePool(count)
        let tally = Tally(3)
        return Trial(measure: {
            tally.values = try pool.read { db in
                let ids = try CodableBenchRecord
                    .select(CodableBenchRecord.Columns.id, as: Int.self)
                    .order(CodableBenchRecord.Columns.intCol)
                    .fetchAll(db)
                return try [ids[0], ids[ids.count / 2], ids[ids.count - 1]].map { id in
                    try CodableBenchRecord.find(db, key: id).intCol
                }
            }
        }, result: { tally.values })
    }

    public func largeDatasetFile(count: Int) throws -> URL {
        _ = try largePool(count)
        return large!.file
    }

    public func enumerateAll(inExisting file: URL, count: Int) throws -> Trial {
        let pool = try openPool(file)
        let tally = Tally(2)
        return Trial(measure: {
            tally.values = try pool.read { db in
                var visited = 0, sum = 0
                let records = try CodableBenchRecord.fetchCursor(db)
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
        let pool: DatabasePool
        if let tenInts, tenInts.count == count {
            pool = tenInts.pool
        } else {
            pool = try freshPool("ten-ints").0
            try pool.write { db in
                for i in 0..<count {
                    try CodableTenIntsRecord(
                        i0: Dataset.tenInts(i, 0), i1: Dataset.tenInts(i, 1), i2: Dataset.tenInts(i, 2),
                        i3: Dataset.tenInts(i, 3), i4: Dataset.tenInts(i, 4), i5: Dataset.tenInts(i, 5),
                        i6: Dataset.tenInts(i, 6), i7: Dataset.tenInts(i, 7), i8: Dataset.tenInts(i, 8),
                        i9: Dataset.tenInts(i, 9)
                    ).insert(db)
                }
            }
            tenInts = (count, pool)
        }
        let tally = Tally(2)
        return Trial(measure: {
            // As GRDB's own FetchRecordDecodableTests: fetchAll.
            let records = try pool.read { db in try CodableTenIntsRecord.fetchAll(db) }
            var sum = 0
            for record in records {
                sum += record.i0 + record.i1 + record.i2 + record.i3 + record.i4
                sum += record.i5 + record.i6 + record.i7 + record.i8 + record.i9
            }
            tally.values = [records.count, sum]
        }, result: { tally.values })
    }

    // MARK: Lookups

    private func lookupPool(_ count: Int) throws -> DatabasePool {
        if let lookup, lookup.count == count { return lookup.pool }
        let pool = try freshPool("lookup").0
        try pool.write { db in
            for i in 0..<count {
                try CodableLookupRecord(id: i, indexedString: Dataset.uniqueString(i),
                                 unindexedString: Dataset.uniqueString(i), intCol: Dataset.intCol(i)).insert(db)
            }
        }
        lookup = (count, pool)
        return pool
    }

    /// Runs `sql` (one argument) once per key, decoding the single record
    /// each finds. A hot loop of the same query: GRDB's documentation
    /// recommends `cachedStatement(sql:)` for a query used many times
    /// ("Reusing prepared statements is a performance optimization
    /// technique"); the query interface (`fetchOne(db, key:)`,
    /// `filter(...).fetchOne(db)`) generates and prepares its SQL on every
    /// call, about 60 µs a lookup here.
    private func lookUp(_ keys: [Int], among count: Int, sql: String, argument: @escaping (Int) -> any DatabaseValueConvertible) throws -> Trial {
        let pool = try lookupPool(count)
        let tally = Tally()
        return Trial(measure: {
            tally.value = try pool.read { db in
                var sum = 0
                let statement = try db.cachedStatement(sql: sql)
                for key in keys {
                    sum += try CodableLookupRecord.fetchOne(statement, arguments: [argument(key)])!.intCol
                }
                return sum
            }
        }, result: { tally.values })
    }

    public func lookUpPrimaryKeys(_ keys: [Int], among count: Int) throws -> Trial {
        try lookUp(keys, among: count, sql: "SELECT * FROM lookup WHERE id = ?") { $0 }
    }

    public func lookUpIndexedStrings(_ keys: [Int], among count: Int) throws -> Trial {
        try lookUp(keys, among: count, sql: "SELECT * FROM lookup WHERE indexedString = ?") { Dataset.uniqueString($0) }
    }

    public func lookUpUnindexedStrings(_ keys: [Int], among count: Int) throws -> Trial {
        try lookUp(keys, among: count, sql: "SELECT * FROM lookup WHERE unindexedString = ?") { Dataset.uniqueString($0) }
    }

    public func queryIn(_ keys: [Int], among count: Int) throws -> Trial {
        let pool = try lookupPool(count)
        let tally = Tally(2)
        return Trial(measure: {
            tally.values = try pool.read { db in
                var visited = 0, sum = 0
                let records = try CodableLookupRecord.fetchCursor(db, keys: keys)
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
        let (pool, directory) = try freshPool("delete-all")
        try Self.populate(pool, count: count)
        return Trial(scratchDirectory: directory, measure: {
            _ = try pool.write { db in try CodableBenchRecord.deleteAll(db) }
        }, result: {
            [try pool.read { db in try CodableBenchRecord.fetchCount(db) }]
        })
    }

    public func deleteMatches(among count: Int) throws -> Trial {
        let (pool, directory) = try freshPool("delete-matches")
        try Self.populate(pool, count: count)
        return Trial(scratchDirectory: directory, measure: {
            _ = try pool.write { db in
                try CodableBenchRecord.filter(CodableBenchRecord.Columns.stringCol == "a").deleteAll(db)
            }
        }, result: {
            try pool.read { db in
                [try CodableBenchRecord.fetchCount(db),
                 try CodableBenchRecord.filter(CodableBenchRecord.Columns.stringCol == "a").fetchCount(db)]
            }
        })
    }

    // MARK: Lists

    private static func listSummary(_ pool: DatabasePool) throws -> [Int] {
        try pool.read { db in
            let owner = try CodableListOwnerRecord.find(db, key: 1)
            return [try owner.items.fetchCount(db), try owner.items.select(sum(Column("score")), as: Int.self).fetchOne(db) ?? 0]
        }
    }

    private static func append(_ count: Int, to ownerID: Int, in db: Database) throws {
        let owner = try CodableListOwnerRecord.find(db, key: ownerID)
        var position = try owner.items.fetchCount(db)
        for i in 0..<count {
            var item = CodableListItemRecord(id: nil, listOwnerId: owner.id, position: position, score: Dataset.listValue(i))
            try item.insert(db)
            position += 1
        }
    }

    public func appendToList(count: Int) throws -> Trial {
        let (pool, directory) = try freshPool("list-append")
        try pool.write { db in try CodableListOwnerRecord(id: 1).insert(db) }
        return Trial(scratchDirectory: directory, measure: {
            try pool.write { db in try Self.append(count, to: 1, in: db) }
        }, result: { try Self.listSummary(pool) })
    }

    public func iterateList(count: Int) throws -> Trial {
        let pool: DatabasePool
        if let list, list.count == count {
            pool = list.pool
        } else {
            pool = try freshPool("list").0
            try pool.write { db in
                try CodableListOwnerRecord(id: 1).insert(db)
                try Self.append(count, to: 1, in: db)
            }
            list = (count, pool)
        }
        let tally = Tally(2)
        return Trial(measure: {
            tally.values = try pool.read { db in
                var visited = 0, sum = 0
                let owner = try CodableListOwnerRecord.find(db, key: 1)
                let items = try owner.items.fetchCursor(db)
                while let item = try items.next() {
                    visited += 1
                    sum += item.score
                }
                return [visited, sum]
            }
        }, result: { tally.values })
    }

    // MARK: Notifications

    public func measureCommitLatency(commits: Int) throws -> Trial {
        let (pool, directory) = try freshPool("notify")
        let probe = LatencyProbe()
        // The observer: a ValueObservation of the table's records, as in
        // GRDB's documentation, delivering on a serial queue of its own.
        let observation = ValueObservation.tracking { db in try CodableBenchRecord.fetchAll(db) }
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
                    try CodableBenchRecord(i).insert(db)
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
            let pool = try openPool(file)
            try migrator.migrate(pool)
            try Self.populate(pool, count: openDatasetCount)
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
                let pool = try openPool(file)
                total += try pool.read { db in try CodableBenchRecord.fetchCount(db) }
            }
            tally.value = total
        }, result: { tally.values })
    }

    /// GRDB has no per-thread cache of open databases: an application
    /// keeps its pool, and reading through it is not opening anything.
    public func openCached(times: Int) throws -> Trial? {
        nil
    }
}
