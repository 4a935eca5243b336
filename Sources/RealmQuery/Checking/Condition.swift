import RealmCore

/// A predicate resolved against a schema: key paths resolved, constants
/// coerced to the types they are compared with, `IN` a list key path
/// rewritten as `ANY … ==`. The SQL compiler and the Swift evaluator both
/// work from this form, so they agree on what every comparison means.
indirect enum Condition: Hashable, Sendable {
    case constant(Bool)
    case and([Condition])
    case or([Condition])
    case not(Condition)
    case comparison(ResolvedComparison)
}

/// How a comparison with a multi-valued side combines the elements' results.
enum Quantifier: Hashable, Sendable {
    /// Both sides are single values.
    case single
    case any
    case all
    case none
}

/// One side of a resolved comparison.
indirect enum Operand: Hashable, Sendable {
    case path(ResolvedPath)
    case constant(Value)
    /// The values of `IN {…}` or `BETWEEN {low, high}`.
    case constants([Value])
    /// An aggregate of every value the (multi-valued) path yields.
    case aggregate(CollectionOperation, ResolvedPath)
    /// The number of objects the (multi-valued) path yields that match the
    /// condition, evaluated with each of them as its root.
    case subqueryCount(ResolvedPath, Condition)

    var path: ResolvedPath? {
        if case .path(let path) = self { return path }
        return nil
    }

    var isMultiValued: Bool {
        path?.isMultiValued ?? false
    }
}

struct ResolvedComparison: Hashable, Sendable {
    var left: Operand
    var op: ComparisonOperator
    var right: Operand
    var quantifier: Quantifier
    var options: StringOptions
    /// The type both sides are compared as (for numbers, the left key path's
    /// type when both are key paths).
    var type: PropertyType
    /// Whether the multi-valued side, if any, is the right one.
    var multiValuedRight: Bool
}
