import Foundation
import RealmObjects
import Testing

// Seed 000 "Notifications": Realm notifications, the models of "Collection
// notifications" and the three kinds of change that modify a Person; seed
// 001's same samples; seed 003's "Notifications". The table-view samples
// ("Collection notifications", "Interface-driven writes") are in
// TableViewSampleTests; object notifications with old and new values in
// NotificationTests.
//
// Delivery: these tests run no run loop, so a Realm delivers what it has
// seen when it refreshes (SPEC section 6); they call `refresh()` where the
// page's app would return to its run loop.
//

// A `typealias Dog = …` at the top of a test is surrounding code: it names
// the sample's class as the sample does.

/// The models of "Collection notifications", in a namespace of their own.
enum NotificationSamples {
    class Dog: Object {
        @Persisted var name = ""
        @Persisted var age = 0
    }

    class Person: Object {
        @Persisted var name = ""
        let dogs = List<Dog>()
    }
}

/// Surrounding code: the page's `viewController`, counting its redraws.
final class SeedUpdatingViewController {
    private(set) var updates = 0
    func updateUI() { updates += 1 }
}

/// The model of "Object notifications".
final class StepCounter: Object {
    @Persisted var steps = 0
}

@Suite struct SeedNotificationsTests {
    /// "Object notifications": "The block will be called with
    /// `ObjectChange.change` if the object's properties were changed. The
    /// enum will contain an array of `PropertyChange` values." Run as the
    /// page writes it, in a child process whose default Realm is in a
    /// temporary directory.
    @Test func objectNotificationsAsThePageWritesThem() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]) {
            let directory = TemporaryDirectory()
            seedCheck(FileManager.default.changeCurrentDirectoryPath(directory.url.path), "chdir")

            let stepCounter = StepCounter()
            let realm = try! Realm()
            try! realm.write {
                realm.add(stepCounter)
            }
            var token : NotificationToken?
            token = stepCounter.observe { change in
                switch change {
                case .change(let properties):
                    for property in properties {
                        if property.name == "steps" && property.newValue as! Int > 1000 {
                            print("Congratulations, you've exceeded 1000 steps.")
                            token = nil
                        }
                    }
                case .error(let error):
                    print("An error occurred: \(error)")
                case .deleted:
                    print("The object was deleted.")
                }
            }

            // Surrounding code: the steps go up, and the app's run loop turns.
            try! realm.write { stepCounter.steps = 900 }
            realm.refresh()
            seedCheck(token != nil, "the handler stays registered under 1000 steps")
            try! realm.write { stepCounter.steps = 1200 }
            realm.refresh()
            seedCheck(token == nil, "the handler dropped its token past 1000 steps")
        }
        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        #expect(output.contains("Congratulations, you've exceeded 1000 steps."))
        #expect(!seedStandardError(result).contains("seed check failed"), "\(seedStandardError(result))")
    }

    /// Seed 003 "Notifications" and seed 002's `addNotificationBlock`:
    /// "You can use the token to unsubscribe from the notification later
    /// on", with `removeNotificationBlock`.
    @Test func addNotificationBlockAndRemoveNotificationBlock() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let viewController = SeedUpdatingViewController()
        let token = realm.addNotificationBlock { note, realm in
            viewController.updateUI()
        }
        try realm.write { realm.add(Dog(value: ["name": "Rex"])) }
        realm.refresh()
        #expect(viewController.updates == 1)
        realm.removeNotificationBlock(token)
        try realm.write { realm.add(Dog(value: ["name": "Fido"])) }
        realm.refresh()
        #expect(viewController.updates == 1)

        let stopped = realm.addNotificationBlock { _, _ in viewController.updateUI() }
        stopped.stop()
        try realm.write { realm.add(Dog(value: ["name": "Spot"])) }
        #expect(viewController.updates == 1)
    }

    /// Seed 002: "A human-readable description of the configuration value."
    @Test func aConfigurationDescribesItself() {
        var configuration = Realm.Configuration(inMemoryIdentifier: "described", schemaVersion: 3, objectTypes: [Dog.self])
        configuration.encryptionKey = Data(count: 64)
        let description = configuration.description
        #expect(description.contains("inMemoryIdentifier = described"))
        #expect(description.contains("schemaVersion = 3"))
        #expect(description.contains("objectTypes = [Dog]"))
        #expect(description.contains("64 bytes, not shown"))
        #expect("\(Realm.Configuration(fileURL: URL(fileURLWithPath: "/tmp/x.realm")))".contains("fileURL = /tmp/x.realm"))
    }

    /// "Every time a write transaction involving that Realm is committed,
    /// no matter which thread or process the write transaction took place
    /// on, the notification handler will be fired". After
    /// `token.invalidate()` it is not.
    @Test func realmNotifications() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        let viewController = SeedUpdatingViewController()

        // Observe Realm Notifications
        let token = realm.observe { notification, realm in
            viewController.updateUI()
        }

        // A write on this thread.
        try realm.write { realm.add(Dog(value: ["name": "Rex"])) }
        realm.refresh()
        #expect(viewController.updates == 1)

        // A write on another thread, seen when this thread refreshes.
        seedRunOnThread {
            let realm = try! Realm(configuration: configuration)
            try! realm.write { realm.add(Dog(value: ["name": "Fido"])) }
        }
        realm.refresh()
        #expect(viewController.updates == 2)

        // later
        token.invalidate()

        try realm.write { realm.add(Dog(value: ["name": "Spot"])) }
        realm.refresh()
        #expect(viewController.updates == 2)
    }

    /// "You will be notified about modifications for a matched `Person`
    /// object when: You modify the `Person`'s `name` property. You add or
    /// remove a `Dog` to the `Person`'s `dogs` property. You modify the
    /// `age` property of a `Dog` belonging to that `Person`."
    @Test func whatModifiesAPerson() throws {
        typealias Person = NotificationSamples.Person
        typealias Dog = NotificationSamples.Dog
        let realm = try Realm(configuration: inMemoryConfiguration())
        let (jane, rex) = try realm.write {
            let jane = realm.create(Person.self, value: ["name": "Jane"])
            realm.create(Person.self, value: ["name": "Tim"])
            let rex = realm.create(Dog.self, value: ["name": "Rex", "age": 1])
            return (jane, rex)
        }
        let owners = realm.objects(Person.self).sorted(byKeyPath: "name")
        var initial = 0
        var modifications: [[Int]] = []
        let token = owners.observe { changes in
            switch changes {
            case .initial:
                initial += 1
            case .update(_, let deletions, let insertions, let mods):
                #expect(deletions.isEmpty && insertions.isEmpty)
                modifications.append(mods)
            case .error(let error):
                Issue.record(error)
            }
        }
        realm.refresh()
        #expect(initial == 1)

        try realm.write { jane.name = "Jane Doe" }
        realm.refresh()
        try realm.write { jane.dogs.append(rex) }
        realm.refresh()
        try realm.write { rex.age = 2 }
        realm.refresh()
        try realm.write { jane.dogs.removeAll() }
        realm.refresh()
        // A dog no Person holds changes no Person.
        try realm.write { rex.age = 3 }
        realm.refresh()

        #expect(modifications == [[0], [0], [0], [0]])
        token.invalidate()
    }
}

/// Seed 002: `commitWrite(withoutNotifying:)` skips the given tokens, Realm
/// notifications included.
@Suite struct WithoutNotifyingTests {
    @Test func aSkippedRealmObserverIsNotCalledForThatCommit() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let skipped = SeedUpdatingViewController()
        let others = SeedUpdatingViewController()
        let skippedToken = realm.observe { _, _ in skipped.updateUI() }
        let otherToken = realm.observe { _, _ in others.updateUI() }
        realm.beginWrite()
        realm.add(Dog(value: ["name": "Rex"]))
        try realm.commitWrite(withoutNotifying: [skippedToken])
        realm.refresh()
        #expect(skipped.updates == 0)
        #expect(others.updates == 1)
        // The next commit reaches both.
        try realm.write { realm.add(Dog(value: ["name": "Fido"])) }
        realm.refresh()
        #expect(skipped.updates == 1)
        #expect(others.updates == 2)
        withExtendedLifetime([skippedToken, otherToken]) {}
    }
}

/// Seed 000, object notifications: setting a property to the value it
/// already has is a change too.
@Suite struct SameValueNotificationTests {
    @Test func settingTheSameValueNotifies() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let counter = StepCounter()
        try realm.write { realm.add(counter) }
        var names: [[String]] = []
        let token = counter.observe { change in
            if case .change(let properties) = change { names.append(properties.map(\.name)) }
        }
        try realm.write { counter.steps = 0 }
        realm.refresh()
        #expect(names == [["steps"]])
        // Collections hear of it as a modification too.
        var modifications: [[Int]] = []
        let collectionToken = realm.objects(StepCounter.self).observe { change in
            if case .update(_, _, _, let modified) = change { modifications.append(modified) }
        }
        realm.refresh()
        try realm.write { counter.steps = 0 }
        realm.refresh()
        #expect(modifications == [[0]])
        withExtendedLifetime([token, collectionToken]) {}
    }
}

/// `AnyRealmCollection.observe` and Realm Swift's `observe(keyPaths:on:_:)`.
@Suite struct ObservationSpellingTests {
    @Test func anyRealmCollectionAndTheKeyPathsOnSpelling() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let any = AnyRealmCollection(realm.objects(Dog.self))
        var kinds: [String] = []
        let token = any.observe { change in
            switch change {
            case .initial(let collection): kinds.append("initial \(collection.count)")
            case .update(let collection, _, let insertions, _): kinds.append("update \(collection.count) \(insertions)")
            case .error(let error): Issue.record(error)
            }
        }
        var spelled: [String] = []
        let spelledToken = realm.objects(Dog.self).observe(keyPaths: ["name"], on: nil) { change in
            if case .update(_, _, let insertions, _) = change { spelled.append("\(insertions)") }
        }
        realm.refresh()
        try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
        realm.refresh()
        #expect(kinds == ["initial 0", "update 1 [0]"])
        #expect(spelled == ["[0]"])

        let dog = realm.objects(Dog.self).first!
        var names: [String] = []
        let objectToken = dog.observe(keyPaths: ["name"], on: nil) { (change: ObjectChange<Dog>) in
            if case .change(let properties) = change { names += properties.map(\.name) }
        }
        try realm.write { dog.age = 5; dog.name = "Max" }
        realm.refresh()
        #expect(names == ["name"])
        withExtendedLifetime([token, spelledToken, objectToken]) {}
    }
}

/// Seed 000: "the initial results ... are delivered asynchronously", after
/// `observe` returns.
@Suite struct InitialDeliveryTests {
    @Test func initialArrivesAfterObserveReturns() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
        var initial: Int?
        let token = realm.objects(Dog.self).observe { change in
            if case .initial(let dogs) = change { initial = dogs.count }
        }
        #expect(initial == nil)
        // Another thread's commit before the delivery is part of `.initial`,
        // not an update.
        let configuration = realm.configuration
        let done = DispatchSemaphore(value: 0)
        Thread {
            let other = try! Realm(configuration: configuration)
            try! other.write { other.add(Dog(value: ["name": "Fido", "age": 2])) }
            done.signal()
        }.start()
        done.wait()
        #expect(initial == nil)
        realm.refresh()
        #expect(initial == 2)
        withExtendedLifetime(token) {}
    }

    @Test func initialArrivesOnTheRunLoop() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        var initial = false
        let token = realm.objects(Dog.self).observe { change in
            if case .initial = change { initial = true }
        }
        #expect(!initial)
        let deadline = Date().addingTimeInterval(120)
        while !initial && Date() < deadline {
            _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.05))
        }
        #expect(initial)
        withExtendedLifetime(token) {}
    }
}

/// `AnyRealmCollection` observed on a queue.
@Suite struct AnyCollectionQueueTests {
    @Test func anAnyRealmCollectionObservedOnAQueue() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let queue = DispatchQueue(label: "any-collection")
        let counts = Locked<[Int]>([])
        let initial = DispatchSemaphore(value: 0)
        let updated = DispatchSemaphore(value: 0)
        let token = AnyRealmCollection(realm.objects(Dog.self)).observe(keyPaths: nil, on: queue) { change in
            switch change {
            case .initial(let dogs): counts.value.append(dogs.count); initial.signal()
            case .update(let dogs, _, _, _): counts.value.append(dogs.count); updated.signal()
            case .error(let error): Issue.record(error)
            }
        }
        #expect(initial.wait(timeout: .now() + 120) == .success)
        try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
        #expect(updated.wait(timeout: .now() + 120) == .success)
        #expect(counts.value == [0, 1])
        token.invalidate()
    }
}
