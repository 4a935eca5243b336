import Foundation
import RealmCore
import RealmQuery
import Testing

/// What each comparison means, with hand-checked answers: nil, numbers
/// (NaN, -0.0, large integers against doubles, floats against literals),
/// decimals beyond double precision, strings with `[c]` and `[d]` on
/// non-ASCII text. Every query also runs through both paths.
@Suite struct SemanticsTests {
    static let schema = Schema([
        ObjectSchema(name: "Item", properties: [
            Property(name: "name", type: .string),
            Property(name: "label", type: .string, isOptional: true),
            Property(name: "int", type: .int, isOptional: true),
            Property(name: "float", type: .float, isOptional: true),
            Property(name: "double", type: .double, isOptional: true),
            Property(name: "decimal", type: .decimal, isOptional: true),
            Property(name: "date", type: .date, isOptional: true),
            Property(name: "data", type: .data, isOptional: true),
            Property(name: "next", type: .object, isOptional: true, objectClassName: "Item"),
        ]),
    ])

    /// Items named by `name`, with other values given.
    private func realm(_ items: [[String: Value]]) throws -> TestRealm {
        let realm = try TestRealm(schema: Self.schema)
        try realm.transaction.write {
            for item in items { try realm.create("Item", item) }
        }
        return realm
    }

    private func names(_ realm: TestRealm, _ format: String, _ arguments: [QueryArgument] = [],
                       sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [String] {
        let keys = try realm.bothPaths(realm.query("Item", format, arguments), sourceLocation: sourceLocation)
        return try keys.map { key in
            guard case .string(let name) = try realm.value("name", of: key, in: "Item") else { return "?" }
            return name
        }
    }

    @Test func nilEqualsNilAndNotEqualMatchesNil() throws {
        let realm = try realm([
            ["name": .string("a"), "label": .string("x")],
            ["name": .string("b"), "label": .null],
            ["name": .string("c"), "label": .string("y")],
        ])
        #expect(try names(realm, "label == nil") == ["b"])
        #expect(try names(realm, "label != nil") == ["a", "c"])
        #expect(try names(realm, "label != 'x'") == ["b", "c"])
        #expect(try names(realm, "NOT label == 'x'") == ["b", "c"])
        #expect(try names(realm, "NOT (label BEGINSWITH 'x')") == ["b", "c"])
        #expect(try names(realm, "label IN {nil, 'y'}") == ["b", "c"])
        #expect(try names(realm, "NOT label IN {'y'}") == ["a", "b"])
        #expect(try names(realm, "label == %@", [.value(.null)]) == ["b"])
        // Two key paths: nil equals nil.
        #expect(try names(realm, "label == next.label") == ["b"])
        #expect(try names(realm, "label != next.label") == ["a", "c"])
    }

    @Test func nilThroughLinks() throws {
        let realm = try realm([["name": .string("a"), "label": .string("x")], ["name": .string("b")], ["name": .string("c")]])
        try realm.transaction.write {
            let handle = try realm.transaction.classHandle(named: "Item")
            try realm.transaction.setValue(.object(ObjectKey(1)), of: ObjectKey(2), property: 8, in: handle)
        }
        // c has no next: next.label is nil for it, as for b (whose next has no label).
        #expect(try names(realm, "next.label == nil") == ["a", "c"])
        #expect(try names(realm, "next.label != 'x'") == ["a", "c"])
        #expect(try names(realm, "next.label == 'x'") == ["b"])
        #expect(try names(realm, "next == nil") == ["a", "c"])
        #expect(try names(realm, "next.next == nil") == ["a", "b", "c"])
    }

    @Test func numbers() throws {
        let realm = try realm([
            ["name": .string("nan"), "double": .double(.nan), "float": .float(.nan)],
            ["name": .string("minusZero"), "double": .double(-0.0), "float": .float(-0.0), "int": .int(0)],
            ["name": .string("tenth"), "double": .double(0.1), "float": .float(0.1), "int": .int(1)],
            ["name": .string("big"), "double": .double(9_007_199_254_740_992), "int": .int(9_007_199_254_740_993)],
            ["name": .string("max"), "int": .int(.max), "double": .double(.infinity)],
            ["name": .string("none")],
        ])
        #expect(try names(realm, "double > 0") == ["tenth", "big", "max"])
        #expect(try names(realm, "double >= -1") == ["minusZero", "tenth", "big", "max"])
        #expect(try names(realm, "double < 1e400") == ["minusZero", "tenth", "big"])
        #expect(try names(realm, "double != 0") == ["nan", "tenth", "big", "max", "none"])
        #expect(try names(realm, "double == 0 AND float == 0") == ["minusZero"])
        #expect(try names(realm, "double == %@", [.value(.double(.nan))]) == ["nan"])
        #expect(try names(realm, "double > %@", [.value(.double(.nan))]) == [])
        #expect(try names(realm, "double BETWEEN {-1, 1}") == ["minusZero", "tenth"])
        #expect(try names(realm, "double BETWEEN %@", [.values([.double(-.infinity), .double(.infinity)])]) == ["minusZero", "tenth", "big", "max"])
        // A float compares with the literal converted to float, as Realm does.
        #expect(try names(realm, "float == 0.1") == ["tenth"])
        #expect(try names(realm, "double == 0.1") == ["tenth"])
        // Integers and doubles compare exactly, without rounding either.
        #expect(try names(realm, "int == 9007199254740992.0") == [])
        #expect(try names(realm, "int > double") == ["tenth", "big"])
        #expect(try names(realm, "int == 9007199254740993") == ["big"])
        #expect(try names(realm, "int < 9.3e18") == ["minusZero", "tenth", "big", "max"])
        #expect(try names(realm, "int > 1.5") == ["big", "max"])
        #expect(try names(realm, "int == 1.0") == ["tenth"])
        #expect(try names(realm, "int IN {0, 1.0}") == ["minusZero", "tenth"])
    }

    @Test func decimalsCompareExactly() throws {
        let d = { (text: String) in Value.decimal(Decimal128(exactText: text)!) }
        let realm = try realm([
            ["name": .string("a"), "decimal": d("12345678901234567890.123456789")],
            ["name": .string("b"), "decimal": d("12345678901234567890.123456788")],
            ["name": .string("c"), "decimal": d("1.50")],
            ["name": .string("d"), "decimal": .decimal(.nan)],
            ["name": .string("e")],
        ])
        #expect(try names(realm, "decimal > %@", [.value(d("12345678901234567890.123456788"))]) == ["a"])
        #expect(try names(realm, "decimal >= %@", [.value(d("12345678901234567890.123456788"))]) == ["a", "b"])
        #expect(try names(realm, "decimal < %@", [.value(d("12345678901234567890.123456789"))]) == ["b", "c"])
        #expect(try names(realm, "decimal == 1.5") == ["c"])
        #expect(try names(realm, "decimal == %@", [.value(d("1.500"))]) == ["c"])
        #expect(try names(realm, "decimal == %@", [.value(.decimal(.nan))]) == ["d"])
        #expect(try names(realm, "decimal > 0") == ["a", "b", "c"])
        #expect(try names(realm, "decimal != 1.5") == ["a", "b", "d", "e"])
        #expect(try names(realm, "decimal BETWEEN {1, 2}") == ["c"])
        let sum = try Query(className: "Item").aggregate(.sum, keyPath: "decimal", in: realm.transaction)
        #expect(sum == d("24691357802469135781.746913577"))
        let maximum = try Query(className: "Item").aggregate(.max, keyPath: "decimal", in: realm.transaction)
        #expect(maximum == d("12345678901234567890.123456789"))
    }

    @Test func caseAndDiacriticFolding() throws {
        let texts = ["Émile", "émile", "EMILE", "emile", "ÅSA", "åsa", "asa", "straße", "STRASSE", "İstanbul", "istanbul",
                     "ǅemal", "ǆemal", "Øre", "ore", "ŁÓDŹ", "łódź", "e\u{301}mile", "Ж", "ж"]
        let realm = try realm(texts.map { ["name": .string($0)] })
        #expect(try names(realm, "name ==[c] 'émile'") == ["Émile", "émile"])
        #expect(try names(realm, "name ==[c] 'EMILE'") == ["EMILE", "emile"])
        #expect(try names(realm, "name ==[d] 'Emile'") == ["Émile"])
        #expect(try names(realm, "name ==[cd] 'EMILE'") == ["Émile", "émile", "EMILE", "emile"])
        #expect(try names(realm, "name ==[c] 'åsa'") == ["ÅSA", "åsa"])
        #expect(try names(realm, "name ==[cd] 'ASA'") == ["ÅSA", "åsa", "asa"])
        // No multi-character folding: ß is not SS.
        #expect(try names(realm, "name ==[c] 'STRASSE'") == ["STRASSE"])
        #expect(try names(realm, "name CONTAINS[cd] 'ß'") == ["straße"])
        // İ lowercases to two code points, so [c] leaves it; [d] takes its dot.
        #expect(try names(realm, "name ==[c] 'istanbul'") == ["istanbul"])
        #expect(try names(realm, "name ==[cd] 'istanbul'") == ["İstanbul", "istanbul"])
        #expect(try names(realm, "name ==[c] 'ǆemal'") == ["ǅemal", "ǆemal"])
        #expect(try names(realm, "name ==[d] 'Ore'") == ["Øre"])
        #expect(try names(realm, "name ==[cd] 'lodz'") == ["ŁÓDŹ", "łódź"])
        // Outside Latin (code points 592 and up) nothing folds.
        #expect(try names(realm, "name ==[c] 'ж'") == ["ж"])
        // No normalization: a decomposed é is e and a combining mark.
        #expect(try names(realm, "name == 'émile'") == ["émile"])
        #expect(try names(realm, "name BEGINSWITH[d] 'e'") == ["émile", "emile", "e\u{301}mile"])
        #expect(try names(realm, "name BEGINSWITH[cd] 'e'") == ["Émile", "émile", "EMILE", "emile", "e\u{301}mile"])
        #expect(try names(realm, "name BEGINSWITH[d] 'É'") == ["Émile", "EMILE"])
        #expect(try names(realm, "name ENDSWITH[c] 'SA'") == ["ÅSA", "åsa", "asa"])
        #expect(try names(realm, "name CONTAINS[c] 'MIL'") == ["Émile", "émile", "EMILE", "emile", "e\u{301}mile"])
        #expect(try names(realm, "name LIKE[cd] '?mil*'") == ["Émile", "émile", "EMILE", "emile"])
        #expect(try names(realm, "name LIKE '?mile'") == ["Émile", "émile", "emile"])
        #expect(try names(realm, "name IN[cd] {'emile', 'ore'}") == ["Émile", "émile", "EMILE", "emile", "Øre", "ore"])
        #expect(try names(realm, "name !=[cd] 'emile' AND name BEGINSWITH[c] 'e'") == ["e\u{301}mile"])
    }

    @Test func exactStringsAreCaseSensitiveAndLiteral() throws {
        let realm = try realm(["abc", "ABC", "a%c", "a_c", "a*c", "a?c", "[x]", "a\\c", ""].map { ["name": .string($0)] })
        #expect(try names(realm, "name BEGINSWITH 'a'") == ["abc", "a%c", "a_c", "a*c", "a?c", "a\\c"])
        #expect(try names(realm, "name CONTAINS '%'") == ["a%c"])
        #expect(try names(realm, "name CONTAINS[c] '_'") == ["a_c"])
        #expect(try names(realm, "name BEGINSWITH[c] 'A%'") == ["a%c"])
        #expect(try names(realm, "name ENDSWITH '*c'") == ["a*c"])
        #expect(try names(realm, "name BEGINSWITH '['") == ["[x]"])
        #expect(try names(realm, "name LIKE '[x]'") == ["[x]"])
        #expect(try names(realm, "name LIKE 'a?c'") == ["abc", "a%c", "a_c", "a*c", "a?c", "a\\c"])
        #expect(try names(realm, "name LIKE[c] 'A\\\\C'") == ["a\\c"])
        #expect(try names(realm, "name LIKE '*'") == ["abc", "ABC", "a%c", "a_c", "a*c", "a?c", "[x]", "a\\c", ""])
        #expect(try names(realm, "name CONTAINS ''") == ["abc", "ABC", "a%c", "a_c", "a*c", "a?c", "[x]", "a\\c", ""])
        #expect(try names(realm, "name ENDSWITH ''").count == 9)
        #expect(try names(realm, "name == ''") == [""])
        #expect(try names(realm, "'xabcx' CONTAINS name AND name != ''") == ["abc"])
    }

    /// Needles longer than SQLite's 50,000-byte pattern limit take other
    /// forms (or the post-filter) and give the same answers.
    @Test func longNeedles() throws {
        let long = String(repeating: "ab", count: 30_000)
        let realm = try realm([
            ["name": .string("long"), "label": .string(long + "z")],
            ["name": .string("longUpper"), "label": .string("Z" + long.uppercased())],
            ["name": .string("short"), "label": .string("ab")],
            ["name": .string("none")],
        ])
        let needle: [QueryArgument] = [.value(.string(long))]
        #expect(try names(realm, "label BEGINSWITH %@", needle) == ["long"])
        #expect(try names(realm, "label ENDSWITH[c] %@", needle) == ["longUpper"])
        #expect(try names(realm, "label ENDSWITH %@", [.value(.string(long + "z"))]) == ["long"])
        #expect(try names(realm, "label CONTAINS %@", needle) == ["long"])
        #expect(try names(realm, "label LIKE %@", [.value(.string(long + "?"))]) == ["long"])
        #expect(try names(realm, "NOT label LIKE[c] %@", [.value(.string("*" + long))]) == ["long", "short", "none"])
        #expect(try names(realm, "NOT label BEGINSWITH[d] %@", needle) == ["longUpper", "short", "none"])
        #expect(try names(realm, "label ==[cd] %@", [.value(.string(long + "Z"))]) == ["long"])
    }

    @Test func dataOperators() throws {
        let realm = try realm([
            ["name": .string("empty"), "data": .data(Data())],
            ["name": .string("zero"), "data": .data(Data([0]))],
            ["name": .string("abc"), "data": .data(Data("abc".utf8))],
            ["name": .string("none")],
        ])
        #expect(try names(realm, "data == %@", [.value(.data(Data()))]) == ["empty"])
        #expect(try names(realm, "data != %@", [.value(.data(Data()))]) == ["zero", "abc", "none"])
        #expect(try names(realm, "data BEGINSWITH %@", [.value(.data(Data()))]) == ["empty", "zero", "abc"])
        #expect(try names(realm, "data ENDSWITH %@", [.value(.data(Data()))]) == ["empty", "zero", "abc"])
        #expect(try names(realm, "data CONTAINS 'b'") == ["abc"])
        #expect(try names(realm, "data BEGINSWITH 'ab'") == ["abc"])
        #expect(try names(realm, "data ENDSWITH %@", [.value(.data(Data([0])))]) == ["zero"])
        #expect(try names(realm, "data == nil") == ["none"])
        // LIKE on data: * and ? stand for any bytes and one byte.
        #expect(try names(realm, "data LIKE 'a?c'") == ["abc"])
        #expect(try names(realm, "data LIKE '*'") == ["empty", "zero", "abc"])
        #expect(try names(realm, "data LIKE '?'") == ["zero"])
        #expect(try names(realm, "data LIKE %@", [.value(.data(Data([0x2A, 0x63])))]) == ["abc"])
    }

    @Test func datesOrder() throws {
        let date = { (seconds: Double) in Value.date(Date(timeIntervalSinceReferenceDate: seconds)) }
        let realm = try realm([["name": .string("early"), "date": date(-100.5)], ["name": .string("epoch"), "date": date(0)],
                               ["name": .string("late"), "date": date(1e9)], ["name": .string("none")]])
        #expect(try names(realm, "date < %@", [.value(date(0))]) == ["early"])
        #expect(try names(realm, "date >= %@", [.value(date(0))]) == ["epoch", "late"])
        #expect(try names(realm, "date BETWEEN %@", [.values([date(-100.5), date(0)])]) == ["early", "epoch"])
        #expect(try names(realm, "date != %@", [.value(date(0))]) == ["early", "late", "none"])
    }
}
