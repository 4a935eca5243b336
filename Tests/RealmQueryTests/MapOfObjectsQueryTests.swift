import Foundation
import RealmCore
import RealmQuery
import Testing

/// Queries into maps of objects: their keys (`map.@keys`), the object held
/// for a key compared with an object or nil (`map['key'] == %@`), and
/// followed on to its properties and collections (`map['key'].name`,
/// `map['key'].friends['k'].name`), each through SQL and through the
/// post-filter alone, with its negation: the answers must be the same,
/// and split the objects between a predicate and its negation.
@Suite struct MapOfObjectsQueryTests {
    static let schema = Schema([
        ObjectSchema(name: "Person", properties: [
            Property(name: "name", type: .string),
            Property(name: "age", type: .int, isOptional: true),
            Property(name: "contacts", type: .object, isOptional: true, isMap: true, objectClassName: "Person"),
            Property(name: "scores", type: .int, isMap: true),
            Property(name: "tags", type: .string, isList: true),
        ]),
    ])

    /// Ann, Bob, Cy and Di: Bob's contacts are Ann ("best") and Cy
    /// ("work"), Cy's are Bob ("best") and nobody ("empty", a key holding
    /// nil), Di has none.
    private func realm() throws -> (TestRealm, [ObjectKey]) {
        let realm = try TestRealm(schema: Self.schema)
        var keys: [ObjectKey] = []
        try realm.transaction.write {
            let handle = try realm.transaction.classHandle(named: "Person")
            let contacts = try realm.transaction.propertyIndex(named: "contacts", in: handle)
            let scores = try realm.transaction.propertyIndex(named: "scores", in: handle)
            for (name, age) in [("Ann", Value.int(30)), ("Bob", .int(40)), ("Cy", .null), ("Di", .int(30))] {
                keys.append(try realm.create("Person", ["name": .string(name), "age": age]))
            }
            try realm.append([.string("a")], to: "tags", of: keys[0], in: "Person")
            func map(_ owner: Int) -> ListHandle { ListHandle(owningClass: handle, owner: keys[owner], property: contacts) }
            try realm.transaction.setValue(.object(keys[0]), forKey: "best", in: map(1))
            try realm.transaction.setValue(.object(keys[2]), forKey: "work", in: map(1))
            try realm.transaction.setValue(.object(keys[1]), forKey: "best", in: map(2))
            try realm.transaction.setValue(.null, forKey: "empty", in: map(2))
            try realm.transaction.setValue(.int(9), forKey: "math", in: ListHandle(owningClass: handle, owner: keys[0], property: scores))
        }
        return (realm, keys)
    }

    @Test func sqlAndThePostFilterAgree() throws {
        let (realm, keys) = try realm()
        let ann = QueryArgument.value(.object(keys[0]))
        let cases: [(String, [QueryArgument], [String])] = [
            ("ANY contacts.@keys == 'best'", [], ["Bob", "Cy"]),
            ("ANY contacts.@allKeys ==[c] 'WORK'", [], ["Bob"]),
            ("ANY contacts.@keys BEGINSWITH 'e'", [], ["Cy"]),
            ("contacts.@keys.@count == 0", [], ["Ann", "Di"]),
            ("contacts['best'] == %@", [ann], ["Bob"]),
            ("contacts['best'] == nil", [], ["Ann", "Di"]),
            ("contacts['empty'] == nil", [], ["Ann", "Bob", "Cy", "Di"]),
            ("contacts['best'].name == 'Ann'", [], ["Bob"]),
            // A key the map does not have is a nil link: its properties
            // are nil, as past a nil to-one link.
            ("contacts['best'].age == nil", [], ["Ann", "Di"]),
            ("contacts['best'].age > 35", [], ["Cy"]),
            ("contacts['best'].contacts['best'].name == 'Ann'", [], ["Cy"]),
            ("contacts['best'].scores['math'] == 9", [], ["Bob"]),
            // A key after a dot, in a map of values, as in Realm.
            ("scores.math == 9", [], ["Ann"]),
            ("contacts['best'].scores.math == 9", [], ["Bob"]),
            ("ANY contacts['best'].tags == 'a'", [], ["Bob"]),
            ("contacts['work'].name BEGINSWITH[c] 'c' OR contacts['best'].name == 'Bob'", [], ["Bob", "Cy"]),
            ("contacts['nobody'].name == 'Ann'", [], []),
        ]
        for (format, arguments, expected) in cases {
            let query = try realm.query("Person", format, arguments)
            var matched: Set<ObjectKey> = []
            for negated in [false, true] {
                var tested = query
                if negated { tested.predicate = .not(query.predicate) }
                var reference = tested
                reference.evaluation = .postFilterOnly
                let referenceKeys = try reference.objectKeys(in: realm.transaction)
                let automatic = try tested.objectKeys(in: realm.transaction)
                #expect(automatic == referenceKeys, "\(negated ? "NOT " : "")\(format): SQL and the post-filter disagree")
                #expect(try tested.count(in: realm.transaction) == referenceKeys.count, "count of \(negated ? "NOT " : "")\(format)")
                if negated {
                    #expect(matched.isDisjoint(with: referenceKeys) && matched.count + referenceKeys.count == keys.count,
                            "\(format) and its negation do not split the objects")
                } else {
                    matched = Set(referenceKeys)
                    let names = try referenceKeys.map { key -> String in
                        guard case .string(let name) = try realm.value("name", of: key, in: "Person") else { return "?" }
                        return name
                    }
                    #expect(names == expected, "\(format)")
                }
            }
        }
    }

    @Test func aKeyEndsAMapOfValues() throws {
        let (realm, _) = try realm()
        for format in ["scores['math'].name == 1", "contacts['best'].scores['math'].x == 1"] {
            #expect(throws: QueryError.self, "\(format)") {
                try realm.query("Person", format).objectKeys(in: realm.transaction)
            }
        }
    }
}
