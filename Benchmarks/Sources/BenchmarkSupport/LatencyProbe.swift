import Dispatch
import Synchronization

/// Connects a writer to an observer on another thread, for the
/// commit-to-callback latency workload.
///
/// The observer's callback calls ``observe(count:)`` with the number of
/// objects it sees; the writer, after starting a commit, waits in
/// ``waitUntilObserved(_:)`` for a callback that sees its object and gets
/// the instant of that callback. Waiting for each commit to be seen before
/// the next keeps notifications from being coalesced.
public final class LatencyProbe: Sendable {
    private struct State {
        var seenCount = -1
        var seenAt = ContinuousClock.now
        var callbacks = 0
    }

    private let state = Mutex(State())
    private let wakeUp = DispatchSemaphore(value: 0)

    public init() {}

    /// Records a callback that sees `count` objects; call it from the
    /// observer's callback.
    public func observe(count: Int) {
        let now = ContinuousClock.now
        state.withLock {
            $0.seenCount = count
            $0.seenAt = now
            $0.callbacks += 1
        }
        wakeUp.signal()
    }

    /// How many callbacks the observer made.
    public var callbacks: Int {
        state.withLock { $0.callbacks }
    }

    /// The number of objects the latest callback saw.
    public var seenCount: Int {
        state.withLock { $0.seenCount }
    }

    /// Waits for a callback that sees at least `count` objects and returns
    /// when it was made.
    ///
    /// - Throws: when no such callback comes within `timeout` seconds.
    public func waitUntilObserved(_ count: Int, timeout: Double = 30) throws -> ContinuousClock.Instant {
        while true {
            let seen: ContinuousClock.Instant? = state.withLock { $0.seenCount >= count ? $0.seenAt : nil }
            if let seen { return seen }
            guard wakeUp.wait(timeout: .now() + timeout) == .success else {
                throw BenchmarkError("The observer did not see object \(count) within \(Int(timeout)) s.")
            }
        }
    }
}
