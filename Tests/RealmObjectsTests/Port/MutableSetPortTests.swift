import Foundation
import RealmObjects
import Testing

// realm-swift's RealmSwift/Tests/MutableSetTests.swift (v10.54.6), ported.
//
// Realm runs the abstract `MutableSetTests` four times
// (MutableSetStandaloneTests, MutableSetNewlyAddedTests,
// MutableSetNewlyCreatedTests, MutableSetRetrievedTests); here each test
// takes the variant as its argument. As in Realm's setUp/tearDown, each
// runs inside a write transaction of the test Realm, committed at the end.
//
// Not ported:
// - the `optNSStringCol` lines of testValueForKeyOptional — needs
//   Objective-C's `NSString` properties;
// - the `isEqual(_:)` lines of testUnmanagedSetComparison — needs
//   `NSObject`'s `isEqual`; `==` is checked instead.

enum SMPortVariant: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case standalone, newlyAdded, newlyCreated, retrieved
    var testDescription: String { rawValue }
}

/// MutableSetTests' setUp: three string objects in the test Realm, the
/// variant's two `SwiftMutableSetPropertyObject`s, and an open write
/// transaction.
final class SMPortSetFixture {
    let variant: SMPortVariant
    let realms = CPortRealms()
    let realm: Realm
    let str1: SMPortStringObject
    let str2: SMPortStringObject
    let str3: SMPortStringObject
    let setObject: SMPortMutableSetPropertyObject
    let setObject2: SMPortMutableSetPropertyObject
    var set: MutableSet<SMPortStringObject> { setObject.set }
    var set2: MutableSet<SMPortStringObject> { setObject2.set }

    init(_ variant: SMPortVariant) throws {
        self.variant = variant
        realm = try realms.realmWithTestPath()
        str1 = SMPortStringObject()
        str1.stringCol = "1"
        str2 = SMPortStringObject()
        str2.stringCol = "2"
        str3 = SMPortStringObject()
        str3.stringCol = "3"
        setObject = try Self.createSet(variant, realm)
        setObject2 = try Self.createSet(variant, realm)
        try realm.write {
            realm.add(str1)
            realm.add(str2)
            realm.add(str3)
        }
        realm.beginWrite()
    }

    /// tearDown.
    func finish() throws {
        try realm.commitWrite()
    }

    /// `createSet()`.
    static func createSet(_ variant: SMPortVariant, _ realm: Realm) throws -> SMPortMutableSetPropertyObject {
        switch variant {
        case .standalone:
            let set = SMPortMutableSetPropertyObject()
            #expect(set.realm == nil)
            return set
        case .newlyAdded:
            let set = SMPortMutableSetPropertyObject()
            set.name = "name"
            try realm.write { realm.add(set) }
            #expect(set.realm != nil)
            return set
        case .newlyCreated:
            realm.beginWrite()
            let set = realm.create(SMPortMutableSetPropertyObject.self, value: ["name"])
            try realm.commitWrite()
            #expect(set.realm != nil)
            return set
        case .retrieved:
            realm.beginWrite()
            realm.create(SMPortMutableSetPropertyObject.self, value: ["name"])
            try realm.commitWrite()
            let set = realm.objects(SMPortMutableSetPropertyObject.self).last!
            #expect(set.realm != nil)
            return set
        }
    }

    /// `createSetWithLinks()`, in the default Realm.
    func createSetWithLinks() throws -> SMPortMutableSetOfSwiftObject {
        let realm = try realms.realm()
        switch variant {
        case .standalone:
            let set = SMPortMutableSetOfSwiftObject()
            #expect(set.realm == nil)
            return set
        case .newlyAdded:
            let set = SMPortMutableSetOfSwiftObject()
            try realm.write { realm.add(set) }
            #expect(set.realm != nil)
            return set
        case .newlyCreated:
            realm.beginWrite()
            let set = realm.create(SMPortMutableSetOfSwiftObject.self)
            try realm.commitWrite()
            #expect(set.realm != nil)
            return set
        case .retrieved:
            realm.beginWrite()
            realm.create(SMPortMutableSetOfSwiftObject.self)
            try realm.commitWrite()
            let set = realm.objects(SMPortMutableSetOfSwiftObject.self).first!
            #expect(set.realm != nil)
            return set
        }
    }
}

@Suite struct MutableSetPortTests {
    typealias Variant = SMPortVariant

    // MutableSetTests.testPrimitive
    @Test(arguments: Variant.allCases) func primitive(_ variant: Variant) throws {
        let f = try SMPortSetFixture(variant)
        let obj = SMPortMutableSetObject()
        obj.int.insert(5)
        #expect(obj.int.first == 5)
        #expect(obj.int.last == 5)
        #expect(obj.int[0] == 5)
        obj.int.insert(objectsIn: [6, 7, 8] as [Int])
        #expect(obj.int.max() == 8)
        #expect(obj.int.sum() == 26)

        obj.string.insert("str")
        #expect(obj.string.first == "str")
        #expect(obj.string[0] == "str")
        try f.finish()
    }

    // MutableSetTests.testPrimitiveIterationAcrossNil
    @Test(arguments: Variant.allCases) func primitiveIterationAcrossNil(_ variant: Variant) throws {
        let f = try SMPortSetFixture(variant)
        let obj = SMPortMutableSetObject()
        #expect(!obj.int.contains(5))
        #expect(!obj.int8.contains(5))
        #expect(!obj.int16.contains(5))
        #expect(!obj.int32.contains(5))
        #expect(!obj.int64.contains(5))
        #expect(!obj.float.contains(3.141592))
        #expect(!obj.double.contains(3.141592))
        #expect(!obj.string.contains("foobar"))
        #expect(!obj.data.contains(Data()))
        #expect(!obj.date.contains(Date()))
        #expect(!obj.decimal.contains(Decimal128()))
        #expect(!obj.objectId.contains(ObjectId()))
        #expect(!obj.uuidOpt.contains(UUID()))

        #expect(!obj.intOpt.contains { $0 == nil })
        #expect(!obj.int8Opt.contains { $0 == nil })
        #expect(!obj.int16Opt.contains { $0 == nil })
        #expect(!obj.int32Opt.contains { $0 == nil })
        #expect(!obj.int64Opt.contains { $0 == nil })
        #expect(!obj.floatOpt.contains { $0 == nil })
        #expect(!obj.doubleOpt.contains { $0 == nil })
        #expect(!obj.stringOpt.contains { $0 == nil })
        #expect(!obj.dataOpt.contains { $0 == nil })
        #expect(!obj.dateOpt.contains { $0 == nil })
        #expect(!obj.decimalOpt.contains { $0 == nil })
        #expect(!obj.objectIdOpt.contains { $0 == nil })
        #expect(!obj.uuidOpt.contains { $0 == nil })
        try f.finish()
    }

    // MutableSetTests.testInvalidated
    @Test(arguments: Variant.allCases) func invalidated(_ variant: Variant) throws {
        let f = try SMPortSetFixture(variant)
        let set = f.set
        #expect(!set.isInvalidated)

        if let realm = f.setObject.realm {
            realm.delete(f.setObject)
            #expect(set.isInvalidated)
        }
        try f.finish()
    }

    // MutableSetTests.testFastEnumerationWithMutation
    @Test(arguments: Variant.allCases) func fastEnumerationWithMutation(_ variant: Variant) throws {
        let f = try SMPortSetFixture(variant)
        let (set, str1, str2) = (f.set, f.str1, f.str2)
        set.insert(objectsIn: [str1, str2, str1, str2, str1, str2, str1, str2, str1,
                               str2, str1, str2, str1, str2, str1, str2, str1, str2, str1, str2])
        var str = ""
        for obj in set {
            str += obj.stringCol
            set.insert(objectsIn: [str1])
        }

        #expect(set.contains(str1))
        #expect(set.contains(str2))
        try f.finish()
    }

    // MutableSetTests.testAppendObject
    @Test(arguments: Variant.allCases) func appendObject(_ variant: Variant) throws {
        let f = try SMPortSetFixture(variant)
        let (set, str1, str2) = (f.set, f.str1, f.str2)
        for str in [str1, str2, str1] {
            set.insert(str)
        }
        #expect(set.count == 2)
        #expect(set.contains(str1))
        #expect(set.contains(str2))
        try f.finish()
    }

    // MutableSetTests.testInsert
    @Test(arguments: Variant.allCases) func insert(_ variant: Variant) throws {
        let f = try SMPortSetFixture(variant)
        let (set, str1, str2) = (f.set, f.str1, f.str2)
        set.insert(objectsIn: [str1, str2, str1])
        #expect(set.count == 2)
        #expect(set.contains(str1))
        #expect(set.contains(str2))
        try f.finish()
    }

    // MutableSetTests.testAppendResults
    @Test(arguments: Variant.allCases) func appendResults(_ variant: Variant) throws {
        let f = try SMPortSetFixture(variant)
        let (set, str1, str2, str3) = (f.set, f.str1, f.str2, f.str3)
        set.insert(objectsIn: try f.realms.realmWithTestPath().objects(SMPortStringObject.self))
        #expect(set.count == 3)
        set.forEach {
            // Ordering is not guaranteed so we can't subscript
            #expect($0.isSameObject(as: str1) || $0.isSameObject(as: str2) || $0.isSameObject(as: str3))
        }
        try f.finish()
    }

    // MutableSetTests.testRemoveAll
    @Test(arguments: Variant.allCases) func removeAll(_ variant: Variant) throws {
        let f = try SMPortSetFixture(variant)
        let (set, str1, str2) = (f.set, f.str1, f.str2)
        set.insert(objectsIn: [str1, str2])

        set.removeAll()
        #expect(set.count == 0)

        set.removeAll() // should be a no-op
        #expect(set.count == 0)
        try f.finish()
    }

    // MutableSetTests.testRemoveObject
    @Test(arguments: Variant.allCases) func removeObject(_ variant: Variant) throws {
        let f = try SMPortSetFixture(variant)
        let (set, str1, str2) = (f.set, f.str1, f.str2)
        set.insert(objectsIn: [str1, str2])
        #expect(set.contains(str1))
        #expect(set.count == 2)
        set.remove(str1)
        #expect(!set.contains(str1))
        #expect(set.count == 1)
        set.removeAll()
        #expect(set.count == 0)
        #expect(!set.contains(str1))
        #expect(!set.contains(str2))
        try f.finish()
    }

    // MutableSetTests.testChangesArePersisted
    @Test(arguments: Variant.allCases) func changesArePersisted(_ variant: Variant) throws {
        let f = try SMPortSetFixture(variant)
        let (set, str1, str2) = (f.set, f.str1, f.str2)
        if let realm = set.realm {
            set.insert(objectsIn: [str1, str2])

            let otherSet = realm.objects(SMPortMutableSetPropertyObject.self).first!.set
            #expect(otherSet.count == 2)
        }
        try f.finish()
    }

    // MutableSetTests.testPopulateEmptySet
    @Test(arguments: Variant.allCases) func populateEmptySet(_ variant: Variant) throws {
        let f = try SMPortSetFixture(variant)
        let set = f.set
        #expect(set.count == 0, "Should start with no set elements.")

        let obj = SMPortStringObject()
        obj.stringCol = "a"
        set.insert(obj)
        set.insert(try f.realms.realmWithTestPath().create(SMPortStringObject.self, value: ["b"]))
        set.insert(obj)

        #expect(set.count == 2)
        set.forEach {
            #expect($0.stringCol == "a" || $0.stringCol == "b")
        }

        // Make sure we can enumerate
        for obj in set {
            #expect(obj.description.utf16.count > 0, "Object should have description")
        }
        try f.finish()
    }

    // MutableSetTests.testEnumeratingSetWithSetProperties
    @Test(arguments: Variant.allCases) func enumeratingSetWithSetProperties(_ variant: Variant) throws {
        let f = try SMPortSetFixture(variant)
        let setObject = try f.createSetWithLinks()

        setObject.realm?.beginWrite()
        for _ in 0..<10 {
            setObject.set.insert(SMPortObject())
        }
        try setObject.realm?.commitWrite()

        #expect(setObject.set.count == 10)

        for object in setObject.set {
            #expect(object.intCol == 123)
            #expect(object.objectCol?.boolCol == false)
            #expect(object.setCol.count == 0)
        }
        try f.finish()
    }

    // MutableSetTests.testValueForKey
    @Test(arguments: Variant.allCases) func valueForKey(_ variant: Variant) throws {
        let f = try SMPortSetFixture(variant)
        let realm = try f.realms.realm()
        try realm.write {
            for value in [1, 2] {
                let setObject = SMPortMutableSetOfSwiftObject()
                let object = SMPortObject()
                object.intCol = value
                object.doubleCol = Double(value)
                object.stringCol = String(value)
                object.decimalCol = Decimal128(number: value as NSNumber)
                object.objectIdCol = ObjectId(string: String(repeating: String(value), count: 24))!
                setObject.set.insert(object)
                realm.add(setObject)
            }
        }

        let setObjects = realm.objects(SMPortMutableSetOfSwiftObject.self)
        let setsOfObjects = (setObjects.value(forKeyPath: "set") as? [Any?] ?? []).compactMap { $0 as? MutableSet<SMPortObject> }
        #expect(setsOfObjects.count == 2)
        let objects = realm.objects(SMPortObject.self)

        func testProperty<T: Equatable>(_ fn: (SMPortObject) -> T, sourceLocation: SourceLocation = #_sourceLocation) {
            let properties: [T] = setObjects.flatMap { $0.set.map(fn) }
            let kvcProperties: [T] = setsOfObjects.flatMap { $0.map(fn) }
            #expect(properties == kvcProperties, sourceLocation: sourceLocation)
        }
        func testProperty<T: Equatable>(_ name: String, _ fn: (SMPortObject) -> T, sourceLocation: SourceLocation = #_sourceLocation) {
            let properties = objects.map(fn)
            let kvcProperties = (objects.value(forKeyPath: name) as? [Any?] ?? []).compactMap { $0 as? T }
            #expect(properties == kvcProperties, sourceLocation: sourceLocation)
        }

        testProperty { $0.intCol }
        testProperty { $0.doubleCol }
        testProperty { $0.stringCol }
        testProperty { $0.decimalCol }
        testProperty { $0.objectIdCol }

        testProperty("intCol") { $0.intCol }
        testProperty("doubleCol") { $0.doubleCol }
        testProperty("stringCol") { $0.stringCol }
        testProperty("decimalCol") { $0.decimalCol }
        testProperty("objectIdCol") { $0.objectIdCol }
        try f.finish()
    }

    // MutableSetTests.testValueForKeyOptional (the NSString column not ported)
    @Test(arguments: Variant.allCases) func valueForKeyOptional(_ variant: Variant) throws {
        let f = try SMPortSetFixture(variant)
        let realm = try f.realms.realm()
        try realm.write {
            for value in [1, 2] {
                let setObject = SMPortMutableSetOfSwiftOptionalObject()
                let object = SMPortOptionalObject()
                object.optIntCol.value = value
                object.optInt8Col.value = Int8(value)
                object.optDoubleCol.value = Double(value)
                object.optStringCol = String(value)
                object.optDecimalCol = Decimal128(number: value as NSNumber)
                object.optObjectIdCol = ObjectId(string: String(repeating: String(value), count: 24))
                setObject.set.insert(object)
                realm.add(setObject)
            }
        }

        let setObjects = realm.objects(SMPortMutableSetOfSwiftOptionalObject.self)
        let setOfObjects = (setObjects.value(forKeyPath: "set") as? [Any?] ?? []).compactMap { $0 as? MutableSet<SMPortOptionalObject> }
        #expect(setOfObjects.count == 2)
        let objects = realm.objects(SMPortOptionalObject.self)

        func testProperty<T: Equatable>(_ fn: (SMPortOptionalObject) -> T, sourceLocation: SourceLocation = #_sourceLocation) {
            let properties: [T] = setObjects.flatMap { $0.set.map(fn) }
            let kvcProperties: [T] = setOfObjects.flatMap { $0.map(fn) }
            #expect(properties == kvcProperties, sourceLocation: sourceLocation)
        }
        func testProperty<T: Equatable>(_ name: String, _ fn: (SMPortOptionalObject) -> T?, sourceLocation: SourceLocation = #_sourceLocation) {
            let properties = objects.compactMap(fn)
            let kvcProperties = (objects.value(forKeyPath: name) as? [Any?] ?? []).compactMap { $0 as? T }
            #expect(properties == kvcProperties, sourceLocation: sourceLocation)
        }

        testProperty { $0.optIntCol.value }
        testProperty { $0.optInt8Col.value }
        testProperty { $0.optDoubleCol.value }
        testProperty { $0.optStringCol }
        testProperty { $0.optDecimalCol }
        testProperty { $0.optObjectCol }

        testProperty("optIntCol") { $0.optIntCol.value }
        testProperty("optInt8Col") { $0.optInt8Col.value }
        testProperty("optDoubleCol") { $0.optDoubleCol.value }
        testProperty("optStringCol") { $0.optStringCol }
        testProperty("optDecimalCol") { $0.optDecimalCol }
        testProperty("optObjectCol") { $0.optObjectCol }
        try f.finish()
    }

    // MutableSetTests.testUnmanagedSetComparison (`isEqual(_:)`, NSObject's,
    // not ported: `==` is what Swift code compares with)
    @Test(arguments: Variant.allCases) func unmanagedSetComparison(_ variant: Variant) throws {
        let f = try SMPortSetFixture(variant)
        let obj = SMPortIntObject()
        obj.intCol = 5
        let obj2 = SMPortIntObject()
        obj2.intCol = 6
        let obj3 = SMPortIntObject()
        obj3.intCol = 8

        let objects = [obj, obj2, obj3]
        let objects2 = [obj, obj2]

        let set1 = MutableSet<SMPortIntObject>()
        let set2 = MutableSet<SMPortIntObject>()
        #expect(set1 == set2, "Empty instances should be equal by `==` operator")

        set1.insert(objectsIn: objects)
        set2.insert(objectsIn: objects)

        let set3 = MutableSet<SMPortIntObject>()
        set3.insert(objectsIn: objects2)

        #expect(set1 !== set2, "instances should not be identical")

        #expect(set1 == set2, "instances should be equal by `==` operator")
        #expect(set1 != set3, "instances should not be equal by `==` operator")

        #expect(Array(set1) == Array(set2), "instances converted to Swift.Array should be equal")
        #expect(Array(set1) != Array(set3), "instances converted to Swift.Array should not be equal")
        #expect(Set(set1) == Set(set2), "instances converted to Swift.Set should be equal")
        #expect(Set(set1) != Set(set3), "instances converted to Swift.Set should not be equal")
        set3.insert(obj3)
        #expect(set1 == set3, "instances should be equal by `==` operator")
        try f.finish()
    }

    // MutableSetTests.testSubset
    @Test(arguments: Variant.allCases) func subset(_ variant: Variant) throws {
        let f = try SMPortSetFixture(variant)
        let (set, set2, str1, str2) = (f.set, f.set2, f.str1, f.str2)
        set.removeAll()
        set2.removeAll()
        #expect(set.count == 0)
        #expect(set2.count == 0)
        set.insert(objectsIn: [str1, str2, str1])
        set2.insert(objectsIn: [str1])
        #expect(set.count == 2)
        #expect(set2.count == 1)
        #expect(set2.isSubset(of: set))
        #expect(!set.isSubset(of: set2))
        try f.finish()
    }

    // MutableSetTests.testUnion
    @Test(arguments: Variant.allCases) func union(_ variant: Variant) throws {
        let f = try SMPortSetFixture(variant)
        let (set, set2, str1, str2) = (f.set, f.set2, f.str1, f.str2)
        set.removeAll()
        set2.removeAll()
        set.insert(objectsIn: [str1, str2, str1])
        set2.insert(objectsIn: [str1])
        #expect(set.count == 2)
        #expect(set2.count == 1)
        #expect(set2.isSubset(of: set))
        #expect(!set.isSubset(of: set2))
        try f.finish()
    }

    // MutableSetTests.testIntersection
    @Test(arguments: Variant.allCases) func intersection(_ variant: Variant) throws {
        let f = try SMPortSetFixture(variant)
        let (set, set2, str1, str2, str3) = (f.set, f.set2, f.str1, f.str2, f.str3)
        set.removeAll()
        set2.removeAll()
        set.insert(objectsIn: [str1, str2])
        set2.insert(objectsIn: [str2, str3])
        #expect(set.count == 2)
        #expect(set2.count == 2)
        #expect(set.intersects(set2))
        #expect(set2.intersects(set))

        set.formIntersection(set2)
        #expect(set.intersects(set2))
        #expect(set2.intersects(set))
        #expect(set.count == 1)
        try f.finish()
    }

    // MutableSetTests.testSubtract
    @Test(arguments: Variant.allCases) func subtract(_ variant: Variant) throws {
        let f = try SMPortSetFixture(variant)
        let (set, set2, str1, str2, str3) = (f.set, f.set2, f.str1, f.str2, f.str3)
        set.removeAll()
        set2.removeAll()
        set.insert(objectsIn: [str1, str2])
        set2.insert(objectsIn: [str2, str3])
        #expect(set.count == 2)
        #expect(set2.count == 2)

        set.subtract(set2)
        #expect(set.count == 1)
        #expect(set.contains(str1))
        try f.finish()
    }
}
