import Foundation
import RealmObjects
import Testing

// Ports of realm-swift's RealmSwift/Tests/ObjectTests.swift.
//
// Left out: sharedSchema() (an Objective-C class method of RLMObjectBase:
// testSharedSchemaUnmanaged, testSharedSchemaManaged,
// testBaseClassesDoNotHaveSharedSchema), MutableSet, Map and AnyRealmValue
// (testValueForKeyMutableSet, testDynamicMutableSet,
// testMutableSetPropertyNotifications, testDynamicMemberSubscript), the
// Objective-C types of testObjectiveCTypeProperties, observation with
// Swift key paths (testModifyMultipleObservedPartialKeyPathLocally,
// testModifyUnobservedPartialKeyPathLocally), actors and async sequences
// (testObserveOnActor, testAsyncSequenceObserve…,
// testObserveOnAlreadyCancelledTask), and frozen objects
// (testEqualityForFrozenObjectTypeWithoutPrimaryKey, testIsFrozen,
// testFreeze…, testThaw…).
//
// realm-swift waits for notifications with XCTest expectations on a run
// loop; here they are delivered by `refresh()` (the registering thread runs
// no run loop), and an expectation fulfilled once becomes "exactly one
// change was delivered". Values read by name are the property's own Swift
// type (see ObjectAccessorPortTests.swift); a `DynamicObject`'s integers
// are `Int`s, whatever width the model class gave them.

/// realm-swift's `checkChange`: one changed property, with its name, old
/// and new value.
func portCheckChange<T: Equatable, U: Equatable, O: Object>(_ name: String, _ old: T?, _ new: U?, _ change: ObjectChange<O>?,
                                                            sourceLocation: SourceLocation = #_sourceLocation) {
    guard case .change(let properties)? = change else {
        Issue.record("expected .change, got \(String(describing: change))", sourceLocation: sourceLocation)
        return
    }
    #expect(properties.count == 1, sourceLocation: sourceLocation)
    if let property = properties.first {
        #expect(property.name == name, sourceLocation: sourceLocation)
        #expect(property.oldValue as? T == old, sourceLocation: sourceLocation)
        #expect(property.newValue as? U == new, sourceLocation: sourceLocation)
    }
}

/// The changes an observation delivered.
final class PortChanges<O: Object> {
    var changes: [ObjectChange<O>] = []

    func record(_ change: ObjectChange<O>) {
        changes.append(change)
    }

    /// realm-swift's `expectChange` fulfilled: exactly one change, as
    /// `portCheckChange` checks it.
    func expectOne<T: Equatable, U: Equatable>(_ name: String, _ old: T?, _ new: U?,
                                               sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(changes.count == 1, "changes: \(changes)", sourceLocation: sourceLocation)
        portCheckChange(name, old, new, changes.first, sourceLocation: sourceLocation)
    }
}

/// A change seen on another queue, described there.
struct PortQueuedChange: Sendable, Equatable {
    var names: [String]
    var old: [Int?]
    var new: [Int?]
}

func portDescribe<O: Object>(_ change: ObjectChange<O>) -> PortQueuedChange? {
    guard case .change(let properties) = change else { return nil }
    return PortQueuedChange(names: properties.map(\.name), old: properties.map { $0.oldValue as? Int },
                            new: properties.map { $0.newValue as? Int })
}

/// realm-swift: setAndTestAllTypes
func portSetAndTestAllTypes(_ setter: (Object, Any?, String) -> Void, getter: (Object, String) -> Any?, object: PortObject,
                            sourceLocation: SourceLocation = #_sourceLocation) {
    setter(object, true, "boolCol")
    #expect(getter(object, "boolCol") as? Bool == true, sourceLocation: sourceLocation)

    setter(object, 321, "intCol")
    #expect(getter(object, "intCol") as? Int == 321, sourceLocation: sourceLocation)

    setter(object, Int8(1), "int8Col")
    #expect(getter(object, "int8Col") as? Int8 == 1, sourceLocation: sourceLocation)

    setter(object, Int16(321), "int16Col")
    #expect(getter(object, "int16Col") as? Int16 == 321, sourceLocation: sourceLocation)

    setter(object, Int32(321), "int32Col")
    #expect(getter(object, "int32Col") as? Int32 == 321, sourceLocation: sourceLocation)

    setter(object, Int64(321), "int64Col")
    #expect(getter(object, "int64Col") as? Int64 == 321, sourceLocation: sourceLocation)

    setter(object, NSNumber(value: 32.1 as Float), "floatCol")
    #expect(getter(object, "floatCol") as? Float == 32.1 as Float, sourceLocation: sourceLocation)

    setter(object, 3.21, "doubleCol")
    #expect(getter(object, "doubleCol") as? Double == 3.21, sourceLocation: sourceLocation)

    setter(object, "z", "stringCol")
    #expect(getter(object, "stringCol") as? String == "z", sourceLocation: sourceLocation)

    setter(object, Data("z".utf8), "binaryCol")
    #expect(getter(object, "binaryCol") as? Data == Data("z".utf8), sourceLocation: sourceLocation)

    setter(object, Date(timeIntervalSince1970: 333), "dateCol")
    #expect(getter(object, "dateCol") as? Date == Date(timeIntervalSince1970: 333), sourceLocation: sourceLocation)

    setter(object, UUID(uuidString: "137DECC8-B300-4954-A233-F89909F4FD89"), "uuidCol")
    #expect(getter(object, "uuidCol") as? UUID == UUID(uuidString: "137DECC8-B300-4954-A233-F89909F4FD89"), sourceLocation: sourceLocation)

    let boolObject = PortBoolObject(value: [true])
    setter(object, boolObject, "objectCol")
    #expect(portSame(getter(object, "objectCol") as? PortBoolObject, boolObject), sourceLocation: sourceLocation)
    #expect((getter(object, "objectCol") as? PortBoolObject)?.boolCol == true, sourceLocation: sourceLocation)

    let list = List<PortBoolObject>()
    list.append(boolObject)
    setter(object, list, "arrayCol")
    #expect((getter(object, "arrayCol") as? List<PortBoolObject>)?.count == 1, sourceLocation: sourceLocation)
    #expect(portSame((getter(object, "arrayCol") as? List<PortBoolObject>)?.first, boolObject), sourceLocation: sourceLocation)

    list.removeAll()
    setter(object, list, "arrayCol")
    #expect((getter(object, "arrayCol") as? List<PortBoolObject>)?.count == 0, sourceLocation: sourceLocation)

    setter(object, [boolObject], "arrayCol")
    #expect((getter(object, "arrayCol") as? List<PortBoolObject>)?.count == 1, sourceLocation: sourceLocation)
    #expect(portSame((getter(object, "arrayCol") as? List<PortBoolObject>)?.first, boolObject), sourceLocation: sourceLocation)

    setter(object, nil, "arrayCol")
    #expect((getter(object, "arrayCol") as? List<PortBoolObject>)?.count == 0, sourceLocation: sourceLocation)

    setter(object, [boolObject], "arrayCol")
    setter(object, NSNull(), "arrayCol")
    #expect((getter(object, "arrayCol") as? List<PortBoolObject>)?.count == 0, sourceLocation: sourceLocation)

    if let realm = object.realm {
        let listResults = realm.objects(PortBoolObject.self).filter("boolCol == true")
        setter(object, listResults, "arrayCol")
        #expect((getter(object, "arrayCol") as? List<PortBoolObject>)?.count == listResults.count, sourceLocation: sourceLocation)
        #expect(portSame((getter(object, "arrayCol") as? List<PortBoolObject>)?.first, boolObject), sourceLocation: sourceLocation)
    }
}

/// realm-swift: dynamicSetAndTestAllTypes
func portDynamicSetAndTestAllTypes(_ setter: (Object, Any?, String) -> Void, getter: (Object, String) -> Any?,
                                   object: DynamicObject, boolObject: DynamicObject,
                                   sourceLocation: SourceLocation = #_sourceLocation) {
    setter(object, true, "boolCol")
    #expect(getter(object, "boolCol") as? Bool == true, sourceLocation: sourceLocation)

    setter(object, 321, "intCol")
    #expect(portInt(getter(object, "intCol")) == 321, sourceLocation: sourceLocation)

    setter(object, Int8(1), "int8Col")
    #expect(portInt(getter(object, "int8Col")) == 1, sourceLocation: sourceLocation)

    setter(object, Int16(321), "int16Col")
    #expect(portInt(getter(object, "int16Col")) == 321, sourceLocation: sourceLocation)

    setter(object, Int32(321), "int32Col")
    #expect(portInt(getter(object, "int32Col")) == 321, sourceLocation: sourceLocation)

    setter(object, Int64(321), "int64Col")
    #expect(portInt(getter(object, "int64Col")) == 321, sourceLocation: sourceLocation)

    setter(object, NSNumber(value: 32.1 as Float), "floatCol")
    #expect(getter(object, "floatCol") as? Float == 32.1 as Float, sourceLocation: sourceLocation)

    setter(object, 3.21, "doubleCol")
    #expect(getter(object, "doubleCol") as? Double == 3.21, sourceLocation: sourceLocation)

    setter(object, "z", "stringCol")
    #expect(getter(object, "stringCol") as? String == "z", sourceLocation: sourceLocation)

    setter(object, Data("z".utf8), "binaryCol")
    #expect(getter(object, "binaryCol") as? Data == Data("z".utf8), sourceLocation: sourceLocation)

    setter(object, Date(timeIntervalSince1970: 333), "dateCol")
    #expect(getter(object, "dateCol") as? Date == Date(timeIntervalSince1970: 333), sourceLocation: sourceLocation)

    setter(object, UUID(uuidString: "137DECC8-B300-4954-A233-F89909F4FD89"), "uuidCol")
    #expect(getter(object, "uuidCol") as? UUID == UUID(uuidString: "137DECC8-B300-4954-A233-F89909F4FD89"), sourceLocation: sourceLocation)

    setter(object, boolObject, "objectCol")
    #expect(portSame(getter(object, "objectCol") as? DynamicObject, boolObject), sourceLocation: sourceLocation)
    #expect((getter(object, "objectCol") as? DynamicObject)?["boolCol"] as? Bool == true, sourceLocation: sourceLocation)

    setter(object, [boolObject], "arrayCol")
    #expect((getter(object, "arrayCol") as? List<DynamicObject>)?.count == 1, sourceLocation: sourceLocation)
    #expect(portSame((getter(object, "arrayCol") as? List<DynamicObject>)?.first, boolObject), sourceLocation: sourceLocation)

    if let list = getter(object, "arrayCol") as? List<DynamicObject> {
        list.removeAll()
        setter(object, list, "arrayCol")
    }
    #expect((getter(object, "arrayCol") as? List<DynamicObject>)?.count == 0, sourceLocation: sourceLocation)

    setter(object, [boolObject], "arrayCol")
    #expect((getter(object, "arrayCol") as? List<DynamicObject>)?.count == 1, sourceLocation: sourceLocation)
    #expect(portSame((getter(object, "arrayCol") as? List<DynamicObject>)?.first, boolObject), sourceLocation: sourceLocation)

    setter(object, nil, "arrayCol")
    #expect((getter(object, "arrayCol") as? List<DynamicObject>)?.count == 0, sourceLocation: sourceLocation)
}

/// realm-swift's `withMigrationObject`: a `PortObject` stored at schema
/// version 0, handed to `block` as the new object of a migration to
/// version 1. Returns whether the block ran.
func portWithMigrationObject(_ block: @escaping (DynamicObject, Migration) -> Void) throws -> Bool {
    let directory = TemporaryDirectory()
    let types: [Object.Type] = [PortObject.self, PortBoolObject.self]
    do {
        let realm = try Realm(configuration: Realm.Configuration(fileURL: directory.file(), objectTypes: types))
        try realm.write { _ = realm.create(PortObject.self) }
    }
    var enumerated = false
    var configuration = Realm.Configuration(fileURL: directory.file(), objectTypes: types)
    configuration.schemaVersion = 1
    configuration.migrationBlock = { migration, _ in
        migration.enumerateObjects(ofType: PortObject.className()) { _, newObject in
            if let newObject {
                block(newObject, migration)
                enumerated = true
            }
        }
    }
    _ = try Realm(configuration: configuration)
    return enumerated
}

@Suite struct ObjectPortTests {
    // realm-swift: testRealm
    @Test func realm() throws {
        let standalone = PortStringObject()
        #expect(standalone.realm == nil)

        let realm = try portRealm()
        let persisted = try realm.write {
            let persisted = realm.create(PortStringObject.self)
            #expect(persisted.realm != nil)
            #expect(persisted.realm == realm)
            return persisted
        }
        #expect(persisted.realm != nil)
        #expect(persisted.realm == realm)

        let configuration = realm.configuration
        let object = SeedUnchecked(value: persisted)
        let differs = Locked(false)
        seedRunOnThread {
            autoreleasepool {
                differs.value = try! Realm(configuration: configuration) != object.value.realm!
            }
        }
        #expect(differs.value)
    }

    // realm-swift: testObjectSchema
    @Test func objectSchema() {
        let object = PortObject()
        let schema = object.objectSchema
        #expect(schema.className == "PortObject")
        #expect(schema.properties.map(\.name) == [
            "boolCol", "intCol", "int8Col", "int16Col", "int32Col", "int64Col", "intEnumCol", "floatCol", "doubleCol",
            "stringCol", "binaryCol", "dateCol", "decimalCol", "objectIdCol", "objectCol", "uuidCol", "arrayCol",
        ])
    }

    // realm-swift: testObjectSchemaForObjectWithConvenienceInitializer
    @Test func objectSchemaForObjectWithConvenienceInitializer() {
        let object = PortConvenienceInitializerObject(stringCol: "abc")
        let schema = object.objectSchema
        #expect(schema.className == "PortConvenienceInitializerObject")
        #expect(schema.properties.map(\.name) == ["stringCol"])
    }

    // realm-swift: testInvalidated
    @Test func invalidated() throws {
        try checkInvalidated(in: portRealm())
    }

    // realm-swift: testInvalidatedWithCustomObjectClasses
    @Test func invalidatedWithCustomObjectClasses() throws {
        var configuration = inMemoryConfiguration()
        configuration.objectTypes = [PortObject.self, PortBoolObject.self]
        try checkInvalidated(in: Realm(configuration: configuration))
    }

    private func checkInvalidated(in realm: Realm) throws {
        let object = PortObject()
        #expect(!object.isInvalidated)
        try realm.write {
            realm.add(object)
            #expect(!object.isInvalidated)
        }
        try realm.write {
            realm.deleteAll()
            #expect(object.isInvalidated)
        }
        #expect(object.isInvalidated)
    }

    // realm-swift: testSchemaHasPrimaryKey
    @Test func schemaHasPrimaryKey() {
        #expect(Object.primaryKey() == nil, "primary key should default to nil")
        #expect(PortStringObject.primaryKey() == nil)
        #expect(PortStringObject().objectSchema.primaryKeyProperty == nil)
        #expect(PortPrimaryStringObject.primaryKey() == "stringCol")
        #expect(PortPrimaryStringObject().objectSchema.primaryKeyProperty?.name == "stringCol")
        #expect(PortPrimaryUUIDObject().objectSchema.primaryKeyProperty?.name == "uuidCol")
        #expect(PortPrimaryObjectIdObject().objectSchema.primaryKeyProperty?.name == "objectIdCol")
    }

    // realm-swift: testCannotUpdatePrimaryKey. Realm throws at each setter;
    // here each records the error and its write's commit throws it, with
    // the key unchanged.
    @Test func cannotUpdatePrimaryKey() throws {
        let realm = try portRealm()

        let intObject = PortPrimaryIntObject()
        intObject.intCol = 1
        intObject.intCol = 0 // can change the primary key unattached
        #expect(intObject.intCol == 0)

        let optionalIntObject = PortPrimaryOptionalIntObject()
        optionalIntObject.intCol.value = 1
        optionalIntObject.intCol.value = 0
        #expect(optionalIntObject.intCol.value == 0)

        let stringObject = PortPrimaryStringObject()
        stringObject.stringCol = "a"
        stringObject.stringCol = "b"
        #expect(stringObject.stringCol == "b")

        let uuidObject = PortPrimaryUUIDObject()
        uuidObject.uuidCol = UUID(uuidString: "8a12daba-8b23-11eb-8dcd-0242ac130003")!
        uuidObject.uuidCol = UUID(uuidString: "85d4fbee-6ec6-47df-bfa1-615931903d7e")!
        #expect(uuidObject.uuidCol == UUID(uuidString: "85d4fbee-6ec6-47df-bfa1-615931903d7e")!)

        let objectIdObject = PortPrimaryObjectIdObject()
        objectIdObject.objectIdCol = ObjectId(string: "1234567890ab1234567890aa")!
        objectIdObject.objectIdCol = ObjectId(string: "1234567890ab1234567890ab")!
        #expect(objectIdObject.objectIdCol == ObjectId(string: "1234567890ab1234567890ab")!)

        try realm.write {
            realm.add(intObject)
            realm.add(optionalIntObject)
            realm.add(stringObject)
            realm.add(uuidObject)
            realm.add(objectIdObject)
        }

        func expectRefused(_ change: () -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(throws: Realm.Error.self, sourceLocation: sourceLocation) { try realm.write(change) }
        }
        let uuid = UUID(uuidString: "4ee1fa48-8b23-11eb-8dcd-0242ac130003")!
        let objectId = ObjectId(string: "1234567890ab1234567890ac")!

        expectRefused { intObject.intCol = 2 }
        expectRefused { intObject["intCol"] = 2 }
        expectRefused { intObject.setValue(2, forKey: "intCol") }
        #expect(intObject.intCol == 0)

        expectRefused { optionalIntObject.intCol.value = 2 }
        expectRefused { optionalIntObject["intCol"] = 2 }
        expectRefused { optionalIntObject.setValue(2, forKey: "intCol") }
        #expect(optionalIntObject.intCol.value == 0)

        expectRefused { stringObject.stringCol = "c" }
        expectRefused { stringObject["stringCol"] = "c" }
        expectRefused { stringObject.setValue("c", forKey: "stringCol") }
        #expect(stringObject.stringCol == "b")

        expectRefused { uuidObject.uuidCol = uuid }
        expectRefused { uuidObject["uuidCol"] = uuid }
        expectRefused { uuidObject.setValue(uuid, forKey: "uuidCol") }
        #expect(uuidObject.uuidCol == UUID(uuidString: "85d4fbee-6ec6-47df-bfa1-615931903d7e")!)

        expectRefused { objectIdObject.objectIdCol = objectId }
        expectRefused { objectIdObject["objectIdCol"] = objectId }
        expectRefused { objectIdObject.setValue(objectId, forKey: "objectIdCol") }
        #expect(objectIdObject.objectIdCol == ObjectId(string: "1234567890ab1234567890ab")!)
    }

    // realm-swift: testIgnoredProperties
    @Test func ignoredProperties() {
        #expect(Object.ignoredProperties() == [], "ignored properties should default to []")
        #expect(PortIgnoredPropertiesObject.ignoredProperties().count == 2)
        #expect(PortIgnoredPropertiesObject().objectSchema["runtimeProperty"] == nil)
    }

    // realm-swift: testIndexedProperties (without anyCol)
    @Test func indexedProperties() throws {
        #expect(Object.indexedProperties() == [], "indexed properties should default to []")
        #expect(PortIndexedPropertiesObject.indexedProperties().count == 9)

        let objectSchema = PortIndexedPropertiesObject().objectSchema
        for name in ["stringCol", "intCol", "int8Col", "int16Col", "int32Col", "int64Col", "boolCol", "dateCol", "uuidCol"] {
            #expect(try #require(objectSchema[name]).isIndexed, "\(name)")
        }
        for name in ["floatCol", "doubleCol", "dataCol"] {
            #expect(try !#require(objectSchema[name]).isIndexed, "\(name)")
        }
    }

    // realm-swift: testIndexedOptionalProperties
    @Test func indexedOptionalProperties() throws {
        #expect(Object.indexedProperties() == [], "indexed properties should default to []")
        #expect(PortIndexedOptionalPropertiesObject.indexedProperties().count == 9)

        let objectSchema = PortIndexedOptionalPropertiesObject().objectSchema
        for name in ["optionalStringCol", "optionalDateCol", "optionalBoolCol", "optionalIntCol", "optionalInt8Col",
                     "optionalInt16Col", "optionalInt32Col", "optionalInt64Col", "optionalUUIDCol"] {
            #expect(try #require(objectSchema[name]).isIndexed, "\(name)")
        }
        for name in ["optionalDataCol", "optionalFloatCol", "optionalDoubleCol"] {
            #expect(try !#require(objectSchema[name]).isIndexed, "\(name)")
        }
    }

    // realm-swift: testDynamicDefaultPropertyValues
    @Test func dynamicDefaultPropertyValues() throws {
        func expectDifferentPropertyValues(_ object1: PortDynamicDefaultObject, _ object2: PortDynamicDefaultObject,
                                           sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(object1.intCol != object2.intCol, sourceLocation: sourceLocation)
            #expect(object1.floatCol != object2.floatCol, sourceLocation: sourceLocation)
            #expect(object1.doubleCol != object2.doubleCol, sourceLocation: sourceLocation)
            #expect(abs(object1.dateCol.timeIntervalSinceReferenceDate - object2.dateCol.timeIntervalSinceReferenceDate) > 0.01,
                    sourceLocation: sourceLocation)
            #expect(object1.stringCol != object2.stringCol, sourceLocation: sourceLocation)
            #expect(object1.binaryCol != object2.binaryCol, sourceLocation: sourceLocation)
        }
        expectDifferentPropertyValues(PortDynamicDefaultObject(), PortDynamicDefaultObject())
        let realm = try portRealm()
        try realm.write {
            expectDifferentPropertyValues(realm.create(PortDynamicDefaultObject.self), realm.create(PortDynamicDefaultObject.self))
        }
    }

    // realm-swift: testValueForKey (without anyCol and setCol)
    @Test func valueForKey() throws {
        func test(_ object: PortObject, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(object.value(forKey: "boolCol") as? Bool == false, sourceLocation: sourceLocation)
            #expect(object.value(forKey: "intCol") as? Int == 123, sourceLocation: sourceLocation)
            #expect(object.value(forKey: "int8Col") as? Int8 == 123, sourceLocation: sourceLocation)
            #expect(object.value(forKey: "int16Col") as? Int16 == 123, sourceLocation: sourceLocation)
            #expect(object.value(forKey: "int32Col") as? Int32 == 123, sourceLocation: sourceLocation)
            #expect(object.value(forKey: "int64Col") as? Int64 == 123, sourceLocation: sourceLocation)
            #expect(object.value(forKey: "floatCol") as? Float == 1.23 as Float, sourceLocation: sourceLocation)
            #expect(object.value(forKey: "doubleCol") as? Double == 12.3, sourceLocation: sourceLocation)
            #expect(object.value(forKey: "stringCol") as? String == "a", sourceLocation: sourceLocation)
            #expect(object.value(forKey: "uuidCol") as? UUID == UUID(uuidString: "137decc8-b300-4954-a233-f89909f4fd89")!,
                    sourceLocation: sourceLocation)
            #expect(object.value(forKey: "binaryCol") as? Data == Data("a".utf8), sourceLocation: sourceLocation)
            #expect(object.value(forKey: "dateCol") as? Date == Date(timeIntervalSince1970: 1), sourceLocation: sourceLocation)
            #expect((object.value(forKey: "objectCol") as? PortBoolObject)?.boolCol == false, sourceLocation: sourceLocation)
            #expect(object.value(forKey: "arrayCol") is List<PortBoolObject>, sourceLocation: sourceLocation)
        }

        test(PortObject())
        let realm = try portRealm()
        try realm.write {
            test(realm.create(PortObject.self))
            let addedObject = PortObject()
            realm.add(addedObject)
            test(addedObject)
        }
    }

    // realm-swift: testValueForKeyOptionals
    @Test func valueForKeyOptionals() throws {
        func test(_ object: PortOptionalObject, sourceLocation: SourceLocation = #_sourceLocation) {
            for name in ["optStringCol", "optBinaryCol", "optDateCol", "optIntCol", "optInt8Col", "optInt16Col",
                         "optInt32Col", "optInt64Col", "optFloatCol", "optDoubleCol", "optBoolCol", "optEnumCol", "optUuidCol"] {
                #expect(object.value(forKey: name) == nil, "\(name)", sourceLocation: sourceLocation)
            }
        }

        test(PortOptionalObject())
        let realm = try portRealm()
        try realm.write {
            test(realm.create(PortOptionalObject.self))
            let addedObject = PortOptionalObject()
            realm.add(addedObject)
            test(addedObject)
        }
    }

    // realm-swift: testValueForKeyList (without `any`)
    @Test func valueForKeyList() throws {
        func test(_ object: PortListObject, sourceLocation: SourceLocation = #_sourceLocation) {
            func empty<T: RealmCollectionValue>(_ name: String, _: T.Type) -> Bool {
                guard let list = object.value(forKey: name) as? List<T> else { return false }
                return list.first == nil
            }
            #expect(empty("int", Int.self), sourceLocation: sourceLocation)
            #expect(empty("int8", Int8.self), sourceLocation: sourceLocation)
            #expect(empty("int16", Int16.self), sourceLocation: sourceLocation)
            #expect(empty("int32", Int32.self), sourceLocation: sourceLocation)
            #expect(empty("int64", Int64.self), sourceLocation: sourceLocation)
            #expect(empty("float", Float.self), sourceLocation: sourceLocation)
            #expect(empty("double", Double.self), sourceLocation: sourceLocation)
            #expect(empty("string", String.self), sourceLocation: sourceLocation)
            #expect(empty("data", Data.self), sourceLocation: sourceLocation)
            #expect(empty("date", Date.self), sourceLocation: sourceLocation)
            #expect(empty("decimal", Decimal.self), sourceLocation: sourceLocation)
            #expect(empty("objectId", ObjectId.self), sourceLocation: sourceLocation)
            #expect(empty("uuid", UUID.self), sourceLocation: sourceLocation)

            #expect(empty("intOpt", Int?.self), sourceLocation: sourceLocation)
            #expect(empty("int8Opt", Int8?.self), sourceLocation: sourceLocation)
            #expect(empty("int16Opt", Int16?.self), sourceLocation: sourceLocation)
            #expect(empty("int32Opt", Int32?.self), sourceLocation: sourceLocation)
            #expect(empty("int64Opt", Int64?.self), sourceLocation: sourceLocation)
            #expect(empty("floatOpt", Float?.self), sourceLocation: sourceLocation)
            #expect(empty("doubleOpt", Double?.self), sourceLocation: sourceLocation)
            #expect(empty("stringOpt", String?.self), sourceLocation: sourceLocation)
            #expect(empty("dataOpt", Data?.self), sourceLocation: sourceLocation)
            #expect(empty("dateOpt", Date?.self), sourceLocation: sourceLocation)
            #expect(empty("decimalOpt", Decimal?.self), sourceLocation: sourceLocation)
            #expect(empty("objectIdOpt", ObjectId?.self), sourceLocation: sourceLocation)
            #expect(empty("uuidOpt", UUID?.self), sourceLocation: sourceLocation)
        }

        test(PortListObject())
        let realm = try portRealm()
        try realm.write {
            test(realm.create(PortListObject.self))
            let addedObject = PortListObject()
            realm.add(addedObject)
            test(addedObject)
        }
    }

    // realm-swift: testValueForKeyLinkingObjects
    @Test func valueForKeyLinkingObjects() throws {
        func test(_ object: PortDogObject, sourceLocation: SourceLocation = #_sourceLocation) {
            let owners = object.value(forKey: "owners") as? LinkingObjects<PortOwnerObject>
            #expect(owners != nil, sourceLocation: sourceLocation)
            if object.realm != nil {
                #expect(owners?.first?.name == "owner name", sourceLocation: sourceLocation)
            }
        }

        let dog = PortDogObject()
        let owner = PortOwnerObject(value: ["owner name", dog])
        test(dog)
        let realm = try portRealm()
        try realm.write {
            test(try #require(realm.create(PortOwnerObject.self, value: owner).dog))
            realm.add(owner)
            test(dog)
        }
    }

    // realm-swift: testSettingUnmanagedObjectValuesWithSwiftDictionary (its
    // List part)
    @Test func settingUnmanagedObjectValuesWithSwiftDictionary() {
        let json: [String: Any] = ["name": "foo", "array": [["stringCol": "bar"]], "intArray": [["intCol": 50]]]
        let object = PortArrayPropertyObject()
        for key in json.keys {
            object.setValue(json[key], forKey: key)
        }
        #expect(object.name == "foo")
        #expect(object.array.first?.stringCol == "bar")
        #expect(object.intArray.first?.intCol == 50)
    }

    // realm-swift: testSettingUnmanagedObjectValuesWithBadSwiftDictionary
    // (its List part). Realm throws at the setter; here the unmanaged
    // object keeps the error, and adding it reports it.
    @Test func settingUnmanagedObjectValuesWithBadSwiftDictionary() throws {
        let json: [String: Any] = ["name": "foo", "array": [["stringCol": NSObject()]], "intArray": [["intCol": 50]]]
        let object = PortArrayPropertyObject()
        for key in json.keys {
            object.setValue(json[key], forKey: key)
        }
        let realm = try portRealm()
        #expect(throws: Realm.Error.self) {
            try realm.write { realm.add(object) }
        }
    }

    // realm-swift: testSetValueForKey
    @Test func setValueForKey() throws {
        func setter(_ object: Object, _ value: Any?, _ key: String) {
            object.setValue(value, forKey: key)
        }
        func getter(_ object: Object, _ key: String) -> Any? {
            object.value(forKey: key)
        }

        let ran = try portWithMigrationObject { migrationObject, migration in
            let boolObject = migration.create("PortBoolObject", value: [true])
            portDynamicSetAndTestAllTypes(setter, getter: getter, object: migrationObject, boolObject: boolObject)
        }
        #expect(ran)

        portSetAndTestAllTypes(setter, getter: getter, object: PortObject())
        let realm = try portRealm()
        try realm.write {
            portSetAndTestAllTypes(setter, getter: getter, object: realm.create(PortObject.self))
        }
    }

    // realm-swift: testSubscript
    @Test func subscriptAccess() throws {
        func setter(_ object: Object, _ value: Any?, _ key: String) {
            object[key] = value
        }
        func getter(_ object: Object, _ key: String) -> Any? {
            object[key]
        }

        let ran = try portWithMigrationObject { migrationObject, migration in
            let boolObject = migration.create("PortBoolObject", value: [true])
            portDynamicSetAndTestAllTypes(setter, getter: getter, object: migrationObject, boolObject: boolObject)
        }
        #expect(ran)

        portSetAndTestAllTypes(setter, getter: getter, object: PortObject())
        let realm = try portRealm()
        try realm.write {
            portSetAndTestAllTypes(setter, getter: getter, object: realm.create(PortObject.self))
        }
    }

    // realm-swift: testDynamicList (the non-throwing part; see
    // dynamicListOfNoSuchListStops)
    @Test func dynamicList() throws {
        let realm = try portRealm()
        let arrayObject = PortArrayPropertyObject()
        let string1 = PortStringObject()
        let string2 = PortStringObject()
        arrayObject.array.append(objectsIn: [string1, string2])
        try realm.write { realm.add(arrayObject) }

        let dynamicArray = arrayObject.dynamicList("array")
        #expect(dynamicArray.count == 2)
        #expect(portSame(dynamicArray[0], string1))
        #expect(portSame(dynamicArray[1], string2))
        #expect(arrayObject.dynamicList("intArray").count == 0)
    }

    // realm-swift: testDynamicList (its assertThrows)
    @Test func dynamicListOfNoSuchListStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "no-such-list"))
            let arrayObject = PortArrayPropertyObject()
            try! realm.write { realm.add(arrayObject) }
            _ = arrayObject.dynamicList("noSuchList")
        }
        #expect(seedStandardError(result).contains("noSuchList"))
    }

    // MARK: - Observation tests

    // realm-swift: testObserveUnmanagedObject
    @Test func observeUnmanagedObject() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = PortIntObject().observe { _ in }
        }
        #expect(seedStandardError(result).contains("managed"))
    }

    // realm-swift: testDeleteObservedObject
    @Test func deleteObservedObject() throws {
        let realm = try portRealm()
        realm.beginWrite()
        let object0 = realm.create(PortIntObject.self, value: [0])
        let object1 = realm.create(PortIntObject.self, value: [0])
        try realm.commitWrite()

        let changes0 = PortChanges<PortIntObject>()
        let token0 = object0.observe(changes0.record)
        let changes1 = PortChanges<PortIntObject>()
        let token1 = object1.observe(keyPaths: ["intCol"], changes1.record)

        realm.beginWrite()
        realm.delete(object0)
        realm.delete(object1)
        try realm.commitWrite()
        realm.refresh()

        for changes in [changes0, changes1] {
            #expect(changes.changes.count == 1)
            guard case .deleted? = changes.changes.first else {
                Issue.record("expected .deleted, got \(changes.changes)")
                continue
            }
        }
        token0.invalidate()
        token1.invalidate()
    }

    /// realm-swift's `createObject`.
    private func createObject(in realm: Realm, _ value: Int = 0) throws -> PortObject {
        try realm.write { realm.create(PortObject.self, value: ["intCol": value]) }
    }

    // realm-swift: testObserveInvalidKeyPath (a property of the class)
    @Test func observeInvalidKeyPath() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "invalid-key-path"))
            let object = try! realm.write { realm.create(PortObject.self) }
            _ = object.observe(keyPaths: ["notAProperty"]) { _ in }
        }
        #expect(seedStandardError(result).contains("notAProperty"))
    }

    // realm-swift: testObserveInvalidKeyPath (a property of a linked class)
    @Test func observeInvalidKeyPathThroughAList() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "invalid-linked-key-path"))
            let object = try! realm.write { realm.create(PortObject.self) }
            _ = object.observe(keyPaths: ["arrayCol.alsoNotAProperty"]) { _ in }
        }
        #expect(seedStandardError(result).contains("alsoNotAProperty"))
    }

    // realm-swift: testModifyObservedObjectLocally
    @Test func modifyObservedObjectLocally() throws {
        let realm = try portRealm()
        let object = try createObject(in: realm)
        let changes = PortChanges<PortObject>()
        let token = object.observe(changes.record)
        try realm.write { object.intCol = 2 }
        realm.refresh()
        changes.expectOne("intCol", Int?.none, 2)
        token.invalidate()
    }

    // realm-swift: testModifyObservedKeyPathLocally
    @Test func modifyObservedKeyPathLocally() throws {
        let realm = try portRealm()
        let object = try createObject(in: realm)
        let changes = PortChanges<PortObject>()
        let token = object.observe(keyPaths: ["intCol"], changes.record)
        try realm.write { object.intCol = 2 }
        realm.refresh()
        changes.expectOne("intCol", Int?.none, 2)
        token.invalidate()
    }

    // realm-swift: testModifyUnobservedKeyPathLocally
    @Test func modifyUnobservedKeyPathLocally() throws {
        let realm = try portRealm()
        let object = try createObject(in: realm)
        let changes = PortChanges<PortObject>()
        let token = object.observe(keyPaths: ["boolCol"], changes.record)
        try realm.write { object.intCol = 3 }
        realm.refresh()
        #expect(changes.changes.isEmpty)
        token.invalidate()
    }

    /// Writes on another thread, as realm-swift's `dispatchSyncNewThread`.
    private func writeOnAnotherThread(_ configuration: Realm.Configuration, _ body: @escaping @Sendable (Realm) -> Void) {
        seedRunOnThread {
            let realm = try! Realm(configuration: configuration)
            try! realm.write { body(realm) }
        }
    }

    // realm-swift: testModifyObservedObjectRemotely
    @Test func modifyObservedObjectRemotely() throws {
        let realm = try portRealm()
        let object = try createObject(in: realm, 1)
        let changes = PortChanges<PortObject>()
        let token = object.observe(changes.record)
        writeOnAnotherThread(realm.configuration) { realm in
            realm.objects(PortObject.self).first!.intCol = 2
        }
        realm.refresh()
        changes.expectOne("intCol", 1, 2)
        token.invalidate()
    }

    // realm-swift: testModifyObservedKeyPathRemotely
    @Test func modifyObservedKeyPathRemotely() throws {
        let realm = try portRealm()
        let object = try createObject(in: realm, 123)
        let changes = PortChanges<PortObject>()
        let token = object.observe(keyPaths: ["intCol"], changes.record)
        writeOnAnotherThread(realm.configuration) { realm in
            realm.objects(PortObject.self).first!.intCol = 2
        }
        realm.refresh()
        changes.expectOne("intCol", 123, 2)
        token.invalidate()
    }

    // realm-swift: testModifyUnobservedKeyPathRemotely
    @Test func modifyUnobservedKeyPathRemotely() throws {
        let realm = try portRealm()
        let object = try createObject(in: realm)
        let changes = PortChanges<PortObject>()
        let token = object.observe(keyPaths: ["boolCol"], changes.record)
        writeOnAnotherThread(realm.configuration) { realm in
            realm.objects(PortObject.self).first!.intCol += 1
        }
        realm.refresh()
        #expect(changes.changes.isEmpty)
        token.invalidate()
    }

    // realm-swift: testListPropertyNotifications
    @Test func listPropertyNotifications() throws {
        let realm = try portRealm()
        realm.beginWrite()
        let object = realm.create(PortRecursiveObject.self)
        try realm.commitWrite()

        let changes = PortChanges<PortRecursiveObject>()
        let token = object.observe(changes.record)
        writeOnAnotherThread(realm.configuration) { realm in
            let object = realm.objects(PortRecursiveObject.self).first!
            object.objects.append(object)
        }
        realm.refresh()
        changes.expectOne("objects", Int?.none, Int?.none)
        token.invalidate()
    }

    /// Observes `object` with `keyPaths` while `change` is written, and
    /// returns what was delivered.
    private func observe<O: Object>(_ object: O, keyPaths: [String], in realm: Realm,
                                    during change: () -> Void) throws -> PortChanges<O> {
        let changes = PortChanges<O>()
        let token = object.observe(keyPaths: keyPaths, changes.record)
        try realm.write(change)
        realm.refresh()
        token.invalidate()
        return changes
    }

    // realm-swift: testListPropertyKeyPathNotifications
    @Test func listPropertyKeyPathNotifications() throws {
        let realm = try portRealm()
        realm.beginWrite()
        let employee = realm.create(PortEmployeeObject.self)
        let company = realm.create(PortCompanyObject.self)
        company.employees.append(employee)
        try realm.commitWrite()

        // No notification for "employees" when "employee.hired" changes.
        #expect(try observe(company, keyPaths: ["employees"], in: realm) { employee.hired = true }.changes.isEmpty)

        // A notification for "employees.hired" when "employee.hired" changes.
        try observe(company, keyPaths: ["employees.hired"], in: realm) {
            #expect(employee.hired)
            employee.hired = false
        }.expectOne("employees", Int?.none, Int?.none)

        // No notification for "employees.hired" when "employee.age" changes.
        #expect(try observe(company, keyPaths: ["employees.hired"], in: realm) { employee.age = 35 }.changes.isEmpty)

        // A notification for "employees.hired" when an employee is deleted.
        try observe(company, keyPaths: ["employees.hired"], in: realm) {
            realm.delete(employee)
        }.expectOne("employees", Int?.none, Int?.none)

        // A notification for "employees.hired" when an employee is added.
        try observe(company, keyPaths: ["employees.hired"], in: realm) {
            company.employees.append(realm.create(PortEmployeeObject.self))
        }.expectOne("employees", Int?.none, Int?.none)

        // A notification for "employees.hired" when an employee is replaced.
        try observe(company, keyPaths: ["employees.hired"], in: realm) {
            company.employees[0] = realm.create(PortEmployeeObject.self)
        }.expectOne("employees", Int?.none, Int?.none)

        // A notification for "employees" when an employee is added.
        try observe(company, keyPaths: ["employees"], in: realm) {
            company.employees.append(realm.create(PortEmployeeObject.self))
        }.expectOne("employees", Int?.none, Int?.none)

        // A notification for "employees" when an employee is replaced.
        try observe(company, keyPaths: ["employees"], in: realm) {
            company.employees[0] = realm.create(PortEmployeeObject.self)
        }.expectOne("employees", Int?.none, Int?.none)

        // No notification for "employees" when "company.name" changes.
        #expect(try observe(company, keyPaths: ["employees"], in: realm) { company.name = "changed" }.changes.isEmpty)
    }

    /// An owner with a dog, as the link and backlink notification tests
    /// begin.
    private func ownerWithDog(in realm: Realm) throws -> (PortOwnerObject, PortDogObject) {
        realm.beginWrite()
        let person = realm.create(PortOwnerObject.self)
        let dog = realm.create(PortDogObject.self)
        person.dog = dog
        try realm.commitWrite()
        return (person, dog)
    }

    // realm-swift: testLinkPropertyKeyPathNotifications1
    @Test func linkPropertyKeyPathNotifications1() throws {
        let realm = try portRealm()
        let (person, dog) = try ownerWithDog(in: realm)
        // A notification for "dog.dogName" when "dog.dogName" changes.
        try observe(person, keyPaths: ["dog.dogName"], in: realm) { dog.dogName = "rex" }
            .expectOne("dog", Int?.none, Int?.none)
    }

    // realm-swift: testLinkPropertyKeyPathNotifications2
    @Test func linkPropertyKeyPathNotifications2() throws {
        let realm = try portRealm()
        let (person, _) = try ownerWithDog(in: realm)
        // A notification for "dog.dogName" when "dog" is reassigned.
        try observe(person, keyPaths: ["dog.dogName"], in: realm) { person.dog = PortDogObject() }
            .expectOne("dog", Int?.none, Int?.none)
    }

    // realm-swift: testLinkPropertyKeyPathNotifications3
    @Test func linkPropertyKeyPathNotifications3() throws {
        let realm = try portRealm()
        let (person, _) = try ownerWithDog(in: realm)
        // No notification for "dog" when "person.name" changes.
        #expect(try observe(person, keyPaths: ["dog"], in: realm) { person.name = "Teddy" }.changes.isEmpty)
    }

    // realm-swift: testLinkPropertyKeyPathNotifications4
    @Test func linkPropertyKeyPathNotifications4() throws {
        let realm = try portRealm()
        let (person, dog) = try ownerWithDog(in: realm)
        // No notification for "dog" when "dog.dogName" changes.
        #expect(try observe(person, keyPaths: ["dog"], in: realm) { dog.dogName = "fido" }.changes.isEmpty)
    }

    // realm-swift: testBacklinkPropertyKeyPathNotifications1
    @Test func backlinkPropertyKeyPathNotifications1() throws {
        let realm = try portRealm()
        let (_, dog) = try ownerWithDog(in: realm)
        // No notification for "owners" when "dog.dogName" changes.
        #expect(try observe(dog, keyPaths: ["owners"], in: realm) { dog.dogName = "fido" }.changes.isEmpty)
    }

    // realm-swift: testBacklinkPropertyKeyPathNotifications2
    @Test func backlinkPropertyKeyPathNotifications2() throws {
        let realm = try portRealm()
        let (_, dog) = try ownerWithDog(in: realm)
        // No notification for "owners" when "owner.name" changes.
        #expect(try observe(dog, keyPaths: ["owners"], in: realm) { dog.owners.first!.name = "Tom" }.changes.isEmpty)
    }

    // realm-swift: testBacklinkPropertyKeyPathNotifications3
    @Test func backlinkPropertyKeyPathNotifications3() throws {
        let realm = try portRealm()
        let (_, dog) = try ownerWithDog(in: realm)
        // A notification for "owners.name" when "owner.name" changes.
        try observe(dog, keyPaths: ["owners.name"], in: realm) { dog.owners.first!.name = "Abe" }
            .expectOne("owners", String?.none, String?.none)
    }

    // realm-swift: testBacklinkPropertyKeyPathNotifications4
    @Test func backlinkPropertyKeyPathNotifications4() throws {
        let realm = try portRealm()
        let (_, dog) = try ownerWithDog(in: realm)
        // A notification for "owners" when an owner is added.
        try observe(dog, keyPaths: ["owners"], in: realm) {
            let newPerson = PortOwnerObject()
            realm.add(newPerson)
            newPerson.dog = dog
        }.expectOne("owners", Int?.none, Int?.none)
    }

    // realm-swift: testBacklinkPropertyKeyPathNotifications5
    @Test func backlinkPropertyKeyPathNotifications5() throws {
        let realm = try portRealm()
        let (_, dog) = try ownerWithDog(in: realm)
        // A notification for "owners.name" when an owner is added.
        try observe(dog, keyPaths: ["owners.name"], in: realm) {
            let newPerson = PortOwnerObject()
            realm.add(newPerson)
            newPerson.dog = dog
        }.expectOne("owners", Int?.none, Int?.none)
    }

    /// Observes `object` (with `keyPaths`, if any) while another thread
    /// writes `change`, and returns what `refresh()` delivered.
    private func observeRemote<O: Object>(_ object: O, keyPaths: [String]? = nil, in realm: Realm,
                                          during change: @escaping @Sendable (Realm) -> Void) -> PortChanges<O> {
        let changes = PortChanges<O>()
        let token = object.observe(keyPaths: keyPaths, changes.record)
        writeOnAnotherThread(realm.configuration, change)
        realm.refresh()
        token.invalidate()
        return changes
    }

    // realm-swift: testOptionalPropertyNotifications
    @Test func optionalPropertyNotifications() throws {
        let realm = try portRealm()
        let object = PortOptionalDefaultValuesObject()
        try realm.write { realm.add(object) }

        observeRemote(object, in: realm) { realm in
            realm.objects(PortOptionalDefaultValuesObject.self).first!.optIntCol.value = 2
        }.expectOne("optIntCol", 1, 2)

        observeRemote(object, in: realm) { realm in
            realm.objects(PortOptionalDefaultValuesObject.self).first!.optIntCol.value = nil
        }.expectOne("optIntCol", 2, Int?.none)

        observeRemote(object, in: realm) { realm in
            realm.objects(PortOptionalDefaultValuesObject.self).first!.optIntCol.value = 3
        }.expectOne("optIntCol", Int?.none, 3)
    }

    // realm-swift: testOptionalPropertyKeyPathNotifications
    @Test func optionalPropertyKeyPathNotifications() throws {
        let realm = try portRealm()
        let object = PortOptionalDefaultValuesObject()
        try realm.write { realm.add(object) }

        // A notification for a change on the observed path.
        observeRemote(object, keyPaths: ["optIntCol"], in: realm) { realm in
            realm.objects(PortOptionalDefaultValuesObject.self).first!.optIntCol.value = 2
        }.expectOne("optIntCol", 1, 2)

        // None for a change outside the observed path.
        #expect(observeRemote(object, keyPaths: ["optStringCol"], in: realm) { realm in
            realm.objects(PortOptionalDefaultValuesObject.self).first!.optIntCol.value = 3
        }.changes.isEmpty)

        // A notification for a change from a value to nil on the observed path.
        observeRemote(object, keyPaths: ["optIntCol"], in: realm) { realm in
            realm.objects(PortOptionalDefaultValuesObject.self).first!.optIntCol.value = nil
        }.expectOne("optIntCol", 3, Int?.none)

        // A notification for a change from nil to a value on the observed path.
        observeRemote(object, keyPaths: ["optIntCol"], in: realm) { realm in
            realm.objects(PortOptionalDefaultValuesObject.self).first!.optIntCol.value = 2
        }.expectOne("optIntCol", Int?.none, 2)
    }

    // realm-swift: testObserveOnDifferentQueue
    @Test func observeOnDifferentQueue() throws {
        let realm = try portRealm()
        realm.beginWrite()
        let object = realm.create(PortIntObject.self, value: [1])
        try realm.commitWrite()

        let queue = DispatchQueue(label: "label")
        let semaphore = DispatchSemaphore(value: 0)
        let seen = Locked<[PortQueuedChange?]>([])
        let token = object.observe(on: queue) { change in
            seen.value.append(portDescribe(change))
            semaphore.signal()
        }
        // Wait for the registration, as otherwise it may not have the old
        // value.
        queue.sync {}
        try realm.write { object.intCol = 2 }

        #expect(semaphore.wait(timeout: .now() + 10) == .success)
        token.invalidate()
        queue.sync {}
        #expect(seen.value == [PortQueuedChange(names: ["intCol"], old: [1], new: [2])])
    }

    // realm-swift: testObserveKeyPathOnDifferentQueue
    @Test func observeKeyPathOnDifferentQueue() throws {
        let realm = try portRealm()
        realm.beginWrite()
        let object = realm.create(PortObject.self)
        object.intCol = 1
        try realm.commitWrite()

        let queue = DispatchQueue(label: "label")
        let semaphore = DispatchSemaphore(value: 0)
        let seen = Locked<[PortQueuedChange?]>([])
        let token = object.observe(keyPaths: ["intCol"], on: queue) { (change: ObjectChange<PortObject>) in
            seen.value.append(portDescribe(change))
            semaphore.signal()
        }
        queue.sync {}
        try realm.write { object.intCol = 2 }

        #expect(semaphore.wait(timeout: .now() + 10) == .success)
        token.invalidate()
        queue.sync {}
        #expect(seen.value == [PortQueuedChange(names: ["intCol"], old: [1], new: [2])])
    }

    // realm-swift: testInvalidateObserverOnDifferentQueueBeforeRegistration
    @Test func invalidateObserverOnDifferentQueueBeforeRegistration() throws {
        let realm = try portRealm()
        realm.beginWrite()
        let object = realm.create(PortIntObject.self, value: [1])
        try realm.commitWrite()

        let queue = DispatchQueue(label: "label")
        let semaphore = DispatchSemaphore(value: 0)

        // Block the queue for now.
        queue.async { semaphore.wait() }

        // Two observers, one invalidated.
        let firstFired = Locked(false)
        let token1 = object.observe(on: queue) { _ in
            firstFired.value = true
        }
        let token2 = object.observe(on: queue) { _ in
            semaphore.signal()
        }
        token1.invalidate()

        // Let token2's registration happen.
        semaphore.signal()
        queue.sync {}

        // Only token2 is notified of a write.
        try realm.write { object.intCol = 2 }
        #expect(semaphore.wait(timeout: .now() + 10) == .success)
        token2.invalidate()
        queue.sync {}
        #expect(!firstFired.value, "notification should not have fired")
    }

    // MARK: Equality tests

    // realm-swift: testEqualityForObjectTypeWithPrimaryKey
    @Test func equalityForObjectTypeWithPrimaryKey() throws {
        let realm = try portRealm()
        let pk = "123456"

        let testObject = PortPrimaryStringObject()
        testObject.stringCol = pk
        testObject.intCol = 12345

        let unmanaged = PortPrimaryStringObject()
        unmanaged.stringCol = pk
        unmanaged.intCol = 12345

        let otherObject = PortPrimaryStringObject()
        otherObject.stringCol = "not" + pk
        otherObject.intCol = 12345

        try realm.write { realm.add([testObject, otherObject]) }

        // Not equal to an object that is not equal.
        #expect(testObject != otherObject)
        // Not equal to an object whose fields are equal but is not the same row.
        #expect(testObject != unmanaged)
        // Equal to an object of the same row.
        let retrievedObject = try #require(realm.object(ofType: PortPrimaryStringObject.self, forPrimaryKey: pk))
        #expect(testObject == retrievedObject)
        #expect(testObject.hashValue == retrievedObject.hashValue)
        #expect(testObject.isSameObject(as: retrievedObject))
    }

    // realm-swift: testEqualityForObjectTypeWithoutPrimaryKey
    @Test func equalityForObjectTypeWithoutPrimaryKey() throws {
        let realm = try portRealm()
        let pk = "123456"
        #expect(PortStringObject.primaryKey() == nil)

        let testObject = PortStringObject()
        testObject.stringCol = pk
        let alias = testObject
        try realm.write { realm.add(testObject) }

        #expect(testObject == alias)
        // Not equal to another instance, even of the same row.
        let retrievedObject = try #require(realm.objects(PortStringObject.self).first)
        #expect(testObject != retrievedObject)
        // `isSameObject(as:)` tells it is the same row.
        #expect(testObject.isSameObject(as: retrievedObject))
    }

    // realm-swift: testRetrievingObjectWithRuntimeType
    @Test func retrievingObjectWithRuntimeType() throws {
        let realm = try portRealm()
        let unmanagedStringObject = PortPrimaryStringObject()
        unmanagedStringObject.stringCol = UUID().uuidString
        let managedStringObject = PortPrimaryStringObject()
        managedStringObject.stringCol = UUID().uuidString
        try realm.write { realm.add(managedStringObject) }

        #expect(realm.object(ofType: type(of: unmanagedStringObject), forPrimaryKey: managedStringObject.stringCol) != nil)
        #expect(realm.object(ofType: type(of: managedStringObject), forPrimaryKey: managedStringObject.stringCol) != nil)
    }

    // realm-swift: testRetrievingObjectsWithRuntimeType
    @Test func retrievingObjectsWithRuntimeType() throws {
        let realm = try portRealm()
        let unmanagedStringObject = PortStringObject()
        unmanagedStringObject.stringCol = "foo"
        let managedStringObject = PortStringObject()
        managedStringObject.stringCol = "bar"
        try realm.write { realm.add(managedStringObject) }

        #expect(realm.objects(type(of: unmanagedStringObject)).count == 1)
        #expect(realm.objects(type(of: managedStringObject)).count == 1)
    }
}

/// Ports that found differences from Realm, each fixed in issue 35.
@Suite struct ObjectPortFixedTests {
    // realm-swift: testDescription (PortObject and a recursive object; with
    // Decimal's own description, "1230000", for Decimal128's "1.23E6")
    @Test func description() throws {
        let object = PortObject()
        let objectPattern = try Regex("PortObject \\{\n\tboolCol = 0;\n\tintCol = 123;\n\tint8Col = 123;\n\tint16Col = 123;\n\tint32Col = 123;\n\tint64Col = 123;\n\tintEnumCol = 1;\n\tfloatCol = 1\\.23;\n\tdoubleCol = 12\\.3;\n\tstringCol = a;\n\tbinaryCol = <.*61.*>;\n\tdateCol = 1970-01-01 00:00:01 \\+0000;\n\tdecimalCol = 1230000;\n\tobjectIdCol = 1234567890ab1234567890ab;\n\tobjectCol = PortBoolObject \\{\n\t\tboolCol = 0;\n\t\\};\n\tuuidCol = 137DECC8-B300-4954-A233-F89909F4FD89;\n\tarrayCol = List<PortBoolObject> <0x[0-9a-f]+> \\(\n\t\n\t\\);\n\\}")
        #expect(object.description.firstMatch(of: objectPattern) != nil, "\(object.description)")

        let recursiveObject = PortRecursiveObject()
        recursiveObject.objects.append(recursiveObject)
        let recursivePattern = try Regex("PortRecursiveObject \\{\n\tobjects = List<PortRecursiveObject> <0x[0-9a-f]+> \\(\n\t\t\\[0\\] PortRecursiveObject \\{\n\t\t\tobjects = List<PortRecursiveObject> <0x[0-9a-f]+> \\(\n\t\t\t\t\\[0\\] PortRecursiveObject \\{\n\t\t\t\t\tobjects = <Maximum depth exceeded>;\n\t\t\t\t\\}\n\t\t\t\\);\n\t\t\\}\n\t\\);\n\\}")
        #expect(recursiveObject.description.firstMatch(of: recursivePattern) != nil, "\(recursiveObject.description)")
    }
}
