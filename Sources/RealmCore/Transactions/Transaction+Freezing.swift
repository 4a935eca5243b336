import Foundation

// Frozen transactions.
//
// A frozen transaction reads one version for its whole life, from any
// thread. Realm opens a frozen transaction at any version still pinned;
// SQLite can only start a read at the newest version (Debian's SQLite is
// built without SQLITE_ENABLE_SNAPSHOT, which would allow more). So a
// transaction freezes by opening a read on another connection, which
// lands on the newest version:
//
// - When that is the version this transaction reads (it is current, or
//   writing: its write lock keeps others from committing), the new
//   connection is the frozen transaction's.
// - When this transaction is behind, the two swap their snapshots: the
//   frozen transaction takes this one's connection and the version it
//   holds, and this one goes on, at the newest version, on the new
//   connection, as a refresh would have moved it.
//
// Either way the frozen transaction owns its connection, and no
// connection is ever used by two transactions: SQLite connections here are
// opened without their own mutex (SQLITE_OPEN_NOMUTEX). The frozen
// transaction's uses from several threads are serialized by its
// `frozenLock`, which the SDK takes around every read and a cursor takes
// when it lets go of its statement.

extension Transaction {
    /// Whether this transaction is frozen (see ``freeze()``).
    public var isFrozen: Bool { frozenLock != nil }

    /// A frozen transaction at the version this one reads: it never moves
    /// to another version, refuses writes, and may be used from any
    /// thread, each use under its ``frozenLock``.
    ///
    /// Inside a write transaction, it reads the version the write began
    /// at. When this transaction is behind the newest version, making it
    /// moves this one to the newest version, as ``refresh()`` would;
    /// `movedToNewest` then says so, for the caller to deliver what
    /// changed.
    ///
    /// - Throws: ``RealmError`` when no connection to the file could be
    ///   opened or read.
    public func freeze() throws(RealmError) -> (frozen: Transaction, movedToNewest: Bool) {
        precondition(!isFrozen, "A frozen transaction is frozen already.")
        try ensureReading()
        guard let version = state.version else { preconditionFailure("A transaction that reads has a version.") }
        let frozen = Transaction(coordinator: coordinator, connection: try coordinator.checkoutConnection(), frozenLock: NSRecursiveLock())
        try frozen.beginRead()
        if frozen.state.version == version { return (frozen, false) }
        guard case .reading = state else {
            // A writer holds the file's write lock: nobody else commits.
            throw RealmError(.invalidTransactionState,
                             "Cannot freeze '\(coordinator.path)': a write transaction at version \(version) found version \(frozen.state.version ?? 0) committed.")
        }
        swapSnapshot(with: frozen)
        return (frozen, true)
    }

    /// Exchanges the read transactions of two reading transactions: their
    /// connections with what belongs to each (statements, version,
    /// catalog). Whatever either handed out before is stale after.
    private func swapSnapshot(with other: Transaction) {
        // Cursors finish reading their matches on the connection they
        // began on; from here they read by key.
        detachCursors()
        other.detachCursors()
        swap(&connection, &other.connection)
        swap(&statements, &other.statements)
        swap(&idleCursorStatements, &other.idleCursorStatements)
        swap(&catalog, &other.catalog)
        let version = state
        state = other.state
        other.state = version
        for transaction in [self, other] {
            transaction.counter &+= 1
            transaction.listEpoch &+= 1
        }
    }
}
