import Foundation
import RealmObjects
import Testing

/// Seed 000 "Relationships" and "Collections".
@Suite struct RelationshipTests {
    @Test func toOneLinks() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let jim = Person(value: ["name": "Jim"])
        let rex = Dog(value: ["name": "Rex"])
        rex.owner = jim
        try realm.write { realm.add(rex) }
        // Adding the dog added its owner.
        #expect(realm.objects(Person.self).count == 1)
        #expect(rex.owner?.name == "Jim")
        #expect(rex.owner?.isSameObject(as: jim) == true)
        try realm.write { rex.owner = nil }
        #expect(rex.owner == nil)
        // Assigning an unmanaged object to a managed one adds it.
        try realm.write { rex.owner = Person(value: ["name": "Ann"]) }
        #expect(realm.objects(Person.self).count == 2)
    }

    @Test func toManyLists() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let jim = Person(value: ["name": "Jim"])
        try realm.write {
            realm.add(jim)
            realm.add([Dog(value: ["name": "Fido", "age": 1]), Dog(value: ["name": "Fidonia", "age": 2]), Dog(value: ["name": "Spot", "age": 3])])
        }
        let someDogs = realm.objects(Dog.self).filter("name contains 'Fido'")
        let rex = Dog(value: ["name": "Rex", "age": 4])
        try realm.write {
            jim.dogs.append(objectsIn: someDogs)
            jim.dogs.append(rex)
            // The same object may appear several times.
            jim.dogs.append(rex)
        }
        #expect(jim.dogs.map(\.name) == ["Fido", "Fidonia", "Rex", "Rex"])
        #expect(jim.dogs.index(of: rex) == 2)
        try realm.write {
            jim.dogs.move(from: 0, to: 3)
            jim.dogs.swapAt(0, 1)
            jim.dogs.remove(at: 0)
            jim.dogs.insert(Dog(value: ["name": "Lassie", "age": 5]), at: 0)
            jim.dogs.replace(index: 1, object: rex)
        }
        #expect(jim.dogs.map(\.name) == ["Lassie", "Rex", "Rex", "Fido"])
        try realm.write { jim.dogs.removeAll() }
        #expect(jim.dogs.isEmpty)
        #expect(realm.objects(Dog.self).count == 5)
    }

    @Test func inverseRelationships() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let rex = Dog(value: ["name": "Rex", "age": 1])
        try realm.write {
            // Managed first: create copies unmanaged objects it is given.
            realm.add(rex)
            realm.create(Person.self, value: ["name": "Jim", "dogs": [rex]])
            realm.create(Person.self, value: ["name": "Ann", "dogs": [rex]])
        }
        #expect(rex.owners.count == 2)
        #expect(Set(rex.owners.map(\.name)) == ["Jim", "Ann"])
        #expect(rex.owners.filter("name == 'Ann'").count == 1)
        try realm.write { realm.delete(realm.objects(Person.self).filter("name == 'Ann'")) }
        #expect(rex.owners.map(\.name) == ["Jim"])
    }

    @Test func genericCodeOverAnyRealmCollection() throws {
        func count<C: RealmCollection>(_ collection: C) -> Int { collection.count }
        let realm = try Realm(configuration: inMemoryConfiguration())
        let jim = Person(value: ["name": "Jim", "dogs": [["name": "Rex", "age": 1], ["name": "Fido", "age": 2]]])
        try realm.write { realm.add(jim) }
        #expect(count(realm.objects(Dog.self)) == 2)
        #expect(count(jim.dogs) == 2)
        let erased = AnyRealmCollection(jim.dogs)
        #expect(erased.count == 2)
        #expect(erased[1].name == "Fido")
        let results = AnyRealmCollection(realm.objects(Dog.self).sorted(byKeyPath: "age", ascending: false))
        #expect(results.map(\.name) == ["Fido", "Rex"])
    }

    @Test func listsOfPrimitives() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let object = AllTypes()
        object.ints.append(objectsIn: [3, 1, 2])
        try realm.write { realm.add(object) }
        try realm.write {
            object.ints.append(4)
            object.ints.remove(at: 0)
            object.optionalStrings.append(nil)
        }
        #expect(Array(object.ints) == [1, 2, 4])
        #expect(object.ints.count == 3)
        #expect(Array(object.optionalStrings) == [nil])
    }
}
