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

        /// Alice's Realm on a server that is then restored from a backup
        /// taken after task 1 and before tasks 2 and 3: the client, back
        /// online, is told to reset. Returns the restored server (to stop),
        /// the Realm's configuration and the reset error.
        static func resetByARestoredServer(_ errors: SessionErrors, _ path: String)
            async throws -> (server: TestServer, alice: SyncUser, url: URL, error: SyncError) {
            let directory = temporaryDirectory("reset")
            let server = try await TestServer.start(dataDirectory: directory)
            let port = try #require(server.server.port)
            let alice = try await Synced.register("alice", on: server)
            let url = Synced.realmURL(server, path)
            let config = Synced.configuration(alice, url)
            try await Synced.write(config) { realm in realm.add(SyncTask(value: ["id": 1, "title": "before the backup"])) }
            let session = try #require(alice.session(for: url))
            try await session.waitForUpload()
            await server.stop()
            let backup = temporaryDirectory("reset-backup").appendingPathComponent("data")
            try FileManager.default.copyItem(at: directory, to: backup)

            let again = try await TestServer.start(dataDirectory: directory) { $0.port = port }
            try await Synced.write(config) { realm in realm.add(SyncTask(value: ["id": 2, "title": "after the backup"])) }
            try await session.waitForUpload()
            try await session.waitForDownload()
            await again.stop()
            // Written while the server is down: never uploaded.
            try await Synced.write(config) { realm in realm.add(SyncTask(value: ["id": 3, "title": "offline"])) }

            try FileManager.default.removeItem(at: directory)
            try FileManager.default.copyItem(at: backup, to: directory)
            let restored = try await TestServer.start(dataDirectory: directory) { $0.port = port }
            // Within the longest wait between attempts (30 s).
            let reset = try #require(try await errors.first(within: 40) { $0.code == .clientResetError }, "\(errors.all)")
            return (restored, alice, url, reset)
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
    }
}
