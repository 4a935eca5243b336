import AsyncHTTPClient
import Foundation
import JWTKit
import Logging
import NIOCore
import RealmSyncWire

/// What an external provider vouched for: the user's identity there, and
/// what the token says of them.
struct ExternalIdentity: Sendable {
    var providerUserIdentity: String
    /// Set when the token says whether the user is an administrator.
    var isAdmin: Bool?
}

/// Checks the tokens of the providers that are not the server's own:
/// JWT and custom providers, Google, and the token-check providers
/// (Facebook, CloudKit).
struct ExternalIdentityVerifier: Sendable {
    private struct JWTVerifier: Sendable {
        let keys: JWTKeyCollection
        let configuration: SyncServer.JWTProvider
    }

    private let jwtVerifiers: [IdentityProvider: JWTVerifier]
    private let google: (keys: JWTKeyCollection, clientIDs: [String])?
    private let tokenChecks: [IdentityProvider: SyncServer.TokenCheckProvider]
    private let logger: Logger

    init(_ providers: SyncServer.Providers, logger: Logger) async throws {
        self.logger = logger
        var verifiers: [IdentityProvider: JWTVerifier] = [:]
        for (name, configuration) in providers.jwt {
            let keys = JWTKeyCollection()
            if let key = try? Insecure.RSA.PublicKey(pem: configuration.publicKeyPEM) {
                await keys.add(rsa: key, digestAlgorithm: .sha256)
            } else if let key = try? ES256PublicKey(pem: configuration.publicKeyPEM) {
                await keys.add(ecdsa: key)
            } else {
                throw SyncServer.Error.configuration("the public key of provider '\(name)' is neither an RSA nor a P-256 key in PEM")
            }
            verifiers[name] = JWTVerifier(keys: keys, configuration: configuration)
        }
        jwtVerifiers = verifiers
        if let configuration = providers.google {
            let keys = JWTKeyCollection()
            do {
                try await keys.add(jwksJSON: configuration.keySetJSON)
            } catch {
                throw SyncServer.Error.configuration("Google's key set is not a JWK set: \(error)")
            }
            google = (keys, configuration.clientIDs)
        } else {
            google = nil
        }
        tokenChecks = providers.tokenCheck
    }

    /// Whether `provider` is one of these.
    func handles(_ provider: IdentityProvider) -> Bool {
        jwtVerifiers[provider] != nil || tokenChecks[provider] != nil || (provider == .google && google != nil)
    }

    /// The identity `token` proves at `provider`.
    ///
    /// - Throws: ``Problem`` 401 (`invalidCredential`) for a token the
    ///   provider does not vouch for.
    func verify(_ token: String, provider: IdentityProvider) async throws(Problem) -> ExternalIdentity {
        if let verifier = jwtVerifiers[provider] {
            return try await verifyJWT(token, with: verifier, provider: provider)
        }
        if provider == .google, let google {
            return try await verifyGoogle(token, keys: google.keys, clientIDs: google.clientIDs)
        }
        if let check = tokenChecks[provider] {
            return try await checkToken(token, with: check, provider: provider)
        }
        throw Problem.invalidParameters("the provider '\(provider)' is not enabled on this server")
    }

    private func verifyJWT(_ token: String, with verifier: JWTVerifier, provider: IdentityProvider) async throws(Problem) -> ExternalIdentity {
        let claims: ProviderClaims
        do {
            claims = try await verifier.keys.verify(token, as: ProviderClaims.self)
        } catch {
            throw Problem.invalidCredential("the token of provider '\(provider)' is not valid: \(Self.reason(error))")
        }
        let configuration = verifier.configuration
        if let issuer = configuration.issuer, claims.string("iss") != issuer {
            throw Problem.invalidCredential("the token of provider '\(provider)' was not issued by '\(issuer)'")
        }
        if let audience = configuration.audience, !claims.audiences.contains(audience) {
            throw Problem.invalidCredential("the token of provider '\(provider)' is not meant for '\(audience)'")
        }
        guard let identity = claims.string(configuration.identityClaim), !identity.isEmpty else {
            throw Problem.invalidCredential("the token of provider '\(provider)' has no '\(configuration.identityClaim)' claim")
        }
        let isAdmin = configuration.adminClaim.flatMap { claims.bool($0) }
        return ExternalIdentity(providerUserIdentity: identity, isAdmin: isAdmin)
    }

    private func verifyGoogle(_ token: String, keys: JWTKeyCollection, clientIDs: [String]) async throws(Problem) -> ExternalIdentity {
        let claims: ProviderClaims
        do {
            claims = try await keys.verify(token, as: ProviderClaims.self)
        } catch {
            throw Problem.invalidCredential("the Google ID token is not valid: \(Self.reason(error))")
        }
        guard let issuer = claims.string("iss"), ["accounts.google.com", "https://accounts.google.com"].contains(issuer) else {
            throw Problem.invalidCredential("the Google ID token was not issued by Google")
        }
        guard claims.audiences.contains(where: clientIDs.contains) else {
            throw Problem.invalidCredential("the Google ID token is for another client ID")
        }
        guard let subject = claims.string("sub"), !subject.isEmpty else {
            throw Problem.invalidCredential("the Google ID token has no subject")
        }
        return ExternalIdentity(providerUserIdentity: subject, isAdmin: nil)
    }

    private func checkToken(_ token: String, with check: SyncServer.TokenCheckProvider,
                            provider: IdentityProvider) async throws(Problem) -> ExternalIdentity {
        guard var components = URLComponents(url: check.url, resolvingAgainstBaseURL: false) else {
            throw Problem.internalError
        }
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "access_token", value: token)]
        guard let url = components.url else { throw Problem.internalError }
        let body: ByteBuffer
        do {
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url.absoluteString), timeout: .seconds(10))
            guard response.status == .ok else {
                throw Problem.invalidCredential("\(provider) refused the token (HTTP \(response.status.code))")
            }
            body = try await response.body.collect(upTo: 1 << 20)
        } catch let problem as Problem {
            throw problem
        } catch {
            logger.error("checking a \(provider) token at \(check.url.absoluteString) failed: \(error)")
            throw Problem(status: 502, code: nil, title: "The provider cannot be reached",
                          detail: "\(provider) could not check the token; try again later")
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any],
              let identity = (object[check.identityField] as? String) ?? (object[check.identityField] as? Int).map(String.init),
              !identity.isEmpty else {
            throw Problem.invalidCredential("\(provider)'s answer has no '\(check.identityField)'")
        }
        return ExternalIdentity(providerUserIdentity: identity, isAdmin: nil)
    }

    private static func reason(_ error: any Error) -> String {
        (error as? JWTError).map { "\($0.errorType)" } ?? "\(type(of: error))"
    }
}

/// The claims of a provider's JWT: any claims, with `exp` and `nbf`
/// checked when present (and `exp` required).
private struct ProviderClaims: JWTPayload {
    var claims: [String: JSONValue]

    init(from decoder: any Decoder) throws {
        claims = try [String: JSONValue](from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        try claims.encode(to: encoder)
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {
        guard case .number(let expiry) = claims["exp"] else {
            throw JWTError.claimVerificationFailure(failedClaim: nil, reason: "no expiry")
        }
        try ExpirationClaim(value: Date(timeIntervalSince1970: expiry)).verifyNotExpired()
        if case .number(let notBefore) = claims["nbf"], Date().timeIntervalSince1970 < notBefore {
            throw JWTError.claimVerificationFailure(failedClaim: nil, reason: "not valid yet")
        }
    }

    func string(_ name: String) -> String? {
        if case .string(let value) = claims[name] { return value }
        return nil
    }

    func bool(_ name: String) -> Bool? {
        if case .bool(let value) = claims[name] { return value }
        return nil
    }

    var audiences: [String] {
        switch claims["aud"] {
        case .string(let value): [value]
        case .array(let values): values.compactMap { if case .string(let value) = $0 { value } else { nil } }
        default: []
        }
    }
}
