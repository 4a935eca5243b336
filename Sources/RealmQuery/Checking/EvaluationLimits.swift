/// Shapes of predicate whose evaluation grows without bound, refused when
/// the predicate is checked: a predicate either throws from the checking
/// path or runs in bounded time.
///
/// Each nested `SUBQUERY` runs its condition once per element of its
/// collection, for every element of the one around it, and each to-many
/// step of a key path multiplies the objects reached: a `SUBQUERY` nested
/// thirty deep, or a chain of hundreds of list steps, ran for minutes on a
/// few hundred objects. Realm sets no such limits; nothing a model can mean
/// comes near them.
enum EvaluationLimits {
    /// `SUBQUERY`s nested in one another.
    static let maximumSubqueryNesting = 8
    /// To-many steps (lists, linking objects) one key path may take, the
    /// collections of the `SUBQUERY`s around it included.
    static let maximumToManySteps = 48

    /// Throws when `condition`, checked from `predicate`, passes a limit.
    static func check(_ condition: Condition, predicate: Predicate) throws(QueryError) {
        try check(condition, nesting: 0, toManySteps: 0, predicate: predicate)
    }

    private static func check(_ condition: Condition, nesting: Int, toManySteps: Int, predicate: Predicate) throws(QueryError) {
        switch condition {
        case .constant:
            return
        case .and(let operands), .or(let operands):
            for operand in operands { try check(operand, nesting: nesting, toManySteps: toManySteps, predicate: predicate) }
        case .not(let operand):
            try check(operand, nesting: nesting, toManySteps: toManySteps, predicate: predicate)
        case .comparison(let comparison):
            for operand in [comparison.left, comparison.right] {
                try check(operand, nesting: nesting, toManySteps: toManySteps, predicate: predicate)
            }
        }
    }

    private static func check(_ operand: Operand, nesting: Int, toManySteps: Int, predicate: Predicate) throws(QueryError) {
        switch operand {
        case .constant, .constants:
            return
        case .path(let path), .aggregate(_, let path):
            try checkSteps(toManySteps + path.toManySteps, of: path, predicate: predicate)
        case .subqueryCount(let path, let condition):
            let steps = toManySteps + path.toManySteps
            try checkSteps(steps, of: path, predicate: predicate)
            guard nesting < maximumSubqueryNesting else {
                throw QueryError("SUBQUERY is nested more than \(maximumSubqueryNesting) deep; its cost grows with every level", predicate: predicate.description)
            }
            try check(condition, nesting: nesting + 1, toManySteps: steps, predicate: predicate)
        }
    }

    private static func checkSteps(_ steps: Int, of path: ResolvedPath, predicate: Predicate) throws(QueryError) {
        guard steps <= maximumToManySteps else {
            throw QueryError("The key path '\(path.text)' goes through \(steps) lists or linking objects (with the SUBQUERYs around it); at most \(maximumToManySteps)", predicate: predicate.description)
        }
    }
}

extension ResolvedPath {
    /// Its steps through lists and linking objects.
    var toManySteps: Int { steps.reduce(0) { $0 + ($1.isToMany ? 1 : 0) } }
}
