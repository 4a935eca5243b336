import RealmCore

/// A piece of SQL with the values bound to its `?` parameters, in text order.
///
/// A boolean fragment also records what the compiler knows about it:
///
/// - `isExact`: whether it selects exactly the objects the condition
///   matches. An inexact fragment is an approximation the post-filter must
///   finish: a superset where the condition is not negated, a subset where
///   it is (the compiler tracks which with its polarity), so that the final
///   SQL `WHERE` always selects a superset of the matches.
/// - `uncertain`: of an inexact fragment, the rows whose verdict the
///   post-filter must check (those it selects but may not match, or, for a
///   subset, leaves out but may match); nil when that is every row. The
///   others SQL decides.
/// - `isNullable`: whether it can evaluate to NULL. Realm's logic has two
///   values; SQL's has three. Where NULL only ever stands for false
///   (outside a NOT), that changes nothing; under NOT, a nullable fragment
///   is wrapped in `ifnull(…, 0)` so that `NOT` inverts it as Realm does.
/// - `constant`: a truth value known at compile time, folded away by AND,
///   OR and NOT.
struct SQLFragment {
    /// How tightly the text binds, for parenthesizing.
    enum Precedence: Int, Comparable {
        case or = 1, and, not, comparison
        static func < (lhs: Precedence, rhs: Precedence) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    var sql: String
    var arguments: [Value]
    var precedence: Precedence
    var isExact: Bool
    var uncertain: Uncertainty?
    var isNullable: Bool
    var constant: Bool?

    /// A condition true of the rows whose verdict SQL cannot vouch for.
    /// NULL counts as false: every part of one is NULL only for a row SQL
    /// decides.
    struct Uncertainty {
        var sql: String
        var arguments: [Value]
        /// The rows the fragment selects and SQL vouches for, in a form an
        /// index can serve: equivalent to `fragment AND NOT ifnull(self, 0)`,
        /// which is what it stands for when nil. A count adds these up in
        /// SQL and tests only the uncertain rows.
        var decided: (sql: String, arguments: [Value])?
        /// The uncertain rows the fragment selects, in a simpler form:
        /// equivalent to `fragment AND self`, which is what it stands for
        /// when nil. A count reads these to test them.
        var selected: (sql: String, arguments: [Value])?

        init(sql: String, arguments: [Value], decided: (sql: String, arguments: [Value])? = nil,
             selected: (sql: String, arguments: [Value])? = nil) {
            self.sql = sql
            self.arguments = arguments
            self.decided = decided
            self.selected = selected
        }

        /// The uncertainty of a fragment combining `operands` (by AND, OR,
        /// or a quantifier over elements): a row is uncertain when one of
        /// them is. nil (every row) when an inexact operand is uncertain of
        /// every row.
        static func combining(_ operands: [SQLFragment]) -> Uncertainty? {
            var parts: [Uncertainty] = []
            for operand in operands where !operand.isExact {
                guard let uncertain = operand.uncertain else { return nil }
                parts.append(uncertain)
            }
            // What SQL vouches for in one operand is not what it vouches for
            // in their combination: ``SQLFragment/and(_:)`` works that out.
            guard parts.count > 1 else { return parts.first.map { Uncertainty(sql: $0.sql, arguments: $0.arguments) } }
            return Uncertainty(sql: parts.map { "(" + $0.sql + ")" }.joined(separator: " OR "), arguments: parts.flatMap(\.arguments))
        }
    }

    init(_ sql: String, _ arguments: [Value] = [], precedence: Precedence = .comparison, isExact: Bool = true, isNullable: Bool) {
        self.sql = sql
        self.arguments = arguments
        self.precedence = precedence
        self.isExact = isExact
        self.uncertain = nil
        self.isNullable = isNullable
        self.constant = nil
    }

    static func constant(_ value: Bool, isExact: Bool = true) -> SQLFragment {
        var fragment = SQLFragment(value ? "1" : "0", isExact: isExact, isNullable: false)
        fragment.constant = value
        return fragment
    }

    /// The text, parenthesized when it binds more loosely than `context`.
    func text(in context: Precedence) -> String {
        precedence < context ? "(" + sql + ")" : sql
    }

    static func and(_ operands: [SQLFragment]) -> SQLFragment {
        var result = folding(operands, absorbing: false, with: " AND ", precedence: .and)
        if result.uncertain != nil {
            result.uncertain?.decided = conjunction(of: operands, taking: \.decided)
            result.uncertain?.selected = conjunction(of: operands, taking: \.selected, maximumInexact: 1)
        }
        return result
    }

    static func or(_ operands: [SQLFragment]) -> SQLFragment {
        folding(operands, absorbing: true, with: " OR ", precedence: .or)
    }

    /// `operands` joined by AND (`absorbing` false) or OR (true), the
    /// constants folded away: one equal to `absorbing` decides the whole,
    /// the others drop out.
    private static func folding(_ operands: [SQLFragment], absorbing: Bool, with separator: String,
                                precedence: Precedence) -> SQLFragment {
        var kept: [SQLFragment] = []
        var isExact = true
        for operand in operands {
            if operand.constant == absorbing { return .constant(absorbing, isExact: operand.isExact) }
            isExact = isExact && operand.isExact
            if operand.constant != nil { continue }
            kept.append(operand)
        }
        if kept.isEmpty { return .constant(!absorbing, isExact: isExact) }
        var result: SQLFragment
        if kept.count == 1 {
            result = kept[0]
            result.isExact = isExact
        } else {
            result = joined(kept, with: separator, precedence: precedence, isExact: isExact)
        }
        // Of every operand: a constant folded away may be inexact too.
        result.uncertain = isExact ? nil : .combining(operands)
        return result
    }

    /// The AND of the exact `operands` and, of each inexact one, the part of
    /// its uncertainty that `part` names; nil when an inexact operand does
    /// not say, when none is inexact, or when more than `maximumInexact`
    /// are. Of an AND:
    ///
    /// - what SQL vouches for (`\.decided`) is the AND of what it vouches
    ///   for in each operand: a row is decided when every operand is;
    /// - the uncertain rows it selects (`\.selected`, one inexact operand
    ///   at most) are those that operand selects, within the exact ones:
    ///   the AND's uncertainty is then that operand's.
    private static func conjunction(of operands: [SQLFragment], taking part: KeyPath<Uncertainty, (sql: String, arguments: [Value])?>,
                                    maximumInexact: Int = .max) -> (sql: String, arguments: [Value])? {
        var parts: [String] = []
        var arguments: [Value] = []
        var inexact = 0
        for operand in operands {
            if operand.isExact {
                if operand.constant == true { continue }
                parts.append(operand.text(in: .and))
                arguments += operand.arguments
            } else {
                inexact += 1
                guard inexact <= maximumInexact, let taken = operand.uncertain?[keyPath: part] else { return nil }
                parts.append("(" + taken.sql + ")")
                arguments += taken.arguments
            }
        }
        return inexact == 0 ? nil : (parts.joined(separator: " AND "), arguments)
    }

    /// `operands` joined by `AND` or `OR`: one after the other up to
    /// ``SQLShapeLimits/termsPerGroup`` of them, and in parenthesized groups
    /// beyond, so that SQLite's expression tree, which a chain makes as deep
    /// as it is long, stays within its depth limit however long the chain.
    private static func joined(_ operands: [SQLFragment], with separator: String, precedence: Precedence, isExact: Bool) -> SQLFragment {
        let isNullable = operands.contains(where: \.isNullable)
        guard operands.count > SQLShapeLimits.termsPerGroup else {
            return SQLFragment(operands.map { $0.text(in: precedence) }.joined(separator: separator), operands.flatMap(\.arguments),
                               precedence: precedence, isExact: isExact, isNullable: isNullable)
        }
        let groupSize = (operands.count + SQLShapeLimits.termsPerGroup - 1) / SQLShapeLimits.termsPerGroup
        let groups = stride(from: 0, to: operands.count, by: groupSize).map { start in
            var group = joined(Array(operands[start..<min(start + groupSize, operands.count)]), with: separator,
                               precedence: precedence, isExact: isExact)
            // Parenthesized: a group is one term of the chain above it.
            group.sql = "(" + group.sql + ")"
            group.precedence = .comparison
            return group
        }
        return joined(groups, with: separator, precedence: precedence, isExact: isExact)
    }

    /// The two-valued negation: NULL (false) becomes true.
    static func not(_ operand: SQLFragment) -> SQLFragment {
        if let constant = operand.constant { return .constant(!constant, isExact: operand.isExact) }
        let inner = operand.isNullable ? "ifnull(" + operand.sql + ", 0)" : operand.text(in: .not)
        var negation = SQLFragment("NOT " + inner, operand.arguments, precedence: .not, isExact: operand.isExact, isNullable: false)
        // A row is uncertain as much after NOT as before: the superset's
        // doubtful rows are the subset's. What SQL vouches for is not.
        negation.uncertain = operand.uncertain.map { Uncertainty(sql: $0.sql, arguments: $0.arguments) }
        return negation
    }
}

/// A value-producing piece of SQL: a column, a parameter, a scalar subquery.
struct SQLOperand {
    var sql: String
    var arguments: [Value]
    /// The constant it binds, when it is a parameter.
    var constant: Value?
    /// Whether it can be a float or double NaN, which the file stores as a
    /// BLOB that SQLite orders after every number.
    var mayBeNaNBlob: Bool
    /// Whether it can be NULL.
    var isNullable: Bool

    static func parameter(_ value: Value) -> SQLOperand {
        SQLOperand(sql: "?", arguments: [value], constant: value, mayBeNaNBlob: false, isNullable: value.isNull)
    }

    static func expression(_ sql: String, arguments: [Value] = [], mayBeNaNBlob: Bool = false, isNullable: Bool) -> SQLOperand {
        SQLOperand(sql: sql, arguments: arguments, constant: nil, mayBeNaNBlob: mayBeNaNBlob, isNullable: isNullable)
    }
}
