import Foundation
import RealmObjects

/// SQL and query metacharacters as stored values, as `%@` arguments and as
/// literals written into the predicate: every answer must equal a reference
/// matcher's that compares code points, and nothing in a value may change
/// the query's meaning or reach the SQL as text.
enum Injection {
    static let pieces = ["'", "\"", "%", "_", "*", "?", "\\", "[", "]", ";", "--", "/*", "*/", ")", "(", " OR 1=1", "\0",
                         "$", "{", "}", "é", "e\u{301}", "DROP TABLE class_Item", "%K", "%@", "a", "b", "A", "\n", "`", "||", "😀"]

    static func run(size: Size, seed: UInt64) throws -> Int32 {
        let report = Report(family: "injection", seed: seed)
        let queries = size.cases(ci: 3_000, full: 200_000)
        var rng = SeededGenerator(seed: seed)
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "injection-\(seed)", objectTypes: itemTypes))
        var stored: [Int: [UInt32]] = [:]
        try realm.write {
            for id in 0..<60 {
                let name = randomText(&rng)
                realm.create(Item.self, value: ["id": id, "name": name])
                stored[id] = codePoints(name)
            }
        }
        let items = realm.objects(Item.self)
        for index in 0..<queries {
            let needle: String
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: needle = items[Int.random(in: 0..<items.count, using: &rng)].name
            case 1:
                let name = Array(items[Int.random(in: 0..<items.count, using: &rng)].name.unicodeScalars)
                let start = Int.random(in: 0...name.count, using: &rng)
                let end = Int.random(in: start...name.count, using: &rng)
                var view = String.UnicodeScalarView()
                view.append(contentsOf: name[start..<end])
                needle = String(view)
            default: needle = randomText(&rng)
            }
            let operation = ["==", "!=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE"].randomElement(using: &rng)!
            let n = codePoints(needle)
            let expected = Set(stored.filter { matches(operation, $0.value, n) }.map(\.key))
            let byArgument = Set(items.filter("name \(operation) %@", needle).map(\.id))
            let literal = "name \(operation) '\(escaped(needle))'"
            let byLiteral: Set<Int>
            do {
                byLiteral = Set(try items.filter(validating: literal).map(\.id))
            } catch {
                report.fail("query \(index): the literal was refused (\(error)): \(literal.debugDescription)")
                continue
            }
            report.countCase()
            if byArgument != expected || byLiteral != expected {
                report.fail("query \(index) (seed \(seed)): name \(operation) \(needle.debugDescription): expected \(expected.sorted()), argument gave \(byArgument.sorted()), literal gave \(byLiteral.sorted())")
            }
        }
        // Nothing was written or dropped by a value.
        if items.count != 60 { report.fail("\(items.count) objects after the queries, not 60") }
        report.figure("queries", report.cases)
        return report.finish()
    }

    static func randomText(_ rng: inout SeededGenerator) -> String {
        (0..<Int.random(in: 0...4, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }

    static func codePoints(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

    /// The string as a single-quoted literal of the query language.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "'": result += "\\'"
            case "\0": result += "\\0"
            case "\n": result += "\\n"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The reference: Realm's operators on code points, no folding.
    static func matches(_ operation: String, _ subject: [UInt32], _ needle: [UInt32]) -> Bool {
        switch operation {
        case "==": return subject == needle
        case "!=": return subject != needle
        case "BEGINSWITH": return subject.starts(with: needle)
        case "ENDSWITH": return subject.count >= needle.count && Array(subject.suffix(needle.count)) == needle
        case "CONTAINS":
            guard needle.count <= subject.count else { return false }
            return needle.isEmpty || (0...(subject.count - needle.count)).contains { Array(subject[$0..<$0 + needle.count]) == needle }
        default: return like(subject[...], needle[...])
        }
    }

    /// LIKE: `*` any run of code points, `?` exactly one.
    static func like(_ subject: ArraySlice<UInt32>, _ pattern: ArraySlice<UInt32>) -> Bool {
        guard let first = pattern.first else { return subject.isEmpty }
        switch first {
        case 42: // *
            return (subject.startIndex...subject.endIndex).contains { like(subject[$0...], pattern.dropFirst()) }
        case 63: // ?
            return !subject.isEmpty && like(subject.dropFirst(), pattern.dropFirst())
        default:
            return subject.first == first && like(subject.dropFirst(), pattern.dropFirst())
        }
    }
}
