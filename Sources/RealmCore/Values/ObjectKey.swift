/// The identity of an object within its class in one Realm file.
///
/// Keys are assigned in increasing order and never reused within a file, so a
/// key held by a stale handle can never come to denote a newer object. A key is
/// meaningful only together with its class.
public struct ObjectKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The key as stored in the class table's `_key` column.
    public let rawValue: Int64

    /// Wraps a stored key.
    public init(_ rawValue: Int64) {
        self.rawValue = rawValue
    }

    public static func < (lhs: ObjectKey, rhs: ObjectKey) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String { "ObjectKey(\(rawValue))" }
}
