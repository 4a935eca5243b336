import Synchronization

/// The messages a connection received and its session has not handled
/// yet, at most ``capacity`` of them: when the session falls behind (a
/// large download being integrated), the connection stops reading, and
/// TCP holds the rest back, so a download's memory stays bounded.
///
/// One task pushes (the connection's reader), one task iterates (the
/// session); ``finish(throwing:)`` ends both, the first call winning.
///
/// No continuation is resumed while the lock is held: resuming one takes
/// its task's status lock, and cancelling the consumer holds that lock
/// while the cancellation handler takes this one.
final class MessageQueue: AsyncSequence, Sendable {
    typealias Element = [UInt8]

    private struct State {
        /// At most `capacity` messages, so taking from the front is cheap;
        /// a taken message must not stay referenced here (an index into a
        /// growing array kept every message of a large download alive
        /// until the queue happened to drain).
        var buffered: [[UInt8]] = []
        /// Set once: nil to end normally, or the error to end with.
        var ending: (any Error)?? = .none
        var consumer: CheckedContinuation<[UInt8]?, any Error>?
        var producer: CheckedContinuation<Void, Never>?

        var count: Int { buffered.count }
    }

    let capacity: Int
    private let state = Mutex(State())
    /// Called each time the session takes a message.
    private let onTake: @Sendable () -> Void

    init(capacity: Int, onTake: @escaping @Sendable () -> Void = {}) {
        self.capacity = capacity
        self.onTake = onTake
    }

    /// Whether the queue is full, so that its reader is waiting.
    var isFull: Bool { state.withLock { $0.count >= capacity } }

    /// How many messages the queue references: never more than
    /// ``capacity``, however long the reader stays ahead of the session.
    var referencedMessages: Int { state.withLock { $0.buffered.count } }

    /// Adds a message, waiting while the queue is full; dropped once the
    /// queue has finished.
    func push(_ message: [UInt8]) async {
        while true {
            let (waitForRoom, consumer) = state.withLock { state -> (Bool, CheckedContinuation<[UInt8]?, any Error>?) in
                if case .some = state.ending { return (false, nil) }
                if let consumer = state.consumer {
                    state.consumer = nil
                    return (false, consumer)
                }
                guard state.count < capacity else { return (true, nil) }
                state.buffered.append(message)
                return (false, nil)
            }
            // Resumed outside the lock: resuming takes the task's own lock,
            // which a cancellation holds while its handler (`finish`) takes
            // this one.
            consumer?.resume(returning: message)
            guard waitForRoom else { return }
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if case .some = state.ending { return true }
                    if state.count < capacity { return true }
                    state.producer = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
    }

    /// Ends the queue: the session gets what is buffered, then the end
    /// (or `error`).
    func finish(throwing error: (any Error)? = nil) {
        let (consumer, producer) = state.withLock { state -> (CheckedContinuation<[UInt8]?, any Error>?, CheckedContinuation<Void, Never>?) in
            guard case .none = state.ending else { return (nil, nil) }
            state.ending = .some(error)
            defer { state.consumer = nil; state.producer = nil }
            return (state.consumer, state.producer)
        }
        producer?.resume()
        if let consumer {
            if let error { consumer.resume(throwing: error) } else { consumer.resume(returning: nil) }
        }
    }

    private func take() async throws -> [UInt8]? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8]?, any Error>) in
                let (outcome, producer) = state.withLock { state -> (Result<[UInt8]?, any Error>?, CheckedContinuation<Void, Never>?) in
                    if state.count > 0 {
                        let message = state.buffered.removeFirst()
                        defer { state.producer = nil }
                        return (.success(message), state.producer)
                    }
                    if case .some(let ending) = state.ending {
                        return (ending.map { .failure($0) } ?? .success(nil), nil)
                    }
                    state.consumer = continuation
                    return (nil, nil)
                }
                // Both resumed outside the lock (see `push`).
                producer?.resume()
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            finish(throwing: CancellationError())
        }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let queue: MessageQueue

        mutating func next() async throws -> [UInt8]? {
            let message = try await queue.take()
            if message != nil { queue.onTake() }
            return message
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(queue: self)
    }
}
