import Foundation
import RealmCore
import RealmObjects
import Testing

// Maps of embedded objects, as Realm 10 has them: `Map<String, Address?>`.
// Each value belongs to its key: assigning makes a managed copy there,
// and replacing the value, removing the key or deleting the owner deletes
// the embedded object.

final class Traveller: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var homes: Map<String, Address?>
    let visited = Map<String, Address?>()
}

@Suite struct EmbeddedMapTests {
    let directory = TemporaryDirectory()

    private func makeRealm(_ name: String = #function) throws -> Realm {
        try Realm(configuration: Realm.Configuration(fileURL: directory.file(name + ".realm"), objectTypes: [Traveller.self, Address.self]))
    }

    private func address(_ street: String, _ city: String = "Oslo") -> Address {
        let address = Address()
        address.street = street
        address.city = city
        return address
    }

    private func streets(_ map: Map<String, Address?>) -> [String: String] {
        var streets: [String: String] = [:]
        for entry in map { streets[entry.key] = entry.value?.street ?? "nil" }
        return streets
    }

    /// The embedded addresses stored, whoever holds them, read from the
    /// file (embedded objects cannot be queried on their own).
    private func storedAddresses(_ realm: Realm) throws -> Int {
        let transaction = try Coordinator.open(.file(realm.configuration.fileURL!.path)).makeTransaction()
        return try transaction.count(of: try transaction.classHandle(named: "Address"))
    }

    @Test func theSchemaAcceptsAMapOfEmbeddedObjects() throws {
        let schema = try #require(try makeRealm().schema["Traveller"])
        #expect(schema[propertyNamed: "homes"].map { $0.isMap && $0.isOptional && $0.objectClassName == "Address" } == true)
        #expect(schema[propertyNamed: "homes"]?.typeDescription == "map<string, Address?>")
    }

    @Test func anUnmanagedMapsEmbeddedObjectsAreCopiedWhenTheOwnerIsAdded() throws {
        let realm = try makeRealm()
        let traveller = Traveller()
        traveller.homes["summer"] = address("Beach Rd")
        traveller.homes["none"] = .some(nil)
        traveller.visited["rome"] = address("Via Appia", "Rome")
        try realm.write { realm.add(traveller) }
        #expect(streets(traveller.homes) == ["summer": "Beach Rd", "none": "nil"])
        let summer = try #require(traveller.homes["summer"] ?? nil)
        #expect(summer.realm != nil, "the value read is the managed copy")
        #expect(traveller.visited["rome"]??.city == "Rome")
        #expect(try storedAddresses(realm) == 2)
    }

    @Test func assigningReplacingAndRemovingDeleteTheOldValue() throws {
        let realm = try makeRealm()
        let traveller = try realm.write { realm.create(Traveller.self, value: ["id": 1]) }
        try realm.write {
            traveller.homes["summer"] = address("Beach Rd")
            traveller.homes["winter"] = address("Hill St")
        }
        #expect(try storedAddresses(realm) == 2)
        let oldSummer = try #require(traveller.homes["summer"] ?? nil)
        try realm.write { traveller.homes["summer"] = address("Dune Ave") }
        #expect(streets(traveller.homes) == ["summer": "Dune Ave", "winter": "Hill St"])
        #expect(oldSummer.isInvalidated, "the replaced address was deleted")
        #expect(try storedAddresses(realm) == 2)

        try realm.write { traveller.homes.removeObject(for: "winter") }
        #expect(streets(traveller.homes) == ["summer": "Dune Ave"])
        try realm.write { traveller.homes["summer"] = .some(nil) }
        #expect(streets(traveller.homes) == ["summer": "nil"])
        #expect(try storedAddresses(realm) == 0)

        try realm.write {
            traveller.homes["a"] = address("A St")
            traveller.homes["b"] = address("B St")
        }
        try realm.write { traveller.homes.removeAll() }
        #expect(try storedAddresses(realm) == 0)
    }

    @Test func deletingTheOwnerDeletesTheValues() throws {
        let realm = try makeRealm()
        let traveller = Traveller()
        traveller.homes["a"] = address("A St")
        traveller.visited["b"] = address("B St")
        try realm.write { realm.add(traveller) }
        let home = try #require(traveller.homes["a"] ?? nil)
        try realm.write { realm.delete(traveller) }
        #expect(home.isInvalidated)
        #expect(try storedAddresses(realm) == 0)
    }

    @Test func aManagedEmbeddedObjectIsNotMovedToAnotherKey() throws {
        let realm = try makeRealm()
        let traveller = Traveller()
        traveller.homes["a"] = address("A St")
        try realm.write { realm.add(traveller) }
        let home = try #require(traveller.homes["a"] ?? nil)
        // It has one parent: another key refuses it, as a list or a
        // property does; so does its own key, as Realm's map does
        // (realm-swift's MapTests.testSetEmbedded), where a to-one property
        // takes its own object again as no change.
        for key in ["b", "a"] {
            #expect(throws: Realm.Error.self) {
                try realm.write { traveller.homes[key] = home }
            }
            #expect(streets(traveller.homes) == ["a": "A St"])
        }
    }

    @Test func createFromADictionaryAndCopyBetweenRealms() throws {
        let realm = try makeRealm()
        let traveller = try realm.write {
            realm.create(Traveller.self, value: ["id": 7, "homes": ["x": ["street": "X St", "city": "Bergen"], "y": NSNull()]])
        }
        #expect(streets(traveller.homes) == ["x": "X St", "y": "nil"])
        #expect(traveller.homes["x"]??.city == "Bergen")

        let other = try makeRealm("\(#function)-other")
        let copy = try other.write { other.create(Traveller.self, value: traveller) }
        #expect(streets(copy.homes) == ["x": "X St", "y": "nil"])
        #expect(try storedAddresses(other) == 1)
    }

    @Test func aChangeOfAValueNotifiesTheMapAndTheOwner() throws {
        let realm = try makeRealm()
        let traveller = Traveller()
        traveller.homes["a"] = address("A St")
        try realm.write { realm.add(traveller) }
        var mapChanges: [[String]] = []
        let mapToken = traveller.homes.observe { change in
            if case .update(_, let deletions, let insertions, let modifications) = change { mapChanges.append(deletions + insertions + modifications) }
        }
        var ownerChanges: [[String]] = []
        let ownerToken = traveller.observe { change in
            if case .change(let properties) = change { ownerChanges.append(properties.map(\.name)) }
        }
        try realm.write { traveller.homes["a"] = address("New St") }
        realm.refresh()
        #expect(mapChanges == [["a"]])
        #expect(ownerChanges == [["homes"]])
        mapToken.invalidate()
        ownerToken.invalidate()
    }

    @Test func frozenAndDescribed() throws {
        let realm = try makeRealm()
        let traveller = Traveller()
        traveller.homes["a"] = address("A St")
        try realm.write { realm.add(traveller) }
        let frozen = traveller.freeze()
        #expect(frozen.homes["a"]??.street == "A St")
        #expect(frozen.homes["a"]??.isFrozen == true)
        #expect(traveller.description.contains("A St"))
    }
}
