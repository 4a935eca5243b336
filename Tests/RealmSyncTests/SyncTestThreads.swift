import Foundation
import Synchronization
import Testing

/// Threads of the sync tests' own, so that their servers and clients answer
/// in time however busy Swift's concurrency pool is.
///
/// `swift test` runs every suite of the package at once on a pool as wide as
/// the machine has cores: two, on CI. Tests elsewhere hold those threads for
/// minutes (a fuzzer, a child process waited for), and a server whose
/// request handler waits behind them misses its client's deadline (an
/// administrator's login once took 147 s). A task that prefers this executor
/// runs here, and so do the tasks it starts, the server's handlers among
/// them; the operating system shares the cores between these threads and the
/// pool's.
final class SyncTestThreads: TaskExecutor, Sendable {
    static let shared = SyncTestThreads(count: 4)

    private let jobs = Mutex<[UnownedJob]>([])
    private let waiting = DispatchSemaphore(value: 0)

    private init(count: Int) {
        for index in 0..<count {
            let thread = Thread { [unowned self] in self.serve() }
            thread.name = "sync-tests-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        waiting.signal()
    }

    /// Runs jobs as they come, forever: the executor lives as long as the
    /// test process.
    private func serve() -> Never {
        while true {
            waiting.wait()
            let job = jobs.withLock { $0.removeFirst() }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Runs each test of a suite, and the tasks it starts, on `SyncTestThreads`.
struct OnSyncTestThreads: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(SyncTestThreads.shared) { try await function() }
    }
}

extension Trait where Self == OnSyncTestThreads {
    /// Runs the suite's tests on the sync tests' own threads.
    static var onSyncTestThreads: Self { OnSyncTestThreads() }
}
