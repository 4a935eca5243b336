import Foundation
import RealmCore

/// SQLite's ORDER BY order, reproduced in Swift for the rows the query must
/// sort itself (when a sort key is a decimal, which the file stores as text
/// that SQL would order as text): nil first, then numbers (NaN, a BLOB in
/// the file, after all of them), strings by UTF-8 bytes, then bytes.
/// Decimals order by value, NaN before every number (Realm's order).
package enum SQLOrdering {
    package static func compare(_ left: Value, _ right: Value) -> ComparisonResult {
        // Values of different kinds come from mixed columns only: Realm's
        // order of kinds decides, numbers of any kind being one.
        let (leftKind, rightKind) = (mixedRank(left), mixedRank(right))
        if leftKind != rightKind { return leftKind < rightKind ? .orderedAscending : .orderedDescending }
        if leftKind == 7, case .link(let leftClass, let leftKey) = left, case .link(let rightClass, let rightKey) = right {
            if leftClass != rightClass { return leftClass < rightClass ? .orderedAscending : .orderedDescending }
            return leftKey.rawValue == rightKey.rawValue ? .orderedSame : (leftKey.rawValue < rightKey.rawValue ? .orderedAscending : .orderedDescending)
        }
        if leftKind == 1, let order = mixedNumberOrder(left, right) { return order }
        let (leftRank, rightRank) = (rank(left), rank(right))
        if leftRank != rightRank { return leftRank < rightRank ? .orderedAscending : .orderedDescending }
        switch (left, right) {
        case (.decimal(let a), .decimal(let b)):
            // Decimal128's order, NaN first, as Realm sorts decimals.
            return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
        case (.string(let a), .string(let b)):
            return bytes(Array(a.utf8), Array(b.utf8))
        default:
            if leftRank == 1, let order = ValueSemantics.order(left, right) { return order }
            if leftRank == 3 { return bytes(blob(left), blob(right)) }
            return .orderedSame
        }
    }

    /// Realm's order of the kinds of mixed values: nil, Booleans, numbers,
    /// strings, data, dates, object ids, UUIDs, links, nested collections.
    private static func mixedRank(_ value: Value) -> Int {
        switch value {
        case .null: -1
        case .bool: 0
        case .int, .float, .double, .decimal: 1
        case .string: 2
        case .data: 3
        case .date: 4
        case .objectId: 5
        case .uuid: 6
        case .link, .object: 7
        case .collection: 8
        }
    }

    /// The order of two numbers of different kinds (a decimal and another
    /// number), or nil when both are of one kind.
    private static func mixedNumberOrder(_ left: Value, _ right: Value) -> ComparisonResult? {
        func decimal(_ value: Value) -> Decimal128? {
            switch value {
            case .decimal(let number): number
            case .int(let number): Decimal128(number)
            case .double(let number): Decimal128(exactText: "\(number)") ?? Decimal128(number)
            case .float(let number): Decimal128(exactText: "\(number)") ?? Decimal128(number)
            default: nil
            }
        }
        guard left.type == .decimal || right.type == .decimal, left.type != right.type,
              let a = decimal(left), let b = decimal(right) else { return nil }
        return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
    }

    /// SQLite's storage-class order: NULL, numbers, text, BLOB.
    private static func rank(_ value: Value) -> Int {
        switch value {
        case .null: 0
        case .bool, .int, .date, .object: 1
        case .link, .collection: 3
        case .float(let number): number.isNaN ? 3 : 1
        case .double(let number): number.isNaN ? 3 : 1
        case .decimal: 1
        case .string: 2
        case .data, .objectId, .uuid: 3
        }
    }

    private static func blob(_ value: Value) -> [UInt8] {
        switch value {
        case .data(let data): Array(data)
        case .objectId(let id): id.bytes
        case .uuid(let uuid): withUnsafeBytes(of: uuid.uuid) { Array($0) }
        default: []
        }
    }

    private static func bytes(_ a: [UInt8], _ b: [UInt8]) -> ComparisonResult {
        for (x, y) in zip(a, b) where x != y { return x < y ? .orderedAscending : .orderedDescending }
        return a.count == b.count ? .orderedSame : (a.count < b.count ? .orderedAscending : .orderedDescending)
    }
}

/// A tuple of values compared as SQL's DISTINCT and PARTITION BY compare
/// them: nil equals nil, 0.0 equals -0.0, strings by bytes, NaN by bit
/// pattern, decimals by their stored text.
struct DistinctKey: Hashable {
    private enum Component: Hashable {
        case null
        case integer(Int64)
        case real(Double)
        case bytes([UInt8])
        case text([UInt8])
    }

    private let components: [Component]

    init(_ values: [Value]) {
        components = values.map { value in
            switch value {
            case .null: .null
            case .bool(let flag): .integer(flag ? 1 : 0)
            case .int(let number): .integer(number)
            case .object(let key): .integer(key.rawValue)
            case .float(let number): number.isNaN ? .bytes(withUnsafeBytes(of: number.bitPattern) { Array($0) }) : .real(Double(number))
            case .double(let number): number.isNaN ? .bytes(withUnsafeBytes(of: number.bitPattern) { Array($0) }) : .real(number)
            case .date(let date): .real(date.timeIntervalSinceReferenceDate)
            case .string(let text): .text(Array(text.utf8))
            case .decimal(let decimal): .text(Array((decimal.isNaN ? "NaN" : decimal.description).utf8))
            case .data(let data): .bytes(Array(data))
            case .objectId(let id): .bytes(id.bytes)
            case .uuid(let uuid): .bytes(withUnsafeBytes(of: uuid.uuid) { Array($0) })
            case .link(let className, let key): .text(Array("\(className)\u{0}\(key.rawValue)".utf8))
            // Each nested collection is distinct: its own place.
            case .collection(let collection): .text(Array("\(collection.kind.rawValue)\u{0}\(collection.key)".utf8))
            }
        }
    }
}
