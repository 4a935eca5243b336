import Foundation
import RealmObjects
import Testing

// Ports of realm-swift's RealmSwift/Tests/ObjectCreationTests.swift.
//
// Left out: properties and tests of AnyRealmValue, MutableSet, Map and
// Decimal128 (Decimal stands for it here), the `@objc(Name)` renaming tests
// (testInitWithObjcName, testCreateWithObjcName,
// testCreateWithDifferentObjcName) and `NSString` properties.
//
// realm-swift's `assertThrows` on bad input becomes, as
// Docs/DifferencesFromApplePlatforms.md lists: `create(_:value:update:)`
// with an `UpdatePolicy` throws `Realm.Error` at once, and an object made
// with `init(value:)` from bad input reports its error when added (the
// commit throws).

// MARK: - Converting test input

/// The input as an `Int`, whether a Swift integer or an `NSNumber`.
func portInt(_ any: Any?) -> Int? {
    switch any {
    case let value as Int: value
    case let value as Int8: Int(value)
    case let value as Int16: Int(value)
    case let value as Int32: Int(value)
    case let value as Int64: Int(value)
    case let value as NSNumber: value.intValue
    default: nil
    }
}

/// The input as a `Double`, whether a Swift number or an `NSNumber`.
func portDouble(_ any: Any?) -> Double? {
    switch any {
    case let value as Double: value
    case let value as Float: Double(value)
    case let value as Int: Double(value)
    case let value as NSNumber: value.doubleValue
    default: nil
    }
}

/// The input as a `Bool`, whether a `Bool` or an `NSNumber`.
func portBool(_ any: Any?) -> Bool? {
    switch any {
    case let value as Bool: value
    case let value as NSNumber: value.boolValue
    default: nil
    }
}

// MARK: - Checking objects against their input

/// realm-swift's `verifySwiftObjectWithDictionaryLiteral`.
func portVerify(_ object: PortObject, dictionary: [String: Any], boolObjectValue: Bool, boolObjectListValues: [Bool],
                sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(object.boolCol == portBool(dictionary["boolCol"]), sourceLocation: sourceLocation)
    #expect(object.intCol == portInt(dictionary["intCol"]), sourceLocation: sourceLocation)
    #expect(Int(object.int8Col) == portInt(dictionary["int8Col"]), sourceLocation: sourceLocation)
    #expect(Int(object.int16Col) == portInt(dictionary["int16Col"]), sourceLocation: sourceLocation)
    #expect(Int(object.int32Col) == portInt(dictionary["int32Col"]), sourceLocation: sourceLocation)
    #expect(Int(object.int64Col) == portInt(dictionary["int64Col"]), sourceLocation: sourceLocation)
    #expect(object.floatCol == portDouble(dictionary["floatCol"]).map(Float.init), sourceLocation: sourceLocation)
    #expect(object.doubleCol == portDouble(dictionary["doubleCol"]), sourceLocation: sourceLocation)
    #expect(object.stringCol == dictionary["stringCol"] as? String, sourceLocation: sourceLocation)
    #expect(object.binaryCol == dictionary["binaryCol"] as? Data, sourceLocation: sourceLocation)
    #expect(object.dateCol == dictionary["dateCol"] as? Date, sourceLocation: sourceLocation)
    #expect(object.decimalCol == dictionary["decimalCol"].flatMap(portDecimal), sourceLocation: sourceLocation)
    #expect(object.objectIdCol == dictionary["objectIdCol"] as? ObjectId, sourceLocation: sourceLocation)
    #expect(object.objectCol?.boolCol == boolObjectValue, sourceLocation: sourceLocation)
    #expect(object.arrayCol.map(\.boolCol) == boolObjectListValues, sourceLocation: sourceLocation)
}

/// realm-swift's `verifySwiftObjectWithArrayLiteral`: `array` gives the
/// values in `PortObject`'s property order.
func portVerify(_ object: PortObject, array: [Any], boolObjectValue: Bool, boolObjectListValues: [Bool],
                sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(object.boolCol == portBool(array[0]), sourceLocation: sourceLocation)
    #expect(object.intCol == portInt(array[1]), sourceLocation: sourceLocation)
    #expect(Int(object.int8Col) == portInt(array[2]), sourceLocation: sourceLocation)
    #expect(Int(object.int16Col) == portInt(array[3]), sourceLocation: sourceLocation)
    #expect(Int(object.int32Col) == portInt(array[4]), sourceLocation: sourceLocation)
    #expect(Int(object.int64Col) == portInt(array[5]), sourceLocation: sourceLocation)
    #expect(object.intEnumCol == portInt(array[6]).flatMap(PortIntEnum.init(rawValue:)), sourceLocation: sourceLocation)
    #expect(object.floatCol == portDouble(array[7]).map(Float.init), sourceLocation: sourceLocation)
    #expect(object.doubleCol == portDouble(array[8]), sourceLocation: sourceLocation)
    #expect(object.stringCol == array[9] as? String, sourceLocation: sourceLocation)
    #expect(object.binaryCol == array[10] as? Data, sourceLocation: sourceLocation)
    #expect(object.dateCol == array[11] as? Date, sourceLocation: sourceLocation)
    #expect(object.decimalCol == portDecimal(array[12]), sourceLocation: sourceLocation)
    #expect(object.objectIdCol == array[13] as? ObjectId, sourceLocation: sourceLocation)
    #expect(object.objectCol?.boolCol == boolObjectValue, sourceLocation: sourceLocation)
    #expect(object.uuidCol == array[15] as? UUID, sourceLocation: sourceLocation)
    #expect(object.arrayCol.map(\.boolCol) == boolObjectListValues, sourceLocation: sourceLocation)
}

/// realm-swift's `verifySwiftOptionalObjectWithDictionaryLiteral`.
func portVerify(_ object: PortOptionalDefaultValuesObject, dictionary: [String: Any], boolObjectValue: Bool?,
                sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(object.optBoolCol.value == portBool(dictionary["optBoolCol"]), sourceLocation: sourceLocation)
    #expect(object.optIntCol.value == portInt(dictionary["optIntCol"]), sourceLocation: sourceLocation)
    #expect(object.optInt8Col.value.map(Int.init) == portInt(dictionary["optInt8Col"]), sourceLocation: sourceLocation)
    #expect(object.optInt16Col.value.map(Int.init) == portInt(dictionary["optInt16Col"]), sourceLocation: sourceLocation)
    #expect(object.optInt32Col.value.map(Int.init) == portInt(dictionary["optInt32Col"]), sourceLocation: sourceLocation)
    #expect(object.optInt64Col.value.map(Int.init) == portInt(dictionary["optInt64Col"]), sourceLocation: sourceLocation)
    #expect(object.optFloatCol.value == portDouble(dictionary["optFloatCol"]).map(Float.init), sourceLocation: sourceLocation)
    #expect(object.optDoubleCol.value == portDouble(dictionary["optDoubleCol"]), sourceLocation: sourceLocation)
    #expect(object.optStringCol == dictionary["optStringCol"] as? String, sourceLocation: sourceLocation)
    #expect(object.optBinaryCol == dictionary["optBinaryCol"] as? Data, sourceLocation: sourceLocation)
    #expect(object.optDateCol == dictionary["optDateCol"] as? Date, sourceLocation: sourceLocation)
    #expect(object.optDecimalCol == dictionary["optDecimalCol"].flatMap(portDecimal), sourceLocation: sourceLocation)
    #expect(object.optObjectIdCol == dictionary["optObjectIdCol"] as? ObjectId, sourceLocation: sourceLocation)
    #expect(object.optObjectCol?.boolCol == boolObjectValue, sourceLocation: sourceLocation)
    #expect(object.optUuidCol == dictionary["optUuidCol"] as? UUID, sourceLocation: sourceLocation)
}

/// realm-swift's `defaultSwiftObjectValuesWithReplacements`.
func portDefaultValues(replacing replacements: [String: Any]) -> [String: Any] {
    PortObject.defaultValues().merging(replacements) { _, new in new }
}

/// realm-swift's `validValuesForSwiftObjectType`: input each property of
/// `PortObject` accepts. `persisted` is a managed `PortBoolObject` with
/// `boolCol` true.
func portValidValues(for property: Property, persisted: PortBoolObject) -> [Any] {
    if property.isList {
        return [
            [[true], [false]],
            [["boolCol": true], ["boolCol": false]],
            [PortBoolObject(value: [true]), PortBoolObject(value: [false])],
            [persisted, [false]] as [Any],
        ]
    }
    switch property.type {
    case .bool: return [true, NSNumber(value: 0 as Int), NSNumber(value: 1 as Int)]
    case .int: return [NSNumber(value: 1 as Int)]
    case .float: return [NSNumber(value: 1 as Int), NSNumber(value: 1.1 as Float), NSNumber(value: 11.1 as Double)]
    case .double: return [NSNumber(value: 1 as Int), NSNumber(value: 1.1 as Float), NSNumber(value: 11.1 as Double)]
    case .string: return ["b"]
    case .data: return [Data("b".utf8)]
    case .date: return [Date(timeIntervalSince1970: 2)]
    case .object: return [[true], ["boolCol": true], PortBoolObject(value: [true]), persisted]
    case .objectId: return [ObjectId(string: "1234567890ab1234567890ab")!]
    // realm-swift also gives 1 and "2" (Decimal128 takes numbers and
    // strings): see ObjectCreationPortFixedTests.
    case .decimal: return [Decimal(3)]
    case .uuid: return [UUID(uuidString: "137decc8-b300-4954-a233-f89909f4fd89")!, UUID(uuidString: "00000000-0000-0000-0000-000000000000")!]
    case .linkingObjects, .mixed: fatalError("not supported")
    }
}

/// realm-swift's `invalidValuesForSwiftObjectType`: input each property of
/// `PortObject` refuses. `persisted` is a managed `PortIntObject`.
func portInvalidValues(for property: Property, persisted: PortIntObject) -> [Any] {
    if property.isList {
        return ["invalid", [["a"]], [["boolCol": "a"]], [[PortIntObject()]], [[persisted]]]
    }
    switch property.type {
    case .bool: return ["invalid", NSNumber(value: 2 as Int), NSNumber(value: 1.1 as Float), NSNumber(value: 11.1 as Double)]
    case .int: return ["invalid", NSNumber(value: 1.1 as Float), NSNumber(value: 11.1 as Double)]
    case .float: return ["invalid", true, false]
    case .double: return ["invalid", true, false]
    case .string: return [0x197A71D, true, false]
    case .data: return ["invalid"]
    case .date: return ["invalid"]
    case .object: return ["invalid", ["a"], ["boolCol": "a"], PortIntObject()]
    case .objectId: return ["invalid", 123]
    case .decimal: return ["invalid"]
    case .uuid: return ["invalid"]
    case .linkingObjects, .mixed: fatalError("not supported")
    }
}

/// The input realm-swift's testInitWithDictionary and testCreateWithDictionary
/// start from, without `anyCol`, `setCol` and `mapCol`.
func portBaselineDictionary() -> [String: Any] {
    [
        "boolCol": true,
        "intCol": 1,
        "int8Col": 1 as Int8,
        "int16Col": 1 as Int16,
        "int32Col": 1 as Int32,
        "int64Col": 1 as Int64,
        "floatCol": 1.1 as Float,
        "doubleCol": 11.1,
        "stringCol": "b",
        "binaryCol": Data("b".utf8),
        "dateCol": Date(timeIntervalSince1970: 2),
        "decimalCol": 3 as Decimal,
        "objectIdCol": ObjectId.generate(),
        "objectCol": PortBoolObject(value: [true]),
        "uuidCol": UUID(uuidString: "137decc8-b300-4954-a233-f89909f4fd89")!,
        "arrayCol": [PortBoolObject(value: [true]), PortBoolObject()],
    ]
}

/// The input realm-swift's testInitWithArray and testCreateWithArray start
/// from, in `PortObject`'s property order.
func portBaselineArray() -> [Any] {
    [true, 1, Int8(1), Int16(1), Int32(1), Int64(1), PortIntEnum.value1.rawValue, 1.1 as Float,
     11.1, "b", Data("b".utf8),
     Date(timeIntervalSince1970: 2), Decimal(123),
     ObjectId.generate(), ["boolCol": true],
     UUID(uuidString: "137decc8-b300-4954-a233-f89909f4fd89")!,
     [[true], [false]]]
}

/// A managed `PortBoolObject` (true) and `PortIntObject`, for the valid and
/// invalid input above.
func portPersistedInputs(in realm: Realm) throws -> (PortBoolObject, PortIntObject) {
    try realm.write {
        (realm.create(PortBoolObject.self, value: [true]), realm.create(PortIntObject.self))
    }
}

/// The embedded objects of realm-swift's `EmbeddedObjectFactory`, each with
/// the next value.
final class PortEmbeddedObjectFactory {
    private var value = 0
    var objects: [EmbeddedObject] = []

    func create<T: PortEmbeddedTreeObject>() -> T {
        let object = T()
        object.value = value
        value += 1
        objects.append(object)
        return object
    }
}

/// Fills a parent as realm-swift's testAddEmbedded does: an object with a
/// child and two children, and two objects in the array.
func portFillEmbeddedParent(object: inout PortEmbeddedTreeObject1?, array: List<PortEmbeddedTreeObject1>,
                            factory: PortEmbeddedObjectFactory) {
    let top: PortEmbeddedTreeObject1 = factory.create()
    object = top
    top.child = factory.create()
    top.children.append(factory.create())
    top.children.append(factory.create())
    array.append(factory.create())
    array.append(factory.create())
}

/// The values of an embedded parent's tree, in the order of realm-swift's
/// checks: object, its child, its children, the array.
func portEmbeddedValues(object: PortEmbeddedTreeObject1?, array: List<PortEmbeddedTreeObject1>) -> [Int] {
    guard let object else { return [] }
    return [object.value, object.child?.value ?? -1] + object.children.map(\.value) + array.map(\.value)
}

@Suite struct ObjectCreationPortTests {
    // MARK: - Init tests

    // realm-swift: testInitWithDefaults
    @Test func initWithDefaults() {
        let object = PortObject()
        #expect(object.realm == nil)
        portVerify(object, dictionary: PortObject.defaultValues(), boolObjectValue: false, boolObjectListValues: [])
        #expect(object.realm == nil)
        #expect(object.objectCol!.realm == nil)
        #expect(object.arrayCol.realm == nil)
    }

    // realm-swift: testInitWithOptionalWithoutDefaults
    @Test func initWithOptionalWithoutDefaults() {
        let object = PortOptionalObject()
        for property in object.objectSchema.properties {
            #expect(object[property.name] == nil, "\(property.name)")
        }
    }

    // realm-swift: testInitWithOptionalDefaults
    @Test func initWithOptionalDefaults() {
        let object = PortOptionalDefaultValuesObject()
        portVerify(object, dictionary: PortOptionalDefaultValuesObject.defaultValues(), boolObjectValue: true)
    }

    // realm-swift: testInitWithDictionary
    @Test func initWithDictionary() throws {
        let realm = try portRealm()
        let (persistedBool, persistedInt) = try portPersistedInputs(in: realm)
        let properties = PortObject().objectSchema.properties
        for property in properties {
            for validValue in portValidValues(for: property, persisted: persistedBool) {
                var values = portBaselineDictionary()
                values[property.name] = validValue
                let object = PortObject(value: values)
                portVerify(object, dictionary: values, boolObjectValue: true, boolObjectListValues: [true, false])
            }
        }
        for property in properties {
            for invalidValue in portInvalidValues(for: property, persisted: persistedInt) {
                var values = portBaselineDictionary()
                values[property.name] = invalidValue
                let object = PortObject(value: values)
                #expect(throws: Realm.Error.self, "\(property.name) = \(invalidValue)") {
                    try realm.write { realm.add(object) }
                }
            }
        }
    }

    // realm-swift: testInitWithDefaultsAndDictionary
    @Test func initWithDefaultsAndDictionary() {
        let object = PortObject(value: ["intCol": 200])
        portVerify(object, dictionary: portDefaultValues(replacing: ["intCol": 200]), boolObjectValue: false, boolObjectListValues: [])
    }

    // realm-swift: testInitWithArray
    @Test func initWithArray() throws {
        let realm = try portRealm()
        let (persistedBool, persistedInt) = try portPersistedInputs(in: realm)
        let properties = PortObject().objectSchema.properties
        for (index, property) in properties.enumerated() {
            for validValue in portValidValues(for: property, persisted: persistedBool) {
                var values = portBaselineArray()
                values[index] = validValue
                let object = PortObject(value: values)
                portVerify(object, array: values, boolObjectValue: true, boolObjectListValues: [true, false])
            }
        }
        for (index, property) in properties.enumerated() {
            for invalidValue in portInvalidValues(for: property, persisted: persistedInt) {
                var values = portBaselineArray()
                values[index] = invalidValue
                let object = PortObject(value: values)
                #expect(throws: Realm.Error.self, "\(property.name) = \(invalidValue)") {
                    try realm.write { realm.add(object) }
                }
            }
        }
    }

    // realm-swift: testInitWithKVCObject
    @Test func initWithKVCObject() {
        let objectWithInt = PortObject(value: ["intCol": 200])
        let objectWithKVCObject = PortObject(value: objectWithInt)
        portVerify(objectWithKVCObject, dictionary: portDefaultValues(replacing: ["intCol": 200]),
                   boolObjectValue: false, boolObjectListValues: [])
    }

    // realm-swift: testGenericInit
    @Test func genericInit() {
        func createObject<T: Object>() -> T {
            T()
        }
        let object1: PortBoolObject = createObject()
        let object2 = PortBoolObject()
        #expect(object1.boolCol == object2.boolCol)
    }

    // MARK: - Creation tests

    // realm-swift: testCreateWithDefaults (the non-throwing part; see
    // createOutsideAWriteTransactionStops)
    @Test func createWithDefaults() throws {
        let realm = try portRealm()
        let objects = realm.objects(PortObject.self)
        #expect(objects.count == 0)
        let object = try realm.write { realm.create(PortObject.self) }
        portVerify(object, dictionary: PortObject.defaultValues(), boolObjectValue: false, boolObjectListValues: [])
        #expect(object.realm == realm)
        #expect(object.objectCol!.realm == realm)
        #expect(object.arrayCol.realm == realm)
    }

    // realm-swift: testCreateWithDefaults (its assertThrows: "Must be in
    // write transaction")
    @Test func createOutsideAWriteTransactionStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "create-outside-write"))
            realm.create(PortObject.self)
        }
        #expect(seedStandardError(result).contains("write transaction"))
    }

    // realm-swift: testCreateWithOptionalWithoutDefaults
    @Test func createWithOptionalWithoutDefaults() throws {
        let realm = try portRealm()
        try realm.write {
            let object = realm.create(PortOptionalObject.self)
            for property in object.objectSchema.properties {
                #expect(object[property.name] == nil, "\(property.name)")
            }
        }
    }

    // realm-swift: testCreateWithOptionalDefaults
    @Test func createWithOptionalDefaults() throws {
        let realm = try portRealm()
        try realm.write {
            let object = realm.create(PortOptionalDefaultValuesObject.self)
            portVerify(object, dictionary: PortOptionalDefaultValuesObject.defaultValues(), boolObjectValue: true)
        }
    }

    // realm-swift: testCreateWithOptionalIgnoredProperties
    @Test func createWithOptionalIgnoredProperties() throws {
        let realm = try portRealm()
        try realm.write {
            let object = realm.create(PortOptionalIgnoredPropertiesObject.self)
            let properties = object.objectSchema.properties
            #expect(properties.count == 1)
            #expect(properties.first?.name == "id")
        }
    }

    // realm-swift: testCreateWithDictionary
    @Test func createWithDictionary() throws {
        let realm = try portRealm()
        let (persistedBool, persistedInt) = try portPersistedInputs(in: realm)
        let properties = PortObject().objectSchema.properties
        for property in properties {
            for validValue in portValidValues(for: property, persisted: persistedBool) {
                var values = portBaselineDictionary()
                values[property.name] = validValue
                realm.beginWrite()
                let object = realm.create(PortObject.self, value: values)
                portVerify(object, dictionary: values, boolObjectValue: true, boolObjectListValues: [true, false])
                try realm.commitWrite()
                portVerify(object, dictionary: values, boolObjectValue: true, boolObjectListValues: [true, false])
            }
        }
        for property in properties {
            for invalidValue in portInvalidValues(for: property, persisted: persistedInt) {
                var values = portBaselineDictionary()
                values[property.name] = invalidValue
                realm.beginWrite()
                #expect(throws: Realm.Error.self, "\(property.name) = \(invalidValue)") {
                    try realm.create(PortObject.self, value: values, update: .error)
                }
                realm.cancelWrite()
            }
        }
    }

    // realm-swift: testCreateWithDefaultsAndDictionary
    @Test func createWithDefaultsAndDictionary() throws {
        let realm = try portRealm()
        realm.beginWrite()
        let objectWithInt = realm.create(PortObject.self, value: ["intCol": 200])
        try realm.commitWrite()
        portVerify(objectWithInt, dictionary: portDefaultValues(replacing: ["intCol": 200]),
                   boolObjectValue: false, boolObjectListValues: [])
    }

    // realm-swift: testCreateWithArray
    @Test func createWithArray() throws {
        let realm = try portRealm()
        let (persistedBool, persistedInt) = try portPersistedInputs(in: realm)
        let properties = PortObject().objectSchema.properties
        for (index, property) in properties.enumerated() {
            for validValue in portValidValues(for: property, persisted: persistedBool) {
                var values = portBaselineArray()
                values[index] = validValue
                realm.beginWrite()
                let object = realm.create(PortObject.self, value: values)
                portVerify(object, array: values, boolObjectValue: true, boolObjectListValues: [true, false])
                try realm.commitWrite()
                portVerify(object, array: values, boolObjectValue: true, boolObjectListValues: [true, false])
            }
        }
        for (index, property) in properties.enumerated() {
            for invalidValue in portInvalidValues(for: property, persisted: persistedInt) {
                var values = portBaselineArray()
                values[index] = invalidValue
                realm.beginWrite()
                #expect(throws: Realm.Error.self, "\(property.name) = \(invalidValue)") {
                    try realm.create(PortObject.self, value: values, update: .error)
                }
                realm.cancelWrite()
            }
        }
    }

    // realm-swift: testCreateWithKVCObject
    @Test func createWithKVCObject() throws {
        let realm = try portRealm()
        realm.beginWrite()
        let objectWithInt = realm.create(PortObject.self, value: ["intCol": 200])
        let objectWithKVCObject = realm.create(PortObject.self, value: objectWithInt)
        try realm.commitWrite()
        portVerify(objectWithKVCObject, dictionary: portDefaultValues(replacing: ["intCol": 200]),
                   boolObjectValue: false, boolObjectListValues: [])
        #expect(realm.objects(PortObject.self).count == 2, "Object should have been copied")
    }

    // realm-swift: testCreateWithNestedObjects
    @Test func createWithNestedObjects() throws {
        let standalone = PortPrimaryStringObject(value: ["p0", 11])
        let realm = try portRealm()
        let objectWithNestedObjects = try realm.write {
            realm.create(PortLinkToPrimaryStringObject.self, value: ["p1", ["p1", 12] as [Any], [standalone]])
        }

        #expect(realm.objects(PortPrimaryStringObject.self).count == 2)
        let p0 = realm.object(ofType: PortPrimaryStringObject.self, forPrimaryKey: "p0")
        let p1 = realm.object(ofType: PortPrimaryStringObject.self, forPrimaryKey: "p1")

        // The standalone object is copied into the Realm, not added.
        #expect(standalone.realm == nil)
        #expect(standalone != p0)
        #expect(objectWithNestedObjects.object == p1)
        #expect(objectWithNestedObjects.objects.first == p0)

        let standalone1 = PortPrimaryStringObject(value: ["p3", 11])
        realm.beginWrite()
        #expect(throws: Realm.Error.self, "Should throw with duplicate primary key") {
            try realm.create(PortLinkToPrimaryStringObject.self, value: ["p3", ["p3", 11] as [Any], [standalone1]], update: .error)
        }
        realm.cancelWrite()
    }

    // realm-swift: testUpdateWithNestedObjects
    @Test func updateWithNestedObjects() throws {
        try updateWithNestedObjects(policy: .all)
    }

    // realm-swift: testUpdateChangedWithNestedObjects
    @Test func updateChangedWithNestedObjects() throws {
        try updateWithNestedObjects(policy: .modified)
    }

    private func updateWithNestedObjects(policy: Realm.UpdatePolicy) throws {
        let standalone = PortPrimaryStringObject(value: ["primary", 11])
        let realm = try portRealm()
        let object = try realm.write {
            try realm.create(PortLinkToPrimaryStringObject.self,
                             value: ["otherPrimary", ["primary", 12] as [Any], [["primary", 12] as [Any]]], update: policy)
        }

        #expect(realm.objects(PortPrimaryStringObject.self).count == 1)
        let persistedObject = try #require(object.object)
        #expect(persistedObject.intCol == 12)
        #expect(standalone.realm == nil)
        #expect(object.object == persistedObject)
        #expect(object.objects.first == persistedObject)
    }

    // realm-swift: testCreateWithObjectsFromAnotherRealm
    @Test func createWithObjectsFromAnotherRealm() throws {
        let values: [String: Any] = [
            "boolCol": true,
            "intCol": 1,
            "int8Col": 1 as Int8,
            "int16Col": 1 as Int16,
            "int32Col": 1 as Int32,
            "int64Col": 1 as Int64,
            "floatCol": 1.1 as Float,
            "doubleCol": 11.1,
            "stringCol": "b",
            "binaryCol": Data("b".utf8),
            "dateCol": Date(timeIntervalSince1970: 2),
            "decimalCol": 3 as Decimal,
            "objectIdCol": ObjectId.generate(),
            "objectCol": PortBoolObject(value: [true]),
            "arrayCol": [PortBoolObject(value: [true]), PortBoolObject()],
        ]
        let otherRealm = try portRealm("other")
        otherRealm.beginWrite()
        let otherRealmObject = otherRealm.create(PortObject.self, value: values)
        try otherRealm.commitWrite()

        let realm = try portRealm()
        let object = try realm.write { realm.create(PortObject.self, value: otherRealmObject) }

        #expect(otherRealmObject != object)
        portVerify(object, dictionary: values, boolObjectValue: true, boolObjectListValues: [true, false])
    }

    // realm-swift: testCreateWithDeeplyNestedObjectsFromAnotherRealm (its
    // List part)
    @Test func createWithDeeplyNestedObjectsFromAnotherRealm() throws {
        let values: [String: Any] = [
            "boolCol": true,
            "intCol": 1,
            "int8Col": 1 as Int8,
            "int16Col": 1 as Int16,
            "int32Col": 1 as Int32,
            "int64Col": 1 as Int64,
            "floatCol": 1.1 as Float,
            "doubleCol": 11.1,
            "stringCol": "b",
            "binaryCol": Data("b".utf8),
            "dateCol": Date(timeIntervalSince1970: 2),
            "decimalCol": 3 as Decimal,
            "objectIdCol": ObjectId.generate(),
            "objectCol": PortBoolObject(value: [true]),
            "arrayCol": [PortBoolObject(value: [true]), PortBoolObject()],
        ]
        let realmA = try portRealm("A")
        let realmB = try portRealm("B")

        let realmAListObject = try realmA.write {
            realmA.create(PortListOfSwiftObject.self, value: ["array": [PortObject(value: values), PortObject(value: values)]])
        }
        let realmBListObject = try realmB.write {
            realmB.create(PortListOfSwiftObject.self, value: realmAListObject)
        }

        #expect(realmAListObject != realmBListObject)
        #expect(realmBListObject.array.count == 2)
        for object in realmBListObject.array {
            portVerify(object, dictionary: values, boolObjectValue: true, boolObjectListValues: [true, false])
        }
    }

    // realm-swift: testUpdateWithObjectsFromAnotherRealm
    @Test func updateWithObjectsFromAnotherRealm() throws {
        try updateWithObjectsFromAnotherRealm(policy: .all)
    }

    // realm-swift: testUpdateChangedWithObjectsFromAnotherRealm
    @Test func updateChangedWithObjectsFromAnotherRealm() throws {
        try updateWithObjectsFromAnotherRealm(policy: .modified)
    }

    private func updateWithObjectsFromAnotherRealm(policy: Realm.UpdatePolicy) throws {
        let testRealm = try portRealm("test")
        let otherRealmObject = try testRealm.write {
            testRealm.create(PortLinkToPrimaryStringObject.self, value: ["primary", NSNull(), [["2", 2] as [Any], ["4", 4]]])
        }

        let realm = try portRealm()
        let object = try realm.write { () -> PortLinkToPrimaryStringObject in
            realm.create(PortLinkToPrimaryStringObject.self, value: ["primary", ["10", 10] as [Any], [["11", 11] as [Any]]])
            return try realm.create(PortLinkToPrimaryStringObject.self, value: otherRealmObject, update: policy)
        }

        #expect(otherRealmObject != object) // copied into this Realm
        #expect(realm.objects(PortLinkToPrimaryStringObject.self).count == 1)
        #expect(realm.objects(PortPrimaryStringObject.self).count == 4)
    }

    // realm-swift: testCreateWithNSNullLinks
    @Test func createWithNSNullLinks() throws {
        let values: [String: Any] = [
            "boolCol": true,
            "intCol": 1,
            "floatCol": 1.1,
            "doubleCol": 11.1,
            "stringCol": "b",
            "binaryCol": Data("b".utf8),
            "dateCol": Date(timeIntervalSince1970: 2),
            "decimalCol": 3 as Decimal,
            "objectIdCol": ObjectId.generate(),
            "objectCol": NSNull(),
            "arrayCol": NSNull(),
        ]
        let realm = try portRealm()
        realm.beginWrite()
        let object = realm.create(PortObject.self, value: values)
        try realm.commitWrite()

        #expect(object.objectCol == nil)
        #expect(object.arrayCol.count == 0)
    }

    // realm-swift: testCreateOrUpdateNil
    @Test func createOrUpdateNil() throws {
        try createOrUpdateNil(policy: .all)
    }

    // realm-swift: testCreateOrUpdateModifiedNil
    @Test func createOrUpdateModifiedNil() throws {
        try createOrUpdateNil(policy: .modified)
    }

    private func createOrUpdateNil(policy: Realm.UpdatePolicy) throws {
        let realm = try portRealm()
        realm.beginWrite()
        defer { realm.cancelWrite() }

        // Create with all fields nil.
        let object = try realm.create(PortOptionalPrimaryObject.self, value: PortOptionalPrimaryObject(), update: policy)
        #expect(object.id.value == nil)
        #expect(portNonNilOptionals(object) == [])

        // Switch to non-nil.
        let object2 = PortOptionalPrimaryObject()
        portFillOptionals(object2)
        try realm.create(PortOptionalPrimaryObject.self, value: object2, update: policy)
        #expect(object.id.value == nil)
        #expect(portNonNilOptionals(object) == portAllOptionalNames)

        // Switch back to nil.
        try realm.create(PortOptionalPrimaryObject.self, value: PortOptionalPrimaryObject(), update: policy)
        #expect(object.id.value == nil)
        #expect(portNonNilOptionals(object) == [])
    }

    // realm-swift: testCreateOrUpdateDynamicUnmanagedType
    @Test func createOrUpdateDynamicUnmanagedType() throws {
        let realm = try portRealm()
        let unmanagedValue = PortOptionalPrimaryObject()
        realm.beginWrite()
        defer { realm.cancelWrite() }
        _ = try realm.create(type(of: unmanagedValue), value: unmanagedValue, update: .modified)
    }

    // realm-swift: testCreateOrUpdateDynamicManagedType
    @Test func createOrUpdateDynamicManagedType() throws {
        try createOrUpdateDynamicManagedType(policy: .all)
    }

    // realm-swift: testCreateOrUpdateModifiedDynamicManagedType
    @Test func createOrUpdateModifiedDynamicManagedType() throws {
        try createOrUpdateDynamicManagedType(policy: .modified)
    }

    private func createOrUpdateDynamicManagedType(policy: Realm.UpdatePolicy) throws {
        let realm = try portRealm()
        let managedValue = PortOptionalPrimaryObject()
        try realm.write { realm.add(managedValue) }
        realm.beginWrite()
        defer { realm.cancelWrite() }
        _ = try realm.create(type(of: managedValue), value: managedValue, update: policy)
    }

    // realm-swift: testCreateOrUpdateWithMismatchedStaticAndDynamicTypes
    @Test func createOrUpdateWithMismatchedStaticAndDynamicTypes() throws {
        let realm = try portRealm()
        let object: Object = PortOptionalPrimaryObject()
        try realm.write {
            let object2 = realm.create(type(of: object), value: object)
            #expect(object2.objectSchema.className == "PortOptionalPrimaryObject")
            let object3 = try realm.create(type(of: object), value: object, update: .all)
            #expect(object3.objectSchema.className == "PortOptionalPrimaryObject")
        }
    }

    // realm-swift: testDynamicCreateEmbeddedDirectly
    @Test func dynamicCreateEmbeddedDirectly() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let configuration = Realm.Configuration(inMemoryIdentifier: "dynamic-create-embedded",
                                                    objectTypes: [PortEmbeddedParentObject.self, PortEmbeddedTreeObject1.self,
                                                                  PortEmbeddedTreeObject2.self, PortEmbeddedTreeObject3.self])
            let realm = try! Realm(configuration: configuration)
            realm.beginWrite()
            realm.dynamicCreate("PortEmbeddedTreeObject1")
        }
        #expect(seedStandardError(result).contains("Embedded objects"))
    }

    // realm-swift: testCreateEmbeddedWithDictionary
    @Test func createEmbeddedWithDictionary() throws {
        let realm = try portRealm()
        realm.beginWrite()
        defer { realm.cancelWrite() }
        let parent = realm.create(PortEmbeddedParentObject.self, value: [
            "object": ["value": 5, "child": ["value": 6], "children": [[7], [8]]] as [String: Any],
            "array": [[9], [10]],
        ])
        #expect(portEmbeddedValues(object: parent.object, array: parent.array) == [5, 6, 7, 8, 9, 10])

        let object = try #require(parent.object)
        #expect(parent.isSameObject(as: object.parent1.first))
        #expect(parent.isSameObject(as: parent.array[0].parent2.first))
        #expect(parent.isSameObject(as: parent.array[1].parent2.first))
        #expect(object.isSameObject(as: object.child?.parent3.first))
        #expect(object.isSameObject(as: object.children[0].parent4.first))
        #expect(object.isSameObject(as: object.children[1].parent4.first))
    }

    // realm-swift: testCreateEmbeddedWithUnmanagedObjects
    @Test func createEmbeddedWithUnmanagedObjects() throws {
        let sourceObject = PortEmbeddedParentObject()
        sourceObject.object = .init(value: [5])
        sourceObject.object!.child = .init(value: [6])
        sourceObject.object!.children.append(.init(value: [7]))
        sourceObject.object!.children.append(.init(value: [8]))
        sourceObject.array.append(.init(value: [9]))
        sourceObject.array.append(.init(value: [10]))

        let realm = try portRealm()
        realm.beginWrite()
        defer { realm.cancelWrite() }
        let parent = realm.create(PortEmbeddedParentObject.self, value: sourceObject)
        #expect(sourceObject.realm == nil)
        #expect(portEmbeddedValues(object: parent.object, array: parent.array) == [5, 6, 7, 8, 9, 10])
    }

    // realm-swift: testCreateEmbeddedFromManagedObjectInSameRealm
    @Test func createEmbeddedFromManagedObjectInSameRealm() throws {
        let realm = try portRealm()
        realm.beginWrite()
        defer { realm.cancelWrite() }
        let parent = realm.create(PortEmbeddedParentObject.self, value: [
            "object": ["value": 5, "child": ["value": 6], "children": [[7], [8]]] as [String: Any],
            "array": [[9], [10]],
        ])
        let copy = realm.create(PortEmbeddedParentObject.self, value: parent)
        #expect(parent != copy)
        #expect(portEmbeddedValues(object: copy.object, array: copy.array) == [5, 6, 7, 8, 9, 10])
    }

    // realm-swift: testCreateEmbeddedFromManagedObjectInDifferentRealm
    @Test func createEmbeddedFromManagedObjectInDifferentRealm() throws {
        let realmA = try portRealm("A")
        let realmB = try portRealm("B")
        realmA.beginWrite()
        let parent = realmA.create(PortEmbeddedParentObject.self, value: [
            "object": ["value": 5, "child": ["value": 6], "children": [[7], [8]]] as [String: Any],
            "array": [[9], [10]],
        ])
        try realmA.commitWrite()

        realmB.beginWrite()
        defer { realmB.cancelWrite() }
        let copy = realmB.create(PortEmbeddedParentObject.self, value: parent)
        #expect(parent != copy)
        #expect(portEmbeddedValues(object: copy.object, array: copy.array) == [5, 6, 7, 8, 9, 10])
    }

    // realm-swift: testCreateObjectWithNestedEmbeddedType
    @Test func createObjectWithNestedEmbeddedType() throws {
        let realm = try portRealm()
        let object = try realm.write {
            realm.create(PortObjectWithNestedEmbeddedObject.self, value: [1, [2]])
        }
        #expect(object.value == 1)
        #expect(object.inner?.value == 2)
    }

    // MARK: - Add tests

    // realm-swift: testAddWithExisingNestedObjects
    @Test func addWithExistingNestedObjects() throws {
        let realm = try portRealm()
        realm.beginWrite()
        let existingObject = realm.create(PortBoolObject.self)
        try realm.commitWrite()

        realm.beginWrite()
        let object = PortObject(value: ["objectCol": existingObject])
        realm.add(object)
        try realm.commitWrite()

        #expect(object.realm != nil)
        #expect(portSame(object.objectCol, existingObject))
    }

    // realm-swift: testAddEmbedded
    @Test func addEmbedded() throws {
        let factory = PortEmbeddedObjectFactory()
        let parent = PortEmbeddedParentObject()
        portFillEmbeddedParent(object: &parent.object, array: parent.array, factory: factory)

        let realm = try portRealm()
        realm.beginWrite()
        defer { realm.cancelWrite() }
        realm.add(parent)
        for (i, object) in factory.objects.enumerated() {
            #expect(object.realm == realm, "embedded object \(i)")
            #expect((object as? PortEmbeddedTreeObject)?.value == i)
        }
        #expect(portEmbeddedValues(object: parent.object, array: parent.array) == [0, 1, 2, 3, 4, 5])
    }

    // realm-swift: testAddAndUpdateWithExisingNestedObjects
    @Test func addAndUpdateWithExistingNestedObjects() throws {
        try addAndUpdateWithExistingNestedObjects(policy: .all)
    }

    // realm-swift: testAddAndUpdateChangedWithExisingNestedObjects
    @Test func addAndUpdateChangedWithExistingNestedObjects() throws {
        try addAndUpdateWithExistingNestedObjects(policy: .modified)
    }

    private func addAndUpdateWithExistingNestedObjects(policy: Realm.UpdatePolicy) throws {
        let realm = try portRealm()
        let existingObject = try realm.write {
            realm.create(PortPrimaryStringObject.self, value: ["primary", 1])
        }
        let object = try realm.write { () -> PortLinkToPrimaryStringObject in
            let object = PortLinkToPrimaryStringObject(value: ["primary", ["primary", 2] as [Any]])
            try realm.add(object, update: policy)
            return object
        }
        #expect(object.realm != nil)
        #expect(object.object == existingObject) // the existing object is updated
        #expect(existingObject.intCol == 2)
    }

    // realm-swift: testAddAndUpdateEmbedded
    @Test func addAndUpdateEmbedded() throws {
        let factory = PortEmbeddedObjectFactory()
        let parent = PortEmbeddedPrimaryParentObject()
        portFillEmbeddedParent(object: &parent.object, array: parent.array, factory: factory)
        let parent2 = PortEmbeddedPrimaryParentObject()
        portFillEmbeddedParent(object: &parent2.object, array: parent2.array, factory: factory)

        let realm = try portRealm()
        realm.beginWrite()
        defer { realm.cancelWrite() }
        realm.add(parent)
        try realm.add(parent2, update: .all)

        // Updating all deletes the old embedded objects and creates new ones.
        for (i, object) in factory.objects.enumerated() {
            #expect(object.realm == realm, "embedded object \(i)")
            if i < 6 {
                #expect(object.isInvalidated, "embedded object \(i)")
            } else {
                #expect((object as? PortEmbeddedTreeObject)?.value == i)
            }
        }
        #expect(parent.isSameObject(as: parent2))
        #expect(portEmbeddedValues(object: parent.object, array: parent.array) == [6, 7, 8, 9, 10, 11])
    }

    // realm-swift: testAddObjectCycle
    @Test func addObjectCycle() throws {
        weak var weakObject1: PortCircleObject?
        weak var weakObject2: PortCircleObject?
        try autoreleasepool {
            let object1 = PortCircleObject(value: [])
            let object2 = PortCircleObject(value: [object1, [object1]])
            object1.obj = object2
            object1.array.append(object2)
            weakObject1 = object1
            weakObject2 = object2

            let realm = try portRealm()
            try realm.write { realm.add(object1) }
            #expect(object1.realm == realm)
            #expect(object2.realm == realm)
        }
        #expect(weakObject1 == nil)
        #expect(weakObject2 == nil)
    }

    // realm-swift: testAddOrUpdateNil
    @Test func addOrUpdateNil() throws {
        try addOrUpdateNil(policy: .all)
    }

    // realm-swift: testAddOrUpdateModifiedNil
    @Test func addOrUpdateModifiedNil() throws {
        try addOrUpdateNil(policy: .modified)
    }

    private func addOrUpdateNil(policy: Realm.UpdatePolicy) throws {
        let realm = try portRealm()
        realm.beginWrite()
        defer { realm.cancelWrite() }

        // Create with all fields nil.
        let object = PortOptionalPrimaryObject()
        realm.add(object)
        #expect(object.id.value == nil)
        #expect(portNonNilOptionals(object) == [])

        // Switch to non-nil.
        let object2 = PortOptionalPrimaryObject()
        portFillOptionals(object2)
        try realm.add(object2, update: policy)
        #expect(object.id.value == nil)
        #expect(portNonNilOptionals(object) == portAllOptionalNames)

        // Switch back to nil.
        let object3 = PortOptionalPrimaryObject()
        try realm.add(object3, update: policy)
        #expect(object.id.value == nil)
        #expect(portNonNilOptionals(object) == [])
    }

    // realm-swift: testProperOrderingOfProperties (without the sets)
    @Test func properOrderingOfProperties() {
        let values: [Any] = [
            // Superclass's properties
            [["intCol": 42], ["intCol": 9001]],
            100,
            200,
            // Class's properties
            1,
            [["stringCol": "hello"], ["stringCol": "world"]],
            2,
            [["stringCol": "goodbye"], ["stringCol": "cruel"], ["stringCol": "world"]],
            NSNull(),
            3,
            300,
        ]
        let object = PortGenericPropsOrderingObject(value: values)
        #expect(object.firstNumber == 1)
        #expect(object.secondNumber == 2)
        #expect(object.thirdNumber == 3)
        #expect(object.firstArray.map(\.stringCol) == ["hello", "world"])
        #expect(object.secondArray.map(\.stringCol) == ["goodbye", "cruel", "world"])
        #expect(object.firstOptionalNumber.value == nil)
        #expect(object.secondOptionalNumber.value == 300)
        #expect(object.parentFirstList.map(\.intCol) == [42, 9001])
        #expect(object.parentFirstNumber == 100)
        #expect(object.parentSecondNumber == 200)
        #expect(object.firstLinking.count == 0)
        #expect(object.secondLinking.count == 0)
    }

    // realm-swift: testPrivateOptionalNonobjcString
    @Test func privateOptionalNonobjcString() throws {
        let realm = try portRealm()
        try realm.write {
            let object = PortObjectWithPrivateOptionals()
            object.value = 5
            realm.add(object)
            #expect(realm.objects(PortObjectWithPrivateOptionals.self).first?.value == 5)
        }
    }
}

/// Ports that found differences from Realm, each fixed in issue 35.
@Suite struct ObjectCreationPortFixedTests {
    // realm-swift: testAddAndUpdateChangedEmbedded
    @Test func addAndUpdateChangedEmbedded() throws {
        let factory = PortEmbeddedObjectFactory()
        let parent = PortEmbeddedPrimaryParentObject()
        portFillEmbeddedParent(object: &parent.object, array: parent.array, factory: factory)
        let parent2 = PortEmbeddedPrimaryParentObject()
        portFillEmbeddedParent(object: &parent2.object, array: parent2.array, factory: factory)

        let realm = try portRealm()
        realm.beginWrite()
        defer { realm.cancelWrite() }
        realm.add(parent)
        try realm.add(parent2, update: .modified)

        // Updating what changed modifies the existing embedded objects.
        for (i, object) in factory.objects.enumerated() {
            #expect(object.realm == realm, "embedded object \(i)")
            // Checked first: reading an invalidated object stops the process.
            #expect(!object.isInvalidated, "embedded object \(i)")
            if !object.isInvalidated {
                #expect((object as? PortEmbeddedTreeObject)?.value == (i < 6 ? i + 6 : i), "embedded object \(i)")
            }
        }
        #expect(parent.isSameObject(as: parent2))
        #expect(portEmbeddedValues(object: parent.object, array: parent.array) == [6, 7, 8, 9, 10, 11])
    }

    // realm-swift: testInitWithDictionary (its valid decimal input 1 and "2")
    @Test func initWithDictionaryDecimalInput() {
        for value in [1, "2"] as [Any] {
            var values = portBaselineDictionary()
            values["decimalCol"] = value
            let object = PortObject(value: values)
            portVerify(object, dictionary: values, boolObjectValue: true, boolObjectListValues: [true, false])
        }
    }

    // realm-swift: testInitWithArray (its valid decimal input 1 and "2")
    @Test func initWithArrayDecimalInput() {
        for value in [1, "2"] as [Any] {
            var values = portBaselineArray()
            values[12] = value
            let object = PortObject(value: values)
            portVerify(object, array: values, boolObjectValue: true, boolObjectListValues: [true, false])
        }
    }

    // realm-swift: testCreateWithDictionary (its valid decimal input 1 and "2")
    @Test func createWithDictionaryDecimalInput() throws {
        let realm = try portRealm()
        for value in [1, "2"] as [Any] {
            var values = portBaselineDictionary()
            values["decimalCol"] = value
            try realm.write {
                let object = try realm.create(PortObject.self, value: values, update: .error)
                portVerify(object, dictionary: values, boolObjectValue: true, boolObjectListValues: [true, false])
            }
        }
    }

    // realm-swift: testCreateWithArray (its valid decimal input 1 and "2")
    @Test func createWithArrayDecimalInput() throws {
        let realm = try portRealm()
        for value in [1, "2"] as [Any] {
            var values = portBaselineArray()
            values[12] = value
            try realm.write {
                let object = try realm.create(PortObject.self, value: values, update: .error)
                portVerify(object, array: values, boolObjectValue: true, boolObjectListValues: [true, false])
            }
        }
    }
}
