import Dispatch
import Foundation
import RealmCore
import RealmObjects
import RealmSync
import RealmSyncServer
import Synchronization
import Testing

/// A task list shared by the tests' users.
final class SyncTask: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var title = ""
    @Persisted var done = false
    let tags = List<String>()
}

/// Two models of one class name whose property types disagree: a
/// destructive schema change between clients.
enum GadgetV1 {
    final class Gadget: Object {
        @Persisted var size = 0
    }
}

enum GadgetV2 {
    final class Gadget: Object {
        @Persisted var size = ""
    }
}

/// Collects the `SyncError`s the sync error handler is given.
final class SessionErrors: Sendable {
    private let errors = Mutex<[SyncError]>([])

    init() {
        SyncManager.shared.errorHandler = { [self] error, _ in
            if let error = error as? SyncError { errors.withLock { $0.append(error) } }
        }
    }

    var all: [SyncError] { errors.withLock { $0 } }

    /// Waits up to `seconds` for an error matching `match`.
    func first(within seconds: Double = 10, where match: (SyncError) -> Bool) async throws -> SyncError? {
        try await poll(within: seconds) { all.first(where: match) }
    }
}

extension SyncTests {
    /// Synced Realms end to end: the real server on loopback, users logged
    /// in through it, Realms opened by URL (Docs/Sync.md, "Synced Realms").
    @Suite struct SyncedRealms {
        static func register(_ name: String, on server: TestServer) async throws -> SyncUser {
            try await register(name, on: server.url)
        }

        static func register(_ name: String, on server: URL) async throws -> SyncUser {
            try await SyncUser.logIn(with: .usernamePassword(username: name, password: "password", register: true), server: server)
        }

        static func realmURL(_ server: TestServer, _ path: String) -> URL {
            URL(string: "realm://127.0.0.1:\(server.server.port!)\(path)")!
        }

        static func configuration(_ user: SyncUser, _ url: URL) -> Realm.Configuration {
            Realm.Configuration(syncConfiguration: SyncConfiguration(user: user, realmURL: url), objectTypes: [SyncTask.self])
        }

        /// The tasks of a Realm, described, in primary-key order.
        static func tasks(_ configuration: Realm.Configuration) async throws -> [String] {
            try await offloaded {
                let realm = try Realm(configuration: configuration)
                return realm.objects(SyncTask.self).sorted(byKeyPath: "id").map { "\($0.id) \($0.title) \($0.done) \(Array($0.tags))" }
            }
        }

        static func write(_ configuration: Realm.Configuration, _ body: @escaping @Sendable (Realm) throws -> Void) async throws {
            try await offloaded {
                let realm = try Realm(configuration: configuration)
                try realm.write { try body(realm) }
            }
        }

        /// Uploads everything from `from`, then downloads it into `to`.
        static func sync(_ from: SyncSession, to: SyncSession) async throws {
            try await from.waitForUpload()
            try await to.waitForDownload()
        }

        /// One replica's side of an offline round: its session, its
        /// Realm, and what it writes.
        struct OfflineWrite {
            let session: SyncSession
            let configuration: Realm.Configuration
            let body: @Sendable (Realm) throws -> Void

            init(_ session: SyncSession, _ configuration: Realm.Configuration, _ body: @escaping @Sendable (Realm) throws -> Void) {
                (self.session, self.configuration, self.body) = (session, configuration, body)
            }
        }

        /// Takes both replicas offline, writes `first`, then `second` (a
        /// few milliseconds later, so that its stamps are newer), brings
        /// them back, and syncs `first`'s changes to `second` and back.
        static func offline(_ first: OfflineWrite, then second: OfflineWrite) async throws {
            first.session.suspend()
            second.session.suspend()
            try await write(first.configuration, first.body)
            try await Task.sleep(for: .milliseconds(5))
            try await write(second.configuration, second.body)
            first.session.resume()
            second.session.resume()
            try await sync(first.session, to: second.session)
            try await sync(second.session, to: first.session)
        }

        /// The newest server version of a synced Realm on `server`, and the
        /// last one compacted away, read from the server's file.
        static func historyExtent(_ server: TestServer, _ path: String) async throws -> (latest: UInt64, compactedThrough: UInt64) {
            let file = server.dataDirectory.appendingPathComponent("realms" + path + ".realm").path
            return try await offloaded {
                let transaction = try Coordinator.open(.file(file)).makeTransaction()
                let select = try transaction.queryStatement("SELECT latest_version, compacted_through FROM server_state")
                defer { select.reset() }
                _ = try select.step()
                return (UInt64(select.int64(at: 0)), UInt64(select.int64(at: 1)))
            }
        }

        @Test func aChangeOnOneDeviceReachesAnother() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let alice = try await Self.register("alice", on: server)
                let bob = try await Self.register("bob", on: server)
                let url = Self.realmURL(server, "/shared/tasks")
                let aliceConfig = Self.configuration(alice, url)
                let bobConfig = Self.configuration(bob, url)
                #expect(aliceConfig.fileURL != bobConfig.fileURL, "each user's copy is a file of its own")

                try await Self.write(aliceConfig) { realm in
                    let task = SyncTask()
                    task.id = 1
                    task.title = "Buy milk"
                    task.tags.append(objectsIn: ["home", "errand"])
                    realm.add(task)
                }
                _ = try await Self.tasks(bobConfig)
                let aliceSession = try #require(alice.session(for: url))
                let bobSession = try #require(bob.session(for: url))
                try await Self.sync(aliceSession, to: bobSession)
                #expect(try await Self.tasks(bobConfig) == ["1 Buy milk false [\"home\", \"errand\"]"])

                // And back: bob ticks it off, alice sees it.
                try await Self.write(bobConfig) { realm in realm.object(ofType: SyncTask.self, forPrimaryKey: 1)?.done = true }
                try await Self.sync(bobSession, to: aliceSession)
                #expect(try await Self.tasks(aliceConfig) == ["1 Buy milk true [\"home\", \"errand\"]"])
                #expect(aliceSession.state == .active && bobSession.state == .active)
                #expect(alice.allSessions().count == 1)
            }
        }

        @Test func changesFromTheServerFireFineGrainedNotifications() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let alice = try await Self.register("alice", on: server)
                let bob = try await Self.register("bob", on: server)
                let url = Self.realmURL(server, "/shared/notified")
                let aliceConfig = Self.configuration(alice, url)
                let bobConfig = Self.configuration(bob, url)
                try await Self.write(aliceConfig) { realm in
                    realm.add(SyncTask(value: ["id": 1, "title": "one"]))
                    realm.add(SyncTask(value: ["id": 3, "title": "three"]))
                }
                _ = try await Self.tasks(bobConfig)
                let aliceSession = try #require(alice.session(for: url))
                let bobSession = try #require(bob.session(for: url))
                try await Self.sync(aliceSession, to: bobSession)

                // Bob watches his tasks on a queue of his own.
                let queue = DispatchQueue(label: "bob")
                let updates = Mutex<[(deletions: [Int], insertions: [Int], modifications: [Int])]>([])
                let ready = DispatchSemaphore(value: 0)
                let token = try queue.sync {
                    let realm = try Realm(configuration: bobConfig, queue: queue)
                    return realm.objects(SyncTask.self).sorted(byKeyPath: "id").observe(on: queue) { change in
                        switch change {
                        case .initial: ready.signal()
                        case .update(_, let deletions, let insertions, let modifications):
                            updates.withLock { $0.append((deletions, insertions, modifications)) }
                        case .error(let error): Issue.record(error)
                        }
                    }
                }
                try await offloaded { _ = ready.wait(timeout: .now() + 10) }

                // Alice deletes 1, adds 2 and renames 3 in one write.
                try await Self.write(aliceConfig) { realm in
                    realm.delete(realm.object(ofType: SyncTask.self, forPrimaryKey: 1)!)
                    realm.add(SyncTask(value: ["id": 2, "title": "two"]))
                    realm.object(ofType: SyncTask.self, forPrimaryKey: 3)?.title = "THREE"
                }
                try await Self.sync(aliceSession, to: bobSession)
                let deadline = ContinuousClock.now + .seconds(10)
                while updates.withLock({ $0.isEmpty }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
                let update = try #require(updates.withLock { $0.first })
                #expect(update.deletions == [0], "task 1 was at 0")
                #expect(update.insertions == [0], "task 2 is at 0")
                #expect(update.modifications == [1], "task 3, renamed, is at 1")
                token.invalidate()
            }
        }

        @Test func concurrentEditsConvergeObjectByObject() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let alice = try await Self.register("alice", on: server)
                let bob = try await Self.register("bob", on: server)
                let url = Self.realmURL(server, "/shared/board")
                let aliceConfig = Self.configuration(alice, url)
                let bobConfig = Self.configuration(bob, url)
                _ = try await Self.tasks(aliceConfig)
                _ = try await Self.tasks(bobConfig)
                let aliceSession = try #require(alice.session(for: url))
                let bobSession = try #require(bob.session(for: url))
                aliceSession.suspend()
                bobSession.suspend()
                #expect(aliceSession.state == .inactive)

                // Offline, both create task 7 and edit it; alice makes one
                // more and bob deletes nothing.
                try await Self.write(aliceConfig) { realm in
                    realm.add(SyncTask(value: ["id": 7, "title": "from alice", "tags": ["a"]]))
                    realm.add(SyncTask(value: ["id": 8, "title": "only alice"]))
                }
                try await Self.write(bobConfig) { realm in
                    realm.add(SyncTask(value: ["id": 7, "title": "from bob", "tags": ["b"]]))
                }
                try await Task.sleep(for: .milliseconds(5))
                try await Self.write(bobConfig) { realm in realm.object(ofType: SyncTask.self, forPrimaryKey: 7)?.done = true }

                aliceSession.resume()
                bobSession.resume()
                try await Self.sync(aliceSession, to: bobSession)
                try await Self.sync(bobSession, to: aliceSession)
                let aliceTasks = try await Self.tasks(aliceConfig)
                #expect(aliceTasks == (try await Self.tasks(bobConfig)), "the replicas converge")
                #expect(aliceTasks.count == 2, "one task 7, not two")
                #expect(aliceTasks.first?.contains("from bob true") == true, "bob's later title wins, and his done flag")
                #expect(aliceTasks.first?.contains("\"a\"") == true && aliceTasks.first?.contains("\"b\"") == true,
                        "both list insertions survive")
            }
        }

        @Test func asyncOpenDownloadsEverythingFirst() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let alice = try await Self.register("alice", on: server)
                let bob = try await Self.register("bob", on: server)
                let url = Self.realmURL(server, "/shared/catalog")
                let aliceConfig = Self.configuration(alice, url)
                // About 1.3 MB in one transaction: the upload, and the state
                // Bob downloads, travel as several messages (at most 1 MiB)
                // of many WebSocket frames (at most 64 KiB).
                let padding = String(repeating: "x", count: 1_000)
                try await Self.write(aliceConfig) { realm in
                    for id in 1...1_200 { realm.add(SyncTask(value: ["id": id, "title": "item \(id) \(padding)"])) }
                }
                try await #require(alice.session(for: url)).waitForUpload()

                let bobConfig = Self.configuration(bob, url)
                let count: Int = try await withCheckedThrowingContinuation { continuation in
                    Realm.asyncOpen(configuration: bobConfig, callbackQueue: DispatchQueue(label: "open")) { result in
                        continuation.resume(with: result.map { $0.objects(SyncTask.self).count })
                    }
                }
                #expect(count == 1_200, "the Realm is handed out with the server's data in it")
            }
        }

        /// A state larger than one chunk the server reads (about 40,000
        /// instructions): read while sent, its last message names the
        /// version, and the estimated size ends exact.
        @Test func asyncOpenOfAStateReadInChunks() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let alice = try await Self.register("alice", on: server)
                let bob = try await Self.register("bob", on: server)
                let url = Self.realmURL(server, "/shared/large")
                try await Self.write(Self.configuration(alice, url)) { realm in
                    for id in 1...15_000 { realm.add(SyncTask(value: ["id": id, "title": "item \(id)"])) }
                }
                try await #require(alice.session(for: url)).waitForUpload()

                let progress = Mutex<[SyncSession.Progress]>([])
                let bobConfig = Self.configuration(bob, url)
                let queue = DispatchQueue(label: "progress")
                // Opening starts the session; the state is on its way.
                try await offloaded { _ = try Realm(configuration: bobConfig) }
                let token = try #require(bob.session(for: url)).addProgressNotification(for: .download, queue: queue) { report in
                    progress.withLock { $0.append(report) }
                }
                let count: Int = try await withCheckedThrowingContinuation { continuation in
                    Realm.asyncOpen(configuration: bobConfig, callbackQueue: DispatchQueue(label: "open")) { result in
                        continuation.resume(with: result.map { $0.objects(SyncTask.self).count })
                    }
                }
                queue.sync {}
                token?.invalidate()
                #expect(count == 15_000)
                let reports = progress.withLock { $0 }
                #expect(reports.allSatisfy { $0.transferredBytes <= $0.transferrableBytes }, "never more done than to do")
                #expect(reports.last?.isTransferComplete == true, "complete at the end: \(reports.suffix(3))")
            }
        }

        /// Opens with the `async` variant, on the main actor, as an app
        /// would; returns the tasks it finds.
        @MainActor static func countOpenedAsynchronously(_ configuration: Realm.Configuration) async throws -> Int {
            let realm = try await Realm.asyncOpen(configuration: configuration)
            return realm.objects(SyncTask.self).count
        }

        @Test func asyncOpenAsAnAsyncFunction() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let alice = try await Self.register("alice", on: server)
                let bob = try await Self.register("bob", on: server)
                let url = Self.realmURL(server, "/shared/awaited")
                try await Self.write(Self.configuration(alice, url)) { realm in
                    for id in 1...20 { realm.add(SyncTask(value: ["id": id, "title": "item \(id)"])) }
                }
                try await #require(alice.session(for: url)).waitForUpload()
                #expect(try await Self.countOpenedAsynchronously(Self.configuration(bob, url)) == 20)
            }
        }

        /// Seed 001, "Logging out": "Any pending local changes will continue
        /// to be uploaded until the Realm Object Server has been fully
        /// synchronized."
        @Test func changesWrittenBeforeLogOutAreStillUploaded() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let alice = try await Self.register("alice", on: server)
                let bob = try await Self.register("bob", on: server)
                let url = Self.realmURL(server, "/shared/logout")
                let aliceConfig = Self.configuration(alice, url)
                _ = try await Self.tasks(aliceConfig)
                let session = try #require(alice.session(for: url))
                try await session.waitForDownload()
                // Written offline, then the user logs out.
                session.suspend()
                try await Self.write(aliceConfig) { realm in realm.add(SyncTask(value: ["id": 1, "title": "before logging out"])) }
                alice.logOut()
                #expect(session.state == .dying, "the session goes on until its changes are uploaded")
                #expect(alice.session(for: url) === session)
                session.resume()
                try await Self.waitUntil("the session ends once uploaded (\(session.diagnostics))") { session.state == .invalid }

                let bobConfig = Self.configuration(bob, url)
                _ = try await Self.tasks(bobConfig)
                try await #require(bob.session(for: url)).waitForDownload()
                #expect(try await Self.tasks(bobConfig) == ["1 before logging out false []"])

                // Nothing left to upload: the session ends at once.
                let bobSession = try #require(bob.session(for: url))
                bob.logOut()
                try await Self.waitUntil("an idle session ends at logout") { bobSession.state == .invalid }
            }
        }

        /// Polls `condition` for up to ten seconds.
        static func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
            let deadline = ContinuousClock.now + .seconds(10)
            while !condition() {
                guard ContinuousClock.now < deadline else {
                    Issue.record("timed out: \(what)")
                    return
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }

        @Test func aUsersRealmIsTheirsAlone() async throws {
            try await TestClient.run {
                let errors = SessionErrors()
                defer { SyncManager.shared.errorHandler = nil }
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let alice = try await Self.register("alice", on: server)
                let bob = try await Self.register("bob", on: server)
                // Alice's own Realm, by `~`.
                let own = Self.realmURL(server, "/~/diary")
                try await Self.write(Self.configuration(alice, own)) { realm in realm.add(SyncTask(value: ["id": 1, "title": "dear diary"])) }
                try await #require(alice.session(for: own)).waitForUpload()

                // Bob names it by alice's identity: refused.
                let aliceIdentity = try #require(alice.identity)
                let theirs = Self.realmURL(server, "/\(aliceIdentity)/diary")
                _ = try await Self.tasks(Self.configuration(bob, theirs))
                let refusal = try await errors.first { $0.code == .permissionDeniedError }
                #expect(refusal?.serverCode == 206)
                #expect(bob.session(for: theirs) == nil, "the session is invalid")
            }
        }

        @Test func aDestructiveSchemaChangeIsRefusedAsABadChangeset() async throws {
            try await TestClient.run {
                let errors = SessionErrors()
                defer { SyncManager.shared.errorHandler = nil }
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let alice = try await Self.register("alice", on: server)
                let bob = try await Self.register("bob", on: server)
                let url = Self.realmURL(server, "/shared/gadgets")
                let aliceConfig = Realm.Configuration(syncConfiguration: SyncConfiguration(user: alice, realmURL: url),
                                                      objectTypes: [GadgetV1.Gadget.self])
                try await offloaded {
                    let realm = try Realm(configuration: aliceConfig)
                    try realm.write { realm.add(GadgetV1.Gadget(value: ["size": 3])) }
                }
                try await #require(alice.session(for: url)).waitForUpload()

                let bobConfig = Realm.Configuration(syncConfiguration: SyncConfiguration(user: bob, realmURL: url),
                                                    objectTypes: [GadgetV2.Gadget.self])
                try await offloaded {
                    let realm = try Realm(configuration: bobConfig)
                    try realm.write { realm.add(GadgetV2.Gadget(value: ["size": "large"])) }
                }
                let refusal = try await errors.first { $0.serverCode == 212 }
                #expect(refusal != nil, "the server refuses the changeset that makes 'size' a string")
            }
        }

        @Test func aSyncedConfigurationTakesNoMigrationBlockNorDeletion() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let alice = try await Self.register("alice", on: server)
                var config = Self.configuration(alice, Self.realmURL(server, "/~/migrating"))
                config.schemaVersion = 2
                config.migrationBlock = { _, _ in }
                let refused = #expect(throws: Realm.Error.self) { try Realm(configuration: config) }
                #expect(refused?.localizedDescription.contains("migration block") == true)
                config.migrationBlock = nil
                config.deleteRealmIfMigrationNeeded = true
                let deleting = #expect(throws: Realm.Error.self) { try Realm(configuration: config) }
                #expect(deleting?.localizedDescription.contains("deleteRealmIfMigrationNeeded") == true)
                // Setting a file URL makes it an ordinary configuration.
                config.fileURL = temporaryDirectory("local").appendingPathComponent("local.realm")
                #expect(config.syncConfiguration == nil)
            }
        }

        // Once in five full runs on a loaded machine (2026-11-27) this test
        // never finished, and passed alone and in the next full run; the
        // limit turns such a hang into a failure instead of a stalled suite
        // (the session's waits end when the limit cancels them).
        @Test(.timeLimit(.minutes(2)))
        func theSessionReconnectsAfterAServerRestart() async throws {
            try await TestClient.run {
                let directory = temporaryDirectory("restart")
                let server = try await TestServer.start(dataDirectory: directory)
                let port = try #require(server.server.port)
                let alice = try await Self.register("alice", on: server)
                let bob = try await Self.register("bob", on: server)
                let url = Self.realmURL(server, "/shared/restart")
                let aliceConfig = Self.configuration(alice, url)
                let bobConfig = Self.configuration(bob, url)
                _ = try await Self.tasks(aliceConfig)
                _ = try await Self.tasks(bobConfig)
                let aliceSession = try #require(alice.session(for: url))
                let bobSession = try #require(bob.session(for: url))
                try await aliceSession.waitForDownload()

                await server.stop()
                try await Self.write(aliceConfig) { realm in realm.add(SyncTask(value: ["id": 1, "title": "written while the server was down"])) }
                let restarted = try await TestServer.start(dataDirectory: directory) { $0.port = port }
                defer { Task { await restarted.stop() } }
                try await Self.sync(aliceSession, to: bobSession)
                #expect(try await Self.tasks(bobConfig) == ["1 written while the server was down false []"])
            }
        }

        /// A wait the server cannot answer (it is down) ends when its task
        /// is cancelled, and the session goes on: once the server is back,
        /// the change it waited for arrives.
        @Test(.timeLimit(.minutes(2)))
        func aWaitEndsWhenItsTaskIsCancelled() async throws {
            try await TestClient.run {
                let directory = temporaryDirectory("cancelled-wait")
                let server = try await TestServer.start(dataDirectory: directory)
                let port = try #require(server.server.port)
                let alice = try await Self.register("alice", on: server)
                let url = Self.realmURL(server, "/~/cancelled")
                let config = Self.configuration(alice, url)
                _ = try await Self.tasks(config)
                let session = try #require(alice.session(for: url))
                try await session.waitForDownload()

                await server.stop()
                try await Self.write(config) { realm in realm.add(SyncTask(value: ["id": 7, "title": "waiting"])) }
                let upload = Task { try await session.waitForUpload() }
                let download = Task { try await session.waitForDownload() }
                try await Task.sleep(for: .milliseconds(200))
                upload.cancel()
                download.cancel()
                await #expect(throws: CancellationError.self) { try await upload.value }
                await #expect(throws: CancellationError.self) { try await download.value }
                // A task cancelled before it waits does not wait.
                let early = Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    try await session.waitForUpload()
                }
                await #expect(throws: CancellationError.self) { try await early.value }

                let restarted = try await TestServer.start(dataDirectory: directory) { $0.port = port }
                defer { Task { await restarted.stop() } }
                try await session.waitForUpload()
            }
        }

        /// A client connected but not seen within the retention (it only
        /// downloads) has the history it lacks compacted away under its
        /// session: its session catches it up from the state. Before, the
        /// session skipped the gap, and a wait for downloads never ended
        /// (found by the query-based randomized test).
        /// A Realm updated over and over compacts for the history's size
        /// long before the interval's versions: its history stays within
        /// about its data (issue 37's bounded history).
        @Test func aHistoryOutweighingItsDataIsCompacted() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let alice = try await Self.register("alice", on: server)
                let url = Self.realmURL(server, "/~/rewritten")
                let config = Self.configuration(alice, url)
                let text = String(repeating: "x", count: 2_000)
                for round in 1...60 {
                    try await Self.write(config) { realm in
                        try realm.add(SyncTask(value: ["id": 1, "title": "\(round) \(text)"]), update: .modified)
                    }
                    try await #require(alice.session(for: url)).waitForUpload()
                }
                let extent = try await Self.historyExtent(server, "/\(alice.identity!)/rewritten")
                #expect(extent.compactedThrough > 1, "60 versions of 2 KB, well under the interval of 1,000: \(extent)")
                let file = server.dataDirectory.appendingPathComponent("realms/\(alice.identity!)/rewritten.realm").path
                let history = try await offloaded {
                    let transaction = try Coordinator.open(.file(file)).makeTransaction()
                    try transaction.refresh()
                    let select = try transaction.queryStatement("SELECT COALESCE(SUM(LENGTH(changeset)), 0) FROM server_history")
                    defer { select.reset() }
                    _ = try select.step()
                    return Int(select.int64(at: 0))
                }
                #expect(history < 64 << 10, "the history holds \(history) bytes")
            }
        }

        @Test func aConnectedClientPastCompactionCatchesUpFromTheState() async throws {
            try await TestClient.run {
                let server = try await TestServer.start {
                    $0.historyCompactionInterval = 2
                    $0.clientHistoryRetention = 0
                }
                defer { Task { await server.stop() } }
                let alice = try await Self.register("alice", on: server)
                let bob = try await Self.register("bob", on: server)
                let url = Self.realmURL(server, "/shared/compacted-connected")
                let aliceConfig = Self.configuration(alice, url)
                let bobConfig = Self.configuration(bob, url)
                _ = try await Self.tasks(bobConfig)
                let bobSession = try #require(bob.session(for: url))
                try await bobSession.waitForDownload()
                _ = try await Self.tasks(aliceConfig)
                let aliceSession = try #require(alice.session(for: url))
                for id in 1...6 {
                    try await Self.write(aliceConfig) { realm in realm.add(SyncTask(value: ["id": id, "title": "task \(id)"])) }
                    try await aliceSession.waitForUpload()
                }
                let extent = try await Self.historyExtent(server, "/shared/compacted-connected")
                #expect(extent.compactedThrough > 1, "\(extent)")
                try await withDeadline("bob downloading") { try await bobSession.waitForDownload() }
                #expect(try await Self.tasks(bobConfig) == (try await Self.tasks(aliceConfig)))
                #expect(try await Self.tasks(bobConfig).count == 6)
            }
        }

        @Test func aClientOfflinePastCompactionCatchesUpFromTheState() async throws {
            try await TestClient.run {
                let server = try await TestServer.start {
                    $0.historyCompactionInterval = 4
                    $0.clientHistoryRetention = 0.2
                }
                defer { Task { await server.stop() } }
                let alice = try await Self.register("alice", on: server)
                let bob = try await Self.register("bob", on: server)
                let url = Self.realmURL(server, "/shared/compacted")
                let aliceConfig = Self.configuration(alice, url)
                let bobConfig = Self.configuration(bob, url)
                try await Self.write(aliceConfig) { realm in
                    for id in 1...4 { realm.add(SyncTask(value: ["id": id, "title": "task \(id)", "tags": ["x", "y", "z"]])) }
                }
                _ = try await Self.tasks(bobConfig)
                let aliceSession = try #require(alice.session(for: url))
                let bobSession = try #require(bob.session(for: url))
                try await Self.sync(aliceSession, to: bobSession)
                bobSession.suspend()
                try await Task.sleep(for: .milliseconds(400))

                // While bob is away past the retention, alice deletes,
                // re-creates, edits and reorders, one write at a time, and
                // the history is compacted.
                try await Self.write(aliceConfig) { realm in realm.delete(realm.object(ofType: SyncTask.self, forPrimaryKey: 1)!) }
                try await Self.write(aliceConfig) { realm in realm.add(SyncTask(value: ["id": 1, "title": "task 1, again"])) }
                try await Self.write(aliceConfig) { realm in realm.object(ofType: SyncTask.self, forPrimaryKey: 2)!.tags.move(from: 0, to: 2) }
                try await Self.write(aliceConfig) { realm in realm.object(ofType: SyncTask.self, forPrimaryKey: 3)!.tags.remove(at: 1) }
                for round in 0..<6 {
                    try await Self.write(aliceConfig) { realm in realm.object(ofType: SyncTask.self, forPrimaryKey: 4)!.title = "edit \(round)" }
                }
                try await aliceSession.waitForUpload()
                let extent = try await Self.historyExtent(server, "/shared/compacted")
                #expect(extent.compactedThrough > 1, "the history bob had not integrated was compacted: \(extent)")

                // Bob, offline meanwhile, edited task 2 and deleted task 3.
                try await Self.write(bobConfig) { realm in
                    realm.object(ofType: SyncTask.self, forPrimaryKey: 2)!.done = true
                    realm.delete(realm.object(ofType: SyncTask.self, forPrimaryKey: 3)!)
                }
                bobSession.resume()
                try await Self.sync(bobSession, to: aliceSession)
                try await bobSession.waitForDownload()
                let bobTasks = try await Self.tasks(bobConfig)
                #expect(bobTasks == (try await Self.tasks(aliceConfig)), "bob caught up from the state, and kept his changes")
                #expect(bobTasks == ["1 task 1, again false []", "2 task 2 true [\"y\", \"z\", \"x\"]", "4 edit 5 false [\"x\", \"y\", \"z\"]"])

                // Later concurrent writes resolve on the stamps the state
                // carried: the same winner on both.
                try await Self.write(aliceConfig) { realm in realm.object(ofType: SyncTask.self, forPrimaryKey: 2)!.title = "alice's" }
                try await Self.write(bobConfig) { realm in realm.object(ofType: SyncTask.self, forPrimaryKey: 2)!.title = "bob's" }
                try await Self.sync(aliceSession, to: bobSession)
                try await Self.sync(bobSession, to: aliceSession)
                #expect(try await Self.tasks(aliceConfig) == (try await Self.tasks(bobConfig)))
            }
        }

        @Test func aServerRestoredFromABackupAsksForAClientReset() async throws {
            try await TestClient.run {
                let errors = SessionErrors()
                defer { SyncManager.shared.errorHandler = nil }
                let directory = temporaryDirectory("backup")
                let server = try await TestServer.start(dataDirectory: directory)
                let port = try #require(server.server.port)
                let alice = try await Self.register("alice", on: server)
                let url = Self.realmURL(server, "/~/restored")
                let config = Self.configuration(alice, url)
                try await Self.write(config) { realm in realm.add(SyncTask(value: ["id": 1, "title": "before the backup"])) }
                let session = try #require(alice.session(for: url))
                try await session.waitForUpload()
                await server.stop()
                let backup = temporaryDirectory("backup-copy").appendingPathComponent("data")
                try await SyncTests.ResetConvergence.copy(directory, to: backup)

                let again = try await TestServer.start(dataDirectory: directory) { $0.port = port }
                try await Self.write(config) { realm in realm.add(SyncTask(value: ["id": 2, "title": "after the backup"])) }
                try await Self.write(config) { realm in realm.add(SyncTask(value: ["id": 3, "title": "after the backup too"])) }
                try await session.waitForUpload()
                try await session.waitForDownload()
                await again.stop()

                // The server comes back from the backup: it never had what
                // this client integrated since.
                try await SyncTests.ResetConvergence.copy(backup, to: directory)
                let restored = try await TestServer.start(dataDirectory: directory) { $0.port = port }
                defer { Task { await restored.stop() } }
                // Within the longest wait between attempts (30 s), whatever
                // the backoff had reached while the server was down.
                let reset = try await errors.first(within: 40) { $0.code == .clientResetError }
                #expect(reset != nil, "the client is told to reset: \(errors.all)")
            }
        }

        @Test func theSyncDemoConverges() async throws {
            let result = try await runProcess(try productExecutable("realm"), ["demo", "sync"])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("Ben's device: milk ×3 (bought)"), "Ben's offline view")
            #expect(result.stdout.contains("Ana's device: bread ×1, milk ×3 (bought)"), "\(result.stdout)")
            #expect(result.stdout.contains("6. Both devices hold the same list."))
        }

        @Test func progressNotificationsCountTheBytes() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let alice = try await Self.register("alice", on: server)
                let url = Self.realmURL(server, "/~/progress")
                let config = Self.configuration(alice, url)
                _ = try await Self.tasks(config)
                let session = try #require(alice.session(for: url))
                try await session.waitForDownload()
                // What opening uploaded is done before the write, so that
                // the work outstanding at registration is the write alone.
                try await session.waitForUpload()
                session.suspend()
                try await Self.write(config) { realm in
                    for id in 1...50 { realm.add(SyncTask(value: ["id": id, "title": String(repeating: "x", count: 100)])) }
                }
                let seen = Mutex<[SyncSession.Progress]>([])
                let queue = DispatchQueue(label: "progress")
                // Registration reports the outstanding work at once.
                let token = try #require(session.addProgressNotification(for: .upload, mode: .forCurrentlyOutstandingWork, queue: queue) { progress in
                    seen.withLock { $0.append(progress) }
                })
                session.resume()
                try await session.waitForUpload()
                try await Task.sleep(for: .milliseconds(100))
                queue.sync {}
                let reports = seen.withLock { $0 }
                // The bar may start part-filled (bytes this session sent
                // before count as transferred); the write is outstanding.
                let first = try #require(reports.first)
                #expect(first.transferrableBytes - first.transferredBytes > 5_000, "the changeset of 50 tasks: \(first)")
                #expect(!first.isTransferComplete)
                #expect(reports.last?.isTransferComplete == true)
                token.invalidate()
            }
        }
    }
}
