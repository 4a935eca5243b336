import Foundation
@testable import RealmObjects
import Testing

/// Collection changes are computed by the Realm's notification worker, off
/// the observing thread, which then only delivers them.
@Suite struct NotificationWorkerTests {
    @Test func changesArriveComputedOffTheObservingThread() throws {
        let configuration = inMemoryConfiguration()
        let anchor = try Realm(configuration: configuration)
        try anchor.write {
            for index in 0..<1_000 { anchor.add(Dog(value: ["name": "d\(index)", "age": index % 50])) }
        }
        let before = CollectionNotifier.deliveriesComputedOffThread.load(ordering: .relaxed)
        let received = Locked<[[Int]]>([])
        let registered = DispatchSemaphore(value: 0)
        let delivered = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            let realm = try! Realm(configuration: configuration)
            let token = realm.objects(Dog.self).filter("age >= 10").sorted(byKeyPath: "age").observe { change in
                if case .update(_, let deletions, let insertions, let modifications) = change {
                    received.value.append(deletions + [-1] + insertions + [-1] + modifications)
                    delivered.signal()
                }
                // `.initial` arrives at the run loop's first turn: from then
                // on, every commit is an update.
                if case .initial = change { registered.signal() }
            }
            let deadline = Date().addingTimeInterval(120)
            while received.value.count < 5 && Date() < deadline {
                _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.05))
            }
            _ = token
            finished.signal()
        }
        thread.start()
        registered.wait()
        // One commit at a time, each waiting for its delivery, so that the
        // observing Realm reads the version the worker computed.
        for round in 0..<5 {
            try anchor.write { anchor.objects(Dog.self).filter("name == 'd\(round * 7)'").first!.age = 100 + round }
            #expect(delivered.wait(timeout: .now() + 120) == .success)
        }
        #expect(finished.wait(timeout: .now() + 120) == .success)
        #expect(received.value.count == 5)
        let offThread = CollectionNotifier.deliveriesComputedOffThread.load(ordering: .relaxed) - before
        #expect(offThread >= 5)
    }
}
