import Foundation
import RealmObjects

// The models of realm-swift's RealmSwift/Tests/SwiftTestObjects.swift that
// the ported ObjectCreation, ObjectAccessor and Object tests use, in this
// package's spelling: `@Persisted var` for `@objc dynamic var`, `Decimal`
// for `Decimal128`, `PersistableEnum` for `@objc enum …: RealmEnum`.
// Properties of types this package does not have (AnyRealmValue,
// MutableSet, Map, RealmProperty) are left out, and `NSString?` properties
// (Objective-C bridging) too.

final class PortStringObject: Object {
    @Persisted var stringCol = ""

    convenience init(stringCol: String) {
        self.init()
        self.stringCol = stringCol
    }
}

final class PortBoolObject: Object {
    @Persisted var boolCol = false
}

final class PortIntObject: Object {
    @Persisted var intCol = 0
}

final class PortLongObject: Object {
    @Persisted var longCol: Int64 = 0
}

enum PortIntEnum: Int, PersistableEnum {
    case value1 = 1
    case value2 = 3
}

/// realm-swift's `SwiftObject`, without `anyCol`, `setCol` and `mapCol`.
final class PortObject: Object {
    @Persisted var boolCol = false
    @Persisted var intCol = 123
    @Persisted var int8Col: Int8 = 123
    @Persisted var int16Col: Int16 = 123
    @Persisted var int32Col: Int32 = 123
    @Persisted var int64Col: Int64 = 123
    @Persisted var intEnumCol = PortIntEnum.value1
    @Persisted var floatCol = 1.23 as Float
    @Persisted var doubleCol = 12.3
    @Persisted var stringCol = "a"
    @Persisted var binaryCol = Data("a".utf8)
    @Persisted var dateCol = Date(timeIntervalSince1970: 1)
    @Persisted var decimalCol = Decimal(string: "123e4")!
    @Persisted var objectIdCol = ObjectId(string: "1234567890ab1234567890ab")!
    @Persisted var objectCol: PortBoolObject? = PortBoolObject()
    @Persisted var uuidCol = UUID(uuidString: "137decc8-b300-4954-a233-f89909f4fd89")!
    let arrayCol = List<PortBoolObject>()

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
            "decimalCol": Decimal(string: "123e4")!,
            "objectIdCol": ObjectId(string: "1234567890ab1234567890ab")!,
            "objectCol": [false],
            "uuidCol": UUID(uuidString: "137decc8-b300-4954-a233-f89909f4fd89")!,
        ]
    }
}

/// realm-swift's `SwiftOptionalObject`, without `optNSStringCol` and
/// `otherIntCol` (a `RealmProperty`).
class PortOptionalObject: Object {
    @Persisted var optStringCol: String?
    @Persisted var optBinaryCol: Data?
    @Persisted var optDateCol: Date?
    @Persisted var optDecimalCol: Decimal?
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
    let optEnumCol = RealmOptional<PortIntEnum>()
    @Persisted var optObjectCol: PortBoolObject?
}

final class PortOptionalPrimaryObject: PortOptionalObject {
    let id = RealmOptional<Int>()

    override class func primaryKey() -> String? { "id" }
}

/// realm-swift's `SwiftListObject`, without `any` and with `Decimal`.
final class PortListObject: Object {
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
    let decimal = List<Decimal>()
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
    let decimalOpt = List<Decimal?>()
    let objectIdOpt = List<ObjectId?>()
    let uuidOpt = List<UUID?>()
}

/// realm-swift's `SwiftOptionalDefaultValuesObject`, without
/// `optNSStringCol`.
final class PortOptionalDefaultValuesObject: Object {
    @Persisted var optStringCol: String? = "B"
    @Persisted var optBinaryCol: Data? = Data("C".utf8)
    @Persisted var optDateCol: Date? = Date(timeIntervalSince1970: 10)
    @Persisted var optDecimalCol: Decimal? = Decimal(string: "123")
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
    @Persisted var optObjectCol: PortBoolObject? = PortBoolObject(value: [true])

    static func defaultValues() -> [String: Any] {
        [
            "optStringCol": "B",
            "optBinaryCol": Data("C".utf8),
            "optDateCol": Date(timeIntervalSince1970: 10),
            "optDecimalCol": Decimal(string: "123")!,
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

final class PortOptionalIgnoredPropertiesObject: Object {
    @Persisted var id = 0

    @Persisted var optStringCol: String? = "B"
    @Persisted var optBinaryCol: Data? = Data("C".utf8)
    @Persisted var optDateCol: Date? = Date(timeIntervalSince1970: 10)
    @Persisted var optDecimalCol: Decimal? = Decimal(string: "123")
    @Persisted var optObjectIdCol: ObjectId? = ObjectId(string: "1234567890ab1234567890ab")
    @Persisted var optObjectCol: PortBoolObject? = PortBoolObject(value: [true])

    override class func ignoredProperties() -> [String] {
        ["optStringCol", "optBinaryCol", "optDateCol", "optDecimalCol", "optObjectIdCol", "optObjectCol"]
    }
}

final class PortDogObject: Object {
    @Persisted var dogName = ""
    let owners = LinkingObjects(fromType: PortOwnerObject.self, property: "dog")
}

final class PortOwnerObject: Object {
    @Persisted var name = ""
    @Persisted var dog: PortDogObject? = PortDogObject()
}

final class PortAllIntSizesObject: Object {
    @Persisted var int8: Int8 = 0
    @Persisted var int16: Int16 = 0
    @Persisted var int32: Int32 = 0
    @Persisted var int64: Int64 = 0
}

final class PortEmployeeObject: Object {
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var hired = false
}

final class PortCompanyObject: Object {
    @Persisted var name = ""
    let employees = List<PortEmployeeObject>()
}

final class PortArrayPropertyObject: Object {
    @Persisted var name = ""
    let array = List<PortStringObject>()
    let intArray = List<PortIntObject>()
    let swiftObjArray = List<PortObject>()
}

final class PortListOfSwiftObject: Object {
    let array = List<PortObject>()
}

final class PortLinkToPrimaryStringObject: Object {
    @Persisted var pk = ""
    @Persisted var object: PortPrimaryStringObject?
    let objects = List<PortPrimaryStringObject>()

    override class func primaryKey() -> String? { "pk" }
}

final class PortIgnoredPropertiesObject: Object {
    @Persisted var name = ""
    @Persisted var age = 0
    var runtimeProperty: AnyObject?
    @Persisted var runtimeDefaultProperty = "property"
    var readOnlyProperty: Int { 0 }

    override class func ignoredProperties() -> [String] {
        ["runtimeProperty", "runtimeDefaultProperty"]
    }
}

final class PortRecursiveObject: Object {
    let objects = List<PortRecursiveObject>()
}

final class PortPrimaryStringObject: Object {
    @Persisted var stringCol = ""
    @Persisted var intCol = 0

    override class func primaryKey() -> String? { "stringCol" }
}

final class PortPrimaryIntObject: Object {
    @Persisted var stringCol = ""
    @Persisted var intCol = 0

    override class func primaryKey() -> String? { "intCol" }
}

final class PortPrimaryOptionalIntObject: Object {
    @Persisted var stringCol = ""
    let intCol = RealmOptional<Int>()

    override class func primaryKey() -> String? { "intCol" }
}

final class PortPrimaryUUIDObject: Object {
    @Persisted var uuidCol = UUID(uuidString: "85d4fbee-6ec6-47df-bfa1-615931903d7e")!
    @Persisted var stringCol = ""

    override class func primaryKey() -> String? { "uuidCol" }
}

final class PortPrimaryObjectIdObject: Object {
    @Persisted var objectIdCol = ObjectId.generate()
    @Persisted var intCol = 0

    override class func primaryKey() -> String? { "objectIdCol" }
}

/// realm-swift's `SwiftIndexedPropertiesObject`, without `anyCol`.
final class PortIndexedPropertiesObject: Object {
    @Persisted var stringCol = ""
    @Persisted var intCol = 0
    @Persisted var int8Col: Int8 = 0
    @Persisted var int16Col: Int16 = 0
    @Persisted var int32Col: Int32 = 0
    @Persisted var int64Col: Int64 = 0
    @Persisted var boolCol = false
    @Persisted var dateCol = Date()
    @Persisted var uuidCol = UUID(uuidString: "85d4fbee-6ec6-47df-bfa1-615931903d7e")!

    @Persisted var floatCol: Float = 0.0
    @Persisted var doubleCol: Double = 0.0
    @Persisted var dataCol = Data()

    override class func indexedProperties() -> [String] {
        ["stringCol", "intCol", "int8Col", "int16Col", "int32Col", "int64Col", "boolCol", "dateCol", "uuidCol"]
    }
}

final class PortIndexedOptionalPropertiesObject: Object {
    @Persisted var optionalStringCol: String? = ""
    let optionalIntCol = RealmOptional<Int>()
    let optionalInt8Col = RealmOptional<Int8>()
    let optionalInt16Col = RealmOptional<Int16>()
    let optionalInt32Col = RealmOptional<Int32>()
    let optionalInt64Col = RealmOptional<Int64>()
    let optionalBoolCol = RealmOptional<Bool>()
    @Persisted var optionalDateCol: Date? = Date()
    @Persisted var optionalUUIDCol: UUID? = UUID(uuidString: "85d4fbee-6ec6-47df-bfa1-615931903d7e")

    let optionalFloatCol = RealmOptional<Float>()
    let optionalDoubleCol = RealmOptional<Double>()
    @Persisted var optionalDataCol: Data? = Data()

    override class func indexedProperties() -> [String] {
        ["optionalStringCol", "optionalIntCol", "optionalInt8Col", "optionalInt16Col",
         "optionalInt32Col", "optionalInt64Col", "optionalBoolCol", "optionalDateCol", "optionalUUIDCol"]
    }
}

final class PortConvenienceInitializerObject: Object {
    @Persisted var stringCol = ""

    convenience init(stringCol: String) {
        self.init()
        self.stringCol = stringCol
    }
}

final class PortCircleObject: Object {
    @Persisted var obj: PortCircleObject?
    let array = List<PortCircleObject>()
}

/// The superclass of ``PortGenericPropsOrderingObject``.
class PortGenericPropsOrderingParent: Object {
    var implicitlyIgnoredComputedProperty: Int { 0 }
    let implicitlyIgnoredReadOnlyProperty: Int = 1
    let parentFirstList = List<PortIntObject>()
    @Persisted var parentFirstNumber = 0
    func parentFunction() -> Int { parentFirstNumber + 1 }
    @Persisted var parentSecondNumber = 1
    var parentComputedProp: String { "hello world" }
}

/// Swift properties, generic and not, are found in declaration order,
/// inherited ones first (realm-swift's `SwiftGenericPropsOrderingObject`,
/// without its sets).
final class PortGenericPropsOrderingObject: PortGenericPropsOrderingParent {
    func myFunction() -> Int { firstNumber + secondNumber + thirdNumber }
    var dynamicComputed: Int { 999 }
    var firstIgnored = 999
    var dynamicIgnored = 999
    @Persisted var firstNumber = 0                   // Managed property
    class func myClassFunction(x: Int, y: Int) -> Int { x + y }
    var secondIgnored = 999
    lazy var lazyIgnored = 999
    let firstArray = List<PortStringObject>()        // Managed property
    @Persisted var secondNumber = 0                  // Managed property
    var computedProp: String { "\(firstNumber), \(secondNumber), and \(thirdNumber)" }
    let secondArray = List<PortStringObject>()       // Managed property
    override class func ignoredProperties() -> [String] {
        ["firstIgnored", "dynamicIgnored", "secondIgnored", "thirdIgnored", "lazyIgnored", "dynamicLazyIgnored"]
    }
    let firstOptionalNumber = RealmOptional<Int>()   // Managed property
    var thirdIgnored = 999
    lazy var dynamicLazyIgnored = 999
    let firstLinking = LinkingObjects(fromType: PortGenericPropsOrderingHelper.self, property: "first")
    let secondLinking = LinkingObjects(fromType: PortGenericPropsOrderingHelper.self, property: "second")
    @Persisted var thirdNumber = 0                   // Managed property
    let secondOptionalNumber = RealmOptional<Int>()  // Managed property
}

final class PortGenericPropsOrderingHelper: Object {
    @Persisted var first: PortGenericPropsOrderingObject?
    @Persisted var second: PortGenericPropsOrderingObject?
}

final class PortEmbeddedParentObject: Object {
    @Persisted var object: PortEmbeddedTreeObject1?
    let array = List<PortEmbeddedTreeObject1>()
}

final class PortEmbeddedPrimaryParentObject: Object {
    @Persisted var pk: Int = 0
    @Persisted var object: PortEmbeddedTreeObject1?
    let array = List<PortEmbeddedTreeObject1>()

    override class func primaryKey() -> String? { "pk" }
}

protocol PortEmbeddedTreeObject: EmbeddedObject {
    var value: Int { get set }
}

final class PortEmbeddedTreeObject1: EmbeddedObject, PortEmbeddedTreeObject {
    @Persisted var value = 0
    @Persisted var child: PortEmbeddedTreeObject2?
    let children = List<PortEmbeddedTreeObject2>()

    let parent1 = LinkingObjects(fromType: PortEmbeddedParentObject.self, property: "object")
    let parent2 = LinkingObjects(fromType: PortEmbeddedParentObject.self, property: "array")
}

final class PortEmbeddedTreeObject2: EmbeddedObject, PortEmbeddedTreeObject {
    @Persisted var value = 0
    @Persisted var child: PortEmbeddedTreeObject3?
    let children = List<PortEmbeddedTreeObject3>()

    let parent3 = LinkingObjects(fromType: PortEmbeddedTreeObject1.self, property: "child")
    let parent4 = LinkingObjects(fromType: PortEmbeddedTreeObject1.self, property: "children")
}

final class PortEmbeddedTreeObject3: EmbeddedObject, PortEmbeddedTreeObject {
    @Persisted var value = 0

    let parent3 = LinkingObjects(fromType: PortEmbeddedTreeObject2.self, property: "child")
    let parent4 = LinkingObjects(fromType: PortEmbeddedTreeObject2.self, property: "children")
}

final class PortObjectWithNestedEmbeddedObject: Object {
    @Persisted var value = 0
    @Persisted var inner: NestedInnerClass?

    final class NestedInnerClass: EmbeddedObject {
        @Persisted var value = 0

        override class func className() -> String { "PortObjectWithNestedEmbeddedObject_NestedInnerClass" }
    }
}

/// realm-swift's `ObjectWithPrivateOptionals`: private Swift optionals that
/// are not Realm properties beside one that is.
final class PortObjectWithPrivateOptionals: Object {
    private var nilInt: Int?
    private var nilFloat: Float?
    private var nilString: String?
    private var int: Int? = 123
    private var float: Float? = 1.23
    private var string: String? = "123"

    @Persisted var value = 5
}

/// A counter for ``PortDynamicDefaultObject``'s defaults.
private final class PortSeedCounter: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    private let lock = NSLock()
    private var count = 0

    func next() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
}

private let portDynamicDefaultSeed = PortSeedCounter()

private func nextPortDynamicDefaultSeed() -> Int {
    portDynamicDefaultSeed.next()
}

final class PortDynamicDefaultObject: Object {
    @Persisted var intCol = nextPortDynamicDefaultSeed()
    @Persisted var floatCol = Float(nextPortDynamicDefaultSeed())
    @Persisted var doubleCol = Double(nextPortDynamicDefaultSeed())
    @Persisted var dateCol = Date(timeIntervalSinceReferenceDate: TimeInterval(nextPortDynamicDefaultSeed()))
    @Persisted var stringCol = UUID().uuidString
    @Persisted var binaryCol = UUID().uuidString.data(using: .utf8)

    override static func primaryKey() -> String? { "intCol" }
}

// MARK: - Helpers shared by the ported tests

/// A Realm of its own for a test (realm-swift's tests use the default
/// Realm, reset between tests).
func portRealm(_ name: String = #function) throws -> Realm {
    try Realm(configuration: inMemoryConfiguration(name))
}

/// realm-swift's `assertEqual(_:_:)` for objects: both nil, or the same
/// stored object (`isSameObject(as:)`), whether the class has a primary key
/// or not.
func portSame(_ lhs: Object?, _ rhs: Object?) -> Bool {
    if lhs == nil && rhs == nil { return true }
    guard let lhs, let rhs else { return false }
    return lhs.isSameObject(as: rhs)
}

/// realm-swift's `Decimal128(value:)` for the input the tests give a
/// decimal property: a number, a string or a decimal.
func portDecimal(_ value: Any) -> Decimal? {
    switch value {
    case let decimal as Decimal: decimal
    case let int as Int: Decimal(int)
    case let string as String: Decimal(string: string)
    case let number as NSNumber: number.decimalValue
    default: nil
    }
}

/// The names of the properties of a `PortOptionalObject` (or subclass)
/// that hold a value, in realm-swift's order of the checks.
func portNonNilOptionals(_ object: PortOptionalObject) -> [String] {
    var names: [String] = []
    if object.optIntCol.value != nil { names.append("optIntCol") }
    if object.optInt8Col.value != nil { names.append("optInt8Col") }
    if object.optInt16Col.value != nil { names.append("optInt16Col") }
    if object.optInt32Col.value != nil { names.append("optInt32Col") }
    if object.optInt64Col.value != nil { names.append("optInt64Col") }
    if object.optBoolCol.value != nil { names.append("optBoolCol") }
    if object.optFloatCol.value != nil { names.append("optFloatCol") }
    if object.optDoubleCol.value != nil { names.append("optDoubleCol") }
    if object.optDateCol != nil { names.append("optDateCol") }
    if object.optStringCol != nil { names.append("optStringCol") }
    if object.optBinaryCol != nil { names.append("optBinaryCol") }
    if object.optObjectCol != nil { names.append("optObjectCol") }
    return names
}

/// Every name `portNonNilOptionals` reports.
let portAllOptionalNames = ["optIntCol", "optInt8Col", "optInt16Col", "optInt32Col", "optInt64Col", "optBoolCol",
                            "optFloatCol", "optDoubleCol", "optDateCol", "optStringCol", "optBinaryCol", "optObjectCol"]

/// Sets every property `portNonNilOptionals` checks (realm-swift's
/// "Try to switch to non-nil").
func portFillOptionals(_ object: PortOptionalObject) {
    object.optIntCol.value = 1
    object.optInt8Col.value = 1
    object.optInt16Col.value = 1
    object.optInt32Col.value = 1
    object.optInt64Col.value = 1
    object.optFloatCol.value = 1
    object.optDoubleCol.value = 1
    object.optBoolCol.value = true
    object.optDateCol = Date()
    object.optStringCol = ""
    object.optBinaryCol = Data()
    object.optObjectCol = PortBoolObject()
}
