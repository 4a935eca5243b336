import Foundation
import RealmObjects
import Testing

// The models of realm-swift's own tests (RealmCollectionTypeTests.swift and
// SwiftTestObjects.swift), in this package's spelling: `@Persisted var` for
// `@objc dynamic var`, `let … = List<…>()`, `RealmOptional`. Names are
// prefixed `CPort` (CTT… → CPort…, Swift… → CPortSwift…). Properties of
// Realm 10-only types (Decimal128, AnyRealmValue, MutableSet, Map) are left
// out.

// MARK: RealmCollectionTypeTests.swift

final class CPortAggregateObject: Object {
    @Persisted var intCol = 0
    @Persisted var int8Col = 0
    @Persisted var int16Col = 0
    @Persisted var int32Col = 0
    @Persisted var int64Col = 0
    @Persisted var floatCol = 0 as Float
    @Persisted var doubleCol = 0.0
    @Persisted var boolCol = false
    @Persisted var dateCol = Date()
    @Persisted var trueCol = true
    let stringListCol = List<CPortNullableStringObjectWithLink>()
    @Persisted var linkCol: CPortLinkTarget?
    @Persisted var childIntCol: CPortIntegerObject?
}

final class CPortIntegerObject: Object {
    @Persisted var intCol = 0
}

final class CPortAggregateObjectList: Object {
    let list = List<CPortAggregateObject>()
}

final class CPortNullableStringObjectWithLink: Object {
    @Persisted var stringCol: String? = ""
    @Persisted var linkCol: CPortLinkTarget?
}

final class CPortLinkTarget: Object {
    @Persisted var id = 0
    let stringObjects = LinkingObjects(fromType: CPortNullableStringObjectWithLink.self, property: "linkCol")
    let aggregateObjects = LinkingObjects(fromType: CPortAggregateObject.self, property: "linkCol")
}

final class CPortStringList: Object {
    let array = List<CPortNullableStringObjectWithLink>()
}

// MARK: SwiftTestObjects.swift

final class CPortSwiftStringObject: Object {
    @Persisted var stringCol = ""

    convenience init(stringCol: String) {
        self.init()
        self.stringCol = stringCol
    }
}

final class CPortSwiftBoolObject: Object {
    @Persisted var boolCol = false
}

final class CPortSwiftIntObject: Object {
    @Persisted var intCol = 0
}

enum CPortIntEnum: Int, PersistableEnum {
    case value1 = 1
    case value2 = 3
}

final class CPortSwiftObject: Object {
    @Persisted var boolCol = false
    @Persisted var intCol = 123
    @Persisted var int8Col: Int8 = 123
    @Persisted var int16Col: Int16 = 123
    @Persisted var int32Col: Int32 = 123
    @Persisted var int64Col: Int64 = 123
    @Persisted var intEnumCol = CPortIntEnum.value1
    @Persisted var floatCol = 1.23 as Float
    @Persisted var doubleCol = 12.3
    @Persisted var stringCol = "a"
    @Persisted var binaryCol = Data("a".utf8)
    @Persisted var dateCol = Date(timeIntervalSince1970: 1)
    @Persisted var objectIdCol = ObjectId(string: "1234567890ab1234567890ab")!
    @Persisted var objectCol: CPortSwiftBoolObject? = CPortSwiftBoolObject()
    @Persisted var uuidCol = UUID(uuidString: "137decc8-b300-4954-a233-f89909f4fd89")!

    let arrayCol = List<CPortSwiftBoolObject>()

    static func defaultValues() -> [String: Any] {
        [
            "boolCol": false,
            "intCol": 123,
            "int8Col": 123 as Int8,
            "int16Col": 123 as Int16,
            "int32Col": 123 as Int32,
            "int64Col": 123 as Int64,
            "floatCol": 1.23 as Float,
            "doubleCol": 12.3,
            "stringCol": "a",
            "binaryCol": Data("a".utf8),
            "dateCol": Date(timeIntervalSince1970: 1),
            "objectIdCol": ObjectId(string: "1234567890ab1234567890ab")!,
            "objectCol": [false],
            "uuidCol": UUID(uuidString: "137decc8-b300-4954-a233-f89909f4fd89")!,
        ]
    }
}

final class CPortSwiftOptionalObject: Object {
    @Persisted var optStringCol: String?
    @Persisted var optBinaryCol: Data?
    @Persisted var optDateCol: Date?
    @Persisted var optObjectIdCol: ObjectId?
    @Persisted var optUuidCol: UUID?
    let optIntCol = RealmOptional<Int>()
    let optInt8Col = RealmOptional<Int8>()
    let optInt16Col = RealmOptional<Int16>()
    let optInt32Col = RealmOptional<Int32>()
    let optInt64Col = RealmOptional<Int64>()
    let optFloatCol = RealmOptional<Float>()
    let optDoubleCol = RealmOptional<Double>()
    let optBoolCol = RealmOptional<Bool>()
    @Persisted var optObjectCol: CPortSwiftBoolObject?
}

final class CPortSwiftListObject: Object {
    let int = List<Int>()
    let int8 = List<Int8>()
    let int16 = List<Int16>()
    let int32 = List<Int32>()
    let int64 = List<Int64>()
    let float = List<Float>()
    let double = List<Double>()
    let string = List<String>()
    let data = List<Data>()
    let date = List<Date>()
    let objectId = List<ObjectId>()
    let uuid = List<UUID>()

    let intOpt = List<Int?>()
    let int8Opt = List<Int8?>()
    let int16Opt = List<Int16?>()
    let int32Opt = List<Int32?>()
    let int64Opt = List<Int64?>()
    let floatOpt = List<Float?>()
    let doubleOpt = List<Double?>()
    let stringOpt = List<String?>()
    let dataOpt = List<Data?>()
    let dateOpt = List<Date?>()
    let objectIdOpt = List<ObjectId?>()
    let uuidOpt = List<UUID?>()
}

final class CPortSwiftOptionalDefaultValuesObject: Object {
    @Persisted var optStringCol: String? = "B"
    @Persisted var optBinaryCol: Data? = Data("C".utf8)
    @Persisted var optDateCol: Date? = Date(timeIntervalSince1970: 10)
    @Persisted var optObjectIdCol: ObjectId? = ObjectId(string: "1234567890ab1234567890ab")
    @Persisted var optUuidCol: UUID? = UUID(uuidString: "00000000-0000-0000-0000-000000000000")
    let optIntCol = RealmOptional<Int>(1)
    let optInt8Col = RealmOptional<Int8>(1)
    let optInt16Col = RealmOptional<Int16>(1)
    let optInt32Col = RealmOptional<Int32>(1)
    let optInt64Col = RealmOptional<Int64>(1)
    let optFloatCol = RealmOptional<Float>(2.2)
    let optDoubleCol = RealmOptional<Double>(3.3)
    let optBoolCol = RealmOptional<Bool>(true)
    @Persisted var optObjectCol: CPortSwiftBoolObject? = CPortSwiftBoolObject(value: [true])

    static func defaultValues() -> [String: Any] {
        [
            "optStringCol": "B",
            "optBinaryCol": Data("C".utf8),
            "optDateCol": Date(timeIntervalSince1970: 10),
            "optObjectIdCol": ObjectId(string: "1234567890ab1234567890ab")!,
            "optIntCol": 1,
            "optInt8Col": Int8(1),
            "optInt16Col": Int16(1),
            "optInt32Col": Int32(1),
            "optInt64Col": Int64(1),
            "optFloatCol": 2.2 as Float,
            "optDoubleCol": 3.3,
            "optBoolCol": true,
            "optUuidCol": UUID(uuidString: "00000000-0000-0000-0000-000000000000")!,
        ]
    }
}

final class CPortSwiftDogObject: Object {
    @Persisted var dogName = ""
    let owners = LinkingObjects(fromType: CPortSwiftOwnerObject.self, property: "dog")
}

final class CPortSwiftOwnerObject: Object {
    @Persisted var name = ""
    @Persisted var dog: CPortSwiftDogObject? = CPortSwiftDogObject()
}

final class CPortSwiftEmployeeObject: Object {
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var hired = false
}

final class CPortSwiftCompanyObject: Object {
    @Persisted var name = ""
    let employees = List<CPortSwiftEmployeeObject>()
}

final class CPortSwiftArrayPropertyObject: Object {
    @Persisted var name = ""
    let array = List<CPortSwiftStringObject>()
    let intArray = List<CPortSwiftIntObject>()
    let swiftObjArray = List<CPortSwiftObject>()
}

final class CPortSwiftDoubleListOfSwiftObject: Object {
    let array = List<CPortSwiftListOfSwiftObject>()
}

final class CPortSwiftListOfSwiftObject: Object {
    let array = List<CPortSwiftObject>()
}

final class CPortSwiftListOfSwiftOptionalObject: Object {
    let array = List<CPortSwiftOptionalObject>()
}

final class CPortSwiftPrimaryStringObject: Object {
    @Persisted var stringCol = ""
    @Persisted var intCol = 0
    override static func primaryKey() -> String? { "stringCol" }
}

final class CPortSwiftPrimaryOptionalStringObject: Object {
    @Persisted var stringCol: String? = ""
    @Persisted var intCol = 0
    override static func primaryKey() -> String? { "stringCol" }
}

final class CPortSwiftPrimaryIntObject: Object {
    @Persisted var stringCol = ""
    @Persisted var intCol = 0
    override static func primaryKey() -> String? { "intCol" }
}

final class CPortSwiftPrimaryInt8Object: Object {
    @Persisted var stringCol = ""
    @Persisted var int8Col: Int8 = 0
    override static func primaryKey() -> String? { "int8Col" }
}

final class CPortSwiftPrimaryInt16Object: Object {
    @Persisted var stringCol = ""
    @Persisted var int16Col: Int16 = 0
    override static func primaryKey() -> String? { "int16Col" }
}

final class CPortSwiftPrimaryInt32Object: Object {
    @Persisted var stringCol = ""
    @Persisted var int32Col: Int32 = 0
    override static func primaryKey() -> String? { "int32Col" }
}

final class CPortSwiftPrimaryInt64Object: Object {
    @Persisted var stringCol = ""
    @Persisted var int64Col: Int64 = 0
    override static func primaryKey() -> String? { "int64Col" }
}

final class CPortSwiftPrimaryOptionalIntObject: Object {
    @Persisted var stringCol = ""
    let intCol = RealmOptional<Int>()
    override static func primaryKey() -> String? { "intCol" }
}

final class CPortSwiftPrimaryOptionalInt8Object: Object {
    @Persisted var stringCol = ""
    let int8Col = RealmOptional<Int8>()
    override static func primaryKey() -> String? { "int8Col" }
}

final class CPortSwiftPrimaryOptionalInt16Object: Object {
    @Persisted var stringCol = ""
    let int16Col = RealmOptional<Int16>()
    override static func primaryKey() -> String? { "int16Col" }
}

final class CPortSwiftPrimaryOptionalInt32Object: Object {
    @Persisted var stringCol = ""
    let int32Col = RealmOptional<Int32>()
    override static func primaryKey() -> String? { "int32Col" }
}

final class CPortSwiftPrimaryOptionalInt64Object: Object {
    @Persisted var stringCol = ""
    let int64Col = RealmOptional<Int64>()
    override static func primaryKey() -> String? { "int64Col" }
}

final class CPortSwiftPrimaryUUIDObject: Object {
    @Persisted var uuidCol = UUID(uuidString: "85d4fbee-6ec6-47df-bfa1-615931903d7e")!
    @Persisted var stringCol = ""
    override static func primaryKey() -> String? { "uuidCol" }
}

final class CPortSwiftPrimaryObjectIdObject: Object {
    @Persisted var objectIdCol = ObjectId.generate()
    @Persisted var intCol = 0
    override static func primaryKey() -> String? { "objectIdCol" }
}

/// SwiftCustomInitializerObject: a designated initializer of its own
/// besides the required `init()`.
final class CPortSwiftCustomInitializerObject: Object {
    @Persisted var stringCol = ""

    init(stringVal: String) {
        super.init()
        stringCol = stringVal
    }

    required init() {
        super.init()
    }
}

final class CPortEmbeddedParentObject: Object {
    @Persisted var object: CPortEmbeddedTreeObject1?
    let array = List<CPortEmbeddedTreeObject1>()
    let map = Map<String, CPortEmbeddedTreeObject1?>()
}

final class CPortEmbeddedTreeObject1: EmbeddedObject {
    @Persisted var value = 0
    @Persisted var child: CPortEmbeddedTreeObject2?
    let children = List<CPortEmbeddedTreeObject2>()
}

final class CPortEmbeddedTreeObject2: EmbeddedObject {
    @Persisted var value = 0
    @Persisted var child: CPortEmbeddedTreeObject3?
    let children = List<CPortEmbeddedTreeObject3>()
}

final class CPortEmbeddedTreeObject3: EmbeddedObject {
    @Persisted var value = 0
}

// MARK: Helpers shared by the ports

/// What XCTest's `TestCase` gives realm-swift's tests: a default Realm and
/// a second "test path" Realm, here files in a temporary directory of the
/// test's own (the process-wide default configuration is left alone, as
/// tests run in parallel).
final class CPortRealms {
    let directory = TemporaryDirectory()
    /// The classes both Realms hold from the start, as every class is in
    /// realm-swift's test Realms (here classes register when first used).
    let objectTypes: [Object.Type]?

    init(objectTypes: [Object.Type]? = nil) {
        self.objectTypes = objectTypes
    }

    /// `defaultRealmURL()`.
    var defaultURL: URL { directory.file("default.realm") }
    /// `testRealmURL()`.
    var testURL: URL { directory.file("test.realm") }

    var defaultConfiguration: Realm.Configuration { Realm.Configuration(fileURL: defaultURL, objectTypes: objectTypes) }
    var testConfiguration: Realm.Configuration { Realm.Configuration(fileURL: testURL, objectTypes: objectTypes) }

    /// `try! Realm()`.
    func realm() throws -> Realm { try Realm(configuration: defaultConfiguration) }
    /// `realmWithTestPath()`.
    func realmWithTestPath() throws -> Realm { try Realm(configuration: testConfiguration) }
}

/// Runs `body` on a new thread and waits for it (`dispatchSyncNewThread`).
func cportOnNewThread(_ body: @escaping @Sendable () -> Void) {
    seedRunOnThread(body)
}

/// Commits `change` in a write of a Realm of `configuration` on a new
/// thread, and waits for it (Realm's `dispatchSyncBackground` with a
/// write inside).
func cportWriteOnNewThread(_ configuration: Realm.Configuration, _ change: @escaping @Sendable (Realm) -> Void) {
    cportOnNewThread {
        let realm = try! Realm(configuration: configuration)
        realm.beginWrite()
        change(realm)
        try! realm.commitWrite()
    }
}

