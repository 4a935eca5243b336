import Foundation
import RealmObjects
import Testing

// realm-swift v10.54.6's RealmSwift/Tests/CodableTests.swift, ported: all
// fourteen tests, each a `@Test` named without its `test` prefix.
//
// Adaptations:
// - The models have a `Port` prefix (`PortCodableObject`,
//   `PortModernCodableObject`, `PortCodableTopLevelObject`,
//   `PortCodableEmbeddedObject`) and `IntEnum` is `CodablePortIntEnum`, a
//   `PersistableEnum`: all test files share one module.
// - `CodableObject`'s `@objc dynamic var`s are `@Persisted var`s with the
//   same defaults, since Linux has no Objective-C runtime
//   (Docs/DifferencesFromApplePlatforms.md). Its `RealmOptional`,
//   `RealmProperty` and collection properties keep their `var … = T()`
//   form. It needs no `@available(*, deprecated)`: `RealmOptional` is not
//   deprecated here.
// - The `decode`/`encode` helpers' `RealmOptionalType &
//   _RealmSchemaDiscoverable` is `CodablePortOptionalType`, declared here
//   for the same types (Bool, the integers, Float, Double). This package
//   has no such protocol: its `RealmOptional` takes any persistable type.
// - `ObjectId("…")` is `ObjectId(string: "…")`, which is optional
//   (force-unwrapped where it is assigned).
// - `try!` is `try` (the tests throw) and `XCTUnwrap` is `#require`. In
//   the five value tests (testBool … testDecimal) the operands of `==` are
//   swapped so that `try` can come first.
// - The JSON of testModernObject, testModernObjectNil and
//   testKeyEncodingStrategy is chosen by `if #available(macOS 15.0,
//   iOS 18.0, watchOS 11.0, tvOS 18.0, *)`. Only the first branch is kept:
//   on Linux the condition always holds (the `*`), and swift-foundation's
//   JSONEncoder sorts keys as the 2024 OSes' does ("int16" before "int8").
//   The `else` branches, the older order, would be dead code here.
// - testModernObject adds its object to an in-memory Realm of the three
//   model types rather than to the test case's default Realm.
// - testModernObject ends with `XCTAssertThrowsError(try
//   encoder.encode(obj))` on the object once it is managed: Realm's
//   `Persisted.encode(to:)` throws for a managed property ("Only unmanaged
//   Realm objects can be encoded using automatic Codable synthesis",
//   RealmSwift/PersistedProperty.swift). Here a managed object encodes by
//   reading the Realm, a deliberate difference (Docs/ComingFromRealmSwift10.md,
//   "Codable"). So the port expects it to encode to the same JSON as the
//   unmanaged object did.
//
// Every test and assertion is ported. None is a known issue.

/// realm-swift's `IntEnum` (an `@objc enum …: RealmEnum, Codable`).
enum CodablePortIntEnum: Int, PersistableEnum, Codable {
    case value1 = 1
    case value2 = 3
}

/// realm-swift's `RealmOptionalType`: the types a `RealmOptional` holds
/// there (this package's `RealmOptional` takes any persistable type).
protocol CodablePortOptionalType: _Persistable, Codable {}
extension Bool: CodablePortOptionalType {}
extension Int: CodablePortOptionalType {}
extension Int8: CodablePortOptionalType {}
extension Int16: CodablePortOptionalType {}
extension Int32: CodablePortOptionalType {}
extension Int64: CodablePortOptionalType {}
extension Float: CodablePortOptionalType {}
extension Double: CodablePortOptionalType {}

/// realm-swift's `CodableObject`, with `@Persisted var` for
/// `@objc dynamic var`.
final class PortCodableObject: Object, Codable {
    @Persisted var string: String = ""
    @Persisted var data: Data = Data()
    @Persisted var date: Date = Date()
    @Persisted var int: Int = 0
    @Persisted var int8: Int8 = 0
    @Persisted var int16: Int16 = 0
    @Persisted var int32: Int32 = 0
    @Persisted var int64: Int64 = 0
    @Persisted var float: Float = 0
    @Persisted var double: Double = 0
    @Persisted var bool: Bool = false
    @Persisted var decimal: Decimal128 = 0
    @Persisted var objectId = ObjectId()
    @Persisted var uuid = UUID()

    @Persisted var stringOpt: String?
    @Persisted var dataOpt: Data?
    @Persisted var dateOpt: Date?
    @Persisted var decimalOpt: Decimal128?
    @Persisted var objectIdOpt: ObjectId?
    var intOpt = RealmOptional<Int>()
    var int8Opt = RealmOptional<Int8>()
    var int16Opt = RealmOptional<Int16>()
    var int32Opt = RealmOptional<Int32>()
    var int64Opt = RealmOptional<Int64>()
    var floatOpt = RealmOptional<Float>()
    var doubleOpt = RealmOptional<Double>()
    var boolOpt = RealmOptional<Bool>()

    var otherInt = RealmProperty<Int?>()
    var otherInt8 = RealmProperty<Int8?>()
    var otherInt16 = RealmProperty<Int16?>()
    var otherInt32 = RealmProperty<Int32?>()
    var otherInt64 = RealmProperty<Int64?>()
    var otherFloat = RealmProperty<Float?>()
    var otherDouble = RealmProperty<Double?>()
    var otherBool = RealmProperty<Bool?>()
    var otherEnum = RealmProperty<CodablePortIntEnum?>()

    @Persisted var uuidOpt: UUID?

    var boolList = List<Bool>()
    var intList = List<Int>()
    var int8List = List<Int8>()
    var int16List = List<Int16>()
    var int32List = List<Int32>()
    var int64List = List<Int64>()
    var floatList = List<Float>()
    var doubleList = List<Double>()
    var stringList = List<String>()
    var dataList = List<Data>()
    var dateList = List<Date>()
    var decimalList = List<Decimal128>()
    var objectIdList = List<ObjectId>()
    var uuidList = List<UUID>()

    var boolOptList = List<Bool?>()
    var intOptList = List<Int?>()
    var int8OptList = List<Int8?>()
    var int16OptList = List<Int16?>()
    var int32OptList = List<Int32?>()
    var int64OptList = List<Int64?>()
    var floatOptList = List<Float?>()
    var doubleOptList = List<Double?>()
    var stringOptList = List<String?>()
    var dataOptList = List<Data?>()
    var dateOptList = List<Date?>()
    var decimalOptList = List<Decimal128?>()
    var objectIdOptList = List<ObjectId?>()
    var uuidOptList = List<UUID?>()

    var boolSet = MutableSet<Bool>()
    var intSet = MutableSet<Int>()
    var int8Set = MutableSet<Int8>()
    var int16Set = MutableSet<Int16>()
    var int32Set = MutableSet<Int32>()
    var int64Set = MutableSet<Int64>()
    var floatSet = MutableSet<Float>()
    var doubleSet = MutableSet<Double>()
    var stringSet = MutableSet<String>()
    var dataSet = MutableSet<Data>()
    var dateSet = MutableSet<Date>()
    var decimalSet = MutableSet<Decimal128>()
    var objectIdSet = MutableSet<ObjectId>()
    var uuidSet = MutableSet<UUID>()

    var boolOptSet = MutableSet<Bool?>()
    var intOptSet = MutableSet<Int?>()
    var int8OptSet = MutableSet<Int8?>()
    var int16OptSet = MutableSet<Int16?>()
    var int32OptSet = MutableSet<Int32?>()
    var int64OptSet = MutableSet<Int64?>()
    var floatOptSet = MutableSet<Float?>()
    var doubleOptSet = MutableSet<Double?>()
    var stringOptSet = MutableSet<String?>()
    var dataOptSet = MutableSet<Data?>()
    var dateOptSet = MutableSet<Date?>()
    var decimalOptSet = MutableSet<Decimal128?>()
    var objectIdOptSet = MutableSet<ObjectId?>()
    var uuidOptSet = MutableSet<UUID?>()

    var boolMap = Map<String, Bool>()
    var intMap = Map<String, Int>()
    var int8Map = Map<String, Int8>()
    var int16Map = Map<String, Int16>()
    var int32Map = Map<String, Int32>()
    var int64Map = Map<String, Int64>()
    var floatMap = Map<String, Float>()
    var doubleMap = Map<String, Double>()
    var stringMap = Map<String, String>()
    var dataMap = Map<String, Data>()
    var dateMap = Map<String, Date>()
    var decimalMap = Map<String, Decimal128>()
    var objectIdMap = Map<String, ObjectId>()
    var uuidMap = Map<String, UUID>()

    var boolOptMap = Map<String, Bool?>()
    var intOptMap = Map<String, Int?>()
    var int8OptMap = Map<String, Int8?>()
    var int16OptMap = Map<String, Int16?>()
    var int32OptMap = Map<String, Int32?>()
    var int64OptMap = Map<String, Int64?>()
    var floatOptMap = Map<String, Float?>()
    var doubleOptMap = Map<String, Double?>()
    var stringOptMap = Map<String, String?>()
    var dataOptMap = Map<String, Data?>()
    var dateOptMap = Map<String, Date?>()
    var decimalOptMap = Map<String, Decimal128?>()
    var objectIdOptMap = Map<String, ObjectId?>()
    var uuidOptMap = Map<String, UUID?>()
}

/// realm-swift's `ModernCodableObject`.
final class PortModernCodableObject: Object, Codable {
    @Persisted var string: String
    @Persisted var data: Data
    @Persisted var date: Date
    @Persisted var int: Int
    @Persisted var int8: Int8
    @Persisted var int16: Int16
    @Persisted var int32: Int32
    @Persisted var int64: Int64
    @Persisted var float: Float
    @Persisted var double: Double
    @Persisted var bool: Bool
    @Persisted var decimal: Decimal128
    @Persisted var objectId: ObjectId
    @Persisted var uuid: UUID

    @Persisted var stringOpt: String?
    @Persisted var dataOpt: Data?
    @Persisted var dateOpt: Date?
    @Persisted var decimalOpt: Decimal128?
    @Persisted var objectIdOpt: ObjectId?
    @Persisted var intOpt: Int?
    @Persisted var int8Opt: Int8?
    @Persisted var int16Opt: Int16?
    @Persisted var int32Opt: Int32?
    @Persisted var int64Opt: Int64?
    @Persisted var floatOpt: Float?
    @Persisted var doubleOpt: Double?
    @Persisted var boolOpt: Bool?
    @Persisted var uuidOpt: UUID?
    @Persisted var objectOpt: PortCodableTopLevelObject?
    @Persisted var embeddedObjectOpt: PortCodableEmbeddedObject?

    @Persisted var boolList: List<Bool>
    @Persisted var intList: List<Int>
    @Persisted var int8List: List<Int8>
    @Persisted var int16List: List<Int16>
    @Persisted var int32List: List<Int32>
    @Persisted var int64List: List<Int64>
    @Persisted var floatList: List<Float>
    @Persisted var doubleList: List<Double>
    @Persisted var stringList: List<String>
    @Persisted var dataList: List<Data>
    @Persisted var dateList: List<Date>
    @Persisted var decimalList: List<Decimal128>
    @Persisted var objectIdList: List<ObjectId>
    @Persisted var uuidList: List<UUID>
    @Persisted var objectList: List<PortCodableTopLevelObject>
    @Persisted var embeddedObjectList: List<PortCodableEmbeddedObject>

    @Persisted var boolOptList: List<Bool?>
    @Persisted var intOptList: List<Int?>
    @Persisted var int8OptList: List<Int8?>
    @Persisted var int16OptList: List<Int16?>
    @Persisted var int32OptList: List<Int32?>
    @Persisted var int64OptList: List<Int64?>
    @Persisted var floatOptList: List<Float?>
    @Persisted var doubleOptList: List<Double?>
    @Persisted var stringOptList: List<String?>
    @Persisted var dataOptList: List<Data?>
    @Persisted var dateOptList: List<Date?>
    @Persisted var decimalOptList: List<Decimal128?>
    @Persisted var objectIdOptList: List<ObjectId?>
    @Persisted var uuidOptList: List<UUID?>

    @Persisted var boolSet: MutableSet<Bool>
    @Persisted var intSet: MutableSet<Int>
    @Persisted var int8Set: MutableSet<Int8>
    @Persisted var int16Set: MutableSet<Int16>
    @Persisted var int32Set: MutableSet<Int32>
    @Persisted var int64Set: MutableSet<Int64>
    @Persisted var floatSet: MutableSet<Float>
    @Persisted var doubleSet: MutableSet<Double>
    @Persisted var stringSet: MutableSet<String>
    @Persisted var dataSet: MutableSet<Data>
    @Persisted var dateSet: MutableSet<Date>
    @Persisted var decimalSet: MutableSet<Decimal128>
    @Persisted var objectIdSet: MutableSet<ObjectId>
    @Persisted var uuidSet: MutableSet<UUID>
    @Persisted var objectSet: MutableSet<PortCodableTopLevelObject>

    @Persisted var boolOptSet: MutableSet<Bool?>
    @Persisted var intOptSet: MutableSet<Int?>
    @Persisted var int8OptSet: MutableSet<Int8?>
    @Persisted var int16OptSet: MutableSet<Int16?>
    @Persisted var int32OptSet: MutableSet<Int32?>
    @Persisted var int64OptSet: MutableSet<Int64?>
    @Persisted var floatOptSet: MutableSet<Float?>
    @Persisted var doubleOptSet: MutableSet<Double?>
    @Persisted var stringOptSet: MutableSet<String?>
    @Persisted var dataOptSet: MutableSet<Data?>
    @Persisted var dateOptSet: MutableSet<Date?>
    @Persisted var decimalOptSet: MutableSet<Decimal128?>
    @Persisted var objectIdOptSet: MutableSet<ObjectId?>
    @Persisted var uuidOptSet: MutableSet<UUID?>

    @Persisted var boolMap: Map<String, Bool>
    @Persisted var intMap: Map<String, Int>
    @Persisted var int8Map: Map<String, Int8>
    @Persisted var int16Map: Map<String, Int16>
    @Persisted var int32Map: Map<String, Int32>
    @Persisted var int64Map: Map<String, Int64>
    @Persisted var floatMap: Map<String, Float>
    @Persisted var doubleMap: Map<String, Double>
    @Persisted var stringMap: Map<String, String>
    @Persisted var dataMap: Map<String, Data>
    @Persisted var dateMap: Map<String, Date>
    @Persisted var decimalMap: Map<String, Decimal128>
    @Persisted var objectIdMap: Map<String, ObjectId>
    @Persisted var uuidMap: Map<String, UUID>

    @Persisted var boolOptMap: Map<String, Bool?>
    @Persisted var intOptMap: Map<String, Int?>
    @Persisted var int8OptMap: Map<String, Int8?>
    @Persisted var int16OptMap: Map<String, Int16?>
    @Persisted var int32OptMap: Map<String, Int32?>
    @Persisted var int64OptMap: Map<String, Int64?>
    @Persisted var floatOptMap: Map<String, Float?>
    @Persisted var doubleOptMap: Map<String, Double?>
    @Persisted var stringOptMap: Map<String, String?>
    @Persisted var dataOptMap: Map<String, Data?>
    @Persisted var dateOptMap: Map<String, Date?>
    @Persisted var decimalOptMap: Map<String, Decimal128?>
    @Persisted var objectIdOptMap: Map<String, ObjectId?>
    @Persisted var uuidOptMap: Map<String, UUID?>
    @Persisted var objectOptMap: Map<String, PortCodableTopLevelObject?>
    @Persisted var embeddedObjectOptMap: Map<String, PortCodableEmbeddedObject?>
}

final class PortCodableTopLevelObject: Object, Codable {
    @Persisted var value: Int
}

final class PortCodableEmbeddedObject: EmbeddedObject, Codable {
    @Persisted var value: Int
}

@Suite struct CodablePortTests {
    let decoder = JSONDecoder()
    let encoder = JSONEncoder()

    func decode<T: CodablePortOptionalType>(_ type: T.Type, _ str: String) throws -> RealmOptional<T> {
        return try decode(RealmOptional<T>.self, str)
    }
    func decode<T: Codable>(_ type: T.Type, _ str: String) throws -> T {
        return try decoder.decode([T].self, from: str.data(using: .utf8)!).first!
    }

    func encode<T: CodablePortOptionalType>(_ value: T?) throws -> String {
        let opt = RealmOptional<T>()
        opt.value = value
        return try String(data: encoder.encode([opt]), encoding: .utf8)!
    }
    func encode<T: Codable>(_ value: T?) throws -> String {
        return try String(data: encoder.encode([value]), encoding: .utf8)!
    }

    func legacyObjectString(_ nullRealmProperty: Bool = false) -> String {
        """
        {
            "bool": true,
            "string": "abc",
            "int": 123,
            "int8": 123,
            "int16": 123,
            "int32": 123,
            "int64": 123,
            "float": 2.5,
            "double": 2.5,
            "date": 2.5,
            "data": "\(Data("def".utf8).base64EncodedString())",
            "decimal": "1.5e2",
            "objectId": "1234567890abcdef12345678",
            "uuid": "00000000-0000-0000-0000-000000000000",

            "boolOpt": true,
            "stringOpt": "abc",
            "intOpt": 123,
            "int8Opt": 123,
            "int16Opt": 123,
            "int32Opt": 123,
            "int64Opt": 123,
            "floatOpt": 2.5,
            "doubleOpt": 2.5,
            "dateOpt": 2.5,
            "dataOpt": "\(Data("def".utf8).base64EncodedString())",
            "decimalOpt": "1.5e2",
            "objectIdOpt": "1234567890abcdef12345678",
            "uuidOpt": "00000000-0000-0000-0000-000000000000",

            "otherBool": \(nullRealmProperty ? "null" : "true"),
            "otherInt": \(nullRealmProperty ? "null" : "123"),
            "otherInt8": \(nullRealmProperty ? "null" : "123"),
            "otherInt16": \(nullRealmProperty ? "null" : "123"),
            "otherInt32": \(nullRealmProperty ? "null" : "123"),
            "otherInt64": \(nullRealmProperty ? "null" : "123"),
            "otherFloat": \(nullRealmProperty ? "null" : "2.5"),
            "otherDouble": \(nullRealmProperty ? "null" : "2.5"),
            "otherEnum": \(nullRealmProperty ? "null" : "1"),
            "otherAny": \(nullRealmProperty ? "null" : "1"),

            "boolList": [true],
            "stringList": ["abc"],
            "intList": [123],
            "int8List": [123],
            "int16List": [123],
            "int32List": [123],
            "int64List": [123],
            "floatList": [2.5],
            "doubleList": [2.5],
            "dateList": [2.5],
            "dataList": ["\(Data("def".utf8).base64EncodedString())"],
            "decimalList": ["1.5e2"],
            "objectIdList": ["1234567890abcdef12345678"],
            "uuidList": ["00000000-0000-0000-0000-000000000000"],

            "boolOptList": [true],
            "stringOptList": ["abc"],
            "intOptList": [123],
            "int8OptList": [123],
            "int16OptList": [123],
            "int32OptList": [123],
            "int64OptList": [123],
            "floatOptList": [2.5],
            "doubleOptList": [2.5],
            "dateOptList": [2.5],
            "dataOptList": ["\(Data("def".utf8).base64EncodedString())"],
            "decimalOptList": ["1.5e2"],
            "objectIdOptList": ["1234567890abcdef12345678"],
            "uuidOptList": ["00000000-0000-0000-0000-000000000000"],

            "boolSet": [true],
            "stringSet": ["abc"],
            "intSet": [123],
            "int8Set": [123],
            "int16Set": [123],
            "int32Set": [123],
            "int64Set": [123],
            "floatSet": [2.5],
            "doubleSet": [2.5],
            "dateSet": [2.5],
            "dataSet": ["\(Data("def".utf8).base64EncodedString())"],
            "decimalSet": ["1.5e2"],
            "objectIdSet": ["1234567890abcdef12345678"],
            "uuidSet": ["00000000-0000-0000-0000-000000000000"],

            "boolOptSet": [true],
            "stringOptSet": ["abc"],
            "intOptSet": [123],
            "int8OptSet": [123],
            "int16OptSet": [123],
            "int32OptSet": [123],
            "int64OptSet": [123],
            "floatOptSet": [2.5],
            "doubleOptSet": [2.5],
            "dateOptSet": [2.5],
            "dataOptSet": ["\(Data("def".utf8).base64EncodedString())"],
            "decimalOptSet": ["1.5e2"],
            "objectIdOptSet": ["1234567890abcdef12345678"],
            "uuidOptSet": ["00000000-0000-0000-0000-000000000000"],

            "boolMap": {"foo": true},
            "stringMap": {"foo": "abc"},
            "intMap": {"foo": 123},
            "int8Map": {"foo": 123},
            "int16Map": {"foo": 123},
            "int32Map": {"foo": 123},
            "int64Map": {"foo": 123},
            "floatMap": {"foo": 2.5},
            "doubleMap": {"foo": 2.5},
            "dateMap": {"foo": 2.5},
            "dataMap": {"foo": "\(Data("def".utf8).base64EncodedString())"},
            "decimalMap": {"foo": "1.5e2"},
            "objectIdMap": {"foo": "1234567890abcdef12345678"},
            "uuidMap": {"foo": "00000000-0000-0000-0000-000000000000"},

            "boolOptMap": {"foo": true},
            "stringOptMap": {"foo": "abc"},
            "intOptMap": {"foo": 123},
            "int8OptMap": {"foo": 123},
            "int16OptMap": {"foo": 123},
            "int32OptMap": {"foo": 123},
            "int64OptMap": {"foo": 123},
            "floatOptMap": {"foo": 2.5},
            "doubleOptMap": {"foo": 2.5},
            "dateOptMap": {"foo": 2.5},
            "dataOptMap": {"foo": "\(Data("def".utf8).base64EncodedString())"},
            "decimalOptMap": {"foo": "1.5e2"},
            "objectIdOptMap": {"foo": "1234567890abcdef12345678"},
            "uuidOptMap": {"foo": "00000000-0000-0000-0000-000000000000"}
        }
        """
    }

    @Test func bool() throws {
        #expect(try decode(Bool.self, "[true]").value == true)
        #expect(try decode(Bool.self, "[null]").value == nil)
        #expect(try encode(true) == "[true]")
        #expect(try encode(nil as Bool?) == "[null]")
    }

    @Test func int() throws {
        #expect(try decode(Int.self, "[1]").value == 1)
        #expect(try decode(Int.self, "[null]").value == nil)
        #expect(try encode(10) == "[10]")
        #expect(try encode(nil as Int?) == "[null]")
    }

    @Test func float() throws {
        #expect(try decode(Float.self, "[2.2]").value == 2.2)
        #expect(try decode(Float.self, "[null]").value == nil)
        #expect(try encode(2.25) == "[2.25]")
        #expect(try encode(nil as Float?) == "[null]")
    }

    @Test func double() throws {
        #expect(try decode(Double.self, "[2.2]").value == 2.2)
        #expect(try decode(Double.self, "[null]").value == nil)
        #expect(try encode(2.25) == "[2.25]")
        #expect(try encode(nil as Double?) == "[null]")
    }

    @Test func decimal() throws {
        #expect(try decode(Decimal128.self, "[2.2]") == "2.2")
        #expect(try decode(Decimal128.self, "[\"1234567890e123\"]") == "1234567890e123")
        #expect(try decode(Decimal128?.self, "[null]") == nil)
        #expect(try encode("1234567890e123" as Decimal128) == "[\"1.23456789E132\"]")
    }

    @Test func nullableRealmProperty() throws {
        let decoder = JSONDecoder()
        let obj = try decoder.decode(PortCodableObject.self, from: Data(legacyObjectString(true).utf8))

        #expect(obj.otherBool.value == nil)
        #expect(obj.otherInt.value == nil)
        #expect(obj.otherInt8.value == nil)
        #expect(obj.otherInt16.value == nil)
        #expect(obj.otherInt32.value == nil)
        #expect(obj.otherInt64.value == nil)
        #expect(obj.otherFloat.value == nil)
        #expect(obj.otherDouble.value == nil)
        #expect(obj.otherDouble.value == .none)
    }

    @Test func object() throws {
        let decoder = JSONDecoder()
        let obj = try decoder.decode(PortCodableObject.self, from: Data(legacyObjectString().utf8))

        #expect(obj.bool == true)
        #expect(obj.int == 123)
        #expect(obj.int8 == 123)
        #expect(obj.int16 == 123)
        #expect(obj.int32 == 123)
        #expect(obj.int64 == 123)
        #expect(obj.float == 2.5)
        #expect(obj.double == 2.5)
        #expect(obj.string == "abc")
        #expect(obj.date == Date(timeIntervalSinceReferenceDate: 2.5))
        #expect(obj.data == Data("def".utf8))
        #expect(obj.decimal == "1.5e2")
        #expect(obj.objectId == ObjectId(string: "1234567890abcdef12345678"))

        #expect(obj.boolOpt.value == true)
        #expect(obj.intOpt.value == 123)
        #expect(obj.int8Opt.value == 123)
        #expect(obj.int16Opt.value == 123)
        #expect(obj.int32Opt.value == 123)
        #expect(obj.int64Opt.value == 123)
        #expect(obj.floatOpt.value == 2.5)
        #expect(obj.doubleOpt.value == 2.5)
        #expect(obj.stringOpt == "abc")
        #expect(obj.dateOpt == Date(timeIntervalSinceReferenceDate: 2.5))
        #expect(obj.dataOpt == Data("def".utf8))
        #expect(obj.decimalOpt == "1.5e2")
        #expect(obj.objectIdOpt == ObjectId(string: "1234567890abcdef12345678"))

        #expect(obj.otherBool.value == true)
        #expect(obj.otherInt.value == 123)
        #expect(obj.otherInt8.value == 123)
        #expect(obj.otherInt16.value == 123)
        #expect(obj.otherInt32.value == 123)
        #expect(obj.otherInt64.value == 123)
        #expect(obj.otherFloat.value == 2.5)
        #expect(obj.otherDouble.value == 2.5)
        #expect(obj.otherEnum.value == .value1)

        #expect(obj.boolList.first == true)
        #expect(obj.intList.first == 123)
        #expect(obj.int8List.first == 123)
        #expect(obj.int16List.first == 123)
        #expect(obj.int32List.first == 123)
        #expect(obj.int64List.first == 123)
        #expect(obj.floatList.first == 2.5)
        #expect(obj.doubleList.first == 2.5)
        #expect(obj.stringList.first == "abc")
        #expect(obj.dateList.first == Date(timeIntervalSinceReferenceDate: 2.5))
        #expect(obj.dataList.first == Data("def".utf8))
        #expect(obj.decimalList.first == "1.5e2")
        #expect(obj.objectIdList.first == ObjectId(string: "1234567890abcdef12345678"))

        #expect(obj.boolOptList.first == true)
        #expect(obj.intOptList.first == 123)
        #expect(obj.int8OptList.first == 123)
        #expect(obj.int16OptList.first == 123)
        #expect(obj.int32OptList.first == 123)
        #expect(obj.int64OptList.first == 123)
        #expect(obj.floatOptList.first == 2.5)
        #expect(obj.doubleOptList.first == 2.5)
        #expect(obj.stringOptList.first == "abc")
        #expect(obj.dateOptList.first == Date(timeIntervalSinceReferenceDate: 2.5))
        #expect(obj.dataOptList.first == Data("def".utf8))
        #expect(obj.decimalOptList.first == "1.5e2")
        #expect(obj.objectIdOptList.first == ObjectId(string: "1234567890abcdef12345678"))

        #expect(obj.boolSet.first == true)
        #expect(obj.intSet.first == 123)
        #expect(obj.int8Set.first == 123)
        #expect(obj.int16Set.first == 123)
        #expect(obj.int32Set.first == 123)
        #expect(obj.int64Set.first == 123)
        #expect(obj.floatSet.first == 2.5)
        #expect(obj.doubleSet.first == 2.5)
        #expect(obj.stringSet.first == "abc")
        #expect(obj.dateSet.first == Date(timeIntervalSinceReferenceDate: 2.5))
        #expect(obj.dataSet.first == Data("def".utf8))
        #expect(obj.decimalSet.first == "1.5e2")
        #expect(obj.objectIdSet.first == ObjectId(string: "1234567890abcdef12345678"))

        #expect(obj.boolOptSet.first == true)
        #expect(obj.intOptSet.first == 123)
        #expect(obj.int8OptSet.first == 123)
        #expect(obj.int16OptSet.first == 123)
        #expect(obj.int32OptSet.first == 123)
        #expect(obj.int64OptSet.first == 123)
        #expect(obj.floatOptSet.first == 2.5)
        #expect(obj.doubleOptSet.first == 2.5)
        #expect(obj.stringOptSet.first == "abc")
        #expect(obj.dateOptSet.first == Date(timeIntervalSinceReferenceDate: 2.5))
        #expect(obj.dataOptSet.first == Data("def".utf8))
        #expect(obj.decimalOptSet.first == "1.5e2")
        #expect(obj.objectIdOptSet.first == ObjectId(string: "1234567890abcdef12345678"))

        #expect(obj.boolMap["foo"] == true)
        #expect(obj.intMap["foo"] == 123)
        #expect(obj.int8Map["foo"] == 123)
        #expect(obj.int16Map["foo"] == 123)
        #expect(obj.int32Map["foo"] == 123)
        #expect(obj.int64Map["foo"] == 123)
        #expect(obj.floatMap["foo"] == 2.5)
        #expect(obj.doubleMap["foo"] == 2.5)
        #expect(obj.stringMap["foo"] == "abc")
        #expect(obj.dateMap["foo"] == Date(timeIntervalSinceReferenceDate: 2.5))
        #expect(obj.dataMap["foo"] == Data("def".utf8))
        #expect(obj.decimalMap["foo"] == "1.5e2")
        #expect(obj.objectIdMap["foo"] == ObjectId(string: "1234567890abcdef12345678"))

        #expect(obj.boolOptMap["foo"] == true)
        #expect(obj.intOptMap["foo"] == 123)
        #expect(obj.int8OptMap["foo"] == 123)
        #expect(obj.int16OptMap["foo"] == 123)
        #expect(obj.int32OptMap["foo"] == 123)
        #expect(obj.int64OptMap["foo"] == 123)
        #expect(obj.floatOptMap["foo"] == 2.5)
        #expect(obj.doubleOptMap["foo"] == 2.5)
        #expect(obj.stringOptMap["foo"] == "abc")
        #expect(obj.dateOptMap["foo"] == Date(timeIntervalSinceReferenceDate: 2.5))
        #expect(obj.dataOptMap["foo"] == Data("def".utf8))
        #expect(obj.decimalOptMap["foo"] == "1.5e2")
        #expect(obj.objectIdOptMap["foo"] == ObjectId(string: "1234567890abcdef12345678"))

        let expected = "{\"doubleOptMap\":{\"foo\":2.5},\"floatSet\":[2.5],\"int8\":123,\"otherInt32\":123,\"int16Map\":{\"foo\":123},\"stringOpt\":\"abc\",\"uuidOptSet\":[\"00000000-0000-0000-0000-000000000000\"],\"int8OptMap\":{\"foo\":123},\"dataOptSet\":[\"ZGVm\"],\"stringOptSet\":[\"abc\"],\"doubleMap\":{\"foo\":2.5},\"int16OptMap\":{\"foo\":123},\"decimalOpt\":\"1.5E2\",\"decimalOptSet\":[\"1.5E2\"],\"uuidList\":[\"00000000-0000-0000-0000-000000000000\"],\"otherFloat\":2.5,\"dateOptSet\":[2.5],\"uuid\":\"00000000-0000-0000-0000-000000000000\",\"floatOpt\":2.5,\"int32OptSet\":[123],\"string\":\"abc\",\"dataOpt\":\"ZGVm\",\"int8Opt\":123,\"int16\":123,\"floatMap\":{\"foo\":2.5},\"decimalMap\":{\"foo\":\"1.5E2\"},\"dateOpt\":2.5,\"int64List\":[123],\"otherBool\":true,\"floatOptList\":[2.5],\"boolOptList\":[true],\"intOptSet\":[123],\"int32\":123,\"floatList\":[2.5],\"date\":2.5,\"dataSet\":[\"ZGVm\"],\"uuidOptList\":[\"00000000-0000-0000-0000-000000000000\"],\"int8Set\":[123],\"intOptList\":[123],\"int32Set\":[123],\"int32OptMap\":{\"foo\":123},\"dateSet\":[2.5],\"int32List\":[123],\"objectId\":\"1234567890abcdef12345678\",\"stringOptMap\":{\"foo\":\"abc\"},\"doubleOpt\":2.5,\"objectIdOptMap\":{\"foo\":\"1234567890abcdef12345678\"},\"boolOptSet\":[true],\"otherInt16\":123,\"intOpt\":123,\"intMap\":{\"foo\":123},\"objectIdOptSet\":[\"1234567890abcdef12345678\"],\"stringOptList\":[\"abc\"],\"int8OptList\":[123],\"int32Opt\":123,\"double\":2.5,\"stringSet\":[\"abc\"],\"otherDouble\":2.5,\"decimal\":\"1.5E2\",\"int32Map\":{\"foo\":123},\"int8OptSet\":[123],\"boolMap\":{\"foo\":true},\"int64OptList\":[123],\"dateOptList\":[2.5],\"intOptMap\":{\"foo\":123},\"bool\":true,\"int32OptList\":[123],\"intSet\":[123],\"dataOptList\":[\"ZGVm\"],\"float\":2.5,\"floatOptSet\":[2.5],\"decimalOptMap\":{\"foo\":\"1.5E2\"},\"uuidMap\":{\"foo\":\"00000000-0000-0000-0000-000000000000\"},\"int\":123,\"decimalSet\":[\"1.5E2\"],\"int16List\":[123],\"dataList\":[\"ZGVm\"],\"uuidOptMap\":{\"foo\":\"00000000-0000-0000-0000-000000000000\"},\"dataOptMap\":{\"foo\":\"ZGVm\"},\"otherEnum\":1,\"int8List\":[123],\"objectIdSet\":[\"1234567890abcdef12345678\"],\"objectIdOptList\":[\"1234567890abcdef12345678\"],\"otherInt64\":123,\"doubleOptList\":[2.5],\"floatOptMap\":{\"foo\":2.5},\"intList\":[123],\"int64Set\":[123],\"dateOptMap\":{\"foo\":2.5},\"int16OptList\":[123],\"boolList\":[true],\"doubleOptSet\":[2.5],\"doubleSet\":[2.5],\"stringMap\":{\"foo\":\"abc\"},\"int64OptSet\":[123],\"decimalOptList\":[\"1.5E2\"],\"otherInt\":123,\"dateList\":[2.5],\"objectIdList\":[\"1234567890abcdef12345678\"],\"stringList\":[\"abc\"],\"boolOpt\":true,\"objectIdMap\":{\"foo\":\"1234567890abcdef12345678\"},\"doubleList\":[2.5],\"dataMap\":{\"foo\":\"ZGVm\"},\"int16Set\":[123],\"int64\":123,\"int8Map\":{\"foo\":123},\"int64Opt\":123,\"boolSet\":[true],\"int64Map\":{\"foo\":123},\"dateMap\":{\"foo\":2.5},\"uuidOpt\":\"00000000-0000-0000-0000-000000000000\",\"int64OptMap\":{\"foo\":123},\"boolOptMap\":{\"foo\":true},\"otherInt8\":123,\"objectIdOpt\":\"1234567890abcdef12345678\",\"data\":\"ZGVm\",\"int16OptSet\":[123],\"decimalList\":[\"1.5E2\"],\"int16Opt\":123,\"uuidSet\":[\"00000000-0000-0000-0000-000000000000\"]}"

        let expectedData = expected.data(using: .utf8)!
        let expectedDictionary = try JSONSerialization.jsonObject(with: expectedData, options: []) as? [String: Any]
        let encodedDictionary  = try JSONSerialization.jsonObject(with: encoder.encode(obj), options: []) as? [String: Any]
        #expect(expectedDictionary! as NSDictionary == encodedDictionary! as NSDictionary)
    }

    @Test func legacyObjectOptionalNotRequired() throws {
        let str = """
        {
            "bool": true,
            "string": "abc",
            "int": 123,
            "int8": 123,
            "int16": 123,
            "int32": 123,
            "int64": 123,
            "float": 2.5,
            "double": 2.5,
            "date": 2.5,
            "data": "\(Data("def".utf8).base64EncodedString())",
            "decimal": "1.5e2",
            "objectId": "1234567890abcdef12345678",
            "uuid": "00000000-0000-0000-0000-000000000000",

            "intOpt": null,
            "int8Opt": null,
            "int16Opt": null,
            "int32Opt": null,
            "int64Opt": null,
            "floatOpt": null,
            "doubleOpt": null,
            "boolOpt": null,

            "otherBool": true,
            "otherInt": 123,
            "otherInt8": 123,
            "otherInt16": 123,
            "otherInt32": 123,
            "otherInt64": 123,
            "otherFloat": 2.5,
            "otherDouble": 2.5,
            "otherEnum": 1,
            "otherAny": 1,

            "boolList": [true],
            "stringList": ["abc"],
            "intList": [123],
            "int8List": [123],
            "int16List": [123],
            "int32List": [123],
            "int64List": [123],
            "floatList": [2.5],
            "doubleList": [2.5],
            "dateList": [2.5],
            "dataList": ["\(Data("def".utf8).base64EncodedString())"],
            "decimalList": ["1.5e2"],
            "objectIdList": ["1234567890abcdef12345678"],
            "uuidList": ["00000000-0000-0000-0000-000000000000"],

            "boolOptList": [true],
            "stringOptList": ["abc"],
            "intOptList": [123],
            "int8OptList": [123],
            "int16OptList": [123],
            "int32OptList": [123],
            "int64OptList": [123],
            "floatOptList": [2.5],
            "doubleOptList": [2.5],
            "dateOptList": [2.5],
            "dataOptList": ["\(Data("def".utf8).base64EncodedString())"],
            "decimalOptList": ["1.5e2"],
            "objectIdOptList": ["1234567890abcdef12345678"],
            "uuidOptList": ["00000000-0000-0000-0000-000000000000"],

            "boolSet": [true],
            "stringSet": ["abc"],
            "intSet": [123],
            "int8Set": [123],
            "int16Set": [123],
            "int32Set": [123],
            "int64Set": [123],
            "floatSet": [2.5],
            "doubleSet": [2.5],
            "dateSet": [2.5],
            "dataSet": ["\(Data("def".utf8).base64EncodedString())"],
            "decimalSet": ["1.5e2"],
            "objectIdSet": ["1234567890abcdef12345678"],
            "uuidSet": ["00000000-0000-0000-0000-000000000000"],

            "boolOptSet": [true],
            "stringOptSet": ["abc"],
            "intOptSet": [123],
            "int8OptSet": [123],
            "int16OptSet": [123],
            "int32OptSet": [123],
            "int64OptSet": [123],
            "floatOptSet": [2.5],
            "doubleOptSet": [2.5],
            "dateOptSet": [2.5],
            "dataOptSet": ["\(Data("def".utf8).base64EncodedString())"],
            "decimalOptSet": ["1.5e2"],
            "objectIdOptSet": ["1234567890abcdef12345678"],
            "uuidOptSet": ["00000000-0000-0000-0000-000000000000"],

            "boolMap": {"foo": true},
            "stringMap": {"foo": "abc"},
            "intMap": {"foo": 123},
            "int8Map": {"foo": 123},
            "int16Map": {"foo": 123},
            "int32Map": {"foo": 123},
            "int64Map": {"foo": 123},
            "floatMap": {"foo": 2.5},
            "doubleMap": {"foo": 2.5},
            "dateMap": {"foo": 2.5},
            "dataMap": {"foo": "\(Data("def".utf8).base64EncodedString())"},
            "decimalMap": {"foo": "1.5e2"},
            "objectIdMap": {"foo": "1234567890abcdef12345678"},
            "uuidMap": {"foo": "00000000-0000-0000-0000-000000000000"},

            "boolOptMap": {"foo": true},
            "stringOptMap": {"foo": "abc"},
            "intOptMap": {"foo": 123},
            "int8OptMap": {"foo": 123},
            "int16OptMap": {"foo": 123},
            "int32OptMap": {"foo": 123},
            "int64OptMap": {"foo": 123},
            "floatOptMap": {"foo": 2.5},
            "doubleOptMap": {"foo": 2.5},
            "dateOptMap": {"foo": 2.5},
            "dataOptMap": {"foo": "\(Data("def".utf8).base64EncodedString())"},
            "decimalOptMap": {"foo": "1.5e2"},
            "objectIdOptMap": {"foo": "1234567890abcdef12345678"},
            "uuidOptMap": {"foo": "00000000-0000-0000-0000-000000000000"}
        }
        """
        let decoder = JSONDecoder()
        let obj = try decoder.decode(PortCodableObject.self, from: Data(str.utf8))

        #expect(obj.stringOpt == nil)
        #expect(obj.dateOpt == nil)
        #expect(obj.dataOpt == nil)
        #expect(obj.decimalOpt == nil)
        #expect(obj.objectIdOpt == nil)
    }

    @Test func modernObject() throws {
        // Note: "ZGVm" is Data("def".utf8).base64EncodedString()
        // This string needs to exactly match what JSONEncoder produces so that
        // we can validate round-tripping
        let str =
        """
        {
          "bool" : true,
          "boolList" : [
            true
          ],
          "boolMap" : {
            "foo" : true
          },
          "boolOpt" : true,
          "boolOptList" : [
            true
          ],
          "boolOptMap" : {
            "foo" : true
          },
          "boolOptSet" : [
            true
          ],
          "boolSet" : [
            true
          ],
          "data" : "ZGVm",
          "dataList" : [
            "ZGVm"
          ],
          "dataMap" : {
            "foo" : "ZGVm"
          },
          "dataOpt" : "ZGVm",
          "dataOptList" : [
            "ZGVm"
          ],
          "dataOptMap" : {
            "foo" : "ZGVm"
          },
          "dataOptSet" : [
            "ZGVm"
          ],
          "dataSet" : [
            "ZGVm"
          ],
          "date" : 2.5,
          "dateList" : [
            2.5
          ],
          "dateMap" : {
            "foo" : 2.5
          },
          "dateOpt" : 2.5,
          "dateOptList" : [
            2.5
          ],
          "dateOptMap" : {
            "foo" : 2.5
          },
          "dateOptSet" : [
            2.5
          ],
          "dateSet" : [
            2.5
          ],
          "decimal" : "1.5E2",
          "decimalList" : [
            "1.5E2"
          ],
          "decimalMap" : {
            "foo" : "1.5E2"
          },
          "decimalOpt" : "1.5E2",
          "decimalOptList" : [
            "1.5E2"
          ],
          "decimalOptMap" : {
            "foo" : "1.5E2"
          },
          "decimalOptSet" : [
            "1.5E2"
          ],
          "decimalSet" : [
            "1.5E2"
          ],
          "double" : 2.5,
          "doubleList" : [
            2.5
          ],
          "doubleMap" : {
            "foo" : 2.5
          },
          "doubleOpt" : 2.5,
          "doubleOptList" : [
            2.5
          ],
          "doubleOptMap" : {
            "foo" : 2.5
          },
          "doubleOptSet" : [
            2.5
          ],
          "doubleSet" : [
            2.5
          ],
          "embeddedObjectList" : [
            {
              "value" : 8
            }
          ],
          "embeddedObjectOpt" : {
            "value" : 6
          },
          "embeddedObjectOptMap" : {
            "b" : {
              "value" : 10
            }
          },
          "float" : 2.5,
          "floatList" : [
            2.5
          ],
          "floatMap" : {
            "foo" : 2.5
          },
          "floatOpt" : 2.5,
          "floatOptList" : [
            2.5
          ],
          "floatOptMap" : {
            "foo" : 2.5
          },
          "floatOptSet" : [
            2.5
          ],
          "floatSet" : [
            2.5
          ],
          "int" : 123,
          "int16" : 123,
          "int16List" : [
            123
          ],
          "int16Map" : {
            "foo" : 123
          },
          "int16Opt" : 123,
          "int16OptList" : [
            123
          ],
          "int16OptMap" : {
            "foo" : 123
          },
          "int16OptSet" : [
            123
          ],
          "int16Set" : [
            123
          ],
          "int32" : 123,
          "int32List" : [
            123
          ],
          "int32Map" : {
            "foo" : 123
          },
          "int32Opt" : 123,
          "int32OptList" : [
            123
          ],
          "int32OptMap" : {
            "foo" : 123
          },
          "int32OptSet" : [
            123
          ],
          "int32Set" : [
            123
          ],
          "int64" : 123,
          "int64List" : [
            123
          ],
          "int64Map" : {
            "foo" : 123
          },
          "int64Opt" : 123,
          "int64OptList" : [
            123
          ],
          "int64OptMap" : {
            "foo" : 123
          },
          "int64OptSet" : [
            123
          ],
          "int64Set" : [
            123
          ],
          "int8" : 123,
          "int8List" : [
            123
          ],
          "int8Map" : {
            "foo" : 123
          },
          "int8Opt" : 123,
          "int8OptList" : [
            123
          ],
          "int8OptMap" : {
            "foo" : 123
          },
          "int8OptSet" : [
            123
          ],
          "int8Set" : [
            123
          ],
          "intList" : [
            123
          ],
          "intMap" : {
            "foo" : 123
          },
          "intOpt" : 123,
          "intOptList" : [
            123
          ],
          "intOptMap" : {
            "foo" : 123
          },
          "intOptSet" : [
            123
          ],
          "intSet" : [
            123
          ],
          "objectId" : "1234567890abcdef12345678",
          "objectIdList" : [
            "1234567890abcdef12345678"
          ],
          "objectIdMap" : {
            "foo" : "1234567890abcdef12345678"
          },
          "objectIdOpt" : "1234567890abcdef12345678",
          "objectIdOptList" : [
            "1234567890abcdef12345678"
          ],
          "objectIdOptMap" : {
            "foo" : "1234567890abcdef12345678"
          },
          "objectIdOptSet" : [
            "1234567890abcdef12345678"
          ],
          "objectIdSet" : [
            "1234567890abcdef12345678"
          ],
          "objectList" : [
            {
              "value" : 7
            }
          ],
          "objectOpt" : {
            "value" : 5
          },
          "objectOptMap" : {
            "a" : {
              "value" : 9
            }
          },
          "objectSet" : [
            {
              "value" : 9
            }
          ],
          "string" : "abc",
          "stringList" : [
            "abc"
          ],
          "stringMap" : {
            "foo" : "abc"
          },
          "stringOpt" : "abc",
          "stringOptList" : [
            "abc"
          ],
          "stringOptMap" : {
            "foo" : "abc"
          },
          "stringOptSet" : [
            "abc"
          ],
          "stringSet" : [
            "abc"
          ],
          "uuid" : "00000000-0000-0000-0000-000000000000",
          "uuidList" : [
            "00000000-0000-0000-0000-000000000000"
          ],
          "uuidMap" : {
            "foo" : "00000000-0000-0000-0000-000000000000"
          },
          "uuidOpt" : "00000000-0000-0000-0000-000000000000",
          "uuidOptList" : [
            "00000000-0000-0000-0000-000000000000"
          ],
          "uuidOptMap" : {
            "foo" : "00000000-0000-0000-0000-000000000000"
          },
          "uuidOptSet" : [
            "00000000-0000-0000-0000-000000000000"
          ],
          "uuidSet" : [
            "00000000-0000-0000-0000-000000000000"
          ]
        }
        """

        let decoder = JSONDecoder()
        let obj = try decoder.decode(PortModernCodableObject.self, from: Data(str.utf8))

        #expect(obj.bool == true)
        #expect(obj.int == 123)
        #expect(obj.int8 == 123)
        #expect(obj.int16 == 123)
        #expect(obj.int32 == 123)
        #expect(obj.int64 == 123)
        #expect(obj.float == 2.5)
        #expect(obj.double == 2.5)
        #expect(obj.string == "abc")
        #expect(obj.date == Date(timeIntervalSinceReferenceDate: 2.5))
        #expect(obj.data == Data("def".utf8))
        #expect(obj.decimal == "1.5e2")
        #expect(obj.objectId == ObjectId(string: "1234567890abcdef12345678"))

        #expect(obj.boolOpt == true)
        #expect(obj.intOpt == 123)
        #expect(obj.int8Opt == 123)
        #expect(obj.int16Opt == 123)
        #expect(obj.int32Opt == 123)
        #expect(obj.int64Opt == 123)
        #expect(obj.floatOpt == 2.5)
        #expect(obj.doubleOpt == 2.5)
        #expect(obj.stringOpt == "abc")
        #expect(obj.dateOpt == Date(timeIntervalSinceReferenceDate: 2.5))
        #expect(obj.dataOpt == Data("def".utf8))
        #expect(obj.decimalOpt == "1.5e2")
        #expect(obj.objectIdOpt == ObjectId(string: "1234567890abcdef12345678"))

        #expect(obj.boolList.first == true)
        #expect(obj.intList.first == 123)
        #expect(obj.int8List.first == 123)
        #expect(obj.int16List.first == 123)
        #expect(obj.int32List.first == 123)
        #expect(obj.int64List.first == 123)
        #expect(obj.floatList.first == 2.5)
        #expect(obj.doubleList.first == 2.5)
        #expect(obj.stringList.first == "abc")
        #expect(obj.dateList.first == Date(timeIntervalSinceReferenceDate: 2.5))
        #expect(obj.dataList.first == Data("def".utf8))
        #expect(obj.decimalList.first == "1.5e2")
        #expect(obj.objectIdList.first == ObjectId(string: "1234567890abcdef12345678"))

        #expect(obj.boolOptList.first == true)
        #expect(obj.intOptList.first == 123)
        #expect(obj.int8OptList.first == 123)
        #expect(obj.int16OptList.first == 123)
        #expect(obj.int32OptList.first == 123)
        #expect(obj.int64OptList.first == 123)
        #expect(obj.floatOptList.first == 2.5)
        #expect(obj.doubleOptList.first == 2.5)
        #expect(obj.stringOptList.first == "abc")
        #expect(obj.dateOptList.first == Date(timeIntervalSinceReferenceDate: 2.5))
        #expect(obj.dataOptList.first == Data("def".utf8))
        #expect(obj.decimalOptList.first == "1.5e2")
        #expect(obj.objectIdOptList.first == ObjectId(string: "1234567890abcdef12345678"))

        #expect(obj.boolSet.first == true)
        #expect(obj.intSet.first == 123)
        #expect(obj.int8Set.first == 123)
        #expect(obj.int16Set.first == 123)
        #expect(obj.int32Set.first == 123)
        #expect(obj.int64Set.first == 123)
        #expect(obj.floatSet.first == 2.5)
        #expect(obj.doubleSet.first == 2.5)
        #expect(obj.stringSet.first == "abc")
        #expect(obj.dateSet.first == Date(timeIntervalSinceReferenceDate: 2.5))
        #expect(obj.dataSet.first == Data("def".utf8))
        #expect(obj.decimalSet.first == "1.5e2")
        #expect(obj.objectIdSet.first == ObjectId(string: "1234567890abcdef12345678"))

        #expect(obj.boolOptSet.first == true)
        #expect(obj.intOptSet.first == 123)
        #expect(obj.int8OptSet.first == 123)
        #expect(obj.int16OptSet.first == 123)
        #expect(obj.int32OptSet.first == 123)
        #expect(obj.int64OptSet.first == 123)
        #expect(obj.floatOptSet.first == 2.5)
        #expect(obj.doubleOptSet.first == 2.5)
        #expect(obj.stringOptSet.first == "abc")
        #expect(obj.dateOptSet.first == Date(timeIntervalSinceReferenceDate: 2.5))
        #expect(obj.dataOptSet.first == Data("def".utf8))
        #expect(obj.decimalOptSet.first == "1.5e2")
        #expect(obj.objectIdOptSet.first == ObjectId(string: "1234567890abcdef12345678"))

        #expect(obj.boolMap["foo"] == true)
        #expect(obj.intMap["foo"] == 123)
        #expect(obj.int8Map["foo"] == 123)
        #expect(obj.int16Map["foo"] == 123)
        #expect(obj.int32Map["foo"] == 123)
        #expect(obj.int64Map["foo"] == 123)
        #expect(obj.floatMap["foo"] == 2.5)
        #expect(obj.doubleMap["foo"] == 2.5)
        #expect(obj.stringMap["foo"] == "abc")
        #expect(obj.dateMap["foo"] == Date(timeIntervalSinceReferenceDate: 2.5))
        #expect(obj.dataMap["foo"] == Data("def".utf8))
        #expect(obj.decimalMap["foo"] == "1.5e2")
        #expect(obj.objectIdMap["foo"] == ObjectId(string: "1234567890abcdef12345678"))

        #expect(obj.boolOptMap["foo"] == true)
        #expect(obj.intOptMap["foo"] == 123)
        #expect(obj.int8OptMap["foo"] == 123)
        #expect(obj.int16OptMap["foo"] == 123)
        #expect(obj.int32OptMap["foo"] == 123)
        #expect(obj.int64OptMap["foo"] == 123)
        #expect(obj.floatOptMap["foo"] == 2.5)
        #expect(obj.doubleOptMap["foo"] == 2.5)
        #expect(obj.stringOptMap["foo"] == "abc")
        #expect(obj.dateOptMap["foo"] == Date(timeIntervalSinceReferenceDate: 2.5))
        #expect(obj.dataOptMap["foo"] == Data("def".utf8))
        #expect(obj.decimalOptMap["foo"] == "1.5e2")
        #expect(obj.objectIdOptMap["foo"] == ObjectId(string: "1234567890abcdef12345678"))

        #expect(obj.objectOpt?.value == 5)
        #expect(obj.embeddedObjectOpt?.value == 6)
        #expect(obj.objectList.first?.value == 7)
        #expect(obj.embeddedObjectList.first?.value == 8)
        #expect(obj.objectSet.first?.value == 9)
        #expect(obj.objectOptMap["a"]??.value == 9)
        #expect(obj.embeddedObjectOptMap["b"]??.value == 10)

        // Verify that it encodes to exactly the original string (which requires
        // that the original string be formatted how JSONEncoder formats things)
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let actual = try #require(String(data: encoder.encode(obj), encoding: .utf8))
        #expect(str == actual)

        let realm = try Realm(configuration: inMemoryConfiguration(types: [
            PortModernCodableObject.self, PortCodableTopLevelObject.self, PortCodableEmbeddedObject.self,
        ]))
        try realm.write {
            realm.add(obj)
        }

        // Realm throws here: it encodes unmanaged objects only. This package
        // encodes a managed object too, reading the Realm (a documented
        // difference), so it gives what the unmanaged object gave.
        #expect(try String(data: encoder.encode(obj), encoding: .utf8) == str)
    }

    @Test func modernObjectNil() throws {
        // Note: "ZGVm" is Data("def".utf8).base64EncodedString()
        // This string needs to exactly match what JSONEncoder produces so that
        // we can validate round-tripping
        let str =
        """
        {
          "bool" : true,
          "boolList" : [
            true
          ],
          "boolMap" : {
            "foo" : true
          },
          "boolOpt" : null,
          "boolOptList" : [
            null
          ],
          "boolOptMap" : {
            "foo" : null
          },
          "boolOptSet" : [
            null
          ],
          "boolSet" : [
            true
          ],
          "data" : "ZGVm",
          "dataList" : [
            "ZGVm"
          ],
          "dataMap" : {
            "foo" : "ZGVm"
          },
          "dataOpt" : null,
          "dataOptList" : [
            null
          ],
          "dataOptMap" : {
            "foo" : null
          },
          "dataOptSet" : [
            null
          ],
          "dataSet" : [
            "ZGVm"
          ],
          "date" : 2.5,
          "dateList" : [
            2.5
          ],
          "dateMap" : {
            "foo" : 2.5
          },
          "dateOpt" : null,
          "dateOptList" : [
            null
          ],
          "dateOptMap" : {
            "foo" : null
          },
          "dateOptSet" : [
            null
          ],
          "dateSet" : [
            2.5
          ],
          "decimal" : "1.5E2",
          "decimalList" : [
            "1.5E2"
          ],
          "decimalMap" : {
            "foo" : "1.5E2"
          },
          "decimalOpt" : null,
          "decimalOptList" : [
            null
          ],
          "decimalOptMap" : {
            "foo" : null
          },
          "decimalOptSet" : [
            null
          ],
          "decimalSet" : [
            "1.5E2"
          ],
          "double" : 2.5,
          "doubleList" : [
            2.5
          ],
          "doubleMap" : {
            "foo" : 2.5
          },
          "doubleOpt" : null,
          "doubleOptList" : [
            null
          ],
          "doubleOptMap" : {
            "foo" : null
          },
          "doubleOptSet" : [
            null
          ],
          "doubleSet" : [
            2.5
          ],
          "embeddedObjectList" : [

          ],
          "embeddedObjectOpt" : null,
          "embeddedObjectOptMap" : {
            "foo" : null
          },
          "float" : 2.5,
          "floatList" : [
            2.5
          ],
          "floatMap" : {
            "foo" : 2.5
          },
          "floatOpt" : null,
          "floatOptList" : [
            null
          ],
          "floatOptMap" : {
            "foo" : null
          },
          "floatOptSet" : [
            null
          ],
          "floatSet" : [
            2.5
          ],
          "int" : 123,
          "int16" : 123,
          "int16List" : [
            123
          ],
          "int16Map" : {
            "foo" : 123
          },
          "int16Opt" : null,
          "int16OptList" : [
            null
          ],
          "int16OptMap" : {
            "foo" : null
          },
          "int16OptSet" : [
            null
          ],
          "int16Set" : [
            123
          ],
          "int32" : 123,
          "int32List" : [
            123
          ],
          "int32Map" : {
            "foo" : 123
          },
          "int32Opt" : null,
          "int32OptList" : [
            null
          ],
          "int32OptMap" : {
            "foo" : null
          },
          "int32OptSet" : [
            null
          ],
          "int32Set" : [
            123
          ],
          "int64" : 123,
          "int64List" : [
            123
          ],
          "int64Map" : {
            "foo" : 123
          },
          "int64Opt" : null,
          "int64OptList" : [
            null
          ],
          "int64OptMap" : {
            "foo" : null
          },
          "int64OptSet" : [
            null
          ],
          "int64Set" : [
            123
          ],
          "int8" : 123,
          "int8List" : [
            123
          ],
          "int8Map" : {
            "foo" : 123
          },
          "int8Opt" : null,
          "int8OptList" : [
            null
          ],
          "int8OptMap" : {
            "foo" : null
          },
          "int8OptSet" : [
            null
          ],
          "int8Set" : [
            123
          ],
          "intList" : [
            123
          ],
          "intMap" : {
            "foo" : 123
          },
          "intOpt" : null,
          "intOptList" : [
            null
          ],
          "intOptMap" : {
            "foo" : null
          },
          "intOptSet" : [
            null
          ],
          "intSet" : [
            123
          ],
          "objectId" : "1234567890abcdef12345678",
          "objectIdList" : [
            "1234567890abcdef12345678"
          ],
          "objectIdMap" : {
            "foo" : "1234567890abcdef12345678"
          },
          "objectIdOpt" : null,
          "objectIdOptList" : [
            null
          ],
          "objectIdOptMap" : {
            "foo" : null
          },
          "objectIdOptSet" : [
            null
          ],
          "objectIdSet" : [
            "1234567890abcdef12345678"
          ],
          "objectList" : [

          ],
          "objectOpt" : null,
          "objectOptMap" : {
            "foo" : null
          },
          "objectSet" : [

          ],
          "string" : "abc",
          "stringList" : [
            "abc"
          ],
          "stringMap" : {
            "foo" : "abc"
          },
          "stringOpt" : null,
          "stringOptList" : [
            null
          ],
          "stringOptMap" : {
            "foo" : null
          },
          "stringOptSet" : [
            null
          ],
          "stringSet" : [
            "abc"
          ],
          "uuid" : "00000000-0000-0000-0000-000000000000",
          "uuidList" : [
            "00000000-0000-0000-0000-000000000000"
          ],
          "uuidMap" : {
            "foo" : "00000000-0000-0000-0000-000000000000"
          },
          "uuidOpt" : null,
          "uuidOptList" : [
            null
          ],
          "uuidOptMap" : {
            "foo" : null
          },
          "uuidOptSet" : [
            null
          ],
          "uuidSet" : [
            "00000000-0000-0000-0000-000000000000"
          ]
        }
        """
        let decoder = JSONDecoder()
        let obj = try decoder.decode(PortModernCodableObject.self, from: Data(str.utf8))

        #expect(obj.boolOpt == nil)
        #expect(obj.intOpt == nil)
        #expect(obj.int8Opt == nil)
        #expect(obj.int16Opt == nil)
        #expect(obj.int32Opt == nil)
        #expect(obj.int64Opt == nil)
        #expect(obj.floatOpt == nil)
        #expect(obj.doubleOpt == nil)
        #expect(obj.stringOpt == nil)
        #expect(obj.dateOpt == nil)
        #expect(obj.dataOpt == nil)
        #expect(obj.decimalOpt == nil)
        #expect(obj.objectIdOpt == nil)

        #expect(obj.boolOptList.first! == nil)
        #expect(obj.intOptList.first! == nil)
        #expect(obj.int8OptList.first! == nil)
        #expect(obj.int16OptList.first! == nil)
        #expect(obj.int32OptList.first! == nil)
        #expect(obj.int64OptList.first! == nil)
        #expect(obj.floatOptList.first! == nil)
        #expect(obj.doubleOptList.first! == nil)
        #expect(obj.stringOptList.first! == nil)
        #expect(obj.dateOptList.first! == nil)
        #expect(obj.dataOptList.first! == nil)
        #expect(obj.decimalOptList.first! == nil)
        #expect(obj.objectIdOptList.first! == nil)

        #expect(obj.boolOptSet.first! == nil)
        #expect(obj.intOptSet.first! == nil)
        #expect(obj.int8OptSet.first! == nil)
        #expect(obj.int16OptSet.first! == nil)
        #expect(obj.int32OptSet.first! == nil)
        #expect(obj.int64OptSet.first! == nil)
        #expect(obj.floatOptSet.first! == nil)
        #expect(obj.doubleOptSet.first! == nil)
        #expect(obj.stringOptSet.first! == nil)
        #expect(obj.dateOptSet.first! == nil)
        #expect(obj.dataOptSet.first! == nil)
        #expect(obj.decimalOptSet.first! == nil)
        #expect(obj.objectIdOptSet.first! == nil)

        #expect(obj.boolOptMap["foo"]! == nil)
        #expect(obj.intOptMap["foo"]! == nil)
        #expect(obj.int8OptMap["foo"]! == nil)
        #expect(obj.int16OptMap["foo"]! == nil)
        #expect(obj.int32OptMap["foo"]! == nil)
        #expect(obj.int64OptMap["foo"]! == nil)
        #expect(obj.floatOptMap["foo"]! == nil)
        #expect(obj.doubleOptMap["foo"]! == nil)
        #expect(obj.stringOptMap["foo"]! == nil)
        #expect(obj.dateOptMap["foo"]! == nil)
        #expect(obj.dataOptMap["foo"]! == nil)
        #expect(obj.decimalOptMap["foo"]! == nil)
        #expect(obj.objectIdOptMap["foo"]! == nil)

        #expect(obj.objectOptMap["foo"]! == nil)
        #expect(obj.embeddedObjectOptMap["foo"]! == nil)

        // Verify that it encodes to exactly the original string (which requires
        // that the original string be formatted how JSONEncoder formats things)
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let actual = try String(data: encoder.encode(obj), encoding: .utf8)
        #expect(str == actual)
    }

    @Test func modernObjectOptionalNotRequired() throws {
        let str = """
        {
            "bool": true,
            "string": "abc",
            "int": 123,
            "int8": 123,
            "int16": 123,
            "int32": 123,
            "int64": 123,
            "float": 2.5,
            "double": 2.5,
            "date": 2.5,
            "data": "\(Data("def".utf8).base64EncodedString())",
            "decimal": "1.5e2",
            "objectId": "1234567890abcdef12345678",
            "uuid": "00000000-0000-0000-0000-000000000000",

            "otherBool": true,
            "otherInt": 123,
            "otherInt8": 123,
            "otherInt16": 123,
            "otherInt32": 123,
            "otherInt64": 123,
            "otherFloat": 2.5,
            "otherDouble": 2.5,
            "otherEnum": 1,

            "boolList": [true],
            "stringList": ["abc"],
            "intList": [123],
            "int8List": [123],
            "int16List": [123],
            "int32List": [123],
            "int64List": [123],
            "floatList": [2.5],
            "doubleList": [2.5],
            "dateList": [2.5],
            "dataList": ["\(Data("def".utf8).base64EncodedString())"],
            "decimalList": ["1.5e2"],
            "objectIdList": ["1234567890abcdef12345678"],
            "uuidList": ["00000000-0000-0000-0000-000000000000"],
            "objectList": [],
            "embeddedObjectList": [],

            "boolOptList": [null],
            "stringOptList": [null],
            "intOptList": [null],
            "int8OptList": [null],
            "int16OptList": [null],
            "int32OptList": [null],
            "int64OptList": [null],
            "floatOptList": [null],
            "doubleOptList": [null],
            "dateOptList": [null],
            "dataOptList": [null],
            "decimalOptList": [null],
            "objectIdOptList": [null],
            "uuidOptList": [null],

            "boolSet": [true],
            "stringSet": ["abc"],
            "intSet": [123],
            "int8Set": [123],
            "int16Set": [123],
            "int32Set": [123],
            "int64Set": [123],
            "floatSet": [2.5],
            "doubleSet": [2.5],
            "dateSet": [2.5],
            "dataSet": ["\(Data("def".utf8).base64EncodedString())"],
            "decimalSet": ["1.5e2"],
            "objectIdSet": ["1234567890abcdef12345678"],
            "uuidSet": ["00000000-0000-0000-0000-000000000000"],
            "objectSet": [],

            "boolOptSet": [null],
            "stringOptSet": [null],
            "intOptSet": [null],
            "int8OptSet": [null],
            "int16OptSet": [null],
            "int32OptSet": [null],
            "int64OptSet": [null],
            "floatOptSet": [null],
            "doubleOptSet": [null],
            "dateOptSet": [null],
            "dataOptSet": [null],
            "decimalOptSet": [null],
            "objectIdOptSet": [null],
            "uuidOptSet": [null],

            "boolMap": {"foo": true},
            "stringMap": {"foo": "abc"},
            "intMap": {"foo": 123},
            "int8Map": {"foo": 123},
            "int16Map": {"foo": 123},
            "int32Map": {"foo": 123},
            "int64Map": {"foo": 123},
            "floatMap": {"foo": 2.5},
            "doubleMap": {"foo": 2.5},
            "dateMap": {"foo": 2.5},
            "dataMap": {"foo": "\(Data("def".utf8).base64EncodedString())"},
            "decimalMap": {"foo": "1.5e2"},
            "objectIdMap": {"foo": "1234567890abcdef12345678"},
            "uuidMap": {"foo": "00000000-0000-0000-0000-000000000000"},

            "boolOptMap": {"foo": null},
            "stringOptMap": {"foo": null},
            "intOptMap": {"foo": null},
            "int8OptMap": {"foo": null},
            "int16OptMap": {"foo": null},
            "int32OptMap": {"foo": null},
            "int64OptMap": {"foo": null},
            "floatOptMap": {"foo": null},
            "doubleOptMap": {"foo": null},
            "dateOptMap": {"foo": null},
            "dataOptMap": {"foo": null},
            "decimalOptMap": {"foo": null},
            "objectIdOptMap": {"foo": null},
            "uuidOptMap": {"foo": null},
            "objectOptMap": {"foo": null},
            "embeddedObjectOptMap": {"foo": null}
        }
        """
        let decoder = JSONDecoder()
        let obj = try decoder.decode(PortModernCodableObject.self, from: Data(str.utf8))

        #expect(obj.boolOpt == nil)
        #expect(obj.intOpt == nil)
        #expect(obj.int8Opt == nil)
        #expect(obj.int16Opt == nil)
        #expect(obj.int32Opt == nil)
        #expect(obj.int64Opt == nil)
        #expect(obj.floatOpt == nil)
        #expect(obj.doubleOpt == nil)
        #expect(obj.stringOpt == nil)
        #expect(obj.dateOpt == nil)
        #expect(obj.dataOpt == nil)
        #expect(obj.decimalOpt == nil)
        #expect(obj.objectIdOpt == nil)
    }

    @Test func customDateEncoding() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            try "custom: \(date.timeIntervalSince1970)".encode(to: encoder)
        }

        let obj = PortModernCodableObject()
        obj.date = Date(timeIntervalSince1970: 1)
        obj.dateOpt = Date(timeIntervalSince1970: 2)
        obj.dateList.append(Date(timeIntervalSince1970: 3))
        obj.dateOptList.append(Date(timeIntervalSince1970: 4))
        obj.dateSet.insert(Date(timeIntervalSince1970: 5))
        obj.dateOptSet.insert(Date(timeIntervalSince1970: 6))
        obj.dateMap["a"] = Date(timeIntervalSince1970: 7)
        obj.dateOptMap["b"] = Date(timeIntervalSince1970: 8)

        let encoded = try encoder.encode(obj)
        let dict = try JSONSerialization.jsonObject(with: encoded, options: []) as! [String: Any]
        #expect(dict["date"] as! String == "custom: 1.0")
        #expect(dict["dateOpt"] as! String == "custom: 2.0")
        #expect(dict["dateList"] as! [String] == ["custom: 3.0"])
        #expect(dict["dateOptList"] as! [String] == ["custom: 4.0"])
        #expect(dict["dateSet"] as! [String] == ["custom: 5.0"])
        #expect(dict["dateOptSet"] as! [String] == ["custom: 6.0"])
        #expect(dict["dateMap"] as! [String: String] == ["a": "custom: 7.0"])
        #expect(dict["dateOptMap"] as! [String: String] == ["b": "custom: 8.0"])
    }

    @Test func customDataEncoding() throws {
        let encoder = JSONEncoder()
        encoder.dataEncodingStrategy = .custom { data, encoder in
            try "length: \(data.count)".encode(to: encoder)
        }

        let obj = PortModernCodableObject()
        obj.data = Data(repeating: 0, count: 1)
        obj.dataOpt = Data(repeating: 0, count: 2)
        obj.dataList.append(Data(repeating: 0, count: 3))
        obj.dataOptList.append(Data(repeating: 0, count: 4))
        obj.dataSet.insert(Data(repeating: 0, count: 5))
        obj.dataOptSet.insert(Data(repeating: 0, count: 6))
        obj.dataMap["a"] = Data(repeating: 0, count: 7)
        obj.dataOptMap["b"] = Data(repeating: 0, count: 8)

        let encoded = try encoder.encode(obj)
        let dict = try JSONSerialization.jsonObject(with: encoded, options: []) as! [String: Any]
        #expect(dict["data"] as! String == "length: 1")
        #expect(dict["dataOpt"] as! String == "length: 2")
        #expect(dict["dataList"] as! [String] == ["length: 3"])
        #expect(dict["dataOptList"] as! [String] == ["length: 4"])
        #expect(dict["dataSet"] as! [String] == ["length: 5"])
        #expect(dict["dataOptSet"] as! [String] == ["length: 6"])
        #expect(dict["dataMap"] as! [String: String] == ["a": "length: 7"])
        #expect(dict["dataOptMap"] as! [String: String] == ["b": "length: 8"])
    }

    @Test func keyEncodingStrategy() throws {
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        let obj = PortModernCodableObject()
        obj.objectId = ObjectId(string: "1234567890abcdef12345678")!
        obj.uuid = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
        obj.date = Date(timeIntervalSince1970: 0)
        let actual = try #require(String(data: encoder.encode(obj), encoding: .utf8))
        // Before the 2024 OS versions, int8 was sorted before int16 (that
        // branch is not kept: see the header)
        let expected = #"{"bool":false,"bool_list":[],"bool_map":{},"bool_opt":null,"bool_opt_list":[],"bool_opt_map":{},"bool_opt_set":[],"bool_set":[],"data":"","data_list":[],"data_map":{},"data_opt":null,"data_opt_list":[],"data_opt_map":{},"data_opt_set":[],"data_set":[],"date":-978307200,"date_list":[],"date_map":{},"date_opt":null,"date_opt_list":[],"date_opt_map":{},"date_opt_set":[],"date_set":[],"decimal":"0","decimal_list":[],"decimal_map":{},"decimal_opt":null,"decimal_opt_list":[],"decimal_opt_map":{},"decimal_opt_set":[],"decimal_set":[],"double":0,"double_list":[],"double_map":{},"double_opt":null,"double_opt_list":[],"double_opt_map":{},"double_opt_set":[],"double_set":[],"embedded_object_list":[],"embedded_object_opt":null,"embedded_object_opt_map":{},"float":0,"float_list":[],"float_map":{},"float_opt":null,"float_opt_list":[],"float_opt_map":{},"float_opt_set":[],"float_set":[],"int":0,"int16":0,"int16_list":[],"int16_map":{},"int16_opt":null,"int16_opt_list":[],"int16_opt_map":{},"int16_opt_set":[],"int16_set":[],"int32":0,"int32_list":[],"int32_map":{},"int32_opt":null,"int32_opt_list":[],"int32_opt_map":{},"int32_opt_set":[],"int32_set":[],"int64":0,"int64_list":[],"int64_map":{},"int64_opt":null,"int64_opt_list":[],"int64_opt_map":{},"int64_opt_set":[],"int64_set":[],"int8":0,"int8_list":[],"int8_map":{},"int8_opt":null,"int8_opt_list":[],"int8_opt_map":{},"int8_opt_set":[],"int8_set":[],"int_list":[],"int_map":{},"int_opt":null,"int_opt_list":[],"int_opt_map":{},"int_opt_set":[],"int_set":[],"object_id":"1234567890abcdef12345678","object_id_list":[],"object_id_map":{},"object_id_opt":null,"object_id_opt_list":[],"object_id_opt_map":{},"object_id_opt_set":[],"object_id_set":[],"object_list":[],"object_opt":null,"object_opt_map":{},"object_set":[],"string":"","string_list":[],"string_map":{},"string_opt":null,"string_opt_list":[],"string_opt_map":{},"string_opt_set":[],"string_set":[],"uuid":"00000000-0000-0000-0000-000000000000","uuid_list":[],"uuid_map":{},"uuid_opt":null,"uuid_opt_list":[],"uuid_opt_map":{},"uuid_opt_set":[],"uuid_set":[]}"#
        #expect(expected == actual)
    }
}
