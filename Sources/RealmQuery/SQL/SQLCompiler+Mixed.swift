import Foundation
import RealmCore

/// Comparisons of mixed values (`AnyRealmValue`) with constants.
///
/// A mixed value compares by Realm's rules across types (1 == 1.0, a
/// Boolean is no number, a decimal equals a number of its value), which
/// SQL cannot say of every stored form: floats and decimals are BLOBs
/// (see RealmCore's `MixedEncoding`). But the storage classes sort
/// apart in SQLite (NULL, then numbers, then text, then BLOBs by their
/// first byte, the tag), so SQL can say which stored forms surely match
/// and which only may: the post-filter then reads only those, not every
/// object.
extension SQLCompiler {
    /// The test of a mixed value against a constant, polarity-correct; nil
    /// when SQL has nothing to say (a comparison of two key paths, string
    /// options, a type name or a path into nested collections).
    func mixedTest(_ comparison: ResolvedComparison, _ left: SQLOperand, _ right: SQLOperand, positive: Bool) -> SQLFragment? {
        guard comparison.options.isEmpty, comparesStoredMixedValue(comparison) else { return nil }
        var op = comparison.op
        let subject: SQLOperand
        let constant: Value?
        if left.constant == nil {
            (subject, constant) = (left, right.constant)
        } else {
            (subject, constant) = (right, left.constant)
            op = op.mirrored
        }
        switch op {
        case .notEqual:
            guard let constant, let equal = MixedNarrowing(subject, .equal, constant) else { return nil }
            return .not(equal.fragment(positive: !positive))
        case .between:
            guard case .constants(let bounds) = comparison.right, bounds.count == 2,
                  let low = MixedNarrowing(subject, .greaterThanOrEqual, bounds[0]),
                  let high = MixedNarrowing(subject, .lessThanOrEqual, bounds[1]) else { return nil }
            return .and([low.fragment(positive: positive), high.fragment(positive: positive)])
        case .in:
            guard case .constants(let values) = comparison.right, values.count <= Self.maximumInListCount else { return nil }
            var alternatives: [SQLFragment] = []
            for value in values {
                guard let equal = MixedNarrowing(subject, .equal, value) else { return nil }
                alternatives.append(equal.fragment(positive: positive))
            }
            return .or(alternatives)
        default:
            guard let constant, let narrowing = MixedNarrowing(subject, op, constant) else { return nil }
            return narrowing.fragment(positive: positive)
        }
    }

    /// Whether the side that is no constant reads a mixed value as the file
    /// stores it: a property, a collection's element or a map's value (not
    /// its `@type`, nor a path into nested collections).
    private func comparesStoredMixedValue(_ comparison: ResolvedComparison) -> Bool {
        let path: ResolvedPath
        switch (comparison.left, comparison.right) {
        case (.path(let left), .constant), (.path(let left), .constants): path = left
        case (.constant, .path(let right)): path = right
        default: return false
        }
        switch path.terminal {
        case .column(let property, _), .primitiveList(let property, _), .mapValue(let property, _, _):
            return property.type == .mixed
        case .object, .mapKeys, .mixedType, .mixedPath:
            return false
        }
    }
}

/// What SQL can say of `subject op constant` for a mixed subject: the
/// stored forms that surely match (`sure`, exactly those of its storage
/// class that do) and the stored forms of other classes that may
/// (`maybe`), which the post-filter decides.
private struct MixedNarrowing {
    var sure: SQLFragment?
    var maybe: [SQLFragment]

    /// nil for what is better left to the post-filter whole: NaN, an
    /// ordering of types without an order, a link.
    init?(_ subject: SQLOperand, _ op: ComparisonOperator, _ constant: Value) {
        let s = subject.sql, a = subject.arguments
        let nullable = subject.isNullable
        // `s op ?`: what SQL decides within the constant's storage class.
        func compared(_ symbol: String, _ value: Value) -> SQLFragment {
            SQLFragment("\(s) \(symbol) ?", a + [value], isNullable: nullable)
        }
        // `s op ?`, and `s` within `bound`, another comparison.
        func compared(_ symbol: String, _ value: Value, within bound: String) -> SQLFragment {
            SQLFragment("\(s) \(symbol) ? AND \(s) \(bound)", a + [value] + a, precedence: .and, isNullable: nullable)
        }
        // The BLOBs whose first byte is `tag`: one range, which an index
        // can seek.
        func tagged(_ tag: Unicode.Scalar) -> SQLFragment {
            let byte = String(tag.value, radix: 16), next = String(tag.value + 1, radix: 16)
            return SQLFragment("\(s) >= x'\(byte)' AND \(s) < x'\(next)'", a + a, precedence: .and, isNullable: nullable)
        }
        // The numbers SQLite has of its own sort below every text.
        let plainNumbers = SQLFragment("\(s) < ''", a, isNullable: nullable)
        let blobNumbers = [tagged("f"), tagged("m")]

        switch (op, constant) {
        case (.equal, .null):
            // A link to a deleted object reads as nil (RealmCore clears
            // them, but a damaged file may keep one).
            self.init(sure: SQLFragment("\(s) IS NULL", a, isNullable: false), maybe: [tagged("L")])
        case (.equal, .int), (.equal, .double), (.equal, .float):
            guard let number = Self.plainNumber(constant) else { return nil }
            self.init(sure: compared("=", number), maybe: blobNumbers)
        case (.equal, .decimal):
            self.init(sure: nil, maybe: [plainNumbers] + blobNumbers)
        case (.equal, .string):
            self.init(sure: compared("=", constant), maybe: [])
        case (.equal, .bool), (.equal, .objectId), (.equal, .uuid), (.equal, .data):
            // One stored form each, and equal to no value of another type.
            self.init(sure: compared("=", MixedEncoding.stored(constant)), maybe: [])
        case (.equal, .date(let date)):
            // -0.0 and 0.0 are one date of two stored forms; a NaN date is
            // equal to none.
            let seconds = date.timeIntervalSinceReferenceDate
            if seconds == 0 || seconds.isNaN {
                self.init(sure: nil, maybe: [tagged("t")])
            } else {
                self.init(sure: compared("=", MixedEncoding.stored(constant)), maybe: [])
            }
        case (.lessThan, _), (.lessThanOrEqual, _), (.greaterThan, _), (.greaterThanOrEqual, _):
            let symbol = op.sqlSymbol
            let below = op == .lessThan || op == .lessThanOrEqual
            switch constant {
            case .int, .double, .float:
                guard let number = Self.plainNumber(constant) else { return nil }
                // Below a number are only numbers (and NULL, which no
                // comparison matches); above one, text and BLOBs too.
                self.init(sure: below ? compared(symbol, number) : compared(symbol, number, within: "< ''"), maybe: blobNumbers)
            case .decimal(let decimal):
                guard !decimal.isNaN else { return nil }
                self.init(sure: nil, maybe: [plainNumbers] + blobNumbers)
            case .string:
                // Text sorts between the numbers and the BLOBs, by its bytes
                // (the column's BINARY collation), as Realm orders strings.
                self.init(sure: compared(symbol, constant, within: below ? ">= ''" : "< x''"), maybe: [])
            case .date(let date):
                guard !date.timeIntervalSinceReferenceDate.isNaN else { return nil }
                // Dates are stored as bits, which do not sort as the dates.
                self.init(sure: nil, maybe: [tagged("t")])
            case .bool:
                self.init(sure: nil, maybe: [tagged("b")])
            default:
                return nil
            }
        default:
            return nil
        }
    }

    private init(sure: SQLFragment?, maybe: [SQLFragment]) {
        self.sure = sure
        self.maybe = maybe
    }

    /// An int or double SQLite compares exactly with the stored numbers, or
    /// nil for NaN (stored as a BLOB, and equal to no number).
    private static func plainNumber(_ value: Value) -> Value? {
        switch value {
        case .int: return value
        case .double(let number): return number.isNaN ? nil : value
        // A float equals a double of its exact value.
        case .float(let number): return number.isNaN ? nil : .double(Double(number))
        default: return nil
        }
    }

    /// Outside a NOT, a superset of the matches (what may match too); under
    /// one, a subset (what surely matches). Exact when nothing only may;
    /// otherwise uncertain of the rows that may: the post-filter tests
    /// those alone.
    func fragment(positive: Bool) -> SQLFragment {
        var result: SQLFragment
        if positive {
            result = .or((sure.map { [$0] } ?? []) + maybe)
        } else {
            result = sure ?? .constant(false)
        }
        result.isExact = maybe.isEmpty
        if !maybe.isEmpty {
            let doubtful = SQLFragment.or(maybe)
            // What surely matches is of another storage class than what may,
            // so `sure` is the rows SQL decides, whatever the polarity.
            let decided = sure ?? .constant(false)
            // Outside a NOT, the fragment selects every row that may match.
            result.uncertain = SQLFragment.Uncertainty(sql: doubtful.sql, arguments: doubtful.arguments,
                                                       decided: (decided.sql, decided.arguments),
                                                       selected: positive ? (doubtful.sql, doubtful.arguments) : nil)
        }
        return result
    }
}

private extension ComparisonOperator {
    /// The operator with its operands swapped (`5 < x` is `x > 5`).
    var mirrored: ComparisonOperator {
        switch self {
        case .lessThan: .greaterThan
        case .lessThanOrEqual: .greaterThanOrEqual
        case .greaterThan: .lessThan
        case .greaterThanOrEqual: .lessThanOrEqual
        default: self
        }
    }

    var sqlSymbol: String {
        switch self {
        case .lessThan: "<"
        case .lessThanOrEqual: "<="
        case .greaterThan: ">"
        default: ">="
        }
    }
}
