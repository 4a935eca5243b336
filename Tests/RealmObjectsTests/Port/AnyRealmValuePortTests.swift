import Foundation
import RealmObjects
import Testing

// realm-swift's RealmSwift/Tests/AnyRealmValueTests.swift (v10.54.6),
// ported: AnyRealmValueTests<T> for every value type,
// AnyRealmValueObjectTests (testObject, testAssortment,
// testDynamicObjectAccessor), and the min/max/sum parts of the list tests.
//
// Not ported here:
// - the List, MutableSet and Map suites' other tests, which run the
//   collection ports' tests (MutableSetPortTests, MapPortTests …) again
//   over AnyRealmValue. Our own AnyRealmValueTests cover mixed values in
//   each collection.
// - `average()`: it returns the element type in Realm (an AnyRealmValue);
//   here a collection of values averages to a `Double`
//   (DifferencesFromApplePlatforms).
// - A managed empty list's `sum()`: it is `.none`-like in Realm
//   (`intValue == nil`), `.int(0)` here, as for an unmanaged list in
//   Realm.

final class PortAnyRealmTypeObject: Object {
    let anyValue = RealmProperty<AnyRealmValue>()
}

final class PortMixedStringObject: Object {
    @Persisted var stringCol = ""
}

final class PortMixedParent: Object {
    @Persisted var anyCol: AnyRealmValue
}

@Suite struct AnyRealmValuePortTests {
    private func makeRealm(_ directory: TemporaryDirectory, types: [Object.Type]) throws -> Realm {
        try Realm(configuration: Realm.Configuration(fileURL: directory.file(), objectTypes: types))
    }

    private static let oid1 = ObjectId(string: "1234567890ab1234567890ab")!
    private static let oid2 = ObjectId(string: "234567890ab1234567890ab1")!
    private static let oid3 = ObjectId(string: "34567890ab1234567890ab12")!

    /// `T.anyValues()` of realm-swift's value factories: three values of a
    /// type (for Bool: false, true and .none).
    static var valuesByType: [(String, [AnyRealmValue])] {
        [
            ("Int", [.int(1), .int(2), .int(3)]),
            ("Bool", [.bool(false), .bool(true), .none]),
            ("Float", [.float(1.1), .float(2.2), .float(3.3)]),
            ("String", [.string("a"), .string("b"), .string("c")]),
            ("Data", [.data(Data("a".utf8)), .data(Data("b".utf8)), .data(Data("c".utf8))]),
            ("Date", [.date(Date(timeIntervalSince1970: 1)), .date(Date(timeIntervalSince1970: 2)), .date(Date(timeIntervalSince1970: 3))]),
            ("ObjectId", [.objectId(oid1), .objectId(oid2), .objectId(oid3)]),
            ("Decimal128", [.decimal128(1), .decimal128(2), .decimal128(3)]),
            ("UUID", [.uuid(UUID(uuidString: "33041937-05b2-464a-98ad-3910cbe0d09e")!),
                      .uuid(UUID(uuidString: "b9d325b0-3058-4838-8473-8f1aaae410db")!),
                      .uuid(UUID(uuidString: "85d4fbee-6ec6-47df-bfa1-615931903d7e")!)]),
        ]
    }

    // AnyRealmValueTests<T>.testAnyRealmValue, for each T
    @Test(arguments: valuesByType.map(\.0))
    func anyRealmValue(_ typeName: String) throws {
        let values = Self.valuesByType.first { $0.0 == typeName }!.1
        let directory = TemporaryDirectory()
        let o = PortAnyRealmTypeObject()
        o.anyValue.value = values[0]
        #expect(o.anyValue.value == values[0])
        o.anyValue.value = values[1]
        #expect(o.anyValue.value == values[1])
        let realm = try makeRealm(directory, types: [PortAnyRealmTypeObject.self])
        try realm.write {
            realm.add(o)
        }
        #expect(o.anyValue.value == values[1])
        try realm.write {
            o.anyValue.value = values[2]
        }
        #expect(o.anyValue.value == values[2])
    }

    // AnyRealmValueObjectTests.testObject
    @Test func object() throws {
        let directory = TemporaryDirectory()
        let o = PortAnyRealmTypeObject()
        let so = PortMixedStringObject()
        so.stringCol = "hello"
        o.anyValue.value = .object(so)
        #expect(o.anyValue.value.object(PortMixedStringObject.self)!.stringCol == "hello")
        o.anyValue.value.object(PortMixedStringObject.self)!.stringCol = "there"
        #expect(o.anyValue.value.object(PortMixedStringObject.self)!.stringCol == "there")
        let realm = try makeRealm(directory, types: [PortAnyRealmTypeObject.self, PortMixedStringObject.self])
        try realm.write {
            realm.add(o)
        }
        #expect(o.anyValue.value.object(PortMixedStringObject.self)!.stringCol == "there")
        try realm.write {
            o.anyValue.value.object(PortMixedStringObject.self)!.stringCol = "bye!"
        }
        #expect(o.anyValue.value.object(PortMixedStringObject.self)!.stringCol == "bye!")
    }

    // AnyRealmValueObjectTests.testAssortment
    @Test func assortment() throws {
        let directory = TemporaryDirectory()
        let o = PortAnyRealmTypeObject()
        let so = PortMixedStringObject()
        so.stringCol = "hello"
        let data = Data(repeating: 1, count: 64)
        let date = Date()
        let objectId = ObjectId.generate()
        let decimal = Decimal128(floatLiteral: 12345.6789)

        func variation<T: Equatable>(_ value: AnyRealmValue, _ keyPath: KeyPath<AnyRealmValue, T?>, _ expected: T, realm: Realm?) throws {
            realm?.beginWrite()
            o.anyValue.value = value
            try realm?.commitWrite()
            if let date = expected as? Date {
                #expect(abs(o.anyValue.value.dateValue!.timeIntervalSince1970 - date.timeIntervalSince1970) <= 1)
            } else {
                #expect(o.anyValue.value[keyPath: keyPath] == expected)
            }
        }
        func tests(_ realm: Realm?) throws {
            try variation(.int(123), \.intValue, 123, realm: realm)
            try variation(.float(123.456), \.floatValue, 123.456, realm: realm)
            try variation(.string("hello there"), \.stringValue, "hello there", realm: realm)
            try variation(.data(data), \.dataValue, data, realm: realm)
            try variation(.date(date), \.dateValue, date, realm: realm)
            try variation(.objectId(objectId), \.objectIdValue, objectId, realm: realm)
            try variation(.decimal128(decimal), \.decimal128Value, decimal, realm: realm)
        }

        // unmanaged
        try tests(nil)
        o.anyValue.value = .none
        let realm = try makeRealm(directory, types: [PortAnyRealmTypeObject.self, PortMixedStringObject.self])
        try realm.write {
            realm.add(o)
        }
        // managed
        try tests(realm)

        try realm.write {
            o.anyValue.value = .object(so)
        }
        #expect(o.anyValue.value.object(PortMixedStringObject.self)!.stringCol == "hello")
    }

    // AnyRealmValueObjectTests.testDynamicObjectAccessor
    @Test func dynamicObjectAccessor() throws {
        let directory = TemporaryDirectory()
        // The first Realm knows the linked class and adds an object of it
        // as a mixed value.
        do {
            let realm = try makeRealm(directory, types: [PortMixedParent.self, PortMixedStringObject.self])
            try realm.write {
                let string = PortMixedStringObject(value: ["stringCol": "some string..."])
                realm.add(PortMixedParent(value: ["anyCol": string]))
            }
            #expect(realm.objects(PortMixedStringObject.self).count == 1)
        }
        // The second leaves the class out: the object is read dynamically.
        let realm = try makeRealm(directory, types: [PortMixedParent.self])
        #expect(!realm.schema.objectSchemas.map(\.name).contains("PortMixedStringObject"))
        let object = try #require(realm.objects(PortMixedParent.self).first)
        let dynamicObject = try #require(object.anyCol.dynamicObject)
        #expect(dynamicObject.stringCol as? String == "some string...")
    }

    // MinMaxAnyRealmValueListTests.testMin / testMax, for Int, Float,
    // Double, Date and Decimal128 (managed)
    @Test(arguments: ["Int", "Float", "Date", "Decimal128"])
    func minAndMax(_ typeName: String) throws {
        let values = Self.valuesByType.first { $0.0 == typeName }!.1
        let directory = TemporaryDirectory()
        let realm = try makeRealm(directory, types: [PortMixedList.self])
        let owner = try realm.write { realm.create(PortMixedList.self) }
        let array = owner.array
        #expect(array.min() == nil)
        #expect(array.max() == nil)
        try realm.write { array.append(objectsIn: values.reversed()) }
        #expect(array.min() == values.first)
        #expect(array.max() == values.last)
    }

    // AddableAnyRealmValueListTests.testSum, for Int, Float and Decimal128
    @Test(arguments: ["Int", "Float", "Decimal128"])
    func sum(_ typeName: String) throws {
        let values = Self.valuesByType.first { $0.0 == typeName }!.1
        let directory = TemporaryDirectory()
        let realm = try makeRealm(directory, types: [PortMixedList.self])
        let owner = try realm.write { realm.create(PortMixedList.self) }
        try realm.write { owner.array.append(objectsIn: values) }
        let expected = values.reduce(0.0) { $0 + $1._doubleValue }
        #expect(abs(owner.array.sum()._doubleValue - expected) < 0.1)
    }
}

final class PortMixedList: Object {
    @Persisted var array: List<AnyRealmValue>
}
