import Foundation
import RealmSyncWire

/// The provider of a login: Realm's `SyncCredentials.Provider`.
public typealias Provider = IdentityProvider

/// What a user logs in with: a username and password, or a token from an
/// identity provider (seed 001, "Authentication").
///
/// ```swift
/// let credentials = SyncCredentials.usernamePassword(username: "ana", password: "secret", register: true)
/// let user = try await SyncUser.logIn(with: credentials, server: URL(string: "http://127.0.0.1:9080")!)
/// ```
public struct SyncCredentials: Sendable {
    /// A token, as a provider issues it.
    public typealias Token = String

    /// The provider that vouches for the user.
    public let provider: Provider
    /// The username, nickname or token.
    public let token: Token
    /// Extra information sent with the login (for a custom provider).
    public var userInfo: [String: Any] { userInfoValues.mapValues(\.foundationValue) }
    private let userInfoValues: [String: JSONValue]
    let password: String?
    let register: Bool?
    let isAdmin: Bool?

    private init(provider: Provider, token: Token, userInfo: [String: JSONValue] = [:], password: String? = nil,
                 register: Bool? = nil, isAdmin: Bool? = nil) {
        self.provider = provider
        self.token = token
        userInfoValues = userInfo
        self.password = password
        self.register = register
        self.isAdmin = isAdmin
    }

    /// Credentials of a custom provider: a token and the provider's name as
    /// the server is configured with it. `userInfo` holds JSON values
    /// (strings, numbers, Booleans, arrays and dictionaries of them); other
    /// values are left out.
    public init(customToken token: Token, provider: Provider, userInfo: [String: Any] = [:]) {
        self.init(provider: provider, token: token, userInfo: userInfo.compactMapValues { JSONValue(foundationValue: $0) })
    }

    /// Credentials of a custom provider (see ``init(customToken:provider:userInfo:)``).
    public static func custom(token: Token, provider: Provider, userInfo: [String: Any] = [:]) -> SyncCredentials {
        SyncCredentials(customToken: token, provider: provider, userInfo: userInfo)
    }

    /// A username and password of the server's own: registers a new user
    /// when `register` is true, otherwise logs an existing one in.
    public static func usernamePassword(username: String, password: String, register: Bool = false) -> SyncCredentials {
        SyncCredentials(provider: .usernamePassword, token: username, password: password, register: register)
    }

    /// A JSON Web Token from an identity service the server trusts.
    public static func jwt(_ token: Token) -> SyncCredentials {
        SyncCredentials(provider: .jwt, token: token)
    }

    /// A Google sign-in's ID token.
    public static func google(token: Token) -> SyncCredentials {
        SyncCredentials(provider: .google, token: token)
    }

    /// A Facebook access token.
    public static func facebook(token: Token) -> SyncCredentials {
        SyncCredentials(provider: .facebook, token: token)
    }

    /// A CloudKit user token.
    public static func cloudKit(token: Token) -> SyncCredentials {
        SyncCredentials(provider: .cloudKit, token: token)
    }

    /// A new anonymous user (development only: the server must allow it).
    public static func anonymous() -> SyncCredentials {
        SyncCredentials(provider: .anonymous, token: "")
    }

    /// A user known by a nickname alone (development only: the server must
    /// allow it). `isAdmin` applies when the nickname is new.
    public static func nickname(_ nickname: String, isAdmin: Bool = false) -> SyncCredentials {
        SyncCredentials(provider: .nickname, token: nickname, isAdmin: isAdmin)
    }

    var loginRequest: LoginRequest {
        LoginRequest(provider: provider, data: token, password: password, register: register, isAdmin: isAdmin,
                     userInfo: userInfoValues.isEmpty ? nil : userInfoValues)
    }
}
