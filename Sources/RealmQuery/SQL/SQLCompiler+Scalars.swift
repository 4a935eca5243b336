import Foundation
import RealmCore

/// Equality, ordering, BETWEEN and IN on single values, with Realm's nil
/// semantics (nil equals nil; `!=` matches nil) and the file's encodings
/// (NaN stored as a BLOB, decimals as text).
extension SQLCompiler {
    /// The most parameters one IN list binds; larger lists are left to the
    /// post-filter rather than overflow SQLite's parameter limit.
    static let maximumInListCount = 30_000

    func equality(_ left: SQLOperand, _ right: SQLOperand, negated: Bool) -> SQLFragment {
        let (subject, constant) = left.constant == nil ? (left, right.constant) : (right, left.constant)
        if let constant {
            if constant.isNull {
                return SQLFragment("\(subject.sql) IS \(negated ? "NOT " : "")NULL", subject.arguments, isNullable: false)
            }
            if negated {
                // IS NOT, because SQL's `<>` is NULL (not true) for a nil value.
                return SQLFragment("\(subject.sql) IS NOT ?", subject.arguments + [constant], isNullable: false)
            }
            return SQLFragment("\(subject.sql) = ?", subject.arguments + [constant], isNullable: subject.isNullable)
        }
        // Two key paths: IS compares NULL with NULL as equal, as Realm does.
        return SQLFragment("\(left.sql) IS \(negated ? "NOT " : "")\(right.sql)", left.arguments + right.arguments, isNullable: false)
    }

    func ordering(_ op: ComparisonOperator, _ left: SQLOperand, _ right: SQLOperand, type: PropertyType) -> SQLFragment {
        if type == .decimal { return decimalOrdering(op, left, right) }
        if Self.isNaN(left.constant) || Self.isNaN(right.constant) { return .constant(false) }
        let symbol: String
        switch op {
        case .lessThan: symbol = "<"
        case .lessThanOrEqual: symbol = "<="
        case .greaterThan: symbol = ">"
        default: symbol = ">="
        }
        var parts = ["\(left.sql) \(symbol) \(right.sql)"]
        var arguments = left.arguments + right.arguments
        // A NaN BLOB would compare greater than every number: keep it out of
        // the greater side.
        let greater = op == .lessThan || op == .lessThanOrEqual ? right : left
        if greater.mayBeNaNBlob {
            parts.append("\(greater.sql) <= 9e999")
            arguments += greater.arguments
        }
        return SQLFragment(parts.joined(separator: " AND "), arguments, precedence: parts.count > 1 ? .and : .comparison,
                           isNullable: left.isNullable || right.isNullable)
    }

    func between(_ subject: SQLOperand, _ low: Value, _ high: Value, type: PropertyType) -> SQLFragment {
        if type == .decimal {
            guard case .decimal(let lowDecimal) = low, case .decimal(let highDecimal) = high else {
                return .constant(true, isExact: false)
            }
            if lowDecimal.isNaN || highDecimal.isNaN { return .constant(false) }
            // SQLite reads `Inf` as 0: infinities go to the post-filter.
            return SQLFragment("(CAST(\(subject.sql) AS REAL) BETWEEN ? AND ? OR \(subject.sql) LIKE '%Inf')",
                               subject.arguments + [.double(Self.widened(lowDecimal, up: false)), .double(Self.widened(highDecimal, up: true))]
                                   + subject.arguments,
                               isExact: false, isNullable: true)
        }
        if Self.isNaN(low) || Self.isNaN(high) { return .constant(false) }
        // A NaN BLOB is above every upper bound, so BETWEEN excludes it.
        return SQLFragment("\(subject.sql) BETWEEN ? AND ?", subject.arguments + [low, high],
                           isNullable: subject.isNullable)
    }

    func membership(_ subject: SQLOperand, _ values: [Value], type: PropertyType, folding: Folding?) -> SQLFragment {
        if let folding {
            return .or(values.map { value in
                value.isNull
                    ? equality(subject, .parameter(.null), negated: false)
                    : foldedMatch(.equal, subject: subject, needle: .parameter(value), folding: folding)
            })
        }
        var seen = Set<Value>()
        var distinct: [Value] = []
        var includesNull = false
        for value in values {
            if value.isNull {
                includesNull = true
            } else if seen.insert(value).inserted {
                distinct.append(value)
            }
        }
        guard distinct.count <= Self.maximumInListCount else { return .constant(true, isExact: false) }
        var alternatives: [SQLFragment] = []
        if !distinct.isEmpty {
            let placeholders = Array(repeating: "?", count: distinct.count).joined(separator: ", ")
            alternatives.append(SQLFragment("\(subject.sql) IN (\(placeholders))", subject.arguments + distinct, isNullable: subject.isNullable))
        }
        if includesNull {
            alternatives.append(SQLFragment("\(subject.sql) IS NULL", subject.arguments, isNullable: false))
        }
        return .or(alternatives)
    }

    /// Decimals are text that keeps the exponent (`1.50`), so equal values
    /// may differ as text: SQL narrows the candidates to those equal as
    /// doubles, and the post-filter compares exactly. NaN and the
    /// infinities have one spelling each and compare as text.
    func decimalEquality(_ left: SQLOperand, _ right: SQLOperand) -> SQLFragment {
        let (subject, constant) = left.constant == nil ? (left, right.constant) : (right, left.constant)
        guard let constant else { return .constant(true, isExact: false) }
        guard case .decimal(let value) = constant, value.isFinite else { return equality(subject, .parameter(constant), negated: false) }
        return SQLFragment("CAST(\(subject.sql) AS REAL) BETWEEN ? AND ?",
                           subject.arguments + [.double(Self.widened(value, up: false)), .double(Self.widened(value, up: true))],
                           isExact: false, isNullable: true)
    }

    /// Decimals are text in the file, so SQL cannot order them exactly;
    /// converting to REAL narrows the candidates (rounding is monotone, and
    /// the bound is widened past any error of SQLite's text conversion),
    /// and the post-filter compares exactly.
    private func decimalOrdering(_ op: ComparisonOperator, _ left: SQLOperand, _ right: SQLOperand) -> SQLFragment {
        var op = op
        var subject = left
        var constant = right.constant
        if let leftConstant = left.constant {
            subject = right
            constant = leftConstant
            switch op {
            case .lessThan: op = .greaterThan
            case .lessThanOrEqual: op = .greaterThanOrEqual
            case .greaterThan: op = .lessThan
            default: op = .lessThanOrEqual
            }
        }
        guard case .decimal(let bound) = constant else { return .constant(true, isExact: false) }
        if bound.isNaN { return .constant(false) }
        let below = op == .lessThan || op == .lessThanOrEqual
        // SQLite reads `Inf` as 0: infinities go to the post-filter.
        return SQLFragment("(CAST(\(subject.sql) AS REAL) \(below ? "<=" : ">=") ? OR \(subject.sql) LIKE '%Inf')",
                           subject.arguments + [.double(Self.widened(bound, up: below))] + subject.arguments,
                           isExact: false, isNullable: true)
    }

    /// `decimal` as a double, moved outward by far more than any rounding
    /// error of a 34-digit conversion.
    static func widened(_ decimal: Decimal128, up: Bool) -> Double {
        let value = decimal.doubleValue
        guard value.isFinite else { return value }
        let slack = abs(value) * 1e-9 + 1e-300
        return up ? value + slack : value - slack
    }

    static func isNaN(_ value: Value?) -> Bool {
        switch value {
        case .float(let number)?: number.isNaN
        case .double(let number)?: number.isNaN
        case .decimal(let number)?: number.isNaN
        default: false
        }
    }
}
