import Foundation
import RealmCore
import RealmObjects
import RealmSync
import RealmSyncServer
import Synchronization
import Testing

extension SyncTests {
    /// Several server processes on one PostgreSQL database serve the same
    /// synced Realms (issue 37; Docs/SyncDesign.md, "Several server
    /// processes"): the database decides each Realm's history, each process
    /// keeps a copy, and hears of the others' changes.
    @Suite struct SharedHistory {
        typealias Synced = SyncTests.SyncedRealms

        /// Two servers on a new database; `configure` applies to both.
        static func twoServers(_ configure: @escaping (inout SyncServer.Configuration) -> Void = { _ in })
            async throws -> (database: String, first: TestServer, second: TestServer) {
            let database = try await PostgresCluster.shared().makeDatabase()
            let first = try await TestServer.start { $0.databaseURL = database; configure(&$0) }
            let second = try await TestServer.start { $0.databaseURL = database; configure(&$0) }
            return (database, first, second)
        }

        /// The server versions and client file identities of a server's copy
        /// of the Realm at `path`, in the order of its history.
        static func history(_ server: TestServer, _ path: String) async throws -> (versions: [UInt64], clients: [UInt64]) {
            try await history(dataDirectory: server.dataDirectory, path)
        }

        static func history(dataDirectory: URL, _ path: String) async throws -> (versions: [UInt64], clients: [UInt64]) {
            let file = dataDirectory.appendingPathComponent("realms" + path + ".realm").path
            return try await offloaded {
                let transaction = try Coordinator.open(.file(file)).makeTransaction()
                try transaction.refresh()
                let select = try transaction.queryStatement("SELECT server_version, client_file_ident FROM server_history ORDER BY server_version")
                defer { select.reset() }
                var versions: [UInt64] = []
                var clients: [UInt64] = []
                while try select.step() {
                    versions.append(UInt64(bitPattern: select.int64(at: 0)))
                    clients.append(UInt64(bitPattern: select.int64(at: 1)))
                }
                return (versions, clients)
            }
        }

        @Test func aChangeThroughOneProcessReachesClientsOfTheOther() async throws {
            try await TestClient.run {
                let (_, first, second) = try await Self.twoServers()
                defer { Task { await first.stop(); await second.stop() } }
                let alice = try await Synced.register("alice", on: first)
                let onFirst = Synced.configuration(alice, Synced.realmURL(first, "/~/tasks"))
                let onSecond = Synced.configuration(alice, Synced.realmURL(second, "/~/tasks"))
                #expect(try await Synced.tasks(onSecond).isEmpty)

                try await Synced.write(onFirst) { realm in realm.add(SyncTask(value: ["id": 1, "title": "through the first"])) }
                let firstSession = try #require(alice.session(for: Synced.realmURL(first, "/~/tasks")))
                let secondSession = try #require(alice.session(for: Synced.realmURL(second, "/~/tasks")))
                try await withDeadline("first to second") { try await Synced.sync(firstSession, to: secondSession) }
                #expect(try await Synced.tasks(onSecond) == ["1 through the first false []"])

                try await Synced.write(onSecond) { realm in realm.add(SyncTask(value: ["id": 2, "title": "through the second"])) }
                try await withDeadline("second to first") { try await Synced.sync(secondSession, to: firstSession) }
                #expect(try await Synced.tasks(onFirst) == ["1 through the first false []", "2 through the second false []"])

                // Both copies hold the database's history, in its order.
                let (firstHistory, secondHistory) = (try await Self.history(first, "/\(alice.identity!)/tasks"),
                                                     try await Self.history(second, "/\(alice.identity!)/tasks"))
                #expect(firstHistory.versions == Array(1...UInt64(firstHistory.versions.count)))
                #expect(firstHistory.versions == secondHistory.versions && firstHistory.clients == secondHistory.clients)
            }
        }

        /// Clients of both processes append to one list at once: every
        /// client ends with the same list, and both processes' copies with
        /// the same history, in one order.
        @Test func concurrentWritersThroughBothProcessesAgreeOnOneOrder() async throws {
            try await TestClient.run {
                let (_, first, second) = try await Self.twoServers()
                defer { Task { await first.stop(); await second.stop() } }
                var writers: [(user: SyncUser, url: URL)] = []
                for (index, name) in ["ana", "ben", "cai", "dee"].enumerated() {
                    let server = index % 2 == 0 ? first : second
                    writers.append((try await Synced.register(name, on: server), Synced.realmURL(server, "/shared/board")))
                }
                try await Synced.write(Synced.configuration(writers[0].user, writers[0].url)) { realm in
                    realm.add(SyncTask(value: ["id": 1, "title": "board"]))
                }
                try await #require(writers[0].user.session(for: writers[0].url)).waitForUpload()
                for writer in writers { _ = try await Synced.tasks(Synced.configuration(writer.user, writer.url)) }
                for writer in writers { try await #require(writer.user.session(for: writer.url)).waitForDownload() }

                try await withThrowingTaskGroup(of: Void.self) { group in
                    for writer in writers {
                        group.addTask {
                            let configuration = Synced.configuration(writer.user, writer.url)
                            for round in 0..<10 {
                                try await Synced.write(configuration) { realm in
                                    realm.object(ofType: SyncTask.self, forPrimaryKey: 1)!.tags.append("\(writer.user.identity!.prefix(4))-\(round)")
                                }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                for writer in writers { try await withDeadline("upload") { try await #require(writer.user.session(for: writer.url)).waitForUpload() } }
                for writer in writers { try await withDeadline("download") { try await #require(writer.user.session(for: writer.url)).waitForDownload() } }
                var lists: [[String]] = []
                for writer in writers { lists.append(try await Synced.tasks(Synced.configuration(writer.user, writer.url))) }
                #expect(Set(lists).count == 1, "every client has the same list: \(lists)")
                let (firstHistory, secondHistory) = (try await Self.history(first, "/shared/board"), try await Self.history(second, "/shared/board"))
                #expect(firstHistory.versions == Array(1...UInt64(firstHistory.versions.count)))
                #expect(firstHistory.clients.count >= 41, "a version per write, and the clients' schemas")
                #expect(firstHistory.versions == secondHistory.versions && firstHistory.clients == secondHistory.clients)
            }
        }

        /// A process that joins after the history was compacted builds its
        /// copy from the database's snapshot and the history after it.
        @Test func aProcessJoiningAfterCompactionStartsFromTheSnapshot() async throws {
            try await TestClient.run {
                let database = try await PostgresCluster.shared().makeDatabase()
                let compacting: (inout SyncServer.Configuration) -> Void = {
                    $0.databaseURL = database
                    $0.historyCompactionInterval = 4
                    $0.clientHistoryRetention = 0
                }
                let first = try await TestServer.start(compacting)
                defer { Task { await first.stop() } }
                let alice = try await Synced.register("alice", on: first)
                let url = Synced.realmURL(first, "/~/tasks")
                for id in 1...20 {
                    try await Synced.write(Synced.configuration(alice, url)) { realm in
                        try realm.add(SyncTask(value: ["id": id, "title": "task \(id)"]), update: .all)
                        if id > 1, id % 3 == 0 { realm.delete(realm.object(ofType: SyncTask.self, forPrimaryKey: id - 1)!) }
                    }
                    try await #require(alice.session(for: url)).waitForUpload()
                }
                let expected = try await Synced.tasks(Synced.configuration(alice, url))
                let compacted = try await Synced.historyExtent(first, "/\(alice.identity!)/tasks")
                #expect(compacted.compactedThrough > 0, "the first process compacted")

                let second = try await TestServer.start(compacting)
                defer { Task { await second.stop() } }
                let onSecond = Synced.configuration(alice, Synced.realmURL(second, "/~/tasks"))
                _ = try await Synced.tasks(onSecond)
                try await withDeadline("download from the second") {
                    try await #require(alice.session(for: Synced.realmURL(second, "/~/tasks"))).waitForDownload()
                }
                #expect(try await Synced.tasks(onSecond) == expected)
                let copy = try await Synced.historyExtent(second, "/\(alice.identity!)/tasks")
                #expect(copy.compactedThrough > 0 && copy.latest >= compacted.latest, "the copy starts past the compaction: \(copy), \(compacted)")

                // The second process writes on from its copy.
                try await Synced.write(onSecond) { realm in realm.add(SyncTask(value: ["id": 99, "title": "after"])) }
                try await withDeadline("second to first") {
                    try await Synced.sync(try #require(alice.session(for: Synced.realmURL(second, "/~/tasks"))),
                                          to: try #require(alice.session(for: url)))
                }
                #expect(try await Synced.tasks(Synced.configuration(alice, url)).last == "99 after false []")
            }
        }

        /// A permission changed through one process takes effect on
        /// sessions of the other, and on the permission Realm it serves.
        @Test func permissionChangesReachTheOtherProcess() async throws {
            try await TestClient.run {
                let (_, first, second) = try await Self.twoServers()
                defer { Task { await first.stop(); await second.stop() } }
                let alice = try await Synced.register("alice", on: first)
                let bob = try await Synced.register("bob", on: second)
                let (url, _) = try await AccessControl.aliceRealm(first, alice, "tasks")
                let bobsURL = URL(string: url.absoluteString.replacingOccurrences(of: ":\(first.server.port!)/", with: ":\(second.server.port!)/"))!
                let bobs = try await AccessControl.LivePermissions(bob)
                defer { bobs.stop() }

                try await alice.apply(SyncPermission(realmPath: url.path, identity: bob.identity!, accessLevel: .read))
                #expect(try await bobs.wait { $0.contains { $0.path == url.path && $0.accessLevel == .read } },
                        "bob's permission Realm, served by the second process, lists the grant made through the first")
                #expect(try await AccessControl.asyncOpenTasks(Synced.configuration(bob, bobsURL)) == ["1 alice's"])

                let errors = SessionErrors()
                defer { SyncManager.shared.errorHandler = nil }
                try await alice.apply(SyncPermission(realmPath: url.path, identity: bob.identity!, accessLevel: .none))
                let ended = try await errors.first { $0.code == .permissionDeniedError }
                #expect(ended != nil, "bob's session on the second process ends once he may not read")
            }
        }

        /// `realm server` as a child process on the database, killed with
        /// SIGKILL when the test says.
        struct ChildServer {
            let process: Process
            let url: URL
            var port: Int { url.port! }

            static func start(data: URL, database: String) async throws -> ChildServer {
                let process = Process()
                process.executableURL = try productExecutable("realm")
                process.arguments = ["server", "--port", "0", "--data", data.path, "--database", database, "--password-hash-cost", "4",
                                     "--log-level", "error"]
                let output = Pipe()
                process.standardOutput = output
                try process.run()
                let text = try await firstLine(of: output)
                guard let url = text.split(separator: "\n").first.flatMap({ URL(string: String($0.dropFirst("Listening on ".count))) }),
                      url.port != nil else {
                    process.terminate()
                    throw PostgresCluster.Failure(description: "the server printed '\(text)'")
                }
                return ChildServer(process: process, url: url)
            }

            func kill() async throws {
                _ = Foundation.kill(process.processIdentifier, SIGKILL)
                try await offloaded { process.waitUntilExit() }
            }

            func stop() async throws {
                process.terminate()
                try await offloaded { process.waitUntilExit() }
            }
        }

        /// Two `realm server` processes on one database behind a proxy
        /// standing for a load balancer. A client writes without pause; the
        /// process it uploads to is killed (SIGKILL) midway and the proxy
        /// sends it to the other. Every task it wrote reaches the other
        /// process and a reader there, every one acknowledged before the
        /// kill among them, and the killed process, started again, holds
        /// the same history in the same order.
        @Test func aProcessKilledMidUploadLosesNothingItAcknowledged() async throws {
            try await TestClient.run {
                let database = try await PostgresCluster.shared().makeDatabase()
                let (dataA, dataB) = (temporaryDirectory("shared-a"), temporaryDirectory("shared-b"))
                let first = try await ChildServer.start(data: dataA, database: database)
                let second = try await ChildServer.start(data: dataB, database: database)
                let proxy = try FaultProxy(targetPort: first.port, faults: .init())
                defer { proxy.stop() }
                let balanced = URL(string: "http://127.0.0.1:\(proxy.port)")!
                let writer = try await Synced.register("writer", on: balanced)
                let reader = try await Synced.register("reader", on: second.url)
                let writerURL = URL(string: "realm://127.0.0.1:\(proxy.port)/shared/killed")!
                let readerURL = URL(string: "realm://127.0.0.1:\(second.port)/shared/killed")!
                let writing = Synced.configuration(writer, writerURL)

                let acknowledged = Mutex(0)
                let written = Mutex(0)
                let total = 300
                let acknowledging = Task {
                    // What an acknowledgement covers: every task written
                    // before the wait began.
                    while !Task.isCancelled {
                        let target = written.withLock { $0 }
                        guard let session = writer.session(for: writerURL) else { try await Task.sleep(for: .milliseconds(10)); continue }
                        try? await withDeadline("an upload", seconds: 2) { try await session.waitForUpload() }
                        acknowledged.withLock { $0 = max($0, target) }
                        if target == total { return }
                        try await Task.sleep(for: .milliseconds(5))
                    }
                }
                var acknowledgedAtTheKill = 0
                for id in 1...total {
                    try await Synced.write(writing) { realm in realm.add(SyncTask(value: ["id": id, "title": "task \(id)"])) }
                    written.withLock { $0 = id }
                    if id == total / 2 {
                        acknowledgedAtTheKill = acknowledged.withLock { $0 }
                        try await first.kill()
                        proxy.retarget(to: second.port)
                        proxy.resetAll()
                    }
                    try await Task.sleep(for: .milliseconds(2))
                }
                try await withDeadline("the last upload", seconds: 60) { try await #require(writer.session(for: writerURL)).waitForUpload() }
                acknowledging.cancel()
                #expect(acknowledgedAtTheKill > 0, "some tasks were acknowledged before the kill")

                let expected = (1...total).map { "\($0) task \($0) false []" }.sorted()
                _ = try await Synced.tasks(Synced.configuration(reader, readerURL))
                try await withDeadline("the reader's download", seconds: 60) { try await #require(reader.session(for: readerURL)).waitForDownload() }
                #expect(try await Synced.tasks(Synced.configuration(reader, readerURL)).sorted() == expected)

                // The killed process, started again, catches up: one history.
                let again = try await ChildServer.start(data: dataA, database: database)
                let late = try await Synced.register("late", on: again.url)
                let lateURL = URL(string: "realm://127.0.0.1:\(again.port)/shared/killed")!
                _ = try await Synced.tasks(Synced.configuration(late, lateURL))
                try await withDeadline("the late download", seconds: 60) { try await #require(late.session(for: lateURL)).waitForDownload() }
                #expect(try await Synced.tasks(Synced.configuration(late, lateURL)).sorted() == expected)
                writer.logOut()
                reader.logOut()
                late.logOut()
                try await again.stop()
                try await second.stop()
                let (historyA, historyB) = (try await Self.history(dataDirectory: dataA, "/shared/killed"),
                                            try await Self.history(dataDirectory: dataB, "/shared/killed"))
                #expect(historyA.versions == Array(1...UInt64(historyA.versions.count)))
                #expect(historyA.versions == historyB.versions && historyA.clients == historyB.clients)
            }
        }
    }
}
