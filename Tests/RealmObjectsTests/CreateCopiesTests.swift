import Foundation
import RealmObjects
import Testing

final class OptionalIntKeyed: Object {
    @Persisted(primaryKey: true) var id: Int?
    @Persisted var name = ""
}

final class OptionalStringKeyed: Object {
    @Persisted(primaryKey: true) var code: String?
    @Persisted var name = ""
}

final class Friend: Object {
    @Persisted var name = ""
    @Persisted var friend: Friend?
}

/// `create` copies what it is given, and a nil optional primary key is a
/// key like any other.
@Suite struct CreateCopiesTests {
    @Test func createCopiesNestedUnmanagedObjects() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let rex = Dog(value: ["name": "Rex", "age": 1])
        let person = try realm.write { realm.create(Person.self, value: ["name": "Jim", "dogs": [rex, rex]]) }
        // The original stays unmanaged; the Realm holds one copy, twice.
        #expect(rex.realm == nil)
        #expect(person.dogs.count == 2)
        #expect(person.dogs[0].isSameObject(as: person.dogs[1]))
        #expect(realm.objects(Dog.self).count == 1)
        rex.name = "Changed after"
        #expect(person.dogs[0].name == "Rex")
    }

    @Test func createCopiesAnUnmanagedCycleOnce() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let ann = Friend(value: ["name": "Ann"])
        let bob = Friend(value: ["name": "Bob", "friend": ann])
        ann.friend = bob
        let created = try realm.write { realm.create(Friend.self, value: ann) }
        #expect(ann.realm == nil && bob.realm == nil)
        #expect(realm.objects(Friend.self).count == 2)
        #expect(created.friend?.name == "Bob")
        #expect(created.friend?.friend?.isSameObject(as: created) == true)
    }

    @Test func addTakesNestedObjectsAsTheyAre() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let rex = Dog(value: ["name": "Rex", "age": 1])
        let person = Person(value: ["name": "Jim", "dogs": [rex]])
        try realm.write { realm.add(person) }
        #expect(rex.realm == realm)
        #expect(person.dogs[0] === rex || person.dogs[0].isSameObject(as: rex))
    }

    @Test func createCopiesAManagedObjectOfAnotherRealm() throws {
        let source = try Realm(configuration: inMemoryConfiguration("source"))
        let target = try Realm(configuration: inMemoryConfiguration("target"))
        let jim = try source.write { source.create(Person.self, value: ["name": "Jim", "dogs": [["name": "Rex", "age": 3]]]) }
        let copy = try target.write { target.create(Person.self, value: jim) }
        #expect(copy.realm == target)
        #expect(jim.realm == source)
        #expect(copy.dogs.map(\.name) == ["Rex"])
        #expect(target.objects(Dog.self).count == 1)
        #expect(source.objects(Dog.self).count == 1)
    }

    @Test func aNilOptionalPrimaryKeyIsAKey() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            realm.add(OptionalIntKeyed(value: ["id": NSNull(), "name": "nil key"]))
            realm.add(OptionalIntKeyed(value: ["id": 1, "name": "one"]))
            realm.add(OptionalStringKeyed(value: ["code": NSNull(), "name": "nil code"]))
        }
        #expect(realm.object(ofType: OptionalIntKeyed.self, forPrimaryKey: nil as Int?)?.name == "nil key")
        #expect(realm.object(ofType: OptionalIntKeyed.self, forPrimaryKey: 1)?.name == "one")
        #expect(realm.object(ofType: OptionalStringKeyed.self, forPrimaryKey: nil as String?)?.name == "nil code")
        #expect(realm.objects(OptionalIntKeyed.self).filter("id == nil").count == 1)

        // Only one object may have it.
        let error = #expect(throws: Realm.Error.self) {
            try realm.write { realm.add(OptionalIntKeyed(value: ["id": NSNull(), "name": "second"])) }
        }
        #expect(error?.code == .duplicatePrimaryKey)
        // An update finds the object with the nil key.
        try realm.write { try realm.create(OptionalIntKeyed.self, value: ["id": NSNull(), "name": "updated"], update: .modified) }
        #expect(realm.objects(OptionalIntKeyed.self).count == 2)
        #expect(realm.object(ofType: OptionalIntKeyed.self, forPrimaryKey: nil as Int?)?.name == "updated")
    }
}
