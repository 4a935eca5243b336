import Foundation
import RealmObjects
import Testing

/// Seed 000 "Notifications": Realm, collection and object notifications,
/// coalescing, key-path filters, interface-driven writes, and delivery on
/// refresh and on a running run loop.
@Suite struct NotificationTests {
    final class StepCounter: Object {
        @Persisted var steps = 0
    }

    /// A link's old and new values in an object's change are objects of the
    /// model class, as Realm hands them out; a dynamic object's are dynamic.
    @Test func aChangedLinkIsAnObjectOfItsModelClass() throws {
        // Another model class named "Person", used first: the class comes
        // from Dog's declaration, not from the name (this test once failed
        // when another suite's Person had been reflected over first).
        _ = try Realm(configuration: inMemoryConfiguration(types: [NotificationSamples.Person.self]))
        let realm = try Realm(configuration: inMemoryConfiguration())
        let (ann, bob) = (Person(value: ["name": "Ann"]), Person(value: ["name": "Bob"]))
        let rex = Dog(value: ["name": "Rex", "owner": ann])
        try realm.write { realm.add([rex, bob]) }
        var owners: [(old: Any?, new: Any?)] = []
        let token = rex.observe { change in
            if case .change(let properties) = change, let owner = properties.properties.first(where: { $0.name == "owner" }) {
                owners.append((owner.oldValue, owner.newValue))
            }
        }
        var dynamicOwners: [Any?] = []
        let dynamicRex = try #require(realm.dynamicObjects("Dog").first)
        let dynamicToken = dynamicRex.observe { change in
            if case .change(let properties) = change { dynamicOwners += properties.properties.map(\.newValue) }
        }
        defer { token.invalidate(); dynamicToken.invalidate() }
        realm.refresh()
        // From another thread, so that the old value is known.
        let configuration = realm.configuration
        seedRunOnThread {
            let other = try! Realm(configuration: configuration)
            let dog = other.objects(Dog.self).first!
            try! other.write { dog.owner = other.objects(Person.self).filter("name == 'Bob'").first }
        }
        realm.refresh()
        #expect(owners.count == 1)
        #expect((owners.first?.old as? Person)?.name == "Ann")
        #expect((owners.first?.new as? Person)?.name == "Bob")
        #expect(dynamicOwners.first is DynamicObject)
    }

    /// Applies a collection change to an array the way a table view would.
    static func apply<T>(_ deletions: [Int], _ insertions: [Int], _ modifications: [Int] = [], to old: [T], new: [T]) -> [T] {
        var result = old
        for index in deletions.sorted(by: >) { result.remove(at: index) }
        for index in insertions.sorted() { result.insert(new[index], at: index) }
        for index in modifications { result[index] = new[index] }
        return result
    }

    /// What a names observer saw: the names at the last delivery, and each
    /// update's deletions, insertions and modifications.
    final class NamesLog {
        var names: [String] = []
        var updates: [(deletions: [Int], insertions: [Int], modifications: [Int])] = []
    }

    /// Observes the names of `results`, checking that every update's
    /// indices turn the previous names into the new ones, as a table view
    /// would apply them.
    static func observeNames<T: Object>(_ results: Results<T>, _ name: KeyPath<T, String>) -> (NotificationToken, NamesLog) {
        let log = NamesLog()
        let token = results.observe { change in
            switch change {
            case .initial(let collection):
                log.names = collection.map { $0[keyPath: name] }
            case .update(let collection, let deletions, let insertions, let modifications):
                let now = collection.map { $0[keyPath: name] }
                #expect(apply(deletions, insertions, modifications, to: log.names, new: now) == now)
                log.names = now
                log.updates.append((deletions, insertions, modifications))
            case .error(let error):
                Issue.record(error)
            }
        }
        // `.initial` arrives after `observe` returns: here, at the refresh
        // that stands for the app's run loop turning.
        results.realm?.refresh()
        return (token, log)
    }

    @Test func realmNotificationsAfterEveryCommit() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        var count = 0
        let token = realm.observe { notification, _ in
            if case .didChange = notification { count += 1 }
        }
        try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
        #expect(count == 1)
        // A commit on another thread arrives when this thread refreshes.
        let done = DispatchSemaphore(value: 0)
        Thread {
            let other = try! Realm(configuration: configuration)
            try! other.write { other.add(Dog(value: ["name": "Fido", "age": 2])) }
            done.signal()
        }.start()
        done.wait()
        realm.refresh()
        #expect(count == 2)
        token.invalidate()
        try realm.write { realm.add(Dog()) }
        #expect(count == 2)
    }

    @Test func collectionNotificationsReportIndices() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            for age in [1, 6, 7, 3, 9] { realm.add(Dog(value: ["name": "dog\(age)", "age": age])) }
        }
        let results = realm.objects(Dog.self).filter("age > 5").sorted(byKeyPath: "age")
        let (token, log) = Self.observeNames(results, \.name)
        #expect(log.names == ["dog6", "dog7", "dog9"])
        try realm.write {
            realm.add(Dog(value: ["name": "dog8", "age": 8]))                                   // enters at 2
            realm.objects(Dog.self).filter("age == 7").first!.age = 2          // leaves
            realm.objects(Dog.self).filter("age == 9").first!.name = "nine"    // modified
        }
        realm.refresh()
        #expect(log.updates.count == 1)
        #expect(log.updates.first?.deletions == [1])
        #expect(log.updates.first?.insertions == [1])
        #expect(log.updates.first?.modifications == [2])
        #expect(log.names == ["dog6", "dog8", "nine"])
        _ = token
    }

    @Test func modificationsOfLinkedObjectsCount() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let person = Person(value: ["name": "Jim", "dogs": [["name": "Rex", "age": 1]]])
        let other = Person(value: ["name": "Ann"])
        try realm.write { realm.add([person, other]) }
        let people = realm.objects(Person.self).sorted(byKeyPath: "name")  // Ann, Jim
        var modifications: [[Int]] = []
        let token = people.observe { change in
            if case .update(_, _, _, let modified) = change { modifications.append(modified) }
        }
        // The person's name; a dog added to their list; a dog's age.
        try realm.write { person.name = "Jimmy" }
        realm.refresh()
        try realm.write { person.dogs.append(Dog(value: ["name": "Fido", "age": 2])) }
        realm.refresh()
        try realm.write { person.dogs[0].age = 5 }
        realm.refresh()
        #expect(modifications == [[1], [1], [1]])
        // Narrowed to the name, the dog's age no longer counts.
        token.invalidate()
        var narrowed: [[Int]] = []
        let nameToken = people.observe(keyPaths: ["name"]) { change in
            if case .update(_, _, _, let modified) = change { narrowed.append(modified) }
        }
        try realm.write { person.dogs[0].age = 6 }
        realm.refresh()
        try realm.write { other.name = "Anna" }
        realm.refresh()
        #expect(narrowed == [[0]])
        _ = nameToken
    }

    @Test func listNotificationsWithDuplicates() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let person = Person(value: ["name": "Jim"])
        let rex = Dog(value: ["name": "Rex", "age": 1])
        try realm.write {
            realm.add(person)
            person.dogs.append(objectsIn: [rex, rex, Dog(value: ["name": "Fido", "age": 2])])
        }
        var previous: [String] = []
        let token = person.dogs.observe { change in
            switch change {
            case .initial(let list): previous = list.map(\.name)
            case .update(let list, let deletions, let insertions, _):
                let now = list.map(\.name)
                #expect(Self.apply(deletions, insertions, to: previous, new: now) == now)
                previous = now
            case .error(let error): Issue.record(error)
            }
        }
        try realm.write {
            person.dogs.remove(at: 0)
            person.dogs.insert(rex, at: 2)
            person.dogs.move(from: 0, to: 1)
        }
        realm.refresh()
        #expect(previous == person.dogs.map(\.name))
        _ = token
    }

    @Test func objectNotificationsWithOldAndNewValues() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let stepCounter = StepCounter()
        try realm.write { realm.add(stepCounter) }
        var seen: [(String, Int?, Int?)] = []
        var deleted = false
        var token: NotificationToken?
        token = stepCounter.observe { change in
            switch change {
            case .change(let properties):
                #expect(properties.object.isSameObject(as: stepCounter))
                for property in properties {
                    seen.append((property.name, property.oldValue as? Int, property.newValue as? Int))
                    if property.name == "steps" && property.newValue as! Int > 1000 {
                        token = nil  // invalidating from inside its own handler
                    }
                }
            case .deleted:
                deleted = true
            case .error(let error):
                Issue.record(error)
            }
        }
        try realm.write { stepCounter.steps = 500 }
        realm.refresh()
        try realm.write { stepCounter.steps = 1500 }
        realm.refresh()
        try realm.write { stepCounter.steps = 2000 }
        realm.refresh()
        #expect(seen.map(\.0) == ["steps", "steps"])
        // Local changes carry no old value, as in Realm.
        #expect(seen.map(\.1) == [nil, nil])
        #expect(seen.map(\.2) == [500, 1500])
        #expect(token == nil)

        let second = stepCounter.observe { change in
            if case .deleted = change { deleted = true }
        }
        try realm.write { realm.delete(stepCounter) }
        realm.refresh()
        #expect(deleted)
        _ = second
    }

    /// Changes committed by another thread's Realm carry their old values.
    @Test func oldValuesOfChangesFromAnotherThread() throws {
        let directory = TemporaryDirectory()
        let configuration = Realm.Configuration(fileURL: directory.file())
        let realm = try Realm(configuration: configuration)
        let stepCounter = StepCounter()
        try realm.write { realm.add(stepCounter) }
        var seen: [(Int?, Int?)] = []
        let token = stepCounter.observe { change in
            if case .change(let properties) = change {
                seen += properties.map { ($0.oldValue as? Int, $0.newValue as? Int) }
            }
        }
        // A thread of its own: `sync` on a queue may run on this one.
        let done = DispatchSemaphore(value: 0)
        Thread {
            let other = try! Realm(configuration: configuration)
            let counter = other.objects(StepCounter.self).first!
            try! other.write { counter.steps = 42 }
            done.signal()
        }.start()
        done.wait()
        realm.refresh()
        #expect(seen.count == 1)
        #expect(seen.first?.0 == 0 && seen.first?.1 == 42)
        withExtendedLifetime(token) {}
    }

    @Test func interfaceDrivenWritesSkipTheirToken() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let results = realm.objects(Dog.self)
        var skippedUpdates = 0
        var otherUpdates = 0
        let token = results.observe { change in
            if case .update = change { skippedUpdates += 1 }
        }
        let other = results.observe { change in
            if case .update = change { otherUpdates += 1 }
        }
        realm.beginWrite()
        realm.add(Dog(value: ["name": "Rex", "age": 1]))
        try realm.commitWrite(withoutNotifying: [token])
        realm.refresh()
        #expect(skippedUpdates == 0)
        #expect(otherUpdates == 1)
        // Later commits notify both again.
        try realm.write { realm.add(Dog(value: ["name": "Fido", "age": 2])) }
        realm.refresh()
        #expect(skippedUpdates == 1)
        #expect(otherUpdates == 2)
        // Realm 10's spelling: write(withoutNotifying:), on a list's
        // observer too.
        try realm.write(withoutNotifying: [token]) { realm.add(Dog(value: ["name": "Max", "age": 3])) }
        realm.refresh()
        #expect(skippedUpdates == 1)
        #expect(otherUpdates == 3)
        _ = other
    }

    @Test func writeWithoutNotifyingSkipsAListsObserver() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [Tally.self]))
        let tally = try realm.write { realm.create(Tally.self, value: ["id": 1]) }
        var updates: [[Int]] = []
        let token = tally.scores.observe { change in
            if case .update(_, _, let insertions, _) = change { updates.append(insertions) }
        }
        realm.refresh()
        try realm.write(withoutNotifying: [token]) { tally.scores.append(1) }
        realm.refresh()
        try realm.write { tally.scores.append(2) }
        realm.refresh()
        #expect(updates == [[1]])
        // A block that throws commits nothing, and stays silent.
        struct Refused: Error {}
        #expect(throws: Refused.self) { try realm.write(withoutNotifying: [token]) { tally.scores.append(3); throw Refused() } }
        #expect(Array(tally.scores) == [1, 2])
        withExtendedLifetime(token) {}
    }

    @Test func commitsAreCoalesced() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        let results = realm.objects(Dog.self)
        var updates: [[Int]] = []
        let token = results.observe { change in
            if case .update(_, _, let insertions, _) = change { updates.append(insertions) }
        }
        realm.refresh()  // delivers `.initial`
        let done = DispatchSemaphore(value: 0)
        Thread {
            let other = try! Realm(configuration: configuration)
            for index in 0..<3 { try! other.write { other.add(Dog(value: ["name": "dog\(index)", "age": index])) } }
            done.signal()
        }.start()
        done.wait()
        realm.refresh()
        #expect(updates == [[0, 1, 2]])
        _ = token
    }

    @Test func beginningAWriteInsideADeliveredHandlerIsRefused() async {
        await #expect(processExitsWith: .failure) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "exit-test-write-in-handler"))
            let token = realm.objects(Dog.self).observe { change in
                if case .update = change { realm.beginWrite() }
            }
            realm.refresh()  // delivers `.initial`
            let done = DispatchSemaphore(value: 0)
            Thread {
                let other = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "exit-test-write-in-handler"))
                try! other.write { other.add(Dog()) }
                done.signal()
            }.start()
            done.wait()
            realm.refresh()
            _ = token
        }
    }

    @Test func deliveryOnARunningRunLoop() throws {
        let configuration = inMemoryConfiguration()
        let anchor = try Realm(configuration: configuration)
        let received = Locked<[Int]>([])
        let registered = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            let realm = try! Realm(configuration: configuration)
            let token = realm.objects(Dog.self).observe { change in
                // The initial results are computed off this thread, and on
                // a loaded machine may already hold both dogs: then no
                // update follows, and the initial count is the last.
                switch change {
                case .initial(let results): received.value.append(results.count)
                case .update(let results, _, _, _): received.value.append(results.count)
                case .error: break
                }
            }
            registered.signal()
            // Run the loop until the second dog arrives (or time runs out).
            let deadline = Date().addingTimeInterval(120)
            while received.value.last != 2 && Date() < deadline {
                _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.1))
            }
            _ = token
            finished.signal()
        }
        thread.start()
        registered.wait()
        try anchor.write { anchor.add(Dog(value: ["name": "Rex", "age": 1])) }
        try anchor.write { anchor.add(Dog(value: ["name": "Fido", "age": 2])) }
        #expect(finished.wait(timeout: .now() + 120) == .success)
        #expect(received.value.last == 2)
    }

    /// Random writes on a filtered, sorted Results; after each commit the
    /// reported changes must turn the previous state into the new one.
    @Test func randomizedChangesTransformOldIntoNew() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        var seed: UInt64 = 0x5eed
        func random(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        try realm.write {
            for index in 0..<40 { realm.add(Dog(value: ["name": "d\(index)", "age": random(20)])) }
        }
        let results = realm.objects(Dog.self).filter("age >= 5").sorted(byKeyPath: "age")
        var previous: [String] = []
        var failures = 0
        let token = results.observe { change in
            switch change {
            case .initial(let collection):
                previous = collection.map(\.name)
            case .update(let collection, let deletions, let insertions, let modifications):
                let now = collection.map(\.name)
                if Self.apply(deletions, insertions, modifications, to: previous, new: now) != now { failures += 1 }
                if modifications.contains(where: { $0 >= now.count }) { failures += 1 }
                previous = now
            case .error:
                failures += 1
            }
        }
        var names = 40
        for _ in 0..<60 {
            try realm.write {
                let all = realm.objects(Dog.self)
                for _ in 0..<(1 + random(4)) {
                    switch random(3) {
                    case 0:
                        realm.add(Dog(value: ["name": "d\(names)", "age": random(20)]))
                        names += 1
                    case 1 where !all.isEmpty:
                        realm.delete(all[random(all.count)])
                    default:
                        if !all.isEmpty { all[random(all.count)].age = random(20) }
                    }
                }
            }
            realm.refresh()
            #expect(previous == results.map(\.name))
        }
        #expect(failures == 0)
        _ = token
    }

    /// Hundreds of random commits under a Results sorted by two keys: the
    /// changes must turn the previous (name, age) pairs into the new ones
    /// exactly, so a changed object that stays in place must be reported as
    /// modified. Bulk commits (past the maintained path's limit) and single
    /// edits alternate, and each state is checked against a fresh query.
    @Test func randomizedSortedResultsMatchARequery() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        var seed: UInt64 = 0xfeed
        func random(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        try realm.write {
            for _ in 0..<200 { realm.add(Dog(value: ["name": "d\(random(50))", "age": random(20)])) }
        }
        let results = realm.objects(Dog.self).filter("age >= 5 AND name != 'd7'")
            .sorted(by: [SortDescriptor(keyPath: "age"), SortDescriptor(keyPath: "name", ascending: false)])
        func pairs(_ collection: Results<Dog>) -> [String] { collection.map { "\($0.name):\($0.age)" } }
        var previous: [String] = []
        var failures: [String] = []
        let token = results.observe { change in
            switch change {
            case .initial(let collection):
                previous = pairs(collection)
            case .update(let collection, let deletions, let insertions, let modifications):
                let now = pairs(collection)
                let applied = Self.apply(deletions, insertions, modifications, to: previous, new: now)
                if applied != now { failures.append("\(deletions) \(insertions) \(modifications)") }
                previous = now
            case .error(let error):
                failures.append("\(error)")
            }
        }
        for round in 0..<300 {
            try realm.write {
                let all = realm.objects(Dog.self)
                let edits = round % 25 == 0 ? 60 : 1 + random(3)
                for _ in 0..<edits {
                    switch random(4) {
                    case 0:
                        realm.add(Dog(value: ["name": "d\(random(50))", "age": random(20)]))
                    case 1 where all.count > 50:
                        realm.delete(all[random(all.count)])
                    case 2:
                        all[random(all.count)].name = "d\(random(50))"
                    default:
                        all[random(all.count)].age = random(20)
                    }
                }
            }
            realm.refresh()
            #expect(previous == pairs(realm.objects(Dog.self).filter("age >= 5 AND name != 'd7'")
                .sorted(by: [SortDescriptor(keyPath: "age"), SortDescriptor(keyPath: "name", ascending: false)])))
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        _ = token
    }

    /// Hundreds of random inserts, removals, moves, swaps, replacements and
    /// edits on a list of objects (duplicates included): the changes must
    /// turn the previous elements (with their values) into the new ones.
    @Test func randomizedListChangesTransformOldIntoNew() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        var seed: UInt64 = 0x11a7
        func random(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        let owner = Person(value: ["name": "owner"])
        try realm.write {
            realm.add(owner)
            for index in 0..<30 { realm.add(Dog(value: ["name": "d\(index)", "age": index])) }
            owner.dogs.append(objectsIn: realm.objects(Dog.self).filter("age < 10"))
        }
        func describe(_ list: List<Dog>) -> [String] { list.map { "\($0.name):\($0.age)" } }
        var previous: [String] = []
        var failures: [String] = []
        let token = owner.dogs.observe { change in
            switch change {
            case .initial(let list):
                previous = describe(list)
            case .update(let list, let deletions, let insertions, let modifications):
                let now = describe(list)
                if Self.apply(deletions, insertions, modifications, to: previous, new: now) != now {
                    failures.append("\(deletions) \(insertions) \(modifications)")
                }
                previous = now
            case .error(let error):
                failures.append("\(error)")
            }
        }
        let dogs = realm.objects(Dog.self)
        for _ in 0..<300 {
            try realm.write {
                let list = owner.dogs
                for _ in 0..<(1 + random(3)) {
                    switch random(7) {
                    case 0:
                        list.insert(dogs[random(dogs.count)], at: random(list.count + 1))   // duplicates allowed
                    case 1 where list.count > 3:
                        list.remove(at: random(list.count))
                    case 2 where list.count > 1:
                        list.move(from: random(list.count), to: random(list.count))
                    case 3 where list.count > 1:
                        list.swapAt(random(list.count), random(list.count))
                    case 4 where !list.isEmpty:
                        list.replace(index: random(list.count), object: dogs[random(dogs.count)])
                    case 5:
                        dogs[random(dogs.count)].age = random(100)                          // edits through the list
                    default:
                        list.append(dogs[random(dogs.count)])
                    }
                }
            }
            realm.refresh()
            #expect(previous == describe(owner.dogs))
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        token.invalidate()
    }

    /// A token invalidated from inside its own handler hears nothing more,
    /// and the other registrations go on.
    @Test func tokensInvalidatedInsideTheirHandler() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        var selfStopping = 0
        var other = 0
        var token: NotificationToken?
        token = realm.objects(Dog.self).observe { change in
            guard case .update = change else { return }
            selfStopping += 1
            token?.invalidate()
        }
        let otherToken = realm.objects(Dog.self).observe { change in
            if case .update = change { other += 1 }
        }
        try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
        realm.refresh()
        try realm.write { realm.add(Dog(value: ["name": "Fido", "age": 2])) }
        realm.refresh()
        #expect(selfStopping == 1)
        #expect(other == 2)
        otherToken.invalidate()
    }
}

/// Delivery on a dispatch queue and through an asynchronous sequence.
@Suite struct QueueNotificationTests {
    /// A Realm confined to a queue whose last references go away on another
    /// thread while its queue delivers a notification (as a service's store
    /// does when it is released): the delivery keeps the Realm alive to its
    /// end, and the Realm then goes away on the queue.
    @Test func aRealmReleasedOffItsQueueDuringADelivery() throws {
        let configuration = inMemoryConfiguration()
        let writer = try Realm(configuration: configuration)
        for round in 0..<20 {
            let queue = DispatchQueue(label: "confined \(round)")
            let delivering = DispatchSemaphore(value: 0)
            let released = DispatchSemaphore(value: 0)
            var confined: Realm? = try queue.sync { try Realm(configuration: configuration, queue: queue) }
            var tokens: [NotificationToken]? = queue.sync {
                [
                    confined!.observe { notification, _ in
                        guard notification == .didChange else { return }
                        // The test thread lets go of the Realm now.
                        delivering.signal()
                        _ = released.wait(timeout: .now() + 30)
                    },
                    // Delivered after the Realm observers.
                    confined!.objects(Dog.self).observe { _ in },
                ]
            }
            try writer.write { writer.add(Dog(value: ["name": "dog \(round)", "age": round])) }
            #expect(delivering.wait(timeout: .now() + 60) == .success)
            tokens = nil
            confined = nil
            released.signal()
            queue.sync {}
            #expect(tokens == nil && confined == nil)
        }
        #expect(writer.objects(Dog.self).count == 20)
    }

    @Test func observingOnAQueue() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        let queue = DispatchQueue(label: "observer")
        let counts = Locked<[Int]>([])
        let second = DispatchSemaphore(value: 0)
        let initial = DispatchSemaphore(value: 0)
        let token = realm.objects(Dog.self).observe(on: queue) { change in
            switch change {
            case .initial(let results):
                counts.value.append(results.count)
                initial.signal()
            case .update(let results, _, _, _):
                // The collection belongs to the queue. (The two commits may
                // arrive in one coalesced update.)
                counts.value.append(results.count)
                if results.count == 2 { second.signal() }
            case .error(let error):
                Issue.record(error)
            }
        }
        // `.initial` arrives on the queue after registering.
        #expect(initial.wait(timeout: .now() + 120) == .success)
        try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
        try realm.write { realm.add(Dog(value: ["name": "Fido", "age": 2])) }
        #expect(second.wait(timeout: .now() + 120) == .success)
        #expect(counts.value.first == 0)
        #expect(counts.value.last == 2)
        token.invalidate()
    }

    @Test func changesAsAnAsyncSequence() async throws {
        let configuration = inMemoryConfiguration()
        let startWriting = DispatchSemaphore(value: 0)
        let writerDone = DispatchSemaphore(value: 0)
        // The writer keeps the in-memory Realm alive, and adds a dog once the
        // stream has delivered its initial state.
        Thread {
            let realm = try! Realm(configuration: configuration)
            try! realm.write { realm.add(Dog(value: ["name": "anchor", "age": 0])) }
            // No deadline: under CI's load (the model checks computing on
            // every core) the stream's first delivery has taken minutes, and
            // a writer that gave up failed the test. The test signals both
            // semaphores once it has read the stream, whatever happened.
            startWriting.wait()
            try! realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
            writerDone.wait()
        }.start()
        while (try realmOnThisThread(configuration).objects(Dog.self).count) == 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        let changes = try realmOnThisThread(configuration).objects(Dog.self).changes
        // Bounded: a missing notification fails the test instead of hanging.
        let collector = Task {
            var seen: [CollectionChangeSummary] = []
            for await change in changes {
                seen.append(change)
                if change.kind == .initial { startWriting.signal() }
                if change.kind != .initial { break }
            }
            return seen
        }
        // Only against a hang: a missing update fails the test after ten
        // minutes, well within CI's limit.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(600))
            collector.cancel()
        }
        let seen = await collector.value
        watchdog.cancel()
        startWriting.signal()
        writerDone.signal()
        #expect(seen.first?.kind == .initial)
        #expect(seen.first?.count == 1)
        #expect(seen.last?.kind == .update)
        #expect(seen.last?.insertions == [1])
        #expect(seen.last?.count == 2)
    }

    @Test func objectsObservedOnAQueue() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let dog = Dog(value: ["name": "Rex", "age": 1])
        try realm.write { realm.add(dog) }
        let queue = DispatchQueue(label: "object-observer")
        let reports = Locked<[String]>([])
        let deleted = DispatchSemaphore(value: 0)
        let renamed = DispatchSemaphore(value: 0)
        let token = dog.observe(on: queue) { change in
            switch change {
            case .change(let properties):
                // The object belongs to the queue.
                let object = properties.object
                reports.value.append(properties.map { "\($0.name):\($0.oldValue ?? "nil")->\($0.newValue ?? "nil")" }.joined(separator: ",") + "@\(object.age)")
                if object.name == "Max" { renamed.signal() }
            case .deleted:
                reports.value.append("deleted")
                deleted.signal()
            case .error(let error):
                Issue.record(error)
            }
        }
        // Committed before the queue registers, reported all the same.
        try realm.write { dog.age = 2 }
        queue.sync {}
        try realm.write { dog.name = "Max" }
        // A deletion coalesced with the rename would report only .deleted.
        #expect(renamed.wait(timeout: .now() + 120) == .success)
        try realm.write { realm.delete(dog) }
        #expect(deleted.wait(timeout: .now() + 120) == .success)
        let seen = reports.value
        #expect(seen.last == "deleted")
        // The two edits may arrive coalesced; together they say both.
        let edits = seen.dropLast().joined(separator: ";")
        #expect(edits.contains("age:1->2"))
        #expect(edits.contains("name:Rex->Max"))
        token.invalidate()
    }

    @Test func listsObservedOnAQueueAndAsASequence() async throws {
        let realm = try realmOnThisThread(inMemoryConfiguration())
        let owner = Person(value: ["name": "Tim"])
        try realm.write { realm.add(owner) }
        let queue = DispatchQueue(label: "list-observer")
        let counts = Locked<[Int]>([])
        let twoDogs = DispatchSemaphore(value: 0)
        let initial = DispatchSemaphore(value: 0)
        let token = owner.dogs.observe(on: queue) { change in
            switch change {
            case .initial(let list):
                counts.value.append(list.count)
                initial.signal()
            case .update(let list, _, let insertions, _):
                counts.value.append(list.count)
                #expect(!insertions.isEmpty)
                if list.count == 2 { twoDogs.signal() }
            case .error(let error):
                Issue.record(error)
            }
        }
        // `.initial` arrives on the queue after registering.
        #expect(initial.wait(timeout: .now() + 120) == .success)
        try realm.write { owner.dogs.append(Dog(value: ["name": "Rex", "age": 1])) }
        try realm.write { owner.dogs.append(Dog(value: ["name": "Fido", "age": 2])) }
        #expect(twoDogs.wait(timeout: .now() + 120) == .success)
        #expect(counts.value.first == 0)
        #expect(counts.value.last == 2)
        token.invalidate()

        // The same list as an asynchronous sequence.
        let changes = owner.dogs.changes
        let iterator = Task {
            var seen: [CollectionChangeSummary] = []
            for await change in changes {
                seen.append(change)
                if seen.count == 1 { break }
            }
            return seen
        }
        let seen = await iterator.value
        #expect(seen.first?.kind == .initial)
        #expect(seen.first?.count == 2)
    }
}
