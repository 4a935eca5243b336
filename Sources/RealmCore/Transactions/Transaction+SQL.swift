/// Access for the layers above (the query compiler) to run the SQL they
/// compile against this transaction's snapshot. Package-only: applications
/// use the object store's API, and values reach SQL only as bound
/// parameters.
extension Transaction {
    /// A statement for `sql`, compiled once per connection and reset, ready
    /// to bind and step at the version being read.
    package func queryStatement(_ sql: String) throws(RealmError) -> Statement {
        try ensureReading()
        return try connection.cachedStatement(sql)
    }

    /// A statement for `sql` on the replication observer's own tables
    /// (named `sync_…`), inside the write transaction: what it writes
    /// commits or rolls back with the changes it records.
    ///
    /// - Throws: `invalidTransactionState` outside a write transaction.
    package func replicationStatement(_ sql: String) throws(RealmError) -> Statement {
        try requireWrite("record a change for replication")
        return try connection.cachedStatement(sql)
    }

    /// Runs `sql` (several statements, no parameters) on the replication
    /// observer's own tables inside the write transaction: creating them.
    package func replicationExecute(_ sql: String) throws(RealmError) {
        try requireWrite("prepare tables for replication")
        try connection.execute(sql)
    }

    /// Records a change for the replication observer, if there is one; the
    /// change is built only then.
    @inline(__always)
    func replicate(_ change: @autoclosure () throws(RealmError) -> ReplicatedChange) throws(RealmError) {
        guard let replication else { return }
        try replication.record(try change(), in: self)
    }

    /// Runs `body` as one atomic step when a replication observer records
    /// what it does (so that a change and its record cannot part), and as
    /// it is otherwise (sparing a savepoint).
    @inline(__always)
    func replicatingAtomically<Result>(_ body: () throws(RealmError) -> Result) throws(RealmError) -> Result {
        guard replication != nil else { return try body() }
        return try atomically(body)
    }

    /// Identifies the schema the transaction reads: the same object for
    /// every transaction reading the same schema version of a file.
    package var catalogIdentity: AnyObject { catalog }

    /// The classes whose objects' keys are their primary-key values: their
    /// tables have no primary-key column, and SQL reads `_key` instead.
    public var classesKeyedByPrimaryKey: Set<String> { catalog.classesKeyedByPrimaryKey }

    /// The quoted name of the table holding the objects of `className`.
    package func sqlTableName(forClass className: String) -> String {
        FileLayout.quote(FileLayout.tableName(forClass: className))
    }

    /// The quoted name of the table holding the elements of a list property.
    package func sqlListTableName(forClass className: String, property: String) -> String {
        FileLayout.quote(FileLayout.listTableName(forClass: className, property: property))
    }
}
