/// What a user may do with a synced Realm (seed 001, "Access Control"):
/// each level includes the ones below it.
public enum AccessLevel: Int, Codable, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    /// Nothing: the Realm cannot be opened.
    case none = 0
    /// The Realm can be downloaded; uploads are refused.
    case read = 1
    /// The Realm can be read and written.
    case write = 2
    /// The Realm can be read and written, and its permissions changed.
    case admin = 3

    public static func < (lhs: AccessLevel, rhs: AccessLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .none: "none"
        case .read: "read"
        case .write: "write"
        case .admin: "admin"
        }
    }
}
