import Foundation
import RealmCore

/// BEGINSWITH, CONTAINS, ENDSWITH and LIKE in Swift, on code points (or
/// bytes for data), folded when `[c]`/`[d]` ask for it: the post-filter's
/// side of what the SQL compiler writes with GLOB, LIKE, `substr` and
/// `instr`.
enum StringMatching {
    /// Whether `text` matches `needle` under `op`; false when either is not
    /// a string (or both data).
    ///
    /// `needles` keeps the needle's code points from one call to the next:
    /// a comparison tests one constant against every object, and folding a
    /// long one (a megabyte) for each would cost more than the test.
    static func matches(_ op: ComparisonOperator, _ text: Value, _ needle: Value, folding: Folding?, needles: NeedleCache) -> Bool {
        switch (text, needle) {
        case (.string(let text), .string(let needle)):
            let a = folding.map { $0.fold(text) } ?? text.unicodeScalars.map(\.value)
            let b = needles.codePoints(of: needle, folding: folding)
            return op == .like ? like(a, needles.likePattern()) : substring(op, a, b)
        case (.data(let text), .data(let needle)):
            let a = Array(text), b = Array(needle)
            return op == .like ? like(a, b, star: 0x2A, question: 0x3F) : substring(op, a, b)
        default:
            return false
        }
    }

    static func substring<Unit: FixedWidthInteger>(_ op: ComparisonOperator, _ text: [Unit], _ needle: [Unit]) -> Bool {
        switch op {
        case .equal:
            return text == needle
        case .beginsWith:
            return text.starts(with: needle)
        case .endsWith:
            return text.count >= needle.count && text[(text.count - needle.count)...].elementsEqual(needle)
        case .contains:
            return firstIndex(of: needle[...], in: text, from: 0) != nil
        default:
            return false
        }
    }

    /// `star` matches any run of units (code points, or bytes for data),
    /// `question` exactly one.
    ///
    /// The pattern splits at its stars into segments: the first must match
    /// at the start, the last at the end, and each one between at its
    /// leftmost place after the previous one (which is always a correct
    /// choice for `*`), so the cost is that of a few searches, not of
    /// backtracking.
    static func like<Unit: FixedWidthInteger>(_ text: [Unit], _ pattern: [Unit], star: Unit, question: Unit) -> Bool {
        like(text, LikePattern(pattern, star: star, question: question))
    }

    /// A LIKE pattern cut at its stars, once for every text it is tested
    /// against (a pattern of a million stars is one star).
    struct LikePattern<Unit: FixedWidthInteger> {
        let question: Unit
        /// The pattern whole when it has no star.
        let whole: ArraySlice<Unit>?
        let first: ArraySlice<Unit>
        let last: ArraySlice<Unit>
        /// The non-empty segments between the first and the last.
        let middle: [ArraySlice<Unit>]

        init(_ pattern: [Unit], star: Unit, question: Unit) {
            self.question = question
            let segments = pattern.split(separator: star, omittingEmptySubsequences: false)
            whole = segments.count == 1 ? segments[0] : nil
            first = segments[0]
            last = segments[segments.count - 1]
            middle = segments.count > 2 ? segments[1..<(segments.count - 1)].filter { !$0.isEmpty } : []
        }
    }

    static func like<Unit: FixedWidthInteger>(_ text: [Unit], _ pattern: LikePattern<Unit>) -> Bool {
        let question = pattern.question
        if let whole = pattern.whole {
            return text.count == whole.count && matches(whole, in: text, at: 0, question: question)
        }
        let first = pattern.first, last = pattern.last
        guard text.count >= first.count + last.count,
              matches(first, in: text, at: 0, question: question),
              matches(last, in: text, at: text.count - last.count, question: question) else { return false }
        var position = first.count
        let end = text.count - last.count
        for segment in pattern.middle {
            guard let found = firstIndex(of: segment, in: text, from: position, before: end, question: question) else { return false }
            position = found + segment.count
        }
        return true
    }

    private static func matches<Unit: FixedWidthInteger>(_ segment: ArraySlice<Unit>, in text: [Unit], at start: Int, question: Unit) -> Bool {
        guard start >= 0, start + segment.count <= text.count else { return false }
        var index = start
        for unit in segment {
            if unit != question && unit != text[index] { return false }
            index += 1
        }
        return true
    }

    /// The leftmost place from `start` where `segment` (with `question`
    /// matching any unit) fits entirely before `end`.
    private static func firstIndex<Unit: FixedWidthInteger>(of segment: ArraySlice<Unit>, in text: [Unit], from start: Int,
                                                            before end: Int, question: Unit) -> Int? {
        if !segment.contains(question) {
            guard let found = firstIndex(of: segment, in: text, from: start), found + segment.count <= end else { return nil }
            return found
        }
        guard end - start >= segment.count else { return nil }
        for index in start...(end - segment.count) where matches(segment, in: text, at: index, question: question) {
            return index
        }
        return nil
    }

    /// The leftmost occurrence of `needle` in `text` from `start`, found by
    /// Knuth–Morris–Pratt in time linear in both lengths.
    static func firstIndex<Unit: Equatable>(of needle: ArraySlice<Unit>, in text: [Unit], from start: Int) -> Int? {
        let pattern = Array(needle)
        if pattern.isEmpty { return start <= text.count ? start : nil }
        // failure[i]: the length of the longest proper border of pattern[0...i].
        var failure = [Int](repeating: 0, count: pattern.count)
        var border = 0
        for index in 1..<max(1, pattern.count) {
            while border > 0 && pattern[index] != pattern[border] { border = failure[border - 1] }
            if pattern[index] == pattern[border] { border += 1 }
            failure[index] = border
        }
        var matched = 0
        var index = start
        while index < text.count {
            while matched > 0 && text[index] != pattern[matched] { matched = failure[matched - 1] }
            if text[index] == pattern[matched] { matched += 1 }
            if matched == pattern.count { return index - pattern.count + 1 }
            index += 1
        }
        return nil
    }
}

/// The code points of the needle a comparison tested last, folded as it
/// asked, and its LIKE pattern once asked for: the post-filter tests the
/// same constant against every object, and folding or cutting a long one (a
/// megabyte) for each would cost more than the tests.
final class NeedleCache {
    private var needle: String?
    private var folding: Folding.Kind?
    private var units: [UInt32] = []
    private var pattern: StringMatching.LikePattern<UInt32>?

    /// `needle`'s code points under `folding`, reused while the needle is
    /// the same string (compared by identity first, which a constant is).
    func codePoints(of needle: String, folding: Folding?) -> [UInt32] {
        if let cached = self.needle, folding?.kind == self.folding, cached == needle { return units }
        units = folding.map { $0.fold(needle) } ?? needle.unicodeScalars.map(\.value)
        self.needle = needle
        self.folding = folding?.kind
        pattern = nil
        return units
    }

    /// The LIKE pattern of the needle last given to ``codePoints(of:folding:)``.
    func likePattern() -> StringMatching.LikePattern<UInt32> {
        if let pattern { return pattern }
        let made = StringMatching.LikePattern(units, star: 0x2A, question: 0x3F)
        pattern = made
        return made
    }
}
