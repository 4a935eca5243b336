import Crypto
import Foundation
import JWTKit
import RealmSyncWire

/// Signs and checks the server's access tokens, and makes refresh tokens.
///
/// Access tokens are JWTs signed with HMAC-SHA-256 under a secret kept in
/// the data folder (`token-secret`, mode 0600), made at first start: tokens
/// stay valid across restarts and nobody else can forge them. Refresh
/// tokens are 256 random bits; the store keeps only their SHA-256.
struct TokenIssuer: Sendable {
    private let keys: JWTKeyCollection
    let accessTokenLifetime: TimeInterval
    let refreshTokenLifetime: TimeInterval

    /// An issuer signing with the secret `store` shares between server
    /// processes, or else with the one in `dataDirectory`.
    init(dataDirectory: URL, store: any UserStore, accessTokenLifetime: TimeInterval, refreshTokenLifetime: TimeInterval) async throws {
        let secret: Data
        if let shared = store as? any SharedSecretStore {
            secret = try await shared.tokenSecret(orMake: Self.newSecret())
        } else {
            secret = try Self.loadOrMakeSecret(at: dataDirectory.appendingPathComponent("token-secret"))
        }
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        self.accessTokenLifetime = accessTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
    }

    /// A new access token for a user.
    func accessToken(for user: UserRecord, now: Date = Date()) async throws -> AccessTokenGrant {
        let expires = now.addingTimeInterval(accessTokenLifetime)
        let claims = AccessClaims(sub: .init(value: user.identity), adm: user.isAdmin, iss: .init(value: AccessClaims.issuerName),
                                  iat: .init(value: now), exp: .init(value: expires), typ: AccessClaims.accessType)
        return AccessTokenGrant(token: try await keys.sign(claims), expires: expires)
    }

    /// The claims of a valid access token.
    ///
    /// - Throws: ``Problem`` 401 (`invalidAccessToken`) for a malformed,
    ///   forged or expired token.
    func verify(accessToken token: String) async throws(Problem) -> AccessClaims {
        do {
            return try await keys.verify(token, as: AccessClaims.self)
        } catch {
            throw Problem.invalidAccessToken("the access token is malformed, forged or expired")
        }
    }

    /// A new refresh token and the record to store for it.
    func refreshToken(for userIdentity: String, now: Date = Date()) -> (token: String, record: RefreshTokenRecord) {
        let token = SecretToken.make()
        let record = RefreshTokenRecord(tokenHash: Self.hash(ofRefreshToken: token), userIdentity: userIdentity,
                                        issued: now, expires: now.addingTimeInterval(refreshTokenLifetime))
        return (token, record)
    }

    /// The stored form of a refresh token.
    static func hash(ofRefreshToken token: String) -> String {
        SecretToken.hash(token)
    }

    /// 256 random bits.
    private static func newSecret() -> Data {
        var secret = Data(count: 32)
        var generator = SystemRandomNumberGenerator()
        for index in secret.indices { secret[index] = generator.next() }
        return secret
    }

    /// The secret in `url`, made there when there is no file. A file that
    /// cannot be read or is too short is an error: replacing it would
    /// silently invalidate every token.
    private static func loadOrMakeSecret(at url: URL) throws -> Data {
        if FileManager.default.fileExists(atPath: url.path) {
            guard let secret = FileManager.default.contents(atPath: url.path), secret.count >= 32 else {
                throw SyncServer.Error.configuration("the token secret '\(url.path)' cannot be read or is shorter than 32 bytes")
            }
            return secret
        }
        let secret = newSecret()
        // Written to a new file only its owner can read, then moved into
        // place, so that no reader ever sees a partial secret.
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".token-secret-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporary.path, contents: secret, attributes: [.posixPermissions: 0o600]) else {
            throw Problem(status: 500, code: nil, title: "Cannot write the token secret", detail: temporary.path)
        }
        if rename(temporary.path, url.path) != 0 {
            try? FileManager.default.removeItem(at: temporary)
            throw Problem(status: 500, code: nil, title: "Cannot write the token secret", detail: url.path)
        }
        return secret
    }
}
