import BenchmarkSupport
import Foundation

/// The sizes of the workloads: SPEC §8's in full mode, about a tenth in
/// quick mode.
struct Sizes: Codable {
    var insertOneTransaction: Int
    var insertTransactions: Int
    var large: Int
    var tenInts: Int
    var lookupObjects: Int
    var primaryKeyLookups: Int
    var indexedLookups: Int
    var unindexedLookups: Int
    var inValues: Int
    var deletes: Int
    var listElements: Int
    var commits: Int
    var collectionElements: Int
    var uncachedOpens: Int
    var cachedOpens: Int

    init(quick: Bool) {
        let divisor = quick ? 10 : 1
        insertOneTransaction = 100_000 / divisor
        insertTransactions = 5_000 / divisor
        large = 1_000_000 / divisor
        tenInts = 200_000 / divisor
        lookupObjects = 100_000 / divisor
        primaryKeyLookups = 100_000 / divisor
        indexedLookups = 1_000 / divisor
        unindexedLookups = 100 / divisor
        inValues = 1_000
        deletes = 100_000 / divisor
        listElements = 100_000 / divisor
        commits = 1_000 / divisor
        collectionElements = 100_000 / divisor
        uncachedOpens = 50 / (quick ? 5 : 1)
        cachedOpens = 250 / (quick ? 5 : 1)
    }
}

/// What a workload's ratios must stay under (SPEC §8).
enum Budget: String, Codable {
    /// At or below GRDB, and within 1.3x of the raw C API: the
    /// SQLite-bound workloads.
    case grdbAndSQLite
    /// Within 10% of the raw C API: where GRDB itself runs at the floor
    /// (a count on an unindexed column, an unindexed scan, a delete that is
    /// one statement), "at or below GRDB" means this.
    case nearSQLite
    /// At or below GRDB.
    case grdb
    /// Reported, not budgeted.
    case none

    var summary: String {
        switch self {
        case .grdbAndSQLite: "≤1.0 grdb, ≤1.3 sqlite"
        case .nearSQLite: "within 10% of sqlite"
        case .grdb: "≤1.0 grdb"
        case .none: "—"
        }
    }

    /// Whether the ratios meet the budget; nil when a ratio it needs is
    /// missing or there is no budget.
    func isMet(realmOverGRDB: Double?, realmOverSQLite: Double?) -> Bool? {
        switch self {
        case .grdbAndSQLite:
            guard let realmOverGRDB, let realmOverSQLite else { return nil }
            return realmOverGRDB <= 1.0 && realmOverSQLite <= 1.3
        case .nearSQLite:
            guard let realmOverSQLite else { return nil }
            return realmOverSQLite <= 1.10
        case .grdb:
            guard let realmOverGRDB else { return nil }
            return realmOverGRDB <= 1.0
        case .none:
            return nil
        }
    }
}

/// One workload of the benchmark: its name, what it measures, and how to
/// get a trial of it from a contender.
struct Workload {
    enum Unit: String, Codable {
        case seconds
        case bytes
    }

    /// The name in the report and the JSON, matched by `--filter`.
    let name: String
    /// What it does, in a sentence.
    let summary: String
    /// The size, e.g. "1M objects".
    let size: String
    let budget: Budget
    var unit: Unit = .seconds
    /// Whether the report adds the 99th percentile of the pooled samples
    /// (the latency workload).
    var reportsP99 = false
    /// Whether a warm-up round precedes the measured ones.
    var warmsUp = true
    /// How many measured rounds, when not the run's repetitions.
    var repetitions: Int?
    /// A contender's trial; `warmUp` is true for the warm-up round, which
    /// some workloads run smaller. Nil when the contender has no
    /// equivalent.
    let makeTrial: (_ contender: any Contender, _ warmUp: Bool) throws -> Trial?
}

/// "1M", "100k", "5k", "250".
func abbreviated(_ count: Int) -> String {
    if count >= 1_000_000, count % 1_000_000 == 0 { return "\(count / 1_000_000)M" }
    if count >= 1_000, count % 1_000 == 0 { return "\(count / 1_000)k" }
    return "\(count)"
}

extension Workload {
    /// Every workload of SPEC §8, in the spec's order.
    static func all(sizes s: Sizes, repetitions: Int, peakMemory: PeakMemory) -> [Workload] {
        let lookupKeys = Dataset.lookupKeys(s.primaryKeyLookups, among: s.lookupObjects)
        let indexedKeys = Array(lookupKeys.prefix(s.indexedLookups))
        let unindexedKeys = Array(lookupKeys.prefix(s.unindexedLookups))
        let inKeys = Array(Dataset.lookupKeys(s.inValues, among: s.lookupObjects))
        let commitsPerRound = (s.commits + repetitions - 1) / repetitions

        return [
            Workload(
                name: "insert-100k-one-transaction",
                summary: "insert objects (id, stringCol, indexedString, intCol) into a fresh file in one write transaction",
                size: "\(abbreviated(s.insertOneTransaction)) objects", budget: .grdbAndSQLite
            ) { contender, _ in
                try contender.insertInOneTransaction(count: s.insertOneTransaction)
                    .expecting([s.insertOneTransaction, Dataset.intSum(of: s.insertOneTransaction)])
            },
            Workload(
                name: "insert-5k-transactions",
                summary: "one write transaction per object, each durable (an fsync each); the warm-up round runs a tenth",
                size: "\(abbreviated(s.insertTransactions)) commits", budget: .grdb
            ) { contender, warmUp in
                let count = warmUp ? s.insertTransactions / 10 : s.insertTransactions
                return try contender.insertInSeparateTransactions(count: count)
                    .expecting([count, Dataset.intSum(of: count)])
            },
            Workload(
                name: "count-equality-1M",
                summary: "count the objects matching stringCol == 'a' (unindexed; 10% match)",
                size: "\(abbreviated(s.large)) objects", budget: .nearSQLite
            ) { contender, _ in
                try contender.countMatches(among: s.large).expecting([Dataset.matchCount(of: s.large)])
            },
            Workload(
                name: "enumerate-matches-1M",
                summary: "enumerate the matches of stringCol == 'a', summing intCol",
                size: "\(abbreviated(s.large)) objects", budget: .grdbAndSQLite
            ) { contender, _ in
                try contender.enumerateMatches(among: s.large)
                    .expecting([Dataset.matchCount(of: s.large), Dataset.matchIntSum(of: s.large)])
            },
            Workload(
                name: "index-access-1M",
                summary: "for i in 0..<results.count read results[i].intCol (grdb, sqlite: fetch into an array, then index)",
                size: "\(abbreviated(s.large)) objects", budget: .grdbAndSQLite
            ) { contender, _ in
                try contender.readMatchesByIndex(among: s.large)
                    .expecting([Dataset.matchCount(of: s.large), Dataset.matchIntSum(of: s.large)])
            },
            Workload(
                name: "fetch-200k-10-ints",
                summary: "fetch every object of a class with 10 Int properties, reading all 10",
                size: "\(abbreviated(s.tenInts)) objects", budget: .grdbAndSQLite
            ) { contender, _ in
                try contender.fetchTenInts(count: s.tenInts).expecting([s.tenInts, Dataset.tenIntsSum(of: s.tenInts)])
            },
            Workload(
                name: "primary-key-lookup-100k",
                summary: "look objects up by primary key in scattered order, reading intCol",
                size: "\(abbreviated(s.primaryKeyLookups)) of \(abbreviated(s.lookupObjects))", budget: .grdbAndSQLite
            ) { contender, _ in
                try contender.lookUpPrimaryKeys(lookupKeys, among: s.lookupObjects)
                    .expecting([Dataset.intSum(ofKeys: lookupKeys)])
            },
            Workload(
                name: "indexed-string-lookup",
                summary: "find the single object whose indexed string equals a value, reading intCol",
                size: "\(abbreviated(s.indexedLookups)) of \(abbreviated(s.lookupObjects))", budget: .grdbAndSQLite
            ) { contender, _ in
                try contender.lookUpIndexedStrings(indexedKeys, among: s.lookupObjects)
                    .expecting([Dataset.intSum(ofKeys: indexedKeys)])
            },
            Workload(
                name: "unindexed-string-lookup",
                summary: "the same on an unindexed string property (a table scan each)",
                size: "\(abbreviated(s.unindexedLookups)) of \(abbreviated(s.lookupObjects))", budget: .nearSQLite
            ) { contender, _ in
                try contender.lookUpUnindexedStrings(unindexedKeys, among: s.lookupObjects)
                    .expecting([Dataset.intSum(ofKeys: unindexedKeys)])
            },
            Workload(
                name: "in-query-1000",
                summary: "query id IN {1,000 values}, enumerating the matches summing intCol",
                size: "\(abbreviated(s.inValues)) of \(abbreviated(s.lookupObjects))", budget: .grdbAndSQLite
            ) { contender, _ in
                try contender.queryIn(inKeys, among: s.lookupObjects)
                    .expecting([inKeys.count, Dataset.intSum(ofKeys: inKeys)])
            },
            Workload(
                name: "sort-1M",
                summary: "sort every object by intCol, read intCol of the first, middle and last (grdb, sqlite: the ids in order, then 3 lookups)",
                size: "\(abbreviated(s.large)) objects", budget: .grdbAndSQLite
            ) { contender, _ in
                try contender.sortByInt(count: s.large).expecting(Dataset.sortedProbe(of: s.large))
            },
            Workload(
                name: "delete-all",
                summary: "delete every object of a class (fresh file each round)",
                size: "\(abbreviated(s.deletes)) objects", budget: .nearSQLite
            ) { contender, _ in
                try contender.deleteAll(count: s.deletes).expecting([0])
            },
            Workload(
                name: "delete-matches",
                summary: "delete the matches of stringCol == 'a' (fresh file each round)",
                size: "\(abbreviated(s.deletes)) objects", budget: .nearSQLite
            ) { contender, _ in
                try contender.deleteMatches(among: s.deletes).expecting([s.deletes - Dataset.matchCount(of: s.deletes), 0])
            },
            Workload(
                name: "list-append-100k",
                summary: "append new objects to the list of one owner in one write (grdb, sqlite: a child table with owner and position)",
                size: "\(abbreviated(s.listElements)) elements", budget: .grdb
            ) { contender, _ in
                try contender.appendToList(count: s.listElements).expecting([s.listElements, Dataset.listSum(of: s.listElements)])
            },
            Workload(
                name: "list-iterate-100k",
                summary: "iterate the list reading a property of each element",
                size: "\(abbreviated(s.listElements)) elements", budget: .grdbAndSQLite
            ) { contender, _ in
                try contender.iterateList(count: s.listElements).expecting([s.listElements, Dataset.listSum(of: s.listElements)])
            },
            Workload(
                name: "commit-notify-latency",
                summary: "from the start of a one-object commit to the callback of an observer on another thread; samples of every round pooled",
                size: "\(commitsPerRound * repetitions) commits", budget: .grdb, reportsP99: true
            ) { contender, warmUp in
                let commits = warmUp ? 20 : commitsPerRound
                return try contender.measureCommitLatency(commits: commits).expecting([commits])
            },
            Workload(
                name: "open-uncached",
                summary: "open a file no instance has open and read its object count, repeatedly (time for all opens)",
                size: "\(s.uncachedOpens) opens", budget: .grdb
            ) { contender, _ in
                try contender.openUncached(times: s.uncachedOpens).expecting([s.uncachedOpens * openDatasetCount])
            },
            Workload(
                name: "open-cached",
                summary: "open the file while an instance is alive on the thread and read the count (realm only: n/a elsewhere)",
                size: "\(s.cachedOpens) opens", budget: .none
            ) { contender, _ in
                try contender.openCached(times: s.cachedOpens)?.expecting([s.cachedOpens * openDatasetCount])
            },
            Workload(
                name: "set-insert-100k",
                summary: "insert the integers 0..<n into one object's MutableSet (GRDB: a join table) in one write",
                size: "\(abbreviated(s.collectionElements)) elements", budget: .grdb
            ) { contender, _ in
                try contender.insertIntoSet(count: s.collectionElements)?
                    .expecting([s.collectionElements, Dataset.listSum(of: s.collectionElements)])
            },
            Workload(
                name: "set-contains-100k",
                summary: "ask a set of n integers whether it holds each of n keys",
                size: "\(abbreviated(s.collectionElements)) lookups", budget: .grdb
            ) { contender, _ in
                try contender.lookUpInSet(Dataset.lookupKeys(s.collectionElements, among: s.collectionElements), among: s.collectionElements)?
                    .expecting([s.collectionElements])
            },
            Workload(
                name: "set-iterate-100k",
                summary: "iterate a set of n integers, summing them",
                size: "\(abbreviated(s.collectionElements)) elements", budget: .grdb
            ) { contender, _ in
                try contender.iterateSet(count: s.collectionElements)?
                    .expecting([s.collectionElements, Dataset.listSum(of: s.collectionElements)])
            },
            Workload(
                name: "map-insert-100k",
                summary: "map n string keys to integers in one object's Map (GRDB: a join table) in one write",
                size: "\(abbreviated(s.collectionElements)) entries", budget: .grdb
            ) { contender, _ in
                try contender.insertIntoMap(count: s.collectionElements)?
                    .expecting([s.collectionElements, Dataset.listSum(of: s.collectionElements)])
            },
            Workload(
                name: "map-lookup-100k",
                summary: "read the value of each of n keys of a map of n entries",
                size: "\(abbreviated(s.collectionElements)) lookups", budget: .grdb
            ) { contender, _ in
                try contender.lookUpInMap(Dataset.lookupKeys(s.collectionElements, among: s.collectionElements), among: s.collectionElements)?
                    .expecting([Dataset.listSum(of: s.collectionElements)])
            },
            Workload(
                name: "map-iterate-100k",
                summary: "iterate a map of n entries, summing the values",
                size: "\(abbreviated(s.collectionElements)) entries", budget: .grdb
            ) { contender, _ in
                try contender.iterateMap(count: s.collectionElements)?
                    .expecting([s.collectionElements, Dataset.listSum(of: s.collectionElements)])
            },
            Workload(
                name: "mixed-count-100k",
                summary: "count the objects whose mixed value equals an integer, among n holding ints, strings and doubles "
                    + "(GRDB: a column without affinity)",
                size: "\(abbreviated(s.collectionElements)) objects", budget: .grdb
            ) { contender, _ in
                try contender.countMixedMatches(among: s.collectionElements)?
                    .expecting([Dataset.mixedMatchCount(of: s.collectionElements)])
            },
            Workload(
                name: "freeze-results-1M",
                summary: "freeze the Results of every object (a frozen Realm at that version, first freeze) (realm only: n/a elsewhere)",
                size: "\(abbreviated(s.large)) objects", budget: .none
            ) { contender, _ in
                try contender.freezeResults(among: s.large)?.expecting([s.large])
            },
            Workload(
                name: "peak-memory-enumerate-1M",
                summary: "peak resident memory above the baseline while enumerating every object reading intCol, in a child process",
                size: "\(abbreviated(s.large)) objects", budget: .none, unit: .bytes, warmsUp: false,
                repetitions: min(repetitions, 3)
            ) { contender, _ in
                try peakMemory.trial(for: contender, count: s.large)
                    .expecting([s.large, Dataset.intSum(of: s.large)])
            },
        ]
    }
}
