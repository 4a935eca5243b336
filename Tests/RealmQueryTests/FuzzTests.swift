import Foundation
import RealmCore
import RealmQuery
import Testing

/// Deterministic random inputs: token soup must never crash the parser, and
/// random well-typed predicates must get the same answers from SQL and from
/// the Swift evaluator.
@Suite struct FuzzTests {
    /// SplitMix64: small, fast, reproducible.
    struct Random: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let fragments = [
        "name", "age", "owner", ".", "dogs", "@count", "@avg", "@sum", "==", "=", "!=", "<", ">=", "=<", "<>", "AND", "OR", "NOT",
        "&&", "||", "!", "(", ")", "{", "}", ",", "[c]", "[cd]", "[", "]", "'x'", "\"y\"", "'", "\"", "\\", "1", "-2.5", "0x", "1e",
        "nil", "TRUE", "ANY", "ALL", "NONE", "SOME", "IN", "BETWEEN", "BEGINSWITH", "LIKE", "CONTAINS", "SUBQUERY", "$d", "$0",
        "%@", "%K", "%d", "%", "#", "#in", "SELF", "TRUEPREDICATE", " ", "é", "\u{301}", "日", "😀", "\0", "\n",
    ]

    @Test func tokenSoupNeverCrashes() throws {
        var random = Random(state: 42)
        let schema = Zoo.schema
        var parsed = 0
        for _ in 0..<5_000 {
            let count = Int.random(in: 1...12, using: &random)
            let format = (0..<count).map { _ in Self.fragments.randomElement(using: &random)! }.joined(separator: Bool.random(using: &random) ? " " : "")
            let arguments: [QueryArgument] = (0..<Int.random(in: 0...2, using: &random)).map { _ in
                [QueryArgument.value(.int(1)), .keyPath("name"), .values([.string("a")]), .value(.null)].randomElement(using: &random)!
            }
            do {
                let predicate = try PredicateParser.parse(format, arguments: arguments)
                parsed += 1
                for className in ["Dog", "Person"] {
                    _ = try? Query(className: className, predicate: predicate).compiledSQL(schema: schema)
                }
            } catch {
                #expect(error.predicate == format)
                if let offset = error.offset { #expect(offset >= 0 && offset <= format.count, "\(format): \(offset)") }
            }
        }
        #expect(parsed > 0)
    }

    /// A random well-typed predicate over ``AllTypes``.
    static func predicate(depth: Int, using random: inout Random) -> String {
        if depth > 0 && Int.random(in: 0..<3, using: &random) == 0 {
            let left = predicate(depth: depth - 1, using: &random)
            let right = predicate(depth: depth - 1, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return "(\(left) AND \(right))"
            case 1: return "(\(left) OR \(right))"
            default: return "NOT (\(left))"
            }
        }
        let string = { (random: inout Random) in "'" + ["a", "É", "e", "mile", "ß", "*", "?s", "asa", "", "L"].randomElement(using: &random)! + "'" }
        let number = { (random: inout Random) in ["0", "1.5", "-1", "5", "42", "1e30", "7"].randomElement(using: &random)! }
        let options = { (random: inout Random) in ["", "[c]", "[d]", "[cd]"].randomElement(using: &random)! }
        let stringOps = ["==", "!=", "BEGINSWITH", "CONTAINS", "ENDSWITH", "LIKE"]
        let orderings = ["==", "!=", "<", "<=", ">", ">="]
        let modifier = { (random: inout Random) in ["", "ANY ", "ALL ", "NONE "].randomElement(using: &random)! }
        let prefix = ["", "link.", "link.link."].randomElement(using: &random)!
        switch Int.random(in: 0..<10, using: &random) {
        case 0:
            let path = ["stringCol", "optString"].randomElement(using: &random)!
            return "\(prefix)\(path) \(stringOps.randomElement(using: &random)!)\(options(&random)) \(string(&random))"
        case 1:
            let path = ["intCol", "optInt", "floatCol", "optFloat", "doubleCol", "optDouble", "decimalCol", "optDecimal"].randomElement(using: &random)!
            return "\(prefix)\(path) \(orderings.randomElement(using: &random)!) \(number(&random))"
        case 2:
            return "\(modifier(&random))links.\(["intCol", "optDouble", "decimalCol"].randomElement(using: &random)!) \(orderings.randomElement(using: &random)!) \(number(&random))"
        case 3:
            return "\(modifier(&random))links.stringCol \(stringOps.randomElement(using: &random)!)\(options(&random)) \(string(&random))"
        case 4:
            return "\(modifier(&random))\(["intList", "optIntList", "doubleList", "decimalList"].randomElement(using: &random)!) \(orderings.randomElement(using: &random)!) \(number(&random))"
        case 5:
            return "\(modifier(&random))stringList \(stringOps.randomElement(using: &random)!)\(options(&random)) \(string(&random))"
        case 6:
            let list = ["intList", "doubleList", "links.intList", "decimalList"].randomElement(using: &random)!
            let op = ["@count", "@min", "@max", "@sum", "@avg"].randomElement(using: &random)!
            return "\(list).\(op) \(orderings.randomElement(using: &random)!) \(number(&random))"
        case 7:
            return "SUBQUERY(links, $x, \(predicate(depth: 0, using: &random).replacingOccurrences(of: "links.", with: "$x.links.").replacingOccurrences(of: "link.", with: "$x.link.").replacingOccurrences(of: "stringCol", with: "$x.stringCol").replacingOccurrences(of: "$x.$x.", with: "$x.")))"
                + ".@count \(orderings.randomElement(using: &random)!) 1"
        case 8:
            return "\(prefix)optString \(["==", "!="].randomElement(using: &random)!) nil"
        default:
            let path = ["intCol", "doubleCol", "decimalCol", "stringCol"].randomElement(using: &random)!
            let values = path == "stringCol" ? "{\(string(&random)), \(string(&random))}" : "{\(number(&random)), \(number(&random))}"
            return "\(prefix)\(path) \(path == "stringCol" ? "IN" + options(&random) : ["IN", "BETWEEN"].randomElement(using: &random)!) \(values)"
        }
    }

    @Test func randomPredicatesAgree() throws {
        let (transaction, allKeys) = try AllTypes.open()
        var random = Random(state: 7)
        var checked = 0
        for _ in 0..<400 {
            let format = Self.predicate(depth: 3, using: &random)
            guard let predicate = try? PredicateParser.parse(format),
                  (try? Query(className: "AllTypes", predicate: predicate).validated(against: transaction.schema)) != nil else { continue }
            checked += 1
            let query = Query(className: "AllTypes", predicate: predicate)
            var reference = query
            reference.evaluation = .postFilterOnly
            guard let expected = try? reference.objectKeys(in: transaction) else {
                #expect(throws: (any Error).self, "\(format)") { try query.objectKeys(in: transaction) }
                continue
            }
            #expect(try query.objectKeys(in: transaction) == expected, "\(format)")
            var negated = Query(className: "AllTypes", predicate: .not(predicate))
            negated.evaluation = .automatic
            let rest = try negated.objectKeys(in: transaction)
            #expect(Set(rest).isDisjoint(with: expected) && rest.count + expected.count == allKeys.count, "NOT \(format)")
        }
        #expect(checked > 300)
    }
}
