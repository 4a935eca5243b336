import Foundation
import RealmObjects
import Synchronization
import Testing

final class NestedMixedHolder: Object {
    @Persisted var name = ""
    @Persisted var value: AnyRealmValue
    @Persisted var values: List<AnyRealmValue>
    @Persisted var byKey: Map<String, AnyRealmValue>
    @Persisted var unique: MutableSet<AnyRealmValue>
}

final class NestedMixedTag: Object {
    @Persisted var label = ""
}

final class NestedMixedBoxV0: Object {
    @Persisted var old: AnyRealmValue
    @Persisted var oldList: List<AnyRealmValue>
    @Persisted var oldMap: Map<String, AnyRealmValue>
    override class func className() -> String { "NestedMixedBox" }
}

final class NestedMixedBoxV1: Object {
    @Persisted var new: AnyRealmValue
    @Persisted var newList: List<AnyRealmValue>
    @Persisted var newMap: Map<String, AnyRealmValue>
    override class func className() -> String { "NestedMixedBox" }
}

/// Lists and dictionaries nested in `AnyRealmValue`, beyond realm-swift's
/// own tests (`MixedCollectionPortTests`): in lists and maps of mixed
/// values, through frozen Realms and thread-safe references, with queries,
/// the dynamic API, and what a replaced place leaves.
@Suite struct NestedMixedCollectionTests {
    let directory = TemporaryDirectory()

    private func realm() throws -> Realm {
        try Realm(configuration: Realm.Configuration(fileURL: directory.file(), objectTypes: [NestedMixedHolder.self, NestedMixedTag.self]))
    }

    private func holder(in realm: Realm) throws -> NestedMixedHolder {
        let holder = NestedMixedHolder()
        holder.value = .fromDictionary(["list": .fromArray([.int(1), .string("two")]), "flag": .bool(true)])
        holder.values.append(.fromArray([.int(1)]))
        holder.values.append(.int(2))
        holder.byKey["inner"] = .fromDictionary(["deep": .fromArray([.fromArray([.double(1.5)])])])
        try realm.write { realm.add(holder) }
        return holder
    }

    @Test func listsAndMapsOfMixedValuesHoldCollections() throws {
        let realm = try realm()
        let holder = try holder(in: realm)
        #expect(holder.values[0].listValue?[0] == .int(1))
        #expect(holder.values[1] == .int(2))
        #expect(holder.byKey["inner"]?.dictionaryValue?["deep"]?.listValue?[0].listValue?[0] == .double(1.5))

        try realm.write {
            holder.values.insert(.fromDictionary(["a": .int(1)]), at: 0)
            holder.values[2] = .fromArray([])
            holder.byKey["inner"] = .string("flat")
        }
        #expect(holder.values.count == 3)
        #expect(holder.values[0].dictionaryValue?["a"] == .int(1))
        #expect(holder.values[1].listValue?.count == 1)
        #expect(holder.values[2].listValue?.count == 0)
        #expect(holder.byKey["inner"] == .string("flat"))
    }

    @Test func aReplacedPlaceInvalidatesItsCollection() throws {
        let realm = try realm()
        let holder = try holder(in: realm)
        let list = try #require(holder.value.dictionaryValue?["list"]?.listValue)
        #expect(!list.isInvalidated)
        try realm.write { holder.value = .int(3) }
        #expect(list.isInvalidated)
        #expect(list.count == 0)

        let element = try #require(holder.values[0].listValue)
        try realm.write { holder.values.removeAll() }
        #expect(element.isInvalidated)

        let inner = try #require(holder.byKey["inner"]?.dictionaryValue)
        try realm.write { realm.delete(holder) }
        #expect(inner.isInvalidated)
    }

    @Test func aSetOfMixedValuesRefusesCollections() throws {
        let realm = try realm()
        let holder = try holder(in: realm)
        realm.beginWrite()
        holder.unique.insert(.fromArray([.int(1)]))
        #expect(throws: Realm.Error.self) { try realm.commitWrite() }
        #expect(!realm.isInWriteTransaction)
        #expect(holder.unique.count == 0)
    }

    @Test func frozenAndThreadSafeNestedCollections() throws {
        let realm = try realm()
        let holder = try holder(in: realm)
        let list = try #require(holder.value.dictionaryValue?["list"]?.listValue)
        let frozen = list.freeze()
        #expect(frozen.isFrozen)
        try realm.write { list.append(.int(3)) }
        #expect(frozen.count == 2)
        #expect(list.count == 3)
        #expect(frozen.thaw()?.count == 3)

        let map = try #require(holder.value.dictionaryValue)
        let reference = ThreadSafeReference(to: map)
        let configuration = realm.configuration
        let flag = Mutex<Bool?>(nil)
        let isSameThread = Mutex(true)
        let here = ObjectIdentifier(Thread.current)
        seedRunOnThread {
            let other = try! Realm(configuration: configuration)
            let resolved = other.resolve(reference)?["flag"]?.boolValue
            flag.withLock { $0 = resolved }
            isSameThread.withLock { $0 = ObjectIdentifier(Thread.current) == here }
        }
        #expect(!isSameThread.withLock { $0 })
        #expect(flag.withLock { $0 } == true)
    }

    @Test func queriesSeeTheTypeOfNestedCollections() throws {
        let realm = try realm()
        _ = try holder(in: realm)
        try realm.write {
            realm.add(NestedMixedHolder(value: ["name": "list", "value": AnyRealmValue.fromArray([.int(1)])]))
            realm.add(NestedMixedHolder(value: ["name": "int", "value": AnyRealmValue.int(1)]))
        }
        let holders = realm.objects(NestedMixedHolder.self)
        #expect(holders.filter("value.@type == 'dictionary'").count == 1)
        #expect(holders.filter("value.@type == 'list'").first?.name == "list")
        #expect(holders.filter("value.@type == 'collection'").count == 2)
        #expect(holders.filter("value == 1").first?.name == "int")
        #expect(holders.sorted(byKeyPath: "value").last?.value.isCollection == true)
    }

    @Test func queriesReachIntoNestedCollections() throws {
        let realm = try realm()
        try realm.write {
            realm.add(NestedMixedHolder(value: ["name": "a", "value": AnyRealmValue.fromDictionary([
                "scores": .fromArray([.int(1), .int(5), .int(9)]), "tag": .string("red"),
                "deep": .fromDictionary(["x": .fromArray([.string("inner")])])])]))
            realm.add(NestedMixedHolder(value: ["name": "b", "value": AnyRealmValue.fromArray([.int(7), .fromArray([.int(2)])])]))
            realm.add(NestedMixedHolder(value: ["name": "c", "value": AnyRealmValue.int(3)]))
        }
        let holders = realm.objects(NestedMixedHolder.self)
        func names(_ format: String) -> [String] {
            holders.filter(format).map(\.name).sorted()
        }
        #expect(names("value['tag'] == 'red'") == ["a"])
        #expect(names("value['scores'][0] == 1") == ["a"])
        #expect(names("value['scores'][FIRST] == 1 AND value['scores'][LAST] == 9") == ["a"])
        #expect(names("ANY value['scores'][*] == 5") == ["a"])
        #expect(names("value['scores'][*] > 8") == ["a"])
        // ALL of nothing holds, as for an empty list.
        #expect(names("ALL value['scores'][*] > 0") == ["a", "b", "c"])
        #expect(names("ALL value['scores'][*] > 1") == ["b", "c"])
        #expect(names("value['deep']['x'][0] BEGINSWITH 'in'") == ["a"])
        // A dictionary's key after a dot, as Realm writes it too.
        #expect(names("value.tag == 'red'") == ["a"])
        #expect(names("value.deep.x[0] == 'inner'") == ["a"])
        #expect(names("value.scores[SIZE] == 3") == ["a"])
        #expect(names("value[0] == 7") == ["b"])
        #expect(holders.filter("value[1][0] == %@", 2).map(\.name) == ["b"])
        #expect(names("value[1].@type == 'list'") == ["b"])
        #expect(names("value['scores'][SIZE] == 3") == ["a"])
        #expect(names("value.@size == 2") == ["b"])
        #expect(names("value['scores'].@size == 3") == ["a"])
        // What a path does not reach reads as nil, as a map's missing key.
        #expect(names("value[5] == nil") == ["a", "b", "c"])
        #expect(names("value['missing'] == nil") == ["a", "b", "c"])
        #expect(names("value['tag'] != nil") == ["a"])
        // A subscript of a value that holds no collection reaches nothing.
        #expect(names("value[0] == 3") == [])
        // Subscripts of anything but a mixed property are refused.
        #expect(throws: Realm.Error.self) { _ = try holders.filter(validating: "name[0] == 'a'") }
        #expect(throws: Realm.Error.self) { _ = try holders.filter(validating: "value[SIZE][0] == 1") }
    }

    @Test func aDeletedObjectInANestedCollectionBecomesNone() throws {
        let realm = try realm()
        let tag = NestedMixedTag(value: ["label": "t"])
        let holder = NestedMixedHolder()
        holder.value = .fromArray([.object(tag), .int(1)])
        try realm.write { realm.add(holder) }
        #expect(holder.value.listValue?[0].object(NestedMixedTag.self)?.label == "t")

        var changes = 0
        let token = holder.observe { change in
            if case .change(let properties) = change, properties.map(\.name) == ["value"] { changes += 1 }
        }
        defer { token.invalidate() }
        try realm.write { realm.delete(tag) }
        realm.refresh()
        #expect(holder.value.listValue?[0] == AnyRealmValue.none)
        #expect(holder.value.listValue?[1] == .int(1))
        #expect(changes == 1)
    }

    @Test func theDynamicAPIReadsAndWritesNestedCollections() throws {
        let realm = try realm()
        let holder = try holder(in: realm)
        let dynamic = try #require(realm.dynamicObjects("NestedMixedHolder").first)
        let value = try #require(dynamic["value"] as? Map<String, AnyRealmValue>)
        #expect(value["flag"] == .bool(true))
        try realm.write {
            dynamic["value"] = AnyRealmValue.fromArray([.string("x")])
        }
        #expect(holder.value.listValue?[0] == .string("x"))
        try realm.write {
            _ = realm.dynamicCreate("NestedMixedHolder", value: ["name": "made", "value": ["a": [1, 2]]])
        }
        let made = try #require(realm.objects(NestedMixedHolder.self).filter("name == 'made'").first)
        #expect(made.value.dictionaryValue?["a"]?.listValue?.count == 2)
    }

    @Test func copyingAnObjectCopiesItsNestedCollections() throws {
        let realm = try realm()
        let holder = try holder(in: realm)
        let other = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "nested-copy-\(UUID())",
                                                                 objectTypes: [NestedMixedHolder.self, NestedMixedTag.self]))
        let copy = try other.write { other.create(NestedMixedHolder.self, value: holder) }
        #expect(copy.value.dictionaryValue?["list"]?.listValue?[1] == .string("two"))
        #expect(copy.values[0].listValue?[0] == .int(1))
        #expect(copy.byKey["inner"]?.dictionaryValue?["deep"]?.listValue?[0].listValue?[0] == .double(1.5))
        // The copy is its own: changing it leaves the original.
        try other.write { copy.value.dictionaryValue?["flag"] = .bool(false) }
        #expect(holder.value.dictionaryValue?["flag"] == .bool(true))
    }

    @Test func renamingAMixedPropertyKeepsItsNestedCollections() throws {
        let file = directory.file("rename.realm")
        do {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: file, objectTypes: [NestedMixedBoxV0.self]))
            let box = NestedMixedBoxV0()
            box.old = .fromDictionary(["list": .fromArray([.int(1), .fromDictionary(["deep": .string("x")])])])
            box.oldList.append(.fromArray([.bool(true)]))
            box.oldMap["k"] = .fromArray([.double(2.5)])
            try realm.write { realm.add(box) }
        }
        var configuration = Realm.Configuration(fileURL: file, schemaVersion: 1, objectTypes: [NestedMixedBoxV1.self])
        configuration.migrationBlock = { migration, _ in
            migration.renameProperty(onType: "NestedMixedBox", from: "old", to: "new")
            migration.renameProperty(onType: "NestedMixedBox", from: "oldList", to: "newList")
            migration.renameProperty(onType: "NestedMixedBox", from: "oldMap", to: "newMap")
        }
        let realm = try Realm(configuration: configuration)
        let box = try #require(realm.objects(NestedMixedBoxV1.self).first)
        #expect(box.new.dictionaryValue?["list"]?.listValue?[0] == .int(1))
        #expect(box.new.dictionaryValue?["list"]?.listValue?[1].dictionaryValue?["deep"] == .string("x"))
        #expect(box.newList.first?.listValue?.first == .bool(true))
        #expect(box.newMap["k"]?.listValue?.first == .double(2.5))
    }

    @Test func descriptionShowsNestedCollections() throws {
        let realm = try realm()
        let holder = try holder(in: realm)
        let text = holder.description
        #expect(text.contains("two"))
        #expect(text.contains("1.5"))
    }
}

extension AnyRealmValue {
    fileprivate var isCollection: Bool { listValue != nil || dictionaryValue != nil }
}
