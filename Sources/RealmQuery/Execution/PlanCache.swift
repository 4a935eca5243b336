import RealmCore
import Synchronization

/// The plan of a query for the schema it last ran against, so that a
/// `Results` that is filtered, counted, walked and indexed checks and
/// compiles its query once rather than at each step.
///
/// A plan depends only on the query and the schema; the schema is known by
/// the identity of the transaction's catalog (one per schema version of a
/// file), which the cache holds so that the identity cannot be reused.
final class PlanCache: Sendable {
    private struct Entry: @unchecked Sendable {
        // @unchecked: a plan is an immutable value once made, and the
        // catalog is only compared by identity.
        let catalog: AnyObject
        let plan: QueryPlan
    }

    private let entry = Mutex<Entry?>(nil)

    func plan(for catalog: AnyObject) -> QueryPlan? {
        entry.withLock { entry in
            guard let entry, entry.catalog === catalog else { return nil }
            return entry.plan
        }
    }

    func store(_ plan: QueryPlan, for catalog: AnyObject) {
        entry.withLock { $0 = Entry(catalog: catalog, plan: plan) }
    }
}

extension Query {
    /// The query's plan at the transaction's version, compiled once per
    /// schema, and once per shape of query when it qualifies for a
    /// ``PlanTemplate``.
    func plan(in transaction: Transaction) throws -> QueryPlan {
        let catalog = transaction.catalogIdentity
        if let plan = plans.plan(for: catalog) { return plan }
        return try makePlan(in: transaction).plan
    }

    /// Plans the query afresh (from the template of its shape when there is
    /// one), keeps the plan, and returns it with that template.
    func makePlan(in transaction: Transaction) throws -> (plan: QueryPlan, template: PlanTemplate?) {
        let catalog = transaction.catalogIdentity
        let made = try PlanTemplates.shared.plan(for: self, catalog: catalog) {
            try QueryPlanner(self, in: transaction).plan()
        }
        plans.store(made.plan, for: catalog)
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
