import Synchronization

/// Tells ``SyncServer/start()`` when its server listens, or that its run
/// ended before it did: set by the run's callbacks, awaited by `start`,
/// without polling (a poll's sleep needs a free thread of the cooperative
/// pool, which a busy server may not have for a while).
final class StartupSignal: Sendable {
    private struct State {
        var port = 0
        /// How the run ended, once it has.
        var ending: Result<Void, any Error>?
        var waiters: [CheckedContinuation<Int, any Error>] = []
    }

    private let state = Mutex(State())

    /// The port the server listens on, or 0 before it does.
    var port: Int { state.withLock { $0.port } }

    /// How the run ended, once it has.
    var ending: Result<Void, any Error>? { state.withLock { $0.ending } }

    /// The server listens on `port`.
    func listening(on port: Int) {
        let waiters = state.withLock { state in
            state.port = port
            defer { state.waiters = [] }
            return state.waiters
        }
        // Resumed outside the lock: resuming takes the waiting task's own
        // lock.
        for waiter in waiters { waiter.resume(returning: port) }
    }

    /// The run ended: with an error, or normally (stopped).
    func ended(_ result: Result<Void, any Error>) {
        let waiters = state.withLock { state in
            state.ending = result
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(throwing: Self.failure(result)) }
    }

    /// Returns the port once the server listens.
    ///
    /// - Throws: ``SyncServer/Error/startFailed(_:)`` when the run ends
    ///   first: a run that ends before listening could not bind.
    func waitForPort() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let outcome = state.withLock { state -> Result<Int, any Error>? in
                if state.port != 0 { return .success(state.port) }
                if let ending = state.ending { return .failure(Self.failure(ending)) }
                state.waiters.append(continuation)
                return nil
            }
            if let outcome { continuation.resume(with: outcome) }
        }
    }

    private static func failure(_ ending: Result<Void, any Error>) -> SyncServer.Error {
        if case .failure(let error) = ending { return .startFailed("\(error)") }
        return .startFailed("the server stopped before listening")
    }
}
