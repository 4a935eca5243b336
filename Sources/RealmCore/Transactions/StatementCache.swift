/// The prepared statements a transaction runs for each table, by kind.
///
/// Every row a write touches asks for a statement (an insert, an existence
/// check, a list position), so a lookup must cost little: the key is one
/// `Int` made of the table and ``StatementKind/code``, and the statement
/// asked for last is compared before the dictionary is consulted (a loop
/// of inserts asks for one statement again and again).
struct StatementCache {
    private var statements: [Int: Statement] = [:]
    private var last: (key: Int, statement: Statement)?

    /// The key of `kind` for the table at `table` in the catalog.
    static func key(table: Int, kind: StatementKind) -> Int {
        table << 40 | kind.code
    }

    /// The statement cached for `key`, if any.
    mutating func statement(for key: Int) -> Statement? {
        if let last, last.key == key { return last.statement }
        guard let statement = statements[key] else { return nil }
        last = (key, statement)
        return statement
    }

    /// Caches `statement` for `key`.
    mutating func insert(_ statement: Statement, for key: Int) {
        statements[key] = statement
        last = (key, statement)
    }

    /// Forgets every statement (after a schema change, or on close).
    mutating func removeAll() {
        statements.removeAll()
        last = nil
    }
}
