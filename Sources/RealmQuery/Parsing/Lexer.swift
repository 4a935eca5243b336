/// Splits a format string into tokens.
///
/// Works on Unicode scalars rather than `Character`s so that a combining
/// mark after a quote cannot fuse with it and hide the end of a string
/// literal. Costs one pass over the format string.
struct Lexer {
    private let scalars: [Unicode.Scalar]
    private let format: String
    /// The UTF-8 bytes, and where each scalar starts in them (one more entry
    /// for the end), so that token texts are copies of byte ranges.
    private let utf8: [UInt8]
    private let utf8Offsets: [Int]
    private var position = 0

    init(_ format: String) {
        self.format = format
        self.scalars = Array(format.unicodeScalars)
        self.utf8 = Array(format.utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(scalars.count + 1)
        var offset = 0
        for scalar in scalars {
            offsets.append(offset)
            offset += UTF8.width(scalar)
        }
        offsets.append(offset)
        self.utf8Offsets = offsets
    }

    /// Every token, ending with `.end`.
    static func tokenize(_ format: String) throws(QueryError) -> [Token] {
        var lexer = Lexer(format)
        var tokens: [Token] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        position + ahead < scalars.count ? scalars[position + ahead] : nil
    }

    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: utf8[utf8Offsets[start]..<utf8Offsets[min(end, scalars.count)]], as: UTF8.self)
    }

    private func error(_ message: String, at start: Int, _ end: Int? = nil) -> QueryError {
        CharacterOffsets(format).error(message, scalarRange: start..<max(end ?? start + 1, start + 1))
    }

    private mutating func token(_ kind: Token.Kind, from start: Int) -> Token {
        Token(kind: kind, start: start, end: position, text: text(start, position))
    }

    private mutating func next() throws(QueryError) -> Token {
        while let scalar = peek(), Self.isWhitespace(scalar) { position += 1 }
        let start = position
        guard let scalar = peek() else { return Token(kind: .end, start: start, end: start, text: "") }
        position += 1
        switch scalar {
        case "(": return token(.leftParen, from: start)
        case ")": return token(.rightParen, from: start)
        case "{": return token(.leftBrace, from: start)
        case "}": return token(.rightBrace, from: start)
        case "[": return token(.leftBracket, from: start)
        case "]": return token(.rightBracket, from: start)
        case ",": return token(.comma, from: start)
        case ".": return token(.dot, from: start)
        case "-": return token(.minus, from: start)
        case "*": return token(.star, from: start)
        case "=":
            if peek() == "=" { position += 1; return token(.equal, from: start) }
            if peek() == "<" { position += 1; return token(.lessOrEqual, from: start) }
            if peek() == ">" { position += 1; return token(.greaterOrEqual, from: start) }
            return token(.equal, from: start)
        case "!":
            if peek() == "=" { position += 1; return token(.notEqual, from: start) }
            return token(.not, from: start)
        case "<":
            if peek() == "=" { position += 1; return token(.lessOrEqual, from: start) }
            if peek() == ">" { position += 1; return token(.notEqual, from: start) }
            return token(.less, from: start)
        case ">":
            if peek() == "=" { position += 1; return token(.greaterOrEqual, from: start) }
            return token(.greater, from: start)
        case "&":
            guard peek() == "&" else { throw error("Unexpected '&'; write '&&' or AND", at: start) }
            position += 1
            return token(.and, from: start)
        case "|":
            guard peek() == "|" else { throw error("Unexpected '|'; write '||' or OR", at: start) }
            position += 1
            return token(.or, from: start)
        case "'", "\"":
            return try stringLiteral(quote: scalar, start: start)
        case "%":
            return try placeholder(start: start)
        case "$":
            return try dollar(start: start)
        case "@":
            let name = identifierTail()
            switch name.lowercased() {
            // A map's keys and values are key path components.
            case "keys", "allkeys": return token(.identifier("@keys"), from: start)
            case "values", "allvalues": return token(.identifier("@values"), from: start)
            // The type of a mixed value.
            case "type": return token(.identifier("@type"), from: start)
            // Realm's other name for @count.
            case "size": return token(.collectionOperator(.count), from: start)
            default: break
            }
            guard let operation = CollectionOperation(rawValue: "@" + name.lowercased()) else {
                let written = name.isEmpty ? "@" : "@" + name
                throw error("Unknown collection operator '\(written)'; use @count, @size, @min, @max, @sum, @avg, or a map's @keys and @values", at: start, position)
            }
            return token(.collectionOperator(operation), from: start)
        case "#":
            let name = identifierTail()
            guard !name.isEmpty else { throw error("Expected a name after '#'", at: start) }
            return token(.identifier(name), from: start)
        default:
            if Self.isDigit(scalar) {
                position -= 1
                return try number(start: start)
            }
            if Self.isIdentifierStart(scalar) {
                position -= 1
                let word = identifierTail()
                if let keyword = Keyword.named(word) {
                    return token(.keyword(keyword), from: start)
                }
                return token(.identifier(word), from: start)
            }
            throw error("Unexpected character '\(Character(scalar))'", at: start)
        }
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x30 && scalar.value <= 0x39
    }

    // ASCII answers first: Unicode property lookups cost far more, and
    // predicates are mostly ASCII.

    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || (scalar.value >= 0x09 && scalar.value <= 0x0D) }
        return scalar.properties.isWhitespace
    }

    static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == "_" || (scalar.value | 0x20 >= 0x61 && scalar.value | 0x20 <= 0x7A) }
        return scalar.properties.isAlphabetic
    }

    static func isIdentifierContinuation(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isIdentifierStart(scalar) || (scalar.value >= 0x30 && scalar.value <= 0x39) }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
            || scalar.properties.generalCategory == .nonspacingMark
            || scalar.properties.generalCategory == .spacingMark
    }

    private mutating func identifierTail() -> String {
        let start = position
        while let scalar = peek(), Self.isIdentifierContinuation(scalar) { position += 1 }
        return text(start, position)
    }

    private mutating func number(start: Int) throws(QueryError) -> Token {
        if peek() == "0", let marker = peek(1), marker == "x" || marker == "X" {
            position += 2
            let digitsStart = position
            while let scalar = peek(), scalar.properties.isASCIIHexDigit { position += 1 }
            guard position > digitsStart else { throw error("Expected hexadecimal digits after '0x'", at: start, position) }
            return token(.number(text(start, position)), from: start)
        }
        skipDigits()
        if peek() == ".", let after = peek(1), Self.isDigit(after) {
            position += 1
            skipDigits()
        }
        if let marker = peek(), marker == "e" || marker == "E" {
            var ahead = 1
            if let sign = peek(1), sign == "+" || sign == "-" { ahead = 2 }
            if let digit = peek(ahead), Self.isDigit(digit) {
                position += ahead
                skipDigits()
            }
        }
        if let scalar = peek(), Self.isIdentifierStart(scalar) {
            throw error("Malformed number '\(text(start, position + 1))'", at: start, position + 1)
        }
        return token(.number(text(start, position)), from: start)
    }

    private mutating func skipDigits() {
        while let scalar = peek(), Self.isDigit(scalar) { position += 1 }
    }

    private mutating func placeholder(start: Int) throws(QueryError) -> Token {
        // printf length modifiers (%ld, %lld, %lu, %hd …) change nothing here.
        while let scalar = peek(), scalar == "l" || scalar == "h" || scalar == "q" { position += 1 }
        guard let letter = peek() else { throw error("Incomplete placeholder '%' at the end of the format", at: start) }
        position += 1
        let kind: Placeholder
        switch letter {
        case "@": kind = .object
        case "K": kind = .keyPath
        case "d", "i", "u": kind = .integer
        case "f", "g", "e": kind = .real
        default:
            throw error("Unknown placeholder '\(text(start, position))'; use %@, %K, %d, %i or %f", at: start, position)
        }
        return token(.placeholder(kind), from: start)
    }

    private mutating func dollar(start: Int) throws(QueryError) -> Token {
        if let scalar = peek(), Self.isDigit(scalar) {
            let digitsStart = position
            skipDigits()
            guard let index = Int(text(digitsStart, position)) else {
                throw error("Argument index '\(text(start, position))' is too large", at: start, position)
            }
            return token(.positionalArgument(index), from: start)
        }
        guard let scalar = peek(), Self.isIdentifierStart(scalar) else {
            throw error("Expected a variable name or an argument index after '$'", at: start)
        }
        return token(.variable(identifierTail()), from: start)
    }

    private mutating func stringLiteral(quote: Unicode.Scalar, start: Int) throws(QueryError) -> Token {
        var value = String.UnicodeScalarView()
        while true {
            guard let scalar = peek() else {
                throw error("Unterminated string literal: no closing \(quote == "'" ? "'" : "\"")", at: start, position)
            }
            position += 1
            if scalar == quote { break }
            guard scalar == "\\" else {
                value.append(scalar)
                continue
            }
            let escapeStart = position - 1
            guard let escaped = peek() else {
                throw error("Unterminated string literal: it ends with a backslash", at: start, position)
            }
            position += 1
            switch escaped {
            case "\\", "'", "\"", "/": value.append(escaped)
            case "n": value.append("\n")
            case "t": value.append("\t")
            case "r": value.append("\r")
            case "0": value.append("\0")
            case "u": value.append(try unicodeEscape(start: escapeStart))
            default:
                throw error("Unknown escape sequence '\\\(Character(escaped))' in string literal", at: escapeStart, position)
            }
        }
        return token(.string(String(value)), from: start)
    }

    /// `\uXXXX` or `\u{X…}`.
    private mutating func unicodeEscape(start: Int) throws(QueryError) -> Unicode.Scalar {
        let braced = peek() == "{"
        if braced { position += 1 }
        let digitsStart = position
        while let scalar = peek(), scalar.properties.isASCIIHexDigit, braced || position - digitsStart < 4 {
            position += 1
        }
        let digits = text(digitsStart, position)
        if braced {
            guard peek() == "}" else { throw error("Expected '}' to end the \\u{…} escape", at: start, position) }
            position += 1
        }
        guard (braced ? 1...8 : 4...4).contains(digits.count), let code = UInt32(digits, radix: 16),
              let scalar = Unicode.Scalar(code) else {
            throw error("Invalid Unicode escape '\(text(start, position))'", at: start, position)
        }
        return scalar
    }
}
