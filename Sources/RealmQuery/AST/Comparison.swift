import RealmCore

/// One comparison of a predicate: `left op[options] right`, optionally
/// quantified with `ANY`, `ALL` or `NONE`.
///
/// The operands may be key paths, values, collection aggregates or
/// `SUBQUERY(…).@count`; at least one must depend on the object (a key path,
/// an aggregate or a subquery), which ``Query/validated(against:)`` checks.
public struct Comparison: Hashable, Sendable {
    /// The left operand.
    public var left: QueryExpression
    /// The operator.
    public var op: ComparisonOperator
    /// The right operand (`{low, high}` for `BETWEEN`; a list, collection
    /// argument or list key path for `IN`).
    public var right: QueryExpression
    /// `ANY`/`SOME`, `ALL` or `NONE`; `.direct` when none was written (a
    /// comparison on a key path through a list then means `ANY`).
    public var modifier: ComparisonModifier
    /// `[c]`, `[d]` or `[cd]`: only for string comparisons.
    public var options: StringOptions
    /// Where the comparison was written, for error messages; nil for
    /// predicates built in code. Ignored by `==` and hashing.
    public var location: PredicateLocation?

    /// A comparison; `location` is for parsers, which record where it was
    /// written.
    public init(
        _ left: QueryExpression, _ op: ComparisonOperator, _ right: QueryExpression,
        modifier: ComparisonModifier = .direct, options: StringOptions = [], location: PredicateLocation? = nil
    ) {
        self.left = left
        self.op = op
        self.right = right
        self.modifier = modifier
        self.options = options
        self.location = location
    }

    /// Equal when everything but ``location`` is.
    public static func == (lhs: Comparison, rhs: Comparison) -> Bool {
        lhs.left == rhs.left && lhs.op == rhs.op && lhs.right == rhs.right
            && lhs.modifier == rhs.modifier && lhs.options == rhs.options
    }

    /// Hashes everything but ``location``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(left)
        hasher.combine(op)
        hasher.combine(right)
        hasher.combine(modifier)
        hasher.combine(options)
    }
}

/// The operators of a comparison.
public enum ComparisonOperator: String, Hashable, Sendable, CaseIterable {
    /// `==` or `=`: equal; nil equals nil.
    case equal = "=="
    /// `!=` or `<>`: not equal; a nil value differs from every non-nil one.
    case notEqual = "!="
    /// `<`; false when either side is nil or NaN (as for the other orderings).
    case lessThan = "<"
    /// `<=` or `=<`.
    case lessThanOrEqual = "<="
    /// `>`.
    case greaterThan = ">"
    /// `>=` or `=>`.
    case greaterThanOrEqual = ">="
    /// `BETWEEN {low, high}`: both bounds inclusive.
    case between = "BETWEEN"
    /// `BEGINSWITH`: the string (or data) starts with the other.
    case beginsWith = "BEGINSWITH"
    /// `CONTAINS`: the string (or data) contains the other.
    case contains = "CONTAINS"
    /// `ENDSWITH`: the string (or data) ends with the other.
    case endsWith = "ENDSWITH"
    /// `LIKE`: `?` matches one character, `*` zero or more.
    case like = "LIKE"
    /// `IN {…}`, `IN %@` (a collection argument) or `IN` a list key path.
    case `in` = "IN"

    /// Whether the operator orders values (`<`, `<=`, `>`, `>=`, `BETWEEN`).
    public var isOrdering: Bool {
        switch self {
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .between: true
        default: false
        }
    }

    /// Whether the operator works on the contents of strings and data
    /// (`BEGINSWITH`, `CONTAINS`, `ENDSWITH`, `LIKE`).
    public var isSubstringOperator: Bool {
        switch self {
        case .beginsWith, .contains, .endsWith, .like: true
        default: false
        }
    }
}

/// The quantifier of a comparison whose key path goes through a list.
public enum ComparisonModifier: String, Hashable, Sendable, CaseIterable {
    /// No modifier written.
    case direct = ""
    /// `ANY` or `SOME`: at least one element matches.
    case any = "ANY"
    /// `ALL`: every element matches (true for an empty list).
    case all = "ALL"
    /// `NONE`: no element matches (true for an empty list).
    case none = "NONE"
}

/// The string options of a comparison: `[c]`, `[d]`, `[cd]`.
///
/// Folding covers the code points Realm supports for it, 0–591 (Basic
/// Latin, Latin-1 Supplement, Latin Extended-A and -B); other characters
/// compare exactly. `Docs/Queries.md` lists the rules.
public struct StringOptions: OptionSet, Hashable, Sendable {
    /// The option bits.
    public let rawValue: UInt8
    /// The options of `rawValue`'s bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `[c]`: letters compare without regard to case.
    public static let caseInsensitive = StringOptions(rawValue: 1)
    /// `[d]`: letters compare without regard to diacritics (`é` matches `e`).
    public static let diacriticInsensitive = StringOptions(rawValue: 2)

    /// The options as written in a format string: `""`, `"[c]"`, `"[d]"`,
    /// `"[cd]"`.
    public var formatted: String {
        switch (contains(.caseInsensitive), contains(.diacriticInsensitive)) {
        case (false, false): ""
        case (true, false): "[c]"
        case (false, true): "[d]"
        case (true, true): "[cd]"
        }
    }
}
