import Foundation
import RealmCore

/// Why an input value does not fit its property; the importer and the
/// browser add where it came from (a line, a form).
struct ValueError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// Turns input (JSON values, or text from a CSV field or a form) into
/// stored values, as ``ObjectReader`` writes them, so that an export reads
/// back exactly.
enum ValueParser {
    /// A scalar from JSON. `optional` says whether null is allowed. Links
    /// are not scalars: see ``ImportSession``.
    static func scalar(_ json: JSONValue, type: PropertyType, optional: Bool) throws(ValueError) -> Value {
        switch json {
        case .null:
            guard optional else { throw ValueError("null is not allowed: the property is required") }
            return .null
        case .string(let text):
            if type == .string { return .string(text) }
            return try scalar(text: text, type: type)
        case .number(let text):
            switch type {
            case .int, .float, .double, .decimal: return try scalar(text: text, type: type)
            case .date:
                guard let seconds = floatingPoint(text) else { break }
                return .date(Date(timeIntervalSince1970: seconds))
            default: break
            }
        case .bool(let flag):
            if type == .bool { return .bool(flag) }
        case .array, .object:
            break
        }
        throw ValueError("expected \(describe(type)), found \(json.kind)")
    }

    /// A scalar from text (not null: an empty CSV field or form is null
    /// before it gets here).
    static func scalar(text: String, type: PropertyType) throws(ValueError) -> Value {
        switch type {
        case .string:
            return .string(text)
        case .bool:
            switch text.lowercased() {
            case "true", "1", "yes": return .bool(true)
            case "false", "0", "no": return .bool(false)
            default: break
            }
        case .int:
            if let number = Int64(text) { return .int(number) }
        case .float:
            if let number = floatingPoint(text) { return .float(Float(number)) }
        case .double:
            if let number = floatingPoint(text) { return .double(number) }
        case .data:
            if let bytes = Data(base64Encoded: text) { return .data(bytes) }
        case .date:
            if let date = ISO8601.date(from: text) { return .date(date) }
            // Seconds since 1970: how a date outside the years 1 to 9999
            // is written.
            if let seconds = floatingPoint(text) { return .date(Date(timeIntervalSince1970: seconds)) }
        case .objectId:
            if let id = ObjectId(string: text) { return .objectId(id) }
        case .uuid:
            if let id = UUID(uuidString: text) { return .uuid(id) }
        case .decimal:
            if let number = Decimal128(exactText: text) { return .decimal(number) }
        case .object, .linkingObjects, .mixed:
            break
        }
        throw ValueError("expected \(describe(type)), found \"\(text.count > 40 ? text.prefix(40) + "…" : Substring(text))\"")
    }

    private static func floatingPoint(_ text: String) -> Double? {
        switch text {
        case "NaN": .nan
        case "Infinity", "+Infinity", "inf": .infinity
        case "-Infinity", "-inf": -.infinity
        default: Double(text)
        }
    }

    static func describe(_ type: PropertyType) -> String {
        switch type {
        case .bool: "true or false"
        case .int: "an integer"
        case .float, .double: "a number"
        case .string: "a string"
        case .data: "base64 data"
        case .date: "an ISO 8601 date (2024-01-31T12:00:00Z) or seconds since 1970"
        case .objectId: "an object id (24 hex digits)"
        case .uuid: "a UUID"
        case .decimal: "a decimal number"
        case .object: "a link (the target's primary key)"
        case .linkingObjects: "nothing (linking objects are computed)"
        case .mixed: "a mixed value ({\"$type\": …, \"value\": …})"
        }
    }
}
