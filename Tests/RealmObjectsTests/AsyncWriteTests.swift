import Dispatch
import Foundation
import RealmObjects
import Testing

// Realm 10's asynchronous writes, on a queue-confined Realm and on a thread
// that runs its run loop.

final class AsyncWriteItem: Object {
    @Persisted var value = 0
}

@Suite struct AsyncWriteTests {
    private static func configuration() -> Realm.Configuration {
        inMemoryConfiguration("async-writes", types: [AsyncWriteItem.self])
    }

    @Test func queuedWritesRunInOrderOnTheRealmsQueueAndReportTheirCommits() throws {
        let queue = DispatchQueue(label: "async-writes")
        let configuration = Self.configuration()
        let done = DispatchSemaphore(value: 0)
        let log = SeedUnchecked(value: NSMutableArray())
        // Keeps the in-memory Realm alive between the queue's blocks.
        let kept = SeedUnchecked(value: NSMutableArray())
        queue.async {
            let realm = try! Realm(configuration: configuration, queue: queue)
            kept.value.add(realm)
            let first = realm.writeAsync {
                realm.create(AsyncWriteItem.self, value: ["value": 1])
            } onComplete: { error in
                log.value.add("first \(error == nil)")
            }
            realm.writeAsync {
                realm.create(AsyncWriteItem.self, value: ["value": 2])
            } onComplete: { error in
                log.value.add("second \(error == nil), \(realm.objects(AsyncWriteItem.self).count) items")
                done.signal()
            }
            let cancelled = realm.writeAsync { realm.create(AsyncWriteItem.self, value: ["value": 3]) }
            try! realm.cancelAsyncWrite(cancelled)
            log.value.add("queued \(first), pending \(realm.isPerformingAsynchronousWriteOperations), \(realm.objects(AsyncWriteItem.self).count) items")
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        queue.sync {}
        #expect(log.value as? [String] == ["queued 1, pending true, 0 items", "first true", "second true, 2 items"])
        queue.sync {
            let realm = try! Realm(configuration: configuration, queue: queue)
            #expect(!realm.isPerformingAsynchronousWriteOperations)
            #expect(realm.objects(AsyncWriteItem.self).map(\.value) == [1, 2])
        }
    }

    @Test func beginAsyncWriteLetsTheBlockCommitOrCancel() throws {
        let configuration = Self.configuration()
        let finished = DispatchSemaphore(value: 0)
        let results = SeedUnchecked(value: NSMutableArray())
        let thread = Thread {
            let realm = try! Realm(configuration: configuration)
            realm.beginAsyncWrite {
                realm.create(AsyncWriteItem.self, value: ["value": 10])
                realm.commitAsyncWrite { error in results.value.add("committed \(error == nil)") }
            }
            realm.beginAsyncWrite {
                realm.create(AsyncWriteItem.self, value: ["value": 20])
                realm.cancelWrite()
            }
            realm.writeAsync {
                results.value.add("items \(realm.objects(AsyncWriteItem.self).map(\.value))")
            }
            // The writes run from this thread's run loop.
            let deadline = Date().addingTimeInterval(10)
            while realm.isPerformingAsynchronousWriteOperations && Date() < deadline {
                RunLoop.current.run(until: Date().addingTimeInterval(0.01))
            }
            finished.signal()
        }
        thread.start()
        #expect(finished.wait(timeout: .now() + 15) == .success)
        #expect(results.value as? [String] == ["committed true", "items [10]"])
    }
}
