import Foundation
import RealmObjects
import Testing

/// `ThreadSafeReference.isInvalidated`, as Realm's own
/// `ThreadSafeReferenceTests` check it: a reference resolves once.
@Suite struct ThreadSafeReferenceStateTests {
    @Test func aReferenceIsInvalidatedOnceResolved() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let dog = try realm.write { realm.create(Dog.self, value: ["name": "Rex"]) }
        let reference = ThreadSafeReference(to: dog)
        #expect(!reference.isInvalidated)
        #expect(realm.resolve(reference)?.name == "Rex")
        #expect(reference.isInvalidated)
    }
}

/// Collections follow `Realm.invalidate()`, as Realm's
/// `RealmCollectionTypeTests` check.
@Suite struct InvalidatedCollectionTests {
    @Test func resultsAndLinkingObjectsAreInvalidatedWithTheirRealm() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let rex = try realm.write { () -> Dog in
            let person = realm.create(Person.self, value: ["name": "Ann"])
            let rex = realm.create(Dog.self, value: ["name": "Rex"])
            person.dogs.append(rex)
            return rex
        }
        let dogs = realm.objects(Dog.self)
        let owners = rex.owners
        let list = try #require(realm.objects(Person.self).first).dogs
        #expect(!dogs.isInvalidated && !owners.isInvalidated && !list.isInvalidated)
        realm.invalidate()
        #expect(dogs.isInvalidated)
        #expect(owners.isInvalidated)
        #expect(list.isInvalidated)
        #expect(!realm.objects(Dog.self).isInvalidated, "results made after are valid")
    }
}
