// The seeds' "Getting started" sample, run end to end on a file and saying
// what happens at each step: `swift run realm-demo`, which builds the
// object database alone, and `realm demo`, which the full tool runs.

import Dispatch
import Foundation
import RealmObjects

// Define your models like regular Swift classes.

/// The sample's dog: a name and an age.
public final class Dog: Object {
    @Persisted public var name = ""
    @Persisted public var age = 0
}

/// The sample's person, with an optional picture and a list of dogs.
public final class Person: Object {
    @Persisted public var name = ""
    @Persisted public var picture: Data? = nil  // optionals supported
    public let dogs = List<Dog>()
}

/// The getting-started sample.
public enum GettingStarted {
    /// Runs the sample on the Realm at `file`, printing each step.
    public static func run(file: String = "default.realm") throws {
        var configuration = Realm.Configuration.defaultConfiguration
        configuration.fileURL = URL(fileURLWithPath: file)
        Realm.Configuration.defaultConfiguration = configuration

        // Use them like regular Swift objects.
        let myDog = Dog()
        myDog.name = "Rex"
        myDog.age = 1
        print("name of dog: \(myDog.name)")

        // Get the default Realm.
        let realm = try Realm()
        print("opened \(configuration.fileURL!.path)")

        // Query Realm for all dogs less than 2 years old.
        let puppies = realm.objects(Dog.self).filter("age < 2")
        print("puppies before adding one: \(puppies.count)")

        // Persist your data easily.
        try realm.write {
            realm.add(myDog)
        }

        // Queries are updated in real time.
        print("puppies after adding one: \(puppies.count)")

        // Query and update from any thread: a ThreadSafeReference carries the
        // dog to a background queue, which opens its own Realm.
        let dogReference = ThreadSafeReference(to: myDog)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue(label: "background").async {
            defer { done.signal() }
            autoreleasepool {
                let realm = try! Realm()
                guard let theDog = realm.resolve(dogReference) else { return }
                try! realm.write {
                    theDog.age = 3
                }
                print("background queue: set \(theDog.name)'s age to \(theDog.age)")
            }
        }
        done.wait()

        // This thread reads its snapshot until it refreshes.
        print("before refresh, this thread sees age \(myDog.age)")
        realm.refresh()
        print("after refresh: age \(myDog.age), puppies: \(puppies.count)")
        print("dogs in the file: \(realm.objects(Dog.self).map(\.name))")
    }
}
