/// The rows of consecutive objects of one class, read together by one
/// statement, so that the objects a collection hands out can answer
/// property reads without a query each.
///
/// A batch is a snapshot: it holds the values at the transaction's
/// ``Transaction/changeCounter`` when it was read (its ``stamp``) and is
/// valid only while the counter still has that value. Readers compare the
/// two and fall back to a lookup when they differ.
public final class RowBatch {
    /// The transaction's change counter when the rows were read.
    public let stamp: UInt64
    /// The number of properties of the class: the length of each row.
    public let width: Int
    /// The objects' keys, in the order read.
    public let keys: [ObjectKey]
    /// The rows, one after another, in property order; list and
    /// linking-objects properties are `.null`.
    private let values: ContiguousArray<Value>

    /// Reads up to `limit` rows of `statement` (the key in column 0, then
    /// one column per entry of `columns`); `exhausted` tells whether the
    /// statement finished. The rows are gathered in local arrays, so that
    /// the loop pays no exclusivity checks.
    init(reading statement: Statement, columns: [RowColumn], width: Int, limit: Int, stamp: UInt64,
         exhausted: inout Bool) throws(RealmError) {
        var keys: [ObjectKey] = []
        keys.reserveCapacity(limit)
        // Filled in place: `init(repeating:count:)` costs as much as a
        // lookup's row for the batch of one row that `first` reads.
        var values = ContiguousArray<Value>(unsafeUninitializedCapacity: limit * width) { buffer, initialized in
            buffer.initialize(repeating: .null)
            initialized = buffer.count
        }
        var finished = false
        try values.withUnsafeMutableBufferPointer { (buffer) throws(RealmError) in
            var start = 0
            while keys.count < limit {
                guard try statement.step() else {
                    finished = true
                    break
                }
                keys.append(ObjectKey(statement.int64(at: 0)))
                for (offset, column) in columns.enumerated() {
                    buffer[start &+ column.property] = statement.value(at: Int32(offset &+ 1), as: column.type)
                }
                start &+= width
            }
        }
        if keys.count < limit { values.removeLast((limit - keys.count) * width) }
        exhausted = finished
        self.stamp = stamp
        self.width = width
        self.keys = keys
        self.values = values
    }

    /// The number of rows.
    public var count: Int { keys.count }

    /// The value of `property` in row `row`.
    @inline(__always)
    public func value(row: Int, property: Int) -> Value {
        values[row &* width &+ property]
    }

    // Typed reads: the payload of the value in place, without copying the
    // `Value` out; nil when the value is of another case.

    /// The integer of `property` in row `row`, if it holds one.
    @inline(__always)
    public func int64(row: Int, property: Int) -> Int64? {
        values.withUnsafeBufferPointer { values in
            if case .int(let int) = values[row &* width &+ property] { return int }
            return nil
        }
    }

    /// The double of `property` in row `row`, if it holds one.
    @inline(__always)
    public func double(row: Int, property: Int) -> Double? {
        values.withUnsafeBufferPointer { values in
            if case .double(let double) = values[row &* width &+ property] { return double }
            return nil
        }
    }

    /// The Boolean of `property` in row `row`, if it holds one.
    @inline(__always)
    public func bool(row: Int, property: Int) -> Bool? {
        values.withUnsafeBufferPointer { values in
            if case .bool(let bool) = values[row &* width &+ property] { return bool }
            return nil
        }
    }
}

/// A column of a row query: which property it holds, and how to read it.
public struct RowColumn: Sendable {
    /// The property's index in the class's schema.
    public let property: Int
    /// The property's stored type.
    public let type: PropertyType

    /// A column holding property `property`, of stored type `type`.
    public init(property: Int, type: PropertyType) {
        self.property = property
        self.type = type
    }
}
