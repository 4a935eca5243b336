import BenchmarkSupport
import Foundation
import RealmObjects

/// This project's object API, used the way the docs and the seeds show a
/// Realm user using it: `Object` subclasses with `@Persisted`, `realm.write`,
/// `realm.add`, format-string queries, `Results` iteration and
/// subscripts, `List`, collection notifications.
///
/// Realms are confined to the thread that opens them; the harness calls
/// every method and every trial on the main thread.
public class RealmContender: Contender {
    public class var name: String { "realm" }
    /// The key every file is encrypted with, or nil for plain files.
    class var encryptionKey: Data? { nil }

    private let scratch: ScratchSpace
    /// The data sets shared by several workloads, opened once per run.
    private var large: (count: Int, realm: Realm, file: URL)?
    private var lookup: (count: Int, realm: Realm)?
    private var tenInts: (count: Int, realm: Realm)?
    private var list: (count: Int, realm: Realm)?
    /// A closed file of `openDatasetCount` objects for the open workloads.
    private var openFile: URL?

    public required init(directory: URL) throws {
        scratch = try ScratchSpace(root: directory)
    }

    // MARK: Files

    private func configuration(_ file: URL) -> Realm.Configuration {
        Realm.Configuration(fileURL: file, encryptionKey: Self.encryptionKey, objectTypes: allObjectTypes)
    }

    /// A Realm on a new file in a new directory.
    private func freshRealm(_ purpose: String) throws -> (Realm, URL) {
        let directory = try scratch.makeDirectory(purpose)
        let realm = try Realm(configuration: configuration(directory.appendingPathComponent("\(purpose).realm")))
        return (realm, directory)
    }

    private static func benchObject(_ i: Int) -> BenchObject {
        let object = BenchObject()
        object.id = i
        object.stringCol = Dataset.stringCol(i)
        object.indexedString = Dataset.uniqueString(i)
        object.intCol = Dataset.intCol(i)
        return object
    }

    /// Adds objects 0..<count of the main class, in transactions of at most
    /// 100,000 objects.
    private static func populate(_ realm: Realm, count: Int) throws {
        for start in stride(from: 0, to: count, by: 100_000) {
            try realm.write {
                for i in start..<min(start + 100_000, count) { realm.add(benchObject(i)) }
            }
        }
    }

    public func storageSettings() throws -> StorageSettings {
        let (realm, directory) = try freshRealm("settings")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = realm.configuration.fileURL!.path
        // Opening the same path while the Realm is alive returns the
        // coordinator the Realm uses, with the configuration it was opened
        // with; RealmCore turns its durability into `PRAGMA synchronous`.
        var core = Coordinator.Configuration.file(path)
        core.encryptionKey = Self.encryptionKey
        let durability = try Coordinator.open(core).configuration.durability
        let synchronous = durability == .full ? "FULL" : "NORMAL"
        guard Self.encryptionKey != nil else {
            return StorageSettings(
                journalMode: try SQLiteHeader.journalMode(ofFileAt: path),
                synchronous: synchronous,
                source: "journal mode from the file header; synchronous from the coordinator's durability (.\(durability))")
        }
        // An encrypted header cannot be read; a commit writes to the log
        // only in WAL mode.
        try realm.write { realm.add(Self.benchObject(0)) }
        return StorageSettings(
            journalMode: FileManager.default.fileExists(atPath: path + "-wal") ? "wal" : "delete",
            synchronous: synchronous,
            source: "journal mode from the log a commit writes (the header is encrypted); synchronous from the coordinator's durability (.\(durability))")
    }

    // MARK: Inserts

    public func insertInOneTransaction(count: Int) throws -> Trial {
        let (realm, directory) = try freshRealm("insert")
        return Trial(scratchDirectory: directory, measure: {
            try realm.write {
                for i in 0..<count { realm.add(Self.benchObject(i)) }
            }
        }, result: {
            let all = realm.objects(BenchObject.self)
            return [all.count, all.sum(ofProperty: "intCol")]
        })
    }

    public func insertInSeparateTransactions(count: Int) throws -> Trial {
        let (realm, directory) = try freshRealm("insert-each")
        return Trial(scratchDirectory: directory, measure: {
            for i in 0..<count {
                try realm.write { realm.add(Self.benchObject(i)) }
            }
        }, result: {
            let all = realm.objects(BenchObject.self)
            return [all.count, all.sum(ofProperty: "intCol")]
        })
    }

    // MARK: The large data set

    private func largeRealm(_ count: Int) throws -> Realm {
        if let large, large.count == count { return large.realm }
        let directory = try scratch.makeDirectory("large")
        let file = directory.appendingPathComponent("large.realm")
        let realm = try Realm(configuration: configuration(file))
        try Self.populate(realm, count: count)
        large = (count, realm, file)
        return realm
    }

    public func countMatches(among count: Int) throws -> Trial {
        let realm = try largeRealm(count)
        let tally = Tally()
        return Trial(measure: {
            tally.value = realm.objects(BenchObject.self).filter("stringCol == 'a'").count
        }, result: { tally.values })
    }

    public func enumerateMatches(among count: Int) throws -> Trial {
        let realm = try largeRealm(count)
        let tally = Tally(2)
        return Trial(measure: {
            var visited = 0, sum = 0
            for object in realm.objects(BenchObject.self).filter("stringCol == 'a'") {
                visited += 1
                sum += object.intCol
            }
            tally.values = [visited, sum]
        }, result: { tally.values })
    }

    public func freezeResults(among count: Int) throws -> Trial? {
        let realm = try largeRealm(count)
        let results = realm.objects(BenchObject.self)
        // Holds the frozen results until the count is read; the next
        // trial's freeze is then a first one again (a frozen Realm is
        // cached only while in use).
        final class Holder { var frozen: Results<BenchObject>? }
        let holder = Holder()
        return Trial(measure: {
            holder.frozen = results.freeze()
        }, result: {
            defer { holder.frozen = nil }
            return [holder.frozen?.count ?? -1]
        })
    }

    public func readMatchesByIndex(among count: Int) throws -> Trial {
        let realm = try largeRealm(count)
        let tally = Tally(2)
        return Trial(measure: {
            let results = realm.objects(BenchObject.self).filter("stringCol == 'a'")
            var sum = 0
            let matches = results.count
            for i in 0..<matches { sum += results[i].intCol }
            tally.values = [matches, sum]
        }, result: { tally.values })
    }

    public func sortByInt(count: Int) throws -> Trial {
        let realm = try largeRealm(count)
        let tally = Tally(3)
        return Trial(measure: {
            let sorted = realm.objects(BenchObject.self).sorted(byKeyPath: "intCol")
            let first = sorted.first!.intCol
            let middle = sorted[sorted.count / 2].intCol
            let last = sorted.last!.intCol
            tally.values = [first, middle, last]
        }, result: { tally.values })
    }

    public func largeDatasetFile(count: Int) throws -> URL {
        _ = try largeRealm(count)
        return large!.file
    }

    public func enumerateAll(inExisting file: URL, count: Int) throws -> Trial {
        let realm = try Realm(configuration: configuration(file))
        let tally = Tally(2)
        return Trial(measure: {
            var visited = 0, sum = 0
            for object in realm.objects(BenchObject.self) {
                visited += 1
                sum += object.intCol
            }
            tally.values = [visited, sum]
        }, result: { tally.values })
    }

    // MARK: Fetch

    public func fetchTenInts(count: Int) throws -> Trial {
        let realm: Realm
        if let tenInts, tenInts.count == count {
            realm = tenInts.realm
        } else {
            realm = try freshRealm("ten-ints").0
            try realm.write {
                for i in 0..<count {
                    let object = TenIntsObject()
                    object.i0 = Dataset.tenInts(i, 0)
                    object.i1 = Dataset.tenInts(i, 1)
                    object.i2 = Dataset.tenInts(i, 2)
                    object.i3 = Dataset.tenInts(i, 3)
                    object.i4 = Dataset.tenInts(i, 4)
                    object.i5 = Dataset.tenInts(i, 5)
                    object.i6 = Dataset.tenInts(i, 6)
                    object.i7 = Dataset.tenInts(i, 7)
                    object.i8 = Dataset.tenInts(i, 8)
                    object.i9 = Dataset.tenInts(i, 9)
                    realm.add(object)
                }
            }
            tenInts = (count, realm)
        }
        let tally = Tally(2)
        return Trial(measure: {
            var visited = 0, sum = 0
            for object in realm.objects(TenIntsObject.self) {
                visited += 1
                sum += object.i0 + object.i1 + object.i2 + object.i3 + object.i4
                sum += object.i5 + object.i6 + object.i7 + object.i8 + object.i9
            }
            tally.values = [visited, sum]
        }, result: { tally.values })
    }

    // MARK: Lookups

    private func lookupRealm(_ count: Int) throws -> Realm {
        if let lookup, lookup.count == count { return lookup.realm }
        let realm = try freshRealm("lookup").0
        try realm.write {
            for i in 0..<count {
                let object = LookupObject()
                object.id = i
                object.indexedString = Dataset.uniqueString(i)
                object.unindexedString = Dataset.uniqueString(i)
                object.intCol = Dataset.intCol(i)
                realm.add(object)
            }
        }
        lookup = (count, realm)
        return realm
    }

    public func lookUpPrimaryKeys(_ keys: [Int], among count: Int) throws -> Trial {
        let realm = try lookupRealm(count)
        let tally = Tally()
        return Trial(measure: {
            var sum = 0
            for key in keys {
                sum += realm.object(ofType: LookupObject.self, forPrimaryKey: key)!.intCol
            }
            tally.value = sum
        }, result: { tally.values })
    }

    public func lookUpIndexedStrings(_ keys: [Int], among count: Int) throws -> Trial {
        try lookUpStrings(keys, among: count, property: "indexedString")
    }

    public func lookUpUnindexedStrings(_ keys: [Int], among count: Int) throws -> Trial {
        try lookUpStrings(keys, among: count, property: "unindexedString")
    }

    /// Equality lookups on a string property, as a Realm user writes them:
    /// a filter per lookup, reading the match's `intCol`.
    private func lookUpStrings(_ keys: [Int], among count: Int, property: String) throws -> Trial {
        let realm = try lookupRealm(count)
        let tally = Tally()
        let format = "\(property) == %@"
        return Trial(measure: {
            var sum = 0
            for key in keys {
                sum += realm.objects(LookupObject.self).filter(format, Dataset.uniqueString(key)).first!.intCol
            }
            tally.value = sum
        }, result: { tally.values })
    }

    public func queryIn(_ keys: [Int], among count: Int) throws -> Trial {
        let realm = try lookupRealm(count)
        let tally = Tally(2)
        return Trial(measure: {
            var visited = 0, sum = 0
            for object in realm.objects(LookupObject.self).filter("id IN %@", keys) {
                visited += 1
                sum += object.intCol
            }
            tally.values = [visited, sum]
        }, result: { tally.values })
    }

    // MARK: Deletes

    public func deleteAll(count: Int) throws -> Trial {
        let (realm, directory) = try freshRealm("delete-all")
        try Self.populate(realm, count: count)
        return Trial(scratchDirectory: directory, measure: {
            // Every object of the class, as the spec words it; the file
            // holds no other objects, so `deleteAll()` would do the same.
            try realm.write { realm.delete(realm.objects(BenchObject.self)) }
        }, result: {
            [realm.objects(BenchObject.self).count]
        })
    }

    public func deleteMatches(among count: Int) throws -> Trial {
        let (realm, directory) = try freshRealm("delete-matches")
        try Self.populate(realm, count: count)
        return Trial(scratchDirectory: directory, measure: {
            try realm.write { realm.delete(realm.objects(BenchObject.self).filter("stringCol == 'a'")) }
        }, result: {
            [realm.objects(BenchObject.self).count, realm.objects(BenchObject.self).filter("stringCol == 'a'").count]
        })
    }

    // MARK: Lists

    public func appendToList(count: Int) throws -> Trial {
        let (realm, directory) = try freshRealm("list-append")
        let owner = ListOwner()
        owner.id = 1
        try realm.write { realm.add(owner) }
        return Trial(scratchDirectory: directory, measure: {
            try realm.write {
                for i in 0..<count {
                    let item = ListItem()
                    item.score = Dataset.listValue(i)
                    owner.items.append(item)
                }
            }
        }, result: {
            let items = realm.object(ofType: ListOwner.self, forPrimaryKey: 1)!.items
            return [items.count, items.reduce(0) { $0 + $1.score }]
        })
    }

    public func iterateList(count: Int) throws -> Trial {
        let realm: Realm
        if let list, list.count == count {
            realm = list.realm
        } else {
            realm = try freshRealm("list").0
            try realm.write {
                let owner = ListOwner()
                owner.id = 1
                realm.add(owner)
                for i in 0..<count {
                    let item = ListItem()
                    item.score = Dataset.listValue(i)
                    owner.items.append(item)
                }
            }
            list = (count, realm)
        }
        let tally = Tally(2)
        return Trial(measure: {
            var visited = 0, sum = 0
            let owner = realm.object(ofType: ListOwner.self, forPrimaryKey: 1)!
            for item in owner.items {
                visited += 1
                sum += item.score
            }
            tally.values = [visited, sum]
        }, result: { tally.values })
    }

    // MARK: Sets and maps

    /// The Realm holding the populated set and map (owner 1), reused.
    private var collections: (count: Int, realm: Realm)?

    private func populatedCollections(count: Int) throws -> Realm {
        if let collections, collections.count == count { return collections.realm }
        let realm = try freshRealm("collections").0
        try realm.write {
            let owner = realm.create(CollectionOwner.self, value: ["id": 1])
            for i in 0..<count {
                owner.numbers.insert(i)
                owner.entries[Dataset.mapKey(i)] = i
            }
        }
        collections = (count, realm)
        return realm
    }

    public func insertIntoSet(count: Int) throws -> Trial? {
        let (realm, directory) = try freshRealm("set-insert")
        let owner = try realm.write { realm.create(CollectionOwner.self, value: ["id": 1]) }
        return Trial(scratchDirectory: directory, measure: {
            try realm.write {
                let numbers = owner.numbers
                for i in 0..<count { numbers.insert(i) }
            }
        }, result: {
            let numbers = realm.object(ofType: CollectionOwner.self, forPrimaryKey: 1)!.numbers
            return [numbers.count, numbers.sum()]
        })
    }

    public func lookUpInSet(_ keys: [Int], among count: Int) throws -> Trial? {
        let realm = try populatedCollections(count: count)
        let tally = Tally(1)
        return Trial(measure: {
            let numbers = realm.object(ofType: CollectionOwner.self, forPrimaryKey: 1)!.numbers
            var found = 0
            for key in keys where numbers.contains(key) { found += 1 }
            tally.values = [found]
        }, result: { tally.values })
    }

    public func iterateSet(count: Int) throws -> Trial? {
        let realm = try populatedCollections(count: count)
        let tally = Tally(2)
        return Trial(measure: {
            var visited = 0, sum = 0
            for number in realm.object(ofType: CollectionOwner.self, forPrimaryKey: 1)!.numbers {
                visited += 1
                sum += number
            }
            tally.values = [visited, sum]
        }, result: { tally.values })
    }

    public func insertIntoMap(count: Int) throws -> Trial? {
        let (realm, directory) = try freshRealm("map-insert")
        let owner = try realm.write { realm.create(CollectionOwner.self, value: ["id": 1]) }
        return Trial(scratchDirectory: directory, measure: {
            try realm.write {
                let entries = owner.entries
                for i in 0..<count { entries[Dataset.mapKey(i)] = i }
            }
        }, result: {
            let entries = realm.object(ofType: CollectionOwner.self, forPrimaryKey: 1)!.entries
            return [entries.count, entries.sum()]
        })
    }

    public func lookUpInMap(_ keys: [Int], among count: Int) throws -> Trial? {
        let realm = try populatedCollections(count: count)
        let tally = Tally(1)
        return Trial(measure: {
            let entries = realm.object(ofType: CollectionOwner.self, forPrimaryKey: 1)!.entries
            var sum = 0
            for key in keys { sum += entries[Dataset.mapKey(key)] ?? 0 }
            tally.values = [sum]
        }, result: { tally.values })
    }

    public func iterateMap(count: Int) throws -> Trial? {
        let realm = try populatedCollections(count: count)
        let tally = Tally(2)
        return Trial(measure: {
            var visited = 0, sum = 0
            for entry in realm.object(ofType: CollectionOwner.self, forPrimaryKey: 1)!.entries {
                visited += 1
                sum += entry.value
            }
            tally.values = [visited, sum]
        }, result: { tally.values })
    }

    // MARK: Mixed values

    public func countMixedMatches(among count: Int) throws -> Trial? {
        let realm = try freshRealm("mixed").0
        try realm.write {
            for i in 0..<count {
                let object = MixedObject()
                switch Dataset.mixedValue(i) {
                case .int(let value): object.value = .int(value)
                case .string(let value): object.value = .string(value)
                case .double(let value): object.value = .double(value)
                }
                realm.add(object)
            }
        }
        let tally = Tally()
        return Trial(measure: {
            tally.value = realm.objects(MixedObject.self).filter("value == %@", Dataset.mixedProbe).count
        }, result: { tally.values })
    }

    // MARK: Notifications

    public func measureCommitLatency(commits: Int) throws -> Trial {
        let (writer, directory) = try freshRealm("notify")
        let probe = LatencyProbe()
        // The observer: a collection notification on every object of the
        // class, delivered on a serial dispatch queue (the docs' way to
        // observe from a thread that runs no run loop, and what the GRDB
        // contender does). The collection is resolved on the queue, in a
        // Realm confined to it.
        let queue = DispatchQueue(label: "realm-observer")
        let token = writer.objects(BenchObject.self).observe(on: queue) { change in
            switch change {
            case .initial(let results), .update(let results, _, _, _):
                probe.observe(count: results.count)
            case .error(let error):
                print("The realm observer failed: \(error)")
            }
        }
        _ = try probe.waitUntilObserved(0)

        return Trial(scratchDirectory: directory, samples: {
            defer {
                token.invalidate()
                queue.sync {}  // the queue's Realm is closed before the files go
            }
            var latencies: [Double] = []
            latencies.reserveCapacity(commits)
            for i in 0..<commits {
                writer.beginWrite()
                writer.add(Self.benchObject(i))
                // From the start of the commit: its durable write (fsync)
                // is included for every contender.
                let start = ContinuousClock.now
                try writer.commitWrite()
                let seen = try probe.waitUntilObserved(i + 1)
                latencies.append(seconds(from: start, to: seen))
            }
            return latencies
        }, result: {
            [probe.seenCount]
        })
    }

    // MARK: Opening

    /// A file of `openDatasetCount` objects with no Realm open on it.
    private func closedOpenFile() throws -> URL {
        if let openFile { return openFile }
        let directory = try scratch.makeDirectory("open")
        let file = directory.appendingPathComponent("open.realm")
        do {
            let realm = try Realm(configuration: configuration(file))
            try Self.populate(realm, count: openDatasetCount)
        }
        openFile = file
        return file
    }

    public func openUncached(times: Int) throws -> Trial {
        let configuration = configuration(try closedOpenFile())
        let tally = Tally()
        return Trial(measure: {
            var total = 0
            for _ in 0..<times {
                // No other instance is alive: each open reads the file's
                // schema and version, and the instance closes at the end of
                // the iteration.
                let realm = try Realm(configuration: configuration)
                total += realm.objects(BenchObject.self).count
            }
            tally.value = total
        }, result: { tally.values })
    }

    public func openCached(times: Int) throws -> Trial? {
        let configuration = configuration(try closedOpenFile())
        let alive = try Realm(configuration: configuration)
        let tally = Tally()
        return Trial(measure: {
            var total = 0
            for _ in 0..<times {
                // `alive` is open on this thread: this returns it.
                let realm = try Realm(configuration: configuration)
                total += realm.objects(BenchObject.self).count
            }
            tally.value = total
            withExtendedLifetime(alive) {}
        }, result: { tally.values })
    }
}
