/// The name of an authentication provider: the service that vouches for a
/// user's identity when they log in (seed 001, "Authentication").
///
/// The names are Realm's (`RLMIdentityProvider`); a custom provider is any
/// other name the server is configured with.
public struct IdentityProvider: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
                                CustomStringConvertible {
    /// The provider's name.
    public let rawValue: String

    /// A provider named `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A provider named `rawValue` (as Realm's `Provider("myauth")`).
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// A provider named `value`.
    public init(stringLiteral value: String) {
        rawValue = value
    }

    /// Decodes the name, a JSON string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the name as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The provider's name.
    public var description: String { rawValue }

    /// The server's own usernames and passwords.
    public static let usernamePassword: IdentityProvider = "password"
    /// A JSON Web Token signed by an identity service the server trusts.
    public static let jwt: IdentityProvider = "jwt"
    /// A Google sign-in: an OpenID Connect ID token.
    public static let google: IdentityProvider = "google"
    /// A Facebook access token, checked with a token-check URL.
    public static let facebook: IdentityProvider = "facebook"
    /// A CloudKit user token, checked with a token-check URL.
    public static let cloudKit: IdentityProvider = "cloudkit"
    /// A new user at each login, for development only.
    public static let anonymous: IdentityProvider = "anonymous"
    /// A user named by a nickname alone, for development only.
    public static let nickname: IdentityProvider = "nickname"
}
