import Dispatch
import Foundation
import RealmObjects
import Testing

/// Runs an actor's jobs on a serial dispatch queue (Linux's Dispatch has
/// no `DispatchSerialQueue` executor).
final class QueueExecutor: SerialExecutor {
    let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Code running on the queue (a notification, say) is isolated to the
    /// actor, so `assumeIsolated` accepts it.
    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}

/// An actor whose executor is a serial dispatch queue can keep a Realm
/// confined to that queue and use it from its methods, and observe on it.
actor DogCounter {
    private let executor: QueueExecutor
    private let configuration: Realm.Configuration
    private var realm: Realm?
    private var token: NotificationToken?
    private(set) var counts: [Int] = []

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    init(configuration: Realm.Configuration) {
        executor = QueueExecutor(label: "dog-counter")
        self.configuration = configuration
    }

    /// The Realm of this actor's queue, opened on first use.
    private func openRealm() throws -> Realm {
        if let realm { return realm }
        let opened = try Realm(configuration: configuration, queue: executor.queue)
        realm = opened
        return opened
    }

    func startObserving() throws {
        let realm = try openRealm()
        token = realm.objects(Dog.self).observe { [weak self] change in
            // Delivered on the actor's queue, which is its executor.
            guard let self else { return }
            let count: Int
            switch change {
            case .initial(let dogs), .update(let dogs, _, _, _): count = dogs.count
            case .error: return
            }
            self.assumeIsolated { counter in counter.counts.append(count) }
        }
    }

    func addDog(named name: String) throws {
        let realm = try openRealm()
        try realm.write { realm.add(Dog(value: ["name": name, "age": 1])) }
    }

    func stop() {
        token?.invalidate()
        token = nil
    }
}

@Suite struct ActorTests {
    @Test func anActorOnAQueueExecutorUsesItsRealm() async throws {
        // A file, not an in-memory Realm: an async test moves between
        // threads, so it cannot keep a thread-confined Realm open.
        let directory = TemporaryDirectory()
        let configuration = Realm.Configuration(fileURL: directory.file())
        let counter = DogCounter(configuration: configuration)
        try await counter.startObserving()
        try await counter.addDog(named: "Rex")
        try Self.addDog(named: "Fido", configuration: configuration)
        // Delivery follows on the actor's queue.
        var counts: [Int] = []
        for _ in 0..<200 {
            counts = await counter.counts
            if counts.last == 2 { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(counts.first == 0)
        #expect(counts.last == 2)
        await counter.stop()
    }

    /// Writes from whatever thread runs the caller, opening and using the
    /// Realm without a suspension in between.
    private static func addDog(named name: String, configuration: Realm.Configuration) throws {
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.add(Dog(value: ["name": name, "age": 2])) }
    }
}
