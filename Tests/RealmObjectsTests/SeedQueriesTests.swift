import Foundation
import RealmObjects
import Testing

// Seed 000 "Queries" (retrieving objects, filtering, sorting, sorting by a
// to-one key path, chaining); the same samples in seed 001 ("Queries") and
// seed 003 ("Queries": `Dog.objectsWhere`, `arraySortedByProperty`).
//
// The samples' classes keep their names inside the `QuerySamples` and
// `SortSamples` namespaces (their Realm class names stay "Dog" and
// "Person"; each test uses a Realm of its own).
//
// Adaptations (SPEC section 4): `NSPredicate(format:)` becomes the same
// format string passed to `filter`. The "Sorting" sample is cut off in the
// seed (`.sorted(b`); it is completed as Realm Swift 3.13 wrote it,
// `.sorted(byKeyPath: "name")`.

// A `typealias Dog = …` at the top of a test is surrounding code: it names
// the sample's class as the sample does.

/// The Dog the "Filtering" samples query: the page never declares its
/// `color` property, so this is the page's Dog plus `color` (surrounding code).
enum QuerySamples {
    final class Dog: Object {
        @Persisted var name = ""
        @Persisted var age = 0
        @Persisted var color = ""
    }
}

/// The "Sorting" sample's own models.
enum SortSamples {
    class Person: Object {
        @Persisted var name = ""
        @Persisted var dog: Dog?
    }
    class Dog: Object {
        @Persisted var name = ""
        @Persisted var age = 0
    }
}

@Suite struct SeedQueriesTests {
    /// Dogs of several colors and names, for the filtering samples
    /// (surrounding code: the page assumes a populated default Realm).
    static func populated() throws -> Realm {
        typealias Dog = QuerySamples.Dog
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            for (name, color, age) in [("Buster", "tan", 3), ("Bella", "tan", 1), ("Rex", "tan", 5),
                                       ("Bruno", "black", 2), ("Benji", "tan", 7), ("Fido", "brown", 1)] {
                realm.create(Dog.self, value: ["name": name, "color": color, "age": age])
            }
        }
        return realm
    }

    /// "The most basic method for retrieving objects from a Realm is
    /// `Realm().objects(_:)`, which returns a `Results` of all `Object`
    /// instances of the subclass type being queried."
    @Test func retrievingAllObjectsOfAType() throws {
        typealias Dog = QuerySamples.Dog
        let realm = try Self.populated()
        let dogs = realm.objects(Dog.self) // retrieves all Dogs from the default Realm
        #expect(dogs.count == 6)
        #expect(Set(dogs.map(\.name)) == ["Buster", "Bella", "Rex", "Bruno", "Benji", "Fido"])
    }

    /// Seed 003, "Retrieving Objects by Type": "Query a specific Realm"
    /// (`RLMRealm.realmWithPath("pets.realm")` and `allObjectsInRealm`, in
    /// Realm Swift 3's spelling).
    @Test func queryingASpecificRealm() throws {
        typealias Dog = QuerySamples.Dog
        let directory = TemporaryDirectory()
        let realm = try Self.populated()
        // Query a specific Realm
        let petsRealm = try Realm(fileURL: directory.file("pets.realm"))
        try petsRealm.write { petsRealm.create(Dog.self, value: ["name": "Pet", "color": "white", "age": 4]) }
        let otherDogs = petsRealm.objects(Dog.self)
        #expect(otherDogs.map(\.name) == ["Pet"])
        #expect(realm.objects(Dog.self).count == 6)
    }

    /// "…to retrieve all tan-colored dogs whose names begin with 'B' from
    /// the default Realm": by a predicate string, and by a format string
    /// with arguments (the page's `NSPredicate`).
    @Test func filteringWithAPredicateStringAndAFormatString() throws {
        typealias Dog = QuerySamples.Dog
        let realm = try Self.populated()
        // Query using a predicate string
        var tanDogs = realm.objects(Dog.self).filter("color = 'tan' AND name BEGINSWITH 'B'")
        #expect(Set(tanDogs.map(\.name)) == ["Buster", "Bella", "Benji"])

        // Query using an NSPredicate (a format string with arguments here)
        tanDogs = realm.objects(Dog.self).filter("color = %@ AND name BEGINSWITH %@", "tan", "B")
        #expect(Set(tanDogs.map(\.name)) == ["Buster", "Bella", "Benji"])
    }

    /// "the following calls sorts the dogs returned from the example above
    /// alphabetically by name".
    @Test func sortingByName() throws {
        typealias Dog = QuerySamples.Dog
        let realm = try Self.populated()
        // Sort tan dogs with names starting with "B" by name
        let sortedDogs = realm.objects(Dog.self).filter("color = 'tan' AND name BEGINSWITH 'B'").sorted(byKeyPath: "name")
        #expect(sortedDogs.map(\.name) == ["Bella", "Benji", "Buster"])
        // Seed 003's `arraySortedByProperty("name", ascending: true)`.
        #expect(realm.objects(Dog.self).filter("color = 'tan' AND name BEGINSWITH 'B'")
            .sorted(byKeyPath: "name", ascending: true).map(\.name) == ["Bella", "Benji", "Buster"])
    }

    /// "The key path may also be the property of a to-one relationship".
    @Test func sortingByAToOneKeyPath() throws {
        typealias Person = SortSamples.Person
        typealias Dog = SortSamples.Dog
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            realm.create(Person.self, value: ["name": "Ann", "dog": ["name": "Old", "age": 9]])
            realm.create(Person.self, value: ["name": "Bob", "dog": ["name": "Young", "age": 1]])
            realm.create(Person.self, value: ["name": "Cid", "dog": ["name": "Middle", "age": 4]])
        }

        let dogOwners = realm.objects(Person.self)
        let ownersByDogAge = dogOwners.sorted(byKeyPath: "dog.age")
        #expect(ownersByDogAge.map(\.name) == ["Bob", "Cid", "Ann"])
        #expect(realm.objects(Dog.self).count == 3)
    }

    /// "To sort by multiple properties, use the sorted(by:) method with
    /// multiple SortDescriptor objects."
    @Test func sortingBySeveralDescriptors() throws {
        typealias Dog = QuerySamples.Dog
        let realm = try Self.populated()
        let sorted = realm.objects(Dog.self).sorted(by: [
            SortDescriptor(keyPath: "color"),
            SortDescriptor(keyPath: "age", ascending: false),
        ])
        #expect(sorted.map(\.name) == ["Bruno", "Fido", "Benji", "Rex", "Buster", "Bella"])
    }

    /// "If you wanted a result set for just tan colored dogs, and tan
    /// colored dogs whose names also start with 'B', you might chain two
    /// queries like this".
    @Test func chainingQueries() throws {
        typealias Dog = QuerySamples.Dog
        let realm = try Self.populated()
        let tanDogs = realm.objects(Dog.self).filter("color = 'tan'")
        let tanDogsWithBNames = tanDogs.filter("name BEGINSWITH 'B'")
        #expect(tanDogs.count == 4)
        #expect(Set(tanDogsWithBNames.map(\.name)) == ["Buster", "Bella", "Benji"])

        // Both stay live: "This applies to all Results: all objects,
        // filtered and chained."
        try realm.write {
            realm.create(Dog.self, value: ["name": "Biscuit", "color": "tan", "age": 2])
        }
        #expect(tanDogs.count == 5)
        #expect(tanDogsWithBNames.count == 4)
    }
}
