/// A cursor that reads from a statement left open between its steps, so
/// that its transaction must detach it before it changes data or version
/// (see ``ObjectCursor``).
protocol DetachableCursor: AnyObject {
    /// Reads what is left of the walk, and lets go of the statement.
    func detach()
}

extension ObjectCursor: DetachableCursor {}
extension CollectionCursor: DetachableCursor {}

/// A cursor the transaction must detach before it changes, held weakly so
/// that a loop that stops early releases its cursor.
struct WeakCursor {
    weak var cursor: (any DetachableCursor)?
}

extension Transaction {
    /// A cursor over the rows `sql` selects: the object key first, then one
    /// column per entry of `columns`, for a class of `width` properties.
    /// Read in batches, its first has `firstBatchSize` rows, the others
    /// ``ObjectCursor/rowsPerBatch``.
    ///
    /// The statement is prepared once per SQL text and reused by later
    /// cursors; two cursors running at once (nested loops) get two.
    package func makeCursor(sql: String, arguments: [Value], columns: [RowColumn], width: Int, firstBatchSize: Int) throws(RealmError) -> ObjectCursor {
        let statement = try pooledStatement(sql: sql, arguments: arguments)
        return register(ObjectCursor(transaction: self, statement: statement, columns: columns, width: width, firstBatchSize: firstBatchSize))
    }

    /// Keeps `cursor` to detach before the next change.
    func register<Cursor: DetachableCursor>(_ cursor: Cursor) -> Cursor {
        streamingCursors.removeAll { $0.cursor == nil }
        streamingCursors.append(WeakCursor(cursor: cursor))
        return cursor
    }

    /// The first row of `sql`'s result, read as a cursor's first batch
    /// would be; nil when there is none. The statement goes back to the pool
    /// at once, so no cursor is left to detach.
    package func firstRow(sql: String, arguments: [Value], columns: [RowColumn], width: Int) throws(RealmError) -> ObjectCursor.Element? {
        let statement = try pooledStatement(sql: sql, arguments: arguments)
        defer { checkIn(statement) }
        var exhausted = false
        let batch = try RowBatch.read(from: statement, columns: columns, width: width, limit: 1, stamp: changeCounter, exhausted: &exhausted)
        return batch.count == 0 ? nil : ObjectCursor.Element(key: batch.key(at: 0), batch: batch, row: 0)
    }

    /// A statement of the cursor pool for `sql`, with `arguments` bound,
    /// to check in when done with it.
    func pooledStatement(sql: String, arguments: [Value]) throws(RealmError) -> Statement {
        try ensureReading()
        let statement: Statement
        if let idle = idleCursorStatements.take(sql: sql) {
            statement = idle
        } else {
            statement = try connection.prepare(sql, persistent: true)
        }
        for (index, argument) in arguments.enumerated() {
            statement.bind(argument, at: Int32(index + 1))
        }
        return statement
    }

    /// Runs `finish`, a cursor's last step as it is let go, under the
    /// frozen transaction's lock if there is one: a frozen transaction's
    /// cursor may be let go on any thread while another reads through the
    /// same connection.
    func lettingGoOfCursor(_ finish: () -> Void) {
        guard let frozenLock else { return finish() }
        frozenLock.lock()
        defer { frozenLock.unlock() }
        finish()
    }

    /// Takes back the statement of a cursor that finished.
    func checkIn(_ statement: Statement) {
        statement.reset()
        idleCursorStatements.put(statement)
    }

    /// Turns every streaming cursor into a list of the keys it has left,
    /// before the data or the version it reads changes.
    func detachCursors() {
        guard !streamingCursors.isEmpty else { return }
        let cursors = streamingCursors
        streamingCursors.removeAll()
        for entry in cursors { entry.cursor?.detach() }
    }
}
