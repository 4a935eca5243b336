import Foundation
import RealmCore
import RealmQuery
import Testing

/// `min`, `max`, `sum` and `average` of a property over a query's objects:
/// in SQL where it is exact, in Swift for decimals and post-filtered
/// queries; both give the same results.
@Suite struct AggregateTests {
    private func both(_ query: Query, _ kind: AggregateKind, _ keyPath: String, in transaction: Transaction,
                      sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Value {
        var reference = query
        reference.evaluation = .postFilterOnly
        let expected: Value
        do {
            expected = try reference.aggregate(kind, keyPath: keyPath, in: transaction)
        } catch {
            // An integer sum that does not fit 64 bits fails both ways.
            #expect(throws: (any Error).self, sourceLocation: sourceLocation) {
                try query.aggregate(kind, keyPath: keyPath, in: transaction)
            }
            return .null
        }
        let value = try query.aggregate(kind, keyPath: keyPath, in: transaction)
        #expect(value == expected || (Self.isNaN(value) && Self.isNaN(expected)), "\(kind) \(keyPath) of \(query.predicate)", sourceLocation: sourceLocation)
        return value
    }

    private static func isNaN(_ value: Value) -> Bool {
        if case .double(let number) = value { return number.isNaN }
        return false
    }

    @Test func everyKindOnEveryType() throws {
        let (transaction, _) = try AllTypes.open()
        let all = Query(className: "AllTypes")
        let filtered = Query(className: "AllTypes", predicate: try PredicateParser.parse("stringCol CONTAINS[cd] 'e'"))
        let linked = Query(className: "AllTypes", predicate: try PredicateParser.parse("link != nil"))
        for query in [all, filtered, linked] {
            for keyPath in ["floatCol", "optFloat", "doubleCol", "optDouble", "decimalCol", "optDecimal", "optInt", "link.optDouble", "link.decimalCol"] {
                for kind in AggregateKind.allCases { _ = try both(query, kind, keyPath, in: transaction) }
            }
            for keyPath in ["dateCol", "optDate", "link.dateCol", "intCol"] {
                _ = try both(query, .min, keyPath, in: transaction)
                _ = try both(query, .max, keyPath, in: transaction)
            }
        }
    }

    @Test func valuesAndEmptiness() throws {
        let realm = try TestRealm(schema: Zoo.schema)
        try Zoo.populate(realm)
        let dogs = Query(className: "Dog")
        let t = realm.transaction
        #expect(try both(dogs, .min, "age", in: t) == .int(1))
        #expect(try both(dogs, .max, "age", in: t) == .int(12))
        #expect(try both(dogs, .sum, "age", in: t) == .int(39))
        #expect(try both(dogs, .average, "age", in: t) == .double(39.0 / 7))
        // nil weights are skipped.
        #expect(try both(dogs, .sum, "weight", in: t) == .double(93.75))
        #expect(try both(dogs, .average, "weight", in: t) == .double(18.75))
        #expect(try both(dogs, .max, "owner.age", in: t) == .int(45))
        let none = Query(className: "Dog", predicate: try PredicateParser.parse("age > 100"))
        #expect(try both(none, .min, "age", in: t) == .null)
        #expect(try both(none, .max, "weight", in: t) == .null)
        #expect(try both(none, .average, "age", in: t) == .null)
        #expect(try both(none, .sum, "age", in: t) == .int(0))
        #expect(try both(none, .sum, "weight", in: t) == .double(0))
        let tan = Query(className: "Dog", predicate: try PredicateParser.parse("color ==[cd] 'TÁN'"))
        #expect(try both(tan, .sum, "age", in: t) == .int(23))
        // Distinct keeps one dog per color (the first in the current order).
        let youngestPerColor = Query(className: "Dog", sort: [SortDescriptor(keyPath: "age")], distinct: ["color"])
        #expect(try youngestPerColor.aggregate(.sum, keyPath: "age", in: t) == .int(1 + 1 + 5 + 10))
    }

    @Test func nanIsSkipped() throws {
        let realm = try TestRealm(schema: SemanticsTests.schema)
        try realm.transaction.write {
            for value in [1.5, .nan, -2, .infinity] { try realm.create("Item", ["name": .string("x"), "double": .double(value)]) }
        }
        let items = Query(className: "Item")
        #expect(try both(items, .min, "double", in: realm.transaction) == .double(-2))
        #expect(try both(items, .max, "double", in: realm.transaction) == .double(.infinity))
        #expect(try both(items, .sum, "double", in: realm.transaction) == .double(.infinity))
        let finite = Query(className: "Item", predicate: try PredicateParser.parse("double < 1e300"))
        #expect(try both(finite, .average, "double", in: realm.transaction) == .double(-0.25))
    }

    @Test func datesAndDecimals() throws {
        let realm = try TestRealm(schema: SemanticsTests.schema)
        try realm.transaction.write {
            for (seconds, decimal) in [(10.0, "0.1"), (-5, "0.2"), (7.5, "NaN")] {
                try realm.create("Item", ["name": .string("x"), "date": .date(Date(timeIntervalSinceReferenceDate: seconds)),
                                          "decimal": .decimal(decimal == "NaN" ? .nan : Decimal128(exactText: decimal)!)])
            }
        }
        let items = Query(className: "Item")
        #expect(try both(items, .min, "date", in: realm.transaction) == .date(Date(timeIntervalSinceReferenceDate: -5)))
        #expect(try both(items, .max, "date", in: realm.transaction) == .date(Date(timeIntervalSinceReferenceDate: 10)))
        // Exact: 0.1 + 0.2 is 0.3, not 0.30000000000000004.
        #expect(try both(items, .sum, "decimal", in: realm.transaction) == .decimal(Decimal128(exactText: "0.3")!))
        #expect(try both(items, .average, "decimal", in: realm.transaction) == .decimal(Decimal128(exactText: "0.15")!))
        #expect(try both(items, .max, "decimal", in: realm.transaction) == .decimal(Decimal128(exactText: "0.2")!))
    }

    /// Realm's core adds integers in 64 bits, wrapping around on overflow;
    /// both paths do the same, in any order, and never fail.
    @Test func integerSumsWrapAroundAsRealmsDo() throws {
        let realm = try TestRealm(schema: SemanticsTests.schema)
        try realm.transaction.write {
            for value in [Int64.max, 1, -5] { try realm.create("Item", ["name": .string("x"), "int": .int(value)]) }
        }
        // A partial sum overflows, the whole does not.
        #expect(try both(Query(className: "Item"), .sum, "int", in: realm.transaction) == .int(Int64.max - 4))
        // The whole overflows: it wraps, in SQL and in Swift alike.
        try realm.transaction.write { try realm.create("Item", ["name": .string("x"), "int": .int(10)]) }
        #expect(try both(Query(className: "Item"), .sum, "int", in: realm.transaction) == .int(Int64.max &+ 6))
        #expect(try Query(className: "Item").aggregate(.average, keyPath: "int", in: realm.transaction) == .double((Double(Int64.max) + 6) / 4))
    }
}
