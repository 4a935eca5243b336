import Foundation
import RealmCore
import RealmQuery
import Testing

// Foundation declares its own Predicate and SortDescriptor; these module-level
// aliases make the bare names mean RealmQuery's throughout the tests.
typealias Predicate = RealmQuery.Predicate
typealias SortDescriptor = RealmQuery.SortDescriptor

/// A Realm file in a fresh temporary directory, deleted when the value goes
/// away.
final class TestRealm {
    let directory: URL
    let coordinator: Coordinator
    let transaction: Transaction

    init(schema: Schema) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("RealmQueryTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        coordinator = try Coordinator.open(.file(directory.appendingPathComponent("test.realm").path, schema: schema))
        transaction = try coordinator.makeTransaction()
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    var schema: Schema { transaction.schema }

    /// Creates an object from values by property name.
    @discardableResult
    func create(_ className: String, _ values: [String: Value]) throws -> ObjectKey {
        try transaction.createObject(ofClass: className, values: values)
    }

    /// Appends `values` to the list `property` of `owner`.
    func append(_ values: [Value], to property: String, of owner: ObjectKey, in className: String) throws {
        let handle = try transaction.classHandle(named: className)
        let list = try transaction.list(transaction.propertyIndex(named: property, in: handle), of: owner, in: handle)
        for value in values { try transaction.append(value, to: list) }
    }

    func value(_ property: String, of key: ObjectKey, in className: String) throws -> Value {
        let handle = try transaction.classHandle(named: className)
        return try transaction.value(of: key, property: transaction.propertyIndex(named: property, in: handle), in: handle)
    }

    /// The keys `format` selects from `className`, through the normal path
    /// (SQL, with the post-filter where needed).
    func keys(_ className: String, _ format: String, _ arguments: [QueryArgument] = [],
              sort: [SortDescriptor] = [], distinct: [String] = [], source: Query.Source = .table) throws -> [ObjectKey] {
        try query(className, format, arguments, sort: sort, distinct: distinct, source: source).objectKeys(in: transaction)
    }

    func query(_ className: String, _ format: String, _ arguments: [QueryArgument] = [],
               sort: [SortDescriptor] = [], distinct: [String] = [], source: Query.Source = .table) throws -> Query {
        Query(className: className, source: source, predicate: try PredicateParser.parse(format, arguments: arguments),
              sort: sort, distinct: distinct)
    }

    /// The values of `property` of the objects `format` selects, in order.
    func names(_ className: String, _ format: String, _ arguments: [QueryArgument] = [], property: String = "name",
               sort: [SortDescriptor] = [], distinct: [String] = [], source: Query.Source = .table) throws -> [String] {
        try keys(className, format, arguments, sort: sort, distinct: distinct, source: source).map { key in
            if case .string(let text) = try value(property, of: key, in: className) { return text }
            return "<nil>"
        }
    }

    /// Runs the query both ways, SQL (with the post-filter only where SQL
    /// cannot be exact) and the Swift evaluator on every object, expects the
    /// same keys and counts, and returns the keys.
    @discardableResult
    func bothPaths(_ query: Query, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [ObjectKey] {
        var forced = query
        forced.evaluation = .postFilterOnly
        let automatic = try query.objectKeys(in: transaction)
        let reference = try forced.objectKeys(in: transaction)
        #expect(automatic == reference, "SQL and post-filter disagree on \(query.predicate)", sourceLocation: sourceLocation)
        #expect(try query.count(in: transaction) == reference.count, "count of \(query.predicate)", sourceLocation: sourceLocation)
        return automatic
    }

    @discardableResult
    func bothPaths(_ className: String, _ format: String, _ arguments: [QueryArgument] = [],
                   sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [ObjectKey] {
        try bothPaths(query(className, format, arguments), sourceLocation: sourceLocation)
    }
}

/// The models of the seeds' examples: dogs, their owners, companies.
enum Zoo {
    static let schema = Schema([
        ObjectSchema(name: "Dog", properties: [
            Property(name: "name", type: .string, isIndexed: true),
            Property(name: "color", type: .string),
            Property(name: "age", type: .int),
            Property(name: "weight", type: .double, isOptional: true),
            Property(name: "owner", type: .object, isOptional: true, objectClassName: "Person"),
            Property(name: "toys", type: .object, isList: true, objectClassName: "Toy"),
            Property(name: "owners", type: .linkingObjects, objectClassName: "Person", linkOriginPropertyName: "dogs"),
        ]),
        ObjectSchema(name: "Person", properties: [
            Property(name: "name", type: .string, isIndexed: true),
            Property(name: "age", type: .int),
            Property(name: "nickname", type: .string, isOptional: true),
            Property(name: "dogs", type: .object, isList: true, objectClassName: "Dog"),
            Property(name: "dog", type: .object, isOptional: true, objectClassName: "Dog"),
            Property(name: "scores", type: .int, isList: true),
            Property(name: "tags", type: .string, isList: true),
            Property(name: "employers", type: .linkingObjects, objectClassName: "Company", linkOriginPropertyName: "employees"),
        ]),
        ObjectSchema(name: "Company", properties: [
            Property(name: "name", type: .string),
            Property(name: "employees", type: .object, isList: true, objectClassName: "Person"),
            Property(name: "ceo", type: .object, isOptional: true, objectClassName: "Person"),
        ]),
        ObjectSchema(name: "Toy", properties: [
            Property(name: "name", type: .string),
            Property(name: "price", type: .double),
        ]),
    ])

    /// The keys of the objects `populate` creates.
    struct Keys {
        var dogs: [String: ObjectKey] = [:]
        var people: [String: ObjectKey] = [:]
        var companies: [String: ObjectKey] = [:]
        var toys: [String: ObjectKey] = [:]
    }

    /// Dogs of several colors and ages, people owning them through lists and
    /// links, companies employing people, toys.
    @discardableResult
    static func populate(_ realm: TestRealm) throws -> Keys {
        var keys = Keys()
        try realm.transaction.write {
            for (name, price) in [("ball", 2.5), ("bone", 4.0), ("rope", 7.5), ("frisbee", 12.0)] {
                keys.toys[name] = try realm.create("Toy", ["name": .string(name), "price": .double(price)])
            }
            let dogs: [(String, String, Int64, Double?, [String])] = [
                ("Bella", "tan", 3, 12.5, ["ball", "bone"]),
                ("Buster", "tan", 1, nil, []),
                ("Rex", "black", 5, 30, ["rope"]),
                ("Fido", "brown", 1, 8, ["ball"]),
                ("Bruno", "tan", 7, 25, ["frisbee", "rope", "ball"]),
                ("Spike", "white", 10, 18.25, []),
                ("Hachi", "tan", 12, nil, ["bone"]),
            ]
            for (name, color, age, weight, toys) in dogs {
                let key = try realm.create("Dog", [
                    "name": .string(name), "color": .string(color), "age": .int(age),
                    "weight": weight.map(Value.double) ?? .null,
                ])
                keys.dogs[name] = key
                try realm.append(toys.map { .object(keys.toys[$0]!) }, to: "toys", of: key, in: "Dog")
            }
            let people: [(String, Int64, String?, [String], String?, [Int64], [String])] = [
                ("Jack", 32, "Jacky", ["Bella", "Rex"], "Bella", [90, 75], ["runner", "cook"]),
                ("Jane", 28, nil, ["Fido"], nil, [60], []),
                ("Lisa", 45, "Li", ["Bruno", "Spike", "Hachi"], "Hachi", [], ["cook"]),
                ("Joe", 19, nil, [], "Buster", [100, 100, 40], ["gamer"]),
                ("Émile", 51, "Mimile", ["Rex"], nil, [55], ["Cook"]),
            ]
            for (name, age, nickname, dogs, dog, scores, tags) in people {
                let key = try realm.create("Person", [
                    "name": .string(name), "age": .int(age), "nickname": nickname.map(Value.string) ?? .null,
                    "dog": dog.map { .object(keys.dogs[$0]!) } ?? .null,
                ])
                keys.people[name] = key
                try realm.append(dogs.map { .object(keys.dogs[$0]!) }, to: "dogs", of: key, in: "Person")
                try realm.append(scores.map(Value.int), to: "scores", of: key, in: "Person")
                try realm.append(tags.map(Value.string), to: "tags", of: key, in: "Person")
            }
            for (dog, owner) in [("Bella", "Jack"), ("Rex", "Jack"), ("Fido", "Jane"), ("Bruno", "Lisa"), ("Buster", "Joe")] {
                let handle = try realm.transaction.classHandle(named: "Dog")
                try realm.transaction.setValue(.object(keys.people[owner]!), of: keys.dogs[dog]!,
                                               property: realm.transaction.propertyIndex(named: "owner", in: handle), in: handle)
            }
            let companies: [(String, [String], String?)] = [
                ("Acme", ["Jack", "Jane", "Lisa", "Joe", "Émile", "Jack"], "Lisa"),
                ("Globex", ["Jane"], nil),
                ("Initech", [], "Joe"),
            ]
            for (name, employees, ceo) in companies {
                let key = try realm.create("Company", ["name": .string(name), "ceo": ceo.map { .object(keys.people[$0]!) } ?? .null])
                keys.companies[name] = key
                try realm.append(employees.map { .object(keys.people[$0]!) }, to: "employees", of: key, in: "Company")
            }
        }
        return keys
    }
}

extension Array where Element == ObjectKey {
    /// The names of `keys` in `table`, for readable expectations.
    func names(in keys: [String: ObjectKey]) -> [String] {
        let byKey = Dictionary(uniqueKeysWithValues: keys.map { ($1, $0) })
        return map { byKey[$0] ?? "?" }
    }
}

extension Value {
    /// Whether the value is a floating-point NaN, which equals nothing.
    var isNaN: Bool {
        switch self {
        case .double(let number): number.isNaN
        case .float(let number): number.isNaN
        default: false
        }
    }
}
