import Foundation
import RealmSync
import RealmSyncServer
import RealmSyncWire
import Testing

extension SyncTests {
    /// What a client keeps across launches, checked with clients in child
    /// processes (`RealmSyncTestHelper`).
    @Suite struct ClientPersistence {
        @Test func aLoggedInUserIsStillLoggedInAtTheNextLaunch() async throws {
            let helper = try productExecutable("RealmSyncTestHelper")
            let server = try await TestServer.start { $0.accessTokenLifetime = 1 }
            defer { Task { await server.stop() } }
            let register = HTTPExchange.json(RealmSyncWireLogin.register("sam", "pw"))
            #expect(try await HTTPExchange.send("POST", server.url.appendingPathComponent("auth"), body: register).status == 200)
            let root = temporaryDirectory("persist")

            let login = try await runProcess(helper, ["login", root.path, server.url.absoluteString, "sam", "pw"])
            #expect(login.status == 0, "\(login.stderr)")
            let identity = try #require(login.stdout.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })

            // The metadata Realm is private to its owner.
            let metadata = root.appendingPathComponent("io.realm.object-server-metadata.realm")
            #expect((try FileManager.default.attributesOfItem(atPath: metadata.path)[.posixPermissions] as? Int) == 0o600)
            #expect((try FileManager.default.attributesOfItem(atPath: root.path)[.posixPermissions] as? Int) == 0o700)

            // The access token has expired by now: the next launch refreshes
            // it with the persisted refresh token.
            try await Task.sleep(for: .milliseconds(1200))
            let current = try await runProcess(helper, ["current", root.path])
            #expect(current.status == 0, "\(current.stderr)")
            #expect(current.stdout == "current \(identity) false\n")

            // Logging out marks the user's synced files for deletion at the
            // next launch.
            let userFolder = root.appendingPathComponent(identity)
            try FileManager.default.createDirectory(at: userFolder, withIntermediateDirectories: true)
            try Data("synced".utf8).write(to: userFolder.appendingPathComponent("inbox.realm"))
            let logout = try await runProcess(helper, ["logout", root.path])
            #expect(logout.stdout == "logged out \(identity)\n", "\(logout.stderr)")
            #expect(FileManager.default.fileExists(atPath: userFolder.path), "deleted at the next launch, not now")
            let afterLogout = try await runProcess(helper, ["current", root.path])
            #expect(afterLogout.stdout == "current none\n", "\(afterLogout.stderr)")
            #expect(!FileManager.default.fileExists(atPath: userFolder.path))
        }

        @Test func anEncryptedMetadataRealmHoldsNoPlaintextAndNeedsItsKey() async throws {
            let helper = try productExecutable("RealmSyncTestHelper")
            let server = try await TestServer.start()
            defer { Task { await server.stop() } }
            let register = HTTPExchange.json(RealmSyncWireLogin.register("tia", "pw"))
            #expect(try await HTTPExchange.send("POST", server.url.appendingPathComponent("auth"), body: register).status == 200)
            let root = temporaryDirectory("encrypted")
            var environment = ProcessInfo.processInfo.environment
            environment["REALM_SYNC_TEST_METADATA_KEY"] = String(repeating: "5a", count: 64)
            environment["SWIFT_BACKTRACE"] = "enable=no"

            let login = try await runProcess(helper, ["login", root.path, server.url.absoluteString, "tia", "pw"], environment: environment)
            #expect(login.status == 0, "\(login.stderr)")
            let identity = try #require(login.stdout.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines))
            for suffix in ["", "-wal"] {
                let path = root.appendingPathComponent("io.realm.object-server-metadata.realm").path + suffix
                guard let bytes = FileManager.default.contents(atPath: path) else { continue }
                #expect(bytes.range(of: Data(identity.utf8)) == nil, "no plaintext identity in \(path)")
                #expect(bytes.range(of: Data("SQLite format 3".utf8)) == nil, "no plaintext header in \(path)")
            }
            let current = try await runProcess(helper, ["current", root.path], environment: environment)
            #expect(current.stdout == "current \(identity) false\n", "\(current.stderr)")

            // Without the key: nobody is current, the reason is reported, and
            // the file is left for the next launch with the key.
            let key = environment.removeValue(forKey: "REALM_SYNC_TEST_METADATA_KEY")
            let withoutKey = try await runProcess(helper, ["current", root.path], environment: environment)
            #expect(withoutKey.status == 0)
            #expect(withoutKey.stdout == "current none\n")
            #expect(withoutKey.stderr.contains("reported: Cannot open the sync metadata Realm"), "\(withoutKey.stderr)")
            environment["REALM_SYNC_TEST_METADATA_KEY"] = key
            let withKeyAgain = try await runProcess(helper, ["current", root.path], environment: environment)
            #expect(withKeyAgain.stdout == "current \(identity) false\n", "\(withKeyAgain.stderr)")
        }

        @Test func currentRefusesWhenSeveralUsersAreLoggedIn() async throws {
            let helper = try productExecutable("RealmSyncTestHelper")
            let server = try await TestServer.start { $0.providers.allowsNickname = true }
            defer { Task { await server.stop() } }
            var environment = ProcessInfo.processInfo.environment
            environment["SWIFT_BACKTRACE"] = "enable=no"
            let run = try await runProcess(helper, ["current-with-two", temporaryDirectory("two").path, server.url.absoluteString],
                                     environment: environment)
            #expect(run.stdout.contains("logged in 2"))
            #expect(!run.stdout.contains("SyncUser.current returned"))
            #expect(run.status != 0)
            #expect(run.stderr.contains("Cannot get the current user: 2 users are logged in"))
        }
    }
}

/// Bodies of the login route for the tests that register over plain HTTP.
enum RealmSyncWireLogin {
    static func register(_ username: String, _ password: String) -> LoginRequest {
        LoginRequest(provider: .usernamePassword, data: username, password: password, register: true)
    }
}
