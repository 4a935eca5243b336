import Foundation

/// A property value in the dynamic, untyped object API.
///
/// Each case corresponds to one ``PropertyType``; `null` is nil for any
/// optional property. Integers of every width are `int`: the width is a
/// concern of the typed SDK above.
public enum Value: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case float(Float)
    case double(Double)
    case string(String)
    case data(Data)
    case date(Date)
    case objectId(ObjectId)
    case uuid(UUID)
    case decimal(Decimal128)
    /// A to-one link: the key of an object of the property's target class.
    case object(ObjectKey)
    /// A link held by a mixed value (`AnyRealmValue`), which may point at
    /// any class: the class and the key.
    case link(className: String, key: ObjectKey)
    /// A list or dictionary of mixed values held by a mixed value
    /// (`AnyRealmValue.list`, `.dictionary`), as read. It is made with
    /// the transaction's nested-collection writes, never written as a value.
    case collection(NestedCollection)

    /// Equality by value, strings by code points (see
    /// `String.hasSameCodePoints(as:)`): two values are equal when the file
    /// would store the same thing.
    public static func == (lhs: Value, rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.float(let a), .float(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)): a.hasSameCodePoints(as: b)
        case (.data(let a), .data(let b)): a == b
        case (.date(let a), .date(let b)): a == b
        case (.objectId(let a), .objectId(let b)): a == b
        case (.uuid(let a), .uuid(let b)): a == b
        case (.decimal(let a), .decimal(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        case (.link(let c, let a), .link(let d, let b)): a == b && c == d
        case (.collection(let a), .collection(let b)): a == b
        default: false
        }
    }

    /// Whether the value holds a reference (a string's or data's storage),
    /// so that destroying it is more than forgetting its bytes: every other
    /// payload (numbers, dates, ids, UUIDs, decimals, keys) is plain data,
    /// which `RowBatchTests` checks. Every case is listed, so that a new
    /// one must decide.
    @inline(__always)
    var holdsReference: Bool {
        switch self {
        case .string, .data, .link: true
        case .null, .bool, .int, .float, .double, .date, .objectId, .uuid, .decimal, .object, .collection: false
        }
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The property type this value can be stored in, or nil for `null`.
    public var type: PropertyType? {
        switch self {
        case .null: nil
        case .bool: .bool
        case .int: .int
        case .float: .float
        case .double: .double
        case .string: .string
        case .data: .data
        case .date: .date
        case .objectId: .objectId
        case .uuid: .uuid
        case .decimal: .decimal
        case .object: .object
        case .link, .collection: .mixed
        }
    }
}

extension Value: CustomStringConvertible {
    public var description: String {
        switch self {
        case .null: "nil"
        case .bool(let value): "\(value)"
        case .int(let value): "\(value)"
        case .float(let value): "\(value)"
        case .double(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .data(let value): "<\(value.count) bytes>"
        case .date(let value): "\(value)"
        case .objectId(let value): "ObjectId(\(value))"
        case .uuid(let value): "UUID(\(value))"
        case .decimal(let value): "\(value)"
        case .object(let key): "\(key)"
        case .link(let className, let key): "\(className)(\(key))"
        case .collection(let collection): "\(collection)"
        }
    }
}
