/// One token of a format string; `start` and `end` are offsets in Unicode
/// scalars, converted to `Character` offsets only for messages.
struct Token: Sendable {
    enum Kind: Equatable, Sendable {
        /// A name, or a keyword escaped with `#`.
        case identifier(String)
        case keyword(Keyword)
        case string(String)
        /// The literal's text, digits and all, so that an integer keeps its
        /// exact value.
        case number(String)
        case placeholder(Placeholder)
        /// `$0`, `$1`, …: the argument at that index.
        case positionalArgument(Int)
        /// `$name`: a SUBQUERY variable (without the `$`).
        case variable(String)
        case collectionOperator(CollectionOperation)
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
        case and, or, not
        case leftParen, rightParen, leftBrace, rightBrace, leftBracket, rightBracket
        case comma, dot, minus
        /// `*`: every element, in a subscript of a nested collection
        /// (`value[*]`).
        case star
        case end
    }

    let kind: Kind
    let start: Int
    let end: Int
    /// The token as written, for messages.
    let text: String
}

/// The `%` placeholders of a format string.
enum Placeholder: String, Sendable {
    case object = "%@"
    case keyPath = "%K"
    case integer = "%d"
    case real = "%f"
}

/// The reserved words of the language, matched without regard to case. A
/// property with one of these names is written with a `#` (`#size`), or
/// after a `.` in a key path, where no keyword can appear.
enum Keyword: String, CaseIterable, Sendable {
    case and = "AND", or = "OR", not = "NOT"
    case any = "ANY", some = "SOME", all = "ALL", none = "NONE"
    case `in` = "IN", between = "BETWEEN"
    case beginsWith = "BEGINSWITH", contains = "CONTAINS", endsWith = "ENDSWITH", like = "LIKE", matches = "MATCHES"
    case truePredicate = "TRUEPREDICATE", falsePredicate = "FALSEPREDICATE"
    case subquery = "SUBQUERY"
    case `nil` = "NIL", null = "NULL"
    case `true` = "TRUE", yes = "YES", `false` = "FALSE", no = "NO"
    case `self` = "SELF"

    private static let byName: [String: Keyword] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// The keyword spelled `word` in any case, if it is one.
    static func named(_ word: String) -> Keyword? {
        // Keywords are ASCII; skip the uppercasing for anything longer.
        guard word.utf8.count <= 14 else { return nil }
        return byName[word.uppercased()]
    }
}
