import Synchronization

/// An `async` wait on a callback that honours its task's cancellation:
/// whichever comes first, the callback or the cancellation, ends the wait,
/// and the other is then ignored.
///
/// A session's waits end when the server answers, which may be never while
/// it is out of reach; a caller that gives up (a time limit, a cancelled
/// task group) must not be left suspended.
enum CancellableWait {
    /// Runs `start`, handing it the function that ends the wait (with nil
    /// for success, or an error), and returns or throws once that is
    /// called, or throws `CancellationError` when the task is cancelled
    /// first.
    static func run(_ start: (@escaping @Sendable ((any Error)?) -> Void) -> Void) async throws {
        let wait = Pending()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                wait.begin(continuation)
                start { error in wait.end(error) }
            }
        } onCancel: {
            wait.end(CancellationError())
        }
    }

    /// The one continuation of a wait, resumed once.
    private final class Pending: Sendable {
        private enum State {
            case notStarted
            case waiting(CheckedContinuation<Void, any Error>)
            /// Ended before the continuation was there (cancelled at once),
            /// with nil for success.
            case endedEarly((any Error)?)
            case ended
        }

        private let state = Mutex<State>(.notStarted)

        func begin(_ continuation: CheckedContinuation<Void, any Error>) {
            let early = state.withLock { state -> (any Error)?? in
                if case .endedEarly(let error) = state {
                    state = .ended
                    return .some(error)
                }
                state = .waiting(continuation)
                return nil
            }
            switch early {
            case nil: break
            case .some(nil): continuation.resume()
            case .some(.some(let error)): continuation.resume(throwing: error)
            }
        }

        func end(_ error: (any Error)?) {
            let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                switch state {
                case .notStarted:
                    state = .endedEarly(error)
                    return nil
                case .waiting(let continuation):
                    state = .ended
                    return continuation
                case .endedEarly, .ended:
                    return nil
                }
            }
            guard let continuation else { return }
            if let error { continuation.resume(throwing: error) } else { continuation.resume() }
        }
    }
}
