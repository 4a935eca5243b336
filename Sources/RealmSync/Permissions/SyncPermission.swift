import Foundation

/// A permission: a user's (or every user's) access to a synced Realm (or
/// to every Realm of its owner), Realm's `SyncPermission`. Immutable, and
/// usable from any thread.
///
/// Make one to grant access with ``SyncUser/apply(_:callbackQueue:callback:)``
/// or take it away with ``SyncUser/revoke(_:callbackQueue:callback:)``;
/// ``SyncUser/retrievePermissions(callbackQueue:callback:)`` lists the
/// permissions that concern a user.
public struct SyncPermission: Sendable, Hashable, CustomStringConvertible {
    /// The Realm's path on the server (`/~/notes`, `/<identity>/notes`), or
    /// `*` for every Realm the granting user owns (every Realm, for an
    /// administrator).
    public let path: String
    /// The server identity of the user the permission is for, `*` for every
    /// user; nil when the permission names its user by username.
    public let identity: String?
    /// For a permission that names its user other than by identity, what
    /// names them (`username`); otherwise nil.
    public let key: String?
    /// For a permission that names its user other than by identity, the
    /// name (the username); otherwise nil.
    public let value: String?
    /// The access granted.
    public let accessLevel: SyncAccessLevel
    /// When the permission last changed on the server (when it was made,
    /// for one made here).
    public let updatedAt: Date

    /// Whether the access level allows reading the Realm.
    public var mayRead: Bool { accessLevel >= .read }
    /// Whether the access level allows writing the Realm.
    public var mayWrite: Bool { accessLevel >= .write }
    /// Whether the access level allows managing the Realm's permissions.
    public var mayManage: Bool { accessLevel == .admin }

    /// A permission for the user whose server identity is `identity` (`*`
    /// for every user) to the Realm at `realmPath` (`*` for every Realm the
    /// granting user owns).
    public init(realmPath: String, identity: String, accessLevel: SyncAccessLevel) {
        self.init(path: realmPath, identity: identity, key: nil, value: nil, accessLevel: accessLevel, updatedAt: Date())
    }

    /// A permission for the user who logs in with `username` to the Realm
    /// at `realmPath` (`*` for every Realm the granting user owns).
    public init(realmPath: String, username: String, accessLevel: SyncAccessLevel) {
        self.init(path: realmPath, identity: nil, key: "username", value: username, accessLevel: accessLevel, updatedAt: Date())
    }

    init(path: String, identity: String?, key: String?, value: String?, accessLevel: SyncAccessLevel, updatedAt: Date) {
        self.path = path
        self.identity = identity
        self.key = key
        self.value = value
        self.accessLevel = accessLevel
        self.updatedAt = updatedAt
    }

    /// Equal when they give the same access to the same user for the same
    /// Realm, as in Realm: `updatedAt` does not count, and `/~/notes` is
    /// the same path as `/<identity>/notes` for the permission's user.
    public static func == (lhs: SyncPermission, rhs: SyncPermission) -> Bool {
        lhs.accessLevel == rhs.accessLevel && lhs.identity == rhs.identity && lhs.key == rhs.key && lhs.value == rhs.value
            && lhs.resolvedPath == rhs.resolvedPath
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
        hasher.combine(value)
        hasher.combine(accessLevel)
    }

    /// The path with a leading `~` replaced by the permission's user.
    private var resolvedPath: String {
        guard let identity, identity != "*", path == "/~" || path.hasPrefix("/~/") else { return path }
        return "/" + identity + path.dropFirst(2)
    }

    public var description: String {
        let who = identity.map { "identity: \($0)" } ?? "key: \(key ?? ""), value: \(value ?? "")"
        return "SyncPermission(\(who), path: \(path), access level: \(accessLevel))"
    }
}

/// How ``SyncPermissionResults`` can be sorted, Realm's
/// `SyncPermissionSortProperty`.
public enum SyncPermissionSortProperty: String, Sendable {
    /// By the Realm's path.
    case path
    /// By the identity of the user the permission is for.
    case userID = "userId"
    /// By when the permission last changed.
    case updated = "updatedAt"
}

/// The errors of the permission API: ``SyncAuthError``, as in Realm 4 and
/// later (Realm 3 had a domain of its own for them).
public typealias SyncPermissionError = SyncAuthError
