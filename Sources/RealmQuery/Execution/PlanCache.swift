import Foundation
import RealmCore

/// The plan of a query for the schema it last ran against, so that a
/// `Results` that is filtered, counted, walked and indexed checks and
/// compiles its query once rather than at each step.
///
/// A plan depends only on the query and the schema; the schema is known by
/// the identity of the transaction's catalog (one per schema version of a
/// file), which the cache holds so that the identity cannot be reused.
final class PlanCache: @unchecked Sendable {
    // @unchecked: `entry` is only touched under `lock`; a plan is an
    // immutable value once made, and the catalog is only compared by
    // identity.
    private let lock = NSLock()
    private var entry: (catalog: AnyObject, plan: QueryPlan)?

    func plan(for catalog: AnyObject) -> QueryPlan? {
        lock.withLock {
            guard let entry, entry.catalog === catalog else { return nil }
            return entry.plan
        }
    }

    func store(_ plan: QueryPlan, for catalog: AnyObject) {
        lock.withLock { entry = (catalog, plan) }
    }
}

extension Query {
    /// The query's plan at the transaction's version, compiled once per
    /// schema.
    func plan(in transaction: Transaction) throws -> QueryPlan {
        let catalog = transaction.catalogIdentity
        if let plan = plans.plan(for: catalog) { return plan }
        let plan = try QueryPlanner(self, schema: transaction.schema).plan()
        plans.store(plan, for: catalog)
        return plan
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
