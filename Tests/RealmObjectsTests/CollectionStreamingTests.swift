import Dispatch
import Foundation
import RealmObjects
import Synchronization
import Testing

final class StreamedTarget: Object {
    @Persisted var name = ""
}

final class StreamedCollections: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var scores: Map<String, Int>
    @Persisted var labels: Map<String, String?>
    @Persisted var owners: Map<String, StreamedTarget?>
    @Persisted var numbers: MutableSet<Int>
    @Persisted var amounts: MutableSet<Decimal128>
    @Persisted var targets: MutableSet<StreamedTarget>
}

/// Loops over managed maps and sets read them a batch at a time (the first
/// of 16 entries, then 256), from a statement of their own: these tests
/// hold them to the promise of seeing the collection as it was when the
/// loop began, across batches, writes, refreshes, commits, nested loops and
/// threads.
@Suite struct CollectionStreamingTests {
    /// Enough entries for several batches.
    static let count = 1_000

    /// A key whose order is not the order of `index` (its digits reversed,
    /// then padded: unique for indexes below 10,000).
    static func key(_ index: Int) -> String { "k" + String(String(index).reversed()).padding(toLength: 4, withPad: "0", startingAt: 0) }

    private func fixture(_ name: String = #function) throws -> (Realm, StreamedCollections) {
        let realm = try Realm(configuration: inMemoryConfiguration(name, types: [StreamedCollections.self, StreamedTarget.self]))
        let holder = try realm.write {
            let holder = realm.create(StreamedCollections.self, value: ["id": 1])
            for index in 0..<Self.count {
                holder.scores[Self.key(index)] = index
                holder.labels[Self.key(index)] = index % 7 == 0 ? String?.none : "label \(index)"
                holder.owners[Self.key(index)] = index % 5 == 0 ? nil : realm.create(StreamedTarget.self, value: ["name": "target \(index)"])
                holder.numbers.insert(index * 3)
                holder.amounts.insert(Decimal128(index) / 4)
            }
            for target in realm.objects(StreamedTarget.self) { holder.targets.insert(target) }
            return holder
        }
        return (realm, holder)
    }

    /// The keys in a map's order (ASCII: the order of their UTF-8 bytes).
    private var sortedKeys: [String] { (0..<Self.count).map(Self.key).sorted() }

    @Test func loopsReadEveryEntryInOrderAcrossBatches() throws {
        let (_, holder) = try fixture()
        let keys = sortedKeys
        #expect(holder.scores.map(\.key) == keys)
        #expect(holder.scores.map(\.value) == keys.map { holder.scores[$0]! })
        #expect(holder.scores.map(\.value).reduce(0, +) == (0..<Self.count).reduce(0, +))
        // Optional values and objects take the generic path.
        #expect(holder.labels.map(\.key) == keys)
        #expect(holder.labels.filter { $0.value == nil }.count == (0..<Self.count).filter { $0 % 7 == 0 }.count)
        #expect(holder.owners.compactMap { $0.value?.name }.count == Self.count - Self.count / 5)
        #expect(Array(holder.numbers) == (0..<Self.count).map { $0 * 3 })
        // Decimals in Decimal128's order, which is not their text's.
        #expect(Array(holder.amounts) == (0..<Self.count).map { Decimal128($0) / 4 })
        #expect(Set(holder.targets.map(\.name)).count == Self.count - Self.count / 5)
        #expect(holder.scores.count == Self.count && holder.numbers.count == Self.count)
    }

    /// The loop's own writes, before the first batch ends, in the middle of
    /// a later one, and on every entry.
    @Test func writesInsideTheLoopLeaveWhatTheLoopSees() throws {
        let (realm, holder) = try fixture()
        let keys = sortedKeys
        for stop in [3, 16, 100, Self.count - 1] {
            realm.beginWrite()
            var seen: [String] = []
            for (position, entry) in holder.scores.enumerated() {
                seen.append(entry.key)
                if position == stop {
                    holder.scores.removeAll()
                    holder.scores["zz new"] = -1
                }
            }
            #expect(seen == keys, "a write after entry \(stop)")
            realm.cancelWrite()
        }
        try realm.write {
            var seen: [String] = []
            for entry in holder.scores {
                seen.append(entry.key)
                holder.scores.removeObject(for: entry.key)
                holder.scores["moved " + entry.key] = entry.value
            }
            #expect(seen == keys)
        }
        #expect(holder.scores.count == Self.count && holder.scores.keys.allSatisfy { $0.hasPrefix("moved ") })

        try realm.write {
            var seen: [Int] = []
            for number in holder.numbers {
                seen.append(number)
                holder.numbers.remove(number)
                holder.numbers.insert(-number - 1)
            }
            #expect(seen == (0..<Self.count).map { $0 * 3 })
            var amounts = 0
            for amount in holder.amounts {
                amounts += 1
                holder.amounts.remove(amount)
            }
            #expect(amounts == Self.count && holder.amounts.isEmpty)
        }
        #expect(Array(holder.numbers) == (0..<Self.count).map { -$0 * 3 - 1 }.reversed())
    }

    /// Another thread's commit, seen by a refresh in the middle of a batch:
    /// the loop goes on over the entries it began with.
    @Test func aRefreshMidLoopKeepsTheLoopsEntries() throws {
        let configuration = inMemoryConfiguration(types: [StreamedCollections.self, StreamedTarget.self])
        let realm = try Realm(configuration: configuration)
        let holder = try realm.write {
            let holder = realm.create(StreamedCollections.self, value: ["id": 1])
            for index in 0..<Self.count { holder.scores[Self.key(index)] = index }
            return holder
        }
        var seen: [String] = []
        for entry in holder.scores {
            seen.append(entry.key)
            if seen.count == 40 {
                try DispatchQueue.global().sync {
                    let other = try Realm(configuration: configuration)
                    try other.write {
                        let scores = other.object(ofType: StreamedCollections.self, forPrimaryKey: 1)!.scores
                        scores.removeAll()
                        scores["only"] = 1
                    }
                }
                realm.refresh()
                #expect(holder.scores.count == 1)
            }
        }
        #expect(seen == sortedKeys)
    }

    /// A commit ends the transaction a loop reads in; the loop still has
    /// its entries.
    @Test func aLoopOutlivesItsTransaction() throws {
        let (realm, holder) = try fixture()
        realm.beginWrite()
        var iterator = holder.scores.makeIterator()
        var seen = [iterator.next()!.key]
        try realm.commitWrite()
        while let entry = iterator.next() { seen.append(entry.key) }
        #expect(seen == sortedKeys)
    }

    @Test func nestedLoopsAndLookupsInsideALoop() throws {
        let (_, holder) = try fixture()
        var pairs = 0
        var lookups = 0
        for outer in holder.scores.prefix(20) {
            for inner in holder.scores where inner.value == outer.value {
                pairs += 1
            }
            // A lookup, a count and a whole read of the same map between
            // two steps of the loop.
            lookups += holder.scores[outer.key] == outer.value && holder.scores.count == Self.count ? 1 : 0
            lookups += holder.scores.keys.count == Self.count ? 1 : 0
        }
        #expect(pairs == 20 && lookups == 40)
        var inner = 0
        for number in holder.numbers where number < 30 {
            inner += holder.numbers.filter { $0 == number }.count
        }
        #expect(inner == 10)
    }

    /// A loop that stops early lets its statement go: the same collection
    /// is written and read whole after it.
    @Test func aLoopThatStopsEarlyLeavesNothingBehind() throws {
        let (realm, holder) = try fixture()
        for _ in 0..<100 {
            for entry in holder.scores where entry.value >= 0 { break }
            _ = holder.numbers.first { $0 > 30 }
        }
        try realm.write {
            holder.scores["a new key"] = -5
            holder.numbers.insert(-3)
        }
        #expect(holder.scores.count == Self.count + 1 && Array(holder.scores).count == Self.count + 1)
        #expect(Array(holder.numbers).first == -3)
    }

    @Test func frozenCollectionsIterateOnEveryThread() throws {
        let (_, holder) = try fixture()
        let shared = SeedUnchecked(value: holder.freeze())
        let keys = sortedKeys
        let mismatches = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: 8) { round in
            let frozen = shared.value
            for _ in 0..<3 {
                if frozen.scores.map(\.key) != keys { mismatches.add(1, ordering: .relaxed) }
                if Array(frozen.numbers).count != Self.count { mismatches.add(1, ordering: .relaxed) }
                // A loop that stops early, on some threads.
                if round % 2 == 0, frozen.owners.first(where: { $0.value != nil })?.value?.name.isEmpty != false {
                    mismatches.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(mismatches.load(ordering: .relaxed) == 0)
    }

    @Test func unmanagedCollectionsIterateInOrder() {
        let holder = StreamedCollections()
        for index in [3, 1, 2] {
            holder.scores[Self.key(index)] = index
            holder.numbers.insert(index)
        }
        #expect(holder.scores.map(\.value) == [1, 2, 3])
        #expect(Set(holder.numbers) == [1, 2, 3])
    }
}
