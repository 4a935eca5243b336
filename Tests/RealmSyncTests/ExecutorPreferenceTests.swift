import Foundation
import RealmSync
import RealmSyncEngine
import RealmSyncServer
import Synchronization
import Testing

extension SyncTests {
    /// A server started by a task that prefers an executor of its own serves
    /// there, however busy Swift's global pool is: the sync tests depend on
    /// it, and so does an application that keeps its server off the pool.
    @Suite struct ExecutorPreference {
        @Test func anUnstructuredSyncTaskKeepsTheExecutorItWasStartedOn() async throws {
            let preferred = withUnsafeCurrentTask { $0?.unownedTaskExecutor }
            #expect(preferred != nil, "the sync tests run on SyncTestThreads")
            let inner = await Task.preferringCurrentExecutor { withUnsafeCurrentTask { $0?.unownedTaskExecutor } }.value
            #expect(inner == preferred)
            let plain = await Task { withUnsafeCurrentTask { $0?.unownedTaskExecutor } }.value
            #expect(plain == nil, "Task { } itself forgets the preference, which is why the helper exists")
        }

        /// In a child process of its own: holding every thread of the
        /// pool in the test process would starve the suites running beside
        /// it (it did, in CI, for a minute).
        @Test func aServerAnswersWhileEveryThreadOfTheGlobalPoolIsHeld() async {
            await #expect(processExitsWith: .success) {
                try await withTaskExecutorPreference(SyncTestThreads.shared) {
                    try await TestClient.run {
                        // Always on SQLite: the child is no place for a
                        // PostgreSQL cluster of its own.
                        var configuration = SyncServer.Configuration(dataDirectory: temporaryDirectory("pool-held"))
                        configuration.port = 0
                        configuration.passwordHashCost = 4
                        configuration.logLevel = .error
                        let server = try await SyncServer(configuration: configuration)
                        try await server.start()
                        let pool = GlobalPoolHold()
                        defer { pool.release() }
                        guard pool.holdEveryThread(within: 60) else { throw GlobalPoolHold.NotHeld() }
                        let probe = Atomic<Bool>(false)
                        Task.detached { probe.store(true, ordering: .releasing) }

                        let user = try await SyncUser.logIn(with: .usernamePassword(username: "alice", password: "password", register: true),
                                                            server: try #require(server.url), timeout: 10)
                        guard user.identity != nil, !probe.load(ordering: .acquiring) else { throw GlobalPoolHold.NotHeld() }
                        pool.release()
                        await server.stop()
                    }
                }
            }
        }
    }
}

/// Holds every thread of Swift's global concurrent pool with blocked jobs
/// until released.
private final class GlobalPoolHold: Sendable {
    struct NotHeld: Error {}

    private let started = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)
    private let width = ProcessInfo.processInfo.activeProcessorCount
    private let released = Atomic<Bool>(false)

    /// Blocks as many jobs as the pool has threads; false if they did not
    /// all start within `seconds` (other suites' work runs first).
    func holdEveryThread(within seconds: Double) -> Bool {
        for _ in 0..<width {
            Task.detached { [started, gate] in
                started.signal()
                gate.wait()
            }
        }
        for _ in 0..<width where started.wait(timeout: .now() + seconds) == .timedOut { return false }
        return true
    }

    /// Lets the held jobs go (once; later calls do nothing).
    func release() {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for _ in 0..<width { gate.signal() }
    }
}
