import Dispatch
import Foundation
import RealmCore
import RealmObjects
import RealmSync
import RealmSyncServer
import Synchronization
import Testing

extension SyncTests {
    /// Access control end to end (Docs/Sync.md, "Access control"; seed 001,
    /// "Access Control"): permissions granted by identity, username and `*`,
    /// offers, enforcement on every bind, upload and download, and the
    /// permission-denied procedure.
    @Suite struct AccessControl {
        typealias Synced = SyncedRealms

        /// A Realm opened with `Realm.asyncOpen`, its tasks described.
        static func asyncOpenTasks(_ configuration: Realm.Configuration) async throws -> [String] {
            try await withCheckedThrowingContinuation { continuation in
                Realm.asyncOpen(configuration: configuration, callbackQueue: DispatchQueue(label: "open")) { result in
                    continuation.resume(with: result.map { realm in
                        realm.objects(SyncTask.self).sorted(byKeyPath: "id").map { "\($0.id) \($0.title)" }
                    })
                }
            }
        }

        /// Alice's Realm `name` holding one task, uploaded.
        static func aliceRealm(_ server: TestServer, _ alice: SyncUser, _ name: String) async throws -> (url: URL, path: String) {
            let url = Synced.realmURL(server, "/~/\(name)")
            try await Synced.write(Synced.configuration(alice, url)) { realm in
                try realm.add(SyncTask(value: ["id": 1, "title": "alice's"]), update: .all)
            }
            try await #require(alice.session(for: url)).waitForUpload()
            return (Synced.realmURL(server, "/\(alice.identity!)/\(name)"), "/\(alice.identity!)/\(name)")
        }

        /// The permissions of `user`, retrieved, and a way to wait for them
        /// to satisfy a condition (observed on their queue).
        final class LivePermissions: @unchecked Sendable {
            // @unchecked: `results` and `token` are set once, on `queue`,
            // and used only there; `snapshots` is locked.
            let queue = DispatchQueue(label: "permissions")
            private var results: SyncPermissionResults?
            private var token: NotificationToken?
            private let snapshots = Mutex<[[SyncPermission]]>([])

            init(_ user: SyncUser) async throws {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    user.retrievePermissions(callbackQueue: queue) { results, error in
                        guard let results else { return continuation.resume(throwing: error!) }
                        self.results = results
                        self.token = results.observe { change in
                            if case .error = change { return }
                            self.snapshots.withLock { $0.append(Array(results)) }
                        }
                        continuation.resume()
                    }
                }
            }

            /// The newest list delivered.
            var latest: [SyncPermission] { snapshots.withLock { $0.last ?? [] } }

            /// Waits up to `seconds` for a delivered list matching `match`.
            func wait(within seconds: Double = 10, for match: ([SyncPermission]) -> Bool) async throws -> Bool {
                try await poll(within: seconds) { match(latest) ? true : nil } ?? false
            }

            /// Runs `body` with the results, on their queue.
            func withResults<T: Sendable>(_ body: @escaping @Sendable (SyncPermissionResults) -> T) async -> T {
                await withCheckedContinuation { continuation in
                    queue.async { continuation.resume(returning: body(self.results!)) }
                }
            }

            func stop() {
                queue.sync { token?.invalidate() }
            }
        }

        // MARK: Granting

        @Test func aPermissionByIdentityLetsAnotherUserReadAndWrite() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let alice = try await Synced.register("alice", on: server)
                let bob = try await Synced.register("bob", on: server)
                let (url, path) = try await Self.aliceRealm(server, alice, "tasks")
                let bobConfig = Synced.configuration(bob, url)

                let errors = SessionErrors()
                defer { SyncManager.shared.errorHandler = nil }
                // Before: Bob is refused at bind.
                _ = try? await Synced.tasks(bobConfig)
                let refused = try await errors.first { $0.code == .permissionDeniedError }
                #expect(refused?.serverCode == 206)
                #expect(refused?.deleteRealmUserInfo() != nil, "a permission denied carries the action token")
                try await Self.handle(refused, configuration: bobConfig)

                try await alice.apply(SyncPermission(realmPath: "/~/tasks", identity: bob.identity!, accessLevel: .write))
                #expect(try await Self.asyncOpenTasks(bobConfig) == ["1 alice's"])
                try await Synced.write(bobConfig) { realm in realm.add(SyncTask(value: ["id": 2, "title": "bob's"])) }
                try await Synced.sync(try #require(bob.session(for: url)), to: try #require(alice.session(for: Synced.realmURL(server, "/~/tasks"))))
                #expect(try await Synced.tasks(Synced.configuration(alice, Synced.realmURL(server, "/~/tasks"))).count == 2)
                #expect(errors.all.count == 1, "only the refusal before the grant: \(errors.all)")
                #expect(path == url.path)
            }
        }

        @Test func aPermissionByUsernameGrantsTheUserOfThatUsername() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let alice = try await Synced.register("alice", on: server)
                let bob = try await Synced.register("bob@realm.example.org", on: server)
                let (url, path) = try await Self.aliceRealm(server, alice, "recipes")
                // Seed 001's sample grants by username, with the Realm's full
                // path.
                try await alice.apply(SyncPermission(realmPath: path, username: "bob@realm.example.org", accessLevel: .read))
                #expect(try await Self.asyncOpenTasks(Synced.configuration(bob, url)) == ["1 alice's"])
                await expectAuthError(.userDoesNotExist) {
                    try await alice.apply(SyncPermission(realmPath: path, username: "nobody", accessLevel: .read))
                }
            }
        }

        @Test func onlyAUserWhoManagesARealmChangesItsPermissions() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let alice = try await Synced.register("alice", on: server)
                let bob = try await Synced.register("bob", on: server)
                let carol = try await Synced.register("carol", on: server)
                let (_, path) = try await Self.aliceRealm(server, alice, "tasks")
                await expectAuthError(.accessDeniedOrInvalidPath) {
                    try await bob.apply(SyncPermission(realmPath: path, identity: carol.identity!, accessLevel: .read))
                }
                // Write access is not management…
                try await alice.apply(SyncPermission(realmPath: path, identity: bob.identity!, accessLevel: .write))
                await expectAuthError(.accessDeniedOrInvalidPath) {
                    try await bob.apply(SyncPermission(realmPath: path, identity: carol.identity!, accessLevel: .read))
                }
                // … admin access is.
                try await alice.apply(SyncPermission(realmPath: path, identity: bob.identity!, accessLevel: .admin))
                try await bob.apply(SyncPermission(realmPath: path, identity: carol.identity!, accessLevel: .read))
                await expectAuthError(.invalidParameters) {
                    try await alice.apply(SyncPermission(realmPath: "no/leading/slash", identity: bob.identity!, accessLevel: .read))
                }
                await expectAuthError(.accessDeniedOrInvalidPath) {
                    try await alice.apply(SyncPermission(realmPath: "/~/__permission", identity: bob.identity!, accessLevel: .read))
                }
                await expectAuthError(.userDoesNotExist) {
                    try await alice.apply(SyncPermission(realmPath: path, identity: "0123456789abcdef0123456789abcdef", accessLevel: .read))
                }
            }
        }

        @Test func wildcardsGrantEveryUserAndEveryRealm() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let alice = try await Synced.register("alice", on: server)
                let bob = try await Synced.register("bob", on: server)
                let (publicURL, publicPath) = try await Self.aliceRealm(server, alice, "public")
                let (otherURL, _) = try await Self.aliceRealm(server, alice, "other")
                // Every user may read the one Realm …
                try await alice.apply(SyncPermission(realmPath: publicPath, identity: "*", accessLevel: .read))
                let carol = try await Synced.register("carol", on: server)
                #expect(try await Self.asyncOpenTasks(Synced.configuration(carol, publicURL)) == ["1 alice's"])
                // … and Bob may write every Realm of Alice's.
                try await alice.apply(SyncPermission(realmPath: "*", identity: bob.identity!, accessLevel: .write))
                let bobOther = Synced.configuration(bob, otherURL)
                #expect(try await Self.asyncOpenTasks(bobOther) == ["1 alice's"])
                try await Synced.write(bobOther) { realm in realm.add(SyncTask(value: ["id": 5, "title": "bob's"])) }
                try await #require(bob.session(for: otherURL)).waitForUpload()
                // Revoking Bob's identity grant leaves the grant to everyone.
                try await alice.revoke(SyncPermission(realmPath: "*", identity: bob.identity!, accessLevel: .write))
                #expect(try await Self.asyncOpenTasks(Synced.configuration(bob, publicURL)) == ["1 alice's"])
            }
        }

        @Test func aRealmOutsideUsersFoldersIsOpenUntilAnAdministratorRestrictsIt() async throws {
            try await TestClient.run {
                let server = try await TestServer.start { $0.initialAdmin = .init(username: "root", password: "rootpw") }
                defer { Task { await server.stop() } }
                let admin = try await SyncUser.logIn(with: .usernamePassword(username: "root", password: "rootpw"), server: server.url)
                let bob = try await Synced.register("bob", on: server)
                let carol = try await Synced.register("carol", on: server)
                let url = Synced.realmURL(server, "/shared/board")
                try await Synced.write(Synced.configuration(bob, url)) { realm in realm.add(SyncTask(value: ["id": 1, "title": "open"])) }
                try await #require(bob.session(for: url)).waitForUpload()
                await expectAuthError(.accessDeniedOrInvalidPath) {
                    try await bob.apply(SyncPermission(realmPath: "/shared/board", identity: carol.identity!, accessLevel: .read))
                }
                try await admin.apply(SyncPermission(realmPath: "/shared/board", identity: carol.identity!, accessLevel: .read))
                #expect(try await Self.asyncOpenTasks(Synced.configuration(carol, url)) == ["1 open"])
                let errors = SessionErrors()
                defer { SyncManager.shared.errorHandler = nil }
                try await Synced.write(Synced.configuration(bob, url)) { realm in realm.add(SyncTask(value: ["id": 2, "title": "late"])) }
                let denied = try await errors.first { $0.code == .permissionDeniedError }
                #expect(denied != nil, "once restricted, only the permissions count: \(errors.all)")
                // Revoking the last grant does not open it to all again.
                try await admin.revoke(SyncPermission(realmPath: "/shared/board", identity: carol.identity!, accessLevel: .read))
                let dave = try await Synced.register("dave", on: server)
                let before = errors.all.count
                _ = try? await Synced.tasks(Synced.configuration(dave, url))
                #expect(try await errors.first { _ in errors.all.count > before }?.code == .permissionDeniedError)
            }
        }

        // MARK: Reading permissions

        @Test func retrievedPermissionsAreLiveAndFollowChanges() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let alice = try await Synced.register("alice", on: server)
                let bob = try await Synced.register("bob", on: server)
                let bobs = try await LivePermissions(bob)
                defer { bobs.stop() }
                #expect(await bobs.withResults { $0.count } == 0, "a new user has no permissions")
                let (_, path) = try await Self.aliceRealm(server, alice, "shared")

                let granted = SyncPermission(realmPath: path, identity: bob.identity!, accessLevel: .read)
                try await alice.apply(granted)
                #expect(try await bobs.wait { $0 == [granted] }, "Bob's results gain the permission: \(bobs.latest)")
                let (index, listed) = await bobs.withResults { results in (results.index(of: granted), results.first) }
                #expect(index == 0)
                #expect(listed?.mayRead == true && listed?.mayWrite == false && listed?.mayManage == false)
                #expect(listed?.path == path && listed?.identity == bob.identity)

                // Alice sees the permissions on her Realms too.
                let alices = try await LivePermissions(alice)
                defer { alices.stop() }
                #expect(try await alices.wait { $0.contains(granted) })

                let upgraded = SyncPermission(realmPath: path, identity: bob.identity!, accessLevel: .write)
                try await alice.apply(upgraded)
                #expect(try await bobs.wait { $0 == [upgraded] }, "the change arrives: \(bobs.latest)")
                try await alice.revoke(upgraded)
                #expect(try await bobs.wait { $0.isEmpty }, "and the revocation: \(bobs.latest)")
                #expect(try await alices.wait { !$0.contains(upgraded) })
            }
        }

        @Test func thePermissionRealmIsTheServersToWrite() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let bob = try await Synced.register("bob", on: server)
                let carol = try await Synced.register("carol", on: server)
                let errors = SessionErrors()
                defer { SyncManager.shared.errorHandler = nil }
                // Carol may not even read Bob's.
                _ = try? await Synced.tasks(Synced.configuration(carol, Synced.realmURL(server, "/\(bob.identity!)/__permission")))
                #expect(try await errors.first { $0.code == .permissionDeniedError } != nil)
                // Bob may read his, not write it.
                let permissions = try await LivePermissions(bob)
                permissions.stop()
                let before = errors.all.count
                _ = try? await Synced.tasks(Synced.configuration(bob, Synced.realmURL(server, "/~/__permission")))
                let refused = try await errors.first { $0.code == .permissionDeniedError && errors.all.firstIndex(of: $0)! >= before }
                #expect(refused != nil, "a schema of his own is an upload the server refuses: \(errors.all)")
            }
        }

        // MARK: Enforcement

        @Test func aReadOnlyRealmOpensAsynchronouslyButNotDirectly() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let alice = try await Synced.register("alice", on: server)
                let bob = try await Synced.register("bob", on: server)
                let dave = try await Synced.register("dave", on: server)
                let (url, path) = try await Self.aliceRealm(server, alice, "menu")
                try await alice.apply(SyncPermission(realmPath: path, identity: bob.identity!, accessLevel: .read))
                try await alice.apply(SyncPermission(realmPath: path, identity: dave.identity!, accessLevel: .read))
                let errors = SessionErrors()
                defer { SyncManager.shared.errorHandler = nil }

                // asyncOpen downloads the schema first, and records none.
                let bobConfig = Synced.configuration(bob, url)
                #expect(try await Self.asyncOpenTasks(bobConfig) == ["1 alice's"])
                try await #require(bob.session(for: url)).waitForDownload()
                try await Task.sleep(for: .milliseconds(200))
                #expect(errors.all.isEmpty, "\(errors.all)")

                // Opening directly records the schema: refused (seed 001).
                let daveConfig = Synced.configuration(dave, url)
                _ = try await Synced.tasks(daveConfig)
                let denied = try #require(try await errors.first { $0.code == .permissionDeniedError })
                #expect(denied.serverCode == 206)
                let token = try #require(denied.deleteRealmUserInfo())
                #expect(denied.clientResetInfo() == nil)
                let backup = try #require(denied.errorUserInfo[kRLMSyncPathOfRealmBackupCopyKey] as? String)
                #expect(backup.contains("io.realm.object-server-recovered-realms/recovered_realm"))
                #expect(SyncSession.immediatelyHandleError(token), "the Realm is closed: its file is backed up now")
                #expect(!FileManager.default.fileExists(atPath: daveConfig.fileURL!.path))
                #expect(FileManager.default.fileExists(atPath: backup))
                // The fresh copy, opened the right way, works.
                #expect(try await Self.asyncOpenTasks(daveConfig) == ["1 alice's"])
            }
        }

        @Test func aWriteWithoutPermissionIsRefusedAndTheLocalCopyBackedUp() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let alice = try await Synced.register("alice", on: server)
                let bob = try await Synced.register("bob", on: server)
                let (url, path) = try await Self.aliceRealm(server, alice, "menu")
                try await alice.apply(SyncPermission(realmPath: path, identity: bob.identity!, accessLevel: .read))
                let bobConfig = Synced.configuration(bob, url)
                #expect(try await Self.asyncOpenTasks(bobConfig) == ["1 alice's"])
                let errors = SessionErrors()
                defer { SyncManager.shared.errorHandler = nil }

                try await Synced.write(bobConfig) { realm in realm.add(SyncTask(value: ["id": 9, "title": "bob's offline edit"])) }
                let denied = try #require(try await errors.first { $0.code == .permissionDeniedError })
                let token = try #require(denied.deleteRealmUserInfo())
                let backup = try #require(denied.errorUserInfo[kRLMSyncPathOfRealmBackupCopyKey] as? String)
                #expect(bob.session(for: url) == nil, "the session has ended")
                #expect(SyncSession.immediatelyHandleError(token))

                // Nothing is lost: Bob's write is in the backup …
                let local = Realm.Configuration(fileURL: URL(fileURLWithPath: backup), readOnly: true, objectTypes: [SyncTask.self])
                let backedUp = try await offloaded { try Realm(configuration: local).objects(SyncTask.self).map(\.title).sorted() }
                #expect(backedUp == ["alice's", "bob's offline edit"])
                // … and the Realm, opened again, is the server's: reverted.
                #expect(try await Self.asyncOpenTasks(bobConfig) == ["1 alice's"])
                #expect(try await Synced.tasks(Synced.configuration(alice, Synced.realmURL(server, "/~/menu"))).count == 1)
            }
        }

        @Test func permissionChangesReachOpenSessionsWithoutAReconnect() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let alice = try await Synced.register("alice", on: server)
                let bob = try await Synced.register("bob", on: server)
                let (url, path) = try await Self.aliceRealm(server, alice, "live")
                let aliceURL = Synced.realmURL(server, "/~/live")
                let aliceConfig = Synced.configuration(alice, aliceURL)
                try await alice.apply(SyncPermission(realmPath: path, identity: bob.identity!, accessLevel: .read))
                let bobConfig = Synced.configuration(bob, url)
                #expect(try await Self.asyncOpenTasks(bobConfig) == ["1 alice's"])
                let bobSession = try #require(bob.session(for: url))
                let errors = SessionErrors()
                defer { SyncManager.shared.errorHandler = nil }

                // Raised to write while bound: Bob's next write is taken.
                try await alice.apply(SyncPermission(realmPath: path, identity: bob.identity!, accessLevel: .write))
                try await Synced.write(bobConfig) { realm in realm.add(SyncTask(value: ["id": 2, "title": "bob's"])) }
                try await Synced.sync(bobSession, to: try #require(alice.session(for: aliceURL)))
                #expect(try await Synced.tasks(aliceConfig).count == 2)
                #expect(errors.all.isEmpty, "\(errors.all)")

                // Revoked while bound: the session ends, without a write.
                try await alice.revoke(SyncPermission(realmPath: path, identity: bob.identity!, accessLevel: .write))
                let denied = try await errors.first { $0.code == .permissionDeniedError }
                #expect(denied != nil, "the open session learns of the revocation: \(errors.all)")
                #expect(bob.session(for: url) == nil)
            }
        }

        // MARK: Offers

        @Test func anOfferSharesARealmWithWhoeverAcceptsIt() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let alice = try await Synced.register("alice", on: server)
                let bob = try await Synced.register("bob", on: server)
                let carol = try await Synced.register("carol", on: server)
                let (_, path) = try await Self.aliceRealm(server, alice, "recipes")
                let token = try await alice.createOfferForRealm(at: Synced.realmURL(server, "/~/recipes"), accessLevel: .write)
                #expect(token.count >= 40)

                let url = try await bob.acceptOffer(forToken: token)
                #expect(url.path == path)
                #expect(url.scheme == "realm" && url.port == server.server.port)
                // Accepting twice changes nothing.
                #expect(try await bob.acceptOffer(forToken: token) == url)
                let bobConfig = Synced.configuration(bob, url)
                #expect(try await Self.asyncOpenTasks(bobConfig) == ["1 alice's"])
                try await Synced.write(bobConfig) { realm in realm.add(SyncTask(value: ["id": 3, "title": "bob's"])) }
                try await #require(bob.session(for: url)).waitForUpload()

                // Offers add up: a read offer takes no write access away.
                let readOnly = try await alice.createOfferForRealm(at: Synced.realmURL(server, "/~/recipes"), accessLevel: .read)
                _ = try await bob.acceptOffer(forToken: readOnly)
                try await Synced.write(bobConfig) { realm in realm.add(SyncTask(value: ["id": 4, "title": "bob's again"])) }
                try await #require(bob.session(for: url)).waitForUpload()

                // Withdrawn: nobody else can accept it; Bob keeps his access.
                try await alice.invalidateOffer(forToken: token)
                await expectAuthError(.expiredPermissionOffer) { _ = try await carol.acceptOffer(forToken: token) }
                try await Synced.write(bobConfig) { realm in realm.add(SyncTask(value: ["id": 5, "title": "still bob's"])) }
                try await #require(bob.session(for: url)).waitForUpload()
                try await #require(alice.session(for: Synced.realmURL(server, "/~/recipes"))).waitForDownload()
                #expect(try await Synced.tasks(Synced.configuration(alice, Synced.realmURL(server, "/~/recipes"))).count == 4)
            }
        }

        @Test func offersExpireAndOnlyManagersMakeThem() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let alice = try await Synced.register("alice", on: server)
                let bob = try await Synced.register("bob", on: server)
                let carol = try await Synced.register("carol", on: server)
                let aliceURL = Synced.realmURL(server, "/~/recipes")
                let (url, path) = try await Self.aliceRealm(server, alice, "recipes")

                let brief = try await alice.createOfferForRealm(at: aliceURL, accessLevel: .read, expiration: Date().addingTimeInterval(1))
                _ = try await bob.acceptOffer(forToken: brief)
                try await Task.sleep(for: .milliseconds(1_200))
                await expectAuthError(.expiredPermissionOffer) { _ = try await carol.acceptOffer(forToken: brief) }
                #expect(try await Self.asyncOpenTasks(Synced.configuration(bob, url)) == ["1 alice's"],
                        "who accepted before the expiry keeps the access")

                await expectAuthError(.accessDeniedOrInvalidPath) {
                    _ = try await bob.createOfferForRealm(at: url, accessLevel: .read)
                }
                await expectAuthError(.invalidParameters) {
                    _ = try await alice.createOfferForRealm(at: aliceURL, accessLevel: .none)
                }
                await expectAuthError(.invalidParameters) {
                    _ = try await alice.createOfferForRealm(at: aliceURL, accessLevel: .read, expiration: Date().addingTimeInterval(-5))
                }
                await expectAuthError(.expiredPermissionOffer) { _ = try await carol.acceptOffer(forToken: "not-a-token") }
                _ = path
            }
        }
    }
}

extension SyncTests.AccessControl {
    /// Backs up the refused file of `error` once its Realm is closed, so
    /// that the next open starts afresh.
    static func handle(_ error: SyncError?, configuration: Realm.Configuration) async throws {
        guard let token = error?.deleteRealmUserInfo() else { return }
        let deadline = ContinuousClock.now + .seconds(5)
        while !SyncSession.immediatelyHandleError(token), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
