/// The rows of consecutive objects of one class, read together by one
/// statement, so that the objects a collection hands out can answer
/// property reads without a query each.
///
/// A batch is a snapshot: it holds the values at the transaction's
/// ``Transaction/changeCounter`` when it was read (its ``stamp``) and is
/// valid only while the counter still has that value. Readers compare the
/// two and fall back to a lookup when they differ.
///
/// One allocation holds the batch and its rows: each row is the object's
/// key (as an `.int`) followed by its properties' values, in property
/// order. A lookup reads a batch of one row, so a batch in three pieces
/// (the object, an array of keys, an array of values) cost it two
/// allocations more.
///
/// Public, with its header, because the object layer reads rows through it
/// on every property access, and only public members of another module
/// are inlined there; `ManagedBuffer`'s own API comes with it.
public final class RowBatch: ManagedBuffer<RowBatch.Header, Value> {
    /// What a batch knows of its rows.
    public struct Header {
        /// The transaction's change counter when the rows were read.
        let stamp: UInt64
        /// The number of properties of the class.
        let width: Int
        /// The number of rows there is room for.
        let rowCapacity: Int
        /// The number of rows read, all of whose slots are initialized.
        var count: Int
        /// Whether a value holds a reference (a string's or data's
        /// storage); when none does, the rows are plain bytes that need
        /// no deinitializing.
        var holdsReferences = false
    }

    /// Reads up to `limit` rows of `statement` (the key in column 0, then
    /// one column per entry of `columns`); `exhausted` tells whether the
    /// statement finished.
    static func read(from statement: Statement, columns: [RowColumn], width: Int, limit: Int, stamp: UInt64,
                     exhausted: inout Bool) throws(RealmError) -> RowBatch {
        let batch = empty(rows: limit, width: width, stamp: stamp)
        let isDense = isDense(columns, width: width, statement: statement)
        var finished = false
        while batch.count < limit {
            guard try statement.step() else {
                finished = true
                break
            }
            batch.appendRow(from: statement, columns: columns, isDense: isDense)
        }
        exhausted = finished
        return batch
    }

    /// A batch without rows, with room for `rows` rows of `width`
    /// properties read at `stamp`.
    static func empty(rows: Int, width: Int, stamp: UInt64) -> RowBatch {
        unsafeDowncast(
            create(minimumCapacity: rows * (width &+ 1)) { _ in Header(stamp: stamp, width: width, rowCapacity: rows, count: 0) },
            to: RowBatch.self)
    }

    /// Whether `columns` are the properties of a class of `width`, in
    /// order (a class without lists or linking objects), so that each value
    /// initializes its slot rather than replacing a placeholder.
    static func isDense(_ columns: [RowColumn], width: Int, statement: Statement) -> Bool {
        precondition(columns.allSatisfy { $0.property >= 0 && $0.property < width },
                     "The columns of a row query name properties outside its class's \(width) (\(statement.sql)).")
        return columns.count == width && columns.indices.allSatisfy { columns[$0].property == $0 }
    }

    /// Whether another row fits.
    var hasRoom: Bool { withUnsafeMutablePointerToHeader { $0.pointee.count < $0.pointee.rowCapacity } }

    /// Copies the row `statement` stands on (the key in column 0, then one
    /// column per entry of `columns`) into the next free row, and returns
    /// that row's index.
    ///
    /// - Precondition: ``hasRoom``.
    @discardableResult
    func appendRow(from statement: Statement, columns: [RowColumn], isDense: Bool) -> Int {
        withUnsafeMutablePointers { header, slots in
            precondition(header.pointee.count < header.pointee.rowCapacity, "A row batch of \(header.pointee.rowCapacity) rows is full.")
            let width = header.pointee.width
            let index = header.pointee.count
            let row = slots + index &* (width &+ 1)
            var holdsReferences = header.pointee.holdsReferences
            row.initialize(to: .int(statement.int64(at: 0)))
            if isDense {
                for (offset, column) in columns.enumerated() {
                    let value = statement.value(at: Int32(offset &+ 1), as: column.type)
                    holdsReferences = holdsReferences || value.holdsReference
                    (row + (1 &+ offset)).initialize(to: value)
                }
            } else {
                (row + 1).initialize(repeating: .null, count: width)
                for (offset, column) in columns.enumerated() {
                    let value = statement.value(at: Int32(offset &+ 1), as: column.type)
                    holdsReferences = holdsReferences || value.holdsReference
                    row[1 &+ column.property] = value
                }
            }
            header.pointee.holdsReferences = holdsReferences
            // Counted once whole, so that nothing half made is left for
            // `deinit`.
            header.pointee.count = index &+ 1
            return index
        }
    }

    deinit {
        withUnsafeMutablePointers { header, slots in
            guard header.pointee.holdsReferences else { return }
            _ = slots.deinitialize(count: header.pointee.count * (header.pointee.width + 1))
        }
    }

    // The header is read through its pointer: `header` itself is a stored
    // property of the standard library's class, whose every access from
    // this module pays a dynamic exclusivity check.

    /// The transaction's change counter when the rows were read.
    public var stamp: UInt64 { withUnsafeMutablePointerToHeader { $0.pointee.stamp } }

    /// The number of properties of the class: the length of each row.
    public var width: Int { withUnsafeMutablePointerToHeader { $0.pointee.width } }

    /// The number of rows.
    public var count: Int { withUnsafeMutablePointerToHeader { $0.pointee.count } }

    /// The slot of `property` (-1 for the key) in row `row`.
    @inline(__always)
    private func slot(row: Int, property: Int) -> UnsafeMutablePointer<Value> {
        withUnsafeMutablePointers { header, slots in
            assert(row >= 0 && row < header.pointee.count && property >= -1 && property < header.pointee.width,
                   "Row \(row), property \(property) is outside a row batch of \(header.pointee.count) rows of \(header.pointee.width).")
            return slots + (row &* (header.pointee.width &+ 1) &+ 1 &+ property)
        }
    }

    /// The key of the object of row `row`.
    func key(at row: Int) -> ObjectKey {
        withExtendedLifetime(self) {
            guard case .int(let key) = slot(row: row, property: -1).pointee else {
                preconditionFailure("Row \(row) of a row batch has no key.")
            }
            return ObjectKey(key)
        }
    }

    /// The keys of the objects from row `row` on.
    func keys(from row: Int) -> [ObjectKey] {
        (row..<count).map(key(at:))
    }

    /// The value of `property` in row `row`.
    @inline(__always)
    public func value(row: Int, property: Int) -> Value {
        withExtendedLifetime(self) { slot(row: row, property: property).pointee }
    }

    // Typed reads: the payload of the value in place, without copying the
    // `Value` out; nil when the value is of another case.

    /// The integer of `property` in row `row`, if it holds one.
    @inline(__always)
    public func int64(row: Int, property: Int) -> Int64? {
        withExtendedLifetime(self) {
            if case .int(let int) = slot(row: row, property: property).pointee { return int }
            return nil
        }
    }

    /// The double of `property` in row `row`, if it holds one.
    @inline(__always)
    public func double(row: Int, property: Int) -> Double? {
        withExtendedLifetime(self) {
            if case .double(let double) = slot(row: row, property: property).pointee { return double }
            return nil
        }
    }

    /// The Boolean of `property` in row `row`, if it holds one.
    @inline(__always)
    public func bool(row: Int, property: Int) -> Bool? {
        withExtendedLifetime(self) {
            if case .bool(let bool) = slot(row: row, property: property).pointee { return bool }
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
