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
    public private(set) var keys: [ObjectKey] = []
    /// The rows, one after another, in property order; list and
    /// linking-objects properties are `.null`.
    private var values: ContiguousArray<Value> = []

    init(stamp: UInt64, width: Int, capacity: Int) {
        self.stamp = stamp
        self.width = width
        keys.reserveCapacity(capacity)
        values.reserveCapacity(capacity * width)
    }

    /// The number of rows.
    public var count: Int { keys.count }

    /// The value of `property` in row `row`.
    @inline(__always)
    public func value(row: Int, property: Int) -> Value {
        values[row &* width &+ property]
    }

    /// Appends the current row of `statement`: the key in column 0, then
    /// one column per entry of `columns`.
    func append(_ statement: Statement, columns: [RowColumn]) {
        keys.append(ObjectKey(statement.int64(at: 0)))
        let start = values.count
        values.append(contentsOf: repeatElement(.null, count: width))
        for (offset, column) in columns.enumerated() {
            values[start &+ column.property] = statement.value(at: Int32(offset &+ 1), as: column.type)
        }
    }
}

/// A column of a row query: which property it holds, and how to read it.
public struct RowColumn: Sendable {
    /// The property's index in the class's schema.
    public let property: Int
    /// The property's stored type.
    public let type: PropertyType

    public init(property: Int, type: PropertyType) {
        self.property = property
        self.type = type
    }
}
