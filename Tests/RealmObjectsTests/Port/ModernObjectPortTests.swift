import Foundation
import RealmObjects
import Testing

// realm-swift v10.54.6's RealmSwift/Tests/ModernObjectTests.swift, ported,
// with the models of ModernTestObjects.swift it uses (renamed
// MPort…).
//
// Adaptations: `assertThrows(object.pk = v2, reasonMatching:)` becomes a
// write whose commit throws: here a managed
// object's primary key change is bad input that fails its write (see
// ObjectPortTests.cannotUpdatePrimaryKey), not a stop.
//
// Not ported: testAddingPreviouslyObservedObjectReusesExistingCollectionObjects,
// whose point is key-value observing, which Linux does not have (its other
// checks are those of testAddingObjectReusesExistingCollectionObjects).

enum MPortIntEnum: Int, PersistableEnum {
    case value1 = 1
    case value2 = 3
    case value3 = 5
}

enum MPortStringEnum: String, PersistableEnum {
    case value1 = "a"
    case value2 = "c"
    case value3 = "e"
}

final class MPortAllTypesObject: Object {
    @Persisted(primaryKey: true) var pk: ObjectId
    var ignored: Int = 1

    @Persisted var boolCol: Bool
    @Persisted var intCol: Int
    @Persisted var int8Col: Int8 = 1
    @Persisted var int16Col: Int16 = 2
    @Persisted var int32Col: Int32 = 3
    @Persisted var int64Col: Int64 = 4
    @Persisted var floatCol: Float = 5
    @Persisted var doubleCol: Double = 6
    @Persisted var stringCol: String
    @Persisted var binaryCol: Data
    @Persisted var dateCol: Date
    @Persisted var decimalCol: Decimal128
    @Persisted var objectIdCol: ObjectId
    @Persisted var objectCol: MPortAllTypesObject?
    @Persisted var arrayCol: List<MPortAllTypesObject>
    @Persisted var setCol: MutableSet<MPortAllTypesObject>
    @Persisted var mapCol: Map<String, MPortAllTypesObject?>
    @Persisted var anyCol: AnyRealmValue
    @Persisted var uuidCol: UUID
    @Persisted var intEnumCol: MPortIntEnum
    @Persisted var stringEnumCol: MPortStringEnum

    @Persisted var optIntCol: Int?
    @Persisted var optInt8Col: Int8?
    @Persisted var optInt16Col: Int16?
    @Persisted var optInt32Col: Int32?
    @Persisted var optInt64Col: Int64?
    @Persisted var optFloatCol: Float?
    @Persisted var optDoubleCol: Double?
    @Persisted var optBoolCol: Bool?
    @Persisted var optStringCol: String?
    @Persisted var optBinaryCol: Data?
    @Persisted var optDateCol: Date?
    @Persisted var optDecimalCol: Decimal128?
    @Persisted var optObjectIdCol: ObjectId?
    @Persisted var optUuidCol: UUID?
    @Persisted var optIntEnumCol: MPortIntEnum?
    @Persisted var optStringEnumCol: MPortStringEnum?

    @Persisted var arrayBool: List<Bool>
    @Persisted var arrayInt: List<Int>
    @Persisted var arrayInt8: List<Int8>
    @Persisted var arrayInt16: List<Int16>
    @Persisted var arrayInt32: List<Int32>
    @Persisted var arrayInt64: List<Int64>
    @Persisted var arrayFloat: List<Float>
    @Persisted var arrayDouble: List<Double>
    @Persisted var arrayString: List<String>
    @Persisted var arrayBinary: List<Data>
    @Persisted var arrayDate: List<Date>
    @Persisted var arrayDecimal: List<Decimal128>
    @Persisted var arrayObjectId: List<ObjectId>
    @Persisted var arrayAny: List<AnyRealmValue>
    @Persisted var arrayUuid: List<UUID>

    @Persisted var arrayOptBool: List<Bool?>
    @Persisted var arrayOptInt: List<Int?>
    @Persisted var arrayOptInt8: List<Int8?>
    @Persisted var arrayOptInt16: List<Int16?>
    @Persisted var arrayOptInt32: List<Int32?>
    @Persisted var arrayOptInt64: List<Int64?>
    @Persisted var arrayOptFloat: List<Float?>
    @Persisted var arrayOptDouble: List<Double?>
    @Persisted var arrayOptString: List<String?>
    @Persisted var arrayOptBinary: List<Data?>
    @Persisted var arrayOptDate: List<Date?>
    @Persisted var arrayOptDecimal: List<Decimal128?>
    @Persisted var arrayOptObjectId: List<ObjectId?>
    @Persisted var arrayOptUuid: List<UUID?>

    @Persisted var setBool: MutableSet<Bool>
    @Persisted var setInt: MutableSet<Int>
    @Persisted var setInt8: MutableSet<Int8>
    @Persisted var setInt16: MutableSet<Int16>
    @Persisted var setInt32: MutableSet<Int32>
    @Persisted var setInt64: MutableSet<Int64>
    @Persisted var setFloat: MutableSet<Float>
    @Persisted var setDouble: MutableSet<Double>
    @Persisted var setString: MutableSet<String>
    @Persisted var setBinary: MutableSet<Data>
    @Persisted var setDate: MutableSet<Date>
    @Persisted var setDecimal: MutableSet<Decimal128>
    @Persisted var setObjectId: MutableSet<ObjectId>
    @Persisted var setAny: MutableSet<AnyRealmValue>
    @Persisted var setUuid: MutableSet<UUID>

    @Persisted var setOptBool: MutableSet<Bool?>
    @Persisted var setOptInt: MutableSet<Int?>
    @Persisted var setOptInt8: MutableSet<Int8?>
    @Persisted var setOptInt16: MutableSet<Int16?>
    @Persisted var setOptInt32: MutableSet<Int32?>
    @Persisted var setOptInt64: MutableSet<Int64?>
    @Persisted var setOptFloat: MutableSet<Float?>
    @Persisted var setOptDouble: MutableSet<Double?>
    @Persisted var setOptString: MutableSet<String?>
    @Persisted var setOptBinary: MutableSet<Data?>
    @Persisted var setOptDate: MutableSet<Date?>
    @Persisted var setOptDecimal: MutableSet<Decimal128?>
    @Persisted var setOptObjectId: MutableSet<ObjectId?>
    @Persisted var setOptUuid: MutableSet<UUID?>

    @Persisted var mapBool: Map<String, Bool>
    @Persisted var mapInt: Map<String, Int>
    @Persisted var mapInt8: Map<String, Int8>
    @Persisted var mapInt16: Map<String, Int16>
    @Persisted var mapInt32: Map<String, Int32>
    @Persisted var mapInt64: Map<String, Int64>
    @Persisted var mapFloat: Map<String, Float>
    @Persisted var mapDouble: Map<String, Double>
    @Persisted var mapString: Map<String, String>
    @Persisted var mapBinary: Map<String, Data>
    @Persisted var mapDate: Map<String, Date>
    @Persisted var mapDecimal: Map<String, Decimal128>
    @Persisted var mapObjectId: Map<String, ObjectId>
    @Persisted var mapAny: Map<String, AnyRealmValue>
    @Persisted var mapUuid: Map<String, UUID>

    @Persisted var mapOptBool: Map<String, Bool?>
    @Persisted var mapOptInt: Map<String, Int?>
    @Persisted var mapOptInt8: Map<String, Int8?>
    @Persisted var mapOptInt16: Map<String, Int16?>
    @Persisted var mapOptInt32: Map<String, Int32?>
    @Persisted var mapOptInt64: Map<String, Int64?>
    @Persisted var mapOptFloat: Map<String, Float?>
    @Persisted var mapOptDouble: Map<String, Double?>
    @Persisted var mapOptString: Map<String, String?>
    @Persisted var mapOptBinary: Map<String, Data?>
    @Persisted var mapOptDate: Map<String, Date?>
    @Persisted var mapOptDecimal: Map<String, Decimal128?>
    @Persisted var mapOptObjectId: Map<String, ObjectId?>
    @Persisted var mapOptUuid: Map<String, UUID?>

    @Persisted(originProperty: "objectCol") var linkingObjects: LinkingObjects<MPortAllTypesObject>
}

final class MPortConvenienceInitializerObject: Object {
    @Persisted var stringCol = ""

    convenience init(stringCol: String) {
        self.init()
        self.stringCol = stringCol
    }
}

protocol MPortPrimaryKeyObject: Object {
    associatedtype PrimaryKey: _Persistable & Equatable
    var pk: PrimaryKey { get set }
}

final class MPortPrimaryIntObject: Object, MPortPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: Int
}
final class MPortPrimaryInt8Object: Object, MPortPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: Int8
}
final class MPortPrimaryInt16Object: Object, MPortPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: Int16
}
final class MPortPrimaryInt32Object: Object, MPortPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: Int32
}
final class MPortPrimaryInt64Object: Object, MPortPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: Int64
}
final class MPortPrimaryOptionalIntObject: Object, MPortPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: Int?
}
final class MPortPrimaryOptionalInt8Object: Object, MPortPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: Int8?
}
final class MPortPrimaryOptionalInt16Object: Object, MPortPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: Int16?
}
final class MPortPrimaryOptionalInt32Object: Object, MPortPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: Int32?
}
final class MPortPrimaryOptionalInt64Object: Object, MPortPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: Int64?
}
final class MPortPrimaryStringObject: Object, MPortPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: String
}
final class MPortPrimaryOptionalStringObject: Object, MPortPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: String?
}
final class MPortPrimaryUUIDObject: Object, MPortPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: UUID
}
final class MPortPrimaryOptionalUUIDObject: Object, MPortPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: UUID?
}
final class MPortPrimaryObjectIdObject: Object, MPortPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: ObjectId
}
final class MPortPrimaryOptionalObjectIdObject: Object, MPortPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: ObjectId?
}
final class MPortPrimaryIntEnumObject: Object, MPortPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: MPortIntEnum
}
final class MPortPrimaryOptionalIntEnumObject: Object, MPortPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: MPortIntEnum?
}

nonisolated(unsafe) private var dynamicDefaultSeed = 0
private func nextDynamicDefaultSeed() -> Int {
    dynamicDefaultSeed += 1
    return dynamicDefaultSeed
}

final class MPortDynamicDefaultObject: Object {
    @Persisted(primaryKey: true) var intCol = nextDynamicDefaultSeed()
    @Persisted var floatCol = Float(nextDynamicDefaultSeed())
    @Persisted var doubleCol = Double(nextDynamicDefaultSeed())
    @Persisted var dateCol = Date(timeIntervalSinceReferenceDate: TimeInterval(nextDynamicDefaultSeed()))
    @Persisted var stringCol = UUID().uuidString
    @Persisted var binaryCol = UUID().uuidString.data(using: .utf8)
}

final class MPortSetterObservers: Object {
    @Persisted var value: Int {
        willSet { willSetCallback?() }
        didSet { didSetCallback?() }
    }
    var willSetCallback: (() -> Void)?
    var didSetCallback: (() -> Void)?
}

@Suite(.serialized) struct ModernObjectPortTests {
    @Test func objectSchema() {
        let schema = MPortAllTypesObject().objectSchema
        #expect(schema.className == "MPortAllTypesObject")
        // Realm lists linking objects apart (computed properties); they are
        // properties here, with the class they link from.
        #expect(schema.properties.filter { $0.linkOriginPropertyName == nil }.map(\.name) == [
            "pk", "boolCol", "intCol", "int8Col", "int16Col",
            "int32Col", "int64Col", "floatCol", "doubleCol",
            "stringCol", "binaryCol", "dateCol", "decimalCol",
            "objectIdCol", "objectCol", "arrayCol", "setCol", "mapCol",
            "anyCol", "uuidCol", "intEnumCol", "stringEnumCol",
            "optIntCol", "optInt8Col", "optInt16Col",
            "optInt32Col", "optInt64Col", "optFloatCol",
            "optDoubleCol", "optBoolCol", "optStringCol",
            "optBinaryCol", "optDateCol", "optDecimalCol",
            "optObjectIdCol", "optUuidCol", "optIntEnumCol",
            "optStringEnumCol", "arrayBool", "arrayInt",
            "arrayInt8", "arrayInt16", "arrayInt32",
            "arrayInt64", "arrayFloat", "arrayDouble",
            "arrayString", "arrayBinary", "arrayDate",
            "arrayDecimal", "arrayObjectId", "arrayAny",
            "arrayUuid", "arrayOptBool", "arrayOptInt",
            "arrayOptInt8", "arrayOptInt16", "arrayOptInt32",
            "arrayOptInt64", "arrayOptFloat", "arrayOptDouble",
            "arrayOptString", "arrayOptBinary", "arrayOptDate",
            "arrayOptDecimal", "arrayOptObjectId",
            "arrayOptUuid", "setBool", "setInt", "setInt8",
            "setInt16", "setInt32", "setInt64", "setFloat",
            "setDouble", "setString", "setBinary", "setDate",
            "setDecimal", "setObjectId", "setAny", "setUuid",
            "setOptBool", "setOptInt", "setOptInt8",
            "setOptInt16", "setOptInt32", "setOptInt64",
            "setOptFloat", "setOptDouble", "setOptString",
            "setOptBinary", "setOptDate", "setOptDecimal",
            "setOptObjectId", "setOptUuid", "mapBool", "mapInt",
            "mapInt8", "mapInt16", "mapInt32", "mapInt64",
            "mapFloat", "mapDouble", "mapString", "mapBinary",
            "mapDate", "mapDecimal", "mapObjectId", "mapAny",
            "mapUuid", "mapOptBool", "mapOptInt", "mapOptInt8",
            "mapOptInt16", "mapOptInt32", "mapOptInt64",
            "mapOptFloat", "mapOptDouble", "mapOptString",
            "mapOptBinary", "mapOptDate", "mapOptDecimal",
            "mapOptObjectId", "mapOptUuid",
        ])
    }

    @Test func objectSchemaForObjectWithConvenienceInitializer() {
        let schema = MPortConvenienceInitializerObject(stringCol: "abc").objectSchema
        #expect(schema.className == "MPortConvenienceInitializerObject")
        #expect(schema.properties.map(\.name) == ["stringCol"])
    }

    @Test func cannotUpdatePrimaryKey() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        func check<O: MPortPrimaryKeyObject>(_ object: O, _ v1: O.PrimaryKey, _ v2: O.PrimaryKey) throws {
            // Unmanaged objects can mutate the primary key.
            object.pk = v1
            #expect(object.pk == v1)
            object.pk = v2
            #expect(object.pk == v2)
            object["pk"] = v1
            #expect(object.pk == v1)
            object.setValue(v2, forKey: "pk")
            #expect(object.pk == v2)

            // Managed objects cannot: each change fails its write.
            try realm.write { realm.add(object) }
            for change in [{ object.pk = v1 }, { object["pk"] = v1 }, { object.setValue(v1, forKey: "pk") }] {
                #expect(throws: Realm.Error.self) { try realm.write(change) }
            }
            #expect(object.pk == v2)
        }
        try check(MPortPrimaryIntObject(), 1, 2)
        try check(MPortPrimaryInt8Object(), 1, 2)
        try check(MPortPrimaryInt16Object(), 1, 2)
        try check(MPortPrimaryInt32Object(), 1, 2)
        try check(MPortPrimaryInt64Object(), 1, 2)
        try check(MPortPrimaryOptionalIntObject(), 1, nil)
        try check(MPortPrimaryOptionalInt8Object(), 1, nil)
        try check(MPortPrimaryOptionalInt16Object(), 1, nil)
        try check(MPortPrimaryOptionalInt32Object(), 1, nil)
        try check(MPortPrimaryOptionalInt64Object(), 1, nil)
        try check(MPortPrimaryStringObject(), "a", "b")
        try check(MPortPrimaryOptionalStringObject(), "a", nil)
        try check(MPortPrimaryUUIDObject(), UUID(), UUID())
        try check(MPortPrimaryOptionalUUIDObject(), UUID(), nil)
        try check(MPortPrimaryObjectIdObject(), ObjectId.generate(), ObjectId.generate())
        try check(MPortPrimaryOptionalObjectIdObject(), ObjectId.generate(), nil)
        try check(MPortPrimaryIntEnumObject(), .value1, .value2)
        try check(MPortPrimaryOptionalIntEnumObject(), .value1, nil)
    }

    @Test func dynamicDefaultPropertyValues() throws {
        func expectDifferentPropertyValues(_ obj1: MPortDynamicDefaultObject, _ obj2: MPortDynamicDefaultObject) {
            #expect(obj1.intCol != obj2.intCol)
            #expect(obj1.floatCol != obj2.floatCol)
            #expect(obj1.doubleCol != obj2.doubleCol)
            #expect(abs(obj1.dateCol.timeIntervalSinceReferenceDate - obj2.dateCol.timeIntervalSinceReferenceDate) > 0.01)
            #expect(obj1.stringCol != obj2.stringCol)
            #expect(obj1.binaryCol != obj2.binaryCol)
        }
        expectDifferentPropertyValues(MPortDynamicDefaultObject(), MPortDynamicDefaultObject())
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            expectDifferentPropertyValues(realm.create(MPortDynamicDefaultObject.self), realm.create(MPortDynamicDefaultObject.self))
        }
    }

    @Test func willSetDidSet() throws {
        let obj = MPortSetterObservers()
        var calls = 0
        obj.willSetCallback = {
            #expect(obj.value == 0)
            calls += 1
        }
        obj.didSetCallback = {
            #expect(obj.value == 1)
            calls += 1
        }
        obj.value = 1
        #expect(calls == 2)

        let realm = try Realm(configuration: inMemoryConfiguration())
        realm.beginWrite()
        realm.add(obj)
        obj.willSetCallback = {
            #expect(obj.value == 1)
            calls += 1
        }
        obj.didSetCallback = {
            #expect(obj.value == 2)
            calls += 1
        }
        obj.value = 2
        #expect(calls == 4)
        realm.cancelWrite()
        // The callbacks form a cycle with the object.
        obj.willSetCallback = nil
        obj.didSetCallback = nil
    }

    @Test func addingObjectReusesExistingCollectionObjects() throws {
        let obj = MPortAllTypesObject()
        let list = obj.arrayCol
        let set = obj.setCol
        let dictionary = obj.mapAny
        #expect(list.realm == nil && set.realm == nil && dictionary.realm == nil)
        #expect(list === obj.arrayCol && set === obj.setCol && dictionary === obj.mapAny)
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write { realm.add(obj) }
        #expect(list.realm != nil && set.realm != nil && dictionary.realm != nil)
        #expect(list === obj.arrayCol && set === obj.setCol && dictionary === obj.mapAny)
    }
}
