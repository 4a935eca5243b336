import RealmCore

/// Turns a ``Query`` into a ``QueryPlan`` for a schema: checks it, resolves
/// its key paths, chooses the FROM clause for its source and compiles its
/// predicate, sort and distinct into SQL.
///
/// A query whose every key path is a column of its class, on a whole
/// class, compiles without table aliases (`SELECT count(*) FROM "class_X"
/// WHERE "stringCol" = ?`); others alias the class table `t0`.
struct QueryPlanner {
    let query: Query
    let schema: Schema
    /// The classes whose primary key is the object key, read as `_key`.
    let keyedByPrimaryKey: Set<String>

    /// Whether to skip SQL filtering and test every object in Swift (the
    /// reference path of the tests).
    var forcesPostFilter = false

    init(_ query: Query, schema: Schema, keyedByPrimaryKey: Set<String>) {
        self.query = query
        self.schema = schema
        self.keyedByPrimaryKey = keyedByPrimaryKey
        self.forcesPostFilter = query.evaluation == .postFilterOnly
    }

    /// A planner for the schema and file layout `transaction` reads.
    init(_ query: Query, in transaction: Transaction) {
        self.init(query, schema: transaction.schema, keyedByPrimaryKey: transaction.classesKeyedByPrimaryKey)
    }

    /// The resolved parts of a query, before SQL.
    struct Checked {
        let condition: Condition
        let sort: [(SortDescriptor, ResolvedPath)]
        let distinct: [ResolvedPath]
        let sourceProperty: Property?
    }

    func check() throws(QueryError) -> Checked {
        let className = query.className
        guard let objectSchema = schema[className] else {
            throw QueryError("The schema has no class named '\(className)'", predicate: query.predicate.description)
        }
        var sourceProperty: Property?
        switch query.source {
        case .table:
            if objectSchema.isEmbedded {
                throw QueryError("Embedded class '\(className)' cannot be queried on its own; query it through the list of its parent", predicate: query.predicate.description)
            }
        case .list(let ownerClass, let property, _):
            guard let owner = schema[ownerClass], let list = owner[propertyNamed: property] else {
                throw QueryError("The source list '\(ownerClass).\(property)' does not exist", predicate: query.predicate.description)
            }
            guard list.isCollection, list.type == .object, list.objectClassName == className else {
                throw QueryError("The source '\(ownerClass).\(property)' is not a list of \(className) objects", predicate: query.predicate.description)
            }
        case .linkingObjects(let property, _):
            guard let link = objectSchema[propertyNamed: property], link.type == .object else {
                throw QueryError("\(className) has no link property '\(property)' to follow back", predicate: query.predicate.description)
            }
            sourceProperty = link
        }
        // Read once: a query may build its predicate on demand.
        let predicate = query.predicate
        let checker = TypeChecker(schema: schema, predicate: predicate)
        let condition = try checker.check(predicate, className: className)
        try EvaluationLimits.check(condition, predicate: predicate)
        let resolver = KeyPathResolver(schema: schema)
        var sort: [(SortDescriptor, ResolvedPath)] = []
        for descriptor in query.sort {
            sort.append((descriptor, try resolver.resolveColumnPath(
                descriptor.keyPath, from: className, purpose: "sort on", allowed: Self.isSortable,
                allowedDescription: "bool, int, float, double, string, data, date, objectId, uuid and decimal")))
        }
        var distinct: [ResolvedPath] = []
        for keyPath in query.distinct {
            distinct.append(try resolver.resolveColumnPath(
                keyPath, from: className, purpose: "apply distinct to", allowed: Self.isSortable,
                allowedDescription: "bool, int, float, double, string, data, date, objectId, uuid and decimal"))
        }
        return Checked(condition: condition, sort: sort, distinct: distinct, sourceProperty: sourceProperty)
    }

    /// The column that orders a collection table's rows: a list's
    /// position, a map's key, a set's rowid (the order of insertion).
    static func elementOrder(_ property: Property?) -> String {
        guard let property else { return "s.position" }
        return property.isMap ? "s.key" : property.isSet ? "s.rowid" : "s.position"
    }

    static func isSortable(_ type: PropertyType) -> Bool {
        type != .object && type != .linkingObjects
    }

    func plan(aggregating aggregatePath: ResolvedPath? = nil) throws(QueryError) -> QueryPlan {
        let checked = try check()
        let className = query.className
        let table = SQLNames.table(className)
        let isFlat = query.source == .table && checked.condition.isRootOnly
            && checked.sort.allSatisfy { $0.1.isRootOnly } && checked.distinct.allSatisfy(\.isRootOnly)
            && (aggregatePath?.isRootOnly ?? true)
        let names = StatementNames(schema: schema, keyedByPrimaryKey: keyedByPrimaryKey)
        let from: FromClause
        let root: SQLObject
        var constraint = SQLFragment.constant(true)
        let tieBreak: [String]
        switch query.source {
        case .table:
            from = FromClause(isFlat ? table : "\(table) AS t0", names: names)
            root = SQLObject(className: className, key: isFlat ? "_key" : "t0._key", alias: isFlat ? "" : "t0", nullable: false, from: from)
            tieBreak = [root.key]
        case .list(let ownerClass, let property, let owner):
            from = FromClause("\(SQLNames.list(ownerClass, property)) AS s", names: names)
            from.append("JOIN \(table) AS t0 ON t0._key = s.value")
            root = SQLObject(className: className, key: "t0._key", alias: "t0", nullable: false, from: from)
            constraint = SQLFragment("s.owner = ?", [.int(owner.rawValue)], isNullable: false)
            tieBreak = [Self.elementOrder(schema[ownerClass]?[propertyNamed: property])]
        case .linkingObjects(let property, let target):
            if checked.sourceProperty?.isCollection == true {
                from = FromClause("\(SQLNames.list(className, property)) AS s", names: names)
                from.append("JOIN \(table) AS t0 ON t0._key = s.owner")
                constraint = SQLFragment("s.value = ?", [.int(target.rawValue)], isNullable: false)
                tieBreak = ["s.owner", Self.elementOrder(checked.sourceProperty)]
            } else {
                from = FromClause("\(table) AS t0", names: names)
                constraint = SQLFragment("t0.\(SQLNames.quote(property)) = ?", [.int(target.rawValue)], isNullable: false)
                tieBreak = ["t0._key"]
            }
            root = SQLObject(className: className, key: "t0._key", alias: "t0", nullable: false, from: from)
        }

        let compiler = SQLCompiler(names: names)
        // A condition past SQLite's limits on one statement is the
        // post-filter's to evaluate.
        let predicate = forcesPostFilter || !checked.condition.fitsSQLite
            ? SQLFragment.constant(true, isExact: false) : compiler.compile(checked.condition, on: root)
        // As in Realm, distinct drops the objects whose key path meets a
        // nil link before its property.
        let reachable = checked.distinct.compactMap { compiler.linksReached(by: $0, from: root) }
        let filter = SQLFragment.and([constraint, predicate] + reachable)
        let sortTerms = checked.sort.map { descriptor, path in
            QueryPlan.SortTerm(sql: compiler.value(of: path, from: root).sql, ascending: descriptor.ascending, type: path.valueType)
        }
        let distinctTerms = checked.distinct.map { path in
            QueryPlan.SortTerm(sql: compiler.value(of: path, from: root).sql, ascending: true, type: path.valueType)
        }
        let aggregateValue = aggregatePath.map { compiler.value(of: $0, from: root) }
        let properties = schema[className]?.properties ?? []
        var rowColumns: [(property: Int, sql: String, type: PropertyType)] = []
        var row = root
        for (index, property) in properties.enumerated() where property.isColumn {
            rowColumns.append((index, row.column(property.name), property.type))
        }
        return QueryPlan(
            className: className, condition: checked.condition, from: from, filter: filter, key: root.key,
            tieBreak: tieBreak, sortTerms: sortTerms, distinctTerms: distinctTerms,
            distinctBeforeSort: query.distinctBeforeSort, needsPostFilter: !filter.isExact, aggregateValue: aggregateValue,
            rowColumns: rowColumns, propertyCount: properties.count, isFlat: isFlat)
    }
}

extension Condition {
    /// Whether every key path is a column (or the object itself) of the
    /// root class, with no aggregate or subquery: SQL then needs no alias.
    var isRootOnly: Bool {
        switch self {
        case .constant: true
        case .and(let operands), .or(let operands): operands.allSatisfy(\.isRootOnly)
        case .not(let operand): operand.isRootOnly
        case .comparison(let comparison): comparison.left.isRootOnly && comparison.right.isRootOnly
        }
    }
}

extension Operand {
    var isRootOnly: Bool {
        switch self {
        case .constant, .constants: true
        case .path(let path): path.isRootOnly
        case .aggregate, .subqueryCount: false
        }
    }
}
