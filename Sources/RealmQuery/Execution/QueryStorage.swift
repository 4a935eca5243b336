import RealmCore
import Synchronization

/// What a ``Query`` is (its definition) and the plan of it for the schema
/// it last ran against, so that a `Results` that is filtered, counted,
/// walked and indexed checks and compiles its query once rather than at
/// each step.
///
/// Copies of a query share one storage; a change makes a new one. A plan
/// depends only on the definition and the schema; the schema is known by
/// the identity of the transaction's catalog (one per schema version of a
/// file), which the storage holds so that the identity cannot be reused.
final class QueryStorage: Sendable {
    /// Everything that decides which objects a query returns, in which
    /// order.
    struct Definition: Sendable {
        var className: String
        var source: Query.Source
        var predicate: PredicateSource
        var sort: [SortDescriptor]
        var distinct: [String]
        var distinctBeforeSort = false
        var evaluation: Query.Evaluation = .automatic
    }

    /// A query's predicate, or what builds it on demand.
    enum PredicateSource: Sendable {
        case built(Predicate)
        /// A reusable parse of a format string and the arguments it was
        /// given (see `FilterMemo`).
        case parsed(ParsedFormat, arguments: [QueryArgument])

        var predicate: Predicate {
            switch self {
            case .built(let predicate): predicate
            case .parsed(let parsed, let arguments): parsed.predicate(with: arguments)
            }
        }
    }

    private struct PlanEntry: @unchecked Sendable {
        // @unchecked: a plan is an immutable value once made, and the
        // catalog is only compared by identity.
        let catalog: AnyObject
        let plan: QueryPlan
    }

    let definition: Definition
    private let planEntry = Mutex<PlanEntry?>(nil)

    init(_ definition: Definition) {
        self.definition = definition
    }

    func plan(for catalog: AnyObject) -> QueryPlan? {
        planEntry.withLock { entry in
            guard let entry, entry.catalog === catalog else { return nil }
            return entry.plan
        }
    }

    func store(_ plan: QueryPlan, for catalog: AnyObject) {
        planEntry.withLock { $0 = PlanEntry(catalog: catalog, plan: plan) }
    }
}

extension Query {
    /// The query's plan at the transaction's version, compiled once per
    /// schema, and once per shape of query when it qualifies for a
    /// ``PlanTemplate``.
    func plan(in transaction: Transaction) throws -> QueryPlan {
        let catalog = transaction.catalogIdentity
        if let plan = storage.plan(for: catalog) { return plan }
        return try makePlan(in: transaction).plan
    }

    /// Plans the query afresh (from the template of its shape when there is
    /// one), keeps the plan, and returns it with that template.
    func makePlan(in transaction: Transaction) throws -> (plan: QueryPlan, template: PlanTemplate?) {
        let catalog = transaction.catalogIdentity
        let made = try PlanTemplates.shared.plan(for: self, catalog: catalog) {
            try QueryPlanner(self, in: transaction).plan()
        }
        storage.store(made.plan, for: catalog)
        return made
    }

    /// Checks the query against the schema the transaction reads, keeping
    /// the plan for the query's later runs.
    ///
    /// - Throws: ``QueryError`` naming the offending token.
    package func validated(in transaction: Transaction) throws -> Query {
        _ = try transaction.version
        _ = try plan(in: transaction)
        return self
    }
}
