import Foundation
import RealmObjects
import Testing

// Ports of realm-swift's RealmSwift/Tests/ObjectAccessorTests.swift.
//
// Left out: AnyRealmValue (setAndTestAnyViaAccessor…), RealmProperty
// (setAndTestRealmPropertyViaAccessor), MutableSet and Map helpers,
// `NSString` properties, Decimal128 infinities (Foundation's `Decimal` has
// none; its NaN is checked) and testRenamedProperties (`propertiesMapping`, Realm 10).
//
// realm-swift reads numbers by name as `NSNumber`s, which bridge to any
// number type (`object["int8Col"] as! Int`); without the Objective-C
// runtime a value read by name is the property's own Swift type, so the
// casts here name it (`as? Int8`), as realm-swift's own
// testValueForKey does. realm-swift's `swiftAccessor` get and set
// (internal, Objective-C) become the subscript.

/// realm-swift: setAndTestAllPropertiesViaNormalAccess
func portSetAndTestAllPropertiesViaNormalAccess(_ object: PortObject, _ optObject: PortOptionalObject,
                                                sourceLocation: SourceLocation = #_sourceLocation) {
    object.boolCol = true
    #expect(object.boolCol == true, sourceLocation: sourceLocation)
    object.boolCol = false
    #expect(object.boolCol == false, sourceLocation: sourceLocation)

    for value in [-1, 0, 1] {
        object.intCol = value
        #expect(object.intCol == value, sourceLocation: sourceLocation)
        object.int8Col = Int8(value)
        #expect(object.int8Col == Int8(value), sourceLocation: sourceLocation)
        object.int16Col = Int16(value)
        #expect(object.int16Col == Int16(value), sourceLocation: sourceLocation)
        object.int32Col = Int32(value)
        #expect(object.int32Col == Int32(value), sourceLocation: sourceLocation)
        object.int64Col = Int64(value)
        #expect(object.int64Col == Int64(value), sourceLocation: sourceLocation)
    }

    object.floatCol = 20
    #expect(object.floatCol == 20 as Float, sourceLocation: sourceLocation)
    object.floatCol = 20.2
    #expect(object.floatCol == 20.2 as Float, sourceLocation: sourceLocation)
    object.floatCol = Float(16777217 as Double)
    #expect(Double(object.floatCol) == 16777216.0, sourceLocation: sourceLocation)

    object.doubleCol = 20
    #expect(object.doubleCol == 20, sourceLocation: sourceLocation)
    object.doubleCol = 20.2
    #expect(object.doubleCol == 20.2, sourceLocation: sourceLocation)
    object.doubleCol = 16777217
    #expect(object.doubleCol == 16777217, sourceLocation: sourceLocation)

    object.stringCol = ""
    #expect(object.stringCol == "", sourceLocation: sourceLocation)
    let utf8TestString = "值значен™👍☞⎠‱௹♣︎☐▼❒∑⨌⧭иеمرحبا"
    object.stringCol = utf8TestString
    #expect(object.stringCol == utf8TestString, sourceLocation: sourceLocation)

    let data = Data("b".utf8)
    object.binaryCol = data
    #expect(object.binaryCol == data, sourceLocation: sourceLocation)

    let date = Date(timeIntervalSinceReferenceDate: 2)
    object.dateCol = date
    #expect(object.dateCol == date, sourceLocation: sourceLocation)

    object.objectCol = PortBoolObject(value: [true])
    #expect(object.objectCol?.boolCol == true, sourceLocation: sourceLocation)

    object.intEnumCol = .value1
    #expect(object.intEnumCol == .value1, sourceLocation: sourceLocation)
    object.intEnumCol = .value2
    #expect(object.intEnumCol == .value2, sourceLocation: sourceLocation)

    object.decimalCol = Decimal(string: "-123.456")!
    #expect(object.decimalCol == Decimal(string: "-123.456")!, sourceLocation: sourceLocation)
    object.decimalCol = 0
    #expect(object.decimalCol == 0, sourceLocation: sourceLocation)
    object.decimalCol = .nan
    #expect(object.decimalCol.isNaN, sourceLocation: sourceLocation)

    let oid1 = ObjectId(string: "1234567890ab1234567890ab")!
    let oid2 = ObjectId(string: "abcdef123456abcdef123456")!
    object.objectIdCol = oid1
    #expect(object.objectIdCol == oid1, sourceLocation: sourceLocation)
    object.objectIdCol = oid2
    #expect(object.objectIdCol == oid2, sourceLocation: sourceLocation)

    // Optional properties

    optObject.optStringCol = ""
    #expect(optObject.optStringCol == "", sourceLocation: sourceLocation)
    optObject.optStringCol = utf8TestString
    #expect(optObject.optStringCol == utf8TestString, sourceLocation: sourceLocation)
    optObject.optStringCol = nil
    #expect(optObject.optStringCol == nil, sourceLocation: sourceLocation)

    optObject.optBinaryCol = data
    #expect(optObject.optBinaryCol == data, sourceLocation: sourceLocation)
    optObject.optBinaryCol = nil
    #expect(optObject.optBinaryCol == nil, sourceLocation: sourceLocation)

    optObject.optDateCol = date
    #expect(optObject.optDateCol == date, sourceLocation: sourceLocation)
    optObject.optDateCol = nil
    #expect(optObject.optDateCol == nil, sourceLocation: sourceLocation)

    for value in [Int.min, 0, Int.max, nil] {
        optObject.optIntCol.value = value
        #expect(optObject.optIntCol.value == value, sourceLocation: sourceLocation)
    }
    for value in [Int8.min, 0, Int8.max, nil] {
        optObject.optInt8Col.value = value
        #expect(optObject.optInt8Col.value == value, sourceLocation: sourceLocation)
    }
    for value in [Int16.min, 0, Int16.max, nil] {
        optObject.optInt16Col.value = value
        #expect(optObject.optInt16Col.value == value, sourceLocation: sourceLocation)
    }
    for value in [Int32.min, 0, Int32.max, nil] {
        optObject.optInt32Col.value = value
        #expect(optObject.optInt32Col.value == value, sourceLocation: sourceLocation)
    }
    for value in [Int64.min, 0, Int64.max, nil] {
        optObject.optInt64Col.value = value
        #expect(optObject.optInt64Col.value == value, sourceLocation: sourceLocation)
    }
    for value in [-Float.greatestFiniteMagnitude, 0, Float.greatestFiniteMagnitude, nil] {
        optObject.optFloatCol.value = value
        #expect(optObject.optFloatCol.value == value, sourceLocation: sourceLocation)
    }
    for value in [-Double.greatestFiniteMagnitude, 0, Double.greatestFiniteMagnitude, nil] {
        optObject.optDoubleCol.value = value
        #expect(optObject.optDoubleCol.value == value, sourceLocation: sourceLocation)
    }
    for value in [true, false, nil] {
        optObject.optBoolCol.value = value
        #expect(optObject.optBoolCol.value == value, sourceLocation: sourceLocation)
    }

    optObject.optObjectCol = PortBoolObject(value: [true])
    #expect(optObject.optObjectCol?.boolCol == true, sourceLocation: sourceLocation)
    optObject.optObjectCol = nil
    #expect(optObject.optObjectCol == nil, sourceLocation: sourceLocation)

    for value in [PortIntEnum.value1, .value2, nil] {
        optObject.optEnumCol.value = value
        #expect(optObject.optEnumCol.value == value, sourceLocation: sourceLocation)
    }
}

/// realm-swift: setAndTestAllPropertiesViaSubscript
func portSetAndTestAllPropertiesViaSubscript(_ object: PortObject, _ optObject: PortOptionalObject,
                                             sourceLocation: SourceLocation = #_sourceLocation) {
    object["boolCol"] = true
    #expect(object["boolCol"] as? Bool == true, sourceLocation: sourceLocation)
    object["boolCol"] = false
    #expect(object["boolCol"] as? Bool == false, sourceLocation: sourceLocation)

    for value in [-1, 0, 1] {
        object["intCol"] = value
        #expect(object["intCol"] as? Int == value, sourceLocation: sourceLocation)
        object["int8Col"] = value
        #expect(object["int8Col"] as? Int8 == Int8(value), sourceLocation: sourceLocation)
        object["int16Col"] = value
        #expect(object["int16Col"] as? Int16 == Int16(value), sourceLocation: sourceLocation)
        object["int32Col"] = value
        #expect(object["int32Col"] as? Int32 == Int32(value), sourceLocation: sourceLocation)
        object["int64Col"] = value
        #expect(object["int64Col"] as? Int64 == Int64(value), sourceLocation: sourceLocation)
    }

    object["floatCol"] = 20
    #expect(object["floatCol"] as? Float == 20 as Float, sourceLocation: sourceLocation)
    object["floatCol"] = 20.2
    #expect(object["floatCol"] as? Float == 20.2 as Float, sourceLocation: sourceLocation)
    object["floatCol"] = 16777217
    #expect(object["floatCol"] as? Float == 16777216 as Float, sourceLocation: sourceLocation)

    object["doubleCol"] = 20
    #expect(object["doubleCol"] as? Double == 20, sourceLocation: sourceLocation)
    object["doubleCol"] = 20.2
    #expect(object["doubleCol"] as? Double == 20.2, sourceLocation: sourceLocation)
    object["doubleCol"] = 16777217
    #expect(object["doubleCol"] as? Double == 16777217, sourceLocation: sourceLocation)

    object["stringCol"] = ""
    #expect(object["stringCol"] as? String == "", sourceLocation: sourceLocation)
    let utf8TestString = "值значен™👍☞⎠‱௹♣︎☐▼❒∑⨌⧭иеمرحبا"
    object["stringCol"] = utf8TestString
    #expect(object["stringCol"] as? String == utf8TestString, sourceLocation: sourceLocation)

    let data = Data("b".utf8)
    object["binaryCol"] = data
    #expect(object["binaryCol"] as? Data == data, sourceLocation: sourceLocation)

    let date = Date(timeIntervalSinceReferenceDate: 2)
    object["dateCol"] = date
    #expect(object["dateCol"] as? Date == date, sourceLocation: sourceLocation)

    object["objectCol"] = PortBoolObject(value: [true])
    #expect((object["objectCol"] as? PortBoolObject)?.boolCol == true, sourceLocation: sourceLocation)

    object["intEnumCol"] = PortIntEnum.value1
    #expect(object["intEnumCol"] as? Int == PortIntEnum.value1.rawValue, sourceLocation: sourceLocation)
    object["intEnumCol"] = PortIntEnum.value2
    #expect(object["intEnumCol"] as? Int == PortIntEnum.value2.rawValue, sourceLocation: sourceLocation)

    object["decimalCol"] = Decimal(string: "-123.456")!
    #expect(object["decimalCol"] as? Decimal == Decimal(string: "-123.456")!, sourceLocation: sourceLocation)
    object["decimalCol"] = Decimal(0)
    #expect(object["decimalCol"] as? Decimal == 0, sourceLocation: sourceLocation)
    object["decimalCol"] = Decimal.nan
    #expect((object["decimalCol"] as? Decimal)?.isNaN == true, sourceLocation: sourceLocation)

    let oid1 = ObjectId(string: "1234567890ab1234567890ab")!
    let oid2 = ObjectId(string: "abcdef123456abcdef123456")!
    object["objectIdCol"] = oid1
    #expect(object["objectIdCol"] as? ObjectId == oid1, sourceLocation: sourceLocation)
    object["objectIdCol"] = oid2
    #expect(object["objectIdCol"] as? ObjectId == oid2, sourceLocation: sourceLocation)

    // Optional properties

    optObject["optStringCol"] = ""
    #expect(optObject["optStringCol"] as? String == "", sourceLocation: sourceLocation)
    optObject["optStringCol"] = utf8TestString
    #expect(optObject["optStringCol"] as? String == utf8TestString, sourceLocation: sourceLocation)
    optObject["optStringCol"] = nil
    #expect(optObject["optStringCol"] == nil, sourceLocation: sourceLocation)

    optObject["optBinaryCol"] = data
    #expect(optObject["optBinaryCol"] as? Data == data, sourceLocation: sourceLocation)
    optObject["optBinaryCol"] = nil
    #expect(optObject["optBinaryCol"] == nil, sourceLocation: sourceLocation)

    optObject["optDateCol"] = date
    #expect(optObject["optDateCol"] as? Date == date, sourceLocation: sourceLocation)
    optObject["optDateCol"] = nil
    #expect(optObject["optDateCol"] == nil, sourceLocation: sourceLocation)

    for value in [Int.min, 0, Int.max] {
        optObject["optIntCol"] = value
        #expect(optObject["optIntCol"] as? Int == value, sourceLocation: sourceLocation)
    }
    optObject["optIntCol"] = nil
    #expect(optObject["optIntCol"] == nil, sourceLocation: sourceLocation)

    for value in [Int8.min, 0, Int8.max] {
        optObject["optInt8Col"] = value
        #expect(optObject["optInt8Col"] as? Int8 == value, sourceLocation: sourceLocation)
    }
    optObject["optInt8Col"] = nil
    #expect(optObject["optInt8Col"] == nil, sourceLocation: sourceLocation)

    for value in [Int16.min, 0, Int16.max] {
        optObject["optInt16Col"] = value
        #expect(optObject["optInt16Col"] as? Int16 == value, sourceLocation: sourceLocation)
    }
    optObject["optInt16Col"] = nil
    #expect(optObject["optInt16Col"] == nil, sourceLocation: sourceLocation)

    for value in [Int32.min, 0, Int32.max] {
        optObject["optInt32Col"] = value
        #expect(optObject["optInt32Col"] as? Int32 == value, sourceLocation: sourceLocation)
    }
    optObject["optInt32Col"] = nil
    #expect(optObject["optInt32Col"] == nil, sourceLocation: sourceLocation)

    for value in [Int64.min, 0, Int64.max] {
        optObject["optInt64Col"] = value
        #expect(optObject["optInt64Col"] as? Int64 == value, sourceLocation: sourceLocation)
    }
    optObject["optInt64Col"] = nil
    #expect(optObject["optInt64Col"] == nil, sourceLocation: sourceLocation)

    for value in [-Float.greatestFiniteMagnitude, 0, Float.greatestFiniteMagnitude] {
        optObject["optFloatCol"] = value
        #expect(optObject["optFloatCol"] as? Float == value, sourceLocation: sourceLocation)
    }
    optObject["optFloatCol"] = nil
    #expect(optObject["optFloatCol"] == nil, sourceLocation: sourceLocation)

    for value in [-Double.greatestFiniteMagnitude, 0, Double.greatestFiniteMagnitude] {
        optObject["optDoubleCol"] = value
        #expect(optObject["optDoubleCol"] as? Double == value, sourceLocation: sourceLocation)
    }
    optObject["optDoubleCol"] = nil
    #expect(optObject["optDoubleCol"] == nil, sourceLocation: sourceLocation)

    optObject["optBoolCol"] = true
    #expect(optObject["optBoolCol"] as? Bool == true, sourceLocation: sourceLocation)
    optObject["optBoolCol"] = false
    #expect(optObject["optBoolCol"] as? Bool == false, sourceLocation: sourceLocation)
    optObject["optBoolCol"] = nil
    #expect(optObject["optBoolCol"] == nil, sourceLocation: sourceLocation)

    optObject["optObjectCol"] = PortBoolObject(value: [true])
    #expect((optObject["optObjectCol"] as? PortBoolObject)?.boolCol == true, sourceLocation: sourceLocation)
    optObject["optObjectCol"] = nil
    #expect(optObject["optObjectCol"] == nil, sourceLocation: sourceLocation)

    optObject["optEnumCol"] = PortIntEnum.value1
    #expect(optObject["optEnumCol"] as? Int == PortIntEnum.value1.rawValue, sourceLocation: sourceLocation)
    optObject["optEnumCol"] = PortIntEnum.value2
    #expect(optObject["optEnumCol"] as? Int == PortIntEnum.value2.rawValue, sourceLocation: sourceLocation)
    optObject["optEnumCol"] = nil
    #expect(optObject["optEnumCol"] == nil, sourceLocation: sourceLocation)
}

/// realm-swift: setAndTestRealmOptionalViaAccessor, through the subscript:
/// values of other number types are converted, `NSNull` is nil.
func portSetAndTestRealmOptionalViaSubscript(_ object: PortOptionalObject, sourceLocation: SourceLocation = #_sourceLocation) {
    for value in [-1, 0, 1] {
        object["optIntCol"] = value
        #expect(object["optIntCol"] as? Int == value, sourceLocation: sourceLocation)
    }
    object["optIntCol"] = NSNull()
    #expect(object["optIntCol"] == nil, sourceLocation: sourceLocation)

    for value in [-1, 0, 1] {
        object["optInt8Col"] = value
        #expect(object["optInt8Col"] as? Int8 == Int8(value), sourceLocation: sourceLocation)
        object["optInt16Col"] = value
        #expect(object["optInt16Col"] as? Int16 == Int16(value), sourceLocation: sourceLocation)
        object["optInt32Col"] = value
        #expect(object["optInt32Col"] as? Int32 == Int32(value), sourceLocation: sourceLocation)
        object["optInt64Col"] = value
        #expect(object["optInt64Col"] as? Int64 == Int64(value), sourceLocation: sourceLocation)
    }

    object["optFloatCol"] = -20 as Float
    #expect(object["optFloatCol"] as? Float == -20, sourceLocation: sourceLocation)
    object["optFloatCol"] = 20.2 as Float
    #expect(object["optFloatCol"] as? Float == 20.2, sourceLocation: sourceLocation)
    // 16777217 is not exactly representable as a float.
    object["optFloatCol"] = 16777217 as Double
    #expect(object["optFloatCol"] as? Float == 16777216, sourceLocation: sourceLocation)

    object["optDoubleCol"] = -20 as Double
    #expect(object["optDoubleCol"] as? Double == -20, sourceLocation: sourceLocation)
    object["optDoubleCol"] = 20.2 as Double
    #expect(object["optDoubleCol"] as? Double == 20.2, sourceLocation: sourceLocation)
    object["optDoubleCol"] = 16777217 as Double
    #expect(object["optDoubleCol"] as? Double == 16777217, sourceLocation: sourceLocation)

    object["optBoolCol"] = true
    #expect(object["optBoolCol"] as? Bool == true, sourceLocation: sourceLocation)
    object["optBoolCol"] = false
    #expect(object["optBoolCol"] as? Bool == false, sourceLocation: sourceLocation)
    object["optBoolCol"] = 1
    #expect(object["optBoolCol"] as? Bool == true, sourceLocation: sourceLocation)
    object["optBoolCol"] = 0
    #expect(object["optBoolCol"] as? Bool == false, sourceLocation: sourceLocation)

    object["optEnumCol"] = PortIntEnum.value1
    #expect(object["optEnumCol"] as? Int == PortIntEnum.value1.rawValue, sourceLocation: sourceLocation)
    object["optEnumCol"] = PortIntEnum.value2
    #expect(object["optEnumCol"] as? Int == PortIntEnum.value2.rawValue, sourceLocation: sourceLocation)
    object["optEnumCol"] = PortIntEnum.value1.rawValue
    #expect(object["optEnumCol"] as? Int == PortIntEnum.value1.rawValue, sourceLocation: sourceLocation)
    object["optEnumCol"] = NSNull()
    #expect(object["optEnumCol"] == nil, sourceLocation: sourceLocation)
}

/// realm-swift: setAndTestListViaAccessor, through the subscript.
func portSetAndTestListViaSubscript(_ object: PortListObject, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(object["int"] is List<Int>, sourceLocation: sourceLocation)
    #expect(object["int8"] is List<Int8>, sourceLocation: sourceLocation)
    #expect(object["int16"] is List<Int16>, sourceLocation: sourceLocation)
    #expect(object["int32"] is List<Int32>, sourceLocation: sourceLocation)
    #expect(object["int64"] is List<Int64>, sourceLocation: sourceLocation)
    #expect(object["float"] is List<Float>, sourceLocation: sourceLocation)
    #expect(object["double"] is List<Double>, sourceLocation: sourceLocation)
    #expect(object["string"] is List<String>, sourceLocation: sourceLocation)
    #expect(object["data"] is List<Data>, sourceLocation: sourceLocation)
    #expect(object["date"] is List<Date>, sourceLocation: sourceLocation)
    #expect(object["decimal"] is List<Decimal>, sourceLocation: sourceLocation)
    #expect(object["objectId"] is List<ObjectId>, sourceLocation: sourceLocation)
    #expect(object["uuid"] is List<UUID>, sourceLocation: sourceLocation)

    #expect(object["intOpt"] is List<Int?>, sourceLocation: sourceLocation)
    #expect(object["int8Opt"] is List<Int8?>, sourceLocation: sourceLocation)
    #expect(object["int16Opt"] is List<Int16?>, sourceLocation: sourceLocation)
    #expect(object["int32Opt"] is List<Int32?>, sourceLocation: sourceLocation)
    #expect(object["int64Opt"] is List<Int64?>, sourceLocation: sourceLocation)
    #expect(object["floatOpt"] is List<Float?>, sourceLocation: sourceLocation)
    #expect(object["doubleOpt"] is List<Double?>, sourceLocation: sourceLocation)
    #expect(object["stringOpt"] is List<String?>, sourceLocation: sourceLocation)
    #expect(object["dataOpt"] is List<Data?>, sourceLocation: sourceLocation)
    #expect(object["dateOpt"] is List<Date?>, sourceLocation: sourceLocation)
    #expect(object["decimalOpt"] is List<Decimal?>, sourceLocation: sourceLocation)
    #expect(object["objectIdOpt"] is List<ObjectId?>, sourceLocation: sourceLocation)
    #expect(object["uuidOpt"] is List<UUID?>, sourceLocation: sourceLocation)

    object["int"] = [1, 2, 3]
    #expect((object["int"] as? List<Int>).map(Array.init) == [1, 2, 3], sourceLocation: sourceLocation)
    object["int"] = [4, 5, 6]
    #expect((object["int"] as? List<Int>).map(Array.init) == [4, 5, 6], sourceLocation: sourceLocation)
    object["int8"] = object["int"]
    #expect((object["int8"] as? List<Int8>).map(Array.init) == [4, 5, 6], sourceLocation: sourceLocation)
    object["int"] = NSNull()
    #expect((object["int"] as? List<Int>)?.count == 0, sourceLocation: sourceLocation)
}

@Suite struct ObjectAccessorPortTests {
    // realm-swift: testUnmanagedAccessors
    @Test func unmanagedAccessors() {
        portSetAndTestAllPropertiesViaNormalAccess(PortObject(), PortOptionalObject())
        portSetAndTestAllPropertiesViaSubscript(PortObject(), PortOptionalObject())
        portSetAndTestRealmOptionalViaSubscript(PortOptionalObject())
        portSetAndTestListViaSubscript(PortListObject())
    }

    // realm-swift: testManagedAccessors
    @Test func managedAccessors() throws {
        let realm = try portRealm()
        realm.beginWrite()
        defer { realm.cancelWrite() }
        let object = realm.create(PortObject.self)
        let optionalObject = realm.create(PortOptionalObject.self)
        portSetAndTestAllPropertiesViaNormalAccess(object, optionalObject)
        portSetAndTestAllPropertiesViaSubscript(object, optionalObject)
        portSetAndTestRealmOptionalViaSubscript(optionalObject)
        portSetAndTestListViaSubscript(realm.create(PortListObject.self))
    }

    // realm-swift: testIntSizes
    @Test func intSizes() throws {
        let realm = try portRealm()

        let v8 = Int8(1) << 6
        let v16 = Int16(1) << 12
        let v32 = Int32(1) << 30
        let v64 = Int64(1) << 40
        try realm.write {
            let object = PortAllIntSizesObject()

            func testObject() {
                object.objectSchema.properties.map(\.name).forEach { object[$0] = 0 }

                object["int8"] = NSNumber(value: v8)
                #expect(object["int8"] as? Int8 == v8)
                object["int16"] = NSNumber(value: v16)
                #expect(object["int16"] as? Int16 == v16)
                object["int32"] = NSNumber(value: v32)
                #expect(object["int32"] as? Int32 == v32)
                object["int64"] = NSNumber(value: v64)
                #expect(object["int64"] as? Int64 == v64)

                object.objectSchema.properties.map(\.name).forEach { object[$0] = 0 }

                object.setValue(NSNumber(value: v8), forKey: "int8")
                #expect(object.value(forKey: "int8") as? Int8 == v8)
                object.setValue(NSNumber(value: v16), forKey: "int16")
                #expect(object.value(forKey: "int16") as? Int16 == v16)
                object.setValue(NSNumber(value: v32), forKey: "int32")
                #expect(object.value(forKey: "int32") as? Int32 == v32)
                object.setValue(NSNumber(value: v64), forKey: "int64")
                #expect(object.value(forKey: "int64") as? Int64 == v64)

                object.objectSchema.properties.map(\.name).forEach { object[$0] = 0 }

                object.int8 = v8
                #expect(object.int8 == v8)
                object.int16 = v16
                #expect(object.int16 == v16)
                object.int32 = v32
                #expect(object.int32 == v32)
                object.int64 = v64
                #expect(object.int64 == v64)
            }

            testObject()
            realm.add(object)
            testObject()
        }

        let object = try #require(realm.objects(PortAllIntSizesObject.self).first)
        #expect(object.int8 == v8)
        #expect(object.int16 == v16)
        #expect(object.int32 == v32)
        #expect(object.int64 == v64)
    }

    // realm-swift: testLongType
    @Test func longType() throws {
        let longNumber: Int64 = 17179869184
        let intNumber: Int64 = 2147483647
        let negativeLongNumber: Int64 = -17179869184
        let updatedLongNumber: Int64 = 8589934592

        let realm = try portRealm()
        realm.beginWrite()
        realm.create(PortLongObject.self, value: [NSNumber(value: longNumber)])
        realm.create(PortLongObject.self, value: [NSNumber(value: intNumber)])
        realm.create(PortLongObject.self, value: [NSNumber(value: negativeLongNumber)])
        try realm.commitWrite()

        let objects = realm.objects(PortLongObject.self)
        #expect(objects.count == 3, "3 rows expected")
        #expect(objects[0].longCol == longNumber, "2 ^ 34 expected")
        #expect(objects[1].longCol == intNumber, "2 ^ 31 - 1 expected")
        #expect(objects[2].longCol == negativeLongNumber, "-2 ^ 34 expected")

        realm.beginWrite()
        objects[0].longCol = updatedLongNumber
        try realm.commitWrite()
        #expect(objects[0].longCol == updatedLongNumber, "After update: 2 ^ 33 expected")
    }

    // realm-swift: testCollectionsDuringResultsFastEnumeration (its List
    // part)
    @Test func collectionsDuringResultsFastEnumeration() throws {
        let realm = try portRealm()
        let object1 = PortObject()
        let object2 = PortObject()
        let trueObject = PortBoolObject()
        trueObject.boolCol = true
        let falseObject = PortBoolObject()
        falseObject.boolCol = false
        object1.arrayCol.append(trueObject)
        object1.arrayCol.append(falseObject)
        object2.arrayCol.append(trueObject)
        object2.arrayCol.append(falseObject)
        try realm.write {
            realm.add(object1)
            realm.add(object2)
        }

        let objects = realm.objects(PortObject.self)
        #expect(objects.first?.arrayCol.count == 2)
        #expect(objects.last?.arrayCol.count == 2)

        var iterator = objects.makeIterator()
        let first = iterator.next()
        let next = try #require(first)
        #expect(next.arrayCol.count == 2)

        for object in objects {
            #expect(object.arrayCol.count == 2)
        }
    }

    // realm-swift: testSettingOptionalPropertyOnDeletedObjectsThrows (through
    // another accessor of the deleted object)
    @Test func settingOptionalPropertyOnDeletedObjectThroughACopyStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "deleted-optional-copy"))
            try! realm.write {
                let object = realm.create(PortOptionalObject.self)
                let copy = realm.objects(PortOptionalObject.self).first!
                realm.delete(object)
                copy.optIntCol.value = 1
            }
        }
        #expect(seedStandardError(result).contains("PortOptionalObject"))
    }

    // realm-swift: testSettingOptionalPropertyOnDeletedObjectsThrows (through
    // the accessor it was deleted through)
    @Test func settingOptionalPropertyOnDeletedObjectStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "deleted-optional"))
            try! realm.write {
                let object = realm.create(PortOptionalObject.self)
                realm.delete(object)
                object.optIntCol.value = nil
            }
        }
        #expect(seedStandardError(result).contains("PortOptionalObject"))
    }

    // realm-swift: testLinkingObjectsDynamicGet
    @Test func linkingObjectsDynamicGet() throws {
        let fido = PortDogObject()
        let owner = PortOwnerObject()
        owner.dog = fido
        owner.name = "JP"
        let realm = try portRealm()
        try realm.write { realm.add([fido, owner]) }

        // The linking objects property read by name.
        let owners = try #require(fido["owners"])
        #expect(owners is LinkingObjects<PortOwnerObject>)
        #expect((owners as? LinkingObjects<PortOwnerObject>)?.first?.name == "JP")
    }

    // realm-swift: testPropertiesOutlivingParentObject (RealmOptional and
    // List)
    @Test func propertiesOutlivingParentObject() throws {
        var optional: RealmOptional<Int>!
        var list: List<Int>!
        let realm = try portRealm()
        try realm.write {
            autoreleasepool {
                let optObject = realm.create(PortOptionalObject.self, value: ["optIntCol": 1])
                optional = optObject.optIntCol
                list = realm.create(PortListObject.self, value: ["int": [1]]).int
            }
        }

        // The values read through the properties alone.
        #expect(optional.value == 1)
        #expect(Array(list) == [1])

        // Changed through the properties alone, seen through their objects.
        try realm.write {
            optional.value = 2
            list.append(2)
        }
        #expect(optional.value == 2)
        #expect(Array(list) == [1, 2])
        #expect(realm.objects(PortOptionalObject.self).first?.optIntCol.value == 2)
        #expect(realm.objects(PortListObject.self).first.map { Array($0.int) } == [1, 2])

        try realm.write {
            optional.value = nil
            list.removeAll()
        }
        #expect(optional.value == nil)
        #expect(list.count == 0)
        #expect(realm.objects(PortOptionalObject.self).first?.optIntCol.value == nil)
        #expect(realm.objects(PortListObject.self).first.map { Array($0.int) } == [])
    }

    // realm-swift: testSetEmbeddedLink (without setting the link to the
    // object it holds: see ObjectAccessorPortFixedTests)
    @Test func setEmbeddedLink() throws {
        let realm = try portRealm()
        let parent = PortEmbeddedParentObject()
        let child1 = PortEmbeddedTreeObject1()
        try realm.write {
            realm.add(parent)
            parent.object = child1
            #expect(child1.realm == realm)

            let child2 = PortEmbeddedTreeObject1()
            parent.object = child2
            #expect(child1.realm == realm)
            #expect(child1.isInvalidated)
        }

        // "Can't set link to existing managed embedded object": the setter
        // records the error, and the commit throws it.
        realm.beginWrite()
        let child3 = PortEmbeddedTreeObject1()
        parent.array.append(child3)
        parent.object = child3
        #expect(throws: Realm.Error.self) { try realm.commitWrite() }
        if realm.isInWriteTransaction { realm.cancelWrite() }
    }
}

/// Ports that found differences from Realm, each fixed in issue 35.
@Suite struct ObjectAccessorPortFixedTests {
    // realm-swift: testSetEmbeddedLink (its `XCTAssertNoThrow(parent.object
    // = child1)`: setting a link to the embedded object it already holds)
    @Test func setEmbeddedLinkToTheObjectItHolds() throws {
        let realm = try portRealm()
        let parent = PortEmbeddedParentObject()
        let child1 = PortEmbeddedTreeObject1()
        try realm.write {
            realm.add(parent)
            parent.object = child1
            #expect(child1.realm == realm)
            parent.object = child1
        }
        #expect(parent.object?.isSameObject(as: child1) == true)
    }
}
