import Foundation
import Hummingbird
import JWTKit
import RealmSync
import RealmSyncServer
import RealmSyncWire
import Testing

/// The claims a test identity service signs.
private struct IssuedClaims: JWTPayload {
    var sub: String
    var exp: Date
    var iss: String?
    var aud: String?
    var isAdmin: Bool?

    func verify(using algorithm: some JWTAlgorithm) async throws {}

    enum CodingKeys: String, CodingKey {
        case sub, exp, iss, aud, isAdmin
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sub, forKey: .sub)
        try container.encode(exp.timeIntervalSince1970, forKey: .exp)
        try container.encodeIfPresent(iss, forKey: .iss)
        try container.encodeIfPresent(aud, forKey: .aud)
        try container.encodeIfPresent(isAdmin, forKey: .isAdmin)
    }
}

/// A local identity service: a P-256 key that signs JWTs.
private struct TokenIssuer {
    let key = ES256PrivateKey()
    let keys = JWTKeyCollection()
    let kid = "test-key"

    init() async {
        await keys.add(ecdsa: key, kid: JWKIdentifier(string: kid))
    }

    var publicKeyPEM: String { key.publicKey.pemRepresentation }

    /// The public key as a JWK set, as Google publishes its keys.
    var keySetJSON: String {
        let parameters = key.publicKey.parameters!
        return #"{"keys":[{"kty":"EC","crv":"P-256","alg":"ES256","use":"sig","kid":"\#(kid)","x":"\#(parameters.x)","y":"\#(parameters.y)"}]}"#
    }

    func token(subject: String, expires: Date = Date().addingTimeInterval(300), issuer: String? = nil, audience: String? = nil,
               isAdmin: Bool? = nil) async throws -> String {
        try await keys.sign(IssuedClaims(sub: subject, exp: expires, iss: issuer, aud: audience, isAdmin: isAdmin),
                            kid: JWKIdentifier(string: kid))
    }
}

/// A local stand-in for Facebook's and CloudKit's token checks: a token
/// `good-<id>` belongs to `<id>`; any other is refused.
private func startTokenCheckService() async throws -> (URL, @Sendable () async -> Void) {
    let router = Router()
    router.get("me") { request, _ -> Response in
        let token = request.uri.queryParameters.get("access_token") ?? ""
        guard token.hasPrefix("good-") else { return Response(status: .unauthorized) }
        let body = #"{"id":"\#(token.dropFirst(5))","userRecordName":"_\#(token.dropFirst(5))"}"#
        return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
    let port = PortHolder()
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                          onServerRunning: { channel in port.set(channel.localAddress?.port ?? 0) })
    let task = Task { try await app.runService(gracefulShutdownSignals: []) }
    while port.value == 0 { try await Task.sleep(for: .milliseconds(5)) }
    return (URL(string: "http://127.0.0.1:\(port.value)/me")!, { task.cancel(); _ = await task.result })
}

private final class PortHolder: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var port = 0
    var value: Int { lock.withLock { port } }
    func set(_ value: Int) { lock.withLock { port = value } }
}

extension SyncTests {
    @Suite struct Providers {
        @Test func aJWTProviderLogsInTheTokensSubject() async throws {
            let issuer = await TokenIssuer()
            let stranger = await TokenIssuer()
            let server = try await TestServer.start { configuration in
                configuration.providers.jwt[.jwt] = .init(publicKeyPEM: issuer.publicKeyPEM, issuer: "https://id.example.org")
            }
            defer { Task { await server.stop() } }
            try await TestClient.run {
                let token = try await issuer.token(subject: "user-1", issuer: "https://id.example.org")
                let user = try await SyncUser.logIn(with: .jwt(token), server: server.url)
                #expect(!user.isAdmin)
                let again = try await SyncUser.logIn(with: .jwt(try await issuer.token(subject: "user-1", issuer: "https://id.example.org")),
                                                     server: server.url)
                #expect(again.identity == user.identity, "one subject is one user")

                let admin = try await SyncUser.logIn(with: .jwt(try await issuer.token(subject: "boss", issuer: "https://id.example.org", isAdmin: true)),
                                                     server: server.url)
                #expect(admin.isAdmin, "the token's isAdmin claim makes an administrator")

                await expectAuthError(.invalidCredential) {
                    _ = try await SyncUser.logIn(with: .jwt(try await stranger.token(subject: "user-1", issuer: "https://id.example.org")),
                                                 server: server.url)
                }
                await expectAuthError(.invalidCredential) {
                    let expired = try await issuer.token(subject: "user-1", expires: Date().addingTimeInterval(-60), issuer: "https://id.example.org")
                    _ = try await SyncUser.logIn(with: .jwt(expired), server: server.url)
                }
                await expectAuthError(.invalidCredential) {
                    _ = try await SyncUser.logIn(with: .jwt(try await issuer.token(subject: "user-1", issuer: "https://elsewhere")), server: server.url)
                }
                await expectAuthError(.invalidCredential) {
                    _ = try await SyncUser.logIn(with: .jwt("not.a.jwt"), server: server.url)
                }
            }
        }

        @Test func aCustomProviderKeepsItsUserInfo() async throws {
            let issuer = await TokenIssuer()
            let server = try await TestServer.start { configuration in
                configuration.providers.jwt["myauth"] = .init(publicKeyPEM: issuer.publicKeyPEM)
                configuration.initialAdmin = .init(username: "root", password: "rootpw")
            }
            defer { Task { await server.stop() } }
            try await TestClient.run {
                let credentials = SyncCredentials(customToken: try await issuer.token(subject: "legacy-42"), provider: "myauth",
                                                  userInfo: ["department": "sales"])
                let user = try await SyncUser.logIn(with: credentials, server: server.url)
                let admin = try await SyncUser.logIn(with: .usernamePassword(username: "root", password: "rootpw"), server: server.url)
                let info = try await admin.retrieveInfo(forUser: "legacy-42", identityProvider: "myauth")
                #expect(info.identity == user.identity)
                #expect(info.metadata == ["department": "sales"])

                await expectAuthError(.invalidParameters) {
                    _ = try await SyncUser.logIn(with: .custom(token: "x", provider: "unknownauth"), server: server.url)
                }
            }
        }

        @Test func googleIDTokensAreCheckedAgainstTheKeySetAndClientID() async throws {
            let google = await TokenIssuer()
            let server = try await TestServer.start { configuration in
                configuration.providers.google = .init(clientIDs: ["app.apps.googleusercontent.com"], keySetJSON: google.keySetJSON)
            }
            defer { Task { await server.stop() } }
            try await TestClient.run {
                let token = try await google.token(subject: "1122334455", issuer: "https://accounts.google.com",
                                                   audience: "app.apps.googleusercontent.com")
                let user = try await SyncUser.logIn(with: .google(token: token), server: server.url)
                #expect(user.identity?.count == 32)
                await expectAuthError(.invalidCredential) {
                    let other = try await google.token(subject: "1122334455", issuer: "https://accounts.google.com", audience: "other-app")
                    _ = try await SyncUser.logIn(with: .google(token: other), server: server.url)
                }
                await expectAuthError(.invalidCredential) {
                    let forged = try await google.token(subject: "1122334455", issuer: "https://evil.example", audience: "app.apps.googleusercontent.com")
                    _ = try await SyncUser.logIn(with: .google(token: forged), server: server.url)
                }
            }
        }

        @Test func facebookAndCloudKitTokensAreCheckedByURL() async throws {
            let (checkURL, stopCheck) = try await startTokenCheckService()
            let server = try await TestServer.start { configuration in
                configuration.providers.tokenCheck[.facebook] = .init(url: checkURL, identityField: "id")
                configuration.providers.tokenCheck[.cloudKit] = .init(url: checkURL, identityField: "userRecordName")
                configuration.initialAdmin = .init(username: "root", password: "rootpw")
            }
            defer { Task { await server.stop(); await stopCheck() } }
            try await TestClient.run {
                let facebook = try await SyncUser.logIn(with: .facebook(token: "good-777"), server: server.url)
                let cloudKit = try await SyncUser.logIn(with: .cloudKit(token: "good-777"), server: server.url)
                #expect(facebook.identity != cloudKit.identity, "an identity at one provider is not one at another")
                await expectAuthError(.invalidCredential) {
                    _ = try await SyncUser.logIn(with: .facebook(token: "bad"), server: server.url)
                }
                let admin = try await SyncUser.logIn(with: .usernamePassword(username: "root", password: "rootpw"), server: server.url)
                #expect(try await admin.retrieveInfo(forUser: "777", identityProvider: .facebook).identity == facebook.identity)
                #expect(try await admin.retrieveInfo(forUser: "_777", identityProvider: .cloudKit).identity == cloudKit.identity)
            }
        }

        @Test func developmentProvidersAreOffUnlessEnabled() async throws {
            let closed = try await TestServer.start()
            let open = try await TestServer.start { configuration in
                configuration.providers.allowsAnonymous = true
                configuration.providers.allowsNickname = true
            }
            let permissive = try await TestServer.start { configuration in
                configuration.providers.allowsNickname = true
                configuration.providers.allowsNicknameAdmins = true
            }
            defer { Task { await closed.stop(); await open.stop(); await permissive.stop() } }
            try await TestClient.run {
                await expectAuthError(.invalidParameters) { _ = try await SyncUser.logIn(with: .anonymous(), server: closed.url) }
                await expectAuthError(.invalidParameters) { _ = try await SyncUser.logIn(with: .nickname("neo"), server: closed.url) }
                await expectAuthError(.invalidParameters) { _ = try await SyncUser.logIn(with: .google(token: "t"), server: closed.url) }

                let first = try await SyncUser.logIn(with: .anonymous(), server: open.url)
                let second = try await SyncUser.logIn(with: .anonymous(), server: open.url)
                #expect(first.identity != second.identity, "each anonymous login is a new user")
                let neo = try await SyncUser.logIn(with: .nickname("neo"), server: open.url)
                #expect(!neo.isAdmin)
                let neoAgain = try await SyncUser.logIn(with: .nickname("neo"), server: open.url)
                #expect(neoAgain === neo)
                // Anyone could claim it: administrators by nickname need a
                // setting of their own.
                await expectAuthError(.invalidParameters) {
                    _ = try await SyncUser.logIn(with: .nickname("trinity", isAdmin: true), server: open.url)
                }
                let trinity = try await SyncUser.logIn(with: .nickname("trinity", isAdmin: true), server: permissive.url)
                #expect(trinity.isAdmin)
            }
        }
    }
}
