import RealmCore
import Synchronization

/// A query compiled for one schema: the SQL pieces of its statements and
/// what, if anything, Swift must finish (the post-filter, sorting by
/// decimals, distinct after a post-filter).
///
/// A class, immutable: a plan is handed from the query's cache to each run,
/// and copying a dozen fields each time would cost more than the lookups
/// it serves. What does not depend on the values of the constants is in a
/// ``Shape``, which the plans rebound from one template share, so that
/// rebinding makes a small object rather than a copy of every field.
final class QueryPlan {
    /// One ORDER BY term.
    struct SortTerm {
        let sql: String
        let ascending: Bool
        let type: PropertyType
    }

    /// The parts of a plan that do not depend on the values of its
    /// constants.
    final class Shape {
        let className: String
        let from: FromClause
        /// The WHERE condition, source constraint included, with the
        /// arguments of the plan the shape was made for.
        let filter: SQLFragment
        let key: String
        let tieBreak: [String]
        let sortTerms: [SortTerm]
        let distinctTerms: [SortTerm]
        let distinctBeforeSort: Bool
        let needsPostFilter: Bool
        let aggregateValue: SQLOperand?
        let rowColumns: [(property: Int, sql: String, type: PropertyType)]
        let propertyCount: Int
        let isFlat: Bool
        let memo = StatementMemo()

        init(className: String, from: FromClause, filter: SQLFragment, key: String,
             tieBreak: [String], sortTerms: [SortTerm], distinctTerms: [SortTerm], distinctBeforeSort: Bool,
             needsPostFilter: Bool, aggregateValue: SQLOperand?, rowColumns: [(property: Int, sql: String, type: PropertyType)],
             propertyCount: Int, isFlat: Bool) {
            self.className = className
            self.from = from
            self.filter = filter
            self.key = key
            self.tieBreak = tieBreak
            self.sortTerms = sortTerms
            self.distinctTerms = distinctTerms
            self.distinctBeforeSort = distinctBeforeSort
            self.needsPostFilter = needsPostFilter
            self.aggregateValue = aggregateValue
            self.rowColumns = rowColumns
            self.propertyCount = propertyCount
            self.isFlat = isFlat
        }
    }

    /// What the plans rebound from this one share.
    let shape: Shape
    /// The checked condition, which the post-filter tests.
    ///
    /// A rebound plan makes it on demand from its template's: only a plan
    /// that needs the post-filter reads it, and such a plan is never a
    /// template's, so a filter per lookup never builds it.
    var condition: Condition {
        guard let reboundConstants else { return ownCondition }
        return ownCondition.replacingConstantValues(reboundConstants)
    }
    /// The condition the plan was made for; its template's, for a
    /// rebound plan.
    private let ownCondition: Condition
    /// The constants of a rebound plan, to put into ``ownCondition``.
    private let reboundConstants: [Value]?
    /// The values of the WHERE condition's parameters, in order.
    let arguments: [Value]

    init(className: String, condition: Condition, from: FromClause, filter: SQLFragment, key: String,
         tieBreak: [String], sortTerms: [SortTerm], distinctTerms: [SortTerm], distinctBeforeSort: Bool,
         needsPostFilter: Bool, aggregateValue: SQLOperand?, rowColumns: [(property: Int, sql: String, type: PropertyType)],
         propertyCount: Int, isFlat: Bool) {
        shape = Shape(
            className: className, from: from, filter: filter, key: key, tieBreak: tieBreak, sortTerms: sortTerms,
            distinctTerms: distinctTerms, distinctBeforeSort: distinctBeforeSort, needsPostFilter: needsPostFilter,
            aggregateValue: aggregateValue, rowColumns: rowColumns, propertyCount: propertyCount, isFlat: isFlat)
        ownCondition = condition
        reboundConstants = nil
        arguments = filter.arguments
    }

    private init(shape: Shape, condition: Condition, constants: [Value], arguments: [Value]) {
        self.shape = shape
        ownCondition = condition
        reboundConstants = constants
        self.arguments = arguments
    }

    /// The plan with other values of its condition's constants, which are
    /// the last of the filter's `arguments`: for a plan whose SQL does not
    /// depend on its constants (see `PlanTemplate`).
    func rebound(constants: [Value], arguments: [Value]) -> QueryPlan {
        QueryPlan(shape: shape, condition: ownCondition, constants: constants, arguments: arguments)
    }

    var className: String { shape.className }
    var from: FromClause { shape.from }
    /// The SQL of the object key.
    var key: String { shape.key }
    /// Source order: the terms that make every order total and stable.
    var tieBreak: [String] { shape.tieBreak }
    var sortTerms: [SortTerm] { shape.sortTerms }
    var distinctTerms: [SortTerm] { shape.distinctTerms }
    var distinctBeforeSort: Bool { shape.distinctBeforeSort }
    /// Whether SQL's WHERE only narrows and Swift must test each candidate.
    var needsPostFilter: Bool { shape.needsPostFilter }
    /// The value an aggregate asked for, compiled in the same FROM.
    var aggregateValue: SQLOperand? { shape.aggregateValue }
    /// The root object's columns (property index, SQL, type), which the
    /// rows statement selects, as does the candidates statement when the
    /// post-filter runs (so that testing a candidate reads its own row
    /// without another query).
    var rowColumns: [(property: Int, sql: String, type: PropertyType)] { shape.rowColumns }
    /// The number of properties of the root class.
    var propertyCount: Int { shape.propertyCount }
    /// Whether the query reads a class's own columns only (no links, lists
    /// or other sources), so that only changes to its objects change it.
    var isFlat: Bool { shape.isFlat }
    /// The SQL of the plan's statements, kept for its later runs and for
    /// the plans rebound from it.
    private var memo: StatementMemo { shape.memo }
    /// The WHERE condition's SQL; its arguments are ``arguments``.
    private var filter: SQLFragment { shape.filter }

    /// ``rowColumns`` as the rows statement's cursor reads them.
    var rowLayout: [RowColumn] { memo.rowLayout { rowColumns.map { RowColumn(property: $0.property, type: $0.type) } } }

    var prefetchedColumns: [(property: Int, sql: String, type: PropertyType)] {
        needsPostFilter ? rowColumns : []
    }

    /// Whether Swift must sort: a decimal sort key, or distinct before a
    /// sort when Swift also filters or sorts.
    var sortsInSwift: Bool {
        sortTerms.contains { $0.type == .decimal || $0.type == .mixed } || (needsPostFilter && !distinctTerms.isEmpty && distinctBeforeSort)
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
        (memo.sql(.keys) { makeKeysSQL() }!, arguments)
    }

    private func makeKeysSQL() -> String {
        if distinctTerms.isEmpty {
            return "SELECT \(key) FROM \(from.sql)\(whereClause) ORDER BY \(orderTerms.joined(separator: ", "))"
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
        return "SELECT k FROM (SELECT \(columns.joined(separator: ", ")) FROM \(from.sql)\(whereClause)) WHERE r = 1 ORDER BY \(outerOrder.joined(separator: ", "))"
    }

    /// The statement that reads the matches' keys and columns, in order:
    /// nil unless SQL alone answers the query, without distinct.
    func rowsStatement() -> (sql: String, arguments: [Value])? {
        memo.sql(.rows) {
            guard isPureSQL, distinctTerms.isEmpty else { return nil }
            let columns = [key] + rowColumns.map(\.sql)
            return "SELECT \(columns.joined(separator: ", ")) FROM \(from.sql)\(whereClause) ORDER BY \(orderTerms.joined(separator: ", "))"
        }.map { ($0, arguments) }
    }

    /// The statement that reads the matches' keys and sort values, in
    /// order: nil unless SQL alone answers the query, without distinct.
    func sortedKeysStatement() -> (sql: String, arguments: [Value])? {
        memo.sql(.sortedKeys) {
            guard isPureSQL, distinctTerms.isEmpty else { return nil }
            let columns = [key] + sortTerms.map(\.sql)
            return "SELECT \(columns.joined(separator: ", ")) FROM \(from.sql)\(whereClause) ORDER BY \(orderTerms.joined(separator: ", "))"
        }.map { ($0, arguments) }
    }

    /// The statement that deletes the matches: nil unless the query is flat
    /// and SQL alone answers it, without distinct. It always has a WHERE
    /// clause, so that SQLite deletes row by row and reports each row.
    func deleteStatement() -> (sql: String, arguments: [Value])? {
        memo.sql(.delete) {
            guard isFlat, isPureSQL, distinctTerms.isEmpty else { return nil }
            return "DELETE FROM \(from.sql) WHERE \(filter.constant == true ? "1" : filter.sql)"
        }.map { ($0, arguments) }
    }

    /// The rows the post-filter must test, when SQL vouches for the
    /// others (``SQLFragment/uncertain``): the candidates statement's last
    /// column then says which.
    var uncertain: SQLFragment.Uncertainty? { needsPostFilter ? filter.uncertain : nil }

    func candidatesStatement() -> (sql: String, arguments: [Value]) {
        let sql = memo.sql(.candidates) {
            let columns = [key] + sortTerms.map(\.sql) + distinctTerms.map(\.sql) + prefetchedColumns.map(\.sql)
                + (uncertain.map { ["(" + $0.sql + ")"] } ?? [])
            let order = sortsInSwift ? tieBreak : orderTerms
            return "SELECT \(columns.joined(separator: ", ")) FROM \(from.sql)\(whereClause) ORDER BY \(order.joined(separator: ", "))"
        }
        // The selected columns' parameters come before the WHERE's.
        return (sql!, (uncertain?.arguments ?? []) + arguments)
    }

    /// The count of the matches SQL vouches for, with the statement that
    /// reads the rows it is unsure of (their keys and own columns, in no
    /// order): nil unless the post-filter runs, without distinct, and SQL
    /// knows which rows are uncertain (``uncertain``).
    func splitCountStatements() -> (decided: (sql: String, arguments: [Value]), doubtful: (sql: String, arguments: [Value]))? {
        guard distinctTerms.isEmpty, let uncertain else { return nil }
        let decided = uncertain.decided ?? (filter.text(in: .and) + " AND NOT ifnull(" + uncertain.sql + ", 0)",
                                            arguments + uncertain.arguments)
        let decidedSQL = memo.sql(.decidedCount) { "SELECT count(*) FROM \(from.sql) WHERE \(decided.sql)" }!
        // The uncertainty first: where both are ORs of index ranges that
        // SQLite would cost alike, it takes the first, and the uncertain
        // rows are usually the few (a mixed comparison's: floats and
        // decimals) while the filter's ranges hold every match.
        let doubtful = uncertain.selected ?? ("(" + uncertain.sql + ") AND " + filter.text(in: .and), uncertain.arguments + arguments)
        let doubtfulSQL = memo.sql(.doubtfulRows) {
            let columns = [key] + prefetchedColumns.map(\.sql)
            return "SELECT \(columns.joined(separator: ", ")) FROM \(from.sql) WHERE \(doubtful.sql)"
        }!
        return ((decidedSQL, decided.arguments), (doubtfulSQL, doubtful.arguments))
    }

    func countStatement() -> (sql: String, arguments: [Value])? {
        memo.sql(.count) {
            guard !needsPostFilter else { return nil }
            if distinctTerms.isEmpty {
                return "SELECT count(*) FROM \(from.sql)\(whereClause)"
            }
            return "SELECT count(*) FROM (SELECT DISTINCT \(distinctTerms.map(\.sql).joined(separator: ", ")) FROM \(from.sql)\(whereClause))"
        }.map { ($0, arguments) }
    }

    func aggregateStatement(_ kind: AggregateKind, type: PropertyType) -> (sql: String, arguments: [Value])? {
        guard isPureSQL, distinctTerms.isEmpty, type != .decimal, let value = aggregateValue else { return nil }
        var filter = self.filter
        filter.arguments = arguments
        if type == .float || type == .double {
            // NaN is a BLOB in the file; aggregates skip it, as they skip nil.
            filter = .and([filter, SQLFragment("\(value.sql) <= 9e999", isNullable: true)])
        }
        let function: String
        switch kind {
        case .min: function = "min(\(value.sql))"
        case .max: function = "max(\(value.sql))"
        // Integers add as Realm adds them (realm_sum wraps around), with one
        // answer whatever order SQLite reads them in.
        case .sum: function = type == .int ? "realm_sum(\(value.sql))" : "sum(\(value.sql))"
        case .average: function = "avg(\(value.sql))"
        }
        let whereClause = filter.constant == true ? "" : " WHERE " + filter.sql
        // The count tells an empty aggregate (NULL) from a NaN one (which
        // SQLite also returns as NULL).
        return ("SELECT \(function), count(\(value.sql)) FROM \(from.sql)\(whereClause)", filter.arguments)
    }
}

/// The SQL of a plan's statements and the layout of its rows, made on
/// first use. They depend only on the plan's shape, not on its arguments,
/// so the plans rebound from one template (see `PlanTemplates`) share them
/// through their ``QueryPlan/Shape``.
final class StatementMemo: Sendable {
    enum Statement: Int, CaseIterable {
        case keys, rows, sortedKeys, delete, candidates, count, decidedCount, doubtfulRows
    }

    private struct Memo {
        /// By statement: nil when not made yet, `.some(nil)` when the plan
        /// has no such statement.
        var texts = [String??](repeating: nil, count: Statement.allCases.count)
        var rowLayout: [RowColumn]?
    }

    private let memo = Mutex(Memo())

    func rowLayout(_ make: () -> [RowColumn]) -> [RowColumn] {
        memo.withLock { memo in
            if let layout = memo.rowLayout { return layout }
            let made = make()
            memo.rowLayout = made
            return made
        }
    }

    func sql(_ statement: Statement, _ make: () -> String?) -> String? {
        memo.withLock { memo in
            if let text = memo.texts[statement.rawValue] { return text }
            let made = make()
            memo.texts[statement.rawValue] = .some(made)
            return made
        }
    }
}
