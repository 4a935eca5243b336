import Foundation
import RealmCore
@testable import RealmQuery
import Testing

/// A thread's memo of the filters it wrote lately must give the predicate
/// and plan that parsing and planning afresh give, and must never serve an
/// entry to a filter of another class, format, shape or schema.
@Suite struct FilterMemoTests {
    /// Filters the whole AllTypes class by `format` with each argument list
    /// in turn, through one memo, and expects the predicate of a fresh
    /// parse, the SQL and arguments of a fresh plan, and the keys of the
    /// Swift evaluator.
    private func expectFreshFilters(_ format: String, _ argumentLists: [[QueryArgument]], memo: FilterMemo = FilterMemo(),
                                    in transaction: Transaction,
                                    sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let whole = Query(className: "AllTypes")
        for arguments in argumentLists + argumentLists.reversed() {
            let note = Comment(rawValue: "\(format) with \(arguments)")
            let filtered = try memo.filtered(whole, by: format, arguments: arguments, in: transaction)
            let fresh = Query(className: "AllTypes", predicate: try PredicateParser.parseAfresh(format, arguments: arguments))
            // NaN equals nothing, itself included; the descriptions tell.
            let hasNaN = arguments.contains { if case .value(let value) = $0 { value.isNaN } else { false } }
            #expect(hasNaN || filtered.predicate == fresh.predicate, note, sourceLocation: sourceLocation)
            #expect(filtered.predicate.description == fresh.predicate.description, note, sourceLocation: sourceLocation)
            let (used, planned) = (try filtered.plan(in: transaction), try QueryPlanner(fresh, in: transaction).plan())
            #expect(used.keysStatement().sql == planned.keysStatement().sql, note, sourceLocation: sourceLocation)
            let (usedArguments, freshArguments) = (used.keysStatement().arguments, planned.keysStatement().arguments)
            #expect(usedArguments.count == freshArguments.count
                    && zip(usedArguments, freshArguments).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) },
                    note, sourceLocation: sourceLocation)
            var reference = fresh
            reference.evaluation = .postFilterOnly
            #expect(try filtered.objectKeys(in: transaction) == reference.objectKeys(in: transaction), note, sourceLocation: sourceLocation)
        }
    }

    @Test func repeatedFiltersMatchFreshOnes() throws {
        let (transaction, keys) = try AllTypes.open()
        try expectFreshFilters("stringCol == %@", AllTypes.strings.prefix(12).map { [.value(.string($0))] }, in: transaction)
        try expectFreshFilters("optInt == %@", [[.value(.int(5))], [.value(.int(42))], [.value(.null)], [.value(.double(5.5))]],
                               in: transaction)
        try expectFreshFilters("doubleCol > %f", [[.value(.int(2))], [.value(.double(.nan))], [.value(.double(1.5))]], in: transaction)
        try expectFreshFilters("stringCol != %@ AND intCol < 10 OR NOT (optString == %@)",
                               [[.value(.string("a")), .value(.string("abc"))], [.value(.string("")), .value(.null)]],
                               in: transaction)
        try expectFreshFilters("link == %@", [[.value(.object(keys[0]))], [.value(.object(keys[3]))], [.value(.null)]], in: transaction)
        try expectFreshFilters("%K == %@", [[.value(.string("intCol")), .value(.int(5))], [.value(.string("optInt")), .value(.int(5))],
                                            [.keyPath("intCol"), .value(.int(42))]], in: transaction)
        // Forms whose plans are not templates are parsed and planned each time.
        try expectFreshFilters("stringCol ==[c] %@", [[.value(.string("a"))], [.value(.string("ÉMILE"))]], in: transaction)
        try expectFreshFilters("intCol IN %@", [[.values([.int(5), .int(42)])], [.values([.int(6), .int(7), .int(8)])]], in: transaction)
    }

    @Test func oneEntryServesOneFormatOfOneShape() throws {
        let (transaction, _) = try AllTypes.open()
        let memo = FilterMemo()
        let whole = Query(className: "AllTypes")
        _ = try memo.filtered(whole, by: "optInt == %@", arguments: [.value(.int(1))], in: transaction)
        _ = try memo.filtered(whole, by: "optInt == %@", arguments: [.value(.int(2))], in: transaction)
        #expect(memo.count == 1)
        // nil is another shape, whose plan (`IS NULL`) is no template: it is
        // not remembered, and the entry for ints does not serve it.
        let withNil = try memo.filtered(whole, by: "optInt == %@", arguments: [.value(.null)], in: transaction)
        #expect(memo.count == 1)
        var reference = withNil
        reference.evaluation = .postFilterOnly
        #expect(try withNil.objectKeys(in: transaction) == reference.objectKeys(in: transaction))
        // A key path argument is part of the entry.
        _ = try memo.filtered(whole, by: "%K == %@", arguments: [.value(.string("intCol")), .value(.int(5))], in: transaction)
        _ = try memo.filtered(whole, by: "%K == %@", arguments: [.value(.string("optInt")), .value(.int(5))], in: transaction)
        #expect(memo.count == 3)
        // Only whole classes are remembered.
        let sorted = whole.sorted(by: [SortDescriptor(keyPath: "intCol")])
        _ = try memo.filtered(sorted, by: "intCol == %@", arguments: [.value(.int(1))], in: transaction)
        let narrowed = whole.filtered(by: .comparison(Comparison(.keyPath("boolCol"), .equal, .value(.bool(true)))))
        let both = try memo.filtered(narrowed, by: "intCol == %@", arguments: [.value(.int(5))], in: transaction)
        #expect(memo.count == 3)
        #expect(both.predicate == narrowed.predicate.and(try PredicateParser.parseAfresh("intCol == 5")))
        // A folded comparison's plan is no template: nothing to remember.
        _ = try memo.filtered(whole, by: "stringCol ==[c] %@", arguments: [.value(.string("a"))], in: transaction)
        #expect(memo.count == 3)
    }

    @Test func theMemoIsBounded() throws {
        let (transaction, _) = try AllTypes.open()
        let memo = FilterMemo()
        for value in 0..<(FilterMemo.capacity + 5) {
            // Each literal makes another format string.
            let filtered = try memo.filtered(Query(className: "AllTypes"), by: "intCol == \(value) AND stringCol != %@",
                                             arguments: [.value(.string("x"))], in: transaction)
            #expect(filtered.predicate == (try PredicateParser.parseAfresh("intCol == \(value) AND stringCol != 'x'")))
        }
        #expect(memo.count == FilterMemo.capacity)
    }

    @Test func errorsStayErrors() throws {
        let (transaction, _) = try AllTypes.open()
        let memo = FilterMemo()
        let whole = Query(className: "AllTypes")
        _ = try memo.filtered(whole, by: "intCol > %@", arguments: [.value(.int(1))], in: transaction)
        #expect(throws: QueryError.self) { try memo.filtered(whole, by: "intCol > %@", arguments: [.value(.string("x"))], in: transaction) }
        #expect(throws: QueryError.self) { try memo.filtered(whole, by: "intCol > %@", arguments: [], in: transaction) }
        #expect(throws: QueryError.self) { try memo.filtered(whole, by: "nope > %@", arguments: [.value(.int(1))], in: transaction) }
        _ = try memo.filtered(whole, by: "%K > 1", arguments: [.value(.string("intCol"))], in: transaction)
        #expect(throws: QueryError.self) { try memo.filtered(whole, by: "%K > 1", arguments: [.value(.string("nope"))], in: transaction) }
    }

    @Test func aSchemaChangeRetiresTheEntries() throws {
        let realm = try TestRealm(schema: Schema([
            ObjectSchema(name: "Dog", properties: [Property(name: "name", type: .string)]),
        ]))
        let memo = FilterMemo()
        try realm.transaction.write {
            for name in ["Rex", "Fido"] { try realm.create("Dog", ["name": .string(name)]) }
        }
        let dogs = Query(className: "Dog")
        #expect(try memo.filtered(dogs, by: "name == %@", arguments: [.value(.string("Rex"))], in: realm.transaction)
            .objectKeys(in: realm.transaction).count == 1)
        try realm.transaction.write {
            try realm.transaction.applySchema(Schema([
                ObjectSchema(name: "Dog", properties: [Property(name: "age", type: .int), Property(name: "name", type: .string)]),
            ]), schemaVersion: 0)
            try realm.create("Dog", ["name": .string("Rex"), "age": .int(3)])
        }
        let rexes = try memo.filtered(dogs, by: "name == %@", arguments: [.value(.string("Rex"))], in: realm.transaction)
        #expect(try rexes.objectKeys(in: realm.transaction).count == 2)
        // The plan reads the new column: it was made for the new schema.
        #expect(try rexes.plan(in: realm.transaction).rowsStatement()?.sql.contains("age") == true)
        #expect(memo.count == 1)
    }
}
