import RealmCore

/// A query predicate: the typed syntax tree of Realm's predicate language.
///
/// A predicate comes from ``PredicateParser/parse(_:arguments:)`` (a format
/// string such as `"color = 'tan' AND name BEGINSWITH 'B'"`) or is built
/// directly, for example by a typed query builder. It says nothing about a
/// class until it is put in a ``Query`` and checked against a schema with
/// ``Query/validated(against:)``, which resolves its key paths and types.
///
/// Building a predicate costs nothing beyond the values it holds; it is a
/// plain value, `Hashable` and `Sendable`. Two predicates are equal when they
/// have the same structure and values, wherever they were written (see
/// ``PredicateLocation``).
///
/// `description` renders the predicate in the format-string syntax;
/// ``formatted()`` renders it together with the arguments needed to parse it
/// back exactly.
public enum Predicate: Hashable, Sendable {
    /// Matches every object (`TRUEPREDICATE`).
    case truePredicate
    /// Matches no object (`FALSEPREDICATE`).
    case falsePredicate
    /// Matches when every operand matches (`AND`, `&&`). An empty list matches
    /// every object.
    case and([Predicate])
    /// Matches when at least one operand matches (`OR`, `||`). An empty list
    /// matches no object.
    case or([Predicate])
    /// Matches when the operand does not (`NOT`, `!`). Realm's logic has two
    /// values: a comparison involving nil is true or false, never unknown, so
    /// `NOT` always inverts.
    indirect case not(Predicate)
    /// A comparison, string operation, `IN`, `BETWEEN` or quantified
    /// (`ANY`, `ALL`, `NONE`) comparison.
    indirect case comparison(Comparison)
}

extension Predicate {
    /// `left op right`, with an optional modifier and string options.
    public static func compare(
        _ left: QueryExpression, _ op: ComparisonOperator, _ right: QueryExpression,
        modifier: ComparisonModifier = .direct, options: StringOptions = []
    ) -> Predicate {
        .comparison(Comparison(left, op, right, modifier: modifier, options: options))
    }

    /// This predicate and `other`, flattening nested conjunctions.
    public func and(_ other: Predicate) -> Predicate {
        switch (self, other) {
        case (.truePredicate, _): other
        case (_, .truePredicate): self
        case (.and(let left), .and(let right)): .and(left + right)
        case (.and(let left), _): .and(left + [other])
        case (_, .and(let right)): .and([self] + right)
        default: .and([self, other])
        }
    }

    /// This predicate or `other`, flattening nested disjunctions.
    public func or(_ other: Predicate) -> Predicate {
        switch (self, other) {
        case (.falsePredicate, _): other
        case (_, .falsePredicate): self
        case (.or(let left), .or(let right)): .or(left + right)
        case (.or(let left), _): .or(left + [other])
        case (_, .or(let right)): .or([self] + right)
        default: .or([self, other])
        }
    }
}

/// Another name for ``Predicate``, for files that also import Foundation,
/// whose own `Predicate` type makes the bare name ambiguous there.
public typealias QueryPredicate = Predicate
