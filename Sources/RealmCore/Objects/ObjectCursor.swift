/// Walks the objects a query matched, as they were when the walk began,
/// reading their rows in batches with the query itself.
///
/// While nothing changes, the cursor streams: one statement selects the
/// keys and columns of the matches, and ``next()`` hands out its rows in
/// ``RowBatch``es, so that enumerating a million objects costs one pass
/// over the table and holds only a batch in memory.
///
/// Iteration must see the matches as they were when it began, even if the
/// loop body writes (the seeds change the matched objects inside `for …
/// in`). A statement left running across a change would see it, or keep
/// the old snapshot pinned past a commit; so before its transaction
/// changes data or version, the transaction *detaches* the cursor: it reads
/// the keys of the remaining matches from the still-open statement, then
/// resets it. From then on the cursor hands out those keys without rows,
/// and objects read their properties by key.
///
/// A loop streams in place instead (``readRowsInPlace()``): the cursor
/// steps its statement one row per ``next()`` and copies nothing; the
/// object for the row reads it from the statement (``CursorRow``) until
/// the cursor steps on, and an object the loop keeps has its row copied
/// first (``copyCurrentRow()``). Batches serve the callers that keep the
/// rows of many objects (index access).
public final class ObjectCursor {
    /// One object of the walk: its key and, while the transaction is
    /// unchanged, its row.
    public struct Element {
        /// The object's key.
        public let key: ObjectKey
        /// The batch holding the object's row, or nil when the row is the
        /// cursor's ``CursorRow`` or must be read by key.
        public let batch: RowBatch?
        /// The row's index in `batch`; without a batch, the
        /// ``CursorRow/position`` of the cursor's row when it holds the
        /// object's row, 0 when the row must be read by key.
        public let row: Int

        /// Whether the object's row is the cursor's ``CursorRow``.
        public var isInPlace: Bool { batch == nil && row != 0 }
    }

    // The mutable fields are read and written once per object handed out;
    // a cursor belongs to its transaction's thread, so access tracking is
    // left off.
    private let transaction: Transaction
    @exclusivity(unchecked) private var statement: Statement?
    private let columns: [RowColumn]
    private let width: Int
    /// Whether `columns` are the class's properties in order
    /// (``RowBatch/isDense(_:width:statement:)``).
    private let columnsAreDense: Bool
    @exclusivity(unchecked) private var batch: RowBatch?
    @exclusivity(unchecked) private var batchPosition = 0
    /// The keys to hand out next: all that remain once detached (or when
    /// made from keys), or the current batch's when reading keys only.
    @exclusivity(unchecked) private var keys: [ObjectKey] = []
    @exclusivity(unchecked) private var keyPosition = 0
    /// Rows per batch: by default small at first, so that a loop that
    /// stops early reads little ahead, then ``rowsPerBatch``.
    @exclusivity(unchecked) private var batchSize: Int
    @exclusivity(unchecked) private var readsRows = true
    /// The row the statement stands on, when streaming in place.
    @exclusivity(unchecked) private var currentRow: CursorRow?
    /// `currentRow` and `statement`, unretained, while streaming in place:
    /// the path of every row, which would otherwise retain and release
    /// both.
    @exclusivity(unchecked) private var inPlace: (row: Unmanaged<CursorRow>, statement: Unmanaged<Statement>)?
    /// The batch ``copyCurrentRow()`` copies rows into, while it has room.
    @exclusivity(unchecked) private var keptRows: RowBatch?
    /// The room of the next batch `keptRows` gets.
    @exclusivity(unchecked) private var keptRowsPerBatch = 16

    /// The number of rows of every batch but the first (and the last).
    public static let rowsPerBatch = 256

    /// A cursor over the rows `statement` selects (key first, then
    /// `columns`), already bound; it belongs to the cursor until it
    /// finishes.
    init(transaction: Transaction, statement: Statement, columns: [RowColumn], width: Int, firstBatchSize: Int) {
        self.transaction = transaction
        batchSize = firstBatchSize
        self.statement = statement
        self.columns = columns
        self.width = width
        columnsAreDense = RowBatch.isDense(columns, width: width, statement: statement)
    }

    /// A cursor over keys already computed, without rows.
    public init(transaction: Transaction, keys: [ObjectKey]) {
        self.transaction = transaction
        self.keys = keys
        batchSize = Self.rowsPerBatch
        columns = []
        width = 0
        columnsAreDense = true
    }

    deinit {
        transaction.lettingGoOfCursor(finish)
    }

    /// The next object, or nil at the end.
    public func next() throws(RealmError) -> Element? {
        while true {
            if let batch, batchPosition < batch.count {
                defer { batchPosition &+= 1 }
                return Element(key: batch.key(at: batchPosition), batch: batch, row: batchPosition)
            }
            if keyPosition < keys.count {
                defer { keyPosition &+= 1 }
                return Element(key: keys[keyPosition], batch: nil, row: 0)
            }
            if let inPlace { return try step(inPlace.statement, into: inPlace.row) }
            guard statement != nil else { return nil }
            try readBatch()
        }
    }

    /// From now on, steps one row per ``next()`` and hands out elements
    /// read in place from the returned row, instead of reading batches;
    /// nil for a cursor without a statement (made from keys, or finished),
    /// whose objects read by key. Call before the first ``next()``: rows
    /// already read into a batch are handed out first.
    package func readRowsInPlace() -> CursorRow? {
        if let currentRow { return currentRow }
        guard let statement else { return nil }
        let row = CursorRow(columns: columns, width: width)
        currentRow = row
        inPlace = (Unmanaged.passUnretained(row), Unmanaged.passUnretained(statement))
        return row
    }

    private func step(_ statement: Unmanaged<Statement>, into row: Unmanaged<CursorRow>) throws(RealmError) -> Element? {
        // Off the row before the statement moves: nothing may read the
        // next row as the previous one's.
        row._withUnsafeGuaranteedRef { $0.leave() }
        // A `Result`, because the typed error cannot pass through
        // `_withUnsafeGuaranteedRef`, which only rethrows untyped.
        let stepped = statement._withUnsafeGuaranteedRef { statement -> Result<Int64?, RealmError> in
            do throws(RealmError) {
                return .success(try statement.step() ? statement.int64(at: 0) : nil)
            } catch {
                return .failure(error)
            }
        }
        let key: Int64?
        switch stepped {
        case .success(let stepKey):
            key = stepKey
        case .failure(let error):
            finish()
            throw error
        }
        guard let key else {
            finish()
            return nil
        }
        return row._withUnsafeGuaranteedRef { row in
            row.enter(statement, stamp: transaction.changeCounter)
            return Element(key: ObjectKey(key), batch: nil, row: row.position)
        }
    }

    /// Copies the row the cursor stands on, when streaming in place, into
    /// a batch, for an object that outlives it: the batch and the row's
    /// index there; nil when the cursor stands on no row or the transaction
    /// changed since it stepped there (the object then reads by key).
    package func copyCurrentRow() -> (batch: RowBatch, row: Int)? {
        guard let statement, let currentRow, currentRow.position != 0,
              transaction.isCurrent(currentRow.stamp) else { return nil }
        let stamp = transaction.changeCounter
        let batch: RowBatch
        if let keptRows, keptRows.hasRoom, keptRows.stamp == stamp {
            batch = keptRows
        } else {
            // Small at first, as a cursor's first batch is: a loop that
            // keeps the one object it breaks on keeps a small batch alive.
            batch = RowBatch.empty(rows: keptRowsPerBatch, width: width, stamp: stamp)
            keptRows = batch
            keptRowsPerBatch = min(keptRowsPerBatch * 4, Self.rowsPerBatch)
        }
        return (batch, batch.appendRow(from: statement, columns: columns, isDense: columnsAreDense))
    }

    /// From now on, reads only the keys of the remaining matches (for a
    /// caller that has kept as many rows as it wants).
    public func stopReadingRows() {
        readsRows = false
    }

    private func readBatch() throws(RealmError) {
        guard let statement else { return }
        var exhausted = false
        do {
            if readsRows {
                batch = try RowBatch.read(from: statement, columns: columns, width: width, limit: batchSize,
                                     stamp: transaction.changeCounter, exhausted: &exhausted)
                batchPosition = 0
            } else {
                batch = nil
                keys.removeAll(keepingCapacity: true)
                keyPosition = 0
                while keys.count < batchSize {
                    guard try statement.step() else {
                        exhausted = true
                        break
                    }
                    keys.append(ObjectKey(statement.int64(at: 0)))
                }
            }
        } catch {
            finish()
            throw error
        }
        batchSize = Self.rowsPerBatch
        if exhausted { finish() }
    }

    /// Called by the transaction before it changes data or version: keeps
    /// the remaining matches as keys, and lets go of the statement.
    func detach() {
        guard let statement else { return }
        currentRow?.leave()
        var remaining: [ObjectKey] = []
        if let batch, batchPosition < batch.count {
            remaining.append(contentsOf: batch.keys(from: batchPosition))
        }
        if keyPosition < keys.count {
            remaining.append(contentsOf: keys[keyPosition...])
        }
        // A failing step here (an I/O error) ends the walk early rather
        // than failing the write that triggered the detach.
        while (try? statement.step()) == true {
            remaining.append(ObjectKey(statement.int64(at: 0)))
        }
        keys = remaining
        keyPosition = 0
        batch = nil
        finish()
    }

    private func finish() {
        guard let statement else { return }
        currentRow?.leave()
        inPlace = nil
        self.statement = nil
        transaction.checkIn(statement)
    }
}
