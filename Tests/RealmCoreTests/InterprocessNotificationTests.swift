import Foundation
import RealmCore
import Testing

/// Commits by another process reach this process's commit listeners
/// through the Realm's notification pipes, without polling.
@Suite(.serialized) struct InterprocessNotificationTests {
    @Test func anotherProcessesCommitsWakeListeners() throws {
        let directory = TemporaryDirectory()
        let path = directory.path()
        let coordinator = try Coordinator.open(.file(path, schema: MultiProcessTests.schema))
        let start = try coordinator.makeTransaction().version
        let heard = Locked<[UInt64]>([])
        let arrived = DispatchSemaphore(value: 0)
        let listener = coordinator.addCommitListener { version in
            heard.value.append(version)
            if version >= start + 3 { arrived.signal() }
        }
        defer { coordinator.removeCommitListener(listener) }
        let helper = try HelperProcess(["append", path, "3"])
        helper.waitForExit()
        #expect(helper.process.terminationStatus == 0)
        #expect(arrived.wait(timeout: .now() + 120) == .success, "no wake-up from the other process")
        #expect(heard.value.last == start + 3)
        // Every pipe belongs to a live process: ours.
        let pipes = try FileManager.default.contentsOfDirectory(atPath: path + ".management").filter { $0.hasPrefix("note-") }
        #expect(pipes.count == 1)
    }
}
