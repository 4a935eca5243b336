import Foundation
import RealmObjects
import Testing

final class Tally: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var scores: List<Int>
    @Persisted var weights: List<Double?>
    @Persisted var words: MutableSet<String>
    @Persisted var mixed: List<AnyRealmValue>
    @Persisted var prices: Map<String, Decimal128>
    @Persisted var best: Tally?
}

/// Watches a tally's sorted scores on itself.
private actor ScoreWatcher {
    var seen: [[Int]] = []
    private var token: NotificationToken?

    func watch(_ configuration: Realm.Configuration) async throws {
        let realm = try await Realm(configuration: configuration, actor: self)
        let tally = try #require(realm.object(ofType: Tally.self, forPrimaryKey: 1))
        token = await tally.scores.sorted().observe(on: self) { watcher, change in
            if case .initial(let scores) = change { watcher.seen.append(Array(scores)) }
            if case .update(let scores, _, _, _) = change { watcher.seen.append(Array(scores)) }
        }
    }

    func stop() { token?.invalidate() }
}

/// `Results` of values: the sorted and distinct values of lists, sets and
/// maps of values, live as Realm's are.
@Suite struct ValueResultsTests {
    private func tally(_ realm: Realm, scores: [Int] = [3, 1, 2, 3]) throws -> Tally {
        try realm.write {
            realm.create(Tally.self, value: ["id": 1, "scores": scores, "weights": [2.5, nil, 1.5, 2.5],
                                             "words": ["pear", "apple", "fig"], "prices": ["a": Decimal128(3), "b": Decimal128(1)]])
        }
    }

    @Test func sortedAndDistinctValuesAreLiveResults() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [Tally.self]))
        let tally = try tally(realm)
        let ascending: Results<Int> = tally.scores.sorted()
        let descending = tally.scores.sorted(ascending: false)
        let distinct = tally.scores.distinct()
        #expect(Array(ascending) == [1, 2, 3, 3])
        #expect(Array(descending) == [3, 3, 2, 1])
        #expect(Array(distinct) == [3, 1, 2])
        #expect(Array(distinct.sorted(ascending: false)) == [3, 2, 1])
        #expect(Array(tally.scores.sorted().distinct()) == [1, 2, 3])
        #expect(ascending.realm == realm && !ascending.isInvalidated && ascending.count == 4)
        #expect(ascending.first == 1 && ascending.last == 3 && ascending[1] == 2)
        #expect(ascending.index(of: 2) == 1 && ascending.index(of: 9) == nil)

        try realm.write {
            tally.scores.append(0)
            tally.scores.remove(at: 0)
        }
        #expect(Array(ascending) == [0, 1, 2, 3])
        #expect(Array(distinct) == [1, 2, 3, 0])

        #expect(Array(tally.weights.sorted()) == [nil, 1.5, 2.5, 2.5])
        #expect(Array(tally.weights.distinct()) == [2.5, nil, 1.5])
        #expect(Array(tally.words.sorted()) == ["apple", "fig", "pear"])
        #expect(Array(tally.words.sorted(ascending: false)) == ["pear", "fig", "apple"])
        #expect(Array(tally.prices.sorted()) == [Decimal128(1), Decimal128(3)])
        #expect(Array(AnyRealmCollection(tally.scores).sorted(ascending: false)) == [3, 2, 1, 0])
    }

    @Test func aggregatesOfResultsOfValues() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [Tally.self]))
        let tally = try tally(realm)
        let distinct = tally.scores.distinct()
        #expect(distinct.min() == 1 && distinct.max() == 3 && distinct.sum() == 6 && distinct.average() == 2)
        let weights = tally.weights.distinct()
        #expect(weights.min() == 1.5 && weights.max() == 2.5 && weights.sum() == 4 && weights.average() == 2)
        #expect(tally.words.sorted().count == 3)
    }

    /// Mixed values sort by kind first (nil, Booleans, numbers, strings,
    /// data, dates, object ids, UUIDs, objects), and numbers of different
    /// types by value; distinct counts `1` and `1.0` as one, as Realm does.
    @Test func mixedValuesSortInRealmsOrder() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [Tally.self]))
        let tally = try tally(realm)
        let id = ObjectId.generate()
        let uuid = UUID()
        let date = Date(timeIntervalSince1970: 100)
        try realm.write {
            tally.mixed.append(objectsIn: [.object(tally), .uuid(uuid), .string("b"), .double(1.5), .none, .bool(true),
                                           .objectId(id), .date(date), .data(Data([1])), .int(1), .string("a"), .bool(false), .float(1)])
        }
        let sorted = Array(tally.mixed.sorted())
        #expect(sorted == [.none, .bool(false), .bool(true), .int(1), .float(1), .double(1.5), .string("a"), .string("b"),
                           .data(Data([1])), .date(date), .objectId(id), .uuid(uuid), .object(tally)])
        // An object holding itself in a mixed list describes itself to
        // Realm's depth, and no deeper.
        #expect(tally.description.contains("<Maximum depth exceeded>"))
        #expect(Array(tally.mixed.sorted(ascending: false)).first?.object(Tally.self)?.id == 1)
        let distinct = Array(tally.mixed.distinct())
        #expect(distinct.count == 12)
        #expect(!distinct.contains(.float(1)))
    }

    @Test func notificationsReportTheSortedPositions() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [Tally.self]))
        let tally = try tally(realm)
        var changes: [String] = []
        let token = tally.scores.sorted().observe { change in
            switch change {
            case .initial(let results): changes.append("initial \(Array(results))")
            case .update(let results, let deletions, let insertions, _): changes.append("\(Array(results)) del \(deletions) ins \(insertions)")
            case .error(let error): changes.append("error \(error)")
            }
        }
        defer { token.invalidate() }
        realm.refresh()
        try realm.write { tally.scores.append(0) }
        realm.refresh()
        try realm.write { tally.scores.removeAll() }
        realm.refresh()
        #expect(changes == ["initial [1, 2, 3, 3]", "[0, 1, 2, 3, 3] del [] ins [0]", "[] del [0, 1, 2, 3, 4] ins []"])
    }

    @Test func notificationsOnAQueue() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [Tally.self]))
        let tally = try tally(realm)
        let queue = DispatchQueue(label: "value results")
        let delivered = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var seen: [[String]] = []
        let token = tally.words.sorted(ascending: false).observe(on: queue) { change in
            if case .initial(let words) = change { seen.append(Array(words)) }
            if case .update(let words, _, _, _) = change { seen.append(Array(words)) }
            delivered.signal()
        }
        defer { token.invalidate() }
        #expect(delivered.wait(timeout: .now() + 10) == .success)
        try realm.write { tally.words.insert("kiwi") }
        #expect(delivered.wait(timeout: .now() + 10) == .success)
        queue.sync {}
        #expect(seen == [["pear", "fig", "apple"], ["pear", "kiwi", "fig", "apple"]])
    }

    @Test func notificationsOnAnActor() async throws {
        let configuration = inMemoryConfiguration(types: [Tally.self])
        let keeper = try realmOnThisThread(configuration)
        _ = try tally(keeper)
        let watcher = ScoreWatcher()
        try await watcher.watch(configuration)
        // The initial results come on the actor; the write follows them.
        try await waitUntil { await !watcher.seen.isEmpty }
        seedRunOnThread {
            let realm = try! Realm(configuration: configuration)
            try! realm.write { realm.object(ofType: Tally.self, forPrimaryKey: 1)!.scores.append(0) }
        }
        try await waitUntil { await watcher.seen.count >= 2 }
        let seen = await watcher.seen
        #expect(seen == [[1, 2, 3, 3], [0, 1, 2, 3, 3]])
        await watcher.stop()
        withExtendedLifetime(keeper) {}
    }

    @Test func freezingThawingAndPassingToAnotherThread() throws {
        let configuration = inMemoryConfiguration(types: [Tally.self])
        let realm = try Realm(configuration: configuration)
        let tally = try tally(realm)
        let sorted = tally.scores.sorted(ascending: false)
        let frozen = sorted.freeze()
        #expect(frozen.isFrozen && !sorted.isFrozen)
        try realm.write { tally.scores.append(9) }
        #expect(Array(frozen) == [3, 3, 2, 1])
        #expect(Array(sorted) == [9, 3, 3, 2, 1])
        let thawed = try #require(frozen.thaw())
        #expect(Array(thawed) == [9, 3, 3, 2, 1] && !thawed.isFrozen)

        let reference = ThreadSafeReference(to: tally.words.sorted())
        let resolved = try DispatchQueue(label: "other thread").sync {
            let other = try Realm(configuration: configuration)
            return other.resolve(reference).map { Array($0) }
        }
        #expect(resolved == ["apple", "fig", "pear"])
    }

    @Test func resultsOfADeletedOwnersValuesAreInvalidatedAndEmpty() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [Tally.self]))
        let tally = try tally(realm)
        let sorted = tally.scores.sorted()
        try realm.write { realm.delete(tally) }
        #expect(sorted.isInvalidated)
        #expect(sorted.isEmpty && Array(sorted) == [])
    }

    @Test func sectioningValues() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [Tally.self]))
        let tally = try tally(realm, scores: [5, 2, 8, 3, 6])
        let byParity = tally.scores.sectioned(by: { $0 % 2 == 0 ? "even" : "odd" }, ascending: true)
        #expect(byParity.allKeys == ["even", "odd"])
        #expect(Array(byParity[0]) == [2, 6, 8] && Array(byParity[1]) == [3, 5])
        let fromResults = tally.scores.distinct().sectioned(by: { $0 > 4 }, ascending: false)
        #expect(fromResults.allKeys == [true, false])
        #expect(Array(fromResults[0]) == [8, 6, 5] && Array(fromResults[1]) == [3, 2])
        try realm.write { tally.scores.append(4) }
        #expect(Array(byParity[0]) == [2, 4, 6, 8])
    }

    @Test func descriptionListsTheValues() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [Tally.self]))
        let tally = try tally(realm)
        let description = tally.scores.distinct().description
        #expect(description.hasPrefix("Results<Int> <0x"))
        #expect(description.contains("[0] 3") && description.contains("[2] 2"))
    }

    @Test func sortingAnUnmanagedListStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Tally().scores.sorted()
        }
        #expect(seedStandardError(result).contains("sorted(ascending:) may only be called on a List<Int> managed by a Realm."))
    }
}
