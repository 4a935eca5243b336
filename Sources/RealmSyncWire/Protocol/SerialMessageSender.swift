/// Sends a connection's messages one at a time, in the order asked: a
/// message that travels as several WebSocket frames must not interleave
/// with another, and several tasks (the sessions, a reader, an uploader)
/// send on one connection. Client and server each give it their
/// transport's write.
public actor SerialMessageSender {
    private let write: @Sendable ([UInt8]) async throws -> Void
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// A sender writing each encoded message with `write`.
    public init(write: @escaping @Sendable ([UInt8]) async throws -> Void) {
        self.write = write
    }

    /// Sends `message` after the messages asked for before it.
    public func send(_ message: SyncMessage) async throws {
        while busy {
            await withCheckedContinuation { waiting.append($0) }
        }
        busy = true
        defer {
            busy = false
            if !waiting.isEmpty { waiting.removeFirst().resume() }
        }
        try await write(SyncMessageCoding.encode(message))
    }
}
