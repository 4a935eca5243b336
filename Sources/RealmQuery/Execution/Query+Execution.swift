import RealmCore

extension Query {
    /// The keys of the matching objects, in order: sorted when sort
    /// descriptors are given (ties in source order), else in source order
    /// (key order for a class, list order for a list).
    ///
    /// Runs one SQL statement and allocates only the key array when SQL
    /// answers the query alone; otherwise reads the candidates SQL selects
    /// and tests each in Swift (reading its values through the object API).
    ///
    /// - Throws: ``QueryError`` for a query that does not fit the schema;
    ///   `RealmError` when SQLite fails.
    public func objectKeys(in transaction: Transaction) throws -> [ObjectKey] {
        let plan = try QueryPlanner(self, schema: transaction.schema).plan()
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

    /// The number of matching objects.
    ///
    /// One `SELECT count(*)` when SQL answers the query alone (no object is
    /// read); otherwise the length of ``objectKeys(in:)``.
    public func count(in transaction: Transaction) throws -> Int {
        let plan = try QueryPlanner(self, schema: transaction.schema).plan()
        guard let (sql, arguments) = plan.countStatement() else {
            return try finishInSwift(plan, in: transaction).count
        }
        let statement = try transaction.queryStatement(sql)
        defer { statement.reset() }
        Self.bind(arguments, to: statement)
        return try statement.step() ? Int(statement.int64(at: 0)) : 0
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
    ///   does not support `kind`; `RealmError` when SQLite fails (an integer
    ///   sum that overflows).
    public func aggregate(_ kind: AggregateKind, keyPath: String, in transaction: Transaction) throws -> Value {
        let schema = transaction.schema
        let allowed: Set<PropertyType> = kind == .min || kind == .max
            ? [.int, .float, .double, .date, .decimal] : [.int, .float, .double, .decimal]
        let path = try KeyPathResolver(schema: schema).resolveColumnPath(
            keyPath, from: className, purpose: "compute \(kind) of", allowed: allowed.contains,
            allowedDescription: kind == .min || kind == .max ? "int, float, double, date and decimal" : "int, float, double and decimal")
        let type = path.valueType
        let plan = try QueryPlanner(self, schema: schema).plan(aggregating: path)
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
        return try Aggregation.compute(kind, of: values, type: type)
    }

    private static func aggregateResult(_ statement: Statement, kind: AggregateKind, type: PropertyType) -> Value {
        if statement.isNull(at: 0) {
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
        }
        let (sql, arguments) = plan.candidatesStatement()
        var rows: [Row] = []
        do {
            let statement = try transaction.queryStatement(sql)
            defer { statement.reset() }
            Self.bind(arguments, to: statement)
            let sortCount = plan.sortTerms.count
            while try statement.step() {
                let sortValues = plan.sortTerms.enumerated().map { index, term in
                    statement.value(at: Int32(1 + index), as: term.type)
                }
                let distinctValues = plan.distinctTerms.enumerated().map { index, term in
                    statement.value(at: Int32(1 + sortCount + index), as: term.type)
                }
                rows.append(Row(key: ObjectKey(statement.int64(at: 0)), sortValues: sortValues, distinctValues: distinctValues))
            }
        }
        if plan.needsPostFilter {
            let evaluator = PostFilter(transaction: transaction)
            rows = try rows.filter { try evaluator.matches(plan.condition, $0.key, of: plan.className) }
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
