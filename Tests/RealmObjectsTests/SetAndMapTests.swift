import Foundation
import RealmObjects
import Synchronization
import Testing

// MutableSet and Map: storage, the API of Realm 10, queries, deletions,
// notifications.

final class SetPerson: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var tags: MutableSet<String>
    @Persisted var luckyNumbers: MutableSet<Int?>
    @Persisted var amounts: MutableSet<Decimal128>
    @Persisted var friends: MutableSet<SetPerson>
    @Persisted var scores: Map<String, Int>
    @Persisted var notes: Map<String, String?>
    @Persisted var contacts: Map<String, SetPerson?>
    let nicknames = MutableSet<String>()
    let ratings = Map<String, Double>()
}

@Suite struct SetAndMapTests {
    private func makeRealm() throws -> Realm {
        try Realm(configuration: inMemoryConfiguration(types: [SetPerson.self]))
    }

    @Test func theSchemaHasSetsAndMaps() throws {
        let schema = try #require(try makeRealm().schema["SetPerson"])
        #expect(schema[propertyNamed: "tags"].map { $0.isSet && !$0.isList && $0.type == .string && !$0.isOptional } == true)
        #expect(schema[propertyNamed: "luckyNumbers"].map { $0.isSet && $0.isOptional } == true)
        #expect(schema[propertyNamed: "friends"].map { $0.isSet && $0.type == .object && $0.objectClassName == "SetPerson" } == true)
        #expect(schema[propertyNamed: "scores"].map { $0.isMap && $0.type == .int && !$0.isOptional } == true)
        #expect(schema[propertyNamed: "contacts"].map { $0.isMap && $0.isOptional && $0.objectClassName == "SetPerson" } == true)
        #expect(schema[propertyNamed: "nicknames"]?.isSet == true)
        #expect(schema[propertyNamed: "ratings"]?.isMap == true)
        #expect(schema[propertyNamed: "tags"]?.typeDescription == "set<string>")
        #expect(schema[propertyNamed: "notes"]?.typeDescription == "map<string, string?>")
    }

    @Test func unmanagedSetsAndMapsAreCopiedWhenAdded() throws {
        let realm = try makeRealm()
        let person = SetPerson()
        person.tags.insert(objectsIn: ["b", "a", "b"])
        person.luckyNumbers.insert(objectsIn: [nil, 7, nil])
        person.scores["math"] = 9
        person.scores["art"] = 7
        person.notes["x"] = .some(nil)
        person.nicknames.insert("Bo")
        person.ratings["food"] = 4.5
        let friend = SetPerson(value: ["id": 2, "name": "Ann"])
        person.friends.insert(friend)
        person.contacts["best"] = friend
        #expect(person.tags.count == 2 && person.luckyNumbers.count == 2)
        try realm.write { realm.add(person) }

        let stored = try #require(realm.object(ofType: SetPerson.self, forPrimaryKey: 0))
        #expect(Array(stored.tags) == ["a", "b"])
        #expect(stored.luckyNumbers.sorted { ($0 ?? -1) < ($1 ?? -1) } == [nil, 7])
        #expect(stored.scores.keys == ["art", "math"] && stored.scores.values == [7, 9])
        #expect(stored.scores["math"] == 9 && stored.scores["none"] == nil)
        #expect(stored.notes.count == 1 && stored.notes["x"] == .some(nil))
        #expect(Array(stored.nicknames) == ["Bo"] && stored.ratings["food"] == 4.5)
        #expect(stored.friends.map(\.name) == ["Ann"])
        #expect(stored.contacts["best"]??.name == "Ann")
        // The unmanaged friend was added with its owner.
        #expect(realm.objects(SetPerson.self).count == 2)
        #expect(person.tags.realm != nil && person.scores.realm != nil)
    }

    @Test func setsHoldEachValueOnce() throws {
        let realm = try makeRealm()
        let person = try realm.write { realm.create(SetPerson.self, value: ["id": 1]) }
        try realm.write {
            person.tags.insert("a")
            person.tags.insert("a")
            person.tags.insert(objectsIn: ["c", "b"])
            person.luckyNumbers.insert(nil)
            person.luckyNumbers.insert(nil)
            person.luckyNumbers.insert(3)
            person.amounts.insert("1.5")
            person.amounts.insert("1.50")
            person.amounts.insert("-2")
        }
        #expect(Array(person.tags) == ["a", "b", "c"])
        #expect(person.luckyNumbers.count == 2 && person.luckyNumbers.contains(nil) && person.luckyNumbers.contains(3))
        #expect(person.amounts.count == 2 && person.amounts.contains("1.500"))
        #expect(Array(person.amounts) == ["-2", "1.5"])
        #expect(person.amounts.sum() == "-0.5" && person.amounts.max() == "1.5")
        try realm.write {
            person.tags.remove("b")
            person.tags.remove("zzz")
            person.amounts.remove("1.500")
            person.luckyNumbers.remove(nil)
        }
        #expect(Array(person.tags) == ["a", "c"] && Array(person.amounts) == ["-2"] && Array(person.luckyNumbers) == [3])
        try realm.write { person.tags.removeAll() }
        #expect(person.tags.isEmpty)
    }

    @Test func setAlgebra() throws {
        let realm = try makeRealm()
        let (a, b) = try realm.write {
            (realm.create(SetPerson.self, value: ["id": 1, "tags": ["x", "y", "z"]]),
             realm.create(SetPerson.self, value: ["id": 2, "tags": ["y", "z", "w"]]))
        }
        #expect(a.tags.intersects(b.tags) && !a.tags.isSubset(of: b.tags))
        try realm.write { a.tags.formIntersection(b.tags) }
        #expect(Array(a.tags) == ["y", "z"] && a.tags.isSubset(of: b.tags))
        try realm.write { a.tags.formUnion(b.tags) }
        #expect(Array(a.tags) == ["w", "y", "z"])
        try realm.write { a.tags.subtract(b.tags) }
        #expect(a.tags.isEmpty && !a.tags.intersects(b.tags))
    }

    @Test func mapsSetReplaceAndRemoveKeys() throws {
        let realm = try makeRealm()
        let person = try realm.write { realm.create(SetPerson.self, value: ["id": 1, "scores": ["b": 2, "a": 1]]) }
        #expect(person.scores.asKeyValueSequence().map { "\($0.key)=\($0.value)" } == ["a=1", "b=2"])
        try realm.write {
            person.scores["a"] = 10
            person.scores.updateValue(3, forKey: "c")
            person.scores["b"] = nil
            person.scores.merge(["c": 30, "d": 4]) { current, new in current + new }
        }
        #expect(person.scores.map { "\($0.key)=\($0.value)" } == ["a=10", "c=33", "d=4"])
        #expect(person.scores.sum() == 47 && person.scores.min() == 4)
        try realm.write { person.scores.removeObject(for: "d") }
        #expect(person.scores.count == 2)
        // Realm's rules for keys: a bad key fails the write, naming it.
        realm.beginWrite()
        person.scores["a.b"] = 1
        #expect(throws: Realm.Error.self) { try realm.commitWrite() }
        #expect(person.scores.count == 2)
        // Untyped input of another type fails the write too, naming the map.
        realm.beginWrite()
        person.scores.setValue("not a number", forKey: "a")
        #expect { try realm.commitWrite() } throws: { error in
            "\(error)".contains("SetPerson.scores") && "\(error)".contains("key 'a'")
        }
        try realm.write { person.scores.removeAll() }
        #expect(person.scores.isEmpty)
    }

    @Test func deletingAnObjectDropsItFromSetsAndLeavesNilInMaps() throws {
        let realm = try makeRealm()
        let (owner, friend) = try realm.write {
            let friend = realm.create(SetPerson.self, value: ["id": 2, "name": "Ann"])
            let owner = realm.create(SetPerson.self, value: ["id": 1, "friends": [friend], "contacts": ["best": friend]])
            return (owner, friend)
        }
        #expect(owner.friends.count == 1 && owner.contacts["best"]??.id == 2)
        try realm.write { realm.delete(friend) }
        #expect(owner.friends.isEmpty)
        #expect(owner.contacts.count == 1 && owner.contacts["best"] == .some(nil))
        // Deleting the owner takes its sets and maps with it.
        try realm.write {
            owner.tags.insert("t")
            realm.delete(owner)
        }
        let again = try realm.write { realm.create(SetPerson.self, value: ["id": 1]) }
        #expect(again.tags.isEmpty && again.contacts.isEmpty)
        try realm.write {
            let other = realm.create(SetPerson.self, value: ["id": 5])
            again.friends.insert(other)
            again.contacts["x"] = other
            realm.delete(realm.objects(SetPerson.self).filter("id == 5"))
        }
        #expect(again.friends.isEmpty && again.contacts["x"] == .some(nil))
    }

    @Test func queriesSeeSetsAndMapValues() throws {
        let realm = try makeRealm()
        try realm.write {
            let ann = realm.create(SetPerson.self, value: ["id": 1, "name": "Ann", "tags": ["swift", "db"], "scores": ["math": 9]])
            realm.create(SetPerson.self, value: ["id": 2, "name": "Bob", "tags": ["go"], "scores": ["math": 3, "art": 8],
                                                  "friends": [ann], "contacts": ["best": ann]])
            realm.create(SetPerson.self, value: ["id": 3, "name": "Cy"])
        }
        let people = realm.objects(SetPerson.self)
        #expect(people.filter("ANY tags == 'swift'").map(\.id) == [1])
        #expect(people.filter("tags.@count == 0").map(\.id) == [3])
        #expect(people.filter("ANY scores > 8").map(\.id) == [1])
        #expect(people.filter("scores.@count == 2").map(\.id) == [2])
        #expect(people.filter("ANY friends.name == 'Ann'").map(\.id) == [2])
        #expect(people.filter("ANY contacts.name == 'Ann'").map(\.id) == [2])
        #expect(people.filter("scores.@max >= 8").map(\.id) == [1, 2])
        // A map's values by key, its keys and its values (Realm's syntax).
        #expect(people.filter("scores['math'] > 5").map(\.id) == [1])
        #expect(people.filter("scores.math > 5").map(\.id) == [1])
        #expect(people.filter("scores.art == nil").map(\.id) == [1, 3])
        #expect(people.filter("scores['art'] == nil").map(\.id) == [1, 3])
        #expect(people.filter("scores['art'] == %@", 8).map(\.id) == [2])
        #expect(people.filter("ANY scores.@keys == 'art'").map(\.id) == [2])
        #expect(people.filter("ANY scores.@allKeys BEGINSWITH 'ma'").map(\.id) == [1, 2])
        #expect(people.filter("ANY scores.@values == 3").map(\.id) == [2])
        #expect(people.filter("scores.@size == 2 AND tags.@size == 1").map(\.id) == [2])
        #expect(people.filter("NOT scores['math'] IN {9, 3}").map(\.id) == [3])
        #expect(throws: Realm.Error.self) { try people.filter(validating: "scores['math'].x == 1") }
        #expect(throws: Realm.Error.self) { try people.filter(validating: "scores[1] == 1") }
        // A map of objects: its keys, and its value by key, compared with
        // an object or nil, or followed to the object's properties.
        #expect(people.filter("ANY contacts.@keys == 'best'").map(\.id) == [2])
        #expect(people.filter("ANY contacts.@allKeys ==[c] 'BEST'").map(\.id) == [2])
        let ann = try #require(realm.object(ofType: SetPerson.self, forPrimaryKey: 1))
        #expect(people.filter("contacts['best'] == %@", ann).map(\.id) == [2])
        #expect(people.filter("contacts['best'] != %@", ann).map(\.id) == [1, 3])
        #expect(people.filter("contacts['best'] == nil").map(\.id) == [1, 3])
        #expect(people.filter("contacts['best'].name == 'Ann'").map(\.id) == [2])
        #expect(people.filter("contacts['best'].scores['math'] == 9").map(\.id) == [2])
        #expect(people.filter("contacts['none'].name == 'Ann'").isEmpty)
        let bob = try #require(realm.object(ofType: SetPerson.self, forPrimaryKey: 2))
        #expect(bob.friends.filter("name BEGINSWITH 'A'").map(\.id) == [1])
        // A map of objects filters into Results of optional objects.
        #expect(bob.contacts.filter("name == 'Ann'").map { $0?.id } == [1])
        #expect(bob.contacts.sorted(by: \.name).map { $0?.id } == [1])
        #expect(bob.friends.sorted(byKeyPath: "name").map(\.id) == [1])
    }

    @Test func setNotificationsReportIndicesAndMapNotificationsReportKeys() throws {
        let realm = try makeRealm()
        let person = try realm.write { realm.create(SetPerson.self, value: ["id": 1, "tags": ["b"], "scores": ["a": 1, "b": 2]]) }
        var setChanges: [String] = []
        let setToken = person.tags.observe { change in
            switch change {
            case .initial(let set): setChanges.append("initial \(Array(set))")
            case .update(_, let deletions, let insertions, _): setChanges.append("del \(deletions) ins \(insertions)")
            case .error(let error): setChanges.append("error \(error)")
            }
        }
        var mapChanges: [String] = []
        let mapToken = person.scores.observe { change in
            switch change {
            case .initial(let map): mapChanges.append("initial \(map.keys)")
            case .update(_, let deletions, let insertions, let modifications):
                mapChanges.append("del \(deletions) ins \(insertions) mod \(modifications)")
            case .error(let error): mapChanges.append("error \(error)")
            }
        }
        defer { setToken.invalidate(); mapToken.invalidate() }
        realm.refresh()
        try realm.write {
            person.tags.insert("a")
            person.scores["a"] = 10
            person.scores["b"] = nil
            person.scores["c"] = 3
        }
        realm.refresh()
        #expect(setChanges == ["initial [\"b\"]", "del [] ins [0]"])
        #expect(mapChanges == ["initial [\"a\", \"b\"]", "del [\"b\"] ins [\"c\"] mod [\"a\"]"])
    }

    @Test func aMapOfObjectsReportsAChangeInsideAnObjectAsAModificationOfItsKeys() throws {
        let realm = try makeRealm()
        let (ana, bob) = try realm.write {
            (realm.create(SetPerson.self, value: ["id": 1, "name": "Ana"]), realm.create(SetPerson.self, value: ["id": 2, "name": "Bob"]))
        }
        let owner = try realm.write { realm.create(SetPerson.self, value: ["id": 3, "contacts": ["a": ana, "b": bob, "none": NSNull()]]) }
        func changes(keyPaths: [String]?, _ commits: [() -> Void]) throws -> [String] {
            var seen: [String] = []
            let token = owner.contacts.observe(keyPaths: keyPaths) { change in
                if case .update(_, let deletions, let insertions, let modifications) = change {
                    seen.append("del \(deletions) ins \(insertions) mod \(modifications)")
                }
            }
            defer { token.invalidate() }
            realm.refresh()
            for commit in commits {
                try realm.write { commit() }
                realm.refresh()
            }
            return seen
        }
        #expect(try changes(keyPaths: nil, [{ ana.name = "Anna" }, { bob.tags.insert("x") }, { owner.contacts["c"] = ana }]) == [
            "del [] ins [] mod [\"a\"]", "del [] ins [] mod [\"b\"]", "del [] ins [\"c\"] mod []",
        ])
        // Narrowed to a key path, other properties' changes do not count.
        #expect(try changes(keyPaths: ["name"], [{ bob.tags.insert("y") }, { bob.name = "Robert" }]) == [
            "del [] ins [] mod [\"b\"]",
        ])
        // Both keys holding the object are modified.
        #expect(try changes(keyPaths: nil, [{ ana.name = "Ana" }]) == ["del [] ins [] mod [\"a\", \"c\"]"])
    }

    /// Polls `condition` for up to ten seconds.
    private static func waitUntil(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return true
    }

    @Test func mapsAndSetsObservedOnAQueue() throws {
        let realm = try makeRealm()
        let person = try realm.write { realm.create(SetPerson.self, value: ["id": 1, "tags": ["b"], "scores": ["a": 1]]) }
        let queue = DispatchQueue(label: "set-and-map-observation")
        let seen = Mutex<[String]>([])
        let mapToken = person.scores.observe(on: queue) { change in
            dispatchPrecondition(condition: .onQueue(queue))
            switch change {
            case .initial(let map): seen.withLock { $0.append("map initial \(map.keys)") }
            case .update(_, _, let insertions, let modifications): seen.withLock { $0.append("map ins \(insertions) mod \(modifications)") }
            case .error(let error): seen.withLock { $0.append("map error \(error)") }
            }
        }
        let setToken = person.tags.observe(on: queue) { change in
            switch change {
            case .initial(let set): seen.withLock { $0.append("set initial \(set.count)") }
            case .update(_, _, let insertions, _): seen.withLock { $0.append("set ins \(insertions)") }
            case .error(let error): seen.withLock { $0.append("set error \(error)") }
            }
        }
        defer { mapToken.invalidate(); setToken.invalidate() }
        #expect(Self.waitUntil { seen.withLock { $0.count } == 2 })
        try realm.write {
            person.scores["a"] = 2
            person.scores["z"] = 9
            person.tags.insert("c")
        }
        #expect(Self.waitUntil { seen.withLock { $0.count } == 4 })
        #expect(Set(seen.withLock { $0 }) == ["map initial [\"a\"]", "set initial 1", "map ins [\"z\"] mod [\"a\"]", "set ins [1]"])
    }

    /// Sets and maps of integers, strings and doubles are read without a
    /// `Value` per element; what SQLite cannot hold natively (a NaN) still
    /// reads back.
    @Test func theNativeReadingPathKeepsEveryValue() throws {
        let realm = try makeRealm()
        let person = try realm.write {
            realm.create(SetPerson.self, value: ["id": 1, "tags": ["b", "a", "ü"], "scores": ["x": -3, "y": Int.max], "notes": ["n": NSNull(), "m": "text"]])
        }
        try realm.write {
            person.ratings["nan"] = .nan
            person.ratings["half"] = 0.5
            person.ratings["inf"] = -.infinity
        }
        #expect(Array(person.tags) == ["a", "b", "ü"])
        #expect(person.scores.map(\.value) == [-3, Int.max])
        #expect(person.notes.map(\.value) == ["text", nil])
        let ratings = Dictionary(uniqueKeysWithValues: person.ratings.map { ($0.key, $0.value) })
        #expect(ratings["half"] == 0.5 && ratings["inf"] == -.infinity && ratings["nan"]?.isNaN == true)
    }

    @Test func dynamicAccessAndAssignment() throws {
        let realm = try makeRealm()
        let person = try realm.write { realm.create(SetPerson.self, value: ["id": 1]) }
        try realm.write {
            person["tags"] = ["q", "p", "q"]
            person["scores"] = ["k": 5]
        }
        #expect(Array(person.tags) == ["p", "q"] && person.scores["k"] == 5)
        #expect((person["tags"] as? MutableSet<String>) === person.tags)
        try realm.write {
            let replacement = MutableSet<String>()
            replacement.insert("only")
            person.tags = replacement
        }
        #expect(Array(person.tags) == ["only"])
        let unmanaged = SetPerson(value: ["tags": ["u"], "scores": ["z": 1]])
        #expect(Array(unmanaged.tags) == ["u"] && unmanaged.scores["z"] == 1)
    }

    @Test func aSetOrMapPropertyAddedByAMigrationStartsEmpty() throws {
        let directory = TemporaryDirectory()
        var configuration = Realm.Configuration(fileURL: directory.file(), objectTypes: [SetPerson.self])
        do {
            let realm = try Realm(configuration: configuration)
            try realm.write { realm.create(SetPerson.self, value: ["id": 1, "tags": ["kept"]]) }
        }
        // A second open reads the stored catalog: sets and maps come back
        // as sets and maps.
        configuration.schemaVersion = 0
        let realm = try Realm(configuration: configuration)
        let person = try #require(realm.object(ofType: SetPerson.self, forPrimaryKey: 1))
        #expect(Array(person.tags) == ["kept"] && person.scores.isEmpty)
        #expect(realm.schema["SetPerson"]?[propertyNamed: "scores"]?.isMap == true)
    }
}
