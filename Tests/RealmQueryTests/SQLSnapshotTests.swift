import Foundation
import RealmCore
import RealmQuery
import Testing

/// The SQL the compiler writes for representative forms, compared with
/// snapshots, and the plans SQLite picks for it.
@Suite struct SQLSnapshotTests {
    let schema = Zoo.schema

    private func sql(_ className: String, _ format: String, _ arguments: [QueryArgument] = [],
                     sort: [SortDescriptor] = [], distinct: [String] = [], source: Query.Source = .table) throws -> (String, [Value]) {
        let query = Query(className: className, source: source, predicate: try PredicateParser.parse(format, arguments: arguments),
                          sort: sort, distinct: distinct)
        let (text, values) = try query.compiledSQL(schema: schema)
        return (text, values)
    }

    static let snapshots: [(String, String, String, [Value])] = [
        ("Dog", "name == 'a'",
         #"SELECT _key FROM "class_Dog" WHERE "name" = ? ORDER BY _key"#, [.string("a")]),
        ("Dog", "TRUEPREDICATE",
         #"SELECT _key FROM "class_Dog" ORDER BY _key"#, []),
        ("Dog", "FALSEPREDICATE OR age > 1 AND FALSEPREDICATE",
         #"SELECT _key FROM "class_Dog" WHERE 0 ORDER BY _key"#, []),
        ("Dog", "name != 'a' AND NOT (age > 3)",
         #"SELECT _key FROM "class_Dog" WHERE "name" IS NOT ? AND NOT "age" > ? ORDER BY _key"#, [.string("a"), .int(3)]),
        ("Dog", "NOT (weight > 3 OR owner == nil)",
         #"SELECT _key FROM "class_Dog" WHERE NOT ifnull("weight" > ? AND "weight" <= 9e999 OR "owner" IS NULL, 0) ORDER BY _key"#, [.int(3)]),
        ("Dog", "weight == nil OR weight != 2.5",
         #"SELECT _key FROM "class_Dog" WHERE "weight" IS NULL OR "weight" IS NOT ? ORDER BY _key"#, [.double(2.5)]),
        ("Dog", "age BETWEEN {1, 5} AND name IN {'a', 'b'}",
         #"SELECT _key FROM "class_Dog" WHERE "age" BETWEEN ? AND ? AND "name" IN (?, ?) ORDER BY _key"#, [.int(1), .int(5), .string("a"), .string("b")]),
        ("Dog", "weight IN {1.5, nil}",
         #"SELECT _key FROM "class_Dog" WHERE "weight" IN (?) OR "weight" IS NULL ORDER BY _key"#, [.double(1.5)]),
        ("Dog", "name BEGINSWITH 'B*' AND name ENDSWITH 'x' AND name CONTAINS 'u' AND name LIKE '?[u]*'",
         // ENDSWITH compares bytes and LIKE leaves strings with a NUL to
         // the post-filter: GLOB stops reading a string at its first NUL.
         #"SELECT _key, "name", "color", "age", "weight", "owner" FROM "class_Dog" WHERE "name" GLOB ? AND substr(CAST("name" AS BLOB), ?) = ? AND instr("name", ?) > 0 AND ("name" GLOB ? OR instr("name", char(0)) > 0) ORDER BY _key"#,
         [.string("B[*]*"), .int(-1), .data(Data("x".utf8)), .string("u"), .string("?[[]u]*")]),
        ("Dog", "name BEGINSWITH[c] 'b%' AND name ==[c] 'rex'",
         #"SELECT _key FROM "class_Dog" WHERE "name" LIKE ? ESCAPE '\' AND "name" LIKE ? ESCAPE '\' AND instr("name", char(0)) = 0 ORDER BY _key"#,
         [.string("b\\%%"), .string("rex")]),
        ("Dog", "owner.name == 'Jack'",
         #"SELECT t0._key FROM "class_Dog" AS t0 LEFT JOIN "class_Person" AS t1 ON t1._key = t0."owner" WHERE t1."name" = ? ORDER BY t0._key"#,
         [.string("Jack")]),
        ("Dog", "owner == %@ OR owner.dog.owner.age > 3 AND owner.name != nil",
         #"SELECT t0._key FROM "class_Dog" AS t0 LEFT JOIN "class_Person" AS t1 ON t1._key = t0."owner" LEFT JOIN "class_Dog" AS t2 ON t2._key = t1."dog" LEFT JOIN "class_Person" AS t3 ON t3._key = t2."owner" WHERE t0."owner" = ? OR t3."age" > ? AND t1."name" IS NOT NULL ORDER BY t0._key"#,
         [.object(ObjectKey(1)), .int(3)]),
        ("Person", "ANY dogs.age > 5",
         #"SELECT t0._key FROM "class_Person" AS t0 WHERE EXISTS (SELECT 1 FROM "list_Person.dogs" AS l1 JOIN "class_Dog" AS t2 ON t2._key = l1.value WHERE l1.owner = t0._key AND t2."age" > ?) ORDER BY t0._key"#,
         [.int(5)]),
        ("Person", "ALL dogs.age > 5",
         #"SELECT t0._key FROM "class_Person" AS t0 WHERE NOT EXISTS (SELECT 1 FROM "list_Person.dogs" AS l1 JOIN "class_Dog" AS t2 ON t2._key = l1.value WHERE l1.owner = t0._key AND NOT t2."age" > ?) ORDER BY t0._key"#,
         [.int(5)]),
        ("Person", "NONE dogs.owner.name == 'x'",
         #"SELECT t0._key FROM "class_Person" AS t0 WHERE NOT EXISTS (SELECT 1 FROM "list_Person.dogs" AS l1 JOIN "class_Dog" AS t2 ON t2._key = l1.value LEFT JOIN "class_Person" AS t3 ON t3._key = t2."owner" WHERE l1.owner = t0._key AND t3."name" = ?) ORDER BY t0._key"#,
         [.string("x")]),
        ("Person", "dogs == %@",
         #"SELECT t0._key FROM "class_Person" AS t0 WHERE EXISTS (SELECT 1 FROM "list_Person.dogs" AS l1 WHERE l1.owner = t0._key AND l1.value = ?) ORDER BY t0._key"#,
         [.object(ObjectKey(1))]),
        ("Person", "'x' IN tags AND ANY scores > 90",
         #"SELECT t0._key FROM "class_Person" AS t0 WHERE EXISTS (SELECT 1 FROM "list_Person.tags" AS l1 WHERE l1.owner = t0._key AND l1.value = ?) AND EXISTS (SELECT 1 FROM "list_Person.scores" AS l2 WHERE l2.owner = t0._key AND l2.value > ?) ORDER BY t0._key"#,
         [.string("x"), .int(90)]),
        ("Dog", "ANY owners.name == 'Jack'",
         #"SELECT t0._key FROM "class_Dog" AS t0 WHERE EXISTS (SELECT 1 FROM "list_Person.dogs" AS l1 JOIN "class_Person" AS t2 ON t2._key = l1.owner WHERE l1.value = t0._key AND t2."name" = ?) ORDER BY t0._key"#,
         [.string("Jack")]),
        ("Person", "dogs.@count > 2 AND dogs.@avg.age > 2 AND scores.@sum > 100 AND dogs.@max.weight < 20",
         #"SELECT t0._key FROM "class_Person" AS t0 WHERE (SELECT count(*) FROM "list_Person.dogs" AS l1 WHERE l1.owner = t0._key) > ? AND (SELECT avg(t3."age") FROM "list_Person.dogs" AS l2 JOIN "class_Dog" AS t3 ON t3._key = l2.value WHERE l2.owner = t0._key) > ? AND (SELECT ifnull(realm_sum(l4.value), 0) FROM "list_Person.scores" AS l4 WHERE l4.owner = t0._key) > ? AND (SELECT max(t6."weight") FROM "list_Person.dogs" AS l5 JOIN "class_Dog" AS t6 ON t6._key = l5.value WHERE l5.owner = t0._key AND t6."weight" <= 9e999) < ? ORDER BY t0._key"#,
         [.int(2), .int(2), .int(100), .int(20)]),
        ("Person", "SUBQUERY(dogs, $d, $d.age > 3 AND $d.owner.name == 'x').@count > 1",
         #"SELECT t0._key FROM "class_Person" AS t0 WHERE (SELECT count(*) FROM "list_Person.dogs" AS l1 JOIN "class_Dog" AS t2 ON t2._key = l1.value LEFT JOIN "class_Person" AS t3 ON t3._key = t2."owner" WHERE l1.owner = t0._key AND t2."age" > ? AND t3."name" = ?) > ? ORDER BY t0._key"#,
         [.int(3), .string("x"), .int(1)]),
        ("Person", "ANY dogs.toys.price > 10",
         #"SELECT t0._key FROM "class_Person" AS t0 WHERE EXISTS (SELECT 1 FROM "list_Person.dogs" AS l1 JOIN "list_Dog.toys" AS l2 ON l2.owner = l1.value JOIN "class_Toy" AS t3 ON t3._key = l2.value WHERE l1.owner = t0._key AND t3."price" > ? AND t3."price" <= 9e999) ORDER BY t0._key"#,
         [.int(10)]),
        ("Dog", "owner.dogs.@count == 0",
         #"SELECT t0._key FROM "class_Dog" AS t0 WHERE (SELECT count(*) FROM "list_Person.dogs" AS l1 WHERE l1.owner = t0."owner") = ? ORDER BY t0._key"#,
         [.int(0)]),
        // Needs the post-filter: the SQL selects candidates, with the
        // columns the post-filter reads.
        ("Dog", "name ==[c] 'émile'",
         #"SELECT _key, "name", "color", "age", "weight", "owner" FROM "class_Dog" WHERE "name" LIKE ? ESCAPE '\' AND instr("name", char(0)) = 0 ORDER BY _key"#, [.string("_mile")]),
        ("Dog", "NOT name BEGINSWITH[cd] 'e'",
         #"SELECT _key, "name", "color", "age", "weight", "owner" FROM "class_Dog" WHERE NOT "name" GLOB ? ORDER BY _key"#, [.string("e*")]),
        ("Dog", "name CONTAINS[d] 'xo'",
         #"SELECT _key, "name", "color", "age", "weight", "owner" FROM "class_Dog" WHERE "name" LIKE ? ESCAPE '\' OR instr("name", char(0)) > 0 ORDER BY _key"#, [.string("%x_%")]),
    ]

    @Test(arguments: snapshots.indices)
    func snapshot(_ index: Int) throws {
        let (className, format, expected, arguments) = Self.snapshots[index]
        let owner: [QueryArgument] = format.contains("%@") ? [.value(.object(ObjectKey(1)))] : []
        let (text, values) = try sql(className, format, owner)
        #expect(text == expected, "\(format)")
        #expect(values == arguments, "\(format)")
    }

    @Test func sortDistinctAndSources() throws {
        let byAge = try sql("Dog", "TRUEPREDICATE", sort: [SortDescriptor(keyPath: "age", ascending: false), SortDescriptor(keyPath: "name")])
        #expect(byAge.0 == #"SELECT _key FROM "class_Dog" ORDER BY "age" DESC, "name" ASC, _key"#)
        let byOwner = try sql("Dog", "TRUEPREDICATE", sort: [SortDescriptor(keyPath: "owner.name")])
        #expect(byOwner.0 == #"SELECT t0._key FROM "class_Dog" AS t0 LEFT JOIN "class_Person" AS t1 ON t1._key = t0."owner" ORDER BY t1."name" ASC, t0._key"#)
        let distinct = try sql("Dog", "TRUEPREDICATE", sort: [SortDescriptor(keyPath: "age")], distinct: ["color"])
        #expect(distinct.0 == #"SELECT k FROM (SELECT _key AS k, "age" AS o0, _key AS b0, row_number() OVER (PARTITION BY "color" ORDER BY "age" ASC, _key) AS r FROM "class_Dog") WHERE r = 1 ORDER BY o0 ASC, b0"#)
        let list = try sql("Dog", "age > 1", source: .list(ownerClass: "Person", property: "dogs", owner: ObjectKey(3)))
        #expect(list.0 == #"SELECT t0._key FROM "list_Person.dogs" AS s JOIN "class_Dog" AS t0 ON t0._key = s.value WHERE s.owner = ? AND t0."age" > ? ORDER BY s.position"#)
        #expect(list.1 == [.int(3), .int(1)])
        let backlinks = try sql("Person", "TRUEPREDICATE", source: .linkingObjects(sourceProperty: "dogs", target: ObjectKey(2)))
        #expect(backlinks.0 == #"SELECT t0._key FROM "list_Person.dogs" AS s JOIN "class_Person" AS t0 ON t0._key = s.owner WHERE s.value = ? ORDER BY s.owner, s.position"#)
        let owned = try sql("Dog", "TRUEPREDICATE", sort: [SortDescriptor(keyPath: "name")], source: .linkingObjects(sourceProperty: "owner", target: ObjectKey(2)))
        #expect(owned.0 == #"SELECT t0._key FROM "class_Dog" AS t0 WHERE t0."owner" = ? ORDER BY t0."name" ASC, t0._key"#)
        let candidates = try sql("Dog", "name ==[d] 'e'", sort: [SortDescriptor(keyPath: "name")], distinct: ["color"])
        #expect(candidates.0 == #"SELECT _key, "name", "color", "name", "color", "age", "weight", "owner" FROM "class_Dog" WHERE "name" LIKE ? ESCAPE '\' AND instr("name", char(0)) = 0 ORDER BY "name" ASC, _key"#)
    }

    /// Counting an equality over a class is exactly the statement a person
    /// would write by hand: no join, no post-filter.
    @Test func countOfAnEqualityIsPlainSQL() throws {
        let schema = Schema([ObjectSchema(name: "X", properties: [Property(name: "stringCol", type: .string)])])
        let query = Query(className: "X", predicate: try PredicateParser.parse("stringCol == 'a'"))
        let count = try #require(try query.compiledCountSQL(schema: schema))
        #expect(count.sql == #"SELECT count(*) FROM "class_X" WHERE "stringCol" = ?"#)
        #expect(count.arguments == [.string("a")])
        #expect(try query.runsEntirelyInSQL(schema: schema))
        let sorted = Query(className: "Dog", predicate: try PredicateParser.parse("age > 1"), sort: [SortDescriptor(keyPath: "owner.name")])
        #expect(try sorted.compiledCountSQL(schema: Zoo.schema)?.sql == #"SELECT count(*) FROM "class_Dog" WHERE "age" > ?"#)
    }

    /// Which forms SQL answers alone, and which need the post-filter.
    @Test func whatRunsInSQL() throws {
        let schema = AllTypes.schema
        let exact = [
            "stringCol == 'abc'", "stringCol ==[c] 'abc'", "stringCol BEGINSWITH[c] 'a%_'", "stringCol CONTAINS 'é'",
            "stringCol ==[c] 'ß'", "stringCol ==[cd] 'x1'", "stringCol BEGINSWITH optString",
            "intList.@sum > 3", "doubleList.@avg > 1", "optDouble > 1",
            "SUBQUERY(links, $x, $x.stringCol ==[c] 'a').@count > 0", "ANY links.dataCol BEGINSWITH %@",
            "NOT stringCol ==[c] 'abc'", "dateList.@max > %@", "link.link.optString == nil", "SELF IN %@",
        ]
        let postFiltered = [
            "stringCol ==[c] 'é'", "stringCol ==[d] 'e'", "stringCol ==[cd] 'abc'", "stringCol CONTAINS[c] 'Å'",
            "stringCol ==[c] optString", "decimalCol > 1", "decimalCol BETWEEN {1, 2}", "decimalList.@sum > 1",
            "links.@max.decimalCol > 1", "SUBQUERY(links, $x, $x.stringCol ==[c] 'é').@count > 0", "NOT stringCol ==[c] 'é'",
            "ANY stringList ==[d] 'a'",
            // Decimals keep their exponent in the file (1.50 is not 1.5 as
            // text): equality narrows in SQL and compares exactly after.
            "decimalCol == 1.5", "decimalCol IN {1.5, 2}", "decimalCol != 1.5",
            // SQLite's LIKE and GLOB stop at a NUL in the subject: strings
            // holding one are matched by the post-filter.
            "stringCol LIKE '*é?'", "stringCol CONTAINS[c] 'a'", "stringCol ENDSWITH[c] 'a'",
        ]
        let arguments: (String) -> [QueryArgument] = { format in
            format.contains("%@") ? (format.contains(" IN ") ? [.values([.object(ObjectKey(1))])]
                : format.contains("dateList") ? [.value(.date(Date()))] : [.value(.data(Data([1])))]) : []
        }
        for format in exact {
            let query = Query(className: "AllTypes", predicate: try PredicateParser.parse(format, arguments: arguments(format)))
            #expect(try query.runsEntirelyInSQL(schema: schema), "\(format)")
        }
        for format in postFiltered {
            let query = Query(className: "AllTypes", predicate: try PredicateParser.parse(format, arguments: arguments(format)))
            #expect(try !query.runsEntirelyInSQL(schema: schema), "\(format)")
            #expect(try query.compiledCountSQL(schema: schema) == nil, "\(format)")
        }
        let decimalSort = Query(className: "AllTypes", sort: [SortDescriptor(keyPath: "decimalCol")])
        #expect(try !decimalSort.runsEntirelyInSQL(schema: schema))
    }

    /// An indexed property makes equality, IN and BEGINSWITH use the index.
    @Test func indexedPropertiesUseTheIndex() throws {
        let realm = try TestRealm(schema: Zoo.schema)
        try Zoo.populate(realm)
        for (format, arguments) in [("name == 'Rex'", [QueryArgument]()), ("name IN {'Rex', 'Fido'}", []),
                                    ("name IN %@", [.values((0..<1000).map { .string("dog\($0)") })]), ("name BEGINSWITH 'B'", [])] {
            let query = try realm.query("Dog", format, arguments)
            for (sql, values) in [try query.compiledSQL(schema: realm.schema), try #require(try query.compiledCountSQL(schema: realm.schema))] {
                let plan = try explain(sql, values, in: realm.transaction)
                #expect(plan.contains { $0.contains("USING INDEX index_class_Dog.name") || $0.contains("USING COVERING INDEX index_class_Dog.name") },
                        "\(format): \(plan)")
            }
        }
        let unindexed = try realm.query("Dog", "color == 'tan'")
        let plan = try explain(try unindexed.compiledSQL(schema: realm.schema).sql, [.string("tan")], in: realm.transaction)
        #expect(plan.contains { $0.hasPrefix("SCAN") }, "\(plan)")
        // A link key path joins by the primary key.
        let linked = try realm.query("Dog", "owner.name == 'Jack'")
        let linkPlan = try explain(try linked.compiledSQL(schema: realm.schema).sql, [.string("Jack")], in: realm.transaction)
        #expect(linkPlan.allSatisfy { !$0.hasPrefix("SCAN") }, "\(linkPlan)")
    }

    private func explain(_ sql: String, _ values: [Value], in transaction: Transaction) throws -> [String] {
        let statement = try transaction.queryStatement("EXPLAIN QUERY PLAN " + sql)
        defer { statement.reset() }
        for (index, value) in values.enumerated() { statement.bind(value, at: Int32(index + 1)) }
        var details: [String] = []
        while try statement.step() { details.append(statement.string(at: 3)) }
        return details
    }
}
