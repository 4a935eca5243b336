import Foundation
@testable import RealmSync
import Synchronization
import Testing

/// The bounded queue between a connection's reader and its session.
@Suite struct MessageQueueTests {
    @Test func messagesArriveInOrderThenTheEnd() async throws {
        let queue = MessageQueue(capacity: 2)
        let producer = Task {
            for index in 0..<10 { await queue.push([UInt8(index)]) }
            queue.finish()
        }
        var received: [UInt8] = []
        for try await message in queue { received += message }
        await producer.value
        #expect(received == Array(0..<10))
    }

    @Test func aFullQueueHoldsItsProducerBack() async throws {
        let queue = MessageQueue(capacity: 2)
        let pushed = Atomic<Int>(0)
        let producer = Task {
            for index in 0..<5 {
                await queue.push([UInt8(index)])
                pushed.add(1, ordering: .relaxed)
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        #expect(pushed.load(ordering: .relaxed) == 2, "two fit; the third waits")
        #expect(queue.isFull)
        var iterator = queue.makeAsyncIterator()
        #expect(try await iterator.next() == [0])
        try await Task.sleep(for: .milliseconds(100))
        #expect(pushed.load(ordering: .relaxed) == 3)
        // Finishing releases a producer that waits for room.
        queue.finish(throwing: CancellationError())
        await producer.value
        #expect(try await iterator.next() == [1], "what was buffered still arrives")
        #expect(try await iterator.next() == [2])
        await #expect(throws: CancellationError.self) { _ = try await iterator.next() }
    }

    /// A large download keeps the queue from ever draining (the reader
    /// stays ahead); taken messages must still be let go of. An index into
    /// a growing array kept all of them until the queue emptied: the
    /// sawtooth of async open's memory, up to +45 MB for 1,000,000 objects.
    @Test func aQueueThatNeverDrainsLetsGoOfTakenMessages() async throws {
        let queue = MessageQueue(capacity: 3)
        for index in 0..<3 { await queue.push([UInt8(index)]) }
        var iterator = queue.makeAsyncIterator()
        for index in 3..<200 {
            #expect(try await iterator.next() == [UInt8((index - 3) % 256)])
            await queue.push([UInt8(index % 256)])
            #expect(queue.referencedMessages <= queue.capacity)
        }
        #expect(queue.referencedMessages == 3)
    }

    @Test func cancellingTheConsumerEndsTheQueue() async throws {
        let queue = MessageQueue(capacity: 2)
        let consumer = Task { () -> Bool in
            do {
                for try await _ in queue {}
                return false
            } catch {
                return error is CancellationError
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        consumer.cancel()
        #expect(await consumer.value, "the waiting consumer ends with CancellationError")
        await queue.push([1])  // dropped, and does not wait
    }

    /// A push that hands its message to the waiting consumer while the
    /// consumer is being cancelled: resuming the consumer under the
    /// queue's lock took the task's lock in the opposite order from the
    /// cancellation (which holds the task's lock and takes the queue's in
    /// its handler), and the two threads waited for each other for good.
    /// The randomized end-to-end test found it as a sync worker that never
    /// answered. Each round races the two on dedicated threads.
    @Test func aPushRacingTheConsumersCancellationDoesNotDeadlock() async throws {
        let rounds = 20_000
        let finished = Atomic<Int>(0)
        let race = Task(executorPreference: SyncTestThreads.shared) {
            for _ in 0..<rounds {
                let queue = MessageQueue(capacity: 4)
                let waiting = Atomic<Bool>(false)
                let consumer = Task(executorPreference: SyncTestThreads.shared) {
                    var iterator = queue.makeAsyncIterator()
                    waiting.store(true, ordering: .releasing)
                    _ = try? await iterator.next()
                }
                while !waiting.load(ordering: .acquiring) { await Task.yield() }
                async let cancel: Void = { consumer.cancel() }()
                await queue.push([1])
                await cancel
                await consumer.value
                finished.add(1, ordering: .relaxed)
            }
        }
        try await withDeadline("\(finished.load(ordering: .relaxed)) of \(rounds) rounds of a push racing a cancellation", seconds: 60) {
            await race.value
        }
    }
}
