import Foundation
import RealmCore
import RealmQuery
import Testing

/// Predicate text and argument values never become SQL text: quotes,
/// semicolons and SQL keywords match literally, and the schema and other
/// rows stay as they were.
@Suite struct InjectionTests {
    static let hostile = [
        "Robert'); DROP TABLE \"class_Pet\"; --",
        "' OR 1=1 --",
        "\"; DELETE FROM \"class_Pet\"; --",
        "x' UNION SELECT name FROM sqlite_master --",
        "' || (SELECT group_concat(name) FROM sqlite_master) || '",
        "%", "_", "*", "?", "[a-z]", "\\", "'", "\"", ";", "--", "/* comment */", "NULL", "1; VACUUM",
    ]

    static let schema = Schema([
        ObjectSchema(name: "Pet", properties: [
            Property(name: "name", type: .string, isIndexed: true),
            Property(name: "select\"from", type: .string, isOptional: true),
            Property(name: "tags", type: .string, isList: true),
        ]),
        ObjectSchema(name: "We\"ird; DROP", properties: [Property(name: "value", type: .int)]),
    ])

    private func populated() throws -> TestRealm {
        let realm = try TestRealm(schema: Self.schema)
        try realm.transaction.write {
            for text in Self.hostile + ["plain", "other"] {
                let key = try realm.create("Pet", ["name": .string(text), "select\"from": .string(text)])
                try realm.append([.string(text)], to: "tags", of: key, in: "Pet")
            }
            try realm.create("We\"ird; DROP", ["value": .int(1)])
        }
        return realm
    }

    private func tables(_ realm: TestRealm) throws -> [String] {
        let statement = try realm.transaction.queryStatement("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        defer { statement.reset() }
        var names: [String] = []
        while try statement.step() { names.append(statement.string(at: 0)) }
        return names
    }

    @Test func argumentsMatchLiterally() throws {
        let realm = try populated()
        let tablesBefore = try tables(realm)
        for text in Self.hostile {
            let argument: [QueryArgument] = [.value(.string(text))]
            let forms = ["name == %@", "name ==[c] %@", "name BEGINSWITH %@", "name ENDSWITH[c] %@", "name LIKE %@",
                         "%@ IN tags", "ANY tags ==[cd] %@", "name IN {%@}"]
            for form in forms {
                let names = try realm.names("Pet", form, argument)
                if form.contains("BEGINSWITH") || form.contains("ENDSWITH") {
                    #expect(names.contains(text), "\(form) with \(text)")
                } else if form.contains("LIKE") {
                    #expect(names.contains(text), "\(form) with \(text)")
                } else {
                    #expect(names == [text], "\(form) with \(text): \(names)")
                }
                try realm.bothPaths("Pet", form, argument)
            }
            #expect(try realm.names("Pet", "%K == %@", [.keyPath("select\"from"), .value(.string(text))]) == [text])
            let (sql, _) = try realm.query("Pet", "name == %@", argument).compiledSQL(schema: realm.schema)
            #expect(!sql.contains(text) || text.count < 3, "\(text) reached the SQL text")
        }
        #expect(try tables(realm) == tablesBefore)
        #expect(try Query(className: "Pet").count(in: realm.transaction) == Self.hostile.count + 2)
        #expect(try Query(className: "We\"ird; DROP").count(in: realm.transaction) == 1)
        #expect(realm.transaction.schema == Self.schema)
    }

    @Test func literalsInThePredicateMatchLiterally() throws {
        let realm = try populated()
        #expect(try realm.names("Pet", #"name == 'Robert\'); DROP TABLE "class_Pet"; --'"#) == [Self.hostile[0]])
        #expect(try realm.names("Pet", #"name == "' OR 1=1 --""#) == [Self.hostile[1]])
        #expect(try realm.names("Pet", #"name == "\"; DELETE FROM \"class_Pet\"; --""#) == [Self.hostile[2]])
        #expect(try realm.names("Pet", "name BEGINSWITH '%'") == ["%"])
        let underscored = try realm.names("Pet", "name CONTAINS[c] '_'")
        #expect(underscored == [Self.hostile[0], Self.hostile[2], Self.hostile[3], Self.hostile[4], "_"])
        #expect(try realm.names("Pet", "name LIKE '[a-z]'") == ["[a-z]"])
        #expect(try realm.names("Pet", "name == 'plain' OR name == 'other'") == ["plain", "other"])
        #expect(try Query(className: "Pet").count(in: realm.transaction) == Self.hostile.count + 2)
    }

    @Test func keyPathsAreNamesNotSQL() throws {
        let realm = try populated()
        for path in ["name\" OR 1=1 --", "name; DROP TABLE \"class_Pet\"", "_key", "rowid", "name) OR (1"] {
            #expect(throws: QueryError.self, "\(path)") {
                try realm.keys("Pet", "%K == 'x'", [.keyPath(path)])
            }
            #expect(throws: QueryError.self, "\(path)") {
                try Query(className: "Pet", sort: [SortDescriptor(keyPath: path)]).objectKeys(in: realm.transaction)
            }
        }
        #expect(throws: QueryError.self) { try Query(className: "Pet\" --").objectKeys(in: realm.transaction) }
        // Names the schema does have, however odd, are quoted identifiers.
        #expect(try Query(className: "We\"ird; DROP", predicate: PredicateParser.parse("value == 1")).count(in: realm.transaction) == 1)
        let sorted = try Query(className: "Pet", sort: [SortDescriptor(keyPath: "select\"from")]).objectKeys(in: realm.transaction)
        #expect(sorted.count == Self.hostile.count + 2)
        #expect(try Query(className: "Pet").count(in: realm.transaction) == Self.hostile.count + 2)
    }
}
