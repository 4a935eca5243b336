import Foundation
import RealmSync
import RealmSyncServer
import Testing

extension SyncTests {
    /// Seed 001's "Admin users" and "Administrator APIs".
    @Suite struct Admin {
        static func adminServer() async throws -> TestServer {
            try await TestServer.start { $0.initialAdmin = .init(username: "root", password: "rootpw") }
        }

        @Test func theInitialAdministratorIsAnAdmin() async throws {
            let server = try await Self.adminServer()
            defer { Task { await server.stop() } }
            try await TestClient.run {
                let admin = try await SyncUser.logIn(with: .usernamePassword(username: "root", password: "rootpw"), server: server.url)
                #expect(admin.isAdmin)
                let user = try await SyncUser.logIn(with: .usernamePassword(username: "hal", password: "pw", register: true), server: server.url)
                #expect(!user.isAdmin)
            }
        }

        @Test func anAdministratorChangesAnyPasswordAndOthersCannot() async throws {
            let server = try await Self.adminServer()
            defer { Task { await server.stop() } }
            try await TestClient.run {
                let admin = try await SyncUser.logIn(with: .usernamePassword(username: "root", password: "rootpw"), server: server.url)
                let ivy = try await SyncUser.logIn(with: .usernamePassword(username: "ivy", password: "ivypw", register: true), server: server.url)
                let jon = try await SyncUser.logIn(with: .usernamePassword(username: "jon", password: "jonpw", register: true), server: server.url)

                await expectAuthError(.accessDeniedOrInvalidPath) {
                    try await jon.changePassword("hacked", forUserID: try #require(ivy.identity))
                }
                try await admin.changePassword("reset", forUserID: try #require(ivy.identity))
                await expectAuthError(.userDoesNotExist) {
                    try await admin.changePassword("x", forUserID: "0123456789abcdef0123456789abcdef")
                }
                TestClient.logOutEveryone()
                await expectAuthError(.invalidCredential) {
                    _ = try await SyncUser.logIn(with: .usernamePassword(username: "ivy", password: "ivypw"), server: server.url)
                }
                _ = try await SyncUser.logIn(with: .usernamePassword(username: "ivy", password: "reset"), server: server.url)
                // jon's attempt changed nothing.
                _ = try await SyncUser.logIn(with: .usernamePassword(username: "jon", password: "jonpw"), server: server.url)
            }
        }

        @Test func anAdministratorRetrievesUserInfo() async throws {
            let server = try await Self.adminServer()
            defer { Task { await server.stop() } }
            try await TestClient.run {
                let admin = try await SyncUser.logIn(with: .usernamePassword(username: "root", password: "rootpw"), server: server.url)
                let kim = try await SyncUser.logIn(with: .usernamePassword(username: "kim@realm.example.org", password: "pw", register: true),
                                                   server: server.url)
                let info: SyncUserInfo = try await withCheckedThrowingContinuation { continuation in
                    admin.retrieveInfo(forUser: "kim@realm.example.org", identityProvider: .usernamePassword,
                                       callbackQueue: DispatchQueue(label: "info")) { info, error in
                        if let info { continuation.resume(returning: info) } else { continuation.resume(throwing: error!) }
                    }
                }
                #expect(info.identity == kim.identity)
                #expect(info.isAdmin == false)
                #expect(info.accounts == [SyncUserAccountInfo(provider: .usernamePassword, providerUserIdentity: "kim@realm.example.org")])

                let adminInfo = try await admin.retrieveInfo(forUser: "root", identityProvider: .usernamePassword)
                #expect(adminInfo.isAdmin)

                await expectAuthError(.userDoesNotExist) {
                    _ = try await admin.retrieveInfo(forUser: "nobody", identityProvider: .usernamePassword)
                }
                await expectAuthError(.accessDeniedOrInvalidPath) {
                    _ = try await kim.retrieveInfo(forUser: "root", identityProvider: .usernamePassword)
                }
            }
        }
    }
}
