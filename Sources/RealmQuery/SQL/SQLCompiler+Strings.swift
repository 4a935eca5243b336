import Foundation
import RealmCore

/// BEGINSWITH, CONTAINS, ENDSWITH, LIKE and folded equality on strings and
/// data.
///
/// Exact (case- and diacritic-sensitive) string operations with a constant
/// needle use GLOB, which compares code points exactly and lets an index
/// serve BEGINSWITH; CONTAINS uses `instr`. Data and key-path needles use
/// `instr`, `substr` and `length`, which work on bytes for BLOBs and on code
/// points for TEXT. Folded operations (`[c]`, `[d]`) use LIKE, exact for
/// `[c]` with needles whose letters are ASCII, else a narrowing superset.
extension SQLCompiler {
    func substringMatch(_ op: ComparisonOperator, subject: SQLOperand, needle: SQLOperand, type: PropertyType) -> SQLFragment {
        if type == .string, subject.constant == nil, case .string(let text)? = needle.constant {
            let x = subject.sql
            switch op {
            case .beginsWith:
                let pattern = SQLPatterns.globLiteral(text) + "*"
                if SQLPatterns.fits(pattern) {
                    return SQLFragment("\(x) GLOB ?", subject.arguments + [.string(pattern)], isNullable: subject.isNullable)
                }
                // As bytes: SQLite's text functions stop at a NUL, and a
                // UTF-8 prefix of bytes is a prefix of code points. The
                // substr of an empty blob is NULL: nullable.
                let bytes = Data(text.utf8)
                return SQLFragment("substr(CAST(\(x) AS BLOB), 1, ?) = ?", subject.arguments + [.int(Int64(bytes.count)), .data(bytes)],
                                   isNullable: true)
            case .endsWith:
                // As bytes, not GLOB '*needle': GLOB reads a subject only up
                // to its first NUL. substr(x, -n) is all of x when x is
                // shorter, which then differs from the needle; every string
                // ends with the empty one.
                if text.isEmpty {
                    return SQLFragment("\(x) GLOB '*'", subject.arguments, isNullable: subject.isNullable)
                }
                let bytes = Data(text.utf8)
                return SQLFragment("substr(CAST(\(x) AS BLOB), ?) = ?", subject.arguments + [.int(-Int64(bytes.count)), .data(bytes)],
                                   isNullable: true)
            case .contains:
                return SQLFragment("instr(\(x), ?) > 0", subject.arguments + [.string(text)], isNullable: subject.isNullable)
            case .like:
                let pattern = SQLPatterns.glob(like: text)
                guard SQLPatterns.fits(pattern) else { return .constant(true, isExact: false) }
                return Self.orSubjectHasNUL(SQLFragment("\(x) GLOB ?", subject.arguments + [.string(pattern)], isNullable: subject.isNullable), subject)
            default:
                break
            }
        }
        let (x, n) = (subject, needle)
        let nullable = x.isNullable || n.isNullable
        if type == .data && op == .like {
            // GLOB reads BLOBs as text, which bytes such as NUL or invalid
            // UTF-8 break: only the post-filter matches data patterns.
            return SQLFragment("\(x.sql) IS NOT NULL AND \(n.sql) IS NOT NULL", x.arguments + n.arguments,
                               precedence: .and, isExact: false, isNullable: false)
        }
        switch op {
        case .beginsWith:
            // instr rather than substr: SQLite's substr of an empty BLOB is
            // NULL, not an empty BLOB.
            return SQLFragment("instr(\(x.sql), \(n.sql)) = 1", x.arguments + n.arguments, isNullable: nullable)
        case .endsWith:
            return SQLFragment(
                "\(x.sql) IS NOT NULL AND (length(\(n.sql)) = 0 OR length(\(x.sql)) >= length(\(n.sql)) AND substr(\(x.sql), length(\(x.sql)) - length(\(n.sql)) + 1) = \(n.sql))",
                x.arguments + n.arguments + x.arguments + n.arguments + x.arguments + x.arguments + n.arguments + n.arguments,
                precedence: .and, isNullable: nullable)
        case .contains:
            return SQLFragment("instr(\(x.sql), \(n.sql)) > 0", x.arguments + n.arguments, isNullable: nullable)
        default:
            let glob = SQLFragment("\(x.sql) GLOB replace(\(n.sql), '[', '[[]')", x.arguments + n.arguments, isNullable: nullable)
            return type == .string ? Self.orSubjectHasNUL(glob, x) : glob
        }
    }

    /// SQLite's LIKE and GLOB read a subject only up to its first NUL, so
    /// that a stored string with a NUL can match where it should not, or not
    /// where it should (BEGINSWITH alone is right: a prefix without a NUL
    /// ends before the subject's first NUL). `fragment` is kept for the other
    /// strings, and every string with a NUL is left to the post-filter: the
    /// result is an inexact superset, which the compiler's polarity handling
    /// turns into a subset under NOT.
    static func orSubjectHasNUL(_ fragment: SQLFragment, _ subject: SQLOperand) -> SQLFragment {
        SQLFragment("\(fragment.text(in: .or)) OR instr(\(subject.sql), char(0)) > 0", fragment.arguments + subject.arguments,
                    precedence: .or, isExact: false, isNullable: fragment.isNullable || subject.isNullable)
    }

    func foldedMatch(_ op: ComparisonOperator, subject: SQLOperand, needle: SQLOperand, folding: Folding) -> SQLFragment {
        var (subject, needle) = (subject, needle)
        if op == .equal {
            if subject.constant?.isNull == true || needle.constant?.isNull == true {
                return equality(subject, needle, negated: false)
            }
            if subject.constant != nil { swap(&subject, &needle) }
        }
        if subject.constant == nil, case .string(let text)? = needle.constant {
            let (pattern, isExact) = SQLPatterns.like(text, op, folding: folding)
            guard SQLPatterns.fits(pattern) else { return .constant(true, isExact: false) }
            let like = SQLFragment("\(subject.sql) LIKE ? ESCAPE '\\'", subject.arguments + [.string(pattern)],
                                   isExact: isExact, isNullable: subject.isNullable)
            switch op {
            case .beginsWith:
                return like
            case .equal:
                // The needle has no NUL (`fits`), so a string with one is
                // never equal to it: excluding those keeps the test exact.
                return SQLFragment("\(like.sql) AND instr(\(subject.sql), char(0)) = 0", like.arguments + subject.arguments,
                                   precedence: .and, isExact: isExact, isNullable: subject.isNullable)
            default:
                return Self.orSubjectHasNUL(like, subject)
            }
        }
        if op == .equal && subject.constant == nil && needle.constant == nil {
            // Folding keeps the length in code points.
            return SQLFragment("length(\(subject.sql)) = length(\(needle.sql))", subject.arguments + needle.arguments,
                               isExact: false, isNullable: true)
        }
        return .constant(true, isExact: false)
    }
}
