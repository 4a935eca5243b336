/// A JSON value read from an import file. Numbers keep their text, so that
/// a 64-bit integer or a decimal is read without going through `Double`,
/// and members their order (RealmSyncWire's `JSONValue`, made for the
/// wire's free-form fields, keeps neither).
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in their order in the file.
    case object([(String, JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// What the value is, for error messages.
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number(let text): "the number \(text)"
        case .string(let text): "the string \"\(text.count > 40 ? text.prefix(40) + "…" : text)\""
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value as it might be written in JSON, shortened, for messages.
    var literal: String {
        switch self {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let text): text
        case .string(let text): "\"\(text.count > 40 ? text.prefix(40) + "…" : Substring(text))\""
        case .array: "[…]"
        case .object: "{…}"
        }
    }

    /// The member named `name` of an object.
    subscript(member name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == name }?.1
    }
}
