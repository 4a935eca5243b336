/// The type of a property's values, independent of optionality and of
/// whether the property is a list.
///
/// The raw values are the names stored in the schema catalog.
public enum PropertyType: String, Sendable, CaseIterable, CustomStringConvertible {
    case bool
    case int
    case float
    case double
    case string
    case data
    case date
    case objectId
    case uuid
    case decimal
    /// A link to an object of another (or the same) class.
    case object
    /// The inverse of a link: computed from the links pointing here, never
    /// stored.
    case linkingObjects
    /// A value of any of the other types, or a link to an object of any
    /// class: Realm 10's `AnyRealmValue`.
    case mixed

    public var description: String { rawValue }

    /// Whether a property of this type may be the primary key.
    public var canBePrimaryKey: Bool {
        switch self {
        case .int, .string, .objectId, .uuid: true
        default: false
        }
    }

    /// Whether a property of this type may be indexed.
    public var canBeIndexed: Bool {
        switch self {
        case .bool, .int, .string, .date, .objectId, .uuid, .mixed: true
        default: false
        }
    }

    /// The column's declared SQL type. Floating-point and date columns declare
    /// none, so that SQLite applies no affinity and stores every value exactly
    /// as bound (a REAL affinity would store -0.0 as the integer 0).
    var sqlDeclaration: String {
        switch self {
        case .bool, .int, .object: "INTEGER"
        case .string, .decimal: "TEXT"
        case .data, .objectId, .uuid: "BLOB"
        case .float, .double, .date, .linkingObjects: ""
        // No affinity: each value keeps the storage class it is bound with.
        case .mixed: ""
        }
    }

    /// The value stored for a required property that was given none.
    var defaultValue: Value {
        switch self {
        case .bool: .bool(false)
        case .int: .int(0)
        case .float: .float(0)
        case .double: .double(0)
        case .string: .string("")
        case .data: .data(Data())
        case .date: .date(Date(timeIntervalSince1970: 0))
        case .objectId: .objectId(ObjectId(bytes: [UInt8](repeating: 0, count: 12))!)
        case .uuid: .uuid(Foundation.UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .decimal: .decimal(0)
        case .object, .linkingObjects, .mixed: .null
        }
    }
}

import Foundation
