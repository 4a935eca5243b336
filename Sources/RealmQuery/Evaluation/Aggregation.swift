import Foundation
import RealmCore

/// Aggregates computed in Swift, with SQLite's arithmetic where SQL computes
/// the same aggregate (so that both paths agree): integers sum in 64 bits,
/// wrapping around on overflow as Realm's core does (one answer in any
/// order), reals sum in order as doubles, averages divide the double sum by
/// the count. Decimals, which SQL cannot add, sum exactly. nil values, and
/// NaN of floats, doubles and decimals, are skipped.
package enum Aggregation {
    /// `op` over `values` of `type`; `.count` counts every value, nil
    /// included.
    static func compute(_ op: CollectionOperation, of values: [Value], type: PropertyType) -> Value {
        switch op {
        case .count: return .int(Int64(values.count))
        case .min: return extreme(values, type: type, wantLess: true)
        case .max: return extreme(values, type: type, wantLess: false)
        case .sum: return sum(values, type: type)
        case .average: return average(values, type: type)
        }
    }

    /// `kind` over `values` of `type`: what SQL computes for a managed
    /// collection, for values held in memory (an unmanaged list's).
    package static func compute(_ kind: AggregateKind, of values: [Value], type: PropertyType) -> Value {
        let operation: CollectionOperation
        switch kind {
        case .min: operation = .min
        case .max: operation = .max
        case .sum: operation = .sum
        case .average: operation = .average
        }
        return compute(operation, of: values, type: type)
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

    private static func sum(_ values: [Value], type: PropertyType) -> Value {
        switch type {
        case .int:
            // As Realm's core adds: in 64 bits, wrapping around on overflow,
            // so that the answer is the same in any order, and as SQL's.
            var total: Int64 = 0
            for case .int(let number) in values { total &+= number }
            return .int(total)
        case .decimal:
            var total = Decimal128.zero
            for case .decimal(let number) in values where !number.isNaN { total += number }
            return .decimal(total)
        default:
            return .double(realSum(values).sum)
        }
    }

    private static func average(_ values: [Value], type: PropertyType) -> Value {
        if type == .decimal {
            var total = Decimal128.zero
            var count: Int64 = 0
            for case .decimal(let number) in values where !number.isNaN {
                total += number
                count += 1
            }
            return count == 0 ? .null : .decimal(total / Decimal128(count))
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
