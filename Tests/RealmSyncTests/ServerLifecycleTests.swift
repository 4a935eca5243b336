import AsyncHTTPClient
import Foundation
import NIOSSL
import RealmSync
import RealmSyncServer
import RealmSyncWire
import Testing

extension SyncTests {
    /// The server as a process: restarted, run as a child, with TLS, and
    /// stopped gracefully.
    @Suite struct ServerLifecycle {
        @Test func usersAndTokensSurviveARestart() async throws {
            let data = temporaryDirectory("restart")
            let first = try await TestServer.start(dataDirectory: data)
            try await TestClient.run {
                let user = try await SyncUser.logIn(with: .usernamePassword(username: "quin", password: "pw", register: true), server: first.url)
                let token = try await user.accessToken()
                await first.stop()

                let second = try await TestServer.start(dataDirectory: data)
                defer { Task { await second.stop() } }
                let register = HTTPExchange.json(LoginRequest(provider: .usernamePassword, data: "quin", password: "other", register: true))
                #expect(try await HTTPExchange.send("POST", second.url.appendingPathComponent("auth"), body: register).status == 409)
                let again = try await SyncUser.logIn(with: .usernamePassword(username: "quin", password: "pw"), server: second.url)
                #expect(again.identity == user.identity)
                // The signing secret persisted: the old access token is valid.
                let change = try await HTTPExchange.send("PUT", second.url.appendingPathComponent("auth/password"),
                                                         body: HTTPExchange.json(ChangePasswordRequest(newPassword: "pw2")),
                                                         headers: ["Authorization": "Bearer \(token)"])
                #expect(change.status == 204)
                if !PostgresDatabases.isEnabled {
                    // On PostgreSQL the secret is in the database.
                    let attributes = try FileManager.default.attributesOfItem(atPath: data.appendingPathComponent("token-secret").path)
                    #expect((attributes[.posixPermissions] as? Int) == 0o600)
                }
            }
        }

        @Test func aDataFolderServesOneServerAtATime() async throws {
            let data = temporaryDirectory("locked")
            let first = try await TestServer.start(dataDirectory: data)
            await #expect(throws: SyncServer.Error.self) {
                _ = try await TestServer.start(dataDirectory: data)
            }
            await first.stop()
            let second = try await TestServer.start(dataDirectory: data)
            await second.stop()
        }

        @Test func expiredRefreshTokensAreForgottenAtStart() async throws {
            let data = temporaryDirectory("purge")
            // The store the server will use: its folder's, or its database.
            func store() async throws -> (any UserStore, shutdown: () async -> Void) {
                guard PostgresDatabases.isEnabled else { return (try EmbeddedUserStore(directory: data), {}) }
                let store = try await PostgresUserStore(url: try await PostgresDatabases.database(for: data))
                return (store, { await store.shutdown() })
            }
            do {
                let (store, shutdown) = try await store()
                let now = Date()
                try await store.insertRefreshToken(.init(tokenHash: "expired", userIdentity: "u", issued: now.addingTimeInterval(-20),
                                                         expires: now.addingTimeInterval(-10)))
                try await store.insertRefreshToken(.init(tokenHash: "valid", userIdentity: "u", issued: now,
                                                         expires: now.addingTimeInterval(3600)))
                await shutdown()
            }
            let server = try await TestServer.start(dataDirectory: data)
            await server.stop()
            let (store, shutdown) = try await store()
            #expect(try await store.refreshToken(hash: "expired") == nil)
            #expect(try await store.refreshToken(hash: "valid") != nil)
            await shutdown()
        }

        @Test func theServerRunsAsAChildProcessAndStopsOnSIGTERM() async throws {
            let realm = try productExecutable("realm")
            let data = temporaryDirectory("child")
            let process = Process()
            process.executableURL = realm
            process.arguments = ["server", "--port", "0", "--data", data.path, "--password-hash-cost", "4", "--log-level", "error",
                                 "--admin-username", "root"]
            var environment = ProcessInfo.processInfo.environment
            environment["REALM_SERVER_ADMIN_PASSWORD"] = "rootpw"
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            defer { if process.isRunning { process.terminate() } }

            // The first line says where it listens.
            let text = try await firstLine(of: output)
            let url = try #require(text.split(separator: "\n").first.flatMap { URL(string: String($0.dropFirst("Listening on ".count))) },
                                   "the server printed '\(text)'")
            try await TestClient.run {
                let admin = try await SyncUser.logIn(with: .usernamePassword(username: "root", password: "rootpw"), server: url)
                #expect(admin.isAdmin)
            }
            process.terminate()
            try await offloaded { process.waitUntilExit() }
            #expect(process.terminationReason == .exit)
            #expect(process.terminationStatus == 0)
        }

        /// Once `stop()` returns, the server has let go of the files in its
        /// data folder, its user store among them, so that the folder can
        /// be copied as a backup (a file copied under an open connection is
        /// undone when that connection closes).
        @Test func aStoppedServerHoldsNoFileOfItsDataFolder() async throws {
            let data = temporaryDirectory("stopped")
            let server = try await TestServer.start(dataDirectory: data)
            let url = server.url
            let register = HTTPExchange.json(LoginRequest(provider: .usernamePassword, data: "ida", password: "pw", register: true))
            #expect(try await HTTPExchange.send("POST", url.appendingPathComponent("auth"), body: register).status == 200)
            await server.stop()
            let locks = FileManager.default.enumerator(atPath: data.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".realm.lock") } ?? []
            #expect(PostgresDatabases.isEnabled || locks.contains("users.realm.lock"))
            for lock in locks {
                let descriptor = open(data.appendingPathComponent(lock).path, O_RDWR)
                try #require(descriptor >= 0)
                defer { close(descriptor) }
                #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0, "\(lock) is still held")
            }
        }

        @Test func aRequestInFlightFinishesWhenTheServerStops() async throws {
            // The store holds the registration until the stop has begun.
            let data = temporaryDirectory("graceful")
            let store = GatedUserStore(try EmbeddedUserStore(directory: data))
            let server = try await TestServer.start(dataDirectory: data) { $0.userStore = store }
            let url = server.url
            let registration = Task {
                try await HTTPExchange.send("POST", url.appendingPathComponent("auth"),
                                            body: HTTPExchange.json(LoginRequest(provider: .usernamePassword, data: "rex", password: "pw",
                                                                                 register: true)))
            }
            await store.waitUntilEntered()
            let stopping = Task { await server.stop() }
            try await Task.sleep(for: .milliseconds(100))
            store.open()
            await stopping.value
            let exchange = try await registration.value
            #expect(exchange.status == 200)
            // Stopped: the port refuses connections (a client that gives up
            // after a second, where the shared one retries for ten).
            let impatient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(timeout: .init(connect: .seconds(1))))
            await #expect(throws: (any Error).self) {
                _ = try await impatient.execute(HTTPClientRequest(url: url.appendingPathComponent("health").absoluteString),
                                                timeout: .seconds(5))
            }
            try await impatient.shutdown()
        }

        @Test func aPortInUseIsToldAndTheDataFolderLetGo() async throws {
            let first = try await TestServer.start()
            defer { Task { await first.stop() } }
            let port = try #require(first.server.port)
            let data = temporaryDirectory("port-in-use")
            var configuration = SyncServer.Configuration(dataDirectory: data)
            configuration.port = port
            configuration.passwordHashCost = 4
            let second = try await SyncServer(configuration: configuration)
            await #expect {
                try await second.start()
            } throws: { error in
                guard case SyncServer.Error.addressInUse(let host, let inUse) = error else { return false }
                return host == "127.0.0.1" && inUse == port
            }
            // The failed server holds nothing of its folder: another starts there.
            let third = try await TestServer.start(dataDirectory: data)
            await third.stop()
        }

        @Test func aRequestAfterTheStoreClosedIsToldTheServerIsStopping() async throws {
            // A request that reaches the user store after `stop()` closed
            // it: here the store is closed first, as the race would leave it.
            let data = temporaryDirectory("closed-store")
            let store = try EmbeddedUserStore(directory: data)
            let server = try await TestServer.start(dataDirectory: data) { $0.userStore = store }
            defer { Task { await server.stop() } }
            store.close()
            let exchange = try await HTTPExchange.send("POST", server.url.appendingPathComponent("auth"),
                                                       body: HTTPExchange.json(LoginRequest(provider: .usernamePassword, data: "rex",
                                                                                            password: "pw", register: true)))
            #expect(exchange.status == 503)
            #expect(exchange.problem?.detail == "the server is stopping")
        }

        @Test func theServerSpeaksTLSWhenGivenACertificate() async throws {
            let directory = temporaryDirectory("tls")
            let certificate = directory.appendingPathComponent("cert.pem")
            let key = directory.appendingPathComponent("key.pem")
            let openssl = try await runProcess(URL(fileURLWithPath: "/usr/bin/env"),
                                         ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                                          "-keyout", key.path, "-out", certificate.path])
            try #require(openssl.status == 0, "openssl: \(openssl.stderr)")
            let server = try await TestServer.start { $0.tls = .init(certificateChain: certificate, privateKey: key) }
            defer { Task { await server.stop() } }
            #expect(server.url.scheme == "https")

            let insecure = HTTPClient(eventLoopGroupProvider: .singleton,
                                      configuration: .init(tlsConfiguration: .clientDefault.with { $0.certificateVerification = .none }))
            let response = try await insecure.execute(HTTPClientRequest(url: server.url.appendingPathComponent("health").absoluteString),
                                                      timeout: .seconds(10))
            #expect(response.status == .ok)
            try await insecure.shutdown()
            // Plain HTTP to the TLS port gets no answer.
            var plain = server.url.absoluteString
            plain.replaceSubrange(plain.range(of: "https")!, with: "http")
            await #expect(throws: (any Error).self) {
                _ = try await HTTPExchange.send("GET", URL(string: plain)!.appendingPathComponent("health"))
            }

            await #expect(throws: SyncServer.Error.self) {
                _ = try await SyncServer(configuration: {
                    var configuration = SyncServer.Configuration(dataDirectory: temporaryDirectory("badtls"))
                    configuration.tls = .init(certificateChain: directory.appendingPathComponent("missing.pem"), privateKey: key)
                    return configuration
                }())
            }
        }
    }
}


extension TLSConfiguration {
    fileprivate func with(_ change: (inout TLSConfiguration) -> Void) -> TLSConfiguration {
        var copy = self
        change(&copy)
        return copy
    }
}

/// The server's real store, holding `createUser` until the test opens the
/// gate: a request that is certainly in flight.
final class GatedUserStore: UserStore, @unchecked Sendable {
    // @unchecked: the mutable fields are guarded by `lock`.
    private let base: EmbeddedUserStore
    private let lock = NSLock()
    private var entered = false
    private var enteredWaiters: [CheckedContinuation<Void, Never>] = []
    private var isOpen = false
    private var gateWaiters: [CheckedContinuation<Void, Never>] = []

    init(_ base: EmbeddedUserStore) {
        self.base = base
    }

    func waitUntilEntered() async {
        await withCheckedContinuation { continuation in
            let now = lock.withLock {
                if entered { return true }
                enteredWaiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func open() {
        let waiters = lock.withLock {
            isOpen = true
            defer { gateWaiters = [] }
            return gateWaiters
        }
        waiters.forEach { $0.resume() }
    }

    func createUser(_ user: UserRecord, account: AccountRecord) async throws {
        let waiters = lock.withLock {
            entered = true
            defer { enteredWaiters = [] }
            return enteredWaiters
        }
        waiters.forEach { $0.resume() }
        await withCheckedContinuation { continuation in
            let now = lock.withLock {
                if isOpen { return true }
                gateWaiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
        try await base.createUser(user, account: account)
    }

    func user(identity: String) async throws -> UserRecord? { try await base.user(identity: identity) }
    func account(provider: IdentityProvider, providerUserIdentity: String) async throws -> AccountRecord? {
        try await base.account(provider: provider, providerUserIdentity: providerUserIdentity)
    }
    func accounts(ofUser identity: String) async throws -> [AccountRecord] { try await base.accounts(ofUser: identity) }
    func setPasswordHash(_ hash: String, provider: IdentityProvider, providerUserIdentity: String) async throws {
        try await base.setPasswordHash(hash, provider: provider, providerUserIdentity: providerUserIdentity)
    }
    func setAdmin(_ isAdmin: Bool, userIdentity: String) async throws { try await base.setAdmin(isAdmin, userIdentity: userIdentity) }
    func insertRefreshToken(_ token: RefreshTokenRecord) async throws { try await base.insertRefreshToken(token) }
    func refreshToken(hash: String) async throws -> RefreshTokenRecord? { try await base.refreshToken(hash: hash) }
    func deleteRefreshToken(hash: String) async throws -> Bool { try await base.deleteRefreshToken(hash: hash) }
    func setPermission(_ permission: PermissionRecord) async throws { try await base.setPermission(permission) }
    func permissions(realmPaths: [String]) async throws -> [PermissionRecord] { try await base.permissions(realmPaths: realmPaths) }
    func permissions(concerningUser identity: String) async throws -> [PermissionRecord] {
        try await base.permissions(concerningUser: identity)
    }
    func insertOffer(_ offer: OfferRecord) async throws { try await base.insertOffer(offer) }
    func offer(tokenHash: String) async throws -> OfferRecord? { try await base.offer(tokenHash: tokenHash) }
    func deleteOffer(tokenHash: String) async throws -> Bool { try await base.deleteOffer(tokenHash: tokenHash) }
    func deleteRefreshTokens(expiredBefore date: Date) async throws -> Int { try await base.deleteRefreshTokens(expiredBefore: date) }
}
