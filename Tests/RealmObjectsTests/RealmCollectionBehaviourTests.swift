import Foundation
import RealmObjects
import Testing

/// Collection behaviour that realm-swift's own tests check
/// (`RealmCollectionTypeTests`, `ListTests`, `SortDescriptorTests`), ported.
@Suite struct RealmCollectionBehaviourTests {
    final class ValueLists: Object {
        let datas = List<Data>()
        let optionalInts = List<Int?>()
        let optionalStrings = List<String?>()
        let optionalDatas = List<Data?>()
        let optionalDates = List<Date?>()
        let ints = List<Int>()
    }

    /// A Realm with Jim (dogs Rex, Fido) and Ann (no dogs), and a dog
    /// without an owner.
    private func people() throws -> (Realm, Person, Person) {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [Dog.self, Person.self, ValueLists.self]))
        let (jim, ann) = try realm.write {
            let jim = realm.create(Person.self, value: ["name": "Jim"])
            let ann = realm.create(Person.self, value: ["name": "Ann"])
            for name in ["Rex", "Fido"] {
                let dog = realm.create(Dog.self, value: ["name": name, "age": 3])
                dog.owner = jim
                jim.dogs.append(dog)
            }
            realm.create(Dog.self, value: ["name": "Stray", "age": 1])
            return (jim, ann)
        }
        return (realm, jim, ann)
    }

    /// testFilterWithUnmanagedObject: an object of no Realm matches
    /// nothing, in every comparison that takes an object.
    @Test func anUnmanagedObjectAsAnArgumentMatchesNothing() throws {
        let (realm, _, _) = try people()
        let stranger = Person(value: ["name": "Jim"])
        let dogs = realm.objects(Dog.self)
        #expect(dogs.filter("owner == %@", stranger).isEmpty)
        #expect(dogs.filter("owner = %@", stranger).count == 0)
        #expect(dogs.filter("owner != %@", stranger).count == 3)
        #expect(dogs.filter("owner IN %@", [stranger]).isEmpty)
        #expect(realm.objects(Person.self).filter("ANY dogs == %@", Dog()).isEmpty)
        #expect(realm.objects(Person.self).filter("%@ IN dogs", Dog()).isEmpty)
        #expect(dogs.where { $0.owner == stranger }.isEmpty)
    }

    /// LinkingObjects and AnyRealmCollection iterate a snapshot: deleting
    /// each object while iterating visits every one.
    @Test func iteratingWhileDeletingSkipsNothing() throws {
        let (realm, jim, _) = try people()
        let rex = try #require(jim.dogs.first)
        let owners = rex.owners
        #expect(owners.count == 1)
        var visited = 0
        try realm.write {
            let more = (0..<3).map { realm.create(Person.self, value: ["name": "P\($0)"]) }
            for person in more { person.dogs.append(rex) }
        }
        #expect(owners.count == 4)
        try realm.write {
            for owner in owners {
                visited += 1
                realm.delete(owner)
            }
        }
        #expect(visited == 4)
        #expect(owners.isEmpty)

        let dogs = AnyRealmCollection(realm.objects(Dog.self))
        visited = 0
        try realm.write {
            for dog in dogs {
                visited += 1
                realm.delete(dog)
            }
        }
        #expect(visited == 3)
        #expect(realm.objects(Dog.self).isEmpty)
    }

    /// testDistinctBy through a nil link: Realm drops the object whose path
    /// cannot be followed.
    @Test func distinctThroughANilLinkDropsTheObject() throws {
        let (realm, _, _) = try people()
        let dogs = realm.objects(Dog.self)
        #expect(dogs.distinct(by: ["owner.name"]).map(\.name) == ["Rex"])
        #expect(dogs.distinct(by: ["age"]).map(\.name) == ["Rex", "Stray"])
    }

    @Test func sortedAscendingOnListsOfDataAndOptionals() throws {
        let (realm, _, _) = try people()
        let lists = try realm.write {
            realm.create(ValueLists.self, value: [
                "datas": [Data([2]), Data([1, 5]), Data(), Data([1])],
                "optionalInts": [3, nil, 1],
                "optionalStrings": ["b", nil, "a"],
                "optionalDatas": [Data([2]), nil, Data([1])],
                "optionalDates": [Date(timeIntervalSince1970: 2), nil, Date(timeIntervalSince1970: 1)],
            ])
        }
        #expect(Array(lists.datas.sorted(ascending: true)) == [Data(), Data([1]), Data([1, 5]), Data([2])])
        #expect(Array(lists.datas.sorted(ascending: false)) == [Data([2]), Data([1, 5]), Data([1]), Data()])
        #expect(Array(lists.optionalInts.sorted(ascending: true)) == [nil, 1, 3])
        #expect(Array(lists.optionalInts.sorted(ascending: false)) == [3, 1, nil])
        #expect(Array(lists.optionalStrings.sorted(ascending: true)) == [nil, "a", "b"])
        #expect(Array(lists.optionalDatas.sorted(ascending: true)) == [nil, Data([1]), Data([2])])
        #expect(Array(lists.optionalDates.sorted(ascending: false)) == [Date(timeIntervalSince1970: 2), Date(timeIntervalSince1970: 1), nil])
    }

    /// ListTests' testReplaceRange on a `let` list, managed and not.
    @Test func theRangeSubscriptSetterOnALetList() throws {
        let unmanaged = ValueLists()
        let list = unmanaged.ints
        list.append(objectsIn: [0, 1, 2, 3, 4, 5])
        let other = ValueLists()
        other.ints.append(objectsIn: [9, 8, 7])
        list[1..<4] = other.ints[0..<2]
        #expect(Array(list) == [0, 9, 8, 4, 5])
        list[0..<2] = list[3..<5]
        #expect(Array(list) == [4, 5, 8, 4, 5])
        let (realm, _, _) = try people()
        let managed = try realm.write { realm.create(ValueLists.self, value: ["ints": [0, 1, 2, 3, 4, 5]]) }
        let ints = managed.ints
        try realm.write { ints[1..<4] = other.ints[2..<3] }
        #expect(Array(ints) == [0, 7, 4, 5])
        #expect(Array(ints[1..<3]) == [7, 4])
    }

    /// SortDescriptorTests' testDescription.
    @Test func sortDescriptorDescription() {
        #expect(RealmQuery.SortDescriptor(keyPath: "property").description == "SortDescriptor(keyPath: property, direction: ascending)")
        #expect(RealmQuery.SortDescriptor(keyPath: "property", ascending: false).description == "SortDescriptor(keyPath: property, direction: descending)")
    }

    /// ListTests' index(matching:) on an unmanaged list of objects.
    @Test func indexMatchingOnAnUnmanagedList() {
        let jim = Person(value: ["name": "Jim"])
        jim.dogs.append(objectsIn: [Dog(value: ["name": "Rex", "age": 3]), Dog(value: ["name": "Fido", "age": 5])])
        #expect(jim.dogs.index(matching: "age > 4") == 1)
        #expect(jim.dogs.index(matching: "name == %@", "Rex") == 0)
        #expect(jim.dogs.index(matching: "age > 10") == nil)
        #expect(jim.dogs.index(matching: "name BEGINSWITH 'F'") == 1)
        #expect(jim.dogs.realm == nil)
    }
}
