import Foundation
import RealmCore
import RealmQuery

/// A class with a property of every type, optional and required, lists of
/// several types and links to itself; and one file of rows holding the
/// awkward values: nil, NaN, -0.0, infinities, extreme integers, empty
/// strings and data, non-ASCII text that folds in various ways, pattern
/// characters, decimals beyond double precision.
///
/// The file is built once per test process and shared read-only: each test
/// reads it through a transaction of its own.
enum AllTypes {
    static let scalarTypes: [(String, PropertyType)] = [
        ("bool", .bool), ("int", .int), ("float", .float), ("double", .double), ("string", .string),
        ("data", .data), ("date", .date), ("objectId", .objectId), ("uuid", .uuid), ("decimal", .decimal),
    ]

    static let schema = Schema([
        ObjectSchema(name: "AllTypes", properties:
            [Property(name: "name", type: .string, isIndexed: true)]
            + scalarTypes.map { Property(name: $0.0 + "Col", type: $0.1) }
            + scalarTypes.map { Property(name: "opt" + $0.0.prefix(1).uppercased() + $0.0.dropFirst(), type: $0.1, isOptional: true) }
            + [
                Property(name: "intList", type: .int, isList: true),
                Property(name: "optIntList", type: .int, isOptional: true, isList: true),
                Property(name: "doubleList", type: .double, isList: true),
                Property(name: "stringList", type: .string, isList: true),
                Property(name: "optStringList", type: .string, isOptional: true, isList: true),
                Property(name: "dateList", type: .date, isList: true),
                Property(name: "decimalList", type: .decimal, isList: true),
                Property(name: "dataList", type: .data, isList: true),
                Property(name: "link", type: .object, isOptional: true, objectClassName: "AllTypes"),
                Property(name: "links", type: .object, isList: true, objectClassName: "AllTypes"),
                Property(name: "linkedFrom", type: .linkingObjects, objectClassName: "AllTypes", linkOriginPropertyName: "links"),
            ]),
    ])

    static let strings = [
        "", "a", "A", "abc", "ABC", "Abc", "Émile", "émile", "EMILE", "emile", "ÅSA", "åsa", "asa", "straße",
        "STRASSE", "strasse", "étoile", "Étoile", "a%b_c", "x*y?z", "[br]acket", "日本語", "İstanbul", "istanbul",
        "ǅemal", "ǆemal", "Øre", "ore", "ŁÓDŹ", "łódź", "lodz", "e\u{301}mile", "tab\there", "quote'\"",
    ]
    static let ints: [Int64] = [0, 1, -1, 5, 42, .max, .min, 100, 7, 3, -42, 1 << 53, (1 << 53) + 1, 2, 9, 10]
    static let floats: [Float] = [0, -0.0, 1.5, .nan, .infinity, -.infinity, 0.1, 3.25, -2, 1e30, 5, 7, 42, 0.5]
    static let doubles: [Double] = [0, -0.0, 1.5, .nan, .infinity, -.infinity, 0.1, 3.25, -2, 1e300, 5, 9_007_199_254_740_992, 42, 0.5, 7]
    static let datas: [Data] = [Data(), Data([0]), Data([0, 1, 2]), Data("abc".utf8), Data([255, 0]), Data("ABC".utf8),
                                Data([1, 2]), Data("a%b".utf8), Data([0, 0, 0])]
    static let dates: [Double] = [0, -1e9, 1e9, 12345.678, 0.5, -0.5, 86400, 1e9 + 1, 3.25]
    static let decimals = ["0", "1.5", "-3", "0.1", "12345678901234567890.123456789", "12345678901234567890.123456788",
                           "1.4999999999999999999999999", "1.5000000000000000000000001", "NaN", "100", "-0.000001", "7", "2.25"]

    static func objectId(_ index: Int) -> ObjectId {
        ObjectId(string: String(format: "5f%022x", index * 7919 % 97))!
    }

    static func uuid(_ index: Int) -> UUID {
        UUID(uuidString: String(format: "%08X-0000-4000-8000-%012X", index % 11, index * 31 % 13))!
    }

    static let rowCount = 40

    static func date(_ index: Int) -> Date { Date(timeIntervalSinceReferenceDate: dates[index % dates.count]) }
    static func decimal(_ index: Int) -> Decimal128 {
        let text = decimals[index % decimals.count]
        return text == "NaN" ? .nan : Decimal128(exactText: text)!
    }

    /// The values of row `i`, by property name.
    static func values(_ i: Int) -> [String: Value] {
        var values: [String: Value] = [
            "name": .string("row\(i)"),
            "boolCol": .bool(i % 3 == 0),
            "intCol": .int(ints[i % ints.count]),
            "floatCol": .float(floats[i % floats.count]),
            "doubleCol": .double(doubles[i % doubles.count]),
            "stringCol": .string(strings[i % strings.count]),
            "dataCol": .data(datas[i % datas.count]),
            "dateCol": .date(date(i)),
            "objectIdCol": .objectId(objectId(i % 6)),
            "uuidCol": .uuid(uuid(i % 5)),
            "decimalCol": .decimal(decimal(i)),
        ]
        // Optional properties: nil every fourth row, else values from other
        // positions of the same pools, so that key-path comparisons meet
        // equal and different values.
        let isNil = i % 4 == 1
        values["optBool"] = isNil ? .null : .bool(i % 2 == 0)
        values["optInt"] = isNil ? .null : .int(ints[(i * 3) % ints.count])
        values["optFloat"] = isNil ? .null : .float(floats[(i * 5) % floats.count])
        values["optDouble"] = isNil ? .null : .double(doubles[(i * 2) % doubles.count])
        values["optString"] = isNil ? .null : .string(strings[(i * 7) % strings.count])
        values["optData"] = isNil ? .null : .data(datas[(i * 2) % datas.count])
        values["optDate"] = isNil ? .null : .date(date(i * 3))
        values["optObjectId"] = isNil ? .null : .objectId(objectId((i * 5) % 6))
        values["optUuid"] = isNil ? .null : .uuid(uuid((i * 3) % 5))
        values["optDecimal"] = isNil ? .null : .decimal(decimal(i * 5))
        return values
    }

    static func lists(_ i: Int) -> [String: [Value]] {
        let count = i % 5
        return [
            "intList": (0..<count).map { .int(ints[(i + $0 * 3) % ints.count]) },
            "optIntList": (0..<count).map { $0 == 1 ? .null : .int(ints[(i * 2 + $0) % ints.count]) },
            "doubleList": (0..<count).map { .double(doubles[(i + $0 * 5) % doubles.count]) },
            "stringList": (0..<count).map { .string(strings[(i * 3 + $0 * 7) % strings.count]) },
            "optStringList": (0..<(i % 3)).map { $0 == 0 && i % 2 == 0 ? .null : .string(strings[(i + $0) % strings.count]) },
            "dateList": (0..<(i % 3)).map { .date(date(i + $0 * 2)) },
            "decimalList": (0..<(i % 4)).map { .decimal(decimal(i * 2 + $0)) },
            "dataList": (0..<(i % 3)).map { .data(datas[(i + $0) % datas.count]) },
        ]
    }

    private static let fixture = Result { () throws -> (Coordinator, [ObjectKey]) in try build() }

    /// A new transaction on the shared fixture file, and the rows' keys in
    /// creation order.
    static func open() throws -> (Transaction, [ObjectKey]) {
        let (coordinator, keys) = try fixture.get()
        return (try coordinator.makeTransaction(), keys)
    }

    /// Removes the fixtures of test processes that ended without running
    /// their exit handlers.
    private static func removeLeftovers() {
        let directory = FileManager.default.temporaryDirectory
        let prefix = "RealmQueryTests-AllTypes-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    private static let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("RealmQueryTests-AllTypes-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)").path

    private static func build() throws -> (Coordinator, [ObjectKey]) {
        removeLeftovers()
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: AllTypes.path) }
        let coordinator = try Coordinator.open(.file(path + "/fixture.realm", schema: schema))
        let transaction = try coordinator.makeTransaction()
        var keys: [ObjectKey] = []
        try transaction.write {
            for i in 0..<rowCount {
                keys.append(try transaction.createObject(ofClass: "AllTypes", values: values(i)))
            }
            let handle = try transaction.classHandle(named: "AllTypes")
            for (i, key) in keys.enumerated() {
                for (property, elements) in lists(i) {
                    let list = try transaction.list(transaction.propertyIndex(named: property, in: handle), of: key, in: handle)
                    for element in elements { try transaction.append(element, to: list) }
                }
                if i % 3 != 2 {
                    try transaction.setValue(.object(keys[(i * 7 + 3) % rowCount]), of: key,
                                             property: transaction.propertyIndex(named: "link", in: handle), in: handle)
                }
                let links = try transaction.list(transaction.propertyIndex(named: "links", in: handle), of: key, in: handle)
                for offset in 0..<(i % 4) {
                    try transaction.append(.object(keys[(i + offset * 11 + 1) % rowCount]), to: links)
                }
            }
        }
        return (coordinator, keys)
    }
}
