import Foundation
import RealmCore

/// What equality and order mean between values, exactly as the SQL the
/// compiler writes means them, so that the post-filter and SQL agree:
///
/// - nil equals nil and nothing else; it is not ordered.
/// - Numbers (int, float, double) compare by exact numeric value across
///   types; a NaN equals only a NaN of the same type and bit pattern (as the
///   BLOBs the file stores for them do) and is not ordered.
/// - Strings compare by code points (UTF-8 bytes), with no Unicode
///   normalization, unless folded by `[c]`/`[d]`.
/// - Decimals compare by value; a decimal NaN equals a decimal NaN.
enum ValueSemantics {
    static func equal(_ left: Value, _ right: Value, folding: Folding? = nil) -> Bool {
        switch (left, right) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.string(let a), .string(let b)):
            if let folding { return folding.fold(a) == folding.fold(b) }
            return a.utf8.elementsEqual(b.utf8)
        case (.float(let a), .float(let b)) where a.isNaN || b.isNaN:
            return a.bitPattern == b.bitPattern
        case (.double(let a), .double(let b)) where a.isNaN || b.isNaN:
            return a.bitPattern == b.bitPattern
        case (.decimal(let a), .decimal(let b)):
            return a == b
        case (.date(let a), .date(let b)):
            return a.timeIntervalSinceReferenceDate == b.timeIntervalSinceReferenceDate
        // Only mixed values meet these: a Boolean is no number, and a
        // decimal equals a number of the same value.
        case (.bool(let a), .bool(let b)):
            return a == b
        case (.bool, _), (_, .bool):
            return false
        case (.decimal, _), (_, .decimal):
            return mixedDecimalOrder(left, right) == .orderedSame
        default:
            if let a = Number(left), let b = Number(right) { return a.compare(b) == .orderedSame }
            return left == right
        }
    }

    /// The order of two values, or nil when they are not ordered (nil, NaN,
    /// or types without an order).
    static func order(_ left: Value, _ right: Value) -> ComparisonResult? {
        switch (left, right) {
        case (.date(let a), .date(let b)):
            return Number.real(a.timeIntervalSinceReferenceDate).compare(.real(b.timeIntervalSinceReferenceDate))
        case (.decimal(let a), .decimal(let b)):
            if a.isNaN || b.isNaN { return nil }
            return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
        case (.decimal, _), (_, .decimal):
            return mixedDecimalOrder(left, right)
        case (.bool, _), (_, .bool):
            // Booleans are ordered only among themselves (in mixed values).
            guard case .bool(let a) = left, case .bool(let b) = right else { return nil }
            return a == b ? .orderedSame : (!a ? .orderedAscending : .orderedDescending)
        case (.string(let a), .string(let b)):
            // Strings meet an ordering operator only as mixed values.
            return a.utf8.lexicographicallyPrecedes(b.utf8) ? .orderedAscending : (a.utf8.elementsEqual(b.utf8) ? .orderedSame : .orderedDescending)
        default:
            guard let a = Number(left), let b = Number(right) else { return nil }
            return a.compare(b)
        }
    }

    /// The order of a decimal and another number (mixed values), or nil
    /// when either is no number or is NaN.
    private static func mixedDecimalOrder(_ left: Value, _ right: Value) -> ComparisonResult? {
        func decimal(_ value: Value) -> Decimal128? {
            switch value {
            case .decimal(let number): number.isNaN ? nil : number
            case .int(let number): Decimal128(number)
            case .double(let number): number.isNaN ? nil : (Decimal128(exactText: "\(number)") ?? Decimal128(number))
            case .float(let number): number.isNaN ? nil : (Decimal128(exactText: "\(number)") ?? Decimal128(number))
            default: nil
            }
        }
        guard let a = decimal(left), let b = decimal(right) else { return nil }
        return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
    }

    /// Whether `order` satisfies an ordering operator.
    static func satisfies(_ order: ComparisonResult?, _ op: ComparisonOperator) -> Bool {
        guard let order else { return false }
        switch op {
        case .lessThan: return order == .orderedAscending
        case .lessThanOrEqual: return order != .orderedDescending
        case .greaterThan: return order == .orderedDescending
        case .greaterThanOrEqual: return order != .orderedAscending
        default: return false
        }
    }
}

/// An int or a real, compared exactly across the two (as SQLite does).
enum Number {
    case integer(Int64)
    case real(Double)

    init?(_ value: Value) {
        switch value {
        case .int(let number): self = .integer(number)
        case .bool(let flag): self = .integer(flag ? 1 : 0)
        case .float(let number): self = .real(Double(number))
        case .double(let number): self = .real(number)
        default: return nil
        }
    }

    /// nil when either is NaN.
    func compare(_ other: Number) -> ComparisonResult? {
        switch (self, other) {
        case (.integer(let a), .integer(let b)):
            return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
        case (.real(let a), .real(let b)):
            if a.isNaN || b.isNaN { return nil }
            return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
        case (.integer(let a), .real(let b)):
            return Self.compare(a, b)
        case (.real(let a), .integer(let b)):
            return Self.compare(b, a).map { $0 == .orderedAscending ? .orderedDescending : ($0 == .orderedDescending ? .orderedAscending : .orderedSame) }
        }
    }

    /// Compares an integer with a double without rounding either.
    private static func compare(_ integer: Int64, _ real: Double) -> ComparisonResult? {
        if real.isNaN { return nil }
        if real >= 9_223_372_036_854_775_808.0 { return .orderedAscending }
        if real < -9_223_372_036_854_775_808.0 { return .orderedDescending }
        let whole = real.rounded(.down)
        let truncated = Int64(whole)
        if integer < truncated { return .orderedAscending }
        if integer > truncated { return .orderedDescending }
        return real > whole ? .orderedAscending : .orderedSame
    }
}
