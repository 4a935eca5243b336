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
}
