import Foundation
import RealmObjects
import Testing

/// An actor that keeps a Realm isolated to itself.
actor DogKennel {
    let configuration: Realm.Configuration
    private var realm: Realm?
    private var token: NotificationToken?
    private(set) var deliveries: [Int] = []
    private(set) var pings = 0

    init(configuration: Realm.Configuration) {
        self.configuration = configuration
    }

    func open() async throws -> Realm {
        if let realm { return realm }
        let opened = try await Realm(configuration: configuration, actor: self)
        realm = opened
        return opened
    }

    func openAgainIsTheSame() async throws -> Bool {
        let first = try await open()
        let second = try await Realm.open(configuration: configuration)
        return first == second
    }

    func addDog(_ name: String) async throws {
        let realm = try await open()
        try await realm.asyncWrite {
            realm.add(Dog(value: ["name": name, "age": 1]))
        }
    }

    func addDogSynchronously(_ name: String) async throws {
        let realm = try await open()
        try realm.write { realm.add(Dog(value: ["name": name, "age": 2])) }
    }

    func count() async throws -> Int {
        try await open().objects(Dog.self).count
    }

    func refreshAndCount() async throws -> (Bool, Int) {
        let realm = try await open()
        let moved = await realm.asyncRefresh()
        return (moved, realm.objects(Dog.self).count)
    }

    func startObserving() async throws {
        let realm = try await open()
        token = realm.objects(Dog.self).observe { [weak self] change in
            guard let self else { return }
            let count: Int
            switch change {
            case .initial(let dogs), .update(let dogs, _, _, _): count = dogs.count
            case .error: return
            }
            // Stops unless the notification runs on this actor.
            self.assumeIsolated { $0.deliveries.append(count) }
        }
    }

    func stopObserving() {
        token?.invalidate()
        token = nil
    }

    func ping() {
        pings += 1
    }

    /// A write whose block throws: nothing is written.
    func failingWrite() async throws -> Int {
        struct Refused: Error {}
        let realm = try await open()
        do {
            try await realm.asyncWrite {
                realm.add(Dog(value: ["name": "never", "age": 9]))
                throw Refused()
            }
        } catch is Refused {}
        return realm.objects(Dog.self).filter("name == 'never'").count
    }

    /// The Realm, smuggled out of the actor (for the test that shows
    /// using it elsewhere stops).
    func leakedRealm() async throws -> SeedUnchecked<Realm> {
        SeedUnchecked(value: try await open())
    }

    func close() {
        token?.invalidate()
        realm = nil
    }
}

/// An actor that opens a Realm of its current thread (not isolated to the
/// actor) and tries `asyncWrite` on it.
actor Bystander {
    func writeToAThreadsRealm() async {
        let realm = try! realmOnThisThread(Realm.Configuration(inMemoryIdentifier: "thread"))
        _ = try? await realm.asyncWrite {}
    }
}

/// Collects what notifications delivered on it saw.
actor ChangeLog {
    private(set) var counts: [Int] = []
    private(set) var names: [String] = []

    func record(_ change: RealmCollectionChange<Results<Dog>>) {
        if case .initial(let dogs) = change { counts.append(dogs.count) }
        if case .update(let dogs, _, _, _) = change { counts.append(dogs.count) }
    }

    func record(_ change: ObjectChange<Dog>) {
        if case .change(let properties) = change { names.append(properties.object.name) }
        if case .deleted = change { names.append("deleted") }
    }
}

/// An actor whose Realm's results and object another actor observes.
actor DogSource {
    let configuration: Realm.Configuration
    private var tokens: [NotificationToken] = []

    init(configuration: Realm.Configuration) {
        self.configuration = configuration
    }

    func observe(on log: ChangeLog) async throws {
        let realm = try await Realm(configuration: configuration, actor: self)
        let dog = try await realm.asyncWrite { realm.create(Dog.self, value: ["name": "Rex", "age": 1]) }
        tokens.append(await realm.objects(Dog.self).observe(on: log) { log, change in log.record(change) })
        tokens.append(await dog.observe(keyPaths: ["name"], on: log) { log, change in log.record(change) })
    }

    func stop() {
        for token in tokens { token.invalidate() }
        tokens = []
    }
}

/// An actor that begins a synchronous write while its asyncWrite waits
/// for the lock another thread holds.
actor WriteMixer {
    func run() async {
        let configuration = Realm.Configuration(inMemoryIdentifier: "mixer")
        let realm = try! await Realm(configuration: configuration, actor: self)
        let writing = DispatchSemaphore(value: 0)
        Thread {
            let other = try! Realm(configuration: configuration)
            other.beginWrite()
            writing.signal()
            Thread.sleep(forTimeInterval: 30)
            other.cancelWrite()
        }.start()
        writing.wait()
        Task { await self.writeAsynchronously(realm) }
        for _ in 0..<20 { await Task.yield() }
        try? realm.write { }
    }

    private func writeAsynchronously(_ realm: Realm) async {
        try? await realm.asyncWrite { }
    }
}

/// Realms isolated to actors: opened without blocking, written with
/// `asyncWrite`, refreshed with `asyncRefresh`, notified on the actor.
@Suite struct ActorRealmTests {
    @Test func anActorOpensWritesAndReadsItsRealm() async throws {
        let kennel = DogKennel(configuration: inMemoryConfiguration())
        try await kennel.addDog("Rex")
        try await kennel.addDogSynchronously("Fido")
        #expect(try await kennel.count() == 2)
        #expect(try await kennel.openAgainIsTheSame())
        #expect(try await kennel.failingWrite() == 0)
        await kennel.close()
    }

    @Test func notificationsRunOnTheActor() async throws {
        let configuration = inMemoryConfiguration()
        let keepAlive = try realmOnThisThread(configuration)
        let kennel = DogKennel(configuration: configuration)
        try await kennel.startObserving()
        try await kennel.addDog("Rex")
        // A commit from another thread reaches the actor too.
        seedRunOnThread {
            let realm = try! Realm(configuration: configuration)
            try! realm.write { realm.add(Dog(value: ["name": "Fido", "age": 3])) }
        }
        try await waitUntil { await kennel.deliveries.last == 2 }
        let deliveries = await kennel.deliveries
        #expect(deliveries.first == 0)
        #expect(deliveries.last == 2)
        await kennel.stopObserving()
        withExtendedLifetime(keepAlive) {}
    }

    @Test func asyncRefreshSeesOtherThreadsCommits() async throws {
        let configuration = inMemoryConfiguration()
        let keepAlive = try realmOnThisThread(configuration)
        let kennel = DogKennel(configuration: configuration)
        #expect(try await kennel.count() == 0)
        seedRunOnThread {
            let realm = try! Realm(configuration: configuration)
            try! realm.write { realm.add(Dog(value: ["name": "Fido", "age": 3])) }
        }
        let (moved, count) = try await kennel.refreshAndCount()
        // Not moved when the actor's autorefresh, told of the commit, came
        // first: it is current either way.
        #expect(count == 1, "moved: \(moved)")
        withExtendedLifetime(keepAlive) {}
    }

    /// While another thread writes, `asyncWrite` waits with the actor free
    /// to run other work, then writes.
    @Test func asyncWriteWaitsWithoutBlockingTheActor() async throws {
        let directory = TemporaryDirectory()
        let configuration = Realm.Configuration(fileURL: directory.file())
        let kennel = DogKennel(configuration: configuration)
        #expect(try await kennel.count() == 0)

        let writing = DispatchSemaphore(value: 0)
        let finish = DispatchSemaphore(value: 0)
        let writer = Thread {
            let realm = try! Realm(configuration: configuration)
            realm.beginWrite()
            realm.add(Dog(value: ["name": "first", "age": 1]))
            writing.signal()
            finish.wait()
            try! realm.commitWrite()
        }
        writer.start()
        writing.wait()

        let write = Task { try await kennel.addDog("second") }
        // The actor answers while its write waits for the lock.
        for _ in 0..<20 {
            await kennel.ping()
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(await kennel.pings == 20)
        #expect(try await kennel.count() == 0)
        finish.signal()
        try await write.value
        #expect(try await kennel.count() == 2)
    }

    @Test func aCancelledAsyncWriteWritesNothing() async throws {
        let directory = TemporaryDirectory()
        let configuration = Realm.Configuration(fileURL: directory.file())
        let kennel = DogKennel(configuration: configuration)
        _ = try await kennel.count()
        let writing = DispatchSemaphore(value: 0)
        let finish = DispatchSemaphore(value: 0)
        Thread {
            let realm = try! Realm(configuration: configuration)
            realm.beginWrite()
            writing.signal()
            finish.wait()
            realm.cancelWrite()
        }.start()
        writing.wait()
        let write = Task { try await kennel.addDog("cancelled") }
        try await Task.sleep(for: .milliseconds(20))
        write.cancel()
        finish.signal()
        await #expect(throws: CancellationError.self) { try await write.value }
        #expect(try await kennel.count() == 0)
        // The lock was given back: writing works.
        try await kennel.addDog("after")
        #expect(try await kennel.count() == 1)
    }

    @Test func collectionsAndObjectsObservedOnAnActor() async throws {
        let configuration = inMemoryConfiguration()
        let source = DogSource(configuration: configuration)
        let log = ChangeLog()
        try await source.observe(on: log)
        // `.initial` reflects the Realm when it is delivered: a write before
        // that would be in it, as in Realm.
        try await waitUntil { await log.counts == [1] }
        seedRunOnThread {
            let realm = try! Realm(configuration: configuration)
            try! realm.write { realm.add(Dog(value: ["name": "Fido", "age": 2])) }
            try! realm.write { realm.objects(Dog.self).filter("name == 'Rex'").first!.name = "Max" }
        }
        try await waitUntil {
            let (counts, names) = (await log.counts, await log.names)
            return counts.last == 2 && names == ["Max"]
        }
        let counts = await log.counts, names = await log.names
        #expect(counts.first == 1 && counts.last == 2)
        #expect(names == ["Max"])
        await source.stop()
    }

    @Test func usingAnActorsRealmOutsideTheActorStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let kennel = DogKennel(configuration: Realm.Configuration(inMemoryIdentifier: "outside"))
            let realm = try! await kennel.leakedRealm()
            _ = realm.value.objects(Dog.self).count
        }
        #expect(seedStandardError(result).contains("Realm accessed from incorrect thread"))
        #expect(seedStandardError(result).contains("the actor DogKennel"))
    }

    @Test func asyncWriteOnAThreadsRealmStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await Bystander().writeToAThreadsRealm()
        }
        #expect(seedStandardError(result).contains("can only be called on main thread or actor-isolated Realms"))
    }

    @Test func aSynchronousWriteWhileAnAsyncWriteWaitsStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await WriteMixer().run()
        }
        #expect(seedStandardError(result).contains("while one of its asyncWrite calls waits for the write lock"))
    }

    @Test func openBehaviorOnceOnALocalRealm() async throws {
        let directory = TemporaryDirectory()
        let configuration = Realm.Configuration(fileURL: directory.file())
        let kennel = DogKennel(configuration: configuration)
        #expect(!Realm.fileExists(for: configuration))
        try await kennel.addDog("Rex")
        #expect(Realm.fileExists(for: configuration))
        await kennel.close()
    }
}
