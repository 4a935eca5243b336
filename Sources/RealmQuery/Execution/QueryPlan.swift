import Foundation
import RealmCore

/// A query compiled for one schema: the SQL pieces of its statements and
/// what, if anything, Swift must finish (the post-filter, sorting by
/// decimals, distinct after a post-filter).
struct QueryPlan {
    /// One ORDER BY term.
    struct SortTerm {
        let sql: String
        let ascending: Bool
        let type: PropertyType
    }

    let className: String
    let condition: Condition
    let from: FromClause
    /// The WHERE condition, source constraint included.
    let filter: SQLFragment
    /// The SQL of the object key.
    let key: String
    /// Source order: the terms that make every order total and stable.
    let tieBreak: [String]
    let sortTerms: [SortTerm]
    let distinctTerms: [SortTerm]
    let distinctBeforeSort: Bool
    /// Whether SQL's WHERE only narrows and Swift must test each candidate.
    let needsPostFilter: Bool
    /// The value an aggregate asked for, compiled in the same FROM.
    let aggregateValue: SQLOperand?
    /// The root object's columns (property index, SQL, type), which the
    /// rows statement selects, as does the candidates statement when the
    /// post-filter runs (so that testing a candidate reads its own row
    /// without another query).
    let rowColumns: [(property: Int, sql: String, type: PropertyType)]

    var prefetchedColumns: [(property: Int, sql: String, type: PropertyType)] {
        needsPostFilter ? rowColumns : []
    }
    /// The number of properties of the root class.
    let propertyCount: Int
    /// Whether the query reads a class's own columns only (no links, lists
    /// or other sources), so that only changes to its objects change it.
    let isFlat: Bool
    /// Statements built from the plan, kept for its later runs.
    let memo = StatementMemo()

    /// Whether Swift must sort: a decimal sort key, or distinct before a
    /// sort when Swift also filters or sorts.
    var sortsInSwift: Bool {
        sortTerms.contains { $0.type == .decimal } || (needsPostFilter && !distinctTerms.isEmpty && distinctBeforeSort)
    }

    /// Whether everything happens in SQL.
    var isPureSQL: Bool {
        !needsPostFilter && !sortsInSwift
    }

    private var whereClause: String {
        filter.constant == true ? "" : " WHERE " + filter.sql
    }

    private var orderTerms: [String] {
        sortTerms.map { $0.sql + ($0.ascending ? " ASC" : " DESC") } + tieBreak
    }

    /// The keys of the matching objects, in order, entirely in SQL.
    func keysStatement() -> (sql: String, arguments: [Value]) {
        if distinctTerms.isEmpty {
            return ("SELECT \(key) FROM \(from.sql)\(whereClause) ORDER BY \(orderTerms.joined(separator: ", "))", filter.arguments)
        }
        // The first object of each group in the current order: number the
        // rows of each group in that order, keep the first.
        var columns = ["\(key) AS k"]
        var outerOrder: [String] = []
        for (index, term) in sortTerms.enumerated() {
            columns.append("\(term.sql) AS o\(index)")
            outerOrder.append("o\(index)" + (term.ascending ? " ASC" : " DESC"))
        }
        for (index, term) in tieBreak.enumerated() {
            columns.append("\(term) AS b\(index)")
            outerOrder.append("b\(index)")
        }
        let groupOrder = distinctBeforeSort ? tieBreak : orderTerms
        columns.append("row_number() OVER (PARTITION BY \(distinctTerms.map(\.sql).joined(separator: ", ")) ORDER BY \(groupOrder.joined(separator: ", "))) AS r")
        let sql = "SELECT k FROM (SELECT \(columns.joined(separator: ", ")) FROM \(from.sql)\(whereClause)) WHERE r = 1 ORDER BY \(outerOrder.joined(separator: ", "))"
        return (sql, filter.arguments)
    }

    /// The keys and rows of the matching objects, in order, entirely in
    /// SQL; nil when SQL cannot answer alone or distinct applies. Built
    /// once per plan (a cached plan serves many runs).
    func rowsStatement() -> (sql: String, arguments: [Value])? {
        memo.rows { makeRowsStatement() }
    }

    private func makeRowsStatement() -> (sql: String, arguments: [Value])? {
        guard isPureSQL, distinctTerms.isEmpty else { return nil }
        let columns = [key] + rowColumns.map(\.sql)
        return ("SELECT \(columns.joined(separator: ", ")) FROM \(from.sql)\(whereClause) ORDER BY \(orderTerms.joined(separator: ", "))", filter.arguments)
    }

    /// The keys of the matches with their sort values, in order, entirely
    /// in SQL; nil when SQL cannot answer alone or distinct applies.
    func sortedKeysStatement() -> (sql: String, arguments: [Value])? {
        guard isPureSQL, distinctTerms.isEmpty else { return nil }
        let columns = [key] + sortTerms.map(\.sql)
        return ("SELECT \(columns.joined(separator: ", ")) FROM \(from.sql)\(whereClause) ORDER BY \(orderTerms.joined(separator: ", "))", filter.arguments)
    }

    /// A DELETE of the matches returning their keys, when the query reads
    /// only its class's table and SQL answers it alone.
    func deleteStatement() -> (sql: String, arguments: [Value])? {
        guard isFlat, isPureSQL, distinctTerms.isEmpty else { return nil }
        return ("DELETE FROM \(from.sql)\(whereClause) RETURNING _key", filter.arguments)
    }

    /// The candidates for Swift to finish: key, sort values, distinct
    /// values; ordered by SQL when Swift does not sort.
    func candidatesStatement() -> (sql: String, arguments: [Value]) {
        let columns = [key] + sortTerms.map(\.sql) + distinctTerms.map(\.sql) + prefetchedColumns.map(\.sql)
        let order = sortsInSwift ? tieBreak : orderTerms
        return ("SELECT \(columns.joined(separator: ", ")) FROM \(from.sql)\(whereClause) ORDER BY \(order.joined(separator: ", "))", filter.arguments)
    }

    /// The number of matches, when SQL alone can count them.
    func countStatement() -> (sql: String, arguments: [Value])? {
        guard !needsPostFilter else { return nil }
        if distinctTerms.isEmpty {
            return ("SELECT count(*) FROM \(from.sql)\(whereClause)", filter.arguments)
        }
        return ("SELECT count(*) FROM (SELECT DISTINCT \(distinctTerms.map(\.sql).joined(separator: ", ")) FROM \(from.sql)\(whereClause))", filter.arguments)
    }

    /// An aggregate of `aggregateValue` over the matches, when SQL alone can
    /// compute it.
    func aggregateStatement(_ kind: AggregateKind, type: PropertyType) -> (sql: String, arguments: [Value])? {
        guard isPureSQL, distinctTerms.isEmpty, type != .decimal, let value = aggregateValue else { return nil }
        var filter = self.filter
        if type == .float || type == .double {
            // NaN is a BLOB in the file; aggregates skip it, as they skip nil.
            filter = .and([filter, SQLFragment("\(value.sql) <= 9e999", isNullable: true)])
        }
        let function: String
        switch kind {
        case .min: function = "min(\(value.sql))"
        case .max: function = "max(\(value.sql))"
        case .sum: function = "sum(\(value.sql))"
        case .average: function = "avg(\(value.sql))"
        }
        let whereClause = filter.constant == true ? "" : " WHERE " + filter.sql
        // The count tells an empty aggregate (NULL) from a NaN one (which
        // SQLite also returns as NULL).
        return ("SELECT \(function), count(\(value.sql)) FROM \(from.sql)\(whereClause)", filter.arguments)
    }
}

/// Statements a plan builds once.
final class StatementMemo: @unchecked Sendable {
    // @unchecked: `rowsStatement` is only touched under `lock`.
    private let lock = NSLock()
    private var rowsStatement: (sql: String, arguments: [Value])??

    func rows(_ make: () -> (sql: String, arguments: [Value])?) -> (sql: String, arguments: [Value])? {
        lock.withLock {
            if let rowsStatement { return rowsStatement }
            let made = make()
            rowsStatement = .some(made)
            return made
        }
    }
}
