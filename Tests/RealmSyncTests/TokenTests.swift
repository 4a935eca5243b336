import Foundation
@testable import RealmSync
import RealmSyncServer
import RealmSyncWire
import Testing

extension SyncTests {
    /// Access tokens expire and are refreshed; refresh tokens are revoked by
    /// logging out.
    @Suite struct Tokens {
        @Test func theClientRefreshesItsAccessTokenBeforeItExpires() async throws {
            let server = try await TestServer.start { $0.accessTokenLifetime = 2 }
            defer { Task { await server.stop() } }
            try await TestClient.run {
                let user = try await SyncUser.logIn(with: .usernamePassword(username: "lu", password: "pw", register: true), server: server.url)
                let first = try await user.accessToken()
                // The background refresh runs a fifth of the lifetime before
                // expiry (1.6 s here): by 2.5 s the token has changed without
                // anyone asking for one.
                try await Task.sleep(for: .milliseconds(2500))
                let second = user.currentAccessToken.token
                #expect(second != first)
                #expect(user.currentAccessToken.expires > Date())
                // The new token is accepted where the old one is not.
                try await user.changePassword("pw2")
                let stale = try await HTTPExchange.send("PUT", server.url.appendingPathComponent("auth/password"),
                                                        body: HTTPExchange.json(ChangePasswordRequest(newPassword: "x")),
                                                        headers: ["Authorization": "Bearer \(first)"])
                #expect(stale.status == 401)
                #expect(stale.problem?.code == .invalidAccessToken)
            }
        }

        @Test func loggingOutRevokesTheRefreshToken() async throws {
            let server = try await TestServer.start()
            defer { Task { await server.stop() } }
            let register = LoginRequest(provider: .usernamePassword, data: "mo", password: "pw", register: true)
            let login = try await HTTPExchange.send("POST", server.url.appendingPathComponent("auth"), body: HTTPExchange.json(register))
            #expect(login.status == 200)
            let answer = try JSONDecoder.wire().decode(LoginResponse.self, from: login.body)

            let refresh = RefreshTokenRequest(refreshToken: answer.refreshToken)
            let refreshed = try await HTTPExchange.send("POST", server.url.appendingPathComponent("auth/refresh"), body: HTTPExchange.json(refresh))
            #expect(refreshed.status == 200)

            let revoked = try await HTTPExchange.send("POST", server.url.appendingPathComponent("auth/revoke"), body: HTTPExchange.json(refresh))
            #expect(revoked.status == 204)
            for route in ["auth/refresh", "auth/revoke"] {
                let replayed = try await HTTPExchange.send("POST", server.url.appendingPathComponent(route), body: HTTPExchange.json(refresh))
                #expect(replayed.status == 401, "\(route)")
                #expect(replayed.problem?.code == .invalidAccessToken, "\(route)")
            }
        }

        @Test func aUserWhoseRefreshTokenExpiredIsLoggedOutAndReported() async throws {
            let server = try await TestServer.start { configuration in
                configuration.accessTokenLifetime = 1
                configuration.refreshTokenLifetime = 1
            }
            defer { Task { await server.stop() } }
            try await TestClient.run {
                let reported = ReportedErrors()
                SyncManager.shared.errorHandler = { error, session in reported.append(error, session) }
                defer { SyncManager.shared.errorHandler = nil }
                let user = try await SyncUser.logIn(with: .usernamePassword(username: "ned", password: "pw", register: true), server: server.url)
                // The background refresh, due before the access token
                // expires, finds the refresh token expired as well.
                let deadline = Date().addingTimeInterval(10)
                while reported.errors.isEmpty, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
                #expect(user.state == .error)
                #expect(SyncUser.all.isEmpty)
                await expectAuthError(.invalidAccessToken) { _ = try await user.accessToken() }
                let errors = reported.errors
                #expect(errors.count == 1)
                #expect((errors.first as? SyncError)?.code == .underlyingAuthError)
                #expect((errors.first as NSError?)?.domain == "io.realm.sync")
            }
        }

        @Test func forgedAndMalformedAccessTokensAreRefused() async throws {
            let server = try await TestServer.start()
            defer { Task { await server.stop() } }
            let url = server.url.appendingPathComponent("auth/password")
            let body = HTTPExchange.json(ChangePasswordRequest(newPassword: "x"))
            // A token of the right shape signed with another key.
            let forged = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhZG1pbiIsImFkbSI6dHJ1ZSwiaXNzIjoicmVhbG0tc3luYy1zZXJ2ZXIiLCJpYXQiOjAsImV4cCI6OTk5OTk5OTk5OSwidHlwIjoiYWNjZXNzIn0.c2lnbmF0dXJl"
            for authorization in [nil, "Bearer", "Bearer \(forged)", "Basic abc", "Bearer a.b.c"] {
                let exchange = try await HTTPExchange.send("PUT", url, body: body,
                                                           headers: authorization.map { ["Authorization": $0] } ?? [:])
                #expect(exchange.status == 401, "\(authorization ?? "no header")")
                #expect(exchange.problem?.code == .invalidAccessToken)
            }
        }
    }
}

/// Errors the sync manager's handler received.
final class ReportedErrors: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var received: [any Error] = []

    func append(_ error: any Error, _ session: SyncSession?) {
        lock.withLock { received.append(error) }
    }

    var errors: [any Error] { lock.withLock { received } }
}

