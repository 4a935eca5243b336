/// Builds GLOB and LIKE patterns from values. The patterns are bound as
/// parameters like any value; building them here only escapes the
/// characters the pattern languages treat specially.
enum SQLPatterns {
    /// SQLite refuses LIKE and GLOB patterns over 50,000 bytes; longer needles
    /// take another form.
    static let maximumPatternBytes = 49_000

    /// Whether SQLite can match `pattern` as a LIKE or GLOB pattern. Besides
    /// the length limit, SQLite reads a pattern as a C string, so that a NUL
    /// would end it early (`*` followed by NUL matches everything): such
    /// needles take another form too.
    static func fits(_ pattern: String) -> Bool {
        pattern.utf8.count <= maximumPatternBytes && !pattern.utf8.contains(0)
    }

    /// A GLOB pattern that matches `text` literally: `*`, `?` and `[` become
    /// one-character classes.
    static func globLiteral(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "*": result += "[*]"
            case "?": result += "[?]"
            case "[": result += "[[]"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The GLOB pattern of a Realm LIKE pattern: the wildcards `*` and `?`
    /// mean the same in GLOB (one code point for `?`), only `[` needs
    /// escaping. GLOB is case-sensitive, as LIKE without `[c]` is.
    static func glob(like pattern: String) -> String {
        var result = ""
        for scalar in pattern.unicodeScalars {
            if scalar == "[" { result += "[[]" } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    /// A LIKE pattern (with `ESCAPE '\'`) that selects at least the strings
    /// whose folding matches `needle` under `op`, and whether it selects
    /// exactly those.
    ///
    /// SQLite's LIKE folds the case of ASCII letters and nothing else, and
    /// its `_` matches one code point. A needle character is kept when LIKE's
    /// own matching of it covers every character that folds the same way
    /// (exactly, or with more, such as `X` for `x` under `[d]`); otherwise it
    /// becomes `_`. Since folding maps code points one to one, the result is
    /// a faithful superset.
    static func like(_ needle: String, _ op: ComparisonOperator, folding: Folding) -> (pattern: String, isExact: Bool) {
        var pattern = op == .endsWith || op == .contains ? "%" : ""
        var isExact = true
        for scalar in needle.unicodeScalars {
            if op == .like && scalar == "*" {
                pattern += "%"
                continue
            }
            if op == .like && scalar == "?" {
                pattern += "_"
                continue
            }
            switch folding.likeLiteral(scalar.value) {
            case .exact:
                appendEscaped(scalar, to: &pattern)
            case .superset:
                appendEscaped(scalar, to: &pattern)
                isExact = false
            case .wildcard:
                pattern += "_"
                isExact = false
            }
        }
        if op == .beginsWith || op == .contains { pattern += "%" }
        return (pattern, isExact)
    }

    private static func appendEscaped(_ scalar: Unicode.Scalar, to pattern: inout String) {
        if scalar == "%" || scalar == "_" || scalar == "\\" { pattern += "\\" }
        pattern.unicodeScalars.append(scalar)
    }
}
