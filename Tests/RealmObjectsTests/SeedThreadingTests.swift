import Foundation
import RealmObjects
import Testing

// Seed 000 "Threading" (seeing changes from other threads, passing
// instances across threads with ThreadSafeReference, using a Realm across
// threads, writing in the background) and "Current limitations: Threads";
// seed 001's ThreadSafeReference sample; seed 003 "Using a Realm Across
// Threads" and "Background Operations".
//
// Adaptations: `autoreleasepool` compiles on Linux and runs its block; the
// default Realm of the samples is an in-memory or temporary one here.
//
// Skipped: notifications delivered on a run loop (issue #5).

/// The seed's `Person(name: "Jane")`: a model with a convenience
/// initializer ("Custom initializers for Object subclasses").
final class SeedThreadPerson: Object {
    @Persisted var name = ""
    @Persisted var birthdate = Date(timeIntervalSince1970: 1)
    let pets = List<Dog>()

    convenience init(name: String) {
        self.init() // Please note this says 'self' and not 'super'
        self.name = name
    }
}

@Suite struct SeedThreadingTests {
    // MARK: Seeing changes from other threads

    /// "When you initially open a Realm on a thread, its state will be based
    /// off the most recent successful write commit, and it will remain on
    /// that version until refreshed … If a thread has no runloop, then
    /// Realm.refresh() must be called manually."
    @Test func aThreadKeepsItsVersionUntilItRefreshes() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        let dog = Dog(value: ["name": "Rex", "age": 1])
        try realm.write { realm.add(dog) }
        let dogs = realm.objects(Dog.self)

        let seenAtOpen = Locked<Int>(-1)
        seedRunOnThread {
            let background = try! Realm(configuration: configuration)
            seenAtOpen.value = background.objects(Dog.self).first!.age
            try! background.write {
                background.objects(Dog.self).first!.age = 2
                background.add(Dog(value: ["name": "Fido", "age": 5]))
            }
        }
        #expect(seenAtOpen.value == 1)
        // Still the old version on this thread.
        #expect(dog.age == 1)
        #expect(dogs.count == 1)
        #expect(realm.refresh())
        #expect(dog.age == 2)
        #expect(dogs.count == 2)
        #expect(!realm.refresh())  // nothing new
    }

    /// "Realms are also refreshed when write transactions are committed" and
    /// when one begins.
    @Test func beginningAWriteRefreshes() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
        seedRunOnThread {
            let background = try! Realm(configuration: configuration)
            try! background.write { background.add(Dog(value: ["name": "Fido", "age": 2])) }
        }
        #expect(realm.objects(Dog.self).count == 1)
        try realm.write {
            #expect(realm.objects(Dog.self).count == 2)
            realm.add(Dog(value: ["name": "Spot", "age": 3]))
        }
        #expect(realm.objects(Dog.self).count == 3)
    }

    /// "On the main UI thread (or any thread with a runloop) objects will
    /// automatically update with changes from other threads between each
    /// iteration of the runloop" when `autorefresh` is on (the default).
    /// (In a child process: with the notification work in progress, running
    /// a run loop here has stopped the test process.)
    @Test func aThreadRunningARunLoopAutorefreshes() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let configuration = Realm.Configuration(inMemoryIdentifier: "runloop")
            let anchor = try! Realm(configuration: configuration)
            try! anchor.write { anchor.add(Dog(value: ["name": "Rex", "age": 1])) }

            let opened = DispatchSemaphore(value: 0)
            let written = DispatchSemaphore(value: 0)
            let finished = DispatchSemaphore(value: 0)
            let ageSeen = Locked<Int>(-1)
            let autorefresh = Locked<Bool>(false)
            Thread {
                let realm = try! Realm(configuration: configuration)
                autorefresh.value = realm.autorefresh
                let dog = realm.objects(Dog.self).first!
                _ = dog.age
                opened.signal()
                written.wait()
                // Keep a source on the run loop so that it really runs.
                let timer = Timer(timeInterval: 0.01, repeats: true) { _ in }
                RunLoop.current.add(timer, forMode: .default)
                let deadline = Date().addingTimeInterval(30)
                while Date() < deadline && dog.age != 2 {
                    _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.02))
                }
                timer.invalidate()
                ageSeen.value = dog.age
                finished.signal()
            }.start()
            opened.wait()
            try! anchor.write { anchor.objects(Dog.self).first!.age = 2 }
            written.signal()
            finished.wait()
            seedCheck(autorefresh.value, "autorefresh is on by default")
            seedCheck(ageSeen.value == 2, "the run-loop thread still reads age \(ageSeen.value) after 1 s")
        }
        #expect(!seedStandardError(result).contains("seed check failed"), "\(seedStandardError(result))")
    }

    /// With autorefresh off, only `refresh()` moves the Realm.
    @Test func autorefreshOffNeedsRefresh() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        realm.autorefresh = false
        #expect(realm.autorefresh == false)
        try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
        seedRunOnThread {
            let background = try! Realm(configuration: configuration)
            try! background.write { background.add(Dog(value: ["name": "Fido", "age": 2])) }
        }
        #expect(realm.objects(Dog.self).count == 1)
        realm.refresh()
        #expect(realm.objects(Dog.self).count == 2)
    }

    // MARK: Passing instances across threads

    /// "Unmanaged instances of Objects behave exactly as regular NSObject
    /// subclasses, and are safe to pass across threads."
    @Test func unmanagedObjectsCrossThreadsFreely() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        let person = SeedUnchecked(value: SeedThreadPerson(name: "Jane"))
        seedRunOnThread {
            person.value.name = "Jane Doe"
            person.value.pets.append(Dog(value: ["name": "Rex", "age": 1]))
            let background = try! Realm(configuration: configuration)
            try! background.write { background.add(person.value) }
        }
        realm.refresh()
        #expect(realm.objects(SeedThreadPerson.self).first?.name == "Jane Doe")
        #expect(realm.objects(SeedThreadPerson.self).first?.pets.count == 1)
    }

    @Test func threadSafeReferenceToAnObject() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        let person = SeedThreadPerson(name: "Jane")
        try realm.write {
            realm.add(person)
        }
        let personRef = ThreadSafeReference(to: person)
        let done = DispatchSemaphore(value: 0)
        let resolvedName = Locked<String?>(nil)
        DispatchQueue(label: "background").async {
            autoreleasepool {
                let realm = try! Realm(configuration: configuration)
                guard let person = realm.resolve(personRef) else {
                    done.signal()
                    return // person was deleted
                }
                resolvedName.value = person.name
                try! realm.write {
                    person.name = "Jane Doe"
                }
            }
            done.signal()
        }
        done.wait()
        #expect(resolvedName.value == "Jane")
        realm.refresh()
        #expect(person.name == "Jane Doe")
    }

    /// The destination Realm sees at least the version the reference was
    /// made at, even if it was opened before.
    @Test func resolvingMovesTheDestinationForward() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        let opened = DispatchSemaphore(value: 0)
        let referenceReady = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let box = Locked<ThreadSafeReference<SeedThreadPerson>?>(nil)
        let resolvedName = Locked<String?>(nil)
        Thread {
            let background = try! Realm(configuration: configuration)
            _ = background.objects(SeedThreadPerson.self).count  // pins the current version
            opened.signal()
            referenceReady.wait()
            resolvedName.value = background.resolve(box.value!)?.name
            done.signal()
        }.start()
        opened.wait()
        let person = SeedThreadPerson(name: "Later")
        try realm.write { realm.add(person) }
        box.value = ThreadSafeReference(to: person)
        referenceReady.signal()
        done.wait()
        #expect(resolvedName.value == "Later")
    }

    @Test func threadSafeReferencesToResultsAndLists() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        let person = SeedThreadPerson(name: "Jane")
        person.pets.append(objectsIn: [Dog(value: ["name": "Rex", "age": 1]), Dog(value: ["name": "Fido", "age": 7])])
        try realm.write { realm.add(person) }
        let puppiesRef = ThreadSafeReference(to: realm.objects(Dog.self).filter("age < 2"))
        let petsRef = ThreadSafeReference(to: person.pets)
        let outcome = Locked<[String]>([])
        seedRunOnThread {
            let background = try! Realm(configuration: configuration)
            let puppies = background.resolve(puppiesRef)!
            let pets = background.resolve(petsRef)!
            try! background.write {
                pets.append(Dog(value: ["name": "Spot", "age": 0]))
            }
            // Both are live in the destination Realm.
            outcome.value = [String(puppies.count), pets.map(\.name).joined(separator: ",")]
        }
        #expect(outcome.value == ["2", "Rex,Fido,Spot"])
        realm.refresh()
        #expect(person.pets.count == 3)
    }

    @Test func aDeletedObjectResolvesToNil() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        let person = SeedThreadPerson(name: "Jane")
        try realm.write { realm.add(person) }
        let personRef = ThreadSafeReference(to: person)
        try realm.write { realm.delete(person) }
        let resolvedToNil = Locked<Bool>(false)
        seedRunOnThread {
            let background = try! Realm(configuration: configuration)
            resolvedToNil.value = background.resolve(personRef) == nil
        }
        #expect(resolvedToNil.value)
    }

    /// "A ThreadSafeReference object must be resolved at most once."
    @Test func resolvingAReferenceTwiceStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let configuration = Realm.Configuration(inMemoryIdentifier: "twice")
            let realm = try! Realm(configuration: configuration)
            let person = SeedThreadPerson(name: "Jane")
            try! realm.write { realm.add(person) }
            let personRef = ThreadSafeReference(to: person)
            seedRunOnThread {
                let background = try! Realm(configuration: configuration)
                _ = background.resolve(personRef)
                _ = background.resolve(personRef)
            }
        }
        #expect(seedStandardError(result).contains("once"))
    }

    /// "Some properties and methods on these types can be accessed from any
    /// thread: Object: isInvalidated, objectSchema, realm, class methods,
    /// and initializers. Results: objectClassName and realm. List:
    /// isInvalidated, objectClassName, and realm."
    @Test func propertiesUsableFromAnyThread() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        let person = SeedThreadPerson(name: "Jane")
        try realm.write { realm.add(person) }
        let confined = SeedUnchecked(value: (person, realm.objects(SeedThreadPerson.self), person.pets))
        let outcome = Locked<[String]>([])
        seedRunOnThread {
            let (person, results, pets) = confined.value
            outcome.value = [
                "\(person.isInvalidated)", person.objectSchema.name, "\(person.realm != nil)",
                SeedThreadPerson.className(), "\(SeedThreadPerson(name: "x").name)",
                results.objectClassName, "\(results.realm != nil)",
                "\(pets.isInvalidated)", "\(pets.realm != nil)",
            ]
        }
        #expect(outcome.value == ["false", "SeedThreadPerson", "true", "SeedThreadPerson", "x", "SeedThreadPerson", "true", "false", "true"])
    }

    // MARK: Thread confinement (exit tests)

    /// "Instances of Realm, Results, or List, or managed instances of Object
    /// are thread-confined … otherwise an exception is thrown."
    @Test func usingAManagedObjectOnAnotherThreadStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "confined"))
            let person = SeedThreadPerson(name: "Jane")
            try! realm.write { realm.add(person) }
            let confined = SeedUnchecked(value: person)
            seedRunOnThread {
                _ = confined.value.name
            }
        }
        let message = seedStandardError(result)
        #expect(message.contains("ThreadSafeReference"))
        // The message names the class, the property and both threads.
        #expect(message.contains("'SeedThreadPerson.name'"))
        #expect(message.contains("belongs to thread") && message.contains("and this is thread"))
    }

    @Test func usingARealmOnAnotherThreadStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "confined"))
            let confined = SeedUnchecked(value: realm)
            seedRunOnThread {
                _ = confined.value.objects(Dog.self).count
            }
        }
        #expect(seedStandardError(result).contains("ThreadSafeReference"))
    }

    @Test func usingResultsOnAnotherThreadStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "confined"))
            try! realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
            let confined = SeedUnchecked(value: realm.objects(Dog.self))
            seedRunOnThread {
                _ = confined.value.first
            }
        }
        #expect(seedStandardError(result).contains("ThreadSafeReference"))
    }

    @Test func usingAListOnAnotherThreadStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "confined"))
            let person = SeedThreadPerson(name: "Jane")
            person.pets.append(Dog(value: ["name": "Rex", "age": 1]))
            try! realm.write { realm.add(person) }
            let confined = SeedUnchecked(value: person.pets)
            seedRunOnThread {
                _ = confined.value.count
            }
        }
        #expect(seedStandardError(result).contains("ThreadSafeReference"))
    }

    @Test func usingARealmOptionalOnAnotherThreadStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "confined"))
            let person = Person(value: ["name": "Jane", "age": 30])
            try! realm.write { realm.add(person) }
            let confined = SeedUnchecked(value: person.age)
            seedRunOnThread {
                _ = confined.value.value
            }
        }
        #expect(seedStandardError(result).contains("ThreadSafeReference"))
    }

    @Test func writingOnAnotherThreadStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "confined"))
            let person = SeedThreadPerson(name: "Jane")
            try! realm.write { realm.add(person) }
            let confined = SeedUnchecked(value: (realm, person))
            seedRunOnThread {
                let (realm, person) = confined.value
                try! realm.write { person.name = "Jane Doe" }
            }
        }
        #expect(seedStandardError(result).contains("ThreadSafeReference"))
    }

    // MARK: Using a Realm across threads

    /// "You must initialize a new Realm to get a different instance for every
    /// thread … As long as you specify the same configuration, all Realm
    /// instances will map to the same file on disk."
    @Test func eachThreadOpensItsOwnRealmOfTheSameFile() throws {
        let directory = TemporaryDirectory()
        let configuration = Realm.Configuration(fileURL: directory.file())
        let realm = try Realm(configuration: configuration)
        #expect(try Realm(configuration: configuration) == realm)
        let names = SeedLog()
        let group = DispatchGroup()
        for index in 0..<4 {
            group.enter()
            Thread {
                let background = try! Realm(configuration: configuration)
                let again = try! Realm(configuration: configuration)
                try! background.write { background.add(Dog(value: ["name": "dog\(index)", "age": index])) }
                if background == again {
                    names.append("same")
                }
                group.leave()
            }.start()
        }
        group.wait()
        #expect(names.entries == ["same", "same", "same", "same"])
        realm.refresh()
        #expect(realm.objects(Dog.self).count == 4)
    }

    /// The seeds' background insert (a million objects, here 10 × 100),
    /// with dictionaries whose order does not matter.
    @Test func backgroundInserts() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue(label: "background").async {
            autoreleasepool {
                // Get realm and table instances for this thread
                let realm = try! Realm(configuration: configuration)

                // Break up the writing blocks into smaller portions
                // by starting a new transaction
                for idx1 in 0..<10 {
                    realm.beginWrite()

                    // Add row via dictionary. Property order is ignored.
                    for idx2 in 0..<100 {
                        realm.create(Person.self, value: [
                            "name": "\(idx1)",
                            "birthdate": Date(timeIntervalSince1970: TimeInterval(idx2)),
                        ])
                    }

                    // Commit the write transaction
                    // to make this data available to other threads
                    try! realm.commitWrite()
                }
            }
            done.signal()
        }
        done.wait()
        realm.refresh()
        #expect(realm.objects(Person.self).count == 1000)
        #expect(realm.objects(Person.self).filter("name == '9'").count == 100)
    }
}
