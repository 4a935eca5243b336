/// What SQLite can take of one statement, and whether a condition fits.
///
/// SQLite refuses statements past its compile-time limits: a parser stack
/// of 100 entries (each `NOT` or parenthesis nested in another takes some),
/// expression trees 1,000 deep, and 64 tables in one join. A condition that
/// would pass them is left to the post-filter whole, which evaluates any
/// condition the parser accepts; long `AND` and `OR` chains are written as
/// balanced groups instead (see ``SQLFragment/and(_:)``), which SQLite
/// takes at any length.
enum SQLShapeLimits {
    /// `NOT`, `AND`, `OR` and quantifiers nested in one another, past
    /// which the SQL could overflow SQLite's parser stack.
    static let maximumNesting = 24
    /// Links, lists and backlinks followed by the whole condition, each of
    /// which may join a table, past which a join could pass SQLite's 64.
    static let maximumLinkSteps = 48
    /// The nesting a `SUBQUERY` counts for beside its condition's: its SQL,
    /// `(SELECT count(*) FROM … WHERE … AND (…)) > ?`, takes about nine
    /// entries of SQLite's parser stack where a `NOT` takes two (eleven
    /// nested subqueries overflowed it).
    static let subqueryNesting = 4
    /// Terms of an `AND` or `OR` written one after the other; longer chains
    /// become groups of groups, so that the expression stays shallow.
    static let termsPerGroup = 16
}

extension Condition {
    /// Whether the SQL of this condition stays within SQLite's limits.
    var fitsSQLite: Bool {
        var steps = 0
        return fits(depth: 0, steps: &steps)
    }

    fileprivate func fits(depth: Int, steps: inout Int) -> Bool {
        guard depth <= SQLShapeLimits.maximumNesting else { return false }
        switch self {
        case .constant:
            return true
        case .and(let operands), .or(let operands):
            return operands.allSatisfy { $0.fits(depth: depth + 1, steps: &steps) }
        case .not(let operand):
            return operand.fits(depth: depth + 1, steps: &steps)
        case .comparison(let comparison):
            for operand in [comparison.left, comparison.right] {
                guard operand.fits(depth: depth + 1, steps: &steps) else { return false }
            }
            return true
        }
    }
}

extension Operand {
    fileprivate func fits(depth: Int, steps: inout Int) -> Bool {
        switch self {
        case .constant, .constants:
            return true
        case .path(let path), .aggregate(_, let path):
            steps += path.steps.count
            return steps <= SQLShapeLimits.maximumLinkSteps
        case .subqueryCount(let path, let condition):
            steps += path.steps.count
            return steps <= SQLShapeLimits.maximumLinkSteps && condition.fits(depth: depth + SQLShapeLimits.subqueryNesting, steps: &steps)
        }
    }
}
