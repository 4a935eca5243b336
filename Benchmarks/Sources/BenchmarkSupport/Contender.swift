import Foundation

/// A database library under test: one method per workload.
///
/// Each method does its setup (a fresh file, populated, or a shared data
/// set populated once per run) before returning, and returns a ``Trial``
/// whose body is the measured operation alone. The comment of each method
/// says what the trial's `result()` returns; the workload checks it.
///
/// Contenders are used from the thread that created them (the harness runs
/// on the main thread), as a Realm must be.
public protocol Contender: AnyObject {
    /// The contender's name in the report: "realm", "grdb" or "sqlite".
    static var name: String { get }

    /// A contender keeping its files under `directory`.
    init(directory: URL) throws

    /// The journal mode and `synchronous` level its connections use, read
    /// back from a connection where the API allows it.
    func storageSettings() throws -> StorageSettings

    // MARK: Inserts

    /// Inserts `count` objects into a fresh file in one write transaction.
    /// Result: [objects in the file, sum of their intCol].
    func insertInOneTransaction(count: Int) throws -> Trial

    /// Inserts `count` objects into a fresh file, one write transaction
    /// each. Result: [objects in the file, sum of their intCol].
    func insertInSeparateTransactions(count: Int) throws -> Trial

    // MARK: Queries over the large data set (populated once per run)

    /// Counts the objects matching `stringCol == 'a'`. Result: [count].
    func countMatches(among count: Int) throws -> Trial

    /// Enumerates the matches of `stringCol == 'a'`, summing intCol.
    /// Result: [matches visited, sum].
    func enumerateMatches(among count: Int) throws -> Trial

    /// Reads intCol of the i-th match of `stringCol == 'a'` for every i.
    /// Result: [matches read, sum].
    func readMatchesByIndex(among count: Int) throws -> Trial

    /// Sorts every object by intCol and reads intCol of the first, middle
    /// and last. Result: [first, middle, last].
    func sortByInt(count: Int) throws -> Trial

    /// The file holding the large data set (populated when needed), for
    /// the peak-memory child process.
    func largeDatasetFile(count: Int) throws -> URL

    /// In the peak-memory child process: opens the existing large data set
    /// at `file` (setup) and enumerates every object reading intCol
    /// (measured). Result: [objects visited, sum of intCol].
    func enumerateAll(inExisting file: URL, count: Int) throws -> Trial

    // MARK: Fetch

    /// Fetches all `count` objects of the ten-integer class and reads their
    /// ten properties. Result: [objects, sum of every property].
    func fetchTenInts(count: Int) throws -> Trial

    // MARK: Lookups (a lookup data set of `count` objects, populated once per run)

    /// Looks up each key by primary key and reads intCol. Result: [sum].
    func lookUpPrimaryKeys(_ keys: [Int], among count: Int) throws -> Trial

    /// Finds the object whose indexed string is `Dataset.uniqueString(key)`
    /// for each key and reads intCol. Result: [sum].
    func lookUpIndexedStrings(_ keys: [Int], among count: Int) throws -> Trial

    /// The same on an unindexed string property. Result: [sum].
    func lookUpUnindexedStrings(_ keys: [Int], among count: Int) throws -> Trial

    /// Queries `id IN keys` and enumerates the matches summing intCol.
    /// Result: [matches, sum].
    func queryIn(_ keys: [Int], among count: Int) throws -> Trial

    // MARK: Deletes (a fresh file per trial)

    /// Deletes every object of a `count`-object class. Result: [objects left].
    func deleteAll(count: Int) throws -> Trial

    /// Deletes the matches of `stringCol == 'a'` among `count` objects.
    /// Result: [objects left, matches left].
    func deleteMatches(among count: Int) throws -> Trial

    // MARK: Lists

    /// Appends `count` new objects to the list of one owner, in one write,
    /// in a fresh file. Result: [list length, sum of the elements' values].
    func appendToList(count: Int) throws -> Trial

    /// Iterates a `count`-element list (populated once per run) reading a
    /// property of each element. Result: [elements visited, sum].
    func iterateList(count: Int) throws -> Trial

    // MARK: Sets and maps (Realm 10's MutableSet and Map; nil where a
    // contender has no such workload)

    /// Inserts the integers `0..<count` into one owner's set, in one write,
    /// in a fresh file. Result: [set size, sum of the elements].
    func insertIntoSet(count: Int) throws -> Trial?

    /// Asks a `count`-element set (populated once per run) whether it holds
    /// each of `keys`. Result: [keys found].
    func lookUpInSet(_ keys: [Int], among count: Int) throws -> Trial?

    /// Iterates a `count`-element set. Result: [elements visited, sum].
    func iterateSet(count: Int) throws -> Trial?

    /// Maps the keys `Dataset.mapKey(i)` to `i` for `0..<count` in one
    /// owner's map, in one write, in a fresh file. Result: [map size, sum
    /// of the values].
    func insertIntoMap(count: Int) throws -> Trial?

    /// Reads the value of `Dataset.mapKey(k)` for each of `keys` in a
    /// `count`-entry map (populated once per run). Result: [sum of the
    /// values found].
    func lookUpInMap(_ keys: [Int], among count: Int) throws -> Trial?

    /// Iterates a `count`-entry map's entries. Result: [entries visited,
    /// sum of the values].
    func iterateMap(count: Int) throws -> Trial?

    // MARK: Mixed values

    /// Counts, among `count` objects whose mixed value is an int, a string
    /// or a double in turn (``Dataset/mixedValue(_:)``), those equal to
    /// ``Dataset/mixedProbe``; nil when the library has no mixed values.
    /// Result: [matches].
    func countMixedMatches(among count: Int) throws -> Trial?

    // MARK: Frozen snapshots

    /// Freezes the results of every object of the large dataset (`count`
    /// objects): a snapshot any thread may read; nil when the library has
    /// no such notion. Result: [the frozen results' count, read after the
    /// measurement].
    func freezeResults(among count: Int) throws -> Trial?

    // MARK: Notifications

    /// Commits `commits` one-object transactions, each waiting for an
    /// observer on another thread to see it; the samples are the seconds
    /// from the start of each commit to the observer's callback.
    /// Result: [commits the observer saw].
    func measureCommitLatency(commits: Int) throws -> Trial

    // MARK: Opening

    /// Opens an existing file `times` times with no other connection to it
    /// alive, reading the object count each time. Result: [sum of counts].
    func openUncached(times: Int) throws -> Trial

    /// Opens the file `times` times while an instance is alive on this
    /// thread, reading the count each time; nil when the library has no
    /// such notion. Result: [sum of counts].
    func openCached(times: Int) throws -> Trial?
}

extension Contender {
    /// The contender's name in the report.
    public var name: String { Self.name }

    public func insertIntoSet(count: Int) throws -> Trial? { nil }
    public func lookUpInSet(_ keys: [Int], among count: Int) throws -> Trial? { nil }
    public func iterateSet(count: Int) throws -> Trial? { nil }
    public func insertIntoMap(count: Int) throws -> Trial? { nil }
    public func lookUpInMap(_ keys: [Int], among count: Int) throws -> Trial? { nil }
    public func iterateMap(count: Int) throws -> Trial? { nil }
    public func freezeResults(among count: Int) throws -> Trial? { nil }
    public func countMixedMatches(among count: Int) throws -> Trial? { nil }
}

/// How a contender's connections are set up, for the report's header.
public struct StorageSettings: Codable, Equatable, Sendable {
    /// `PRAGMA journal_mode`, e.g. "wal".
    public var journalMode: String
    /// `PRAGMA synchronous`: "FULL", "NORMAL", …
    public var synchronous: String
    /// How the values were obtained.
    public var source: String

    public init(journalMode: String, synchronous: String, source: String) {
        self.journalMode = journalMode
        self.synchronous = synchronous
        self.source = source
    }

    /// The name of a `PRAGMA synchronous` value.
    public static func synchronousName(_ level: Int) -> String {
        switch level {
        case 0: "OFF"
        case 1: "NORMAL"
        case 2: "FULL"
        case 3: "EXTRA"
        default: "\(level)"
        }
    }
}

/// The number of objects in the file that the open workloads open.
public let openDatasetCount = 1_000

/// Errors a contender reports instead of stopping the program.
public struct BenchmarkError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
