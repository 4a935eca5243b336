import Foundation
import RealmCore
import RealmQuery
import Testing

/// Sorting (several descriptors, both directions, through links, stable,
/// strings by code point) and distinct (the first object of each group in
/// the current order), each checked by hand and through both paths.
@Suite struct SortDistinctTests {
    let realm: TestRealm
    let keys: Zoo.Keys

    init() throws {
        realm = try TestRealm(schema: Zoo.schema)
        keys = try Zoo.populate(realm)
    }

    private func dogs(_ format: String = "TRUEPREDICATE", sort: [SortDescriptor] = [], distinct: [String] = [],
                      distinctFirst: Bool = false, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [String] {
        var query = try realm.query("Dog", format, sort: sort, distinct: distinct)
        query.distinctBeforeSort = distinctFirst
        return try realm.bothPaths(query, sourceLocation: sourceLocation).names(in: keys.dogs)
    }

    @Test func severalDescriptorsAndDirections() throws {
        #expect(try dogs(sort: [SortDescriptor(keyPath: "age")]) == ["Buster", "Fido", "Bella", "Rex", "Bruno", "Spike", "Hachi"])
        #expect(try dogs(sort: [SortDescriptor(keyPath: "age", ascending: false)]) == ["Hachi", "Spike", "Bruno", "Rex", "Bella", "Buster", "Fido"])
        #expect(try dogs(sort: [SortDescriptor(keyPath: "color"), SortDescriptor(keyPath: "age", ascending: false)])
            == ["Rex", "Fido", "Hachi", "Bruno", "Bella", "Buster", "Spike"])
        #expect(try dogs("color == 'tan'", sort: [SortDescriptor(keyPath: "name", ascending: false)]) == ["Hachi", "Buster", "Bruno", "Bella"])
    }

    @Test func tiesKeepSourceOrder() throws {
        // Buster and Fido are both 1; Bella, Buster, Bruno and Hachi are tan.
        #expect(try dogs(sort: [SortDescriptor(keyPath: "color")]) == ["Rex", "Fido", "Bella", "Buster", "Bruno", "Hachi", "Spike"])
        #expect(try dogs(sort: [SortDescriptor(keyPath: "color", ascending: false)]) == ["Spike", "Bella", "Buster", "Bruno", "Hachi", "Fido", "Rex"])
    }

    @Test func throughToOneLinks() throws {
        // Dogs without an owner (nil) come first ascending, last descending.
        #expect(try dogs(sort: [SortDescriptor(keyPath: "owner.name")]) == ["Spike", "Hachi", "Bella", "Rex", "Fido", "Buster", "Bruno"])
        #expect(try dogs(sort: [SortDescriptor(keyPath: "owner.age", ascending: false), SortDescriptor(keyPath: "name")])
            == ["Bruno", "Bella", "Rex", "Fido", "Buster", "Hachi", "Spike"])
        #expect(try dogs(sort: [SortDescriptor(keyPath: "weight")]) == ["Buster", "Hachi", "Fido", "Bella", "Spike", "Bruno", "Rex"])
    }

    @Test func distinctKeepsTheFirstInTheCurrentOrder() throws {
        #expect(try dogs(distinct: ["color"]) == ["Bella", "Rex", "Fido", "Spike"])
        #expect(try dogs(sort: [SortDescriptor(keyPath: "age")], distinct: ["color"]) == ["Buster", "Fido", "Rex", "Spike"])
        #expect(try dogs(sort: [SortDescriptor(keyPath: "age", ascending: false)], distinct: ["color"]) == ["Hachi", "Spike", "Rex", "Fido"])
        // Distinct first (by key order), then sorted.
        #expect(try dogs(sort: [SortDescriptor(keyPath: "age", ascending: false)], distinct: ["color"], distinctFirst: true)
            == ["Spike", "Rex", "Bella", "Fido"])
        // Through a link, the dogs without an owner (Spike, Hachi) are
        // dropped, as Realm drops objects whose key path meets a nil link.
        #expect(try dogs(distinct: ["owner.name"]) == ["Bella", "Buster", "Fido", "Bruno"])
        #expect(try dogs(distinct: ["color", "owner.name"]) == ["Bella", "Buster", "Rex", "Fido", "Bruno"])
        #expect(try dogs("age > 1", distinct: ["color"]) == ["Bella", "Rex", "Spike"])
        let counted = try realm.query("Dog", "TRUEPREDICATE", distinct: ["color"])
        #expect(try counted.count(in: realm.transaction) == 4)
    }

    @Test func chainingBuildsTheSameQueries() throws {
        let base = Query(className: "Dog")
        // distinct, then sorted: the first of each color in key order, sorted.
        let distinctFirst = base.distinct(by: ["color"]).sorted(by: [SortDescriptor(keyPath: "age", ascending: false)])
        #expect(distinctFirst.distinctBeforeSort)
        #expect(try realm.bothPaths(distinctFirst).names(in: keys.dogs) == ["Spike", "Rex", "Bella", "Fido"])
        // sorted, then distinct: the oldest of each color.
        let sortedFirst = base.sorted(by: [SortDescriptor(keyPath: "age", ascending: false)]).distinct(by: ["color"])
        #expect(!sortedFirst.distinctBeforeSort)
        #expect(try realm.bothPaths(sortedFirst).names(in: keys.dogs) == ["Hachi", "Spike", "Rex", "Fido"])
        let filtered = base.filtered(by: try PredicateParser.parse("color == 'tan'")).filtered(by: try PredicateParser.parse("age > 2"))
        #expect(filtered.predicate == (try PredicateParser.parse("color == 'tan' AND age > 2")))
        #expect(try realm.bothPaths(filtered).names(in: keys.dogs) == ["Bella", "Bruno", "Hachi"])
    }

    @Test func distinctAfterThePostFilter() throws {
        // [d] needs the post-filter; distinct must apply to what it keeps.
        #expect(try dogs("name BEGINSWITH[d] 'B' OR name ==[cd] 'rex'", distinct: ["color"]) == ["Bella", "Rex"])
        #expect(try dogs("name CONTAINS[cd] 'E'", sort: [SortDescriptor(keyPath: "age", ascending: false)], distinct: ["color"])
            == ["Spike", "Rex", "Bella"])
        #expect(try dogs("name CONTAINS[cd] 'E'", sort: [SortDescriptor(keyPath: "age")], distinct: ["color"])
            == ["Buster", "Rex", "Spike"])
        #expect(try dogs("name CONTAINS[cd] 'E'", sort: [SortDescriptor(keyPath: "age", ascending: false)], distinct: ["color"], distinctFirst: true)
            == ["Spike", "Rex", "Bella"])
        let counted = try realm.query("Dog", "name CONTAINS[cd] 'E'", distinct: ["color"])
        #expect(try counted.count(in: realm.transaction) == 3)
    }

    @Test func stringsSortByCodePoint() throws {
        let realm = try TestRealm(schema: SemanticsTests.schema)
        let texts: [String?] = ["b", "B", "a", "Z", "é", "e", nil, "", "ab", "A", "Ω", "😀", "e\u{301}"]
        try realm.transaction.write {
            for (index, text) in texts.enumerated() {
                try realm.create("Item", ["name": .string("\(index)"), "label": text.map(Value.string) ?? .null])
            }
        }
        let ascending = try realm.bothPaths(realm.query("Item", "TRUEPREDICATE", sort: [SortDescriptor(keyPath: "label")]))
        let labels = try ascending.map { key -> String in
            if case .string(let text) = try realm.value("label", of: key, in: "Item") { return text }
            return "nil"
        }
        #expect(labels == ["nil", "", "A", "B", "Z", "a", "ab", "b", "e", "e\u{301}", "é", "Ω", "😀"])
        let descending = try realm.bothPaths(realm.query("Item", "TRUEPREDICATE", sort: [SortDescriptor(keyPath: "label", ascending: false)]))
        #expect(descending == ascending.reversed())
    }

    @Test func numbersDatesDataAndDecimals() throws {
        let realm = try TestRealm(schema: SemanticsTests.schema)
        let d = { (text: String) in Value.decimal(Decimal128(exactText: text)!) }
        let rows: [(Value, Value, Value, Value)] = [
            (.double(.nan), d("12345678901234567890.123456789"), .data(Data([2])), .date(Date(timeIntervalSinceReferenceDate: 5))),
            (.double(-1), d("12345678901234567890.123456788"), .data(Data([1, 5])), .null),
            (.null, .null, .null, .date(Date(timeIntervalSinceReferenceDate: -5))),
            (.double(.infinity), d("-3"), .data(Data()), .date(Date(timeIntervalSinceReferenceDate: 0.5))),
            (.double(-0.0), .decimal(.nan), .data(Data([1])), .date(Date(timeIntervalSinceReferenceDate: 0.25))),
            (.double(2), d("1.5"), .data(Data([1, 5])), .date(Date(timeIntervalSinceReferenceDate: 5))),
        ]
        try realm.transaction.write {
            for (index, row) in rows.enumerated() {
                try realm.create("Item", ["name": .string("\(index)"), "double": row.0, "decimal": row.1, "data": row.2, "date": row.3])
            }
        }
        func order(_ keyPath: String, _ ascending: Bool = true) throws -> [Int64] {
            try realm.bothPaths(realm.query("Item", "TRUEPREDICATE", sort: [SortDescriptor(keyPath: keyPath, ascending: ascending)])).map(\.rawValue)
        }
        // nil first; NaN (a BLOB in the file) after every number.
        #expect(try order("double") == [3, 2, 5, 6, 4, 1])
        #expect(try order("double", false) == [1, 4, 6, 5, 2, 3])
        // Decimals sort by exact value (in Swift), NaN before every number,
        // as Realm orders Decimal128.
        #expect(try order("decimal") == [3, 5, 4, 6, 2, 1])
        #expect(try order("decimal", false) == [1, 2, 6, 4, 5, 3])
        #expect(try order("data") == [3, 4, 5, 2, 6, 1])
        #expect(try order("date") == [2, 3, 5, 4, 1, 6])
        let decimalThenDouble = try realm.bothPaths(realm.query("Item", "decimal != nil", sort: [
            SortDescriptor(keyPath: "date", ascending: false), SortDescriptor(keyPath: "decimal"),
        ]))
        #expect(decimalThenDouble.map(\.rawValue) == [6, 1, 4, 5, 2])
        let distinctDecimal = try realm.bothPaths(realm.query("Item", "TRUEPREDICATE", sort: [SortDescriptor(keyPath: "decimal")], distinct: ["date"]))
        #expect(distinctDecimal.map(\.rawValue) == [3, 5, 4, 6, 2])
    }
}
