import Foundation
import RealmObjects
import Testing

/// `filter(validating:)`: a predicate from outside the program is checked,
/// and a bad one is an error the caller shows, not a stop.
@Suite struct ValidatingFilterTests {
    private func realmWithDogs() throws -> Realm {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            realm.add(Dog(value: ["name": "Rex", "age": 1]))
            realm.add(Dog(value: ["name": "Fido", "age": 5]))
        }
        return realm
    }

    @Test func aValidPredicateFiltersAsFilterDoes() throws {
        let dogs = try realmWithDogs().objects(Dog.self)
        let validated = try dogs.filter(validating: "age > %@ AND name BEGINSWITH 'F'", 2)
        #expect(validated.map(\.name) == ["Fido"])
        #expect(Array(validated.map(\.name)) == Array(dogs.filter("age > %@ AND name BEGINSWITH 'F'", 2).map(\.name)))
        // Chained on sorted results and on lists too.
        #expect(try dogs.sorted(byKeyPath: "age").filter(validating: "age < 10").map(\.name) == ["Rex", "Fido"])
    }

    @Test func badPredicatesAreErrorsThatPointAtTheToken() throws {
        let dogs = try realmWithDogs().objects(Dog.self)
        let cases: [(String, String, (Results<Dog>) throws(Realm.Error) -> Results<Dog>)] = [
            ("an unknown property", "agee", { dogs throws(Realm.Error) in try dogs.filter(validating: "agee > 5") }),
            ("a missing operand", "age > ", { dogs throws(Realm.Error) in try dogs.filter(validating: "age > ") }),
            ("a wrong type", "name", { dogs throws(Realm.Error) in try dogs.filter(validating: "name == 5") }),
            ("a missing argument", "%@", { dogs throws(Realm.Error) in try dogs.filter(validating: "age > %@") }),
            ("an unbalanced parenthesis", "((age > 1)", { dogs throws(Realm.Error) in try dogs.filter(validating: "((age > 1)") }),
            ("an argument of the wrong type", "age", { dogs throws(Realm.Error) in try dogs.filter(validating: "age == %@", "old") }),
            ("an unknown property through a link", "nope", { dogs throws(Realm.Error) in try dogs.filter(validating: "owner.nope == 'x'") }),
        ]
        for (what, token, filter) in cases {
            do {
                _ = try filter(dogs)
                Issue.record("\(what) was accepted")
            } catch {
                #expect(error.code == .invalidPredicate, "\(what): \(error.code)")
                #expect(error.message.contains(token), "\(what): \(error.message) names \(token)")
            }
        }
    }

    @Test func theFilterThatDoesNotThrowStillStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "stops", objectTypes: [Dog.self, Person.self]))
            _ = realm.objects(Dog.self).filter("agee > 5").count
        }
        #expect(seedStandardError(result).contains("agee"))
    }
}
