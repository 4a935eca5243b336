import Foundation

// The bodies of the authentication API (`AuthRoute`), as JSON with
// snake_case keys. Dates travel as seconds since 1970.

/// `POST /auth`: log in with credentials (registering first, for a
/// username and password, when `register` is set).
public struct LoginRequest: Codable, Sendable {
    /// The provider that vouches for the user.
    public var provider: IdentityProvider
    /// The username, the nickname, or the provider's token.
    public var data: String
    /// The password, for the username/password provider.
    public var password: String?
    /// Whether to register a new user rather than log in an existing one
    /// (username/password only).
    public var register: Bool?
    /// Whether a nickname user should be an administrator (development
    /// only, and only where the server allows nickname administrators).
    public var isAdmin: Bool?
    /// Extra information for a custom provider, passed through as given.
    public var userInfo: [String: JSONValue]?

    /// A value with these fields.
    public init(provider: IdentityProvider, data: String, password: String? = nil, register: Bool? = nil,
                isAdmin: Bool? = nil, userInfo: [String: JSONValue]? = nil) {
        self.provider = provider
        self.data = data
        self.password = password
        self.register = register
        self.isAdmin = isAdmin
        self.userInfo = userInfo
    }
}

/// A signed access token and when it stops being accepted.
public struct AccessTokenGrant: Codable, Sendable, Equatable {
    /// The token, sent as `Authorization: Bearer <token>`.
    public var token: String
    /// When the server stops accepting it.
    public var expires: Date

    /// A value with these fields.
    public init(token: String, expires: Date) {
        self.token = token
        self.expires = expires
    }
}

/// The answer to a login.
public struct LoginResponse: Codable, Sendable {
    /// The server's identity of the user (not the provider's).
    public var identity: String
    /// Whether the user is an administrator of the server.
    public var isAdmin: Bool
    /// The access token for the server's APIs and synced Realms.
    public var accessToken: AccessTokenGrant
    /// The token that gets new access tokens until the user logs out.
    public var refreshToken: String

    /// A value with these fields.
    public init(identity: String, isAdmin: Bool, accessToken: AccessTokenGrant, refreshToken: String) {
        self.identity = identity
        self.isAdmin = isAdmin
        self.accessToken = accessToken
        self.refreshToken = refreshToken
    }
}

/// `POST /auth/refresh`: a new access token for a refresh token; and
/// `POST /auth/revoke`: revoke a refresh token (logging out).
public struct RefreshTokenRequest: Codable, Sendable {
    /// The refresh token a login returned.
    public var refreshToken: String

    /// A value with these fields.
    public init(refreshToken: String) {
        self.refreshToken = refreshToken
    }
}

/// The answer to a refresh.
public struct RefreshResponse: Codable, Sendable {
    /// The new access token.
    public var accessToken: AccessTokenGrant
    /// Whether the user is an administrator now.
    public var isAdmin: Bool

    /// A value with these fields.
    public init(accessToken: AccessTokenGrant, isAdmin: Bool) {
        self.accessToken = accessToken
        self.isAdmin = isAdmin
    }
}

/// `PUT /auth/password`: change the caller's password, or (for an
/// administrator) the password of the user `userID`.
public struct ChangePasswordRequest: Codable, Sendable {
    /// The password to set (1 to 72 bytes: bcrypt reads no more).
    public var newPassword: String
    /// The server identity of the user whose password changes; nil for the
    /// caller's own.
    public var userID: String?

    /// A value with these fields.
    public init(newPassword: String, userID: String? = nil) {
        self.newPassword = newPassword
        self.userID = userID
    }

    // The wire's key is `user_id`; the snake-case strategies map it to and
    // from `userId`, not `userID`.
    private enum CodingKeys: String, CodingKey {
        case newPassword
        case userID = "userId"
    }
}

/// One way a user logs in.
public struct AccountDescription: Codable, Sendable, Equatable {
    /// The provider of the account.
    public var provider: IdentityProvider
    /// The user's identity at that provider (for username/password, the
    /// username).
    public var providerUserIdentity: String

    /// A value with these fields.
    public init(provider: IdentityProvider, providerUserIdentity: String) {
        self.provider = provider
        self.providerUserIdentity = providerUserIdentity
    }
}

/// The answer to `GET /auth/users/<provider>/<provider identity>`
/// (administrators only).
public struct UserInfoResponse: Codable, Sendable {
    /// The server's identity of the user.
    public var identity: String
    /// Whether the user administers the server.
    public var isAdmin: Bool
    /// Every way the user logs in.
    public var accounts: [AccountDescription]
    /// What the server keeps about the user (a custom provider's user info).
    public var metadata: [String: String]

    /// A value with these fields.
    public init(identity: String, isAdmin: Bool, accounts: [AccountDescription], metadata: [String: String]) {
        self.identity = identity
        self.isAdmin = isAdmin
        self.accounts = accounts
        self.metadata = metadata
    }
}

extension JSONEncoder {
    /// The encoder of the wire: snake_case keys, dates as seconds.
    public static func wire() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }
}

extension JSONDecoder {
    /// The decoder of the wire: snake_case keys, dates as seconds.
    public static func wire() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}
