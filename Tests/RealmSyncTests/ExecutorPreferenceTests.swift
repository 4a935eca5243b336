import Foundation
import RealmSync
import RealmSyncEngine
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

        @Test func aServerAnswersWhileEveryThreadOfTheGlobalPoolIsHeld() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let pool = GlobalPoolHold()
                defer { pool.release() }
                try #require(pool.holdEveryThread(within: 60), "the global pool's threads were all taken")
                let probe = Atomic<Bool>(false)
                Task.detached { probe.store(true, ordering: .releasing) }

                let user = try await SyncUser.logIn(with: .usernamePassword(username: "alice", password: "password", register: true),
                                                    server: server.url, timeout: 10)
                #expect(user.identity != nil)
                #expect(probe.load(ordering: .acquiring) == false, "the pool was held while the server answered")
            }
        }
    }
}

/// Holds every thread of Swift's global concurrent pool with blocked jobs
/// until released.
private final class GlobalPoolHold: Sendable {
    private let started = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)
    private let width = ProcessInfo.processInfo.activeProcessorCount

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

    func release() {
        for _ in 0..<width { gate.signal() }
    }
}
