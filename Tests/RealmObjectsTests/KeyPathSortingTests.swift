import Foundation
import RealmObjects
import Testing

/// Realm 10's Swift key path spellings of sorting and distinct: the same
/// order and groups as the key paths by name.
@Suite struct KeyPathSortingTests {
    @Test func keyPathsSortAndDistinctAsNamesDo() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            let tim = realm.create(Person.self, value: ["name": "Tim"])
            let ann = realm.create(Person.self, value: ["name": "Ann"])
            for (name, age, owner) in [("Rex", 3, tim), ("Ace", 5, ann), ("Bo", 3, ann), ("Zed", 1, nil)] as [(String, Int, Person?)] {
                realm.create(Dog.self, value: ["name": name, "age": age, "owner": owner as Any])
            }
        }
        let dogs = realm.objects(Dog.self)
        #expect(dogs.sorted(by: \.age).map(\.name) == dogs.sorted(byKeyPath: "age").map(\.name))
        #expect(dogs.sorted(by: \.name, ascending: false).map(\.name) == ["Zed", "Rex", "Bo", "Ace"])
        #expect(dogs.sorted(by: \.owner?.name).map(\.name) == dogs.sorted(byKeyPath: "owner.name").map(\.name))
        #expect(dogs.sorted(by: [SortDescriptor(keyPath: \Dog.age, ascending: false), SortDescriptor(keyPath: \Dog.name)]).map(\.name)
                == ["Ace", "Bo", "Rex", "Zed"])
        #expect(dogs.distinct(by: [\Dog.age]).map(\.name) == ["Rex", "Ace", "Zed"])
        #expect(dogs.distinct(by: [\Dog.owner?.name]).map(\.name) == dogs.distinct(by: ["owner.name"]).map(\.name))
        let tim = try #require(realm.objects(Person.self).filter("name == 'Tim'").first)
        #expect(tim.dogs.sorted(by: \.age).isEmpty)
    }
}
