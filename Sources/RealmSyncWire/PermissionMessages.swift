import Foundation

// The permission API (`PermissionRoute`), as JSON with snake_case keys,
// authenticated with the caller's access token. Dates travel as seconds
// since 1970.

/// The paths of the server's permission API, relative to the server's URL.
public enum PermissionRoute {
    /// `POST`: grant, change or revoke a permission (``ApplyPermissionRequest``);
    /// 204.
    public static let permissions = "/permissions"
    /// `POST`: offer access to a Realm (``CreateOfferRequest`` →
    /// ``OfferTokenMessage``).
    public static let offers = "/permissions/offers"
    /// `POST`: accept an offer (``OfferTokenMessage`` → ``AcceptOfferResponse``).
    public static let acceptOffer = "/permissions/offers/accept"
    /// `POST`: withdraw an offer (``OfferTokenMessage``); 204.
    public static let invalidateOffer = "/permissions/offers/invalidate"
}

/// `POST /permissions`: give the user named by `userIdentity` (or `*`, every
/// user) or by `username` the access `accessLevel` to the Realm at
/// `realmPath` (or `*`: every Realm the caller owns, every Realm for an
/// administrator). `none` revokes.
public struct ApplyPermissionRequest: Codable, Sendable, Equatable {
    /// The Realm's path (`/~/notes`, `/<identity>/notes`), or `*`.
    public var realmPath: String
    /// The server identity of the user, or `*`.
    public var userIdentity: String?
    /// The username of the user (their username/password account).
    public var username: String?
    /// The level granted.
    public var accessLevel: AccessLevel

    /// A value with these fields; exactly one of `userIdentity` and
    /// `username` is set.
    public init(realmPath: String, userIdentity: String? = nil, username: String? = nil, accessLevel: AccessLevel) {
        self.realmPath = realmPath
        self.userIdentity = userIdentity
        self.username = username
        self.accessLevel = accessLevel
    }
}

/// `POST /permissions/offers`: a token that gives whoever accepts it
/// `accessLevel` to the Realm at `realmPath`, until `expires` (for ever
/// when nil).
public struct CreateOfferRequest: Codable, Sendable, Equatable {
    /// The Realm's path (`/~/notes`, `/<identity>/notes`).
    public var realmPath: String
    /// The level an accepting user gets: read, write or admin.
    public var accessLevel: AccessLevel
    /// When the offer can no longer be accepted.
    public var expires: Date?

    /// A value with these fields.
    public init(realmPath: String, accessLevel: AccessLevel, expires: Date? = nil) {
        self.realmPath = realmPath
        self.accessLevel = accessLevel
        self.expires = expires
    }
}

/// An offer's token: the answer to creating one, and the body of accepting
/// or withdrawing one.
public struct OfferTokenMessage: Codable, Sendable, Equatable {
    /// The token, to be handed to the users the offer is for.
    public var token: String

    /// A value with this token.
    public init(token: String) {
        self.token = token
    }
}

/// The answer to accepting an offer: the Realm it gave access to.
public struct AcceptOfferResponse: Codable, Sendable, Equatable {
    /// The Realm's path, its owner's identity in place of `~`.
    public var realmPath: String

    /// A value with this path.
    public init(realmPath: String) {
        self.realmPath = realmPath
    }
}

/// The synced Realm in which the server lists a user's permissions for
/// their clients (`/<identity>/__permission`), and its one class, which
/// only the server writes.
public enum PermissionRealm {
    /// The last component of the Realm's path.
    public static let name = "__permission"
    /// The class of its objects.
    public static let className = "Permission"
    /// The primary key: the Realm's path and the user's identity, joined
    /// by `|`, which neither can hold.
    public static let id = "id"
    /// The Realm's path (or `*`).
    public static let path = "path"
    /// The identity of the user granted access (or `*`).
    public static let userId = "userId"
    /// Whether the level allows reading (Realm Object Server's flags).
    public static let mayRead = "mayRead"
    /// Whether the level allows writing.
    public static let mayWrite = "mayWrite"
    /// Whether the level allows managing the Realm's permissions.
    public static let mayManage = "mayManage"
    /// When the permission last changed.
    public static let updatedAt = "updatedAt"

    /// The primary key of the permission of `userId` for `path`.
    public static func key(path: String, userId: String) -> String { path + "|" + userId }
}
