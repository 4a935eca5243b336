import Foundation
import RealmObjects

/// Random predicates over `Item` from a grammar of the whole language
/// (comparisons of every type, string operators with their options, `nil`,
/// `IN`, `BETWEEN`, aggregates, `ANY`/`ALL`/`NONE`, `SUBQUERY`, key paths
/// through links and backlinks, placeholders), then near-valid mutations,
/// huge and deep inputs, and random bytes.
struct PredicateGrammar {
    var rng: SeededGenerator
    /// The values of the generated predicate's `%@` and `%K` placeholders.
    private(set) var arguments: [Any] = []

    /// How large the huge and deep inputs get: the full size goes to the
    /// issue's extremes (1 MB strings, 40,000-value lists); the CI size,
    /// run in a debug build, to a tenth of them.
    private let extreme: Double
    /// How often an input is huge or deep: at the full size, where they are
    /// 1,000 times larger and a million inputs are run, one in a hundred
    /// (still 10,000 of them).
    private let extremeShare: Double

    init(seed: UInt64, size: Size) {
        rng = SeededGenerator(seed: seed)
        extreme = size == .full ? 1 : 0.1
        // `RELIABILITY_EXTREME_SHARE` sets it, for a run of extremes only.
        extremeShare = Double(ProcessInfo.processInfo.environment["RELIABILITY_EXTREME_SHARE"] ?? "") ?? (size == .full ? 0.01 : 0.06)
    }

    private mutating func upTo(_ lower: Int, _ upper: Int) -> Int {
        Int.random(in: lower...max(lower, Int(Double(upper) * extreme)), using: &rng)
    }

    /// One input: mostly valid predicates, some mutated, a few huge, deep or
    /// random.
    mutating func next() -> String {
        arguments = []
        let roll = Double.random(in: 0..<1, using: &rng)
        switch roll {
        case ..<(extremeShare / 2): return huge()
        case ..<extremeShare: return deep()
        case ..<(extremeShare + 0.02): return randomBytes()
        case ..<0.68: return predicate(depth: 0)
        default: return mutate(predicate(depth: 0))
        }
    }

    // MARK: Valid predicates

    mutating func predicate(depth: Int) -> String {
        guard depth < 4, rng.chance(0.45) else { return term() }
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: return "\(predicate(depth: depth + 1)) AND \(predicate(depth: depth + 1))"
        case 1: return "\(predicate(depth: depth + 1)) OR \(predicate(depth: depth + 1))"
        case 2: return "NOT \(predicate(depth: depth + 1))"
        case 3: return "(\(predicate(depth: depth + 1)))"
        default: return "\(predicate(depth: depth + 1)) \(pick(["&&", "||"])) \(predicate(depth: depth + 1))"
        }
    }

    private static let intPaths = ["id", "count", "maybe", "mood", "parent.count", "parent.id", "parent.parent.maybe",
                                   "scores.@count", "scores.@sum", "scores.@max", "scores.@min", "children.@count",
                                   "tags.@count", "offspring.@count", "children.@sum.count", "children.@max.id",
                                   "offspring.@min.count", "name.@count", "blob.@count"]
    private static let doublePaths = ["ratio", "small", "scores.@avg", "children.@avg.ratio", "parent.ratio", "offspring.@sum.small"]
    private static let stringPaths = ["name", "note", "parent.name", "parent.note", "children.name", "offspring.name", "parent.parent.name"]
    private static let comparisons = ["==", "!=", "<", "<=", ">", ">=", "=", "<>", "=<", "=>"]

    mutating func term() -> String {
        switch Int.random(in: 0..<16, using: &rng) {
        case 0, 1:
            return "\(pick(Self.intPaths)) \(pick(Self.comparisons)) \(intLiteral())"
        case 2:
            return "\(pick(Self.doublePaths)) \(pick(Self.comparisons)) \(doubleLiteral())"
        case 3, 4:
            let operation = pick(["==", "!=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "<", ">="])
            let options = pick(["", "", "[c]", "[d]", "[cd]"])
            let prefix = pick(["", "", "ANY ", "ALL ", "NONE ", "SOME "])
            let path = prefix.isEmpty ? pick(Self.stringPaths) : pick(["tags", "children.name", "offspring.note"])
            return "\(prefix)\(path) \(operation)\(options) \(stringLiteral(forLike: operation == "LIKE"))"
        case 5:
            return pick(["flag == true", "flag == NO", "flag != YES", "flag", "NOT flag", "parent.flag == false", "ANY children.flag == TRUE"])
        case 6:
            return "\(pick(["note", "maybe", "parent", "parent.note", "parent.parent", "children.parent"])) \(pick(["==", "!="])) \(pick(["nil", "NULL", "NIL"]))"
        case 7:
            let values = (0..<Int.random(in: 0...6, using: &rng)).map { _ in intLiteral() }
            return "\(pick(Self.intPaths)) IN {\(values.joined(separator: ", "))}"
        case 8:
            let values = (0..<Int.random(in: 0...4, using: &rng)).map { _ in stringLiteral(forLike: false) }
            return "\(pick(["name", "note", "ANY tags", "parent.name"])) IN\(pick(["", "[c]"])) {\(values.joined(separator: ", "))}"
        case 9:
            return "\(pick(Self.intPaths + Self.doublePaths)) BETWEEN {\(intLiteral()), \(intLiteral())}"
        case 10:
            return "SUBQUERY(\(pick(["children", "offspring"])), $x, \(subqueryTerm("$x"))).@count \(pick(Self.comparisons)) \(Int.random(in: 0...3, using: &rng))"
        case 11:
            return "\(pick(["ANY", "ALL", "NONE", "SOME"])) scores \(pick(Self.comparisons)) \(intLiteral())"
        case 12:
            return pick(["TRUEPREDICATE", "FALSEPREDICATE", "NOT TRUEPREDICATE"])
        case 13:
            return placeholderTerm()
        case 14:
            return "\(pick(["ANY", "ALL", "NONE"])) children.\(pick(["count", "id", "ratio"])) \(pick(Self.comparisons)) \(intLiteral())"
        default:
            return "\(pick(["count", "id", "maybe"])) \(pick(Self.comparisons)) \(pick(["count", "id", "maybe", "ratio", "parent.count", "scores.@count"]))"
        }
    }

    private mutating func subqueryTerm(_ variable: String) -> String {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return "\(variable).count \(pick(Self.comparisons)) \(intLiteral())"
        case 1: return "\(variable).name BEGINSWITH\(pick(["", "[c]"])) \(stringLiteral(forLike: false))"
        case 2: return "\(variable).flag == \(pick(["true", "false"])) AND \(variable).ratio > \(doubleLiteral())"
        default: return "ANY \(variable).tags == \(stringLiteral(forLike: false))"
        }
    }

    /// A term with a `%@` (or `%K`) and its value, while there is room.
    private mutating func placeholderTerm() -> String {
        guard arguments.count < 2 else { return "count > \(intLiteral())" }
        switch Int.random(in: 0..<8, using: &rng) {
        case 0:
            arguments.append(Date(timeIntervalSinceReferenceDate: Double.random(in: -1e9...1e9, using: &rng)))
            return "when \(pick(Self.comparisons)) %@"
        case 1:
            arguments.append(Data((0..<Int.random(in: 0...4, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }))
            return "blob \(pick(["==", "!=", "BEGINSWITH", "CONTAINS"])) %@"
        case 2:
            arguments.append(ObjectId.generate())
            return "oid \(pick(["==", "!="])) %@"
        case 3:
            arguments.append(UUID())
            return "uuid \(pick(["==", "!="])) %@"
        case 4:
            arguments.append(Decimal(Int.random(in: -1000...1000, using: &rng)) / 10)
            return "amount \(pick(Self.comparisons)) %@"
        case 5:
            arguments.append(pick(["name", "note", "parent.name"]))
            return "%K \(pick(["==", "BEGINSWITH", "CONTAINS[c]"])) \(stringLiteral(forLike: false))"
        case 6:
            arguments.append(pick(["a", "", "x%", "'", "\u{0}", "é", "e\u{301}"]))
            return "\(pick(Self.stringPaths)) \(pick(["==", "CONTAINS", "LIKE", "ENDSWITH[c]"])) %@"
        default:
            arguments.append([1, 2, 3, Int.random(in: -5...5, using: &rng)])
            return "\(pick(["count", "id", "ANY scores"])) IN %@"
        }
    }

    private mutating func intLiteral() -> String {
        switch Int.random(in: 0..<8, using: &rng) {
        case 0: return pick(["9223372036854775807", "-9223372036854775808", "0", "-0", "99999999999999999999"])
        case 1: return String(Double.random(in: -100...100, using: &rng))
        case 2: return pick(["nil", "0x1F", "1e3", "-1"])
        default: return String(Int.random(in: -50...150, using: &rng))
        }
    }

    private mutating func doubleLiteral() -> String {
        pick(["0", "-0.0", "1e308", "-1e-308", "3.5", "1000000", "nan", String(Double.random(in: -1e6...1e6, using: &rng))])
    }

    private mutating func stringLiteral(forLike: Bool) -> String {
        let alphabet: [String] = forLike
            ? ["a", "b", "x", "é", "e\u{301}", "*", "?", "%", "_", "\\\\", "'", "\u{0}", "中", "ß"]
            : ["a", "b", "x", "é", "e\u{301}", "%", "_", "\\\\", "\\'", "\\\"", "\u{0}", "😀", "中", "ß", "A", " "]
        let text = (0..<Int.random(in: 0...5, using: &rng)).map { _ in pick(alphabet) }.joined()
        return rng.chance(0.5)
            ? "'\(text.replacingOccurrences(of: "'", with: "\\'"))'"
            : "\"\(text.replacingOccurrences(of: "\"", with: "\\\""))\""
    }

    // MARK: Mutations and extremes

    private static let fragments = ["(", ")", "'", "\"", "{", "}", "[", "]", "%@", "%K", "%d", "$", ",", ".", "<", ">", "=", "!",
                                    "&&", "||", "\\", " ", "\u{0}", "é", "AND", "OR", "NOT", "ANY", "SUBQUERY(", "@count", "@sum.",
                                    "IN", "BETWEEN", "nil", "TRUEPREDICATE", "[c]", "LIKE", "9999999999999999999999", "-", "..", "@"]

    private mutating func mutate(_ text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let position = Int.random(in: 0...scalars.count, using: &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0 where !scalars.isEmpty:
                scalars.remove(at: min(position, scalars.count - 1))
            case 1:
                scalars.insert(contentsOf: pick(Self.fragments).unicodeScalars, at: position)
            case 2 where scalars.count > 2:
                let start = Int.random(in: 0..<scalars.count, using: &rng)
                let end = min(scalars.count, start + Int.random(in: 1...12, using: &rng))
                scalars.insert(contentsOf: scalars[start..<end], at: position)
            case 3:
                scalars = Array(scalars.prefix(position))
            default:
                scalars.insert(Unicode.Scalar(UInt8.random(in: 0...127, using: &rng)), at: position)
            }
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    private mutating func huge() -> String {
        switch Int.random(in: 0..<7, using: &rng) {
        case 0:
            let count = upTo(100, 5_000)
            return (0..<count).map { "count == \($0)" }.joined(separator: pick([" OR ", " AND ", " || "]))
        case 1:
            let count = upTo(1_000, 40_000)
            return "\(pick(["count", "id", "ANY scores", "maybe"])) IN {\((0..<count).map(String.init).joined(separator: ","))}"
        case 2:
            return "name \(pick(["==", "CONTAINS", "LIKE", "BEGINSWITH[c]"])) '\(String(repeating: pick(["a", "é", "*"]), count: upTo(10_000, 1_000_000)))'"
        case 3:
            let hops = Int.random(in: 30...120, using: &rng)
            return "\(Array(repeating: "parent", count: hops).joined(separator: ".")).name == 'x'"
        case 4:
            // Through lists, which multiply the objects reached at each step.
            let hops = Int.random(in: 2...400, using: &rng)
            return "\(pick(["ANY ", "", "NONE "]))\(Array(repeating: "children", count: hops).joined(separator: ".")).\(pick(["name", "count"])) \(pick(["==", ">"])) \(pick(["'x'", "3"]))"
        case 5:
            // Mixed steps: lists, backlinks and links.
            let steps = (0..<Int.random(in: 2...200, using: &rng)).map { _ in pick(["children", "parent", "offspring"]) }
            return "ANY \(steps.joined(separator: ".")).count > \(intLiteral())"
        default:
            let count = Int.random(in: 20...200, using: &rng)
            return (0..<count).map { _ in "ANY children.tags \(pick(["==", "CONTAINS"])) 'a'" }.joined(separator: " OR ")
        }
    }

    private mutating func deep() -> String {
        let depth = upTo(20, 3_000)
        switch Int.random(in: 0..<5, using: &rng) {
        case 3, 4:
            // SUBQUERYs in one another through a to-many link, each level
            // running its condition for every element of the one above.
            let levels = Int.random(in: 2...60, using: &rng)
            var inner = "\(subqueryTerm("$x\(levels)"))"
            for level in stride(from: levels, through: 1, by: -1) {
                let source = level == 1 ? pick(["children", "offspring"]) : "$x\(level - 1).\(pick(["children", "offspring"]))"
                let wrap = level % 3 == 0 ? "NOT " : ""
                inner = "\(wrap)SUBQUERY(\(source), $x\(level), \(inner)).@count \(pick([">", "==", ">="])) \(Int.random(in: 0...2, using: &rng))"
            }
            return inner
        case 0: return String(repeating: "(", count: depth) + term() + String(repeating: ")", count: depth)
        case 1: return String(repeating: "NOT ", count: depth) + term()
        default: return String(repeating: "NOT (", count: depth) + term() + String(repeating: ")", count: depth)
        }
    }

    private mutating func randomBytes() -> String {
        let bytes = (0..<Int.random(in: 0...200, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        return String(decoding: bytes, as: UTF8.self)
    }

    private mutating func pick<T>(_ choices: [T]) -> T {
        choices.randomElement(using: &rng)!
    }
}
