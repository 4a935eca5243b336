import Foundation
import RealmCore

/// BEGINSWITH, CONTAINS, ENDSWITH and LIKE in Swift, on code points (or
/// bytes for data), folded when `[c]`/`[d]` ask for it: the post-filter's
/// side of what the SQL compiler writes with GLOB, LIKE, `substr` and
/// `instr`.
enum StringMatching {
    /// Whether `text` matches `needle` under `op`; false when either is not
    /// a string (or both data).
    static func matches(_ op: ComparisonOperator, _ text: Value, _ needle: Value, folding: Folding?) -> Bool {
        switch (text, needle) {
        case (.string(let text), .string(let needle)):
            let a = folding.map { $0.fold(text) } ?? text.unicodeScalars.map(\.value)
            let b = folding.map { $0.fold(needle) } ?? needle.unicodeScalars.map(\.value)
            return op == .like ? like(a, b) : substring(op, a, b)
        case (.data(let text), .data(let needle)):
            return substring(op, Array(text), Array(needle))
        default:
            return false
        }
    }

    static func substring<Unit: Equatable>(_ op: ComparisonOperator, _ text: [Unit], _ needle: [Unit]) -> Bool {
        switch op {
        case .equal:
            return text == needle
        case .beginsWith:
            return text.starts(with: needle)
        case .endsWith:
            return text.count >= needle.count && text[(text.count - needle.count)...].elementsEqual(needle)
        case .contains:
            if needle.isEmpty { return true }
            guard text.count >= needle.count else { return false }
            for start in 0...(text.count - needle.count) where text[start..<(start + needle.count)].elementsEqual(needle) {
                return true
            }
            return false
        default:
            return false
        }
    }

    /// `*` matches any run of code points, `?` exactly one. Linear in the
    /// common case: a mismatch after a `*` retries from one position later.
    static func like(_ text: [UInt32], _ pattern: [UInt32]) -> Bool {
        let star = UInt32(("*" as Unicode.Scalar).value)
        let question = UInt32(("?" as Unicode.Scalar).value)
        var t = 0, p = 0
        var starPattern = -1, starText = 0
        while t < text.count {
            if p < pattern.count && (pattern[p] == question || (pattern[p] != star && pattern[p] == text[t])) {
                t += 1
                p += 1
            } else if p < pattern.count && pattern[p] == star {
                starPattern = p
                starText = t
                p += 1
            } else if starPattern >= 0 {
                p = starPattern + 1
                starText += 1
                t = starText
            } else {
                return false
            }
        }
        while p < pattern.count && pattern[p] == star { p += 1 }
        return p == pattern.count
    }
}
