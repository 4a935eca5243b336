import Foundation
import RealmObjects
import Synchronization
import Testing

/// Seed 002, `invalidate()`: "All Object, Results and List instances
/// obtained from this Realm instance on the current thread are invalidated.
/// Objects and Arrays cannot be used. [...] The Realm itself remains valid,
/// and a new read transaction is implicitly begun the next time data is read
/// from the Realm."
@Suite struct InvalidateTests {
    @Test func objectsAndListsObtainedBeforeAreInvalidated() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let jim = Person(value: ["name": "Jim", "dogs": [["name": "Rex", "age": 1], ["name": "Fido", "age": 2]]])
        try realm.write { realm.add(jim) }
        let rex = try #require(realm.objects(Dog.self).filter("name == 'Rex'").first)
        let dogs = jim.dogs
        let puppies = realm.objects(Dog.self).filter("age < 2")
        #expect(puppies.count == 1)
        #expect(!rex.isInvalidated && !jim.isInvalidated && !dogs.isInvalidated)

        realm.invalidate()
        #expect(rex.isInvalidated)
        #expect(jim.isInvalidated)
        #expect(dogs.isInvalidated)
        // The Realm stays valid: reading begins a new read transaction, and
        // what is read now is valid.
        let again = try #require(realm.objects(Dog.self).filter("name == 'Rex'").first)
        #expect(!again.isInvalidated)
        #expect(again.age == 1)
        #expect(realm.objects(Person.self).first?.dogs.count == 2)
        // Results re-run their query (see Docs/Transactions.md).
        #expect(puppies.count == 1)
        // So do writes.
        try realm.write { again.age = 5 }
        #expect(puppies.count == 0)
    }

    @Test func callingItAgainWithoutReadingChangesNothing() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        realm.invalidate()
        realm.invalidate()
        try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
        let rex = try #require(realm.objects(Dog.self).first)
        #expect(rex.name == "Rex")
        realm.invalidate()
        #expect(rex.isInvalidated)
    }

    @Test func anotherInstanceOfTheFileIsNotAffected() throws {
        let directory = TemporaryDirectory()
        let configuration = Realm.Configuration(fileURL: directory.url.appendingPathComponent("dogs.realm"), objectTypes: [Dog.self, Person.self])
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
        let rex = try #require(realm.objects(Dog.self).first)
        // Another thread has its own instance.
        let seenThere = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            if let there = try? Realm(configuration: configuration) {
                let dog = there.objects(Dog.self).first
                there.invalidate()
                seenThere.withLock { $0 = dog?.isInvalidated == true ? "invalidated" : dog?.name }
            }
            done.signal()
        }.start()
        done.wait()
        #expect(seenThere.withLock { $0 } == "invalidated")
        #expect(!rex.isInvalidated)
        #expect(rex.name == "Rex")
    }

    @Test func readingAnInvalidatedObjectStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "invalidate"))
            try! realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
            let rex = realm.objects(Dog.self).first!
            realm.invalidate()
            _ = rex.name
        }
        #expect(seedStandardError(result).contains("deleted or invalidated"))
    }

    @Test func writingAnInvalidatedObjectStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "invalidate"))
            let rex = Dog(value: ["name": "Rex", "age": 1])
            try! realm.write { realm.add(rex) }
            realm.invalidate()
            try! realm.write { rex.age = 2 }
        }
        #expect(seedStandardError(result).contains("deleted or invalidated"))
    }

    @Test func usingAnInvalidatedListStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "invalidate"))
            let jim = Person(value: ["name": "Jim", "dogs": [["name": "Rex", "age": 1]]])
            try! realm.write { realm.add(jim) }
            let dogs = jim.dogs
            realm.invalidate()
            _ = dogs.count
        }
        #expect(seedStandardError(result).contains("invalidated List"))
    }
}
