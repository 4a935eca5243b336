import Foundation
import RealmSyncWire

/// A user of the server: the identity the server gives them, whatever
/// providers they log in with.
public struct UserRecord: Sendable, Equatable {
    /// The server's identity of the user: 32 lowercase hex digits.
    public var identity: String
    /// Whether the user administers the server.
    public var isAdmin: Bool
    /// When the user was made (their first login or registration).
    public var created: Date
    /// Free-form facts about the user (for a custom provider, its user
    /// info), returned by the user-info API.
    public var metadata: [String: String]

    /// A user record.
    public init(identity: String, isAdmin: Bool, created: Date, metadata: [String: String] = [:]) {
        self.identity = identity
        self.isAdmin = isAdmin
        self.created = created
        self.metadata = metadata
    }
}

/// One way a user logs in: a provider and the user's identity there.
public struct AccountRecord: Sendable, Equatable {
    /// The provider of the account.
    public var provider: IdentityProvider
    /// The identity at the provider: the username, the JWT's subject …
    public var providerUserIdentity: String
    /// The server's identity of the user the account belongs to.
    public var userIdentity: String
    /// The salted slow hash of the password (username/password accounts
    /// only).
    public var passwordHash: String?

    /// An account record.
    public init(provider: IdentityProvider, providerUserIdentity: String, userIdentity: String, passwordHash: String? = nil) {
        self.provider = provider
        self.providerUserIdentity = providerUserIdentity
        self.userIdentity = userIdentity
        self.passwordHash = passwordHash
    }
}

/// A refresh token the server handed out: only its hash is stored, so a
/// copy of the store gives nobody a way to log in.
public struct RefreshTokenRecord: Sendable, Equatable {
    /// The SHA-256 of the token, in hex.
    public var tokenHash: String
    /// The user the token logs in.
    public var userIdentity: String
    /// When the token was issued (at a login).
    public var issued: Date
    /// When the server stops accepting it.
    public var expires: Date

    /// A refresh token record.
    public init(tokenHash: String, userIdentity: String, issued: Date, expires: Date) {
        self.tokenHash = tokenHash
        self.userIdentity = userIdentity
        self.issued = issued
        self.expires = expires
    }
}

/// Why a store refused a change.
public enum UserStoreError: Error, Equatable {
    /// The provider identity belongs to a user already.
    case accountExists
    /// No such user or account.
    case notFound
    /// The store is closed: the server that opened it stopped.
    case closed
}

/// Where the server keeps its users, their accounts, their refresh
/// tokens, and the permissions and offers of its Realms, durably.
///
/// The server ships ``EmbeddedUserStore`` (a Realm in its data folder);
/// a store shared by several server processes (PostgreSQL) implements the
/// same protocol. Every method is atomic: a change is durable when it
/// returns, and two concurrent `createUser` calls for one account make one
/// user.
public protocol UserStore: Sendable {
    /// The user with server identity `identity`.
    func user(identity: String) async throws -> UserRecord?
    /// The account of `provider` for the provider's identity.
    func account(provider: IdentityProvider, providerUserIdentity: String) async throws -> AccountRecord?
    /// Every account of a user.
    func accounts(ofUser identity: String) async throws -> [AccountRecord]
    /// Stores a new user with its first account.
    ///
    /// - Throws: ``UserStoreError/accountExists`` when the account belongs to
    ///   a user already; nothing is stored then.
    func createUser(_ user: UserRecord, account: AccountRecord) async throws
    /// Replaces the password hash of an account.
    func setPasswordHash(_ hash: String, provider: IdentityProvider, providerUserIdentity: String) async throws
    /// Makes a user an administrator or not.
    func setAdmin(_ isAdmin: Bool, userIdentity: String) async throws
    /// Stores a refresh token's record.
    func insertRefreshToken(_ token: RefreshTokenRecord) async throws
    /// The record of the refresh token with this hash.
    func refreshToken(hash: String) async throws -> RefreshTokenRecord?
    /// Forgets a refresh token; returns whether it was there.
    @discardableResult
    func deleteRefreshToken(hash: String) async throws -> Bool
    /// Forgets the refresh tokens that expired before `date`; returns how
    /// many.
    @discardableResult
    func deleteRefreshTokens(expiredBefore date: Date) async throws -> Int

    // MARK: Permissions

    /// Stores `permission`, replacing the one for the same Realm path and
    /// user. A revoked permission is kept at ``AccessLevel/none``: it
    /// grants nothing, but still marks the Realm as one whose access was
    /// set (a Realm outside users' folders is open to all until then).
    func setPermission(_ permission: PermissionRecord) async throws
    /// The permissions whose `realmPath` is one of `realmPaths`.
    func permissions(realmPaths: [String]) async throws -> [PermissionRecord]
    /// The permissions that concern the user `identity`: granted to them or
    /// to every user, or on a Realm path under their identity.
    func permissions(concerningUser identity: String) async throws -> [PermissionRecord]
    /// Stores an offer.
    func insertOffer(_ offer: OfferRecord) async throws
    /// The offer whose token has this hash.
    func offer(tokenHash: String) async throws -> OfferRecord?
    /// Forgets an offer; returns whether it was there.
    @discardableResult
    func deleteOffer(tokenHash: String) async throws -> Bool
}

/// A store that several server processes share (PostgreSQL's): it also
/// keeps the secret that signs access tokens, so that a token one process
/// issues is accepted by every other. A server whose store is not one
/// keeps the secret in its data folder.
public protocol SharedSecretStore: UserStore {
    /// The stored secret; `candidate` is stored first when there is none
    /// (the first server to ask makes it, and every other reads it).
    func tokenSecret(orMake candidate: Data) async throws -> Data
}
