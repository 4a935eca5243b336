import Foundation
import RealmObjects
import Testing

// AnyRealmValue: every case stored and read back, in properties and
// collections; Realm's comparison and order across types; links.

final class MixedHolder: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var value: AnyRealmValue
    @Persisted var values: List<AnyRealmValue>
    @Persisted var distinctValues: MutableSet<AnyRealmValue>
    @Persisted var named: Map<String, AnyRealmValue>
    let extra = RealmProperty<AnyRealmValue>()
}

final class MixedTarget: Object {
    @Persisted(primaryKey: true) var name = ""
}

@Suite struct AnyRealmValueTests {
    private func makeRealm() throws -> Realm {
        try Realm(configuration: inMemoryConfiguration(types: [MixedHolder.self, MixedTarget.self]))
    }

    private static var samples: [AnyRealmValue] { [
        .none, .int(42), .int(-1), .bool(true), .bool(false), .float(1.5), .double(2.25), .double(.nan), .string("text"),
        .string(""), .data(Data([0, 1, 2])), .data(Data()), .date(Date(timeIntervalSinceReferenceDate: 123.5)),
        .objectId(ObjectId(string: "0123456789abcdef01234567")!), .decimal128("1.50"), .decimal128(.infinity),
        .uuid(UUID(uuidString: "137decc8-b300-4954-a233-f89909f4fd89")!),
    ] }

    private static func same(_ a: AnyRealmValue, _ b: AnyRealmValue) -> Bool {
        switch (a, b) {
        case (.double(let x), .double(let y)) where x.isNaN: y.isNaN
        case (.decimal128(let x), .decimal128(let y)): x.canonicalText == y.canonicalText
        default: a == b
        }
    }

    @Test func everyCaseRoundTripsAsAPropertyAndInCollections() throws {
        let realm = try makeRealm()
        try realm.write {
            for (index, sample) in Self.samples.enumerated() {
                let holder = realm.create(MixedHolder.self, value: ["id": index])
                holder.value = sample
                holder.values.append(sample)
                holder.distinctValues.insert(sample)
                holder.named["k"] = sample
                holder.extra.value = sample
            }
        }
        for (index, sample) in Self.samples.enumerated() {
            let holder = try #require(realm.object(ofType: MixedHolder.self, forPrimaryKey: index))
            #expect(Self.same(holder.value, sample), "\(sample) read back as \(holder.value)")
            #expect(Self.same(holder.values[0], sample), "\(sample) in a list")
            #expect(holder.distinctValues.first.map { Self.same($0, sample) } == true, "\(sample) in a set")
            #expect(holder.named["k"].map { Self.same($0, sample) } == true, "\(sample) in a map")
            #expect(Self.same(holder.extra.value, sample), "\(sample) in a RealmProperty")
        }
    }

    @Test func objectsAreLinksOfAnyClassAndDeletingThemLeavesNone() throws {
        let realm = try makeRealm()
        let holder = MixedHolder()
        holder.value = .object(MixedTarget(value: ["name": "added with its holder"]))
        holder.values.append(.object(MixedTarget(value: ["name": "in a list"])))
        try realm.write { realm.add(holder) }
        #expect(realm.objects(MixedTarget.self).count == 2)
        let stored = try #require(holder.value.object(MixedTarget.self))
        #expect(stored.name == "added with its holder" && stored.realm != nil)
        #expect(holder.values[0].object(MixedTarget.self)?.name == "in a list")
        #expect(holder.value.dynamicObject?["name"] as? String == "added with its holder")
        try realm.write {
            holder.named["x"] = .object(stored)
            realm.delete(stored)
        }
        #expect(holder.value == .none)
        #expect(holder.named["x"] == AnyRealmValue.none)
        try realm.write { realm.delete(realm.objects(MixedTarget.self)) }
        #expect(holder.values.count == 1 && holder.values[0] == .none)
    }

    @Test func aSetKeepsEqualValuesOnceByRealmsEquality() throws {
        let realm = try makeRealm()
        let holder = try realm.write { realm.create(MixedHolder.self, value: ["id": 1]) }
        try realm.write {
            for value: AnyRealmValue in [.int(1), .int(1), .double(1), .bool(true), .string("1"), .none, .none] {
                holder.distinctValues.insert(value)
            }
        }
        // 1 and 1.0 are one number; true is no number; "1" is a string.
        #expect(holder.distinctValues.count == 4)
    }

    @Test func queriesCompareAcrossTypesAsRealmDoes() throws {
        let realm = try makeRealm()
        let values: [AnyRealmValue] = [.int(5), .double(5), .float(7.5), .bool(true), .int(1), .string("5"), .decimal128("6"), .none]
        try realm.write {
            for (index, value) in values.enumerated() { realm.create(MixedHolder.self, value: ["id": index, "value": value]) }
        }
        let holders = realm.objects(MixedHolder.self)
        #expect(holders.filter("value == 5").map(\.id) == [0, 1])
        #expect(holders.filter("value == true").map(\.id) == [3])
        #expect(holders.filter("value > 5").map(\.id) == [2, 6])
        #expect(holders.filter("value == '5'").map(\.id) == [5])
        #expect(holders.filter("value == nil").map(\.id) == [7])
        #expect(holders.filter("value != nil").count == 7)
        // @type, by Realm's type names and groups.
        #expect(holders.filter("value.@type == 'int'").map(\.id) == [0, 4])
        #expect(holders.filter("value.@type == 'numeric'").map(\.id) == [0, 1, 2, 4, 6])
        #expect(holders.filter("value.@type IN {'bool', 'string'}").map(\.id) == [3, 5])
        #expect(holders.filter("value.@type != 'null' AND value.@type == 'Decimal'").map(\.id) == [6])
        #expect(holders.filter("value.@type == 'null'").map(\.id) == [7])
        #expect(throws: Realm.Error.self) { try holders.filter(validating: "value.@type == 'integr'") }
        #expect(throws: Realm.Error.self) { try holders.filter(validating: "value.@type > 'int'") }
        // Realm's order of kinds: nil, Booleans, numbers, strings.
        #expect(holders.sorted(byKeyPath: "value").map(\.id) == [7, 3, 4, 0, 1, 6, 2, 5])
    }

    @Test func typeQueriesOnCollectionsOfMixedValues() throws {
        let realm = try makeRealm()
        try realm.write {
            realm.create(MixedHolder.self, value: ["id": 1, "values": [1, "two"]])
            realm.create(MixedHolder.self, value: ["id": 2, "values": [true]])
        }
        let holders = realm.objects(MixedHolder.self)
        #expect(holders.filter("ANY values.@type == 'string'").map(\.id) == [1])
        #expect(holders.filter("ALL values.@type IN {'int', 'string'}").map(\.id) == [1])
        #expect(holders.filter("NONE values.@type == 'bool'").map(\.id) == [1])
    }

    @Test func aggregatesAndOrderOfMixedCollections() throws {
        let realm = try makeRealm()
        let holder = try realm.write { realm.create(MixedHolder.self, value: ["id": 1]) }
        // A managed list's sum is a decimal, as realm-core's (see MixedAggregateTests).
        #expect(holder.values.min() == nil && holder.values.sum() == .decimal128(0))
        try realm.write {
            holder.values.append(objectsIn: [.int(3), .double(1.5), .decimal128("2.5"), .string("z"), .none, .bool(true)])
        }
        // Realm's order of kinds: Booleans before numbers, strings after.
        #expect(holder.values.min() == .bool(true))
        #expect(holder.values.max() == .string("z"))
        // Numbers add in decimal; other values add nothing.
        #expect(holder.values.sum() == .decimal128(7))
        let sorted = [AnyRealmValue.string("a"), .int(2), .none, .double(1.5), .bool(false)].sorted()
        #expect(sorted == [.none, .bool(false), .double(1.5), .int(2), .string("a")])
    }

    @Test func untypedInputConverts() throws {
        let realm = try makeRealm()
        try realm.write {
            realm.create(MixedHolder.self, value: ["id": 1, "value": "text", "values": [1, "two", 3.5, NSNull()], "named": ["a": true]])
        }
        let holder = try #require(realm.object(ofType: MixedHolder.self, forPrimaryKey: 1))
        #expect(holder.value == .string("text"))
        #expect(Array(holder.values) == [.int(1), .string("two"), .double(3.5), .none])
        #expect(holder.named["a"] == .bool(true))
        #expect(holder["value"] as? String == "text")
    }
}
