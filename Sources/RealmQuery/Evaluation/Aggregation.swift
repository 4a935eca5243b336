import Foundation
import RealmCore

/// Aggregates computed in Swift, with SQLite's arithmetic where SQL computes
/// the same aggregate (so that both paths agree): integers sum exactly (a
/// sum that does not fit 64 bits is an error, whatever the order of the
/// values), reals sum in order as doubles, averages divide the double sum by
/// the count. Decimals, which SQL cannot add, sum exactly. nil values, and
/// NaN of floats, doubles and decimals, are skipped.
enum Aggregation {
    /// `op` over `values` of `type`; `.count` counts every value, nil
    /// included.
    static func compute(_ op: CollectionOperation, of values: [Value], type: PropertyType) throws -> Value {
        switch op {
        case .count: return .int(Int64(values.count))
        case .min: return extreme(values, type: type, wantLess: true)
        case .max: return extreme(values, type: type, wantLess: false)
        case .sum: return try sum(values, type: type)
        case .average: return average(values, type: type)
        }
    }

    static func compute(_ kind: AggregateKind, of values: [Value], type: PropertyType) throws -> Value {
        let operation: CollectionOperation
        switch kind {
        case .min: operation = .min
        case .max: operation = .max
        case .sum: operation = .sum
        case .average: operation = .average
        }
        return try compute(operation, of: values, type: type)
    }

    private static func isSkipped(_ value: Value) -> Bool {
        switch value {
        case .null: true
        case .float(let number): number.isNaN
        case .double(let number): number.isNaN
        case .decimal(let number): number.isNaN
        default: false
        }
    }

    private static func extreme(_ values: [Value], type: PropertyType, wantLess: Bool) -> Value {
        var best: Value?
        for value in values where !isSkipped(value) {
            guard let current = best else {
                best = value
                continue
            }
            let order = ValueSemantics.order(value, current)
            if order == (wantLess ? .orderedAscending : .orderedDescending) { best = value }
        }
        return best ?? .null
    }

    private static func sum(_ values: [Value], type: PropertyType) throws -> Value {
        switch type {
        case .int:
            // The wrapped sum plus a count of wraps: the exact sum fits 64
            // bits exactly when the wraps cancel out.
            var total: Int64 = 0
            var wraps = 0
            for case .int(let number) in values {
                let (result, overflow) = total.addingReportingOverflow(number)
                if overflow { wraps += number > 0 ? 1 : -1 }
                total = result
            }
            if wraps != 0 {
                throw RealmError(.valueTooLarge, "Integer overflow: the sum of the values does not fit in 64 bits.")
            }
            return .int(total)
        case .decimal:
            var total = Decimal(0)
            for case .decimal(let number) in values where !number.isNaN { total += number }
            return .decimal(total)
        default:
            return .double(realSum(values).sum)
        }
    }

    private static func average(_ values: [Value], type: PropertyType) -> Value {
        if type == .decimal {
            var total = Decimal(0)
            var count = 0
            for case .decimal(let number) in values where !number.isNaN {
                total += number
                count += 1
            }
            return count == 0 ? .null : .decimal(total / Decimal(count))
        }
        let (sum, count) = realSum(values)
        return count == 0 ? .null : .double(sum / Double(count))
    }

    /// The sum of the values as doubles, in order, and how many there were.
    private static func realSum(_ values: [Value]) -> (sum: Double, count: Int) {
        var sum = 0.0
        var count = 0
        for value in values where !isSkipped(value) {
            switch value {
            case .int(let number): sum += Double(number)
            case .float(let number): sum += Double(number)
            case .double(let number): sum += number
            default: continue
            }
            count += 1
        }
        return (sum, count)
    }
}
