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
