import Foundation
import RealmObjects
import Testing

// realm-swift's RealmSwift/Tests/MapTests.swift (v10.54.6), ported.
//
// Realm runs the abstract `MapTests` four times (MapStandaloneTests,
// MapNewlyAddedTests, MapNewlyCreatedTests, MapRetrievedTests); here each
// test takes the variant as its argument. As in Realm's setUp/tearDown,
// each runs inside a write transaction of the test Realm, cancelled at the
// end.
//
// Realm's notification tests observe on a dispatch queue
// (`observe(on: queue)`); `Map.observe` here delivers on the observing
// thread, so the ports observe there and `refresh()` after each write.
// MapStandaloneTests overrides them to `assertThrows(map.observe { _ in })`:
// observing an unmanaged map stops the process here as there, checked once
// by an exit test.
//
// Not ported:
// - the `isEqual(_:)` lines of testUnmanagedMapComparison — need
//   `NSObject`'s `isEqual`; `==` is checked instead, and
//   `Dictionary(_immutableCocoaDictionary:)` (Objective-C bridging) becomes
//   a dictionary of `asKeyValueSequence()`;
// - the `optNSStringCol` lines of testValueForKeyOptional — need
//   Objective-C's `NSString` properties.

/// MapTests' setUp: two string objects in the test Realm and an open write
/// transaction, with the variant's `createMap()` and `createMapObject()`.
final class SMPortMapFixture {
    let variant: SMPortVariant
    let realms = CPortRealms()
    let realm: Realm
    let str1: SMPortStringObject
    let str2: SMPortStringObject

    init(_ variant: SMPortVariant) throws {
        self.variant = variant
        realm = try realms.realmWithTestPath()
        str1 = SMPortStringObject()
        str1.stringCol = "1"
        str2 = SMPortStringObject()
        str2.stringCol = "2"
        try realm.write {
            realm.add(str1)
            realm.add(str2)
        }
        realm.beginWrite()
    }

    /// tearDown.
    func finish() {
        if realm.isInWriteTransaction {
            realm.cancelWrite()
        }
    }

    /// `createMap()`.
    func createMap() throws -> Map<String, SMPortStringObject?> {
        switch variant {
        case .standalone:
            return try createMapObject().map
        case .newlyAdded:
            let mapObj = SMPortMapPropertyObject()
            realm.add(mapObj)
            #expect(mapObj.realm != nil)
            return mapObj.map
        case .newlyCreated:
            let mapObj = realm.create(SMPortMapPropertyObject.self, value: ["name"])
            try realm.commitWrite()
            realm.beginWrite()
            #expect(mapObj.realm != nil)
            return mapObj.map
        case .retrieved:
            realm.create(SMPortMapPropertyObject.self, value: ["name"])
            try realm.commitWrite()
            let mapObj = realm.objects(SMPortMapPropertyObject.self).first!
            #expect(mapObj.realm != nil)
            realm.beginWrite()
            return mapObj.map
        }
    }

    /// `createEmbeddedMap()`.
    func createEmbeddedMap() -> Map<String, CPortEmbeddedTreeObject1?> {
        switch variant {
        case .standalone:
            return Map<String, CPortEmbeddedTreeObject1?>()
        case .newlyAdded:
            let parent = CPortEmbeddedParentObject()
            let map = parent.map
            realm.add(parent)
            return map
        case .newlyCreated:
            return realm.create(CPortEmbeddedParentObject.self).map
        case .retrieved:
            realm.create(CPortEmbeddedParentObject.self)
            return realm.objects(CPortEmbeddedParentObject.self).first!.map
        }
    }

    /// `createMapObject()`.
    func createMapObject() throws -> SMPortMapPropertyObject {
        switch variant {
        case .standalone:
            return SMPortMapPropertyObject()
        case .newlyAdded:
            let mapObj = SMPortMapPropertyObject()
            realm.add(mapObj)
            #expect(mapObj.realm != nil)
            return mapObj
        case .newlyCreated:
            let mapObj = realm.create(SMPortMapPropertyObject.self)
            try realm.commitWrite()
            realm.beginWrite()
            #expect(mapObj.realm != nil)
            return mapObj
        case .retrieved:
            realm.create(SMPortMapPropertyObject.self)
            try realm.commitWrite()
            let mapObj = realm.objects(SMPortMapPropertyObject.self).first!
            #expect(mapObj.realm != nil)
            realm.beginWrite()
            return mapObj
        }
    }
}

@Suite struct MapPortTests {
    typealias Variant = SMPortVariant

    // MapTests.testPrimitive
    @Test(arguments: Variant.allCases) func primitive(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let obj = SMPortMapObject()
        obj.int["key"] = 5
        #expect(obj.int["key"] == 5)
        #expect(obj.int["doesntExist"] == nil)
        obj.int["keyB"] = 6
        obj.int["keyC"] = 7
        obj.int["keyD"] = 8
        #expect(obj.int.max() == 8)
        #expect(obj.int.min() == 5)
        #expect(obj.int.sum() == 26)
        #expect(obj.int.average() == 6.5)

        obj.string["key"] = "str"
        #expect(obj.string["key"] == "str")
    }

    // MapTests.testPrimitiveIterationAcrossNil
    @Test(arguments: Variant.allCases) func primitiveIterationAcrossNil(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let obj = SMPortMapObject()

        #expect(!obj.int.contains(where: { $0 == "0" || $1 == 5 }))
        #expect(!obj.int8.contains(where: { $0 == "0" || $1 == 5 }))
        #expect(!obj.int16.contains(where: { $0 == "0" || $1 == 5 }))
        #expect(!obj.int32.contains(where: { $0 == "0" || $1 == 5 }))
        #expect(!obj.int64.contains(where: { $0 == "0" || $1 == 5 }))
        #expect(!obj.float.contains(where: { $0 == "0" || $1 == 3.141592 }))
        #expect(!obj.double.contains(where: { $0 == "0" || $1 == 3.141592 }))
        #expect(!obj.string.contains(where: { $0 == "0" || $1 == "foobar" }))
        #expect(!obj.data.contains(where: { $0 == "0" || $1 == Data() }))
        #expect(!obj.date.contains(where: { $0 == "0" || $1 == Date() }))
        #expect(!obj.decimal.contains(where: { $0 == "0" || $1 == Decimal128() }))
        #expect(!obj.objectId.contains(where: { $0 == "0" || $1 == ObjectId() }))
        #expect(!obj.uuid.contains(where: { $0 == "0" || $1 == UUID() }))
        #expect(!obj.object.contains(where: { $0 == "0" || $1 == SMPortStringObject() }))

        #expect(!obj.intOpt.contains { $1 == nil })
        #expect(!obj.int8Opt.contains { $1 == nil })
        #expect(!obj.int16Opt.contains { $1 == nil })
        #expect(!obj.int32Opt.contains { $1 == nil })
        #expect(!obj.int64Opt.contains { $1 == nil })
        #expect(!obj.floatOpt.contains { $1 == nil })
        #expect(!obj.doubleOpt.contains { $1 == nil })
        #expect(!obj.stringOpt.contains { $1 == nil })
        #expect(!obj.dataOpt.contains { $1 == nil })
        #expect(!obj.dateOpt.contains { $1 == nil })
        #expect(!obj.decimalOpt.contains { $1 == nil })
        #expect(!obj.objectIdOpt.contains { $1 == nil })
        #expect(!obj.uuidOpt.contains { $1 == nil })

        // Map also supports iteration through `SingleMapEntry` being the element.
        #expect(!obj.int.map(obj.int.contains).contains(true))
        #expect(!obj.int8.map(obj.int8.contains).contains(true))
        #expect(!obj.int16.map(obj.int16.contains).contains(true))
        #expect(!obj.int32.map(obj.int32.contains).contains(true))
        #expect(!obj.int64.map(obj.int64.contains).contains(true))
        #expect(!obj.float.map(obj.float.contains).contains(true))
        #expect(!obj.double.map(obj.double.contains).contains(true))
        #expect(!obj.string.map(obj.string.contains).contains(true))
        #expect(!obj.data.map(obj.data.contains).contains(true))
        #expect(!obj.date.map(obj.date.contains).contains(true))
        #expect(!obj.decimal.map(obj.decimal.contains).contains(true))
        #expect(!obj.objectId.map(obj.objectId.contains).contains(true))
        #expect(!obj.uuid.map(obj.uuid.contains).contains(true))
        #expect(!obj.object.map(obj.object.contains).contains(true))

        #expect(!obj.intOpt.map(obj.intOpt.contains).contains(true))
        #expect(!obj.int8Opt.map(obj.int8Opt.contains).contains(true))
        #expect(!obj.int16Opt.map(obj.int16Opt.contains).contains(true))
        #expect(!obj.int32Opt.map(obj.int32Opt.contains).contains(true))
        #expect(!obj.int64Opt.map(obj.int64Opt.contains).contains(true))
        #expect(!obj.floatOpt.map(obj.floatOpt.contains).contains(true))
        #expect(!obj.doubleOpt.map(obj.doubleOpt.contains).contains(true))
        #expect(!obj.stringOpt.map(obj.stringOpt.contains).contains(true))
        #expect(!obj.dataOpt.map(obj.dataOpt.contains).contains(true))
        #expect(!obj.dateOpt.map(obj.dateOpt.contains).contains(true))
        #expect(!obj.decimalOpt.map(obj.decimalOpt.contains).contains(true))
        #expect(!obj.objectIdOpt.map(obj.objectIdOpt.contains).contains(true))
        #expect(!obj.uuidOpt.map(obj.uuidOpt.contains).contains(true))
    }

    // MapTests.testInvalidated
    @Test(arguments: Variant.allCases) func invalidated(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let realm = f.realm
        let mapObject = SMPortMapOfSwiftObject()
        realm.add(mapObject)
        #expect(!mapObject.map.isInvalidated)

        if let realm = mapObject.realm {
            realm.delete(mapObject)
            #expect(mapObject.map.isInvalidated)
        }
    }

    // MapTests.testFastEnumerationWithMutation
    @Test(arguments: Variant.allCases) func fastEnumerationWithMutation(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let map = try f.createMap()
        for i in 0...5 {
            map["key\(i)"] = f.str1
        }
        var str = ""

        for obj in map {
            str += obj.value!.stringCol
            map[obj.key] = f.str2
        }
        #expect(str == "111111")
    }

    // MapTests.testMapDescription
    @Test(arguments: Variant.allCases) func mapDescription(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let map = try f.createMap()
        for i in 0...5 {
            map["key\(i)"] = SMPortStringObject(value: [String(i)])
        }

        #expect(map.description.hasPrefix("Map<string, SMPortStringObject>"), "\(map.description)")
        #expect(map.description.contains("[key3]: SMPortStringObject {\n\t\tstringCol = 3;\n\t}"), "\(map.description)")
    }

    // MapTests.testAppendObject
    @Test(arguments: Variant.allCases) func appendObject(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let map = try f.createMap()
        map["key1"] = f.str1
        map["key2"] = f.str2
        #expect(map.count == 2)
        #expect(map["key1"]??.stringCol == "1")
        #expect(map["key2"]??.stringCol == "2")
    }

    // MapTests.testInsert
    @Test(arguments: Variant.allCases) func insert(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let (str1, str2) = (f.str1, f.str2)
        let map = try f.createMap()
        #expect(map.count == 0)

        #expect(map[str1.stringCol] == nil)
        map[str1.stringCol] = str1
        #expect(map.count == 1)

        #expect(map[str2.stringCol] == nil)
        map[str2.stringCol] = str2
        #expect(map.count == 2)
    }

    // MapTests.testRemove
    @Test(arguments: Variant.allCases) func remove(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let str1 = f.str1
        let map = try f.createMap()
        map[str1.stringCol] = str1
        #expect(map.count == 1)
        #expect(map[str1.stringCol] != nil)

        map.removeObject(for: str1.stringCol)
        #expect(map.count == 0)
        #expect(map[str1.stringCol] == nil)

        map[str1.stringCol] = str1
        #expect(map.count == 1)
        #expect(map[str1.stringCol] != nil)

        map[str1.stringCol] = nil
        #expect(map.count == 0)
        #expect(map[str1.stringCol] == nil)
    }

    // MapTests.testRemoveAll
    @Test(arguments: Variant.allCases) func removeAll(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let map = try f.createMap()
        for i in 0..<5 {
            map[String(i)] = f.str1
        }
        #expect(map.count == 5)
        map.removeAll()
        #expect(map.count == 0)
    }

    // MapTests.testDeleteObjectFromMap
    @Test(arguments: Variant.allCases) func deleteObjectFromMap(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let str1 = f.str1
        let map = try f.createMap()
        if let realm = map.realm {
            map["key"] = str1
            #expect(map["key"]??.stringCol == str1.stringCol)
            realm.delete(str1)
            #expect((map["key"] ?? nil) == nil)
        }
    }

    // MapTests.testMerge
    @Test(arguments: Variant.allCases) func merge(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let (str1, str2) = (f.str1, f.str2)
        let map = try f.createMap()
        map["a"] = str1

        map.merge(["b": str2], uniquingKeysWith: { old, _ in
            Issue.record("combine called with no duplicates")
            return old
        })
        #expect(map.count == 2)
        #expect(str1.isSameObject(as: map["a"]!!))
        #expect(str2.isSameObject(as: map["b"]!!))

        // Does not actually update because the combine function picks the existing value
        map.merge(["b": str1], uniquingKeysWith: { old, _ in old })
        #expect(map.count == 2)
        #expect(str1.isSameObject(as: map["a"]!!))
        #expect(str2.isSameObject(as: map["b"]!!))

        // Does actually update
        map.merge(["b": str1], uniquingKeysWith: { _, new in new })
        #expect(map.count == 2)
        #expect(str1.isSameObject(as: map["a"]!!))
        #expect(str1.isSameObject(as: map["b"]!!))

        // Creating an entirely new value is valid too
        map.merge(["a": str1], uniquingKeysWith: { _, _ in SMPortStringObject(value: ["c"]) })
        #expect(map.count == 2)
        #expect(map["a"]??.stringCol == "c")
        #expect(str1.isSameObject(as: map["b"]!!))
    }

    // MapTests.testChangesArePersisted
    @Test(arguments: Variant.allCases) func changesArePersisted(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let map = try f.createMap()
        map["key"] = f.str1
        map["key2"] = f.str2
        if let realm = map.realm {
            let mapFromResults = realm.objects(SMPortMapPropertyObject.self).first!.map
            #expect(map["key"]??.stringCol == mapFromResults["key"]??.stringCol)
            #expect(map["key2"]??.stringCol == mapFromResults["key2"]??.stringCol)
        }
    }

    // MapTests.testPopulateEmptyMap
    @Test(arguments: Variant.allCases) func populateEmptyMap(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let str1 = f.str1
        let map = try f.createMap()
        #expect(map.count == 0, "Should start with no array elements.")

        map["a"] = SMPortStringObject(value: ["a"])
        map["b"] = try f.realms.realmWithTestPath().create(SMPortStringObject.self, value: ["b"])
        map[str1.stringCol] = str1

        #expect(map.count == 3)
        #expect(map["a"]??.stringCol == "a")
        #expect(map["b"]??.stringCol == "b")
        #expect(map[str1.stringCol]??.stringCol == str1.stringCol)

        var count = 0
        for object in map {
            #expect(object.key.description.utf16.count > 0, "Object should have description")
            #expect(object.value!.description.utf16.count > 0, "Object should have description")
            count += 1
        }
        #expect(count == 3)
    }

    // MapTests.testEnumeratingMap
    @Test(arguments: Variant.allCases) func enumeratingMap(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let map = try f.createMap()
        for i in 0..<10 {
            map["key\(i)"] = SMPortStringObject(value: ["key\(i)"])
        }

        #expect(map.count == 10)

        var expected = Set((0..<10).map { "key\($0)" })
        for element in map {
            #expect(element.key == element.value!.stringCol)
            expected.remove(element.key)
        }
        #expect(expected.count == 0)

        expected = Set((0..<10).map { "key\($0)" })
        for (key, value) in map.asKeyValueSequence() {
            #expect(key == value!.stringCol)
            expected.remove(key)
        }
        #expect(expected.count == 0)
    }

    // MapTests.testValueForKey
    @Test(arguments: Variant.allCases) func valueForKey(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let realm = try f.realms.realm()
        try realm.write {
            for value in [1, 2] {
                let mapObject = SMPortMapOfSwiftObject()
                let object = SMPortObject()
                object.intCol = value
                object.doubleCol = Double(value)
                object.stringCol = String(value)
                object.decimalCol = Decimal128(number: value as NSNumber)
                object.objectIdCol = ObjectId(string: String(repeating: String(value), count: 24))!
                mapObject.map["key"] = object
                realm.add(mapObject)
            }
        }

        let mapObjects = realm.objects(SMPortMapOfSwiftObject.self)
        let mapsOfObjects = (mapObjects.value(forKeyPath: "map") as? [Any?] ?? []).compactMap { $0 as? Map<String, SMPortObject?> }
        #expect(mapsOfObjects.count == 2)
        let objects = realm.objects(SMPortObject.self)

        func testProperty<T: Equatable>(_ fn: (SMPortObject?) -> T, sourceLocation: SourceLocation = #_sourceLocation) {
            let properties: [T] = mapObjects.flatMap { $0.map.values.map(fn) }
            let kvcProperties: [T] = mapsOfObjects.flatMap { $0.values.map(fn) }
            #expect(properties == kvcProperties, sourceLocation: sourceLocation)
        }
        func testProperty<T: Equatable>(_ name: String, _ fn: (SMPortObject?) -> T, sourceLocation: SourceLocation = #_sourceLocation) {
            let properties = objects.map(fn)
            let kvcProperties = (objects.value(forKeyPath: name) as? [Any?] ?? []).compactMap { $0 as? T }
            #expect(properties == kvcProperties, sourceLocation: sourceLocation)
        }

        testProperty { $0!.intCol }
        testProperty { $0!.doubleCol }
        testProperty { $0!.stringCol }
        testProperty { $0!.decimalCol }
        testProperty { $0!.objectIdCol }

        testProperty("intCol") { $0!.intCol }
        testProperty("doubleCol") { $0!.doubleCol }
        testProperty("stringCol") { $0!.stringCol }
        testProperty("decimalCol") { $0!.decimalCol }
        testProperty("objectIdCol") { $0!.objectIdCol }
    }

    // MapTests.testValueForKeyOptional (the NSString column not ported)
    @Test(arguments: Variant.allCases) func valueForKeyOptional(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let realm = try f.realms.realm()
        try realm.write {
            for value in [1, 2] {
                let mapObject = SMPortMapOfSwiftOptionalObject()
                let object = SMPortOptionalObject()
                object.optIntCol.value = value
                object.optInt8Col.value = Int8(value)
                object.optDoubleCol.value = Double(value)
                object.optStringCol = String(value)
                object.optDecimalCol = Decimal128(number: value as NSNumber)
                object.optObjectIdCol = ObjectId(string: String(repeating: String(value), count: 24))
                mapObject.map["key"] = object
                realm.add(mapObject)
            }
        }

        let mapObjects = realm.objects(SMPortMapOfSwiftOptionalObject.self)
        let mapsOfObjects = (mapObjects.value(forKeyPath: "map") as? [Any?] ?? []).compactMap { $0 as? Map<String, SMPortOptionalObject?> }
        #expect(mapsOfObjects.count == 2)
        let objects = realm.objects(SMPortOptionalObject.self)

        func testProperty<T: Equatable>(_ fn: (SMPortOptionalObject?) -> T, sourceLocation: SourceLocation = #_sourceLocation) {
            let properties: [T] = mapObjects.flatMap { $0.map.values.map(fn) }
            let kvcProperties: [T] = mapsOfObjects.flatMap { $0.values.map(fn) }
            #expect(properties == kvcProperties, sourceLocation: sourceLocation)
        }
        func testProperty<T: Equatable>(_ name: String, _ fn: (SMPortOptionalObject?) -> T?, sourceLocation: SourceLocation = #_sourceLocation) {
            let properties = objects.compactMap(fn)
            let kvcProperties = (objects.value(forKeyPath: name) as? [Any?] ?? []).compactMap { $0 as? T }
            #expect(properties == kvcProperties, sourceLocation: sourceLocation)
        }

        testProperty { $0!.optIntCol.value }
        testProperty { $0!.optInt8Col.value }
        testProperty { $0!.optDoubleCol.value }
        testProperty { $0!.optStringCol }
        testProperty { $0!.optDecimalCol }
        testProperty { $0!.optObjectCol }

        testProperty("optIntCol") { $0!.optIntCol.value }
        testProperty("optInt8Col") { $0!.optInt8Col.value }
        testProperty("optDoubleCol") { $0!.optDoubleCol.value }
        testProperty("optStringCol") { $0!.optStringCol }
        testProperty("optDecimalCol") { $0!.optDecimalCol }
        testProperty("optObjectCol") { $0!.optObjectCol }
    }

    // MapTests.testUnmanagedMapComparison (`isEqual(_:)` not ported; the
    // Cocoa dictionaries are dictionaries of `asKeyValueSequence()`)
    @Test(arguments: Variant.allCases) func unmanagedMapComparison(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let obj = SMPortIntObject()
        obj.intCol = 5
        let obj2 = SMPortIntObject()
        obj2.intCol = 6
        let obj3 = SMPortIntObject()
        obj3.intCol = 8

        let objects: [String: SMPortIntObject?] = ["obj": obj, "obj2": obj2, "obj3": obj3]
        let objects2: [String: SMPortIntObject?] = ["obj": obj, "obj2": obj2]

        let map1 = Map<String, SMPortIntObject?>()
        let map2 = Map<String, SMPortIntObject?>()
        #expect(map1 == map2, "Empty instances should be equal by `==` operator")

        map1.merge(objects) { a, _ in a }
        map2.merge(objects) { a, _ in a }

        let map3 = Map<String, SMPortIntObject?>()
        map3.merge(objects2) { a, _ in a }

        #expect(map1 !== map2, "instances should not be identical")

        #expect(map1 == map2, "instances should be equal by `==` operator")
        #expect(map1 != map3, "instances should not be equal by `==` operator")

        map3["obj3"] = obj3
        #expect(map1 == map3, "instances should be equal by `==` operator")

        func dictionary(_ map: Map<String, SMPortIntObject?>) -> [String: SMPortIntObject?] {
            Dictionary(uniqueKeysWithValues: map.asKeyValueSequence().map { ($0.key, $0.value) })
        }
        #expect(dictionary(map1) == dictionary(map2), "instances converted to Swift.Dictionary should be equal")
        #expect(dictionary(map1) == dictionary(map3), "instances converted to Swift.Dictionary should be equal")
        map3["obj3"] = nil
        map1["obj3"] = nil
        #expect(dictionary(map1) == dictionary(map3), "instances should be equal by `==` operator")
    }

    // MARK: Notification Tests

    // MapTests.testNotificationSentInitially (MapStandaloneTests' override:
    // observeUnmanagedStops)
    @Test(arguments: [Variant.newlyAdded, .newlyCreated, .retrieved]) func notificationSentInitially(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let mapObj = try f.createMap()
        try mapObj.realm!.commitWrite()

        var initial = 0
        let token = mapObj.observe { change in
            switch change {
            case .initial:
                initial += 1
            default:
                Issue.record("should not get here for this test")
            }
        }
        f.realm.refresh()
        #expect(initial == 1)
        token.invalidate()
    }

    // MapTests.testNotificationSentAfterCommit (MapStandaloneTests' override:
    // observeUnmanagedStops)
    @Test(arguments: [Variant.newlyAdded, .newlyCreated, .retrieved]) func notificationSentAfterCommit(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let realm = f.realm
        let mapObj = try f.createMap()
        try mapObj.realm!.commitWrite()

        var deliveries = 0
        var didInsert = false
        var didModify = false
        var didDelete = false
        let token = mapObj.observe { change in
            switch change {
            case .initial:
                deliveries += 1
            case let .update(_, deletions: deletions, insertions: insertions, modifications: modifications):
                if didModify && !didDelete {
                    #expect(deletions == ["myNewKey"])
                    didDelete.toggle()
                } else if didInsert {
                    #expect(modifications == ["myNewKey"])
                    didModify.toggle()
                } else {
                    #expect(insertions == ["anotherNewKey", "myNewKey"])
                    didInsert.toggle()
                }
                deliveries += 1
            case .error:
                Issue.record("should not get here for this test")
            }
        }
        realm.refresh()
        #expect(deliveries == 1)
        try realm.write {
            mapObj["myNewKey"] = SMPortStringObject(value: ["one"])
            mapObj["anotherNewKey"] = SMPortStringObject(value: ["two"])
        }
        realm.refresh()
        #expect(deliveries == 2)
        #expect(didInsert)

        try realm.write {
            mapObj["myNewKey"] = SMPortStringObject(value: ["three"])
        }
        realm.refresh()
        #expect(deliveries == 3)
        #expect(didModify)

        try realm.write {
            mapObj["myNewKey"] = nil
        }
        realm.refresh()
        #expect(deliveries == 4)
        #expect(didDelete)

        token.invalidate()
    }

    // MapStandaloneTests.testNotificationSentInitially and its other
    // notification overrides: assertThrows(mapObj.observe { _ in })
    @Test func observeUnmanagedStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let map = SMPortMapPropertyObject().map
            _ = map.observe { _ in }
        }
        #expect(seedStandardError(result).contains("Only maps of managed objects can be observed"), "\(seedStandardError(result))")
    }
    // MapTests.testAppendEmbedded. Assigning a managed embedded object to
    // another key is bad input to a map mutation: here the call changes
    // nothing and the commit throws (Docs/DifferencesFromApplePlatforms.md)
    // where Realm throws "Cannot add an existing managed embedded object to
    // a Dictionary.", the same words.
    @Test(arguments: Variant.allCases) func appendEmbedded(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let map = f.createEmbeddedMap()
        for i in 0..<10 {
            map["\(i)"] = CPortEmbeddedTreeObject1(value: [i])
        }
        #expect(map.count == 10)
        for element in map {
            #expect(Int(element.key) == element.value!.value)
            #expect(map.realm == element.value!.realm)
        }
        if let realm = map.realm {
            map["unassigned"] = map["0"]
            #expect(map.count == 10)
            let error = #expect(throws: Realm.Error.self) { try realm.commitWrite() }
            #expect(error?.message.contains("Cannot add an existing managed embedded object to a Dictionary") == true,
                    "\(String(describing: error))")
        }
    }

    // MapTests.testSetEmbedded; its assertThrows as in appendEmbedded: even
    // the object the key holds is refused, as in Realm.
    @Test(arguments: Variant.allCases) func setEmbedded(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let map = f.createEmbeddedMap()
        map["key"] = CPortEmbeddedTreeObject1(value: [0])
        let oldObj = map["key"]
        let obj = CPortEmbeddedTreeObject1(value: [1])
        map["key"] = obj
        #expect(map["key"]!!.isSameObject(as: obj))
        #expect(obj.value == 1)
        #expect(obj.realm == map.realm)
        if let realm = map.realm {
            #expect(oldObj!!.isInvalidated)
            map["key"] = obj
            let error = #expect(throws: Realm.Error.self) { try realm.commitWrite() }
            #expect(error?.message.contains("Cannot add an existing managed embedded object to a Dictionary") == true,
                    "\(String(describing: error))")
        }
    }

    // MapTests.testAllKeysQuery
    @Test(arguments: [Variant.newlyAdded, .newlyCreated, .retrieved]) func allKeysQuery(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let map = try f.createMap()
        let realm = try #require(map.realm)
        func test<T: RealmCollectionValue>(on key: String, value: T, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(realm.objects(SMPortMapObject.self).filter("ANY \(key).@allKeys = 'aKey'").count == 0, sourceLocation: sourceLocation)
            let o = SMPortMapObject()
            (o.value(forKey: key) as! Map<String, T>)["aKey"] = value
            let o2 = SMPortMapObject()
            (o2.value(forKey: key) as! Map<String, T>)["aKey2"] = value
            let o3 = SMPortMapObject()
            (o3.value(forKey: key) as! Map<String, T>)["aKey3"] = value
            let o4 = SMPortMapObject()
            // Visible from `ANY \(key).@allKeys != 'aKey'`: the dictionary
            // has more than one key.
            (o4.value(forKey: key) as! Map<String, T>)["aKey"] = value
            (o4.value(forKey: key) as! Map<String, T>)["aKey4"] = value
            realm.add([o, o2, o3, o4])

            let objects = realm.objects(SMPortMapObject.self)
            #expect(objects.count == 4, sourceLocation: sourceLocation)
            #expect(objects.filter("ANY \(key).@allKeys = 'aKey'").count == 2, "\(key)", sourceLocation: sourceLocation)
            #expect(objects.filter("ANY \(key).@allKeys != 'aKey'").count == 3, "\(key)", sourceLocation: sourceLocation)
            #expect(objects.filter("ANY \(key).@allKeys =[c] 'akey'").count == 2, "\(key)", sourceLocation: sourceLocation)
            #expect(objects.filter("ANY \(key).@allKeys !=[c] 'akey'").count == 3, "\(key)", sourceLocation: sourceLocation)
            #expect(objects.filter("ANY \(key).@allKeys =[cd] 'akéy'").count == 2, "\(key)", sourceLocation: sourceLocation)
            #expect(objects.filter("ANY \(key).@allKeys !=[cd] 'akéy'").count == 3, "\(key)", sourceLocation: sourceLocation)
            realm.delete([o, o2, o3, o4])
        }
        test(on: "int", value: Int(123))
        test(on: "int8", value: Int8(127))
        test(on: "int16", value: Int16(789))
        test(on: "int32", value: Int32(789))
        test(on: "int64", value: Int64(789))
        test(on: "float", value: Float(789.123))
        test(on: "double", value: Double(789.123))
        test(on: "string", value: "Hello")
        test(on: "data", value: Data(count: 16))
        test(on: "date", value: Date())
        test(on: "decimal", value: Decimal128(floatLiteral: 123.456))
        test(on: "objectId", value: ObjectId.generate())
        test(on: "uuid", value: UUID())
        test(on: "object", value: Optional<SMPortStringObject>(SMPortStringObject(value: ["hello"])))
    }

    // MapTests.testAllValuesQuery
    @Test(arguments: [Variant.newlyAdded, .newlyCreated, .retrieved]) func allValuesQuery(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let map = try f.createMap()
        let realm = try #require(map.realm)
        func test<T: RealmCollectionValue>(on key: String, values: T..., sourceLocation: SourceLocation = #_sourceLocation) {
            let objects = realm.objects(SMPortMapObject.self)
            #expect(objects.filter("ANY \(key).@allValues = %@", values[0]).count == 0, sourceLocation: sourceLocation)
            let o = SMPortMapObject()
            (o.value(forKey: key) as! Map<String, T>)["aKey"] = values[0]
            let o2 = SMPortMapObject()
            (o2.value(forKey: key) as! Map<String, T>)["aKey2"] = values[1]
            let o3 = SMPortMapObject()
            (o3.value(forKey: key) as! Map<String, T>)["aKey3"] = values[2]
            realm.add([o, o2, o3])

            if T.self is Object.Type || T.self is SMPortStringObject?.Type {
                let stringObj = realm.objects(SMPortStringObject.self).filter("stringCol == 'hello'").first!
                #expect(objects.filter("ANY \(key).@allValues = %@", stringObj).count == 1, "\(key)", sourceLocation: sourceLocation)
                #expect(objects.filter("ANY \(key).@allValues != %@", stringObj).count == 2, "\(key)", sourceLocation: sourceLocation)
            } else {
                #expect(objects.count == 3, sourceLocation: sourceLocation)
                #expect(objects.filter("ANY \(key).@allValues = %@", values[0]).count == 1, "\(key)", sourceLocation: sourceLocation)
                #expect(objects.filter("ANY \(key).@allValues != %@", values[0]).count == 2, "\(key)", sourceLocation: sourceLocation)
            }
            if T.self is String.Type {
                #expect(objects.filter("ANY \(key).@allValues =[c] %@", values[0]).count == 2, sourceLocation: sourceLocation)
                #expect(objects.filter("ANY \(key).@allValues !=[c] %@", values[0]).count == 1, sourceLocation: sourceLocation)
                #expect(objects.filter("ANY \(key).@allValues =[cd] %@", values[0]).count == 3, sourceLocation: sourceLocation)
                #expect(objects.filter("ANY \(key).@allValues !=[cd] %@", values[0]).count == 0, sourceLocation: sourceLocation)
            }
            realm.delete([o, o2, o3])
        }
        test(on: "int", values: Int(123), Int(456), Int(789))
        test(on: "int8", values: Int8(127), Int8(0), Int8(64))
        test(on: "int16", values: Int16(789), Int16(345), Int16(567))
        test(on: "int32", values: Int32(789), Int32(132), Int32(345))
        test(on: "int64", values: Int64(789), Int64(234), Int64(345))
        test(on: "float", values: Float(789.123), Float(123.123), Float(234.123))
        test(on: "double", values: Double(789.123), Double(123.123), Double(234.123))
        test(on: "string", values: "Hello", "Héllo", "hello")
        test(on: "data", values: Data(count: 16), Data(count: 32), Data(count: 64))
        test(on: "date", values: Date(timeIntervalSince1970: 2000), Date(timeIntervalSince1970: 4000), Date(timeIntervalSince1970: 8000))
        test(on: "decimal", values: Decimal128(floatLiteral: 123.456), Decimal128(floatLiteral: 234.456), Decimal128(floatLiteral: 345.456))
        test(on: "objectId", values: ObjectId("507f1f77bcf86cd799439011"), ObjectId("507f1f77bcf86cd799439012"),
             ObjectId("507f1f77bcf86cd799439013"))
        test(on: "uuid", values: UUID(uuidString: "137DECC8-B300-4954-A233-F89909F4FD89")!,
             UUID(uuidString: "137DECC8-B300-4954-A233-F89909F4FD88")!, UUID(uuidString: "137DECC8-B300-4954-A233-F89909F4FD87")!)
        test(on: "object", values: Optional<SMPortStringObject>(SMPortStringObject(value: ["hello"])),
             Optional<SMPortStringObject>(SMPortStringObject(value: ["there"])),
             Optional<SMPortStringObject>(SMPortStringObject(value: ["bye"])))
    }

    // MapTests.testKeyedAggregatable (it uses no variant's map: once)
    @Test func keyedAggregatable() throws {
        let f = try SMPortMapFixture(.newlyAdded)
        defer { f.finish() }
        let map = SMPortMapPropertyObject()
        map.intMap["key"] = SMPortIntObject(value: [1])
        map.intMap["key2"] = SMPortIntObject(value: [2])
        map.intMap["key3"] = SMPortIntObject(value: [3])
        func assertAggregations(sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(map.intMap.min(of: \.intCol) == 1, sourceLocation: sourceLocation)
            #expect(map.intMap.max(of: \.intCol) == 3, sourceLocation: sourceLocation)
            #expect(map.intMap.sum(of: \.intCol) == 6, sourceLocation: sourceLocation)
            #expect(map.intMap.average(of: \.intCol) == 2, sourceLocation: sourceLocation)
        }
        // unmanaged
        assertAggregations()
        f.realm.add(map)
        try f.realm.commitWrite()
        // managed
        assertAggregations()
        // A key holding nil is left out, as Realm's aggregates leave out nil.
        try f.realm.write { map.intMap["nil"] = .some(nil) }
        assertAggregations()
        #expect(map.intMap.sum(ofProperty: "intCol") as Int == 6)
    }

    // MapTests.testFilter. `filter` takes a predicate string here: Linux's
    // Foundation has no `NSPredicate` (SPEC section 4). Realm's
    // assertThrows on a standalone map: filterOnAnUnmanagedMapStops.
    @Test(arguments: [Variant.newlyAdded, .newlyCreated, .retrieved]) func filter(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let map = try f.createMap()
        map["key"] = SMPortStringObject(value: ["apples"])
        map["key2"] = SMPortStringObject(value: ["bananas"])
        map["key3"] = SMPortStringObject(value: ["cockroach"])

        let results: Results<SMPortStringObject?> = map.filter("stringCol = 'apples'")
        #expect(results.count == 1)
        #expect(results.first!!.stringCol == "apples")

        let results2: Results<SMPortStringObject?> = map.sorted(byKeyPath: "stringCol", ascending: true)
        #expect(results2.count == 3)
        #expect(results2[0]!.stringCol == "apples")
        #expect(results2[1]!.stringCol == "bananas")
        #expect(results2[2]!.stringCol == "cockroach")
    }

    // MapTests.testKeyedSortable
    @Test(arguments: [Variant.newlyAdded, .newlyCreated, .retrieved]) func keyedSortable(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let map = try f.createMap()
        map["key"] = SMPortStringObject(value: ["apples"])
        map["key2"] = SMPortStringObject(value: ["bananas"])
        map["key3"] = SMPortStringObject(value: ["cockroach"])

        let results2: Results<SMPortStringObject?> = map.sorted(by: \.stringCol, ascending: true)
        #expect(results2.count == 3)
        #expect(results2[0]?.stringCol == "apples")
        #expect(results2[1]?.stringCol == "bananas")
        #expect(results2[2]?.stringCol == "cockroach")
        // Descending, and a key holding nil left out, as in Realm.
        map["nil"] = .some(nil)
        #expect(map.sorted(by: \.stringCol, ascending: false).map { $0?.stringCol } == ["cockroach", "bananas", "apples"])
    }

    // The standalone variant of testFilter and testKeyedSortable:
    // assertThrows(map.filter(…)), assertThrows(map.sorted(…)).
    @Test func filterOnAnUnmanagedMapStops() async {
        let filtering = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SMPortMapPropertyObject().map.filter("stringCol = 'apples'")
        }
        let sorting = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SMPortMapPropertyObject().map.sorted(by: \.stringCol, ascending: true)
        }
        for result in [filtering, sorting] {
            #expect(seedStandardError(result).contains("This method may only be called on Map instances retrieved from a Realm"),
                    "\(seedStandardError(result))")
        }
    }

    /// The key path tests' setUp: two objects in the map of `SMPortObject`s,
    /// committed, and the map's observation of `keyPaths`, its `.initial`
    /// delivered; the changes are collected as (deletions, insertions,
    /// modifications).
    private final class KeyPathObservation {
        var updates: [([String], [String], [String])] = []
        var counts: [Int] = []
        var token: NotificationToken?
    }

    private func observeObjectMap(_ f: SMPortMapFixture, keyPaths: [String]) throws -> KeyPathObservation {
        let mapObj = try f.createMapObject()
        mapObj.swiftObjectMap["first"] = SMPortObject(value: ["intCol": 1, "stringCol": "one"])
        mapObj.swiftObjectMap["second"] = SMPortObject(value: ["intCol": 2, "stringCol": "two"])
        try mapObj.realm!.commitWrite()
        let observation = KeyPathObservation()
        observation.token = mapObj.swiftObjectMap.observe(keyPaths: keyPaths) { change in
            switch change {
            case .initial(let map):
                observation.counts.append(map.count)
            case .update(let map, let deletions, let insertions, let modifications):
                observation.counts.append(map.count)
                observation.updates.append((deletions, insertions, modifications))
            case .error:
                Issue.record("error not expected")
            }
        }
        f.realm.refresh()
        #expect(observation.counts == [2])
        return observation
    }

    /// Runs `change` in a write of the test Realm on another thread (Realm's
    /// `dispatchSyncBackground`), then delivers on this one.
    private func writeInBackground(_ f: SMPortMapFixture, _ change: @escaping @Sendable (Realm) -> Void) {
        cportWriteOnNewThread(f.realms.testConfiguration, change)
        f.realm.refresh()
    }

    // MapTests.testObserveKeyPath
    @Test(arguments: [Variant.newlyAdded, .newlyCreated, .retrieved]) func observeKeyPath(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let observation = try observeObjectMap(f, keyPaths: ["intCol"])
        writeInBackground(f) { realm in
            realm.objects(SMPortMapPropertyObject.self).first!.swiftObjectMap["first"]!!.intCol = 8
        }
        #expect(observation.updates.count == 1)
        #expect(observation.updates.first?.0 == [])
        #expect(observation.updates.first?.1 == [])
        #expect(observation.updates.first?.2 == ["first"])
        observation.token?.invalidate()
    }

    // MapTests.testObserveKeyPathNoChange
    @Test(arguments: [Variant.newlyAdded, .newlyCreated, .retrieved]) func observeKeyPathNoChange(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let observation = try observeObjectMap(f, keyPaths: ["intCol"])
        writeInBackground(f) { realm in
            realm.objects(SMPortMapPropertyObject.self).first!.swiftObjectMap["first"]!!.stringCol = "new string"
        }
        #expect(observation.updates.isEmpty, "update not expected")
        observation.token?.invalidate()
    }

    // MapTests.testObserveKeyPathRemoved
    @Test(arguments: [Variant.newlyAdded, .newlyCreated, .retrieved]) func observeKeyPathRemoved(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let observation = try observeObjectMap(f, keyPaths: ["intCol"])
        writeInBackground(f) { realm in
            realm.objects(SMPortMapPropertyObject.self).first!.swiftObjectMap.removeObject(for: "first")
        }
        #expect(observation.updates.count == 1)
        #expect(observation.updates.first?.0 == ["first"])
        #expect(observation.updates.first?.1 == [])
        #expect(observation.updates.first?.2 == [])
        #expect(observation.counts == [2, 1])
        observation.token?.invalidate()
    }

    // MapTests.testObserveKeyPathDeleted
    @Test(arguments: [Variant.newlyAdded, .newlyCreated, .retrieved]) func observeKeyPathDeleted(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let observation = try observeObjectMap(f, keyPaths: ["intCol"])
        writeInBackground(f) { realm in
            realm.delete(realm.objects(SMPortMapPropertyObject.self).first!.swiftObjectMap["first"]!!)
        }
        #expect(observation.updates.count == 1)
        #expect(observation.updates.first?.0 == [])
        #expect(observation.updates.first?.1 == [])
        #expect(observation.updates.first?.2 == ["first"])
        #expect(observation.counts == [2, 2])
        observation.token?.invalidate()
    }

    // MapTests.testObserveKeyPathBacklink
    @Test(arguments: [Variant.newlyAdded, .newlyCreated, .retrieved]) func observeKeyPathBacklink(_ variant: Variant) throws {
        let f = try SMPortMapFixture(variant)
        defer { f.finish() }
        let mapObj = try f.createMapObject()
        let person = f.realm.create(SMPortOwnerObject.self, value: ["name": "Moe"])
        let dog = SMPortDogObject()
        person.dog = dog
        mapObj.dogMap["first"] = dog
        try mapObj.realm!.commitWrite()
        var counts: [Int] = []
        var updates: [([String], [String], [String])] = []
        let token = mapObj.dogMap.observe(keyPaths: ["owners.name"]) { change in
            switch change {
            case .initial(let map):
                counts.append(map.count)
                #expect(map["first"]??.owners.first?.name == "Moe")
            case .update(_, let deletions, let insertions, let modifications):
                updates.append((deletions, insertions, modifications))
            case .error:
                Issue.record("error not expected")
            }
        }
        f.realm.refresh()
        #expect(counts == [1])
        writeInBackground(f) { realm in
            realm.objects(SMPortOwnerObject.self).first!.name = "Curley"
        }
        #expect(updates.count == 1)
        #expect(updates.first?.0 == [])
        #expect(updates.first?.1 == [])
        #expect(updates.first?.2 == ["first"])
        token.invalidate()
    }

    // MapTests.testObserveOnActor and testObserveOnActorTypedKeyPath. Realm's
    // run on the main actor with the test Realm; here an actor owns the
    // Realm (no run loop runs on the test's thread) and the changes are
    // delivered to another. MapStandaloneTests overrides them to nothing.
    @Test(arguments: [false, true]) func observeOnActor(typedKeyPath: Bool) async throws {
        let realms = CPortRealms()
        let source = SMPortMapSource(configuration: realms.testConfiguration)
        let log = SMPortMapChangeLog()
        try await source.observe(typedKeyPath: typedKeyPath, on: log)
        try await waitUntil { await log.notes == ["initial"] }
        // A write which should not produce a notification.
        try await source.setBool()
        try await source.incrementInt()
        try await waitUntil { await log.notes.count >= 2 }
        try await Task.sleep(for: .milliseconds(50))
        #expect(await log.notes == ["initial", "update [] [] [\"a\"]"])
        await source.stop()
    }
}

/// Where the actor tests' changes are delivered.
private actor SMPortMapChangeLog {
    private(set) var notes: [String] = []

    func note(_ change: RealmMapChange<Map<String, SMPortObject?>>) {
        switch change {
        case .initial: notes.append("initial")
        case .update(_, let deletions, let insertions, let modifications): notes.append("update \(deletions) \(insertions) \(modifications)")
        case .error(let error): notes.append("error \(error)")
        }
    }
}

/// An actor with the test Realm, whose map of objects (`swiftObjectMap`,
/// one object at "a") another actor observes for `intCol`.
private actor SMPortMapSource {
    let configuration: Realm.Configuration
    private var realm: Realm?
    private var token: NotificationToken?

    init(configuration: Realm.Configuration) {
        self.configuration = configuration
    }

    func observe(typedKeyPath: Bool, on log: SMPortMapChangeLog) async throws {
        let realm = try await Realm(configuration: configuration, actor: self)
        self.realm = realm
        let map = try await realm.asyncWrite {
            let mapObj = realm.create(SMPortMapPropertyObject.self)
            mapObj.swiftObjectMap["a"] = SMPortObject()
            return mapObj.swiftObjectMap
        }
        if typedKeyPath {
            token = await map.observe(keyPaths: [\.intCol], on: log) { log, change in log.note(change) }
        } else {
            token = await map.observe(keyPaths: ["intCol"], on: log) { log, change in log.note(change) }
        }
    }

    func setBool() async throws {
        guard let realm else { return }
        try await realm.asyncWrite { realm.objects(SMPortMapPropertyObject.self).first!.swiftObjectMap["a"]??.boolCol = true }
    }

    func incrementInt() async throws {
        guard let realm else { return }
        try await realm.asyncWrite { realm.objects(SMPortMapPropertyObject.self).first!.swiftObjectMap["a"]??.intCol += 1 }
    }

    func stop() {
        token?.invalidate()
        token = nil
    }
}
