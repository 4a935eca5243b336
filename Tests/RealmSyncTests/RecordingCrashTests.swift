import Foundation
import RealmCore
import RealmSync
import RealmSyncEngine
import RealmSyncWire
import Testing

extension SyncTests {
    /// A client killed at any moment keeps its data and its changesets
    /// together: every object in the file was created by a recorded
    /// changeset and not erased by one, and no instruction is left pending.
    @Suite struct RecordingCrash {
        @Test(arguments: [3, 11, 27, 64])
        func aKilledWriterLeavesDataAndChangesetsTogether(killAfter commits: Int) async throws {
            let helper = try productExecutable("RealmSyncTestHelper")
            let path = temporaryDirectory("crash").appendingPathComponent("recorded.realm").path
            let process = Process()
            process.executableURL = helper
            process.arguments = ["record", path]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let reader = output.fileHandleForReading
            try await offloaded {
                var seen = Data()
                while !String(decoding: seen, as: UTF8.self).contains("committed \(commits)\n") {
                    let chunk = reader.availableData
                    if chunk.isEmpty { break }
                    seen.append(chunk)
                }
            }
            // Mid-way through some later write, most likely.
            kill(process.processIdentifier, SIGKILL)
            try await offloaded { process.waitUntilExit() }

            // The file's own schema: the helper's workload made it.
            let coordinator = try Coordinator.open(.file(path))
            let transaction = try coordinator.makeTransaction()
            let history = try ChangesetRecorderTests.history(transaction)
            #expect(history.count >= commits)
            #expect(history.map(\.clientVersion) == Array(1...UInt64(history.count)), "no changeset lost or repeated")
            var created = Set<ObjectIdentity>()
            for changeset in history {
                for instruction in changeset.instructions {
                    switch instruction {
                    case .create("Dog", let identity): created.insert(identity)
                    case .erase("Dog", let identity): created.remove(identity)
                    default: break
                    }
                }
            }
            let dogs = try transaction.classHandle(named: "Dog")
            #expect(try transaction.count(of: dogs) == created.count, "every dog's creation, and only those, recorded")
            let named = try transaction.queryStatement("SELECT client, counter FROM sync_objects WHERE class = 'Dog'")
            var identities = Set<ObjectIdentity>()
            while try named.step() {
                identities.insert(.global(GlobalKey(client: UInt64(bitPattern: named.int64(at: 0)), counter: UInt64(bitPattern: named.int64(at: 1)))))
            }
            named.reset()
            #expect(identities == created)
        }
    }
}
