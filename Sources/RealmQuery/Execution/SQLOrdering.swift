import Foundation
import RealmCore

/// SQLite's ORDER BY order, reproduced in Swift for the rows the query must
/// sort itself (when a sort key is a decimal, which the file stores as text
/// that SQL would order as text): nil first, then numbers (NaN, a BLOB in
/// the file, after all of them), strings by UTF-8 bytes, then bytes.
/// Decimals order by value, NaN before every number (Realm's order).
enum SQLOrdering {
    static func compare(_ left: Value, _ right: Value) -> ComparisonResult {
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

    /// SQLite's storage-class order: NULL, numbers, text, BLOB.
    private static func rank(_ value: Value) -> Int {
        switch value {
        case .null: 0
        case .bool, .int, .date, .object: 1
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
            }
        }
    }
}
