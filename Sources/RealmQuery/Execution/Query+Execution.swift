import RealmCore

extension Query {
    /// The keys of the matching objects, in order: sorted when sort
    /// descriptors are given (ties in source order), else in source order
    /// (key order for a class, list order for a list).
    ///
    /// Runs one SQL statement and allocates only the key array when SQL
    /// answers the query alone; otherwise reads the candidates SQL selects,
    /// with their own columns, and tests each in Swift (linked objects and
    /// lists are read through the object API, a query each).
    ///
    /// - Throws: ``QueryError`` for a query that does not fit the schema;
    ///   `RealmError` when SQLite fails. An integer `@sum` wraps around on
    ///   overflow, as Realm's does.
    public func objectKeys(in transaction: Transaction) throws -> [ObjectKey] {
        try keys(in: transaction)
    }

    private func keys(in transaction: Transaction) throws -> [ObjectKey] {
        try Self.beginReading(transaction)
        let plan = try plan(in: transaction)
        if plan.isPureSQL {
            let (sql, arguments) = plan.keysStatement()
            let statement = try transaction.queryStatement(sql)
            defer { statement.reset() }
            Self.bind(arguments, to: statement)
            var keys: [ObjectKey] = []
            while try statement.step() {
                keys.append(ObjectKey(statement.int64(at: 0)))
            }
            return keys
        }
        return try finishInSwift(plan, in: transaction)
    }

    /// A cursor over the matching objects, in order, with their rows.
    ///
    /// When SQL answers the query alone, the cursor streams the keys and
    /// columns of the matches from one statement (see ``ObjectCursor``);
    /// otherwise it walks the keys of ``objectKeys(in:)``, and objects read
    /// their rows by key.
    ///
    /// Read in batches, the first has `firstBatchSize` rows (a caller
    /// that stops early reads little ahead), the others
    /// ``ObjectCursor/rowsPerBatch``; a loop reads its rows in place
    /// instead (``ObjectCursor/readRowsInPlace()``).
    ///
    /// - Throws: as ``objectKeys(in:)``.
    public func makeCursor(in transaction: Transaction, firstBatchSize: Int = 32) throws -> ObjectCursor {
        try Self.beginReading(transaction)
        let plan = try plan(in: transaction)
        if let (sql, arguments) = plan.rowsStatement() {
            return try transaction.makeCursor(
                sql: sql, arguments: arguments, columns: plan.rowLayout,
                width: plan.propertyCount, firstBatchSize: firstBatchSize)
        }
        return ObjectCursor(transaction: transaction, keys: try objectKeys(in: transaction))
    }

    /// The first match, with its row when SQL alone answers the query (as
    /// the first element of ``makeCursor(in:firstBatchSize:)``); nil when
    /// nothing matches. Leaves no cursor open.
    ///
    /// - Throws: as ``objectKeys(in:)``.
    public func firstMatch(in transaction: Transaction) throws -> ObjectCursor.Element? {
        try Self.beginReading(transaction)
        let plan = try plan(in: transaction)
        if let (sql, arguments) = plan.rowsStatement() {
            return try transaction.firstRow(sql: sql, arguments: arguments, columns: plan.rowLayout, width: plan.propertyCount)
        }
        return try makeCursor(in: transaction, firstBatchSize: 1).next()
    }

    /// Deletes the matching objects in one statement, when nothing else
    /// depends on them (their class has no relationships) and SQL answers
    /// the query alone; returns false, having changed nothing, otherwise
    /// (then delete ``objectKeys(in:)`` instead).
    public func deleteMatches(in transaction: Transaction) throws -> Bool {
        try Self.beginReading(transaction)
        let plan = try plan(in: transaction)
        guard case .table = source, let (sql, arguments) = plan.deleteStatement() else { return false }
        return try transaction.deleteObjects(matching: sql, arguments: arguments, ofClass: className)
    }

    /// The number of matching objects.
    ///
    /// One `SELECT count(*)` when SQL answers the query alone (no object is
    /// read); otherwise the length of ``objectKeys(in:)``.
    public func count(in transaction: Transaction) throws -> Int {
        try matchCount(in: transaction)
    }

    private func matchCount(in transaction: Transaction) throws -> Int {
        try Self.beginReading(transaction)
        // The order does not change a count; leaving it out spares the
        // joins of sorting by links.
        let plan = sort.isEmpty ? try plan(in: transaction) : try { () throws -> QueryPlan in
            var unsorted = self
            unsorted.sort = []
            return try QueryPlanner(unsorted, in: transaction).plan()
        }()
        guard let (sql, arguments) = plan.countStatement() else {
            if let (decided, doubtful) = plan.splitCountStatements() {
                return try splitCount(decided: decided, doubtful: doubtful, plan: plan, in: transaction)
            }
            return try finishInSwift(plan, in: transaction).count
        }
        let statement = try transaction.queryStatement(sql)
        defer { statement.reset() }
        Self.bind(arguments, to: statement)
        guard try statement.step() else { return 0 }
        return try transaction.plausibleCount(statement.int64(at: 0), of: "objects of '\(className)' matching a query")
    }

    /// Counts in SQL the matches SQL vouches for, and tests the rows it is
    /// unsure of with the post-filter: no key array, no order, and only the
    /// uncertain rows read into Swift.
    private func splitCount(decided: (sql: String, arguments: [Value]), doubtful: (sql: String, arguments: [Value]),
                            plan: QueryPlan, in transaction: Transaction) throws -> Int {
        var count = 0
        do {
            let statement = try transaction.queryStatement(decided.sql)
            defer { statement.reset() }
            Self.bind(decided.arguments, to: statement)
            if try statement.step() {
                count = try transaction.plausibleCount(statement.int64(at: 0), of: "objects of '\(className)' matching a query")
            }
        }
        let statement = try transaction.queryStatement(doubtful.sql)
        defer { statement.reset() }
        Self.bind(doubtful.arguments, to: statement)
        let evaluator = PostFilter(transaction: transaction)
        let condition = plan.condition
        while try statement.step() {
            var values = Array(repeating: Value.null, count: plan.propertyCount)
            for (offset, column) in plan.prefetchedColumns.enumerated() {
                values[column.property] = statement.value(at: Int32(1 + offset), as: column.type)
            }
            if try evaluator.matches(condition, ObjectKey(statement.int64(at: 0)), of: plan.className, row: values.isEmpty ? nil : values) {
                count += 1
            }
        }
        return count
    }

    /// The minimum, maximum, sum or average of the property at `keyPath`
    /// (a property of the objects, or through to-one links) over the
    /// matching objects. See ``AggregateKind`` for the types and results:
    /// `.null` when no object has a value, except `sum`, which is zero.
    ///
    /// One SQL aggregate when SQL answers the query alone and the property
    /// is not a decimal; otherwise the values are read and aggregated in
    /// Swift (decimals exactly).
    ///
    /// - Throws: ``QueryError`` when `keyPath` does not resolve or its type
    ///   does not support `kind`; `RealmError` when SQLite fails. An integer
    ///   sum wraps around on overflow, as Realm's does.
    public func aggregate(_ kind: AggregateKind, keyPath: String, in transaction: Transaction) throws -> Value {
        try aggregateValue(kind, keyPath: keyPath, in: transaction)
    }

    private func aggregateValue(_ kind: AggregateKind, keyPath: String, in transaction: Transaction) throws -> Value {
        try Self.beginReading(transaction)
        let schema = transaction.schema
        let allowed: Set<PropertyType> = kind == .min || kind == .max
            ? [.int, .float, .double, .date, .decimal] : [.int, .float, .double, .decimal]
        let path = try KeyPathResolver(schema: schema).resolveColumnPath(
            keyPath, from: className, purpose: "compute \(kind) of", allowed: allowed.contains,
            allowedDescription: kind == .min || kind == .max ? "int, float, double, date and decimal" : "int, float, double and decimal")
        let type = path.valueType
        // Which object of each distinct group is kept depends on the order;
        // otherwise the order does not change an aggregate.
        var unsorted = self
        if distinct.isEmpty { unsorted.sort = [] }
        let plan = try QueryPlanner(unsorted, in: transaction).plan(aggregating: path)
        if let (sql, arguments) = plan.aggregateStatement(kind, type: type) {
            let statement = try transaction.queryStatement(sql)
            defer { statement.reset() }
            Self.bind(arguments, to: statement)
            guard try statement.step() else { return .null }
            return Self.aggregateResult(statement, kind: kind, type: type)
        }
        let evaluator = PostFilter(transaction: transaction)
        var values: [Value] = []
        for key in try finishInSwift(plan, in: transaction) {
            values += try evaluator.values(of: path, from: key)
            evaluator.reader.clearRows()
        }
        return Aggregation.compute(kind, of: values, type: type)
    }

    private static func aggregateResult(_ statement: Statement, kind: AggregateKind, type: PropertyType) -> Value {
        if statement.isNull(at: 0) {
            if statement.int64(at: 1) > 0 { return .double(.nan) }
            guard kind == .sum else { return .null }
            return type == .int ? .int(0) : .double(0)
        }
        switch kind {
        case .average:
            return .double(statement.double(at: 0))
        case .sum:
            return type == .int ? .int(statement.int64(at: 0)) : .double(statement.double(at: 0))
        case .min, .max:
            return statement.value(at: 0, as: type)
        }
    }

    /// Makes an idle transaction begin its read, which loads the schema of
    /// the version it reads, before the query is planned against it.
    private static func beginReading(_ transaction: Transaction) throws {
        _ = try transaction.version
    }

    static func bind(_ arguments: [Value], to statement: Statement) {
        for (index, argument) in arguments.enumerated() {
            statement.bind(argument, at: Int32(index + 1))
        }
    }

    /// Reads the candidates SQL selects, then filters, sorts and removes
    /// duplicates in Swift as the plan requires.
    private func finishInSwift(_ plan: QueryPlan, in transaction: Transaction) throws -> [ObjectKey] {
        struct Row {
            let key: ObjectKey
            let sortValues: [Value]
            let distinctValues: [Value]
            /// The object's own properties, when the post-filter will test it.
            let values: [Value]
            /// Whether SQL vouches for the match, so that the post-filter
            /// need not test it.
            let isCertain: Bool
        }
        let (sql, arguments) = plan.candidatesStatement()
        var rows: [Row] = []
        do {
            let statement = try transaction.queryStatement(sql)
            defer { statement.reset() }
            Self.bind(arguments, to: statement)
            let sortCount = plan.sortTerms.count
            let uncertainColumn = plan.uncertain.map { _ in Int32(1 + sortCount + plan.distinctTerms.count + plan.prefetchedColumns.count) }
            while try statement.step() {
                let sortValues = plan.sortTerms.enumerated().map { index, term in
                    statement.value(at: Int32(1 + index), as: term.type)
                }
                let distinctValues = plan.distinctTerms.enumerated().map { index, term in
                    statement.value(at: Int32(1 + sortCount + index), as: term.type)
                }
                let first = 1 + sortCount + plan.distinctTerms.count
                // NULL (read as 0) is certain too: see `SQLFragment.Uncertainty`.
                let isCertain = uncertainColumn.map { statement.int64(at: $0) == 0 } ?? false
                var values: [Value] = []
                if !plan.prefetchedColumns.isEmpty, !isCertain {
                    values = Array(repeating: .null, count: plan.propertyCount)
                    for (offset, column) in plan.prefetchedColumns.enumerated() {
                        values[column.property] = statement.value(at: Int32(first + offset), as: column.type)
                    }
                }
                rows.append(Row(key: ObjectKey(statement.int64(at: 0)), sortValues: sortValues, distinctValues: distinctValues, values: values,
                                isCertain: isCertain))
            }
        }
        if plan.needsPostFilter {
            let evaluator = PostFilter(transaction: transaction)
            let condition = plan.condition
            rows = try rows.filter { row in
                try row.isCertain || evaluator.matches(condition, row.key, of: plan.className, row: row.values.isEmpty ? nil : row.values)
            }
        }
        func removeDuplicates() {
            guard !plan.distinctTerms.isEmpty else { return }
            var seen = Set<DistinctKey>()
            rows = rows.filter { seen.insert(DistinctKey($0.distinctValues)).inserted }
        }
        if plan.distinctBeforeSort { removeDuplicates() }
        if plan.sortsInSwift {
            let terms = plan.sortTerms
            rows = rows.enumerated().sorted { first, second in
                for (index, term) in terms.enumerated() {
                    let order = SQLOrdering.compare(first.element.sortValues[index], second.element.sortValues[index])
                    if order != .orderedSame { return (order == .orderedAscending) == term.ascending }
                }
                // Stable: the candidates arrive in source order.
                return first.offset < second.offset
            }.map(\.element)
        }
        if !plan.distinctBeforeSort { removeDuplicates() }
        return rows.map(\.key)
    }
}
