import Foundation
import RealmObjects
import RealmQuery
import Testing

/// Realm Swift's names for the schema and sort descriptors, as its own tests
/// use them.
@Suite struct SchemaNamesTests {
    @Test func schemaObjectSchemaAndProperties() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [Dog.self, Person.self, AllTypes.self, Book.self]))
        let schema = realm.schema
        #expect(Set(schema.objectSchema.map(\.className)).isSuperset(of: ["Dog", "Person", "AllTypes", "Book"]))
        let person = try #require(schema["Person"])
        #expect(person.className == "Person")
        let dogs = try #require(person["dogs"])
        #expect(dogs.isArray && dogs.type == .object && dogs.objectClassName == "Dog")
        #expect(!dogs.isOptional && !dogs.isIndexed && !dogs.isPrimary)
        let id = try #require(schema["Book"]?["id"])
        #expect(id.isPrimary && id.type == .int)
        let all = try #require(schema["AllTypes"])
        #expect(all["uuid"]?.type == .UUID)
        #expect(all["objectId"]?.type == .objectId)
        #expect(all["optionalString"]?.isOptional == true)
        // Equality and descriptions.
        #expect(person == realm.schema["Person"])
        #expect(person != schema["Dog"])
        #expect(schema.description.contains("class Person"))
        #expect(person.description.contains("dogs"))
        #expect(Dog().objectSchema == schema["Dog"])
    }

    @Test func sortDescriptorsAsRealmSwiftWritesThem() throws {
        let name: RealmQuery.SortDescriptor = "name"
        #expect(name.keyPath == "name" && name.ascending)
        #expect(name.reversed() == RealmQuery.SortDescriptor(keyPath: "name", ascending: false))
        #expect(name.reversed().reversed() == name)
        #expect(name.description == "SortDescriptor(keyPath: name, direction: ascending)")

        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            for (dogName, age) in [("b", 2), ("a", 2), ("c", 1)] { realm.add(Dog(value: ["name": dogName, "age": age])) }
        }
        let sorted = realm.objects(Dog.self).sorted(by: ["age", RealmQuery.SortDescriptor(keyPath: "name", ascending: false)])
        #expect(sorted.map(\.name) == ["c", "b", "a"])
    }

    /// Seed 000 "Collections": generic code constrains `C.ElementType`.
    @Test func elementTypeNamesTheElement() throws {
        func names<C: RealmCollection>(_ collection: C) -> [String] where C.ElementType == Dog {
            collection.map(\.name)
        }
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
        #expect(names(realm.objects(Dog.self)) == ["Rex"])
        #expect(names(AnyRealmCollection(realm.objects(Dog.self))) == ["Rex"])
    }
}
