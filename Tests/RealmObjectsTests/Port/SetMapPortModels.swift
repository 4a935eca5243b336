import Foundation
import RealmObjects

// The models of realm-swift's RealmSwift/Tests/SwiftTestObjects.swift and
// TestValueFactory.swift that the ported MutableSet, Map,
// PrimitiveMutableSet and PrimitiveMap tests use, in this package's
// spelling: `@Persisted var` for `@objc dynamic var`. Properties of types
// this package does not have (AnyRealmValue, `NSString?`) are left out.

final class SMPortStringObject: Object {
    @Persisted var stringCol = ""
}

final class SMPortBoolObject: Object {
    @Persisted var boolCol = false
}

final class SMPortIntObject: Object {
    @Persisted var intCol = 0
}

enum SMPortIntEnum: Int, PersistableEnum {
    case value1 = 1
    case value2 = 3
}

/// realm-swift's `SwiftObject`, without `anyCol`.
final class SMPortObject: Object {
    @Persisted var boolCol = false
    @Persisted var intCol = 123
    @Persisted var int8Col: Int8 = 123
    @Persisted var int16Col: Int16 = 123
    @Persisted var int32Col: Int32 = 123
    @Persisted var int64Col: Int64 = 123
    @Persisted var intEnumCol = SMPortIntEnum.value1
    @Persisted var floatCol = 1.23 as Float
    @Persisted var doubleCol = 12.3
    @Persisted var stringCol = "a"
    @Persisted var binaryCol = Data("a".utf8)
    @Persisted var dateCol = Date(timeIntervalSince1970: 1)
    @Persisted var decimalCol = try! Decimal128(string: "123e4")
    @Persisted var objectIdCol = ObjectId(string: "1234567890ab1234567890ab")!
    @Persisted var objectCol: SMPortBoolObject? = SMPortBoolObject()
    @Persisted var uuidCol = UUID(uuidString: "137decc8-b300-4954-a233-f89909f4fd89")!

    let arrayCol = List<SMPortBoolObject>()
    let setCol = MutableSet<SMPortBoolObject>()
    let mapCol = Map<String, SMPortBoolObject?>()
}

/// realm-swift's `SwiftOptionalObject`, without `optNSStringCol` and
/// `otherIntCol`.
final class SMPortOptionalObject: Object {
    @Persisted var optStringCol: String?
    @Persisted var optBinaryCol: Data?
    @Persisted var optDateCol: Date?
    @Persisted var optDecimalCol: Decimal128?
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
    @Persisted var optObjectCol: SMPortBoolObject?
}

final class SMPortDogObject: Object {
    @Persisted var dogName = ""
    @Persisted(originProperty: "dog") var owners: LinkingObjects<SMPortOwnerObject>
}

final class SMPortOwnerObject: Object {
    @Persisted var name = ""
    @Persisted var dog: SMPortDogObject? = SMPortDogObject()
}

/// realm-swift's `SwiftMutableSetObject`, without `any`.
final class SMPortMutableSetObject: Object {
    let int = MutableSet<Int>()
    let int8 = MutableSet<Int8>()
    let int16 = MutableSet<Int16>()
    let int32 = MutableSet<Int32>()
    let int64 = MutableSet<Int64>()
    let float = MutableSet<Float>()
    let double = MutableSet<Double>()
    let string = MutableSet<String>()
    let data = MutableSet<Data>()
    let date = MutableSet<Date>()
    let decimal = MutableSet<Decimal128>()
    let objectId = MutableSet<ObjectId>()
    let uuid = MutableSet<UUID>()

    let intOpt = MutableSet<Int?>()
    let int8Opt = MutableSet<Int8?>()
    let int16Opt = MutableSet<Int16?>()
    let int32Opt = MutableSet<Int32?>()
    let int64Opt = MutableSet<Int64?>()
    let floatOpt = MutableSet<Float?>()
    let doubleOpt = MutableSet<Double?>()
    let stringOpt = MutableSet<String?>()
    let dataOpt = MutableSet<Data?>()
    let dateOpt = MutableSet<Date?>()
    let decimalOpt = MutableSet<Decimal128?>()
    let objectIdOpt = MutableSet<ObjectId?>()
    let uuidOpt = MutableSet<UUID?>()
}

/// realm-swift's `SwiftMapObject`, without `any`.
final class SMPortMapObject: Object {
    let int = Map<String, Int>()
    let int8 = Map<String, Int8>()
    let int16 = Map<String, Int16>()
    let int32 = Map<String, Int32>()
    let int64 = Map<String, Int64>()
    let float = Map<String, Float>()
    let double = Map<String, Double>()
    let bool = Map<String, Bool>()
    let string = Map<String, String>()
    let data = Map<String, Data>()
    let date = Map<String, Date>()
    let decimal = Map<String, Decimal128>()
    let objectId = Map<String, ObjectId>()
    let uuid = Map<String, UUID>()
    let object = Map<String, SMPortStringObject?>()

    let intOpt = Map<String, Int?>()
    let int8Opt = Map<String, Int8?>()
    let int16Opt = Map<String, Int16?>()
    let int32Opt = Map<String, Int32?>()
    let int64Opt = Map<String, Int64?>()
    let floatOpt = Map<String, Float?>()
    let doubleOpt = Map<String, Double?>()
    let boolOpt = Map<String, Bool?>()
    let stringOpt = Map<String, String?>()
    let dataOpt = Map<String, Data?>()
    let dateOpt = Map<String, Date?>()
    let decimalOpt = Map<String, Decimal128?>()
    let objectIdOpt = Map<String, ObjectId?>()
    let uuidOpt = Map<String, UUID?>()
}

final class SMPortMutableSetPropertyObject: Object {
    @Persisted var name = ""
    let set = MutableSet<SMPortStringObject>()
    let intSet = MutableSet<SMPortIntObject>()
    let swiftObjSet = MutableSet<SMPortObject>()
}

final class SMPortMapPropertyObject: Object {
    @Persisted var name = ""
    let map = Map<String, SMPortStringObject?>()
    let intMap = Map<String, SMPortIntObject?>()
    let swiftObjectMap = Map<String, SMPortObject?>()
    let dogMap = Map<String, SMPortDogObject?>()
}

final class SMPortMutableSetOfSwiftObject: Object {
    let set = MutableSet<SMPortObject>()
}

final class SMPortMapOfSwiftObject: Object {
    let map = Map<String, SMPortObject?>()
}

final class SMPortMutableSetOfSwiftOptionalObject: Object {
    let set = MutableSet<SMPortOptionalObject>()
}

final class SMPortMapOfSwiftOptionalObject: Object {
    let map = Map<String, SMPortOptionalObject?>()
}

// MARK: - TestValueFactory's enums and models

enum SMPortEnumInt: Int, PersistableEnum {
    case value1 = 1, value2 = 2, value3 = 3
}

enum SMPortEnumInt8: Int8, PersistableEnum {
    case value1 = 1, value2 = 2, value3 = 3
}

enum SMPortEnumInt16: Int16, PersistableEnum {
    case value1 = 1, value2 = 2, value3 = 3
}

enum SMPortEnumInt32: Int32, PersistableEnum {
    case value1 = 1, value2 = 2, value3 = 3
}

enum SMPortEnumInt64: Int64, PersistableEnum {
    case value1 = 1, value2 = 2, value3 = 3
}

enum SMPortEnumFloat: Float, PersistableEnum {
    case value1 = 1.1, value2 = 2.2, value3 = 3.3
}

enum SMPortEnumDouble: Double, PersistableEnum {
    case value1 = 1.1, value2 = 2.2, value3 = 3.3
}

enum SMPortEnumString: String, PersistableEnum {
    case value1 = "a", value2 = "b", value3 = "c"
}

/// The sets and maps of realm-swift's `ModernAllTypesObject`.
final class SMPortAllTypesObject: Object {
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
}

/// The sets and maps of realm-swift's `ModernCollectionsOfEnums`.
final class SMPortCollectionsOfEnums: Object {
    @Persisted var setInt: MutableSet<SMPortEnumInt>
    @Persisted var setInt8: MutableSet<SMPortEnumInt8>
    @Persisted var setInt16: MutableSet<SMPortEnumInt16>
    @Persisted var setInt32: MutableSet<SMPortEnumInt32>
    @Persisted var setInt64: MutableSet<SMPortEnumInt64>
    @Persisted var setFloat: MutableSet<SMPortEnumFloat>
    @Persisted var setDouble: MutableSet<SMPortEnumDouble>
    @Persisted var setString: MutableSet<SMPortEnumString>

    @Persisted var setIntOpt: MutableSet<SMPortEnumInt?>
    @Persisted var setInt8Opt: MutableSet<SMPortEnumInt8?>
    @Persisted var setInt16Opt: MutableSet<SMPortEnumInt16?>
    @Persisted var setInt32Opt: MutableSet<SMPortEnumInt32?>
    @Persisted var setInt64Opt: MutableSet<SMPortEnumInt64?>
    @Persisted var setFloatOpt: MutableSet<SMPortEnumFloat?>
    @Persisted var setDoubleOpt: MutableSet<SMPortEnumDouble?>
    @Persisted var setStringOpt: MutableSet<SMPortEnumString?>

    @Persisted var mapInt: Map<String, SMPortEnumInt>
    @Persisted var mapInt8: Map<String, SMPortEnumInt8>
    @Persisted var mapInt16: Map<String, SMPortEnumInt16>
    @Persisted var mapInt32: Map<String, SMPortEnumInt32>
    @Persisted var mapInt64: Map<String, SMPortEnumInt64>
    @Persisted var mapFloat: Map<String, SMPortEnumFloat>
    @Persisted var mapDouble: Map<String, SMPortEnumDouble>
    @Persisted var mapString: Map<String, SMPortEnumString>

    @Persisted var mapIntOpt: Map<String, SMPortEnumInt?>
    @Persisted var mapInt8Opt: Map<String, SMPortEnumInt8?>
    @Persisted var mapInt16Opt: Map<String, SMPortEnumInt16?>
    @Persisted var mapInt32Opt: Map<String, SMPortEnumInt32?>
    @Persisted var mapInt64Opt: Map<String, SMPortEnumInt64?>
    @Persisted var mapFloatOpt: Map<String, SMPortEnumFloat?>
    @Persisted var mapDoubleOpt: Map<String, SMPortEnumDouble?>
    @Persisted var mapStringOpt: Map<String, SMPortEnumString?>
}
