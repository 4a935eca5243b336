import Foundation
import RealmObjects
import Testing

// Seed 004 (the newer object-schema page): the two samples no other Seed
// file ports, its indexed Book (`priceCents`) and its to-many Person and
// Dog. The page's classes keep their names in the `ObjectSchemaSamples`
// namespace (Realm class names "Book", "Person", "Dog"; each test opens a
// Realm of its own).

// A `typealias Dog = …` at the top of a test is surrounding code: it names
// the sample's class as the sample does.

enum ObjectSchemaSamples {
    class Book: Object {
        @Persisted var priceCents = 0
        @Persisted var title = ""
        // Return a list of indexed property names
        override static func indexedProperties() -> [String] {
            return ["title"]
        }
    }

    class Person: Object {
        @Persisted var name: String = ""
        @Persisted var birthdate: Date = Date(timeIntervalSince1970: 1)
        // A person can have many dogs
        let dogs = List<Dog>()
    }
    class Dog: Object {
        @Persisted var name: String = ""
        @Persisted var age: Int = 0
        @Persisted var breed: String?
        // No backlink to person -- one-directional relationship
    }
}

@Suite struct SeedObjectSchemaTests {
    /// "To index a property, override Object.indexedProperties() and return
    /// a list of indexed property names." "Indexes make queries using
    /// equality and IN operators faster".
    @Test func indexedBook() throws {
        typealias Book = ObjectSchemaSamples.Book
        let realm = try Realm(configuration: inMemoryConfiguration(types: [Book.self]))
        #expect(realm.schema["Book"]?["title"]?.isIndexed == true)
        #expect(realm.schema["Book"]?["priceCents"]?.isIndexed == false)
        try realm.write {
            realm.create(Book.self, value: ["priceCents": 1999, "title": "Cheese"])
            realm.create(Book.self, value: ["priceCents": 999, "title": "Bread"])
        }
        #expect(realm.objects(Book.self).filter("title == 'Bread'").first?.priceCents == 999)
        #expect(realm.objects(Book.self).filter("title IN {'Bread', 'Cheese'}").count == 2)
    }

    /// "A to-many relationship maps one property to zero or more instances
    /// of another object type… Use List tagged with your target type".
    @Test func toManyRelationship() throws {
        typealias Person = ObjectSchemaSamples.Person
        typealias Dog = ObjectSchemaSamples.Dog
        let realm = try Realm(configuration: inMemoryConfiguration())
        let person = Person(value: ["name": "Ann"])
        person.dogs.append(Dog(value: ["name": "Rex", "age": 3, "breed": "Collie"]))
        person.dogs.append(Dog(value: ["name": "Fido", "age": 1]))
        try realm.write { realm.add(person) }

        let stored = try #require(realm.objects(Person.self).first)
        #expect(stored.birthdate == Date(timeIntervalSince1970: 1))
        #expect(stored.dogs.map(\.name) == ["Rex", "Fido"])
        #expect(stored.dogs[0].breed == "Collie")
        #expect(stored.dogs[1].breed == nil)
        #expect(realm.objects(Dog.self).count == 2)
        // No backlink: the Dog schema has no property that leads back.
        #expect(realm.schema["Dog"]?.properties.map(\.name) == ["name", "age", "breed"])
    }
}
