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
