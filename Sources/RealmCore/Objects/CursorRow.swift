/// The row a streaming ``ObjectCursor`` stands on, read in place by the
/// object the cursor handed out for it.
///
/// A loop over a collection reads most objects once and lets them go
/// (`for dog in dogs { total += dog.age }`). Copying each row into a
/// ``RowBatch`` first converts every column, read or not, into a `Value`
/// (a string column makes a `String`), and frees them all afterwards. An
/// object bound to the cursor's row instead reads the columns it is asked
/// for, straight from the statement, while the statement still stands on
/// its row.
///
/// Each row the cursor steps to has a new ``position``; leaving the rows
/// (when the cursor finishes or is detached before its transaction
/// changes) moves it once more. An object remembers the position it was
/// bound at, and reads in place only while the two agree and the
/// transaction has not changed since (``stamp``): the same rule as a row
/// batch's. A loop that keeps an object has the cursor copy its row into
/// a batch before stepping on (``ObjectCursor/copyCurrentRow()``), so that
/// the object goes on reading without a query.
package final class CursorRow {
    /// Where a property's value is in the statement's row.
    private struct Column {
        /// The column's index in the row (the key is column 0), or 0 when
        /// the query does not select the property.
        var index: Int32
        /// The property's stored type.
        var type: PropertyType
    }

    /// Where the cursor stands. Read on every property access of an object
    /// read in place, so it lives behind a pointer: a stored property of a
    /// class read from another module (the object layer) pays a dynamic
    /// exclusivity check per access, which is more than the read.
    private struct Place {
        /// The statement, while it stands on a row; nil otherwise.
        /// Unretained: the cursor holds it from ``enter(_:stamp:)`` to
        /// ``leave()``.
        var statement: Unmanaged<Statement>?
        /// The row's position: a new one for each row, never 0.
        var position = 0
        /// The transaction's change counter when the statement stepped to
        /// the row.
        var stamp: UInt64 = 0
    }

    private let place: UnsafeMutablePointer<Place>

    /// The row's position: a new one for each row, never 0.
    package var position: Int { place.pointee.position }

    /// The transaction's change counter when the statement stepped to the
    /// row.
    package var stamp: UInt64 { place.pointee.stamp }

    /// One entry per property of the class.
    private let columns: UnsafeMutableBufferPointer<Column>

    /// A row of a query selecting the key, then `columns`, for a class of
    /// `width` properties.
    init(columns rowColumns: [RowColumn], width: Int) {
        place = .allocate(capacity: 1)
        place.initialize(to: Place())
        columns = .allocate(capacity: width)
        columns.initialize(repeating: Column(index: 0, type: .int))
        for (offset, column) in rowColumns.enumerated() {
            columns[column.property] = Column(index: Int32(offset + 1), type: column.type)
        }
    }

    deinit {
        place.deallocate()
        columns.deallocate()
    }

    /// Called when `statement` has stepped to a new row, at `stamp`.
    func enter(_ statement: Unmanaged<Statement>, stamp: UInt64) {
        place.pointee.statement = statement
        place.pointee.stamp = stamp
        place.pointee.position &+= 1
    }

    /// Called before the statement moves off the rows for good (it
    /// finished, or its cursor was detached): no object reads it any more.
    func leave() {
        place.pointee.statement = nil
        place.pointee.position &+= 1
    }

    /// Whether the cursor still stands on the row an object was bound to
    /// at `position` (reading it also takes the transaction's change
    /// counter to be ``stamp``).
    @inline(__always)
    package func isAt(_ position: Int) -> Bool {
        place.pointee.position == position
    }

    @inline(__always)
    private func column(_ property: Int) -> Column {
        precondition(property >= 0 && property < columns.count, "Property \(property) is outside a row of \(columns.count).")
        return columns[property]
    }

    /// The statement, when the cursor still stands at `position` and
    /// `transaction` has not changed since it stepped there.
    @inline(__always)
    private func statement(at position: Int, in transaction: Transaction) -> Unmanaged<Statement>? {
        let place = place.pointee
        guard place.position == position, transaction.isCurrent(place.stamp) else { return nil }
        return place.statement
    }

    // The reads take the position the object was bound at and its
    // transaction, and answer nil unless the row is still current: one call
    // per property read from the object layer. The typed reads also answer
    // nil when the column holds another storage class than the type's (a
    // NULL, a NaN stored as a blob, damage), or the property is of another
    // type or not selected: the caller then reads the `Value`
    // (``value(of:at:in:)``), or by key.

    /// The integer of property `property`, when it is an integer property
    /// holding one.
    package func int64(of property: Int, at position: Int, in transaction: Transaction) -> Int64? {
        let column = self.column(property)
        guard column.type == .int, column.index != 0, let statement = statement(at: position, in: transaction) else { return nil }
        return statement._withUnsafeGuaranteedRef { statement in
            statement.holds(.integer, at: column.index) ? statement.int64(at: column.index) : nil
        }
    }

    /// The double of property `property`, when it is a double property
    /// holding one stored as a REAL.
    package func double(of property: Int, at position: Int, in transaction: Transaction) -> Double? {
        let column = self.column(property)
        guard column.type == .double, column.index != 0, let statement = statement(at: position, in: transaction) else { return nil }
        return statement._withUnsafeGuaranteedRef { statement in
            statement.holds(.real, at: column.index) ? statement.double(at: column.index) : nil
        }
    }

    /// The Boolean of property `property`, when it is a Boolean property
    /// holding one.
    package func bool(of property: Int, at position: Int, in transaction: Transaction) -> Bool? {
        let column = self.column(property)
        guard column.type == .bool, column.index != 0, let statement = statement(at: position, in: transaction) else { return nil }
        return statement._withUnsafeGuaranteedRef { statement in
            statement.holds(.integer, at: column.index) ? statement.int64(at: column.index) != 0 : nil
        }
    }

    /// The value of property `property`, read as a row batch reads it; nil
    /// when the query does not select the property.
    package func value(of property: Int, at position: Int, in transaction: Transaction) -> Value? {
        let column = self.column(property)
        guard column.index != 0, let statement = statement(at: position, in: transaction) else { return nil }
        return statement._withUnsafeGuaranteedRef { $0.value(at: column.index, as: column.type) }
    }
}
