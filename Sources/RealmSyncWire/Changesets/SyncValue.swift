import Foundation

/// A value as it travels between replicas: a property's value with links
/// named by the target's identity, never by a replica's local key.
public enum SyncValue: Hashable, Sendable {
    /// nil.
    case null
    /// A Bool.
    case bool(Bool)
    /// An integer of any width.
    case int(Int64)
    /// A Float, to the bit.
    case float(Float)
    /// A Double, to the bit.
    case double(Double)
    /// A String.
    case string(String)
    /// Bytes.
    case data(Data)
    /// A date as the bits of its `timeIntervalSinceReferenceDate`, so that
    /// it round-trips to the bit.
    case date(Date)
    /// The 12 bytes of an ObjectId.
    case objectId(ObjectIdBytes)
    /// A UUID.
    case uuid(UUID)
    /// A decimal128, as its exact text (`1.50`, `1.5E6`, `NaN`, `-Inf`):
    /// the wire carries the digits and the exponent, which RealmCore parses.
    case decimal(String)
    /// A link: the target's class and identity.
    indirect case link(class: String, ObjectIdentity)
    /// A new, empty list nested in a mixed value, named by a key of its
    /// creator's (Docs/SyncDesign.md, "Nested collections"): the
    /// instructions that fill it name it so.
    case nestedList(GlobalKey)
    /// A new, empty dictionary nested in a mixed value, named likewise.
    case nestedDictionary(GlobalKey)

    /// Equality by representation (a NaN equals itself; strings compare
    /// by code points), so that replicas agree on what "the same value" is.
    public static func == (lhs: SyncValue, rhs: SyncValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.float(let a), .float(let b)): a.bitPattern == b.bitPattern
        case (.double(let a), .double(let b)): a.bitPattern == b.bitPattern
        case (.string(let a), .string(let b)): a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.data(let a), .data(let b)): a == b
        case (.date(let a), .date(let b)): a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
        case (.objectId(let a), .objectId(let b)): a == b
        case (.uuid(let a), .uuid(let b)): a == b
        case (.decimal(let a), .decimal(let b)): a == b
        case (.link(let classA, let a), .link(let classB, let b)): classA == classB && a == b
        case (.nestedList(let a), .nestedList(let b)): a == b
        case (.nestedDictionary(let a), .nestedDictionary(let b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .int(let value): hasher.combine(value)
        case .float(let value): hasher.combine(value.bitPattern)
        case .double(let value): hasher.combine(value.bitPattern)
        case .string(let value): for scalar in value.unicodeScalars { hasher.combine(scalar) }
        case .data(let value): hasher.combine(value)
        case .date(let value): hasher.combine(value.timeIntervalSinceReferenceDate.bitPattern)
        case .objectId(let value): hasher.combine(value)
        case .uuid(let value): hasher.combine(value)
        case .decimal(let value): hasher.combine(value)
        case .link(let className, let identity):
            hasher.combine(className)
            hasher.combine(identity)
        case .nestedList(let name):
            hasher.combine(1)
            hasher.combine(name)
        case .nestedDictionary(let name):
            hasher.combine(2)
            hasher.combine(name)
        }
    }
}

/// The 12 bytes of an ObjectId, as they travel.
public struct ObjectIdBytes: Hashable, Sendable {
    /// The first eight bytes, big-endian.
    public var high: UInt64
    /// The last four bytes, big-endian.
    public var low: UInt32

    /// The id whose bytes are `high` then `low`, big-endian.
    public init(high: UInt64, low: UInt32) {
        self.high = high
        self.low = low
    }
}
