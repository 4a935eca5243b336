import Foundation
import RealmObjects
import Testing

/// Seed 000, "Getting started" and "Auto-updating objects".
@Suite struct GettingStartedTests {
    @Test func theGettingStartedSample() throws {
        let myDog = Dog()
        myDog.name = "Rex"
        myDog.age = 1
        #expect(myDog.name == "Rex")

        let realm = try Realm(configuration: inMemoryConfiguration())
        let puppies = realm.objects(Dog.self).filter("age < 2")
        #expect(puppies.count == 0)

        try realm.write {
            realm.add(myDog)
        }
        #expect(puppies.count == 1)

        let reference = ThreadSafeReference(to: myDog)
        let configuration = realm.configuration
        let done = DispatchSemaphore(value: 0)
        DispatchQueue(label: "background").async {
            autoreleasepool {
                let realm = try! Realm(configuration: configuration)
                let theDog = realm.objects(Dog.self).filter("age == 1").first
                try! realm.write {
                    theDog!.age = 3
                }
                #expect(realm.resolve(reference)?.age == 3)
            }
            done.signal()
        }
        done.wait()
        // This thread still reads its version until it refreshes.
        #expect(myDog.age == 1)
        realm.refresh()
        #expect(myDog.age == 3)
        #expect(puppies.count == 0)
    }

    @Test func objectsAreLiveViews() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let myDog = Dog()
        myDog.name = "Fido"
        myDog.age = 1
        try realm.write { realm.add(myDog) }

        let myPuppy = realm.objects(Dog.self).filter("age == 1").first
        try realm.write {
            myPuppy!.age = 2
        }
        #expect(myDog.age == 2)
        #expect(myPuppy!.isSameObject(as: myDog))
    }

    @Test func theSameConfigurationOnOneThreadIsOneRealm() throws {
        let configuration = inMemoryConfiguration()
        let first = try Realm(configuration: configuration)
        let second = try Realm(configuration: configuration)
        #expect(first == second)
    }
}
