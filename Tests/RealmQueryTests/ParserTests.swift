import Foundation
import RealmCore
import RealmQuery
import Testing

@Suite struct ParserTests {
    private func parse(_ format: String, _ arguments: [QueryArgument] = []) throws -> Predicate {
        try PredicateParser.parse(format, arguments: arguments)
    }

    private func comparison(_ left: QueryExpression, _ op: ComparisonOperator, _ right: QueryExpression,
                            _ modifier: ComparisonModifier = .direct, _ options: StringOptions = []) -> Predicate {
        .comparison(Comparison(left, op, right, modifier: modifier, options: options))
    }

    // MARK: Structure

    @Test func comparisonOperators() throws {
        let spellings: [(String, ComparisonOperator)] = [
            ("==", .equal), ("=", .equal), ("!=", .notEqual), ("<>", .notEqual), ("<", .lessThan), ("<=", .lessThanOrEqual),
            ("=<", .lessThanOrEqual), (">", .greaterThan), (">=", .greaterThanOrEqual), ("=>", .greaterThanOrEqual),
            ("BEGINSWITH", .beginsWith), ("contains", .contains), ("EndsWith", .endsWith), ("like", .like),
        ]
        for (spelling, op) in spellings {
            #expect(try parse("age \(spelling) 5") == comparison(.keyPath("age"), op, .value(.int(5))), "\(spelling)")
        }
        #expect(try parse("age BETWEEN {1, 2}") == comparison(.keyPath("age"), .between, .values([.int(1), .int(2)])))
        #expect(try parse("name in {'a', \"b\"}") == comparison(.keyPath("name"), .in, .values([.string("a"), .string("b")])))
    }

    @Test func logicalOperatorsAndPrecedence() throws {
        let a = comparison(.keyPath("a"), .equal, .value(.int(1)))
        let b = comparison(.keyPath("b"), .equal, .value(.int(2)))
        let c = comparison(.keyPath("c"), .equal, .value(.int(3)))
        #expect(try parse("a = 1 AND b = 2 OR c = 3") == .or([.and([a, b]), c]))
        #expect(try parse("a = 1 || b = 2 && c = 3") == .or([a, .and([b, c])]))
        #expect(try parse("NOT a = 1 AND b = 2") == .and([.not(a), b]))
        #expect(try parse("!(a = 1 or b = 2)") == .not(.or([a, b])))
        // Two-valued logic: a double negation is the predicate itself.
        #expect(try parse("not not a = 1") == a)
        #expect(try parse("not not not a = 1") == .not(a))
        #expect(try parse("(a = 1 AND b = 2) AND c = 3") == .and([.and([a, b]), c]))
        #expect(try parse("a = 1 and b = 2 and c = 3") == .and([a, b, c]))
        #expect(try parse("TRUEPREDICATE") == .truePredicate)
        #expect(try parse("falsepredicate OR a = 1") == .or([.falsePredicate, a]))
    }

    @Test func literals() throws {
        let cases: [(String, Value)] = [
            ("42", .int(42)), ("-42", .int(-42)), ("1.5", .double(1.5)), ("-0.5", .double(-0.5)), ("1e3", .double(1000)),
            ("2.5E-1", .double(0.25)), ("0x1F", .int(31)), ("-9223372036854775808", .int(.min)),
            ("9223372036854775808", .double(9_223_372_036_854_775_808)), ("true", .bool(true)), ("YES", .bool(true)),
            ("FALSE", .bool(false)), ("no", .bool(false)), ("nil", .null), ("NULL", .null), ("Nil", .null),
            ("'single'", .string("single")), ("\"double\"", .string("double")), ("'it\\'s'", .string("it's")),
            ("\"say \\\"hi\\\"\"", .string("say \"hi\"")), ("'a\\nb\\tc\\\\d'", .string("a\nb\tc\\d")),
            ("'\\u00e9'", .string("é")), ("'\\u{1F600}'", .string("😀")), ("'Émile'", .string("Émile")), ("''", .string("")),
            ("'quote\"inside'", .string("quote\"inside")),
        ]
        for (literal, value) in cases {
            #expect(try parse("x == \(literal)") == comparison(.keyPath("x"), .equal, .value(value)), "\(literal)")
        }
    }

    @Test func keyPathsModifiersAndAggregates() throws {
        #expect(try parse("owner.name == 'x'") == comparison(.keyPath("owner.name"), .equal, .value(.string("x"))))
        #expect(try parse("ANY dogs.age > 1") == comparison(.keyPath("dogs.age"), .greaterThan, .value(.int(1)), .any))
        #expect(try parse("SOME dogs.age > 1") == comparison(.keyPath("dogs.age"), .greaterThan, .value(.int(1)), .any))
        #expect(try parse("all dogs.age > 1") == comparison(.keyPath("dogs.age"), .greaterThan, .value(.int(1)), .all))
        #expect(try parse("NONE dogs.age > 1") == comparison(.keyPath("dogs.age"), .greaterThan, .value(.int(1)), .none))
        #expect(try parse("dogs.@count > 5") == comparison(.collectionOperation(.count, collection: "dogs", property: nil), .greaterThan, .value(.int(5))))
        #expect(try parse("dogs.@AVG.age >= 2") == comparison(.collectionOperation(.average, collection: "dogs", property: "age"), .greaterThanOrEqual, .value(.int(2))))
        #expect(try parse("scores.@max < 5") == comparison(.collectionOperation(.max, collection: "scores", property: nil), .lessThan, .value(.int(5))))
        #expect(try parse("owner.dogs.@sum.toys.price > 1") == comparison(.collectionOperation(.sum, collection: "owner.dogs", property: "toys.price"), .greaterThan, .value(.int(1))))
        #expect(try parse("#in == 1") == comparison(.keyPath("in"), .equal, .value(.int(1))))
        #expect(try parse("owner.size == 1 AND owner.in == 2") == .and([
            comparison(.keyPath("owner.size"), .equal, .value(.int(1))), comparison(.keyPath("owner.in"), .equal, .value(.int(2))),
        ]))
        #expect(try parse("SELF == %@", [.value(.object(ObjectKey(3)))]) == comparison(.keyPath("SELF"), .equal, .value(.object(ObjectKey(3)))))
        #expect(try parse("名前 == 'x'") == comparison(.keyPath("名前"), .equal, .value(.string("x"))))
        #expect(try parse("name BEGINSWITH[c] 'a' AND name ENDSWITH[cd] 'b' AND name LIKE[d] 'c' AND name ==[DC] 'd'") == .and([
            comparison(.keyPath("name"), .beginsWith, .value(.string("a")), .direct, .caseInsensitive),
            comparison(.keyPath("name"), .endsWith, .value(.string("b")), .direct, [.caseInsensitive, .diacriticInsensitive]),
            comparison(.keyPath("name"), .like, .value(.string("c")), .direct, .diacriticInsensitive),
            comparison(.keyPath("name"), .equal, .value(.string("d")), .direct, [.caseInsensitive, .diacriticInsensitive]),
        ]))
    }

    @Test func subqueries() throws {
        let inner = comparison(.keyPath("$d.age"), .greaterThan, .value(.int(5)))
        #expect(try parse("SUBQUERY(dogs, $d, $d.age > 5).@count > 2")
            == comparison(.subqueryCount(collection: "dogs", variable: "d", predicate: inner), .greaterThan, .value(.int(2))))
        let nested = try parse("subquery(dogs, $d, SUBQUERY($d.toys, $t, $t.price < 3).@count == 0).@count == 1")
        guard case .comparison(let outer) = nested, case .subqueryCount(_, _, let predicate) = outer.left,
              case .comparison(let second) = predicate, case .subqueryCount(let collection, let variable, _) = second.left else {
            Issue.record("unexpected shape \(nested)")
            return
        }
        #expect(collection == "$d.toys" && variable == "t")
    }

    @Test func arguments() throws {
        #expect(try parse("name == %@ AND age > %d AND weight < %f", [.value(.string("x")), .value(.int(3)), .value(.double(1.5))]) == .and([
            comparison(.keyPath("name"), .equal, .value(.string("x"))),
            comparison(.keyPath("age"), .greaterThan, .value(.int(3))),
            comparison(.keyPath("weight"), .lessThan, .value(.double(1.5))),
        ]))
        #expect(try parse("%K == %@", [.keyPath("owner.name"), .value(.null)]) == comparison(.keyPath("owner.name"), .equal, .value(.null)))
        #expect(try parse("%K.name == 1", [.value(.string("owner"))]) == comparison(.keyPath("owner.name"), .equal, .value(.int(1))))
        #expect(try parse("age IN %@", [.values([.int(1), .int(2)])]) == comparison(.keyPath("age"), .in, .values([.int(1), .int(2)])))
        #expect(try parse("age BETWEEN %@", [.values([.int(1), .int(2)])]) == comparison(.keyPath("age"), .between, .values([.int(1), .int(2)])))
        #expect(try parse("age IN {%@, %d}", [.value(.int(1)), .value(.int(2))]) == comparison(.keyPath("age"), .in, .values([.int(1), .int(2)])))
        #expect(try parse("a == $1 AND b == $0 AND c == $1", [.value(.int(0)), .value(.int(1))]) == .and([
            comparison(.keyPath("a"), .equal, .value(.int(1))), comparison(.keyPath("b"), .equal, .value(.int(0))),
            comparison(.keyPath("c"), .equal, .value(.int(1))),
        ]))
        #expect(try parse("a == %i AND b == %ld AND c == %lld", [.value(.int(1)), .value(.int(2)), .value(.int(3))]) == .and([
            comparison(.keyPath("a"), .equal, .value(.int(1))), comparison(.keyPath("b"), .equal, .value(.int(2))),
            comparison(.keyPath("c"), .equal, .value(.int(3))),
        ]))
        #expect(try parse("x == %f", [.value(.int(2))]) == comparison(.keyPath("x"), .equal, .value(.double(2))))
        #expect(try parse("x == %@", [.keyPath("y")]) == comparison(.keyPath("x"), .equal, .keyPath("y")))
    }

    @Test func locationsPointIntoTheFormat() throws {
        guard case .comparison(let c) = try parse("  owner.agee  ==[c] 'x'"), let location = c.location else {
            Issue.record("no location")
            return
        }
        #expect(location.left == 2..<12)
        #expect(location.leftComponents == [2, 8])
        #expect(location.op == 14..<19)
        #expect(location.right == 20..<23)
        // Offsets count Characters, even after combining marks.
        guard case .comparison(let d) = try parse("'e\u{301}\u{301}' == x"), let other = d.location else { return }
        #expect(other.right == 7..<8)
    }

    // MARK: Round trips

    static let roundTripForms: [(String, [QueryArgument])] = [
        ("name == 'Rex'", []), ("age != 5", []), ("age < -5", []), ("age <= 1.5", []), ("age > 1e+20", []), ("age >= -0.0", []),
        ("age BETWEEN {1, 10}", []), ("name IN {'a', nil, \"b\"}", []), ("name BEGINSWITH[c] 'R'", []), ("name CONTAINS[d] 'é'", []),
        ("name ENDSWITH[cd] 'x'", []), ("name LIKE '?b*'", []), ("name ==[c] 'x' OR name !=[d] 'y'", []),
        ("flag == true AND other != false", []), ("owner == nil", []), ("owner.name == 'x'", []),
        ("ANY dogs.age > 3", []), ("ALL dogs.name BEGINSWITH 'B'", []), ("NONE dogs.age == 1", []), ("dogs.@count > 5", []),
        ("dogs.@min.age < 2", []), ("dogs.@max.age < 2", []), ("dogs.@sum.age == 10", []), ("dogs.@avg.age >= 2.5", []), ("scores.@avg > 1", []),
        ("SUBQUERY(dogs, $d, $d.age > 5 AND $d.name BEGINSWITH 'R').@count == 2", []),
        ("NOT (a == 1 OR b == 2) AND c == 3", []), ("(a == 1 AND b == 2) AND c == 3", []), ("NOT NOT a == 1", []),
        ("TRUEPREDICATE", []), ("FALSEPREDICATE", []), ("NOT TRUEPREDICATE OR FALSEPREDICATE", []),
        ("'x' IN tags", []), ("5 < age", []), ("#in == 1 AND #SELF == 2", []), ("SELF == %@", [.value(.object(ObjectKey(7)))]),
        ("date > %@", [.value(.date(Date(timeIntervalSinceReferenceDate: 1234.5)))]),
        ("data == %@", [.value(.data(Data([1, 2, 3])))]), ("id == %@", [.value(.objectId(ObjectId(string: "5f0000000000000000000001")!))]),
        ("uuid == %@", [.value(.uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!))]),
        ("price < %@", [.value(.decimal(Decimal128(exactText: "12345678901234567890.5")!))]), ("f > %@", [.value(.float(0.1))]),
        ("d > %@", [.value(.double(.infinity))]), ("x IN %@", [.values([.int(1), .date(Date(timeIntervalSinceReferenceDate: 0))])]),
        ("%K == 1", [.keyPath("weird name")]), ("owner.%K == 1", [.keyPath("with-dash")]), ("名前 == 'é\\n\"'", []),
        ("name == 'tab\\tand\\u{1}control'", []),
    ]

    @Test(arguments: roundTripForms.indices)
    func roundTrip(_ index: Int) throws {
        let (format, arguments) = Self.roundTripForms[index]
        let predicate = try parse(format, arguments)
        let (text, formattedArguments) = predicate.formatted()
        let reparsed = try parse(text, formattedArguments)
        #expect(reparsed == predicate, "\(format) → \(text)")
        // Printing is canonical: a second round prints the same.
        #expect(reparsed.formatted().format == text)
    }

    @Test func descriptionIsCanonical() throws {
        #expect(try parse("name   =   'Rex'  and age>5").description == "name == \"Rex\" AND age > 5")
        #expect(try parse("NOT(a=1||b=2)").description == "NOT (a == 1 OR b == 2)")
        #expect(try parse("any dogs.age < 2 && ! x = nil").description == "ANY dogs.age < 2 AND NOT (x == nil)")
        #expect(try parse("name beginswith[CD] 'é'").description == "name BEGINSWITH[cd] \"é\"")
        #expect(try parse("subquery(dogs,$d,$d.age>1).@count==0").description == "SUBQUERY(dogs, $d, $d.age > 1).@count == 0")
        #expect(try parse("d == %@", [.value(.date(Date(timeIntervalSinceReferenceDate: 2)))]).description == "d == date(2.0)")
        #expect(Predicate.and([]).description == "TRUEPREDICATE")
    }

    @Test func builtPredicatesEqualParsedOnes() throws {
        let built = Predicate.compare(.keyPath("age"), .greaterThan, .value(.int(2)))
            .and(.compare(.keyPath("name"), .beginsWith, .value(.string("B"))))
        #expect(built == (try parse("age > 2 AND name BEGINSWITH 'B'")))
        #expect(Predicate.truePredicate.and(built) == built)
        #expect(built.or(.falsePredicate) == built)
    }

    // MARK: Errors

    /// A malformed format, the start of the message expected, and the
    /// offset it must point at.
    static let malformed: [(String, [QueryArgument], String, Int?)] = [
        ("", [], "The predicate is empty", 0),
        ("name ==", [], "Expected a key path or a value but the predicate ends here", 7),
        ("name 'x'", [], "Expected an operator", 5),
        ("name == 'x", [], "Unterminated string literal", 8),
        ("name == \"x", [], "Unterminated string literal", 8),
        ("name == 'x\\q'", [], "Unknown escape sequence '\\q'", 10),
        ("name == 'x\\u12'", [], "Invalid Unicode escape", 10),
        ("(age > 5", [], "Expected ')' to close the '('", 8),
        ("age > 5)", [], "Unexpected ')' after a complete predicate", 7),
        ("age > 5 age < 3", [], "Unexpected 'age' after a complete predicate", 8),
        ("age >> 5", [], "Expected a key path or a value but found '>'", 5),
        ("age & 5", [], "Unexpected '&'", 4),
        ("age | 5", [], "Unexpected '|'", 4),
        ("age == 5 AND", [], "Expected a comparison but the predicate ends here", 12),
        ("age == 5 OR OR age == 3", [], "Expected a key path or a value but found the keyword 'OR'", 12),
        ("name MATCHES 'x'", [], "MATCHES (regular expressions) is not supported", 5),
        ("name BEGINSWITH[x] 'a'", [], "Unknown string option 'x'", 16),
        ("name BEGINSWITH[c 'a'", [], "Expected ']' to close the string options", 18),
        ("age >[c] 5", [], "String options [c] cannot modify '>'", 5),
        ("age == %@", [], "The format uses 1 placeholder argument but only 0 arguments were given", 7),
        ("age == %@ AND b == %@", [.value(.int(1))], "The format uses 2 placeholder arguments but only 1 argument was given", 19),
        ("age == 1", [.value(.int(1))], "1 argument was given but argument 0 (the value 1) is not used", nil),
        ("age == %d", [.value(.string("x"))], "%d expects an integer argument", 7),
        ("age == %f", [.value(.string("x"))], "%f expects a number argument", 7),
        ("%K == 1", [.value(.int(3))], "%K expects a key path argument", 0),
        ("%K == 1", [.keyPath("a..b")], "The key path argument 'a..b' for %K is malformed", 0),
        ("age == $2", [.value(.int(1))], "Argument $2 does not exist", 7),
        ("age == %x", [], "Unknown placeholder '%x'", 7),
        ("$d.age > 1", [], "Unknown variable '$d'", 0),
        ("SUBQUERY(dogs, d, d.age > 1).@count > 0", [], "Expected a variable such as $item", 15),
        ("SUBQUERY(dogs, $d, $d.age > 1) > 0", [], "SUBQUERY(…) must be followed by .@count", 31),
        ("SUBQUERY(dogs, $d, $d.age > 1).@sum > 0", [], "SUBQUERY(…) must be followed by .@count", 30),
        ("dogs.@count.age > 1", [], "@count ends a key path", 5),
        ("dogs.@median > 1", [], "Unknown collection operator '@median'", 5),
        ("dogs.@max.@min > 1", [], "A key path can have only one collection operator", 10),
        ("owner. == 1", [], "Expected a property name after '.'", 7),
        ("age == 12abc", [], "Malformed number '12a'", 7),
        ("age == 0x", [], "Expected hexadecimal digits after '0x'", 7),
        ("age == - 5", [], "A '-' must be written right before its number", 7),
        ("age IN {1, age}", [], "A list in '{ }' holds only values", 11),
        ("age IN {1 2}", [], "Expected ',' or '}' in the list", 10),
        ("age == ^", [], "Unexpected character '^'", 7),
        ("IN == 1", [], "Expected a key path or a value but found the keyword 'IN'; a property named in is written #IN", 0),
        ("age == 5 # x", [], "Expected a name after '#'", 9),
    ]

    @Test(arguments: malformed.indices)
    func malformedPredicates(_ index: Int) throws {
        let (format, arguments, message, offset) = Self.malformed[index]
        do {
            let predicate = try PredicateParser.parse(format, arguments: arguments)
            Issue.record("\(format) parsed as \(predicate)")
        } catch {
            #expect(error.message.hasPrefix(message), "\(format): \(error.message)")
            #expect(error.offset == offset, "\(format): offset \(String(describing: error.offset)) in \(error.annotated)")
            #expect(error.predicate == format)
            #expect(error.description == "\"\(format)\": \(error.message)")
        }
    }

    @Test func annotatedErrorDrawsACaret() throws {
        do {
            _ = try PredicateParser.parse("name == 'x' AND age >> 5")
        } catch {
            #expect(error.annotated == "name == 'x' AND age >> 5\n                     ^")
        }
    }
}
