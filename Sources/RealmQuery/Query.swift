import RealmCore

/// A query over the objects of one class: which objects (the source and a
/// predicate), in which order (sort descriptors), and which to keep of
/// duplicates (distinct key paths).
///
/// A query is a plain value: building, filtering and sorting it does no
/// work. Its first execution (``objectKeys(in:)``, ``count(in:)``,
/// ``aggregate(_:keyPath:in:)``) against a schema checks it and compiles it
/// to SQL (microseconds), and the query keeps the plan; it runs at the
/// transaction's version, as SQLite statements cached per connection. A
/// plan whose SQL does not depend on the values of the predicate's
/// constants also serves other queries that differ only in those values
/// ("Filters written per call" in `Docs/Queries.md`).
///
/// Everything runs in SQL that SQL can say exactly, including sorting and
/// distinct. What it cannot (`[c]`/`[d]` folding beyond what SQLite's LIKE
/// does, ordering of decimals, aggregates of decimals) compiles to SQL that
/// narrows the candidates, and a Swift post-filter finishes; both give the
/// same answers. `Docs/Queries.md` lists which forms need the post-filter.
public struct Query: Sendable {
    /// Where the objects come from.
    public enum Source: Hashable, Sendable {
        /// All objects of ``Query/className``, in key (creation) order.
        case table
        /// The elements of a list of objects of `ownerClass`, in list order
        /// (an object appears as often as the list holds it).
        case list(ownerClass: String, property: String, owner: ObjectKey)
        /// The objects of ``Query/className`` whose link property
        /// `sourceProperty` (to-one or list) points at `target`, an object of
        /// the class that property links to; once per link, in key order.
        case linkingObjects(sourceProperty: String, target: ObjectKey)
    }

    /// How a query filters: for tests that hold the SQL path against the
    /// Swift evaluator.
    package enum Evaluation: Hashable, Sendable {
        /// SQL wherever it is exact, the post-filter elsewhere.
        case automatic
        /// No SQL filtering at all: the Swift evaluator tests every object
        /// of the source.
        case postFilterOnly
    }

    /// The class of the objects the query returns.
    public var className: String {
        get { storage.definition.className }
        set { change { $0.className = newValue } }
    }
    /// Where the objects come from: the whole class, a list, or linking
    /// objects.
    public var source: Source {
        get { storage.definition.source }
        set { change { $0.source = newValue } }
    }
    /// Which objects match; `.truePredicate` for all of them.
    public var predicate: Predicate {
        get { storage.definition.predicate.predicate }
        set { change { $0.predicate = .built(newValue) } }
    }
    /// The order of the results, first descriptor first; ties keep the
    /// source order. Empty for the source order.
    public var sort: [SortDescriptor] {
        get { storage.definition.sort }
        set { change { $0.sort = newValue } }
    }
    /// Key paths whose values identify duplicates: of each group of objects
    /// with equal values, the first in the current order is kept.
    public var distinct: [String] {
        get { storage.definition.distinct }
        set { change { $0.distinct = newValue } }
    }
    /// Whether distinct applies before sorting (keeping the first object of
    /// each group in source order, then sorting what is left) rather than
    /// after it (keeping the first in sorted order), for a collection that
    /// called `distinct(by:)` before `sorted(by:)`.
    public var distinctBeforeSort: Bool {
        get { storage.definition.distinctBeforeSort }
        set { change { $0.distinctBeforeSort = newValue } }
    }
    package var evaluation: Evaluation {
        get { storage.definition.evaluation }
        set { change { $0.evaluation = newValue } }
    }

    /// The definition and the plan compiled for the schema last used,
    /// shared by copies of the query (so that a copy costs one retain) and
    /// replaced when the query changes (which forgets the plan).
    private(set) var storage: QueryStorage

    private mutating func change(_ body: (inout QueryStorage.Definition) -> Void) {
        var definition = storage.definition
        body(&definition)
        storage = QueryStorage(definition)
    }

    /// Whether `other` selects and orders the same objects in the same way:
    /// the same class, source, predicate, sort and distinct (its cached
    /// plans aside).
    public func hasSameDefinition(as other: Query) -> Bool {
        // Copies share their storage.
        if storage === other.storage { return true }
        return className == other.className && source == other.source && predicate == other.predicate
            && sort == other.sort && distinct == other.distinct && distinctBeforeSort == other.distinctBeforeSort
            && evaluation == other.evaluation
    }

    /// A query for the objects of `className` in `source` matching
    /// `predicate`, in the order of `sort`, keeping the first object of each
    /// group of equal `distinct` values. Does no work until run.
    public init(className: String, source: Source = .table, predicate: Predicate = .truePredicate,
                sort: [SortDescriptor] = [], distinct: [String] = []) {
        storage = QueryStorage(QueryStorage.Definition(
            className: className, source: source, predicate: .built(predicate), sort: sort, distinct: distinct))
    }

    /// The query, whose predicate must be true, filtered by the predicate
    /// `parsed` means with `arguments` and planned by `plan`.
    ///
    /// A filter per lookup (`objects(Dog.self).filter("name == %@",
    /// name).first`) runs on a plan made from its format's template and
    /// never reads its predicate, which would cost a tree of allocations to
    /// build for each lookup: the predicate is built only if something asks
    /// for it.
    func filtered(by parsed: ParsedFormat, arguments: [QueryArgument], plan: QueryPlan, for catalog: AnyObject) -> Query {
        assert(predicate == .truePredicate, "Only a query of every object can take a remembered filter's predicate as its own.")
        var query = self
        query.change { $0.predicate = .parsed(parsed, arguments: arguments) }
        query.storage.store(plan, for: catalog)
        return query
    }

    /// The query further filtered by `predicate` (both must match).
    public func filtered(by predicate: Predicate) -> Query {
        var query = self
        query.predicate = self.predicate.and(predicate)
        return query
    }

    /// The query sorted by `descriptors`, replacing any previous sort (as
    /// Realm's `sorted` does).
    public func sorted(by descriptors: [SortDescriptor]) -> Query {
        var query = self
        query.sort = descriptors
        return query
    }

    /// The query keeping one object per distinct combination of the values
    /// at `keyPaths`.
    public func distinct(by keyPaths: [String]) -> Query {
        var query = self
        query.distinct = keyPaths
        query.distinctBeforeSort = sort.isEmpty
        return query
    }

    /// Checks the query against `schema`: the class and source exist, every
    /// key path of the predicate, sort and distinct resolves, and every
    /// operator and constant fits the types it meets. Returns the query
    /// unchanged.
    ///
    /// Costs one walk over the predicate; no SQL runs.
    ///
    /// - Throws: ``QueryError`` quoting the predicate (the format string it
    ///   was parsed from, when it was) and pointing at the offending token,
    ///   as in `"agee > 5": Dog has no property 'agee'`.
    public func validated(against schema: Schema) throws(QueryError) -> Query {
        _ = try QueryPlanner(self, schema: schema, keyedByPrimaryKey: []).check()
        return self
    }

    /// The SQL that selects the matching objects' keys, and its arguments:
    /// for tests, logging and `EXPLAIN QUERY PLAN`. When the query needs the
    /// post-filter (or sorts by decimals), this is the statement that
    /// selects the candidates, with their sort and distinct values and the
    /// columns the post-filter reads.
    ///
    /// `keyedByPrimaryKey` names the classes whose file layout keeps the
    /// primary key as the object key (a transaction's
    /// `classesKeyedByPrimaryKey`); their primary key compiles to `_key`.
    ///
    /// - Throws: ``QueryError`` as ``validated(against:)``.
    public func compiledSQL(schema: Schema, keyedByPrimaryKey: Set<String> = []) throws -> (sql: String, arguments: [Value]) {
        let plan = try QueryPlanner(self, schema: schema, keyedByPrimaryKey: keyedByPrimaryKey).plan()
        return plan.isPureSQL ? plan.keysStatement() : plan.candidatesStatement()
    }

    /// The `SELECT count(*)` statement ``count(in:)`` runs, and its
    /// arguments; nil when the count needs the post-filter.
    /// `keyedByPrimaryKey` is as for ``compiledSQL(schema:keyedByPrimaryKey:)``.
    ///
    /// - Throws: ``QueryError`` as ``validated(against:)``.
    public func compiledCountSQL(schema: Schema, keyedByPrimaryKey: Set<String> = []) throws -> (sql: String, arguments: [Value])? {
        var unsorted = self
        unsorted.sort = []
        return try QueryPlanner(unsorted, schema: schema, keyedByPrimaryKey: keyedByPrimaryKey).plan().countStatement()
    }

    /// Whether SQL alone answers the query, with no Swift post-filter or
    /// sorting, for `schema`.
    public func runsEntirelyInSQL(schema: Schema) throws -> Bool {
        try QueryPlanner(self, schema: schema, keyedByPrimaryKey: []).plan().isPureSQL
    }
}
