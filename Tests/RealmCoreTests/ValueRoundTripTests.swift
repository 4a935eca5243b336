import Foundation
import RealmCore
import Testing

/// Every value type of the storage model round-trips exactly, optional or
/// not, and values over the limits are refused without harming the
/// transaction.
@Suite struct ValueRoundTripTests {
    static let types: [PropertyType] = [.bool, .int, .float, .double, .string, .data, .date, .objectId, .uuid, .decimal]

    static let schema = Schema([
        ObjectSchema(name: "AllTypes", properties: types.map { Property(name: $0.rawValue, type: $0) }
            + types.map { Property(name: "optional_" + $0.rawValue, type: $0, isOptional: true) }
            + types.map { Property(name: "list_" + $0.rawValue, type: $0, isList: true) }),
    ])

    /// Values chosen at the edges of each type.
    static let samples: [PropertyType: [Value]] = [
        .bool: [.bool(true), .bool(false)],
        .int: [.int(0), .int(-1), .int(Int64.max), .int(Int64.min)],
        .float: [.float(1.5), .float(-0.0), .float(.greatestFiniteMagnitude), .float(.leastNonzeroMagnitude), .float(.infinity), .float(.nan), .float(0.1)],
        .double: [.double(0.1), .double(-0.0), .double(.pi), .double(.leastNonzeroMagnitude), .double(-.infinity), .double(.nan), .double(1e308)],
        .string: [.string(""), .string("héllo wörld ✓ 🐶"), .string("nul\u{0}inside"), .string("quote ' and \" and ; DROP TABLE x")],
        .data: [.data(Data()), .data(Data([0, 1, 2, 255])), .data(Data(repeating: 7, count: 100_000))],
        .date: [.date(Date(timeIntervalSinceReferenceDate: 0)), .date(Date(timeIntervalSinceReferenceDate: 123_456_789.123_456_789)),
                .date(Date(timeIntervalSince1970: -1e10)), .date(Date.distantFuture)],
        .objectId: [.objectId(ObjectId.generate()), .objectId(ObjectId(string: "000000000000000000000000")!), .objectId(ObjectId(string: "ffffffffffffffffffffffff")!)],
        .uuid: [.uuid(UUID()), .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000000")!)],
        .decimal: [.decimal("3.141592653589793238462643383279503"), .decimal("-0"), .decimal("-1e-30"), .decimal("1.50"),
                   .decimal("1.500E6"), .decimal(.nan), .decimal(.infinity), .decimal(-.infinity), .decimal(.max), .decimal(.min),
                   .decimal("1E-6176"), .decimal("0E+300")],
    ]

    /// Bitwise equality where `==` is not enough (NaN, -0.0).
    static func identical(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.float(let x), .float(let y)): x.bitPattern == y.bitPattern
        case (.double(let x), .double(let y)): x.bitPattern == y.bitPattern
        case (.date(let x), .date(let y)): x.timeIntervalSinceReferenceDate.bitPattern == y.timeIntervalSinceReferenceDate.bitPattern
        // The same coefficient and exponent, not only the same value.
        case (.decimal(let x), .decimal(let y)): x.canonicalText == y.canonicalText
        default: a == b
        }
    }

    @Test(arguments: types)
    func roundTrip(type: PropertyType) throws {
        let directory = TemporaryDirectory()
        let path = directory.path()
        var written: [(ObjectKey, Value)] = []
        do {
            let coordinator = try Coordinator.open(.file(path, schema: Self.schema))
            let transaction = try coordinator.makeTransaction()
            let handle = try transaction.classHandle(named: "AllTypes")
            let required = try transaction.propertyIndex(named: type.rawValue, in: handle)
            let optional = try transaction.propertyIndex(named: "optional_" + type.rawValue, in: handle)
            let list = try transaction.propertyIndex(named: "list_" + type.rawValue, in: handle)
            try transaction.write {
                for value in Self.samples[type]! {
                    let key = try transaction.createObject(in: handle)
                    try transaction.setValue(value, of: key, property: required, in: handle)
                    try transaction.setValue(value, of: key, property: optional, in: handle)
                    try transaction.append(value, to: transaction.list(list, of: key, in: handle))
                    written.append((key, value))
                }
                let nilObject = try transaction.createObject(in: handle)
                #expect(try transaction.value(of: nilObject, property: optional, in: handle) == .null)
                #expect(try transaction.value(of: nilObject, property: required, in: handle).isNull == false)
            }
        }
        // Read back through a new coordinator, from the file.
        let coordinator = try Coordinator.open(.file(path, schema: Self.schema))
        let transaction = try coordinator.makeTransaction()
        let handle = try transaction.classHandle(named: "AllTypes")
        let required = try transaction.propertyIndex(named: type.rawValue, in: handle)
        let optional = try transaction.propertyIndex(named: "optional_" + type.rawValue, in: handle)
        let list = try transaction.propertyIndex(named: "list_" + type.rawValue, in: handle)
        for (key, value) in written {
            let read = try transaction.value(of: key, property: required, in: handle)
            #expect(Self.identical(read, value), "\(type): wrote \(value), read \(read)")
            #expect(Self.identical(try transaction.value(of: key, property: optional, in: handle), value))
            let elements = try transaction.values(of: transaction.list(list, of: key, in: handle))
            #expect(elements.count == 1 && Self.identical(elements[0], value))
            let row = try transaction.values(of: key, in: handle)
            #expect(Self.identical(row[required], value))
        }
    }

    @Test func sixteenMegabytesIsTheLimit() throws {
        let directory = TemporaryDirectory()
        let coordinator = try Coordinator.open(.file(directory.path(), schema: Self.schema))
        let transaction = try coordinator.makeTransaction()
        let handle = try transaction.classHandle(named: "AllTypes")
        let data = try transaction.propertyIndex(named: "data", in: handle)
        let string = try transaction.propertyIndex(named: "string", in: handle)
        try transaction.beginWrite()
        let key = try transaction.createObject(in: handle)
        let largest = Data(repeating: 0xab, count: SchemaLimits.maximumValueSize)
        try transaction.setValue(.data(largest), of: key, property: data, in: handle)

        let error = #expect(throws: RealmError.self) {
            try transaction.setValue(.data(largest + [1]), of: key, property: data, in: handle)
        }
        #expect(error?.kind == .valueTooLarge)
        #expect(error?.message.contains("'AllTypes.data'") == true)
        #expect(throws: RealmError.self) {
            try transaction.setValue(.string(String(repeating: "x", count: SchemaLimits.maximumValueSize + 1)), of: key, property: string, in: handle)
        }
        // The transaction is still usable and the earlier write intact.
        try transaction.setValue(.string("fine"), of: key, property: string, in: handle)
        try transaction.commitWrite()
        #expect(try transaction.value(of: key, property: data, in: handle) == .data(largest))
        #expect(try transaction.value(of: key, property: string, in: handle) == .string("fine"))
    }

    @Test func wrongTypesAndNilAreRefusedWithNames() throws {
        let directory = TemporaryDirectory()
        let coordinator = try openCoordinator(directory)
        let transaction = try coordinator.makeTransaction()
        let dogs = try transaction.classHandle(named: "Dog")
        try transaction.beginWrite()
        let wrongType = #expect(throws: RealmError.self) {
            try transaction.createObject(in: dogs, values: [.string("Rex"), .string("three")])
        }
        #expect(wrongType?.kind == .wrongType)
        #expect(wrongType?.message.contains("'Dog.age'") == true)
        let missingNil = #expect(throws: RealmError.self) {
            try transaction.createObject(in: dogs, values: [.null, .int(3)])
        }
        #expect(missingNil?.kind == .missingValue)
        #expect(missingNil?.message.contains("'Dog.name' is required") == true)
        let danglingLink = #expect(throws: RealmError.self) {
            try transaction.createObject(in: dogs, values: [.string("Rex"), .int(3), .object(ObjectKey(999))])
        }
        #expect(danglingLink?.message.contains("'Dog.owner'") == true)
        #expect(try transaction.count(of: dogs) == 0)
        try transaction.createObject(in: dogs, values: [.string("Rex"), .int(3)])
        try transaction.commitWrite()
        #expect(try transaction.count(of: dogs) == 1)
    }

    @Test func objectIdFormats() throws {
        let id = try #require(ObjectId(string: "5f1b2c3d4e5f60718293a4b5"))
        #expect(id.stringValue == "5f1b2c3d4e5f60718293a4b5")
        #expect(id.bytes.count == 12)
        #expect(ObjectId(bytes: id.bytes) == id)
        #expect(ObjectId(string: "not an id") == nil)
        #expect(ObjectId(string: "5f1b2c3d4e5f60718293a4bz") == nil)
        let first = ObjectId.generate()
        let second = ObjectId.generate()
        #expect(first != second)
        #expect(abs(first.timestamp.timeIntervalSinceNow) < 5)
        #expect(ObjectId(string: "000000000000000000000001")! < ObjectId(string: "000000000000000000000100")!)
    }

    /// Strings are equal by code points, as Realm and SQLite compare them,
    /// not by Swift's canonical equivalence; small (inline) and native
    /// strings, and strings built in different ways, compare by content.
    @Test func stringsAreEqualByCodePoints() {
        let precomposed = "caf\u{E9}", decomposed = "cafe\u{301}"
        #expect(precomposed == decomposed)
        #expect(Value.string(precomposed) != Value.string(decomposed))
        let long = String(repeating: "stringCol == %@ ", count: 4)
        let built = (0..<4).map { _ in "stringCol == %@ " }.joined()
        #expect(Value.string(long) == Value.string(built))
        #expect(Value.string("short") == Value.string(String("a short".dropFirst(2))))
        #expect(Value.string(long) != Value.string(long + "x"))
        #expect(Value.string("") == Value.string(String()))
        #expect(Value.string(long.uppercased()) != Value.string(long))
    }
}
