import RealmSyncWire

/// What a user may do with a synced Realm (seed 001, "Access Control"),
/// Realm's `SyncAccessLevel`: each level includes the ones below it.
public enum SyncAccessLevel: UInt, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// No access whatsoever.
    case none = 0
    /// The user can only read the Realm. Open it with `Realm.asyncOpen`:
    /// opening it directly records its schema, which the server refuses
    /// with ``SyncError/Code/permissionDeniedError``.
    case read = 1
    /// The user can read and write the Realm.
    case write = 2
    /// The user can read and write the Realm, and grant permissions to it.
    case admin = 3

    /// Ordered by what each allows: `.none < .read < .write < .admin`.
    public static func < (lhs: SyncAccessLevel, rhs: SyncAccessLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { wire.description }

    var wire: AccessLevel {
        switch self {
        case .none: .none
        case .read: .read
        case .write: .write
        case .admin: .admin
        }
    }

    init(_ level: AccessLevel) {
        switch level {
        case .none: self = .none
        case .read: self = .read
        case .write: self = .write
        case .admin: self = .admin
        }
    }
}
