/// Walks the entries of a map, or the elements of a set, as they were when
/// the walk began, reading them from the collection's statement as the
/// caller asks for them.
///
/// It keeps the promise ``ObjectCursor`` keeps: before its transaction
/// changes data or version, the transaction *detaches* it, and it reads
/// what is left of the walk from the still-open statement, then lets the
/// statement go. A loop that writes to the collection it walks therefore
/// sees the collection as it was, and a loop that does not write holds
/// only the entries it has not handed out yet, a batch at a time.
///
/// A cursor has a statement of its own (from the transaction's pool), so
/// that reading the collection inside the loop (a lookup, a count, another
/// loop) does not reset it.
package final class CollectionCursor {
    // Read and written once per batch; a cursor belongs to its
    // transaction's thread, so access tracking is left off.
    private let transaction: Transaction
    @exclusivity(unchecked) private var statement: Statement?
    /// The type the value column holds.
    private let valueType: PropertyType
    /// 1 for a map (the key comes first), 0 for a set.
    private let valueColumn: Int32
    /// What was left of the walk when the cursor was detached, or a set
    /// of decimals, which SQL cannot order (see ``Transaction/setCursor(of:)``).
    @exclusivity(unchecked) private var remaining: [(key: String, value: Value)] = []
    @exclusivity(unchecked) private var remainingPosition = 0

    init(transaction: Transaction, statement: Statement, valueType: PropertyType, valueColumn: Int32) {
        self.transaction = transaction
        self.statement = statement
        self.valueType = valueType
        self.valueColumn = valueColumn
    }

    /// A cursor over entries already read.
    init(transaction: Transaction, entries: [(key: String, value: Value)], valueType: PropertyType) {
        self.transaction = transaction
        remaining = entries
        self.valueType = valueType
        valueColumn = 0
    }

    deinit {
        transaction.lettingGoOfCursor(finish)
    }

    /// The property type of the values.
    package var elementType: PropertyType { valueType }

    /// Reads up to `limit` more entries, in order, calling `body` with each
    /// (a set's elements come with an empty key). Returns how many were
    /// read: fewer than `limit` only at the end.
    package func read(upTo limit: Int, _ body: (_ key: String, _ value: Value) -> Void) throws(RealmError) -> Int {
        try step(upTo: limit, from: readRemaining(upTo: limit, body)) { statement, key in
            body(key, statement.value(at: valueColumn, as: valueType))
        }
    }

    /// As ``read(upTo:_:)``, for a collection of `T`'s property type (the
    /// caller checked ``elementType``): each value `T`'s columns hold
    /// natively goes to `native`, read without a ``Value``, and any other
    /// (NULL, damaged, or read before the cursor was detached) to `other`.
    ///
    /// Specialized for the conforming types, so that a caller that names one
    /// reads each entry without generic calls.
    @_specialize(exported: true, where T == Int)
    @_specialize(exported: true, where T == Double)
    @_specialize(exported: true, where T == String)
    package func read<T: NativeColumnValue>(upTo limit: Int, as type: T.Type, _ native: (_ key: String, _ value: T) -> Void,
                                            other: (_ key: String, _ value: Value) -> Void) throws(RealmError) -> Int {
        try step(upTo: limit, from: readRemaining(upTo: limit, other)) { statement, key in
            if let value = T.nativeValue(statement, at: valueColumn) {
                native(key, value)
            } else {
                other(key, statement.value(at: valueColumn, as: valueType))
            }
        }
    }

    /// Steps the statement until `count` reaches `limit` or the rows end,
    /// calling `readRow` with the statement on each row and its key;
    /// returns the new count. Inlined into each reader, so that the row is
    /// read without a call through a closure.
    @inline(__always)
    private func step(upTo limit: Int, from count: Int, _ readRow: (Statement, _ key: String) -> Void) throws(RealmError) -> Int {
        guard count < limit, let statement else { return count }
        var count = count
        let readsKeys = valueColumn == 1
        do {
            while count < limit {
                guard try statement.step() else {
                    finish()
                    break
                }
                readRow(statement, readsKeys ? statement.string(at: 0) : "")
                count &+= 1
            }
        } catch {
            finish()
            throw error
        }
        return count
    }

    /// Hands out up to `limit` of the entries read before the statement was
    /// let go.
    private func readRemaining(upTo limit: Int, _ body: (_ key: String, _ value: Value) -> Void) -> Int {
        var count = 0
        while count < limit, remainingPosition < remaining.count {
            let entry = remaining[remainingPosition]
            body(entry.key, entry.value)
            remainingPosition &+= 1
            count &+= 1
        }
        return count
    }

    /// Called by the transaction before it changes data or version: keeps
    /// what is left of the walk, and lets go of the statement.
    func detach() {
        guard let statement else { return }
        remaining.removeFirst(remainingPosition)
        remainingPosition = 0
        let readsKeys = valueColumn == 1
        // A failing step here (an I/O error) ends the walk early rather
        // than failing the write that triggered the detach.
        while (try? statement.step()) == true {
            remaining.append((readsKeys ? statement.string(at: 0) : "", statement.value(at: valueColumn, as: valueType)))
        }
        finish()
    }

    private func finish() {
        guard let statement else { return }
        self.statement = nil
        transaction.checkIn(statement)
    }
}
