import Foundation
import RealmCore
import RealmQuery
import Testing

/// Predicates past SQLite's limits on one statement still run and give
/// the post-filter's answer, and nesting past the parser's own limit is a
/// clear error, never a crash (issue 15, item 3).
@Suite struct QueryLimitsTests {
    /// Items 0..<40 in a chain: each `next` is the one after it.
    private func chain() throws -> TestRealm {
        let realm = try TestRealm(schema: SemanticsTests.schema)
        try realm.transaction.write {
            var next: ObjectKey?
            for index in (0..<40).reversed() {
                var values: [String: Value] = ["name": .string("item \(index)"), "int": .int(Int64(index))]
                if let next { values["next"] = .object(next) }
                next = try realm.create("Item", values)
            }
        }
        return realm
    }

    private func ints(_ realm: TestRealm, _ format: String) throws -> [Int64] {
        let keys = try realm.bothPaths("Item", format)
        return try keys.map { key in
            guard case .int(let value) = try realm.value("int", of: key, in: "Item") else { return -1 }
            return value
        }.sorted()
    }

    @Test func longOrAndAndChainsRun() throws {
        let realm = try chain()
        let ors = (0..<5_000).map { "int == \($0 * 7)" }.joined(separator: " OR ")
        #expect(try ints(realm, ors) == [0, 7, 14, 21, 28, 35])
        let ands = (0..<5_000).map { "int != \($0 + 10)" }.joined(separator: " AND ")
        #expect(try ints(realm, ands) == Array(0..<10))
        let notOrs = "NOT (" + ors + ")"
        #expect(try ints(realm, notOrs).count == 34)
    }

    @Test func deepLinkPathsRun() throws {
        let realm = try chain()
        // 70 hops: more tables than one SQLite join takes.
        let path = Array(repeating: "next", count: 70).joined(separator: ".")
        #expect(try ints(realm, "\(path).int == 5").isEmpty)
        let path30 = Array(repeating: "next", count: 30).joined(separator: ".")
        #expect(try ints(realm, "\(path30).int == 35") == [5])
        // Many shorter paths in one condition, past 64 joins together.
        let many = (1...20).map { hops in Array(repeating: "next", count: hops).joined(separator: ".") + ".int > 0" }.joined(separator: " AND ")
        #expect(try ints(realm, many) == Array(0..<20))
    }

    @Test func nestingWithinTheLimitRuns() throws {
        let realm = try chain()
        let parens = String(repeating: "(", count: 150) + "int < 3" + String(repeating: ")", count: 150)
        #expect(try ints(realm, parens) == [0, 1, 2])
        // NOT NOT p is p; an odd count negates.
        #expect(try ints(realm, String(repeating: "NOT ", count: 150) + "int >= 3") == Array(3..<40))
        #expect(try ints(realm, String(repeating: "NOT ", count: 151) + "int >= 3") == [0, 1, 2])
        // Alternating NOT and OR, 40 levels of four nestings each: past
        // SQLite's parser stack if written as SQL, so evaluated by the
        // post-filter.
        var alternating = "int < 20"
        for index in 0..<40 { alternating = "NOT (int == \(100 + index) OR NOT (\(alternating)))" }
        #expect(try ints(realm, alternating) == Array(0..<20))
    }

    @Test func nestingPastTheLimitIsAClearError() throws {
        for predicate in [
            String(repeating: "(", count: 3_000) + "int < 3" + String(repeating: ")", count: 3_000),
            String(repeating: "NOT ", count: 3_000) + "int < 3",
            String(repeating: "SUBQUERY(items, $x, ", count: 300) + "$x.int > 1" + String(repeating: ").@count > 0", count: 300),
        ] {
            let error = #expect(throws: QueryError.self) { _ = try PredicateParser.parse(predicate) }
            #expect(error?.description.contains("more than 200 levels deep") == true)
        }
    }

    @Test func aPredicateOfAMegabyteRuns() throws {
        let realm = try chain()
        let long = String(repeating: "x", count: 1_000_000)
        #expect(try ints(realm, "name == '\(long)' OR int == 1") == [1])
        #expect(try ints(realm, "name BEGINSWITH '\(long)'").isEmpty)
    }
}
