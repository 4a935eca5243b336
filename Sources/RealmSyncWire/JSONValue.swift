import Foundation

/// Any JSON value: the free-form parts of the wire (a custom provider's
/// user info, a user's metadata).
public enum JSONValue: Codable, Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number (JSON does not tell integers apart).
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value as Foundation's JSON objects (`NSNull`, `Bool`, `Double`,
    /// `String`, arrays and dictionaries of them).
    public var foundationValue: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let value): return value
        case .number(let value): return value
        case .string(let value): return value
        case .array(let values): return values.map(\.foundationValue)
        case .object(let values): return values.mapValues(\.foundationValue)
        }
    }

    /// A JSON value for a value of Foundation's JSON objects, or nil for
    /// anything else.
    public init?(foundationValue value: Any) {
        switch value {
        case is NSNull: self = .null
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .number(Double(value))
        case let value as Double: self = .number(value)
        case let value as String: self = .string(value)
        case let values as [Any]:
            var array: [JSONValue] = []
            for element in values {
                guard let converted = JSONValue(foundationValue: element) else { return nil }
                array.append(converted)
            }
            self = .array(array)
        case let values as [String: Any]:
            var object: [String: JSONValue] = [:]
            for (key, element) in values {
                guard let converted = JSONValue(foundationValue: element) else { return nil }
                object[key] = converted
            }
            self = .object(object)
        default: return nil
        }
    }
}
