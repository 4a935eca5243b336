import Foundation
import RealmObjects
import Testing

/// The typed query builder gives the same answers as the format strings.
@Suite struct TypedQueryTests {
    func fixture() throws -> Realm {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            let tim = Person(value: ["name": "Tim"])
            let ann = Person(value: ["name": "Ann"])
            realm.add(Dog(value: ["name": "Buster", "age": 5, "owner": tim]))
            realm.add(Dog(value: ["name": "Bella", "age": 1, "owner": ann]))
            realm.add(Dog(value: ["name": "Rex", "age": 3]))
            tim.dogs.append(objectsIn: realm.objects(Dog.self).filter("age > 2"))
        }
        return realm
    }

    @Test func comparisonsAndStrings() throws {
        let realm = try fixture()
        let dogs = realm.objects(Dog.self)
        #expect(dogs.where { $0.age > 2 && $0.name.starts(with: "B") }.map(\.name) == ["Buster"])
        #expect(dogs.where { $0.age > 2 && $0.name.starts(with: "B") }.count == dogs.filter("age > 2 AND name BEGINSWITH 'B'").count)
        #expect(dogs.where { $0.age <= 1 || $0.name == "Rex" }.map(\.name) == ["Bella", "Rex"])
        #expect(dogs.where { !($0.age == 5) }.count == 2)
        #expect(dogs.where { $0.name.contains("e", options: .caseInsensitive) }.count == 3)
        #expect(dogs.where { $0.age.in([1, 3]) }.map(\.name) == ["Bella", "Rex"])
        #expect(dogs.where { $0.age.contains(2...5) }.count == 2)
    }

    @Test func linksAndLists() throws {
        let realm = try fixture()
        #expect(realm.objects(Dog.self).where { $0.owner.name == "Tim" }.map(\.name) == ["Buster"])
        let people = realm.objects(Person.self)
        #expect(people.where { $0.dogs.count > 1 }.map(\.name) == ["Tim"])
        #expect(people.where { $0.dogs.any { $0.name == "Rex" } }.map(\.name) == ["Tim"])
    }
}
