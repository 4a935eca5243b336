import Foundation
import RealmCore
@testable import RealmQuery
import Testing

/// A format string is parsed once per shapes of its arguments, and a query
/// is planned once per shape when its SQL holds each constant as one
/// parameter. Reused parses and plans must mean exactly what fresh ones do.
@Suite struct ReuseTests {
    // MARK: Parses

    /// Parses `format` with each argument list in turn (the later ones reuse
    /// the first parse where they can) and expects what a fresh parse gives.
    private func expectFreshParses(_ format: String, _ argumentLists: [[QueryArgument]],
                                   sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        for arguments in argumentLists + argumentLists.reversed() {
            let fresh = try PredicateParser.parseAfresh(format, arguments: arguments)
            let reused = try PredicateParser.parse(format, arguments: arguments)
            #expect(reused == fresh, "\(format) with \(arguments)", sourceLocation: sourceLocation)
            #expect(reused.description == fresh.description, sourceLocation: sourceLocation)
        }
    }

    @Test func valuesTakeTheirPlaces() throws {
        try expectFreshParses("name == %@", [[.value(.string("a"))], [.value(.string("b"))], [.value(.null)], [.value(.int(3))]])
        try expectFreshParses("age > 3 AND name == %@ AND weight < 2.5 OR name BEGINSWITH %@",
                              [[.value(.string("a")), .value(.string("b"))], [.value(.string("c")), .value(.string("a"))]])
        try expectFreshParses("%@ < age", [[.value(.int(1))], [.value(.int(7))]])
        try expectFreshParses("NOT (age BETWEEN {%@, 9})", [[.value(.int(1))], [.value(.int(2))]])
        try expectFreshParses("age IN %@", [[.values([.int(1), .int(2)])], [.values([.int(5), .int(6), .int(7)])], [.values([])]])
    }

    @Test func positionalArgumentsAndConversions() throws {
        try expectFreshParses("$0 == name OR $1 == color OR $0 == color",
                              [[.value(.string("a")), .value(.string("b"))], [.value(.string("x")), .value(.string("y"))]])
        try expectFreshParses("age > %f", [[.value(.int(3))], [.value(.int(4))], [.value(.double(2.5))], [.value(.float(1.5))]])
        try expectFreshParses("age == %d AND weight > %f", [[.value(.int(3)), .value(.int(1))], [.value(.int(-2)), .value(.double(0.5))]])
    }

    @Test func keyPathArgumentsShapeThePredicate() throws {
        try expectFreshParses("%K == %@", [
            [.value(.string("name")), .value(.string("x"))],
            [.value(.string("color")), .value(.string("y"))],
            [.keyPath("owner.name"), .value(.string("z"))],
            [.keyPath("name"), .value(.string("w"))],
        ])
        try expectFreshParses("%@ == %@", [
            [.keyPath("name"), .value(.string("x"))],
            [.keyPath("color"), .value(.string("x"))],
            [.value(.string("x")), .keyPath("name")],
        ])
        try expectFreshParses("owner.%K > %d", [[.value(.string("age")), .value(.int(1))], [.value(.string("weight")), .value(.int(2))]])
    }

    @Test func subqueriesAndLists() throws {
        try expectFreshParses("SUBQUERY(dogs, $d, $d.age > %@ AND $d.name == 'Rex').@count == %d AND name != %@",
                              [[.value(.int(1)), .value(.int(2)), .value(.string("a"))],
                               [.value(.int(5)), .value(.int(0)), .value(.string("b"))]])
        // A list with arguments among its elements is parsed each time.
        try expectFreshParses("age IN {1, %@, 3}", [[.value(.int(2))], [.value(.int(5))]])
        try expectFreshParses("name IN {'a', 'b'} AND age == %@", [[.value(.int(2))], [.value(.int(5))]])
    }

    @Test func errorsStayErrors() throws {
        _ = try PredicateParser.parse("age > %d", arguments: [.value(.int(1))])
        #expect(throws: QueryError.self) { try PredicateParser.parse("age > %d", arguments: [.value(.string("x"))]) }
        #expect(throws: QueryError.self) { try PredicateParser.parse("age > %d", arguments: [.value(.int(1)), .value(.int(2))]) }
        #expect(throws: QueryError.self) { try PredicateParser.parse("age > %d", arguments: []) }
        _ = try PredicateParser.parse("%K == 1", arguments: [.value(.string("age"))])
        #expect(throws: QueryError.self) { try PredicateParser.parse("%K == 1", arguments: [.value(.string("a..b"))]) }
    }

    // MARK: Plans

    /// Runs `format` over the AllTypes fixture with each argument list, and
    /// expects the keys and count of the Swift evaluator, and the SQL and
    /// arguments a fresh plan has.
    private func expectFreshPlans(_ format: String, _ argumentLists: [[QueryArgument]], source: Query.Source = .table,
                                  in transaction: Transaction,
                                  sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        for arguments in argumentLists + argumentLists.reversed() {
            let query = Query(className: "AllTypes", source: source, predicate: try PredicateParser.parse(format, arguments: arguments))
            let note = Comment(rawValue: "\(format) with \(arguments)")
            guard let fresh = try? QueryPlanner(query, in: transaction).plan() else {
                // An ill-typed comparison fails however often its shape ran.
                #expect(throws: QueryError.self, note, sourceLocation: sourceLocation) { try query.objectKeys(in: transaction) }
                continue
            }
            var reference = query
            reference.evaluation = .postFilterOnly
            let expected = try reference.objectKeys(in: transaction)
            #expect(try query.objectKeys(in: transaction) == expected, note, sourceLocation: sourceLocation)
            #expect(try query.count(in: transaction) == expected.count, note, sourceLocation: sourceLocation)
            let used = try query.plan(in: transaction)
            #expect(used.keysStatement().sql == fresh.keysStatement().sql, note, sourceLocation: sourceLocation)
            let (usedArguments, freshArguments) = (used.keysStatement().arguments, fresh.keysStatement().arguments)
            #expect(usedArguments.count == freshArguments.count
                    && zip(usedArguments, freshArguments).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) },
                    note, sourceLocation: sourceLocation)
            // A rebound plan builds its condition on demand, from its
            // template's and its own constants. (NaN equals nothing, itself
            // included, so a condition holding one equals no other.)
            let hasNaN = arguments.contains { if case .value(let value) = $0 { value.isNaN } else { false } }
            #expect(hasNaN || used.condition == fresh.condition, note, sourceLocation: sourceLocation)
        }
    }

    @Test func reboundPlansMatchFreshOnes() throws {
        let (transaction, keys) = try AllTypes.open()
        let ints: [[QueryArgument]] = [[.value(.int(5))], [.value(.int(42))], [.value(.int(-1))], [.value(.int(.min))], [.value(.null)],
                                       [.value(.double(5))], [.value(.double(5.5))]]
        try expectFreshPlans("intCol == %@", ints, in: transaction)
        try expectFreshPlans("intCol != %@", ints, in: transaction)
        try expectFreshPlans("optInt == %@", ints, in: transaction)
        try expectFreshPlans("%@ < intCol", ints.filter { $0 != [.value(.null)] }, in: transaction)
        try expectFreshPlans("doubleCol > %@", [[.value(.double(1.5))], [.value(.double(.nan))], [.value(.int(2))],
                                                 [.value(.double(-.infinity))], [.value(.float(0.5))]], in: transaction)
        try expectFreshPlans("floatCol <= %@", [[.value(.float(3.25))], [.value(.double(3.25))], [.value(.float(.nan))]], in: transaction)
        try expectFreshPlans("stringCol == %@", AllTypes.strings.prefix(12).map { [.value(.string($0))] }, in: transaction)
        try expectFreshPlans("stringCol ==[c] %@", [[.value(.string("a"))], [.value(.string("ÉMILE"))]], in: transaction)
        try expectFreshPlans("stringCol != %@ AND intCol < %@ OR NOT (optString == %@)",
                             [[.value(.string("a")), .value(.int(5)), .value(.string("abc"))],
                              [.value(.string("")), .value(.int(100)), .value(.null)],
                              [.value(.string("ABC")), .value(.int(-1)), .value(.string("a"))]], in: transaction)
        try expectFreshPlans("boolCol == %@", [[.value(.bool(true))], [.value(.bool(false))], [.value(.int(1))], [.value(.int(0))]],
                             in: transaction)
        try expectFreshPlans("objectIdCol == %@", [[.value(.objectId(AllTypes.objectId(1)))], [.value(.objectId(AllTypes.objectId(2)))],
                                                   [.value(.string(AllTypes.objectId(3).stringValue))]], in: transaction)
        try expectFreshPlans("uuidCol == %@ OR dataCol == %@",
                             [[.value(.uuid(AllTypes.uuid(1))), .value(.data(Data([0])))],
                              [.value(.uuid(AllTypes.uuid(2))), .value(.data(Data()))]], in: transaction)
        try expectFreshPlans("dateCol >= %@", AllTypes.dates.prefix(4).map { [.value(.date(Date(timeIntervalSinceReferenceDate: $0)))] },
                             in: transaction)
        try expectFreshPlans("decimalCol < %@", [[.value(.decimal(1))], [.value(.decimal(Decimal128(exactText: "1.5")!))]], in: transaction)
        try expectFreshPlans("link.intCol == %@ AND link.stringCol != %@",
                             [[.value(.int(5)), .value(.string("a"))], [.value(.int(42)), .value(.string(""))]], in: transaction)
        try expectFreshPlans("link == %@", [[.value(.object(keys[0]))], [.value(.object(keys[3]))], [.value(.null)]], in: transaction)
        try expectFreshPlans("intCol IN %@", [[.values([.int(5), .int(42)])], [.values([.int(5), .int(5), .null])]], in: transaction)
        try expectFreshPlans("ANY intList == %@", [[.value(.int(5))], [.value(.int(42))]], in: transaction)
        try expectFreshPlans("SUBQUERY(links, $l, $l.intCol > %@).@count > %@",
                             [[.value(.int(0)), .value(.int(0))], [.value(.int(5)), .value(.int(1))]], in: transaction)
        for owner in keys.prefix(6) {
            try expectFreshPlans("intCol > %@", [[.value(.int(0))], [.value(.int(-1))]],
                                 source: .list(ownerClass: "AllTypes", property: "links", owner: owner), in: transaction)
            try expectFreshPlans("intCol > %@", [[.value(.int(0))], [.value(.int(-1))]],
                                 source: .linkingObjects(sourceProperty: "links", target: owner), in: transaction)
        }
    }

    /// Copies of a query share its plan; a changed copy plans again.
    @Test func copiesShareThePlanUntilChanged() throws {
        let (transaction, _) = try AllTypes.open()
        let query = Query(className: "AllTypes", predicate: try PredicateParser.parse("intCol > 5 AND stringCol ==[c] 'a'"))
        let copy = query
        #expect(try query.plan(in: transaction) === copy.plan(in: transaction))
        var sorted = copy
        sorted.sort = [SortDescriptor(keyPath: "intCol")]
        #expect(try sorted.plan(in: transaction) !== query.plan(in: transaction))
        #expect(try sorted.plan(in: transaction).keysStatement().sql != query.plan(in: transaction).keysStatement().sql)
        var refiltered = copy
        refiltered.predicate = try PredicateParser.parse("intCol > 6")
        #expect(try refiltered.plan(in: transaction).keysStatement().arguments != query.plan(in: transaction).keysStatement().arguments)
        #expect(query.hasSameDefinition(as: copy) && !query.hasSameDefinition(as: refiltered))
    }

    @Test func oneShapeSharesOnePlan() throws {
        let (transaction, _) = try AllTypes.open()
        func plan(_ format: String, _ arguments: [QueryArgument]) throws -> QueryPlan {
            try Query(className: "AllTypes", predicate: PredicateParser.parse(format, arguments: arguments)).plan(in: transaction)
        }
        let format = "optInt == %@ AND stringCol != %@ AND link.doubleCol < %@"
        let first = try plan(format, [.value(.int(5)), .value(.string("a")), .value(.double(1))])
        let second = try plan(format, [.value(.int(42)), .value(.string("b")), .value(.double(2))])
        #expect(first.shape === second.shape)
        #expect(second.keysStatement().arguments == [.int(42), .string("b"), .double(2)])
        #expect(first.keysStatement().arguments == [.int(5), .string("a"), .double(1)])
        // Another kind of constant is another shape.
        let withNil = try plan(format, [.value(.null), .value(.string("a")), .value(.double(1))])
        #expect(withNil.shape !== first.shape)
        // A folded comparison is planned each time.
        let folded = try plan("stringCol ==[c] %@", [.value(.string("a"))])
        #expect(try plan("stringCol ==[c] %@", [.value(.string("b"))]).shape !== folded.shape)
        // So is one with a long constant, which the cache would keep alive.
        let long = String(repeating: "x", count: 300)
        let withLong = try plan("stringCol == %@", [.value(.string(long))])
        #expect(try plan("stringCol == %@", [.value(.string(long + "y"))]).shape !== withLong.shape)
        #expect(try plan("stringCol == %@", [.value(.string("x"))]).shape === plan("stringCol == %@", [.value(.string("y"))]).shape)
    }

    /// Which plans serve other constants: those whose SQL holds each
    /// constant as one parameter, whatever its value.
    @Test func onlyValueBlindPlansAreTemplates() throws {
        let (transaction, _) = try AllTypes.open()
        func isTemplate(_ format: String, _ arguments: [QueryArgument] = []) throws -> Bool {
            let predicate = try PredicateParser.parse(format, arguments: arguments)
            let plan = try QueryPlanner(Query(className: "AllTypes", predicate: predicate), in: transaction).plan()
            let values = predicate.constants.compactMap { constant -> Value? in
                if case .value(let value) = constant { return value }
                return nil
            }
            return PlanTemplate(plan, constants: values) != nil
        }
        for format in ["intCol == 5", "intCol != 5", "5 < intCol", "stringCol == 'a' AND link.intCol < 3", "NOT (doubleCol >= 1.5)",
                       "link.link.stringCol == 'a' OR name == 'b'", "intCol == optInt", "TRUEPREDICATE", "intCol == 5.5"] {
            #expect(try isTemplate(format), "\(format)")
        }
        for format in ["stringCol ==[c] 'a'", "boolCol == 1", "optInt == nil", "intCol IN {1, 2}", "ANY intList == 1",
                       "decimalCol < 1", "floatCol < 1.5", "stringCol BEGINSWITH 'a'", "intCol BETWEEN {1, 2}",
                       "links.@count > 1"] {
            #expect(try !isTemplate(format), "\(format)")
        }
        #expect(try !isTemplate("doubleCol < %@", [.value(.double(.nan))]))
        #expect(try isTemplate("doubleCol < %@", [.value(.double(1))]))
    }

    /// Random predicates of comparisons with arguments, each run with
    /// several random argument lists.
    @Test func randomArgumentsAgree() throws {
        let (transaction, _) = try AllTypes.open()
        var random = FuzzTests.Random(state: 11)
        let paths: [(String, [Value])] = [
            ("intCol", AllTypes.ints.map(Value.int) + [.null]),
            ("optInt", AllTypes.ints.map(Value.int) + [.null]),
            ("doubleCol", AllTypes.doubles.map(Value.double) + [.int(5)]),
            ("stringCol", AllTypes.strings.map(Value.string)),
            ("optString", AllTypes.strings.map(Value.string) + [.null]),
            ("link.intCol", AllTypes.ints.map(Value.int)),
            ("boolCol", [.bool(true), .bool(false)]),
        ]
        let operators = ["==", "!=", "<", "<=", ">", ">=", "==[c]"]
        for _ in 0..<60 {
            var parts: [String] = []
            var pools: [[Value]] = []
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let (path, pool) = paths.randomElement(using: &random)!
                var op = operators.randomElement(using: &random)!
                if op == "==[c]" && !path.lowercased().contains("string") { op = "==" }
                parts.append(Bool.random(using: &random) ? "\(path) \(op) %@" : "NOT (\(path) \(op) %@)")
                pools.append(pool)
            }
            let format = parts.joined(separator: Bool.random(using: &random) ? " AND " : " OR ")
            let argumentLists = (0..<4).map { _ in pools.map { QueryArgument.value($0.randomElement(using: &random)!) } }
            try expectFreshPlans(format, argumentLists, in: transaction)
        }
    }
}
