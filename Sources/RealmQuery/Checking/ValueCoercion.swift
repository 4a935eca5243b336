import Foundation
import RealmCore

/// Converts a constant to the type of the key path it is compared with, as
/// Realm converts an argument to its property's type: `floatCol == 0.1`
/// compares with `Float(0.1)`, so that the value stored from `0.1` matches.
enum ValueCoercion {
    /// `value` as a constant for comparisons with values of `type`, or nil
    /// when it cannot be one. `.null` stays `.null`.
    static func coerce(_ value: Value, to type: PropertyType) -> Value? {
        switch (type, value) {
        case (_, .null): return .null
        // A mixed value compares with a value of any type, as it is.
        case (.mixed, _): return value
        case (.int, .int), (.int, .double): return value
        case (.int, .float(let number)): return .double(Double(number))
        case (.float, .float): return value
        case (.float, .double(let number)): return .float(Float(number))
        case (.float, .int(let number)): return .float(Float(number))
        case (.double, .double), (.double, .int): return value
        case (.double, .float(let number)): return .double(Double(number))
        case (.bool, .bool): return value
        case (.bool, .int(let number)) where number == 0 || number == 1: return .bool(number == 1)
        case (.string, .string): return value
        case (.data, .data): return value
        // A string literal stands for its UTF-8 bytes, so that data can be
        // queried with literals.
        case (.data, .string(let text)): return .data(Data(text.utf8))
        case (.date, .date): return value
        case (.objectId, .objectId): return value
        case (.objectId, .string(let text)): return ObjectId(string: text).map(Value.objectId)
        case (.uuid, .uuid): return value
        case (.uuid, .string(let text)): return UUID(uuidString: text).map(Value.uuid)
        case (.decimal, .decimal): return value
        case (.decimal, .int(let number)): return .decimal(Decimal128(number))
        case (.decimal, .double(let number)) where number.isFinite:
            // The shortest text that round-trips is the decimal the user wrote.
            return Decimal128(exactText: "\(number)").map(Value.decimal)
        case (.object, .object): return value
        default: return nil
        }
    }

    /// The name of a value's type, for messages.
    static func describe(_ value: Value) -> String {
        switch value {
        case .null: "nil"
        case .string: "the string \(PredicateFormatter.quoted(value.stringValue ?? ""))"
        case .int(let number): "the integer \(number)"
        case .double(let number): "the double \(number)"
        case .float(let number): "the float \(number)"
        case .bool(let flag): "the boolean \(flag)"
        case .data(let data): "data of \(data.count) bytes"
        case .date: "a date"
        case .objectId(let id): "the object id \(id)"
        case .uuid(let uuid): "the UUID \(uuid.uuidString)"
        case .decimal(let decimal): "the decimal \(decimal)"
        case .object(let key): "object \(key.rawValue)"
        case .link(let className, let key): "object \(key.rawValue) of class \(className)"
        case .collection(let collection): collection.kind == .list ? "a list" : "a dictionary"
        }
    }
}

extension Value {
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
