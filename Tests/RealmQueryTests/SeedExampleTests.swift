import Foundation
import RealmCore
import RealmQuery
import Testing

/// Every query example of the seeds' "Filtering", "Sorting" and "Chaining
/// queries" sections, on the Zoo data.
@Suite struct SeedExampleTests {
    let realm: TestRealm
    let keys: Zoo.Keys

    init() throws {
        realm = try TestRealm(schema: Zoo.schema)
        keys = try Zoo.populate(realm)
    }

    @Test func tanDogsWhoseNamesBeginWithB() throws {
        let literal = try realm.bothPaths("Dog", "color = 'tan' AND name BEGINSWITH 'B'")
        #expect(literal.names(in: keys.dogs) == ["Bella", "Buster", "Bruno"])
        let arguments = try realm.bothPaths("Dog", "color = %@ AND name BEGINSWITH %@", [.value(.string("tan")), .value(.string("B"))])
        #expect(arguments == literal)
    }

    @Test func comparisonOperatorsOnNumbers() throws {
        #expect(try realm.bothPaths("Dog", "age == 5").names(in: keys.dogs) == ["Rex"])
        #expect(try realm.bothPaths("Person", "age == 45").names(in: keys.people) == ["Lisa"])
        #expect(try realm.bothPaths("Dog", "age BETWEEN {3, 7}").names(in: keys.dogs) == ["Bella", "Rex", "Bruno"])
        #expect(try realm.bothPaths("Dog", "age < 2").names(in: keys.dogs) == ["Buster", "Fido"])
    }

    @Test func identityComparison() throws {
        let jack = keys.people["Jack"]!
        #expect(try realm.bothPaths("Dog", "owner == %@", [.value(.object(jack))]).names(in: keys.dogs) == ["Bella", "Rex"])
        #expect(try realm.bothPaths("Dog", "owner != %@", [.value(.object(jack))]).names(in: keys.dogs)
            == ["Buster", "Fido", "Bruno", "Spike", "Hachi"])
    }

    @Test func stringOperators() throws {
        #expect(try realm.bothPaths("Person", "name CONTAINS 'Ja'").names(in: keys.people) == ["Jack", "Jane"])
        #expect(try realm.bothPaths("Person", "name CONTAINS[c] 'ja'").names(in: keys.people) == ["Jack", "Jane"])
        #expect(try realm.bothPaths("Person", "name BEGINSWITH 'J' AND age >= 32").names(in: keys.people) == ["Jack"])
        #expect(try realm.bothPaths("Person", "name BEGINSWITH[d] 'e'").isEmpty)
        #expect(try realm.bothPaths("Person", "name BEGINSWITH[d] 'E'").names(in: keys.people) == ["Émile"])
        #expect(try realm.bothPaths("Person", "name BEGINSWITH[cd] 'e'").names(in: keys.people) == ["Émile"])
    }

    @Test func likeWithWildcards() throws {
        let realm = try TestRealm(schema: Schema([ObjectSchema(name: "Item", properties: [Property(name: "value", type: .string)])]))
        try realm.transaction.write {
            for text in ["abcde", "cbc", "bc", "abc", "xbcy", "ABCDE"] { try realm.create("Item", ["value": .string(text)]) }
        }
        #expect(try realm.names("Item", "value LIKE '?bc*'", property: "value") == ["abcde", "cbc", "abc", "xbcy"])
        try realm.bothPaths("Item", "value LIKE '?bc*'")
        #expect(try realm.names("Item", "value LIKE[c] '?BC*'", property: "value") == ["abcde", "cbc", "abc", "xbcy", "ABCDE"])
    }

    @Test func inOperator() throws {
        #expect(try realm.bothPaths("Dog", "name IN {'Lisa', 'Spike', 'Hachi'}").names(in: keys.dogs) == ["Spike", "Hachi"])
    }

    @Test func nilComparisons() throws {
        #expect(try realm.bothPaths("Company", "ceo == nil").names(in: keys.companies) == ["Globex"])
        #expect(try realm.bothPaths("Company", "ceo != nil").names(in: keys.companies) == ["Acme", "Initech"])
    }

    @Test func anyComparison() throws {
        #expect(try realm.bothPaths("Company", "ANY employees.age < 21").names(in: keys.companies) == ["Acme"])
        #expect(try realm.bothPaths("Person", "ANY dogs.age > 9").names(in: keys.people) == ["Lisa"])
    }

    @Test func aggregateCount() throws {
        #expect(try realm.bothPaths("Company", "employees.@count > 5").names(in: keys.companies) == ["Acme"])
    }

    @Test func subquery() throws {
        #expect(try realm.bothPaths("Person", "SUBQUERY(dogs, $dog, $dog.color == 'tan' AND $dog.age > 2).@count >= 2")
            .names(in: keys.people) == ["Lisa"])
    }

    @Test func sortingAndChaining() throws {
        let sorted = try realm.names("Dog", "color = 'tan' AND name BEGINSWITH 'B'", sort: [SortDescriptor(keyPath: "name")])
        #expect(sorted == ["Bella", "Bruno", "Buster"])
        let byDogAge = try realm.names("Person", "TRUEPREDICATE", sort: [SortDescriptor(keyPath: "dog.age")])
        #expect(byDogAge == ["Jane", "Émile", "Joe", "Jack", "Lisa"])
        let tanDogs = try realm.query("Dog", "color = 'tan'")
        let chained = tanDogs.filtered(by: try PredicateParser.parse("name BEGINSWITH 'B'"))
        #expect(try chained.objectKeys(in: realm.transaction).names(in: keys.dogs) == ["Bella", "Buster", "Bruno"])
    }

    @Test func liveCountAfterWrite() throws {
        let puppies = try realm.query("Dog", "age < 2")
        #expect(try puppies.count(in: realm.transaction) == 2)
        try realm.transaction.write {
            try realm.create("Dog", ["name": .string("Pup"), "color": .string("grey"), "age": .int(0)])
        }
        #expect(try puppies.count(in: realm.transaction) == 3)
    }

    @Test func eachTransactionSeesItsOwnVersion() throws {
        let other = try realm.coordinator.makeTransaction()
        let puppies = try realm.query("Dog", "age < 2")
        #expect(try puppies.count(in: other) == 2)
        try realm.transaction.write {
            try realm.create("Dog", ["name": .string("Pup"), "color": .string("grey"), "age": .int(0)])
        }
        // `other` still reads the version it started on, until it refreshes.
        #expect(try puppies.count(in: other) == 2)
        #expect(try puppies.count(in: realm.transaction) == 3)
        try other.refresh()
        #expect(try puppies.objectKeys(in: other) == puppies.objectKeys(in: realm.transaction))
    }

    @Test func queriesInsideAWriteSeeItsChanges() throws {
        try realm.transaction.write {
            let handle = try realm.transaction.classHandle(named: "Dog")
            try realm.transaction.setValue(.int(0), of: keys.dogs["Rex"]!, property: realm.transaction.propertyIndex(named: "age", in: handle), in: handle)
            #expect(try realm.names("Dog", "age < 2") == ["Buster", "Rex", "Fido"])
        }
    }
}
