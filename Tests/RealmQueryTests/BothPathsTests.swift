import Foundation
import RealmCore
import RealmQuery
import Testing

/// A group of predicates over ``AllTypes`` to run through both paths.
struct PredicateGroup: Sendable, CustomTestStringConvertible {
    let name: String
    let cases: [(format: String, arguments: [QueryArgument])]

    init(_ name: String, _ cases: [(String, [QueryArgument])]) {
        self.name = name
        self.cases = cases.map { (format: $0.0, arguments: $0.1) }
    }

    var testDescription: String { "\(name) (\(cases.count) predicates)" }
}

/// Every supported form, on every type it supports, through SQL (with the
/// post-filter only where SQL cannot be exact) and through the Swift
/// evaluator alone, on the same data: the answers must be identical, for
/// each predicate and for its negation, and a predicate and its negation
/// must split the objects between them (Realm's two-valued logic).
@Suite struct BothPathsTests {
    @Test(arguments: Matrix.numbers + Matrix.others + Matrix.strings + Matrix.data + Matrix.collections + Matrix.compound)
    func sameAnswers(_ group: PredicateGroup) throws {
        let (transaction, allKeys) = try AllTypes.open()
        for (format, arguments) in group.cases {
            let predicate: Predicate
            do {
                predicate = try PredicateParser.parse(format, arguments: arguments)
                _ = try Query(className: "AllTypes", predicate: predicate).validated(against: transaction.schema)
            } catch {
                Issue.record("\(format): \(error)")
                continue
            }
            var matched: [ObjectKey] = []
            for (negated, tested) in [(false, predicate), (true, Predicate.not(predicate))] {
                let label = (negated ? "NOT " : "") + format
                let query = Query(className: "AllTypes", predicate: tested)
                var reference = query
                reference.evaluation = .postFilterOnly
                // Both paths must agree on failures too (an integer sum that
                // overflows fails in both).
                let expected: [ObjectKey]
                do {
                    expected = try reference.objectKeys(in: transaction)
                } catch {
                    #expect(throws: (any Error).self, "\(label): Swift failed with \(error), SQL did not") {
                        try query.objectKeys(in: transaction)
                    }
                    break
                }
                let automatic = try query.objectKeys(in: transaction)
                #expect(automatic == expected, "\(label): SQL \(automatic.map(\.rawValue)) vs Swift \(expected.map(\.rawValue))")
                #expect(try query.count(in: transaction) == expected.count, "count of \(label)")
                if negated {
                    #expect(Set(matched).isDisjoint(with: expected) && matched.count + expected.count == allKeys.count,
                            "\(format) and its negation do not split the objects")
                } else {
                    matched = expected
                }
            }
        }
    }

    @Test func fixtureHasAwkwardValues() throws {
        let (transaction, keys) = try AllTypes.open()
        #expect(keys.count == AllTypes.rowCount)
        let nan = try Query(className: "AllTypes", predicate: PredicateParser.parse("doubleCol == %@", arguments: [.value(.double(.nan))]))
        #expect(try nan.count(in: transaction) > 0)
        let nilStrings = try Query(className: "AllTypes", predicate: PredicateParser.parse("optString == nil"))
        #expect(try nilStrings.count(in: transaction) == AllTypes.rowCount / 4)
    }
}

/// The predicate groups.
enum Matrix {
    static let comparisons = ["==", "!=", "<", "<=", ">", ">="]

    static var numbers: [PredicateGroup] {
        let columns = ["intCol", "optInt", "floatCol", "optFloat", "doubleCol", "optDouble"]
        let literals = ["0", "-1", "1.5", "5", "42", "1e30", "-0.0", "9007199254740993", "0x2A", "-9223372036854775808"]
        let arguments: [QueryArgument] = [.value(.double(.nan)), .value(.double(.infinity)), .value(.double(-.infinity)),
                                          .value(.int(.max)), .value(.float(0.1)), .value(.double(0.1)), .value(.float(.nan))]
        var groups: [PredicateGroup] = []
        for column in columns {
            var cases: [(String, [QueryArgument])] = []
            for op in comparisons {
                cases += literals.map { ("\(column) \(op) \($0)", []) }
                cases += arguments.map { ("\(column) \(op) %@", [$0]) }
                cases.append(("5 \(op) \(column)", []))
            }
            cases += [
                ("\(column) BETWEEN {0, 5}", []), ("\(column) BETWEEN {-1, 1.5}", []), ("\(column) BETWEEN {5, 0}", []),
                ("\(column) BETWEEN %@", [.values([.double(-.infinity), .double(.infinity)])]),
                ("\(column) BETWEEN %@", [.values([.double(.nan), .double(5)])]),
                ("\(column) IN {0, 1.5, 5, 42}", []), ("\(column) IN {}", []),
                ("\(column) IN %@", [.values([.double(.nan), .int(7), .float(0.5)])]),
                ("\(column) = %d", [.value(.int(42))]), ("\(column) <> %f", [.value(.double(1.5))]),
                ("\(column) =< 5 AND \(column) => 0", []),
            ]
            if column.hasPrefix("opt") {
                cases += [("\(column) == nil", []), ("\(column) != nil", []), ("nil == \(column)", []),
                          ("\(column) IN {nil, 1.5}", []), ("\(column) == NULL", [])]
            }
            groups.append(PredicateGroup("numbers: \(column)", cases))
        }
        let pairs = [("intCol", "optInt"), ("intCol", "doubleCol"), ("floatCol", "optDouble"), ("optInt", "optDouble"),
                     ("doubleCol", "optFloat"), ("floatCol", "doubleCol"), ("optFloat", "optFloat")]
        groups.append(PredicateGroup("numbers: key path vs key path", pairs.flatMap { left, right in
            comparisons.map { ("\(left) \($0) \(right)", []) }
        }))
        return groups
    }

    static var others: [PredicateGroup] {
        let dates: [QueryArgument] = AllTypes.dates.map { .value(.date(Date(timeIntervalSinceReferenceDate: $0))) }
        var dateCases: [(String, [QueryArgument])] = []
        for column in ["dateCol", "optDate"] {
            for op in comparisons { dateCases += dates.prefix(5).map { ("\(column) \(op) %@", [$0]) } }
            dateCases += [("\(column) BETWEEN %@", [.values([.date(Date(timeIntervalSinceReferenceDate: 0)), .date(Date(timeIntervalSinceReferenceDate: 1e9))])]),
                          ("\(column) IN %@", [.values(Array(dates.map { if case .value(let v) = $0 { v } else { .null } }.prefix(3)))])]
        }
        dateCases += [("optDate == nil", []), ("optDate != nil", [])] + comparisons.map { ("dateCol \($0) optDate", []) }

        var boolCases: [(String, [QueryArgument])] = [
            ("boolCol == true", []), ("boolCol != false", []), ("boolCol == NO", []), ("boolCol = YES", []),
            ("optBool == nil", []), ("optBool != true", []), ("optBool == false", []), ("boolCol == optBool", []),
            ("boolCol != optBool", []), ("boolCol IN {true}", []), ("optBool IN {nil, false}", []), ("boolCol == 1", []),
            ("boolCol == %@", [.value(.bool(false))]),
        ]
        boolCases.append(("optBool != nil AND boolCol == true", []))

        var idCases: [(String, [QueryArgument])] = []
        for index in 0..<3 {
            idCases += [("objectIdCol == %@", [.value(.objectId(AllTypes.objectId(index)))]),
                        ("objectIdCol != %@", [.value(.objectId(AllTypes.objectId(index)))]),
                        ("optObjectId == %@", [.value(.objectId(AllTypes.objectId(index)))]),
                        ("optObjectId != %@", [.value(.objectId(AllTypes.objectId(index)))]),
                        ("uuidCol == %@", [.value(.uuid(AllTypes.uuid(index)))]),
                        ("optUuid != %@", [.value(.uuid(AllTypes.uuid(index)))])]
        }
        idCases += [("objectIdCol == '\(AllTypes.objectId(1).stringValue)'", []),
                    ("uuidCol == '\(AllTypes.uuid(2).uuidString)'", []),
                    ("optObjectId == nil", []), ("optUuid != nil", []), ("objectIdCol == optObjectId", []),
                    ("uuidCol != optUuid", []),
                    ("objectIdCol IN %@", [.values([.objectId(AllTypes.objectId(0)), .objectId(AllTypes.objectId(4))])]),
                    ("optUuid IN %@", [.values([.null, .uuid(AllTypes.uuid(1))])])]

        var decimalCases: [(String, [QueryArgument])] = []
        let decimals: [QueryArgument] = ["1.5", "12345678901234567890.123456789", "-3", "0", "1.4999999999999999999999999", "NaN"].map {
            .value(.decimal($0 == "NaN" ? .nan : Decimal128(exactText: $0)!))
        }
        for column in ["decimalCol", "optDecimal"] {
            for op in comparisons {
                decimalCases += decimals.map { ("\(column) \(op) %@", [$0]) }
                decimalCases += [("\(column) \(op) 1.5", []), ("\(column) \(op) 7", []), ("2 \(op) \(column)", [])]
            }
            decimalCases += [("\(column) BETWEEN {0, 2}", []), ("\(column) BETWEEN {-3, 0.1}", []),
                             ("\(column) IN {1.5, 7, -3}", []), ("\(column) IN %@", [.values([.decimal(.nan), .decimal(100)])])]
        }
        decimalCases += [("optDecimal == nil", []), ("optDecimal != nil", [])] + comparisons.map { ("decimalCol \($0) optDecimal", []) }

        return [PredicateGroup("dates", dateCases), PredicateGroup("bools", boolCases),
                PredicateGroup("object ids and UUIDs", idCases), PredicateGroup("decimals", decimalCases)]
    }

    static let needles = ["", "a", "A", "é", "E", "e", "mile", "émile", "ÉMILE", "ÅSA", "asa", "STRASSE", "ß", "%", "_", "*", "?",
                          "a*", "?s?", "*e", "[", "[br]", "ø", "O", "İ", "i", "日本", "ǆ", "Ǆ", "lodz", "łódź", "\\", "'", "\"",
                          "*a*b*", "?*?", "**", "*?", "a*a*a", "*mile", "É*e", "*s*s*", "?????", "*%*", "*_*"]

    static var strings: [PredicateGroup] {
        var groups: [PredicateGroup] = []
        for column in ["stringCol", "optString"] {
            for op in ["==", "!=", "BEGINSWITH", "CONTAINS", "ENDSWITH", "LIKE"] {
                for options in ["", "[c]", "[d]", "[cd]"] {
                    groups.append(PredicateGroup("strings: \(column) \(op)\(options)", needles.map {
                        ("\(column) \(op)\(options) %@", [.value(.string($0))])
                    }))
                }
            }
        }
        groups.append(PredicateGroup("strings: key paths and lists", [
            ("stringCol == optString", []), ("stringCol != optString", []), ("stringCol ==[c] optString", []),
            ("stringCol !=[cd] optString", []), ("stringCol BEGINSWITH optString", []), ("stringCol CONTAINS optString", []),
            ("stringCol ENDSWITH optString", []), ("stringCol LIKE optString", []), ("stringCol BEGINSWITH[c] optString", []),
            ("optString CONTAINS[d] stringCol", []), ("'émile' BEGINSWITH stringCol", []), ("'Émile' ENDSWITH[cd] optString", []),
            ("stringCol IN {'a', 'Émile', 'ß'}", []), ("stringCol IN[c] {'a', 'émile', 'STRASSE'}", []),
            ("stringCol IN[cd] %@", [.values([.string("EMILE"), .string("lodz")])]), ("optString IN {nil, 'abc'}", []),
            ("optString IN[c] {nil, 'ABC'}", []), ("optString == nil", []), ("optString ==[c] nil", []), ("optString != nil", []),
            ("stringCol == \"quote'\\\"\"", []), ("stringCol == 'tab\\there'", []), ("stringCol == 'e\\u0301mile'", []),
            ("stringCol == 'e\\u{301}mile'", []),
        ]))
        return groups
    }

    static var data: [PredicateGroup] {
        let needles: [Value] = [.data(Data()), .data(Data([0])), .data(Data([0, 1])), .data(Data([255])), .data(Data([0, 0])),
                                .data(Data("a%b".utf8)), .string("abc"), .string("B")]
        var cases: [(String, [QueryArgument])] = []
        for column in ["dataCol", "optData"] {
            for op in ["==", "!=", "BEGINSWITH", "CONTAINS", "ENDSWITH", "LIKE"] {
                cases += needles.map { ("\(column) \(op) %@", [.value($0)]) }
            }
            cases += [("\(column) LIKE '*'", []), ("\(column) LIKE '?'", []), ("\(column) LIKE 'a*c'", []),
                      ("\(column) LIKE %@", [.value(.data(Data([0, 0x3F])))]), ("\(column) LIKE %@", [.value(.data(Data([0x2A, 0])))])]
            cases += [("\(column) IN %@", [.values([.data(Data()), .data(Data([0, 1, 2]))])])]
        }
        cases += [("optData == nil", []), ("dataCol == optData", []), ("dataCol BEGINSWITH optData", []),
                  ("dataCol CONTAINS optData", []), ("dataCol ENDSWITH optData", []), ("dataCol == 'abc'", [])]
        return [PredicateGroup("data", cases)]
    }

    static var collections: [PredicateGroup] {
        let someDate = QueryArgument.value(.date(Date(timeIntervalSinceReferenceDate: 12345)))
        let lists: [(String, [QueryArgument])] = [
            ("ANY intList == 5", []), ("intList == 5", []), ("SOME intList > 40", []), ("ALL intList > 0", []),
            ("NONE intList < 0", []), ("5 IN intList", []), ("ANY intList IN {1, 5}", []), ("ALL intList IN {0, 1, 5, 42}", []),
            ("intList.@count == 2", []), ("intList.@count > 0", []), ("intList.@min == -1", []), ("intList.@max > 40", []),
            ("intList.@avg < 3", []), ("intList.@sum > 10", []), ("intList.@min == nil", []), ("intList.@avg != nil", []),
            ("ANY optIntList == nil", []), ("ALL optIntList != nil", []), ("NONE optIntList == nil", []), ("optIntList.@count == 3", []),
            ("optIntList.@max > 1", []), ("optIntList.@sum == 0", []), ("nil IN optIntList", []),
            ("ANY doubleList > 1", []), ("ALL doubleList < 100", []), ("ANY doubleList == %@", [.value(.double(.nan))]),
            ("doubleList.@sum > 1", []), ("doubleList.@min < 0", []), ("doubleList.@avg > 1", []), ("doubleList.@max == %@", [.value(.double(.infinity))]),
            ("ANY stringList BEGINSWITH[c] 'a'", []), ("ALL stringList CONTAINS[d] 'e'", []), ("NONE stringList ==[cd] 'emile'", []),
            ("'abc' IN stringList", []), ("ANY stringList IN[c] {'A', 'émile'}", []), ("ANY stringList LIKE[c] '*s?'", []),
            ("ANY optStringList == nil", []), ("ALL optStringList ==[c] 'a'", []), ("stringList.@count > 1", []),
            ("ANY dateList > %@", [someDate]), ("dateList.@max < %@", [someDate]), ("dateList.@min == nil", []),
            ("decimalList.@sum > 1", []), ("decimalList.@avg < 2", []), ("decimalList.@min == -3", []), ("decimalList.@max >= 100", []),
            ("ANY decimalList > 1.5", []), ("ALL decimalList <= 1.5", []), ("ANY dataList BEGINSWITH %@", [.value(.data(Data([0])))]),
            ("NONE dataList == %@", [.value(.data(Data()))]), ("ANY intList > intCol", []), ("ALL stringList != stringCol", []),
            ("ANY intList == optInt", []), ("optInt IN intList", []),
        ]
        let row3 = QueryArgument.value(.object(ObjectKey(4)))
        let links: [(String, [QueryArgument])] = [
            ("link.intCol > 5", []), ("link.optString == nil", []), ("link == nil", []), ("link != nil", []),
            ("link.link.stringCol BEGINSWITH[c] 'e'", []), ("link.optDouble != 1.5", []), ("link == %@", [row3]),
            ("link != %@", [row3]), ("link IN %@", [.values([.object(ObjectKey(1)), .object(ObjectKey(9)), .null])]),
            ("SELF == %@", [row3]), ("SELF != %@", [row3]), ("SELF IN %@", [.values([.object(ObjectKey(2)), .object(ObjectKey(5))])]),
            ("link.link == %@", [row3]), ("link.decimalCol > 1.5", []), ("link.optDecimal == nil", []),
            ("link.stringCol ==[cd] stringCol", []), ("link.intCol == intCol", []), ("link == link.link", []),
            ("ANY links.intCol > 5", []), ("ALL links.stringCol CONTAINS 'a'", []), ("NONE links.link.optInt == nil", []),
            ("ANY links.link.optString ==[c] 'ABC'", []), ("ANY links == %@", [row3]), ("%@ IN links", [row3]),
            ("NONE links == %@", [row3]), ("ALL links != link", []), ("ANY links.links.intCol == 5", []),
            ("ANY links.intList == 5", []), ("ALL links.intList > 0", []), ("ANY link.links.boolCol == true", []),
            ("links.@count > 1", []), ("links.@count == 0", []), ("links.@avg.doubleCol > 1", []), ("links.@sum.floatCol > 5", []),
            ("links.@max.decimalCol > 1.5", []), ("links.@min.dateCol < %@", [someDate]), ("links.@min.optInt == nil", []),
            ("links.intList.@count > 2", []), ("links.intList.@max == 42", []), ("link.links.@count == 2", []),
            ("link.intList.@sum > 5", []), ("links.@avg.optDecimal > 0", []),
            ("ANY linkedFrom.intCol > 1", []), ("linkedFrom.@count == 0", []), ("linkedFrom.@count > 1", []),
            ("ALL linkedFrom.optString != nil", []), ("ANY linkedFrom.links == SELF", []),
            ("ANY links.linkedFrom.stringCol ==[d] 'emile'", []),
        ]
        let subqueries: [(String, [QueryArgument])] = [
            ("SUBQUERY(links, $x, $x.intCol > 1).@count > 0", []),
            ("SUBQUERY(links, $x, $x.stringCol ==[cd] 'emile').@count == 1", []),
            ("SUBQUERY(links, $x, ANY $x.intList > 3).@count >= 1", []),
            ("SUBQUERY(links, $x, SUBQUERY($x.links, $y, $y.boolCol == true).@count > 0).@count > 0", []),
            ("SUBQUERY(linkedFrom, $x, $x.optInt != nil).@count < 2", []),
            ("SUBQUERY(links, $x, $x == %@).@count == 1", [row3]),
            ("SUBQUERY(links, $x, $x.link.optString BEGINSWITH[c] 'A' OR $x.decimalCol < 1).@count >= 1", []),
            ("SUBQUERY(link.links, $x, TRUEPREDICATE).@count == 2", []),
            ("SUBQUERY(links, $x, NOT $x.intList.@count > 1).@count == 0", []),
            ("1 < SUBQUERY(links, $x, $x.boolCol == false).@count", []),
        ]
        return [PredicateGroup("lists of values", lists), PredicateGroup("links and lists of objects", links),
                PredicateGroup("subqueries", subqueries)]
    }

    static var compound: [PredicateGroup] {
        [PredicateGroup("compound predicates", [
            ("intCol > 5 AND NOT stringCol BEGINSWITH[c] 'a' OR optInt == nil", []),
            ("NOT (optString ==[cd] 'EMILE' OR decimalCol > 1.5)", []),
            ("!(floatCol > 1) && (optDouble <= 5 || boolCol == true)", []),
            ("TRUEPREDICATE", []), ("FALSEPREDICATE", []), ("NOT TRUEPREDICATE", []), ("NOT FALSEPREDICATE", []),
            ("NOT NOT (optInt > 2)", []), ("NOT (optInt > 2 AND optDouble < 1)", []),
            ("(stringCol CONTAINS[c] 'e' OR stringCol CONTAINS[d] 'o') AND NOT (optString == nil)", []),
            ("NOT (ANY intList > 3) OR NOT (ALL links.intCol > 0)", []),
            ("optString !=[c] 'abc' AND optFloat != 0", []),
            ("NOT stringCol LIKE[cd] '*e*' AND NOT decimalCol BETWEEN {0, 2}", []),
            ("name == 'row3' OR name == 'row7' OR (intCol == 5 AND link.name BEGINSWITH 'row1')", []),
            ("any intList == 5 and not boolCol == true or falsepredicate", []),
        ])]
    }
}
