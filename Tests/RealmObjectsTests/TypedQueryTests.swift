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

    @Test func quantifiersOverLists() throws {
        let realm = try fixture()
        let people = realm.objects(Person.self)
        try realm.write {
            let ann = people.filter("name == 'Ann'").first!
            ann.dogs.append(realm.objects(Dog.self).filter("name == 'Bella'").first!)
            realm.add(Person(value: ["name": "Nobody"]))
        }
        func names(_ results: Results<Person>) -> [String] { results.map(\.name).sorted() }
        #expect(names(people.where { $0.dogs.all { $0.age > 2 } }) == names(people.filter("ALL dogs.age > 2")))
        #expect(names(people.where { $0.dogs.all { $0.age > 2 } }) == ["Nobody", "Tim"])
        #expect(names(people.where { $0.dogs.none { $0.age > 2 } }) == names(people.filter("NONE dogs.age > 2")))
        #expect(names(people.where { $0.dogs.none { $0.age > 2 } }) == ["Ann", "Nobody"])
        // A compound condition must hold for one element as a whole: Tim has
        // a dog named Rex and a dog aged 5, but not one dog with both.
        #expect(names(people.where { $0.dogs.any { $0.name == "Rex" && $0.age == 5 } }).isEmpty)
        #expect(names(people.where { $0.dogs.any { $0.name == "Rex" && $0.age == 3 } }) == ["Tim"])
        #expect(names(people.where { $0.dogs.all { $0.age > 2 && $0.name != "Rex" } }) == ["Nobody"])
        #expect(names(people.where { $0.dogs.none { $0.age < 2 || $0.name == "Rex" } }) == ["Nobody"])
        // Nested quantifiers get variables of their own.
        #expect(names(people.where { $0.dogs.any { $0.owner.dogs.any { $0.name == "Rex" && $0.age == 3 } && $0.age > 4 } }) == ["Tim"])
        #expect(names(people.where { $0.dogs.any { $0.owner.dogs.any { $0.name == "Rex" && $0.age == 5 } && $0.age > 4 } }).isEmpty)
    }

    @Test func aggregatesOverLists() throws {
        let realm = try fixture()
        let people = realm.objects(Person.self)
        func names(_ results: Results<Person>) -> [String] { results.map(\.name).sorted() }
        #expect(names(people.where { $0.dogs.age.max > 4 }) == names(people.filter("dogs.@max.age > 4")))
        #expect(names(people.where { $0.dogs.age.max > 4 }) == ["Tim"])
        #expect(names(people.where { $0.dogs.age.min == 3 }) == ["Tim"])
        #expect(names(people.where { $0.dogs.age.sum >= 8 }) == ["Tim"])
        #expect(names(people.where { $0.dogs.age.sum == 0 }) == ["Ann"])
        #expect(names(people.where { $0.dogs.age.avg == 4.0 }) == ["Tim"])

        let values = try Realm(configuration: inMemoryConfiguration())
        try values.write {
            values.add(AllTypes(value: ["ints": [1, 5, 9]]))
            values.add(AllTypes(value: ["ints": [2]]))
        }
        let all = values.objects(AllTypes.self)
        #expect(all.where { $0.ints.max > 5 }.count == 1)
        #expect(all.where { $0.ints.sum == 15 }.count == 1)
        #expect(all.where { $0.ints.avg < 3 }.count == 1)
        #expect(all.where { $0.ints.contains(2) }.count == 1)
        #expect(all.where { $0.ints.contains(2) }.count == all.filter("ANY ints == 2").count)
    }
}
