import RealmCore

/// Parses predicate format strings, Realm's (NSPredicate's) query syntax,
/// into ``Predicate`` values.
///
/// ```swift
/// let tanDogs = try PredicateParser.parse("color = %@ AND name BEGINSWITH %@",
///                                         arguments: [.value(.string("tan")), .value(.string("B"))])
/// ```
///
/// The grammar is in `Docs/Queries.md`. Parsing is a single pass over the
/// string (linear in its length) and checks only syntax and arguments; key
/// paths and types are checked against a schema by
/// ``Query/validated(against:)``.
public enum PredicateParser {
    /// Parses `format`, binding `arguments` by position to its `%@`, `%K`,
    /// `%d`, `%i`, `%f` placeholders (in order) and `$0`, `$1`, … (by index).
    ///
    /// - Throws: ``QueryError`` for a malformed format (pointing at the
    ///   offending token), a missing or unused argument, or an argument of
    ///   the wrong kind for its placeholder.
    ///
    /// A format string is parsed once per kinds of its arguments: later
    /// calls with values of the same types reuse the first parse, with the
    /// new values in place (see `ParseCache`).
    public static func parse(_ format: String, arguments: [QueryArgument] = []) throws(QueryError) -> Predicate {
        try parseReusably(format, arguments: arguments).predicate
    }

    /// Parses `format` as ``parse(_:arguments:)`` does, and says how to
    /// reuse the parse for other arguments when that is possible.
    static func parseReusably(_ format: String, arguments: [QueryArgument]) throws(QueryError) -> (predicate: Predicate, reusable: ParsedFormat?) {
        try ParseCache.shared.predicate(format, arguments: arguments) { () throws(QueryError) in
            try parseForReuse(format, arguments: arguments)
        }
    }

    /// Parses `format` without the cache: for tests that hold reused parses
    /// against fresh ones.
    package static func parseAfresh(_ format: String, arguments: [QueryArgument] = []) throws(QueryError) -> Predicate {
        try parseForReuse(format, arguments: arguments).predicate
    }

    /// Parses `format`, and says how to reuse the parse for other
    /// arguments when that is possible.
    private static func parseForReuse(_ format: String, arguments: [QueryArgument]) throws(QueryError) -> (predicate: Predicate, reusable: ParsedFormat?) {
        var parser = Parser(format: format, tokens: try Lexer.tokenize(format), arguments: arguments)
        let predicate = try parser.parseAll()
        return (predicate, ParsedFormat(predicate, sources: parser.constantSources,
                                        keyPathArguments: parser.keyPathArguments, arguments: arguments))
    }
}

/// A recursive-descent parser over the token stream:
///
/// ```
/// predicate  = or
/// or         = and { ("OR" | "||") and }
/// and        = not { ("AND" | "&&") not }
/// not        = ("NOT" | "!") not | primary
/// primary    = "(" predicate ")" | "TRUEPREDICATE" | "FALSEPREDICATE" | comparison
/// comparison = [ "ANY" | "SOME" | "ALL" | "NONE" ] expression operator [ options ] expression
/// ```
struct Parser {
    let format: String
    let tokens: [Token]
    let arguments: [QueryArgument]
    let offsets: CharacterOffsets
    var index = 0
    var nextSequentialArgument = 0
    var usedArguments = Set<Int>()
    /// Where each constant of the predicate came from, in the order of
    /// ``Predicate/constants``.
    var constantSources: [ConstantSource] = []
    /// The arguments that stand for key paths.
    var keyPathArguments = Set<Int>()
    /// SUBQUERY variables in scope, innermost last.
    var variables: [String] = []
    /// Parentheses, `NOT`s and subqueries open around the current token.
    var nesting = 0

    /// How deep predicates may nest. Parsing, checking and evaluating
    /// recurse once per level, so a limit keeps any input from exhausting a
    /// thread's stack; no predicate a person writes comes near it.
    static let maximumNesting = 200

    /// Counts one more level of nesting for the duration of `body`.
    mutating func nested<Result>(at token: Token, _ body: (inout Parser) throws(QueryError) -> Result) throws(QueryError) -> Result {
        guard nesting < Self.maximumNesting else {
            throw error("The predicate nests parentheses, NOTs and subqueries more than \(Self.maximumNesting) levels deep here", token)
        }
        nesting += 1
        defer { nesting -= 1 }
        return try body(&self)
    }

    init(format: String, tokens: [Token], arguments: [QueryArgument]) {
        self.format = format
        self.tokens = tokens
        self.arguments = arguments
        self.offsets = CharacterOffsets(format)
    }

    // MARK: Tokens

    var current: Token { tokens[index] }

    mutating func advance() -> Token {
        let token = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return token
    }

    func error(_ message: String, _ token: Token) -> QueryError {
        offsets.error(message, scalarRange: token.start..<max(token.end, token.start + 1))
    }

    func error(_ message: String, from start: Int, to end: Int) -> QueryError {
        offsets.error(message, scalarRange: start..<max(end, start + 1))
    }

    func describe(_ token: Token) -> String {
        token.kind == .end ? "the end of the predicate" : "'\(token.text)'"
    }

    mutating func expect(_ kind: Token.Kind, _ what: String) throws(QueryError) -> Token {
        guard current.kind == kind else {
            throw error("Expected \(what) but found \(describe(current))", current)
        }
        return advance()
    }

    // MARK: Predicates

    mutating func parseAll() throws(QueryError) -> Predicate {
        if current.kind == .end {
            throw error("The predicate is empty; write TRUEPREDICATE to match every object", current)
        }
        let predicate = try parseOr()
        guard current.kind == .end else {
            throw error("Unexpected \(describe(current)) after a complete predicate; join predicates with AND or OR", current)
        }
        for argumentIndex in arguments.indices where !usedArguments.contains(argumentIndex) {
            throw QueryError(
                "\(arguments.count) argument\(arguments.count == 1 ? " was" : "s were") given but argument \(argumentIndex) (\(Self.describe(arguments[argumentIndex]))) is not used by the format",
                predicate: format)
        }
        return predicate
    }

    mutating func parseOr() throws(QueryError) -> Predicate {
        var operands = [try parseAnd()]
        while current.kind == .or || current.kind == .keyword(.or) {
            _ = advance()
            operands.append(try parseAnd())
        }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    mutating func parseAnd() throws(QueryError) -> Predicate {
        var operands = [try parseNot()]
        while current.kind == .and || current.kind == .keyword(.and) {
            _ = advance()
            operands.append(try parseNot())
        }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    mutating func parseNot() throws(QueryError) -> Predicate {
        if current.kind == .not || current.kind == .keyword(.not) {
            let not = advance()
            let operand = try nested(at: not) { parser throws(QueryError) in try parser.parseNot() }
            // Realm's logic has two values: NOT NOT p is p.
            if case .not(let inner) = operand { return inner }
            return .not(operand)
        }
        return try parsePrimary()
    }

    mutating func parsePrimary() throws(QueryError) -> Predicate {
        switch current.kind {
        case .leftParen:
            let open = advance()
            let inner = try nested(at: open) { parser throws(QueryError) in try parser.parseOr() }
            guard current.kind == .rightParen else {
                throw error("Expected ')' to close the '(' at offset \(offsets.character(open.start)) but found \(describe(current))", current)
            }
            _ = advance()
            return inner
        case .keyword(.truePredicate):
            _ = advance()
            return .truePredicate
        case .keyword(.falsePredicate):
            _ = advance()
            return .falsePredicate
        case .end:
            throw error("Expected a comparison but the predicate ends here", current)
        default:
            return try parseComparison()
        }
    }

    // MARK: Comparisons

    mutating func parseComparison() throws(QueryError) -> Predicate {
        let start = current.start
        var modifier = ComparisonModifier.direct
        switch current.kind {
        case .keyword(.any), .keyword(.some): modifier = .any
        case .keyword(.all): modifier = .all
        case .keyword(.none): modifier = .none
        default: break
        }
        if modifier != .direct { _ = advance() }

        let left = try parseExpression()
        noteConstant(left)
        let opStart = current.start
        let op = try parseOperator(after: left)
        let options = try parseOptions(for: op)
        let opEnd = tokens[index - 1].end
        let right = try parseExpression()
        noteConstant(right)

        let location = PredicateLocation(
            format: format,
            comparison: offsets.range(start..<right.end),
            left: offsets.range(left.start..<left.end),
            op: offsets.range(opStart..<opEnd),
            right: offsets.range(right.start..<right.end),
            leftComponents: left.components.map(offsets.character),
            rightComponents: right.components.map(offsets.character))
        return .comparison(Comparison(left.expression, op, right.expression, modifier: modifier, options: options, location: location))
    }

    /// Records where a comparison's constant operand came from. The
    /// constants of a SUBQUERY on the left are recorded while it is parsed,
    /// before the right operand: the order of ``Predicate/constants``.
    mutating func noteConstant(_ operand: Parsed) {
        switch operand.expression {
        case .value, .values: constantSources.append(operand.source)
        case .keyPath, .collectionOperation, .subqueryCount: break
        }
    }

    mutating func parseOperator(after left: Parsed) throws(QueryError) -> ComparisonOperator {
        let token = current
        let op: ComparisonOperator
        switch token.kind {
        case .equal: op = .equal
        case .notEqual: op = .notEqual
        case .less: op = .lessThan
        case .lessOrEqual: op = .lessThanOrEqual
        case .greater: op = .greaterThan
        case .greaterOrEqual: op = .greaterThanOrEqual
        case .keyword(.between): op = .between
        case .keyword(.beginsWith): op = .beginsWith
        case .keyword(.contains): op = .contains
        case .keyword(.endsWith): op = .endsWith
        case .keyword(.like): op = .like
        case .keyword(.in): op = .in
        case .keyword(.matches):
            throw error("MATCHES (regular expressions) is not supported; use LIKE with ? and * wildcards, or BEGINSWITH, CONTAINS, ENDSWITH", token)
        case .end:
            throw error("Expected an operator after '\(text(left))' but the predicate ends here", token)
        default:
            throw error("Expected an operator (==, !=, <, <=, >, >=, BEGINSWITH, CONTAINS, ENDSWITH, LIKE, IN or BETWEEN) after '\(text(left))' but found \(describe(token))", token)
        }
        _ = advance()
        return op
    }

    mutating func parseOptions(for op: ComparisonOperator) throws(QueryError) -> StringOptions {
        guard current.kind == .leftBracket else { return [] }
        let open = advance()
        guard case .identifier(let letters) = current.kind else {
            throw error("Expected string options c, d or cd inside '[ ]' but found \(describe(current))", current)
        }
        let lettersToken = advance()
        var options: StringOptions = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            default:
                throw error("Unknown string option '\(letter)' in '[\(letters)]'; use [c], [d] or [cd]", lettersToken)
            }
        }
        _ = try expect(.rightBracket, "']' to close the string options")
        switch op {
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .between:
            throw error("String options [\(letters)] cannot modify '\(op.rawValue)'; they apply to ==, !=, IN, BEGINSWITH, CONTAINS, ENDSWITH and LIKE", from: open.start, to: tokens[index - 1].end)
        default:
            return options
        }
    }
}
