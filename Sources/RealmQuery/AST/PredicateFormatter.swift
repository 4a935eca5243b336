import Foundation
import RealmCore

extension Predicate: CustomStringConvertible {
    /// The predicate in format-string syntax, with every value written
    /// inline (values without a literal syntax, such as dates, are written
    /// readably but cannot be parsed back; use ``formatted()`` for that).
    public var description: String {
        var formatter = PredicateFormatter(inlineValues: true)
        return formatter.format(self)
    }

    /// The predicate as a format string and the arguments it needs, such
    /// that `PredicateParser.parse(format, arguments: arguments)` gives back
    /// an equal predicate. Values with a literal syntax (strings, integers,
    /// finite doubles, booleans, nil) are written inline; others become `%@`
    /// arguments, and key-path components that are not plain names become
    /// `%K` arguments.
    public func formatted() -> (format: String, arguments: [QueryArgument]) {
        var formatter = PredicateFormatter(inlineValues: false)
        let text = formatter.format(self)
        return (text, formatter.arguments)
    }
}

extension QueryExpression: CustomStringConvertible {
    /// The expression in format-string syntax, values written inline.
    public var description: String {
        var formatter = PredicateFormatter(inlineValues: true)
        return formatter.format(self)
    }
}

/// Renders predicates as format strings.
struct PredicateFormatter {
    /// Whether values without a literal syntax are written readably inline
    /// (for messages) rather than as `%@` arguments (for round trips).
    let inlineValues: Bool
    private(set) var arguments: [QueryArgument] = []

    init(inlineValues: Bool) {
        self.inlineValues = inlineValues
    }

    mutating func format(_ predicate: Predicate) -> String {
        switch predicate {
        case .truePredicate: return "TRUEPREDICATE"
        case .falsePredicate: return "FALSEPREDICATE"
        case .and(let operands):
            if operands.isEmpty { return "TRUEPREDICATE" }
            return operands.map { operand in grouped(operand) }.joined(separator: " AND ")
        case .or(let operands):
            if operands.isEmpty { return "FALSEPREDICATE" }
            return operands.map { operand in grouped(operand) }.joined(separator: " OR ")
        case .not(let operand):
            return "NOT " + grouped(operand, always: true)
        case .comparison(let comparison):
            return format(comparison)
        }
    }

    /// An operand of AND, OR or NOT, in parentheses when it is compound, so
    /// that the structure survives a round trip.
    private mutating func grouped(_ predicate: Predicate, always: Bool = false) -> String {
        switch predicate {
        case .and(let operands) where !operands.isEmpty:
            return "(" + format(predicate) + ")"
        case .or(let operands) where !operands.isEmpty:
            return "(" + format(predicate) + ")"
        case .comparison where always:
            return "(" + format(predicate) + ")"
        default:
            return format(predicate)
        }
    }

    mutating func format(_ comparison: Comparison) -> String {
        var text = comparison.modifier == .direct ? "" : comparison.modifier.rawValue + " "
        text += format(comparison.left)
        text += " " + comparison.op.rawValue + comparison.options.formatted + " "
        text += format(comparison.right)
        return text
    }

    mutating func format(_ expression: QueryExpression) -> String {
        switch expression {
        case .keyPath(let path):
            return keyPath(path)
        case .value(let value):
            return self.value(value)
        case .values(let values):
            return "{" + values.map { value in self.value(value) }.joined(separator: ", ") + "}"
        case .collectionOperation(let op, let collection, let property):
            var text = keyPath(collection) + "." + op.rawValue
            if let property { text += "." + keyPath(property, first: false) }
            return text
        case .subqueryCount(let collection, let variable, let predicate):
            return "SUBQUERY(" + keyPath(collection) + ", $" + variable + ", " + format(predicate) + ").@count"
        }
    }

    private mutating func keyPath(_ path: String, first: Bool = true) -> String {
        var parts: [String] = []
        for (index, component) in path.split(separator: ".", omittingEmptySubsequences: false).enumerated() {
            let name = String(component)
            let leading = first && index == 0
            if leading && (name == "SELF" || (name.hasPrefix("$") && Self.isPlainName(String(name.dropFirst())))) {
                parts.append(name)
            } else if !leading && (name == "@keys" || name == "@values" || name == "@type") {
                parts.append(name)
            } else if !leading && name.hasPrefix("['") && name.hasSuffix("']") {
                // A map subscript follows its map without a dot.
                parts[parts.count - 1] += name
                continue
            } else if Self.isPlainName(name) {
                // A keyword can only be mistaken for one in first position.
                parts.append(leading && Keyword.named(name) != nil ? "#" + name : name)
            } else if inlineValues {
                parts.append(name)
            } else {
                arguments.append(.keyPath(name))
                parts.append("%K")
            }
        }
        return parts.joined(separator: ".")
    }

    static func isPlainName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, Lexer.isIdentifierStart(first) else { return false }
        return name.unicodeScalars.allSatisfy(Lexer.isIdentifierContinuation)
    }

    private mutating func value(_ value: Value) -> String {
        switch value {
        case .null: return "nil"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .double(let number) where number.isFinite: return "\(number)"
        case .string(let text): return Self.quoted(text)
        default:
            if inlineValues { return Self.readable(value) }
            arguments.append(.value(value))
            return "%@"
        }
    }

    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "\0": result += "\\0"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f {
                    result += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// How a value without a literal syntax appears in messages.
    static func readable(_ value: Value) -> String {
        switch value {
        case .float(let number): "\(number)"
        case .double(let number): "\(number)"
        case .data(let data): "<\(data.count) bytes>"
        case .date(let date): "date(\(date.timeIntervalSinceReferenceDate))"
        case .objectId(let id): "oid(\(id))"
        case .uuid(let uuid): "uuid(\(uuid.uuidString))"
        case .decimal(let decimal): "decimal(\(decimal))"
        case .object(let key): "object(\(key.rawValue))"
        default: value.description
        }
    }
}
