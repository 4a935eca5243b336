import RealmCore

/// Operands: literals, lists, arguments, key paths, collection operators and
/// SUBQUERY.
extension Parser {
    // MARK: Expressions

    /// An expression with where it was written.
    struct Parsed {
        var expression: QueryExpression
        var start: Int
        var end: Int
        /// Scalar offsets of the key-path components, when written out.
        var components: [Int] = []
        /// Where a constant came from: written out, or an argument.
        var source: ConstantSource = .literal
    }

    func text(_ parsed: Parsed) -> String {
        let scalars = Array(format.unicodeScalars)
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars[parsed.start..<parsed.end])
        return result
    }

    mutating func parseExpression() throws(QueryError) -> Parsed {
        let token = current
        switch token.kind {
        case .string(let text):
            _ = advance()
            return Parsed(expression: .value(.string(text)), start: token.start, end: token.end)
        case .number, .minus:
            let value = try parseNumber()
            return Parsed(expression: .value(value), start: token.start, end: tokens[index - 1].end)
        case .keyword(.true), .keyword(.yes):
            _ = advance()
            return Parsed(expression: .value(.bool(true)), start: token.start, end: token.end)
        case .keyword(.false), .keyword(.no):
            _ = advance()
            return Parsed(expression: .value(.bool(false)), start: token.start, end: token.end)
        case .keyword(.nil), .keyword(.null):
            _ = advance()
            return Parsed(expression: .value(.null), start: token.start, end: token.end)
        case .leftBrace:
            return try parseValueList()
        case .placeholder(let placeholder) where placeholder != .keyPath:
            _ = advance()
            let position = try takeNextArgument(token: token)
            return try argumentExpression(at: position, placeholder: placeholder, token: token)
        case .positionalArgument(let position):
            _ = advance()
            try useArgument(at: position, token: token)
            return try argumentExpression(at: position, placeholder: .object, token: token)
        case .keyword(.subquery):
            return try parseSubquery()
        case .identifier, .keyword(.self), .variable, .placeholder(.keyPath):
            return try parseKeyPath()
        case .end:
            throw error("Expected a key path or a value but the predicate ends here", token)
        case .keyword(let keyword):
            throw error("Expected a key path or a value but found the keyword '\(token.text)'; a property named \(keyword.rawValue.lowercased()) is written #\(token.text)", token)
        default:
            throw error("Expected a key path or a value but found \(describe(token))", token)
        }
    }

    mutating func parseNumber() throws(QueryError) -> Value {
        let start = current
        var negative = false
        if current.kind == .minus {
            negative = true
            _ = advance()
        }
        guard case .number(let digits) = current.kind else {
            throw error("Expected a number after '-' but found \(describe(current))", current)
        }
        let token = advance()
        if negative && token.start != start.end {
            throw error("A '-' must be written right before its number", from: start.start, to: token.end)
        }
        if let value = Self.number(digits, negative: negative) { return value }
        throw error("Malformed number '\(digits)'", token)
    }

    /// The value of a number literal: an integer when it has no fraction or
    /// exponent and fits 64 bits, else a double.
    static func number(_ digits: String, negative: Bool) -> Value? {
        let signed = negative ? "-" + digits : digits
        let lower = digits.lowercased()
        if lower.hasPrefix("0x") {
            guard let magnitude = UInt64(lower.dropFirst(2), radix: 16) else { return nil }
            if negative {
                return magnitude <= UInt64(Int64.max) + 1 ? .int(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)) : nil
            }
            return magnitude <= UInt64(Int64.max) ? .int(Int64(magnitude)) : .double(Double(magnitude))
        }
        if !lower.contains(".") && !lower.contains("e"), let integer = Int64(signed) {
            return .int(integer)
        }
        return Double(signed).map(Value.double)
    }

    mutating func parseValueList() throws(QueryError) -> Parsed {
        let open = advance()
        var values: [Value] = []
        var source = ConstantSource.literal
        if current.kind != .rightBrace {
            while true {
                let element = try parseExpression()
                switch element.expression {
                case .value(let value):
                    values.append(value)
                    if element.source != .literal { source = .listWithArguments }
                default:
                    throw error("A list in '{ }' holds only values (literals and %@ arguments), not '\(text(element))'", from: element.start, to: element.end)
                }
                if current.kind == .comma {
                    _ = advance()
                    continue
                }
                break
            }
        }
        guard current.kind == .rightBrace else {
            throw error("Expected ',' or '}' in the list opened at offset \(offsets.character(open.start)) but found \(describe(current))", current)
        }
        let close = advance()
        return Parsed(expression: .values(values), start: open.start, end: close.end, source: source)
    }

    mutating func parseSubquery() throws(QueryError) -> Parsed {
        let keyword = advance()
        _ = try expect(.leftParen, "'(' after SUBQUERY")
        let collection = try parseKeyPath()
        guard case .keyPath(let collectionPath) = collection.expression else {
            throw error("The first argument of SUBQUERY must be a key path to a list, not '\(text(collection))'", from: collection.start, to: collection.end)
        }
        _ = try expect(.comma, "',' after the SUBQUERY collection")
        guard case .variable(let variable) = current.kind else {
            throw error("Expected a variable such as $item as the second argument of SUBQUERY but found \(describe(current))", current)
        }
        _ = advance()
        _ = try expect(.comma, "',' after the SUBQUERY variable")
        variables.append(variable)
        let predicate = try nested(at: keyword) { parser throws(QueryError) in try parser.parseOr() }
        variables.removeLast()
        _ = try expect(.rightParen, "')' to close SUBQUERY")
        guard current.kind == .dot, tokens[index + 1].kind == .collectionOperator(.count) else {
            throw error("SUBQUERY(…) must be followed by .@count, the only operator it supports", current)
        }
        _ = advance()
        let count = advance()
        return Parsed(expression: .subqueryCount(collection: collectionPath, variable: variable, predicate: predicate),
                      start: keyword.start, end: count.end)
    }

    /// A key path, possibly with a collection operator:
    /// `name`, `owner.name`, `$dog.age`, `SELF`, `%K`, `dogs.@count`,
    /// `dogs.@avg.age`, `scores.@max`.
    mutating func parseKeyPath() throws(QueryError) -> Parsed {
        let first = current
        var components: [String] = []
        var offsets: [Int] = []
        var operation: (CollectionOperation, Int)?
        var property: [String] = []

        func append(_ names: [String], at offset: Int) {
            if operation == nil {
                components += names
            } else {
                property += names
            }
            offsets += Array(repeating: offset, count: names.count)
        }

        switch first.kind {
        case .identifier(let name):
            append([name], at: first.start)
        case .keyword(.self):
            append(["SELF"], at: first.start)
        case .variable(let name):
            guard variables.contains(name) else {
                throw error("Unknown variable '$\(name)'; variables are declared by SUBQUERY(collection, $\(name), …)", first)
            }
            append(["$" + name], at: first.start)
        case .placeholder(.keyPath):
            let position = try takeNextArgument(token: first)
            append(try keyPathArgument(at: position, token: first), at: first.start)
        default:
            throw error("Expected a key path but found \(describe(first))", first)
        }
        _ = advance()
        try parseSubscripts(append)

        while current.kind == .dot {
            let dot = advance()
            let token = current
            switch token.kind {
            case .identifier(let name):
                append([name], at: token.start)
            case .keyword:
                // After a dot no keyword can appear, so a reserved word is a
                // property name.
                append([token.text], at: token.start)
            case .placeholder(.keyPath):
                let position = try takeNextArgument(token: token)
                append(try keyPathArgument(at: position, token: token), at: token.start)
            case .collectionOperator(let op):
                guard operation == nil else {
                    throw error("A key path can have only one collection operator", token)
                }
                operation = (op, token.start)
                offsets.append(token.start)
            default:
                throw error("Expected a property name after '.' but found \(describe(token))", token.kind == .end ? dot : token)
            }
            _ = advance()
            if operation == nil { try parseSubscripts(append) }
            if let (op, offset) = operation, op == .count, current.kind == .dot {
                throw error("@count ends a key path; nothing can follow it", from: offset, to: current.end)
            }
        }
        let end = tokens[index - 1].end
        let path = components.joined(separator: ".")
        guard let (op, _) = operation else {
            return Parsed(expression: .keyPath(path), start: first.start, end: end, components: offsets)
        }
        return Parsed(expression: .collectionOperation(op, collection: path, property: property.isEmpty ? nil : property.joined(separator: ".")),
                      start: first.start, end: end, components: offsets)
    }

    /// Subscripts after a key path component, each kept in the path as a
    /// component of its own: a map's value by key (`scores['math']`, the
    /// component `['math']`), and in a collection nested in a mixed value
    /// an element by position (`value[0]`, `value[FIRST]`, `value[LAST]`),
    /// every element (`value[*]`) or the size (`value[SIZE]`).
    private mutating func parseSubscripts(_ append: ([String], Int) -> Void) throws(QueryError) {
        while current.kind == .leftBracket {
            let open = advance()
            let component: String
            switch current.kind {
            case .string(let key):
                guard !key.contains(".") && !key.contains("'") else {
                    throw error("A map key in a query cannot contain '.' or a quote", open)
                }
                component = "['" + key + "']"
            case .number(let digits) where digits.allSatisfy(\.isASCIIDigit) && Int(digits) != nil:
                component = "[" + String(Int(digits)!) + "]"
            case .star:
                component = "[*]"
            case .identifier(let word) where ["FIRST", "LAST", "SIZE"].contains(word.uppercased()):
                component = "[" + word.uppercased() + "]"
            default:
                throw error("Expected a quoted key, an index, FIRST, LAST, SIZE or * after '[' but found \(describe(current))",
                            current.kind == .end ? open : current)
            }
            _ = advance()
            guard current.kind == .rightBracket else {
                throw error("Expected ']' after the subscript but found \(describe(current))", current.kind == .end ? open : current)
            }
            _ = advance()
            append([component], open.start)
        }
    }

    // MARK: Arguments

    /// Takes the argument of the next sequential placeholder; returns its
    /// position.
    mutating func takeNextArgument(token: Token) throws(QueryError) -> Int {
        let position = nextSequentialArgument
        nextSequentialArgument += 1
        guard position < arguments.count else {
            throw error("The format uses \(position + 1) placeholder argument\(position == 0 ? "" : "s") but only \(arguments.count) argument\(arguments.count == 1 ? " was" : "s were") given", token)
        }
        usedArguments.insert(position)
        return position
    }

    mutating func useArgument(at position: Int, token: Token) throws(QueryError) {
        guard position < arguments.count else {
            throw error("Argument $\(position) does not exist: \(arguments.count) argument\(arguments.count == 1 ? " was" : "s were") given", token)
        }
        usedArguments.insert(position)
    }

    /// The key path the argument at `position` stands for. Its text shapes
    /// the predicate, so a parse is reused only for the same text.
    mutating func keyPathArgument(at position: Int, token: Token) throws(QueryError) -> [String] {
        let argument = arguments[position]
        keyPathArguments.insert(position)
        let path: String
        switch argument {
        case .keyPath(let text): path = text
        case .value(.string(let text)): path = text
        default:
            throw error("%K expects a key path argument, but the argument is \(Self.describe(argument))", token)
        }
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !path.isEmpty, !components.contains(where: \.isEmpty) else {
            throw error("The key path argument '\(path)' for %K is malformed", token)
        }
        return components
    }

    mutating func argumentExpression(at position: Int, placeholder: Placeholder, token: Token) throws(QueryError) -> Parsed {
        let argument = arguments[position]
        let expression: QueryExpression
        var conversion = ConstantSource.Conversion.none
        switch (placeholder, argument) {
        case (.object, .value(let value)):
            expression = .value(value)
        case (.object, .values(let values)):
            expression = .values(values)
        case (.object, .keyPath):
            let path = try keyPathArgument(at: position, token: token)
            return Parsed(expression: .keyPath(path.joined(separator: ".")), start: token.start, end: token.end)
        case (.integer, .value(.int(let value))):
            expression = .value(.int(value))
        case (.real, .value(.double(let value))):
            expression = .value(.double(value))
        case (.real, .value(.float(let value))):
            expression = .value(.float(value))
        case (.real, .value(.int(let value))):
            expression = .value(.double(Double(value)))
            conversion = .integerToDouble
        case (.integer, _):
            throw error("\(token.text) expects an integer argument, but the argument is \(Self.describe(argument))", token)
        case (.real, _):
            throw error("\(token.text) expects a number argument, but the argument is \(Self.describe(argument))", token)
        case (.keyPath, _):
            throw error("%K cannot stand for a value", token)
        }
        return Parsed(expression: expression, start: token.start, end: token.end,
                      source: .argument(position, conversion))
    }

    static func describe(_ argument: QueryArgument) -> String {
        switch argument {
        case .value(let value): value.isNull ? "nil" : "the value \(value)"
        case .keyPath(let path): "the key path '\(path)'"
        case .values(let values): "a collection of \(values.count) value\(values.count == 1 ? "" : "s")"
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
