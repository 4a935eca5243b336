import Dispatch
import Foundation
import RealmCore
import RealmObjects
import RealmSync
import RealmSyncServer
import Synchronization
import Testing

extension SyncTests {
    /// Client reset, manual mode (seed 001, "Client reset"): the server was
    /// restored from a backup and lacks what the client integrated; the
    /// client backs its copy up and downloads a fresh one.
    @Suite struct ClientReset {
        typealias Synced = SyncedRealms

        /// What the reset callbacks saw: the task titles before, and after.
        final class Callbacks: Sendable {
            let seen = Mutex<(before: [String]?, afterBefore: [String]?, after: [String]?)>((nil, nil, nil))

            /// What the callbacks saw, once the after-reset one has run: it
            /// runs after the fresh copy is in place, which a reader may
            /// see first.
            func afterTheReset() async throws -> (before: [String]?, afterBefore: [String]?, after: [String]?) {
                try await poll(within: 10) { seen.withLock { $0.after == nil ? nil : $0 } } ?? seen.withLock { $0 }
            }

            var before: @Sendable (Realm) -> Void {
                { realm in
                    let titles = realm.objects(SyncTask.self).sorted(byKeyPath: "id").map(\.title)
                    self.seen.withLock { $0.before = Array(titles) }
                }
            }

            var after: @Sendable (Realm, Realm) -> Void {
                { before, after in
                    let old = before.objects(SyncTask.self).sorted(byKeyPath: "id").map(\.title)
                    let new = after.objects(SyncTask.self).sorted(byKeyPath: "id").map(\.title)
                    self.seen.withLock { $0.afterBefore = Array(old); $0.after = Array(new) }
                }
            }
        }

        /// Alice's Realm on a server that is then restored from a backup
        /// taken after task 1 and before task 2; task 3 is written offline
        /// (never uploaded) before the restored server starts. `prepare`
        /// runs with the Realm's configuration before the backup; `offline`
        /// while the server is down. Returns the restored server (to stop),
        /// Alice and the Realm's configuration.
        static func restoredServer(mode: ClientResetMode = .manual(), _ path: String,
                                   prepare: @escaping @Sendable (Realm) throws -> Void = { _ in },
                                   lost: @escaping @Sendable (Realm) throws -> Void = { _ in },
                                   offline: @escaping @Sendable (Realm) throws -> Void = { _ in })
            async throws -> (server: TestServer, alice: SyncUser, configuration: Realm.Configuration) {
            let directory = temporaryDirectory("reset")
            let server = try await TestServer.start(dataDirectory: directory)
            let port = try #require(server.server.port)
            let alice = try await Synced.register("alice", on: server)
            let url = Synced.realmURL(server, path)
            let config = Realm.Configuration(syncConfiguration: SyncConfiguration(user: alice, realmURL: url, clientResetMode: mode),
                                             objectTypes: [SyncTask.self])
            try await Synced.write(config) { realm in
                realm.add(SyncTask(value: ["id": 1, "title": "before the backup"]))
                try prepare(realm)
            }
            let session = try #require(alice.session(for: url))
            try await session.waitForUpload()
            await server.stop()
            let backup = temporaryDirectory("reset-backup").appendingPathComponent("data")
            try await SyncTests.ResetConvergence.copy(directory, to: backup)

            let again = try await TestServer.start(dataDirectory: directory) { $0.port = port }
            try await Synced.write(config) { realm in
                realm.add(SyncTask(value: ["id": 2, "title": "after the backup"]))
                try lost(realm)
            }
            try await session.waitForUpload()
            try await session.waitForDownload()
            await again.stop()
            // Written while the server is down: never uploaded.
            try await Synced.write(config) { realm in
                realm.add(SyncTask(value: ["id": 3, "title": "offline"]))
                try offline(realm)
            }

            try await SyncTests.ResetConvergence.copy(backup, to: directory)
            let restored = try await TestServer.start(dataDirectory: directory) { $0.port = port }
            return (restored, alice, config)
        }

        /// The restored server of ``restoredServer(mode:_:prepare:offline:)``
        /// in the manual mode, and the reset error the client reports.
        static func resetByARestoredServer(_ errors: SessionErrors, _ path: String)
            async throws -> (server: TestServer, alice: SyncUser, url: URL, error: SyncError) {
            let (restored, alice, config) = try await restoredServer(path)
            // Within the longest wait between attempts (30 s).
            let reset = try #require(try await errors.first(within: 40) { $0.code == .clientResetError }, "\(errors.all)")
            return (restored, alice, config.syncConfiguration!.realmURL, reset)
        }

        /// Waits up to `seconds` until the Realm's task titles are `titles`.
        static func waitForTitles(_ configuration: Realm.Configuration, _ titles: [String], seconds: Double = 40) async throws -> [String] {
            var current: [String] = []
            return try await poll(within: seconds, every: .milliseconds(50)) {
                current = try await offloaded { try Realm(configuration: configuration).objects(SyncTask.self).sorted(byKeyPath: "id").map(\.title) }
                return current == titles ? current : nil
            } ?? current
        }

        @Test func theSeedsManualResetBacksUpTheFileAndDownloadsAFreshCopy() async throws {
            try await TestClient.run {
                let errors = SessionErrors()
                defer { SyncManager.shared.errorHandler = nil }
                let (server, alice, url, reset) = try await Self.resetByARestoredServer(errors, "/~/restored")
                defer { Task { await server.stop() } }
                #expect(reset.serverCode == 209)
                #expect(alice.session(for: url) == nil, "the Realm does not sync until it is reset")

                // Seed 001's handler, in Swift: the Realm is closed (the
                // tests' Realms are), the backup path saved, the reset done.
                let (backupPath, token) = try #require(reset.clientResetInfo())
                #expect(backupPath.contains("io.realm.object-server-recovered-realms/recovered_realm"))
                #expect(reset.errorUserInfo[kRLMSyncPathOfRealmBackupCopyKey] as? String == backupPath)
                #expect(!FileManager.default.fileExists(atPath: backupPath), "the backup is made when the reset happens")
                #expect(SyncSession.immediatelyHandleError(token))
                let config = Synced.configuration(alice, url)
                #expect(!FileManager.default.fileExists(atPath: config.fileURL!.path))

                // The backup holds everything the client had …
                let local = Realm.Configuration(fileURL: URL(fileURLWithPath: backupPath), readOnly: true, objectTypes: [SyncTask.self])
                let backedUp = try await offloaded { try Realm(configuration: local).objects(SyncTask.self).sorted(byKeyPath: "id").map(\.title) }
                #expect(backedUp == ["before the backup", "after the backup", "offline"])
                // … and the Realm, opened again, is the restored server's.
                let fresh: [String] = try await withCheckedThrowingContinuation { continuation in
                    Realm.asyncOpen(configuration: config, callbackQueue: DispatchQueue(label: "open")) { result in
                        continuation.resume(with: result.map { $0.objects(SyncTask.self).sorted(byKeyPath: "id").map(\.title) })
                    }
                }
                #expect(fresh == ["before the backup"])
                try await Synced.write(config) { realm in realm.add(SyncTask(value: ["id": 4, "title": "after the reset"])) }
                try await #require(alice.session(for: url)).waitForUpload()
            }
        }

        @Test func aResetTheAppDoesNotHandleHappensAtTheNextLaunch() async throws {
            try await TestClient.run {
                let errors = SessionErrors()
                defer { SyncManager.shared.errorHandler = nil }
                let (server, alice, url, reset) = try await Self.resetByARestoredServer(errors, "/~/later")
                defer { Task { await server.stop() } }
                let (backupPath, token) = try #require(reset.clientResetInfo())
                let file = Synced.configuration(alice, url).fileURL!.path

                // While a Realm of the file is open, nothing happens.
                let opened = try await offloaded { () -> Bool in
                    let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: file), objectTypes: [SyncTask.self]))
                    return withExtendedLifetime(realm) { SyncSession.immediatelyHandleError(token) }
                }
                #expect(!opened)
                #expect(FileManager.default.fileExists(atPath: file))

                // The next launch (another process, on the same folder) does it.
                let helper = try productExecutable("RealmSyncTestHelper")
                let launch = try await runProcess(helper, ["launch", TestClient.root.path])
                #expect(launch.status == 0, "\(launch.stderr)")
                #expect(!FileManager.default.fileExists(atPath: file))
                #expect(FileManager.default.fileExists(atPath: backupPath))
            }
        }
    
        /// A client that only downloaded from the history a restored server
        /// lost, and binds after the server has been written past its
        /// version: the version's salt tells it the history is not the one
        /// it integrated, and it resets (Realm's "diverging histories").
        @Test func aVersionTheRestoredServerMadeAgainIsToldApartByItsSalt() async throws {
            try await TestClient.run {
                let errors = SyncTests.PermissionConvergence.ReportedErrors()
                defer { SyncManager.shared.errorHandler = nil }
                let directory = temporaryDirectory("salted")
                let server = try await TestServer.start(dataDirectory: directory)
                let port = try #require(server.server.port)
                let alice = try await Synced.register("alice", on: server)
                let bob = try await Synced.register("bob", on: server)
                let url = Synced.realmURL(server, "/shared/salted")
                let aliceConfig = Synced.configuration(alice, url)
                let bobConfig = Synced.configuration(bob, url)
                try await Synced.write(aliceConfig) { realm in realm.add(SyncTask(value: ["id": 1, "title": "kept"])) }
                try await #require(alice.session(for: url)).waitForUpload()
                _ = try await SyncTests.AccessControl.asyncOpenTasks(bobConfig)
                await server.stop()
                let backup = temporaryDirectory("salted-backup").appendingPathComponent("data")
                try await SyncTests.ResetConvergence.copy(directory, to: backup)

                // Bob downloads what the restore will lose; he writes nothing.
                let again = try await TestServer.start(dataDirectory: directory) { $0.port = port }
                for id in 2...3 {
                    try await Synced.write(aliceConfig) { realm in realm.add(SyncTask(value: ["id": id, "title": "lost"])) }
                }
                try await #require(alice.session(for: url)).waitForUpload()
                let bobSession = try #require(bob.session(for: url))
                try await bobSession.waitForDownload()
                bobSession.suspend()
                // Alice, whose uploads the restore loses, is told by the
                // versions or by what the server acknowledged; not tested here.
                try #require(alice.session(for: url)).suspend()
                await again.stop()

                try await SyncTests.ResetConvergence.copy(backup, to: directory)
                let restored = try await TestServer.start(dataDirectory: directory) { $0.port = port }
                defer { Task { await restored.stop() } }
                // Carol writes the restored server past Bob's version.
                let carol = try await Synced.register("carol", on: restored.url)
                let carolConfig = Synced.configuration(carol, url)
                _ = try await SyncTests.AccessControl.asyncOpenTasks(carolConfig)
                for id in 10...14 {
                    try await Synced.write(carolConfig) { realm in realm.add(SyncTask(value: ["id": id, "title": "new history"])) }
                }
                try await #require(carol.session(for: url)).waitForUpload()

                bobSession.resume()
                let reset = try await errors.take(of: bob, within: 40) { $0.code == .clientResetError }
                #expect(reset?.serverCode == 211, "Bob is told to reset: \(errors.rest)")
                #expect(reset?.clientResetInfo() != nil)
            }
        }

        // MARK: Realm 10's automatic modes

        /// The tasks of the Realm as another user downloads them: the
        /// server's.
        static func serverTitles(_ server: TestServer, _ url: URL) async throws -> [String] {
            let reader = try await Synced.register("reader-\(UUID().uuidString.prefix(8))", on: server)
            let titles = try await SyncTests.AccessControl.asyncOpenTasks(Synced.configuration(reader, url))
            return titles.map { String($0.drop { $0 != " " }.dropFirst()) }
        }

        @Test func discardingUnsyncedChangesResetsInPlaceToTheServersCopy() async throws {
            try await TestClient.run {
                let errors = SessionErrors()
                defer { SyncManager.shared.errorHandler = nil }
                let callbacks = Callbacks()
                let (server, alice, config) = try await Self.restoredServer(
                    mode: .discardUnsyncedChanges(beforeReset: callbacks.before, afterReset: callbacks.after), "/shared/discard")
                defer { Task { await server.stop() } }
                #expect(try await Self.waitForTitles(config, ["before the backup"]) == ["before the backup"])
                let seen = try await callbacks.afterTheReset()
                #expect(seen.before == ["before the backup", "after the backup", "offline"], "the file as it was")
                #expect(seen.afterBefore == seen.before)
                #expect(seen.after == ["before the backup"])
                #expect(errors.all.isEmpty, "an automatic reset reports nothing: \(errors.all)")
                // It syncs again, as the fresh copy's client.
                try await Synced.write(config) { realm in realm.add(SyncTask(value: ["id": 4, "title": "after the reset"])) }
                try await #require(alice.session(for: config.syncConfiguration!.realmURL)).waitForUpload()
                #expect(try await Self.serverTitles(server, config.syncConfiguration!.realmURL) == ["before the backup", "after the reset"])
            }
        }

        @Test func recoveringReplaysTheUnsyncedChangesOnTheFreshCopy() async throws {
            try await TestClient.run {
                let errors = SessionErrors()
                defer { SyncManager.shared.errorHandler = nil }
                let callbacks = Callbacks()
                let (server, alice, config) = try await Self.restoredServer(
                    mode: .recoverUnsyncedChanges(beforeReset: callbacks.before, afterReset: callbacks.after), "/shared/recover",
                    offline: { realm in realm.object(ofType: SyncTask.self, forPrimaryKey: 1)!.done = true })
                defer { Task { await server.stop() } }
                // The fresh copy, with the unsynced changes replayed; the task
                // only the lost history held is in the backup, as in Realm.
                #expect(try await Self.waitForTitles(config, ["before the backup", "offline"]) == ["before the backup", "offline"])
                #expect(try await callbacks.afterTheReset().after == ["before the backup", "offline"])
                try await #require(alice.session(for: config.syncConfiguration!.realmURL)).waitForUpload()
                let url = config.syncConfiguration!.realmURL
                #expect(try await Self.serverTitles(server, url) == ["before the backup", "offline"])
                let done = try await offloaded { try Realm(configuration: config).object(ofType: SyncTask.self, forPrimaryKey: 1)?.done }
                #expect(done == true, "an unsynced change to an object the fresh copy has")
                #expect(errors.all.isEmpty, "\(errors.all)")
            }
        }

        @Test func recoverOrDiscardRecoversWhatItCan() async throws {
            try await TestClient.run {
                let (server, alice, config) = try await Self.restoredServer(mode: .recoverOrDiscardUnsyncedChanges(), "/shared/either")
                defer { Task { await server.stop() } }
                #expect(try await Self.waitForTitles(config, ["before the backup", "offline"]) == ["before the backup", "offline"])
                try await #require(alice.session(for: config.syncConfiguration!.realmURL)).waitForUpload()
                #expect(try await Self.serverTitles(server, config.syncConfiguration!.realmURL) == ["before the backup", "offline"])
            }
        }

        /// Found by the randomized test: the lost history deleted and made
        /// again an object the fresh copy has, and the unsynced changes name
        /// its newer incarnation. Replayed, they name the fresh one.
        @Test func changesToAnObjectTheLostHistoryMadeAgainAreRecovered() async throws {
            try await TestClient.run {
                let errors = SessionErrors()
                defer { SyncManager.shared.errorHandler = nil }
                let (server, alice, config) = try await Self.restoredServer(
                    mode: .recoverUnsyncedChanges(), "/shared/incarnations",
                    lost: { realm in
                        realm.delete(realm.object(ofType: SyncTask.self, forPrimaryKey: 1)!)
                        realm.add(SyncTask(value: ["id": 1, "title": "made again"]))
                    },
                    offline: { realm in realm.object(ofType: SyncTask.self, forPrimaryKey: 1)!.done = true })
                defer { Task { await server.stop() } }
                #expect(try await Self.waitForTitles(config, ["before the backup", "offline"]) == ["before the backup", "offline"])
                try await #require(alice.session(for: config.syncConfiguration!.realmURL)).waitForUpload()
                let done = try await offloaded { try Realm(configuration: config).object(ofType: SyncTask.self, forPrimaryKey: 1)?.done }
                #expect(done == true)
                #expect(try await Self.serverTitles(server, config.syncConfiguration!.realmURL) == ["before the backup", "offline"])
                #expect(errors.all.isEmpty, "recovered, not handed to the manual procedure: \(errors.all)")
            }
        }

        /// realm-swift#8073's case: a list reordered offline, recovered
        /// while another device added to it. Replayed by element, the move
        /// keeps its meaning, and every replica ends with one order.
        @Test func aListReorderedOfflineIsRecoveredByElement() async throws {
            try await TestClient.run {
                let (server, alice, config) = try await Self.restoredServer(
                    mode: .recoverUnsyncedChanges(), "/shared/reorder",
                    prepare: { realm in realm.object(ofType: SyncTask.self, forPrimaryKey: 1)!.tags.append(objectsIn: ["a", "b", "c"]) },
                    offline: { realm in realm.object(ofType: SyncTask.self, forPrimaryKey: 1)!.tags.move(from: 2, to: 0) })
                defer { Task { await server.stop() } }
                let url = config.syncConfiguration!.realmURL
                // Bob, on the restored server, adds to the list meanwhile.
                let bob = try await Synced.register("bob", on: server)
                let bobConfig = Synced.configuration(bob, url)
                _ = try await SyncTests.AccessControl.asyncOpenTasks(bobConfig)
                try await Synced.write(bobConfig) { realm in realm.object(ofType: SyncTask.self, forPrimaryKey: 1)!.tags.append("d") }
                let bobSession = try #require(bob.session(for: url))
                try await bobSession.waitForUpload()

                #expect(try await Self.waitForTitles(config, ["before the backup", "offline"]) == ["before the backup", "offline"])
                let aliceSession = try #require(alice.session(for: url))
                for _ in 0..<2 {
                    try await aliceSession.waitForUpload()
                    try await bobSession.waitForDownload()
                    try await bobSession.waitForUpload()
                    try await aliceSession.waitForDownload()
                }
                let tags = { @Sendable (configuration: Realm.Configuration) in
                    try await offloaded { Array(try Realm(configuration: configuration).object(ofType: SyncTask.self, forPrimaryKey: 1)!.tags) }
                }
                let aliceTags = try await tags(config)
                #expect(aliceTags == (try await tags(bobConfig)), "one order everywhere")
                #expect(aliceTags.first == "c" && aliceTags.filter { $0 != "d" } == ["c", "a", "b"] && aliceTags.contains("d"), "\(aliceTags)")
            }
        }

        @Test func aManualModesOwnHandlerTakesTheResetError() async throws {
            try await TestClient.run {
                let global = SessionErrors()
                defer { SyncManager.shared.errorHandler = nil }
                let own = Mutex<[SyncError]>([])
                let (server, _, _) = try await Self.restoredServer(mode: .manual(errorHandler: { error, _ in own.withLock { $0.append(error) } }),
                                                                   "/shared/own-handler")
                defer { Task { await server.stop() } }
                let deadline = ContinuousClock.now + .seconds(40)
                while own.withLock({ $0.isEmpty }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
                #expect(own.withLock { $0.map(\.code) } == [.clientResetError])
                #expect(own.withLock { $0.first?.clientResetInfo() } != nil)
                #expect(global.all.isEmpty, "the manager's handler hears nothing of it: \(global.all)")
            }
        }
    }
}
