import Foundation
import RealmSyncWire

/// A permission granted on the server: a user's (or every user's) access to
/// a Realm (or to every Realm of an owner, or to every Realm).
public struct PermissionRecord: Sendable, Equatable {
    /// The Realm: a path (`/<owner>/notes`), every Realm of an owner
    /// (`/<owner>/*`), or every Realm on the server (`*`).
    public var realmPath: String
    /// The server identity of the user, or `*` for every user.
    public var userIdentity: String
    /// The level granted; ``AccessLevel/none`` for a permission revoked.
    public var accessLevel: AccessLevel
    /// When it was last changed.
    public var updated: Date

    /// A permission record.
    public init(realmPath: String, userIdentity: String, accessLevel: AccessLevel, updated: Date) {
        self.realmPath = realmPath
        self.userIdentity = userIdentity
        self.accessLevel = accessLevel
        self.updated = updated
    }
}

/// An offer of access to a Realm, accepted by anyone who has its token.
/// Only the token's hash is stored.
public struct OfferRecord: Sendable, Equatable {
    /// The SHA-256 of the token, in hex.
    public var tokenHash: String
    /// The Realm's path.
    public var realmPath: String
    /// The level an accepting user gets.
    public var accessLevel: AccessLevel
    /// The user who made the offer.
    public var creator: String
    /// When it was made.
    public var created: Date
    /// When it can no longer be accepted; nil for never.
    public var expires: Date?

    /// An offer record.
    public init(tokenHash: String, realmPath: String, accessLevel: AccessLevel, creator: String, created: Date, expires: Date?) {
        self.tokenHash = tokenHash
        self.realmPath = realmPath
        self.accessLevel = accessLevel
        self.creator = creator
        self.created = created
        self.expires = expires
    }
}
