import Foundation
import RealmCore
import RealmQuery
import Testing

/// Comparisons of mixed values with constants, which SQL narrows by the
/// storage classes and tags of the stored forms before the post-filter
/// decides: every stored value of every type against every constant,
/// with every operator, in every form (a property, either side, under NOT,
/// ANY/ALL/NONE of a list, a set's members, a map's value, IN, BETWEEN),
/// must select what the post-filter alone selects.
@Suite struct MixedNarrowingTests {
    static let schema = Schema([
        ObjectSchema(name: "Thing", properties: [
            Property(name: "name", type: .string),
            Property(name: "mixed", type: .mixed, isOptional: true),
            Property(name: "anyList", type: .mixed, isOptional: true, isList: true),
            Property(name: "anySet", type: .mixed, isOptional: true, isSet: true),
            Property(name: "anyMap", type: .mixed, isOptional: true, isMap: true),
        ]),
    ])

    /// Values of every type, with the ones whose stored forms are unusual:
    /// NaN and -0.0 (BLOBs, or a second stored form of zero), integers a
    /// double cannot hold, a float that is no double literal, decimals of
    /// one value in two spellings, strings with a NUL and non-ASCII bytes.
    static let values: [Value] = [
        .null, .int(0), .int(1), .int(-1), .int(.max), .int(.min), .int(9_007_199_254_740_993),
        .double(0), .double(-0.0), .double(1), .double(0.5), .double(0.1), .double(.nan), .double(.infinity), .double(-.infinity),
        .double(9.223372036854776e18), .double(9_007_199_254_740_992),
        .float(1), .float(0.1), .float(.nan), .float(-0.0), .float(-.infinity),
        .decimal(Decimal128(1)), .decimal(Decimal128(exactText: "1.00")!), .decimal(Decimal128(exactText: "0.5")!),
        .decimal(Decimal128(exactText: "0.1")!), .decimal(Decimal128(exactText: "NaN")!), .decimal(Decimal128(exactText: "-Inf")!),
        .bool(true), .bool(false),
        .string(""), .string("a"), .string("b"), .string("a\0b"), .string("é"), .string("1"),
        .data(Data()), .data(Data("a".utf8)), .data(Data([0x66, 0x00])),
        .date(Date(timeIntervalSinceReferenceDate: 0)), .date(Date(timeIntervalSinceReferenceDate: -0.0)),
        .date(Date(timeIntervalSinceReferenceDate: 1_000)), .date(Date(timeIntervalSinceReferenceDate: -5)),
        .objectId(ObjectId(string: "5f0a1b2c3d4e5f6a7b8c9d0e")!), .objectId(ObjectId(string: "000000000000000000000001")!),
        .uuid(UUID(uuidString: "6E9B5F4A-0C4B-4E3D-9C1A-2B3C4D5E6F70")!),
    ]

    static let operators = ["==", "!=", "<", "<=", ">", ">="]

    /// A Realm with one object per value, whose collections hold it and two
    /// others, and an object linked to from a mixed value.
    private func realm() throws -> TestRealm {
        let realm = try TestRealm(schema: Self.schema)
        let values = Self.values
        try realm.transaction.write {
            let handle = try realm.transaction.classHandle(named: "Thing")
            let list = try realm.transaction.propertyIndex(named: "anyList", in: handle)
            let set = try realm.transaction.propertyIndex(named: "anySet", in: handle)
            let map = try realm.transaction.propertyIndex(named: "anyMap", in: handle)
            for (index, value) in values.enumerated() {
                let key = try realm.create("Thing", ["name": .string("v\(index)"), "mixed": value])
                let others = [values[(index + 7) % values.count], values[(index + 19) % values.count]]
                let listHandle = try realm.transaction.list(list, of: key, in: handle)
                for element in [value] + others { try realm.transaction.append(element, to: listHandle) }
                let setHandle = ListHandle(owningClass: handle, owner: key, property: set)
                for element in [value] + others { _ = try realm.transaction.insert(element, intoSet: setHandle) }
                let mapHandle = ListHandle(owningClass: handle, owner: key, property: map)
                try realm.transaction.setValue(value, forKey: "k", in: mapHandle)
                try realm.transaction.setValue(others[0], forKey: "j", in: mapHandle)
            }
            // A mixed link: no constant names it, and every comparison
            // must still leave it where the post-filter does.
            let linked = try realm.create("Thing", ["name": .string("link")])
            try realm.create("Thing", ["name": .string("linking"), "mixed": .link(className: "Thing", key: linked)])
        }
        return realm
    }

    /// Runs `format` both ways; false when the post-filter refuses it (a
    /// comparison the type checker does not allow), in which case the SQL
    /// path must refuse it too.
    @discardableResult
    private func check(_ realm: TestRealm, _ format: String, _ arguments: [QueryArgument],
                       sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Bool {
        let query = try realm.query("Thing", format, arguments)
        var forced = query
        forced.evaluation = .postFilterOnly
        let reference: [ObjectKey]
        do {
            reference = try forced.objectKeys(in: realm.transaction)
        } catch {
            #expect(throws: (any Error).self, "\(format) \(arguments)", sourceLocation: sourceLocation) {
                try query.objectKeys(in: realm.transaction)
            }
            return false
        }
        let automatic = try query.objectKeys(in: realm.transaction)
        #expect(automatic == reference, "SQL and post-filter disagree on \(format) with \(arguments)", sourceLocation: sourceLocation)
        #expect(try query.count(in: realm.transaction) == reference.count, "count of \(format) with \(arguments)",
                sourceLocation: sourceLocation)
        return true
    }

    @Test func everyValueAgainstEveryConstant() throws {
        let realm = try realm()
        var checked = 0
        for constant in Self.values {
            for op in Self.operators {
                for form in ["mixed \(op) %@", "%@ \(op) mixed", "NOT mixed \(op) %@", "ANY anyList \(op) %@", "ALL anyList \(op) %@",
                             "NONE anyList \(op) %@", "ANY anySet \(op) %@", "anyMap['k'] \(op) %@", "NOT anyMap['j'] \(op) %@",
                             "ANY anyMap \(op) %@"] {
                    if try check(realm, form, [.value(constant)]) { checked += 1 }
                }
            }
        }
        // Every comparison is valid but an ordering against nil, which
        // the type checker refuses (four operators, ten forms).
        #expect(checked == Self.values.count * Self.operators.count * 10 - 4 * 10)
    }

    @Test func inAndBetween() throws {
        let realm = try realm()
        var checked = 0
        for (index, low) in Self.values.enumerated() {
            for high in Self.values[index...] {
                for form in ["mixed BETWEEN {%@, %@}", "NOT mixed BETWEEN {%@, %@}", "ANY anyList BETWEEN {%@, %@}"] {
                    if try check(realm, form, [.value(low), .value(high)]) { checked += 1 }
                }
            }
            let members = [low, Self.values[(index + 5) % Self.values.count], Self.values[(index + 23) % Self.values.count]]
            for form in ["mixed IN %@", "NOT mixed IN %@", "ALL anyList IN %@", "anyMap['k'] IN %@"] {
                if try check(realm, form, [.values(members)]) { checked += 1 }
            }
        }
        #expect(checked > 0)
    }

    /// Mixed comparisons inside AND, OR and NOT, beside exact conditions
    /// and each other: a count adds up in SQL the rows SQL vouches for and
    /// tests the others, so what it vouches for in a combination must be
    /// exactly what it is in each part. 3,000 random predicates.
    @Test func compoundConditions() throws {
        let realm = try realm()
        var random = FuzzTests.Random(state: 38)
        func atom(_ arguments: inout [QueryArgument]) -> String {
            let constant = Self.values.randomElement(using: &random)!
            let op = Self.operators.randomElement(using: &random)!
            switch Int.random(in: 0..<8, using: &random) {
            case 0:
                arguments.append(.value(.string("v\(Int.random(in: 0..<Self.values.count, using: &random))")))
                return ["name == %@", "name < %@", "name != %@"].randomElement(using: &random)!
            case 1:
                return "name BEGINSWITH 'v\(Int.random(in: 1...4, using: &random))'"
            case 2:
                arguments.append(.value(constant))
                return "ANY anyList \(op) %@"
            case 3:
                arguments.append(.value(constant))
                return "anyMap['k'] \(op) %@"
            case 4:
                arguments += [.value(constant), .value(Self.values.randomElement(using: &random)!)]
                return "mixed BETWEEN {%@, %@}"
            default:
                arguments.append(.value(constant))
                return "mixed \(op) %@"
            }
        }
        func predicate(depth: Int, _ arguments: inout [QueryArgument]) -> String {
            if depth == 0 || Int.random(in: 0..<3, using: &random) == 0 { return atom(&arguments) }
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                return "NOT (" + predicate(depth: depth - 1, &arguments) + ")"
            case 1, 2:
                let parts = (0..<Int.random(in: 2...3, using: &random)).map { _ in predicate(depth: depth - 1, &arguments) }
                return "(" + parts.joined(separator: " AND ") + ")"
            default:
                let parts = (0..<Int.random(in: 2...3, using: &random)).map { _ in predicate(depth: depth - 1, &arguments) }
                return "(" + parts.joined(separator: " OR ") + ")"
            }
        }
        var checked = 0
        for _ in 0..<3_000 {
            var arguments: [QueryArgument] = []
            let format = predicate(depth: 3, &arguments)
            if try check(realm, format, arguments) { checked += 1 }
        }
        // Orderings against nil are refused; most predicates hold none.
        #expect(checked > 2_000)
    }

    /// The narrowing is in the SQL: the post-filter no longer reads every
    /// object.
    @Test func sqlNarrowsTheCandidates() throws {
        let cases: [(String, Value, String)] = [
            ("mixed == %@", .int(5), #""mixed" = ? OR "mixed" >= x'66' AND "mixed" < x'67' OR "mixed" >= x'6d' AND "mixed" < x'6e'"#),
            ("mixed == %@", .string("a"), #""mixed" = ?"#),
            ("mixed == %@", .bool(true), #""mixed" = ?"#),
            ("mixed > %@", .string("a"), #""mixed" > ? AND "mixed" < x''"#),
            ("mixed < %@", .double(2.5), #""mixed" < ? OR "mixed" >= x'66'"#),
            ("mixed == %@", .null, #""mixed" IS NULL OR "mixed" >= x'4c' AND "mixed" < x'4d'"#),
        ]
        for (format, constant, expected) in cases {
            let query = try Query(className: "Thing", predicate: PredicateParser.parse(format, arguments: [.value(constant)]))
            let sql = try query.compiledSQL(schema: Self.schema).sql
            #expect(sql.contains(expected), "\(format) \(constant): \(sql)")
        }
        // The candidates statement says which rows the post-filter must
        // test: here the floats and decimals, not the numbers SQL matched.
        let query = try Query(className: "Thing", predicate: PredicateParser.parse("mixed == %@", arguments: [.value(.int(5))]))
        let candidates = try query.compiledSQL(schema: Self.schema).sql
        #expect(candidates.contains(#", ("mixed" >= x'66' AND "mixed" < x'67' OR "mixed" >= x'6d' AND "mixed" < x'6e') FROM"#), "\(candidates)")
        // What SQL cannot narrow stays whole: type names, string options.
        for format in ["mixed.@type == 'int'", "mixed ==[c] 'a'"] {
            let query = try Query(className: "Thing", predicate: PredicateParser.parse(format))
            let sql = try query.compiledSQL(schema: Self.schema).sql
            #expect(!sql.contains("WHERE"), "\(format): \(sql)")
        }
    }
}
