import Foundation
import RealmCore
import RealmQuery
import Testing

/// Ill-typed predicates: each error quotes the predicate and points at the
/// offending token.
@Suite struct TypeCheckerTests {
    static let schema = Schema(Zoo.schema.objectSchemas + AllTypes.schema.objectSchemas)

    private func check(_ className: String, _ format: String, _ arguments: [QueryArgument] = []) throws {
        _ = try Query(className: className, predicate: PredicateParser.parse(format, arguments: arguments)).validated(against: Self.schema)
    }

    @Test func theSpecExample() throws {
        do {
            try check("Dog", "agee > 5")
            Issue.record("no error")
        } catch let error as QueryError {
            #expect(error.description == "\"agee > 5\": Dog has no property 'agee'")
            #expect(error.offset == 0 && error.length == 4)
            #expect(error.annotated == "agee > 5\n^~~~")
        }
    }

    /// Class, format, arguments, the start of the message, the offset.
    static let illTyped: [(String, String, [QueryArgument], String, Int?)] = [
        ("Dog", "owner.agee > 5", [], "Person has no property 'agee'", 6),
        ("Dog", "age > 1 AND  owner.dogs.agee > 5", [], "Dog has no property 'agee'", 24),
        ("Dog", "name.first == 'x'", [], "'name' is a string property of Dog, so key path 'name.first' cannot continue past it", 0),
        ("Dog", "name > 5", [], "'>' is not supported for 'name' (string); strings support ==, !=, IN, BEGINSWITH, CONTAINS, ENDSWITH and LIKE", 5),
        ("Dog", "name == 5", [], "Expected a string to compare with 'name' (string), but got the integer 5", 8),
        ("Dog", "age == 'x'", [], "Expected an int to compare with 'age' (int), but got the string \"x\"", 7),
        ("Dog", "age == nil", [], "'age' (int) is never nil, so it cannot be compared with nil", 7),
        ("Dog", "weight > nil", [], "nil cannot be used with '>'; only ==, != and IN compare with nil", 9),
        ("Dog", "name BEGINSWITH nil", [], "nil cannot be used with 'BEGINSWITH'", 16),
        ("Dog", "5 == 5", [], "A comparison needs at least one key path", 0),
        ("Dog", "ANY name == 'x'", [], "ANY needs a key path through a list or linking objects, but 'name' (string) is a single value", 4),
        ("Dog", "age ==[c] 5", [], "String options [c] apply only to string comparisons", 4),
        ("Dog", "owner > %@", [.value(.object(ObjectKey(1)))], "'>' is not supported for 'owner' (a link to Person); objects support == and != (identity) and IN", 6),
        ("Dog", "owner == 5", [], "Expected an object to compare with 'owner' (a link to Person), but got the integer 5", 9),
        ("Person", "dogs.@count == 'x'", [], "Expected an int to compare with 'dogs.@count' (int)", 15),
        ("Dog", "name.@count > 1", [], "@count needs a list, linking objects or a key path through one, but 'name' is a string property", 0),
        ("Person", "dogs.@sum > 1", [], "@sum needs a property of the elements to aggregate", 0),
        ("Person", "dogs.@sum.name > 1", [], "@sum applies to int, float, double and decimal values, but 'dogs.name' holds string values", 0),
        ("Person", "dogs.@max.agee > 1", [], "Dog has no property 'agee'", 10),
        ("Person", "dogs.@count == nil", [], "'dogs.@count' (int) is never nil", 15),
        ("Person", "SUBQUERY(dogs, $d, $d.age > 1).@count > age", [], "SUBQUERY(…).@count must be compared with a constant", 0),
        ("Person", "SUBQUERY(dogs, $d, age > 1).@count > 1", [], "Key paths inside SUBQUERY must start with its variable $d", 19),
        ("Person", "SUBQUERY(dogs, $d, $d.agee > 1).@count > 1", [], "Dog has no property 'agee'", 22),
        ("Person", "SUBQUERY(name, $d, $d.age > 1).@count > 1", [], "The collection of SUBQUERY must be a list of objects or linking objects, but 'name' is a string property", 0),
        ("Person", "dogs.age == scores", [], "Only one side of a comparison can be a key path through a list", 0),
        ("Person", "age IN 5", [], "IN needs a list of values {…}, a collection argument or a key path to a list, but the integer 5 is a single value", 7),
        ("Person", "age IN name", [], "IN needs a list of values", 7),
        ("Person", "age BETWEEN {1}", [], "BETWEEN needs exactly two values, {low, high}, but 1 were given", 12),
        ("Person", "age BETWEEN 5", [], "BETWEEN needs two values, {low, high}, but the integer 5 is not a list", 12),
        ("Person", "age BETWEEN {nil, 5}", [], "nil cannot be used with 'BETWEEN'", 12),
        ("Person", "name BETWEEN {'a', 'b'}", [], "'BETWEEN' is not supported for 'name' (string)", 5),
        ("Person", "age == {1, 2}", [], "A list of values can only be the right side of IN or BETWEEN", 7),
        ("Person", "{1, 2} IN scores", [], "A list of values can only be the right side of IN or BETWEEN", 0),
        ("Person", "ALL 'x' IN tags", [], "ALL cannot modify IN with a list key path", 0),
        ("Person", "ANY age > 1", [], "ANY needs a key path through a list or linking objects, but 'age' (int) is a single value", 4),
        ("Dog", "owner == SELF", [], "Cannot compare 'owner' (a link to Person) with 'SELF' (an object of Dog): they are objects of different classes", 6),
        ("Dog", "name == owner", [], "Cannot compare 'name' (string) with 'owner' (a link to Person): their types differ", 5),
        ("AllTypes", "dataCol > 'a'", [], "'>' is not supported for 'dataCol' (data); data supports ==, !=, IN, BEGINSWITH, CONTAINS, ENDSWITH and LIKE", 8),
        ("AllTypes", "dataCol CONTAINS[c] 'a'", [], "String options [c] apply only to string comparisons", 8),
        ("AllTypes", "boolCol < true", [], "'<' is not supported for 'boolCol' (bool); bool values support ==, != and IN", 8),
        ("AllTypes", "dateCol == 5", [], "Expected a date to compare with 'dateCol' (date), but got the integer 5", 11),
        ("AllTypes", "objectIdCol == 'nothex'", [], "Expected an object id to compare with 'objectIdCol' (objectId)", 15),
        ("AllTypes", "uuidCol > %@", [.value(.uuid(UUID()))], "'>' is not supported for 'uuidCol' (uuid)", 8),
        ("AllTypes", "decimalCol == 'x'", [], "Expected a decimal to compare with 'decimalCol' (decimal)", 14),
        ("AllTypes", "boolCol == 2", [], "Expected a bool to compare with 'boolCol' (bool), but got the integer 2", 11),
        ("AllTypes", "intList.@avg == 'x'", [], "Expected a double to compare with 'intList.@avg' (double)", 16),
        ("AllTypes", "dateList.@sum > 1", [], "@sum applies to int, float, double and decimal values, but 'dateList' holds date values", 0),
        ("AllTypes", "stringList.@min > 1", [], "@min applies to int, float, double, date and decimal values, but 'stringList' holds string values", 0),
        ("AllTypes", "ANY intList == nil", [], "'intList' (a list of int) is never nil", 15),
        ("AllTypes", "optIntList.@count BETWEEN {1, 'a'}", [], "Expected an int to compare with 'optIntList.@count' (int), but got the string \"a\"", 26),
        ("Dog", "SELF.name == 'x' AND $x == 1", [], "Unknown variable '$x'", 21),
    ]

    @Test(arguments: illTyped.indices)
    func errorsPointAtTheToken(_ index: Int) throws {
        let (className, format, arguments, message, offset) = Self.illTyped[index]
        do {
            try check(className, format, arguments)
            Issue.record("\(format) was accepted")
        } catch let error as QueryError {
            #expect(error.message.hasPrefix(message), "\(format): \(error.message)")
            #expect(error.offset == offset, "\(format): \(error.annotated)")
            #expect(error.predicate == format)
        }
    }

    @Test func builtPredicatesQuoteTheirDescription() throws {
        let predicate = Predicate.compare(.keyPath("agee"), .greaterThan, .value(.int(5)))
        do {
            _ = try Query(className: "Dog", predicate: predicate).validated(against: Self.schema)
            Issue.record("no error")
        } catch {
            #expect(error.description == "\"agee > 5\": Dog has no property 'agee'")
            #expect(error.offset == nil)
        }
    }

    @Test func chainedFiltersQuoteTheirOwnFormat() throws {
        let first = try PredicateParser.parse("age > 1")
        let second = try PredicateParser.parse("name BEGINSWITH 'B' AND colr == 'tan'")
        do {
            _ = try Query(className: "Dog", predicate: first).filtered(by: second).validated(against: Self.schema)
            Issue.record("no error")
        } catch {
            #expect(error.predicate == "name BEGINSWITH 'B' AND colr == 'tan'")
            #expect(error.offset == 24)
        }
    }

    @Test func sortDistinctAndAggregateKeyPaths() throws {
        let realm = try TestRealm(schema: Zoo.schema)
        let cases: [(Query, String, Int?)] = [
            (Query(className: "Person", sort: [SortDescriptor(keyPath: "dogs")]), "Cannot sort on key path 'dogs': 'dogs' is a collection", 0),
            (Query(className: "Person", sort: [SortDescriptor(keyPath: "dogs.age")]), "Cannot sort on key path 'dogs.age': 'dogs' is a collection", 0),
            (Query(className: "Dog", sort: [SortDescriptor(keyPath: "owner")]), "Cannot sort on key path 'owner': it ends at an object", 0),
            (Query(className: "Dog", sort: [SortDescriptor(keyPath: "owner.agee")]), "Person has no property 'agee'", 6),
            (Query(className: "Person", sort: [SortDescriptor(keyPath: "scores")]), "Cannot sort on key path 'scores': 'scores' is a list", 0),
            (Query(className: "Person", distinct: ["employers"]), "Cannot apply distinct to key path 'employers': 'linking objects' is a collection", 0),
            (Query(className: "Dog", distinct: ["nam"]), "Dog has no property 'nam'", 0),
        ]
        for (query, message, offset) in cases {
            do {
                _ = try query.validated(against: realm.schema)
                Issue.record("\(query.sort) \(query.distinct) accepted")
            } catch {
                #expect(error.message.hasPrefix(message), "\(error.message)")
                #expect(error.offset == offset)
            }
        }
        do {
            _ = try Query(className: "Dog").aggregate(.sum, keyPath: "name", in: realm.transaction)
            Issue.record("sum of strings accepted")
        } catch let error as QueryError {
            #expect(error.message == "Cannot compute sum of key path 'name' of type string: only int, float, double and decimal properties can be used")
        }
    }

    @Test func sourcesAndClasses() throws {
        let embedded = Schema([
            ObjectSchema(name: "Parent", properties: [Property(name: "children", type: .object, isList: true, objectClassName: "Child")]),
            ObjectSchema(name: "Child", properties: [Property(name: "name", type: .string)], isEmbedded: true),
        ])
        #expect(throws: QueryError.self) { try Query(className: "Child").validated(against: embedded) }
        #expect(throws: Never.self) {
            try Query(className: "Child", source: .list(ownerClass: "Parent", property: "children", owner: ObjectKey(1))).validated(against: embedded)
        }
        #expect(throws: QueryError.self) { try Query(className: "Cat").validated(against: Self.schema) }
        #expect(throws: QueryError.self) {
            try Query(className: "Dog", source: .list(ownerClass: "Person", property: "scores", owner: ObjectKey(1))).validated(against: Self.schema)
        }
        #expect(throws: QueryError.self) {
            try Query(className: "Dog", source: .linkingObjects(sourceProperty: "name", target: ObjectKey(1))).validated(against: Self.schema)
        }
    }
}
