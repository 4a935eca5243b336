import Foundation
import RealmObjects
import Testing

// Seed 000 "Current limitations": name lengths (57-byte class names,
// 63-byte property names), 16 MB String and Data values, and the "Models"
// notes (custom initializers, auto-incrementing properties). Thread
// confinement is in SeedThreadingTests.
//
// Skipped: file size against the address space of iOS devices, string
// sorting and case-insensitive character sets (issue #4's queries), overriding
// setters and getters (`@Persisted` properties cannot be overridden, which
// the compiler enforces), Objective-C headers (`@nonobjc`).

/// A class name of exactly 57 UTF-8 bytes, the limit.
final class SeedLongestClassName: Object {
    @Persisted var value = 0
    override class func className() -> String { String(repeating: "C", count: 57) }
}

/// A class name of 58 UTF-8 bytes (29 two-byte characters: the limit
/// counts bytes, not characters).
final class SeedTooLongClassName: Object {
    @Persisted var value = 0
    override class func className() -> String { String(repeating: "é", count: 29) }
}

/// A property name of 63 bytes, the limit, and one of 64.
final class SeedLongestPropertyName: Object {
    @Persisted var p23456789012345678901234567890123456789012345678901234567890123 = 0
}

final class SeedTooLongPropertyName: Object {
    @Persisted var p234567890123456789012345678901234567890123456789012345678901234 = 0
}

/// Large values.
final class SeedBlob: Object {
    @Persisted var text = ""
    @Persisted var bytes = Data()
}

/// "Custom initializers for Object subclasses".
final class SeedMyModelWithInit: Object {
    @Persisted var myValue = ""

    convenience init(myValue: String) {
        self.init() //Please note this says 'self' and not 'super'
        self.myValue = myValue
    }
}

/// "Auto-incrementing properties": a unique string key by default, and a
/// creation date to keep the order of insertion.
final class SeedAutoKeyed: Object {
    @Persisted var id = UUID().uuidString
    @Persisted var createdAt = Date()
    @Persisted var title = ""
    override static func primaryKey() -> String? { "id" }
}

@Suite struct SeedLimitsTests {
    // MARK: Names

    @Test func classNamesUpTo57BytesAreAccepted() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [SeedLongestClassName.self]))
        #expect(realm.schema.classNames == [String(repeating: "C", count: 57)])
        try realm.write { realm.add(SeedLongestClassName(value: [1])) }
        #expect(realm.objects(SeedLongestClassName.self).count == 1)
    }

    @Test func aClassNameOver57BytesFailsToOpen() throws {
        let error = #expect(throws: Realm.Error.self) {
            _ = try Realm(configuration: inMemoryConfiguration(types: [SeedTooLongClassName.self]))
        }
        #expect(error?.message.contains(String(repeating: "é", count: 29)) == true)
        #expect(error?.message.contains("57") == true)
    }

    @Test func propertyNamesUpTo63BytesAreAccepted() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [SeedLongestPropertyName.self]))
        let name = "p23456789012345678901234567890123456789012345678901234567890123"
        #expect(name.utf8.count == 63)
        #expect(realm.schema["SeedLongestPropertyName"]?.properties.map(\.name) == [name])
    }

    @Test func aPropertyNameOver63BytesFailsToOpen() throws {
        let error = #expect(throws: Realm.Error.self) {
            _ = try Realm(configuration: inMemoryConfiguration(types: [SeedTooLongPropertyName.self]))
        }
        #expect(error?.message.contains("SeedTooLongPropertyName.p234567890123456789012345678901234567890123456789012345678901234") == true)
        #expect(error?.message.contains("63") == true)
    }

    /// A model with a too-long name used without `objectTypes` (registered
    /// when first used) has no objects, and the next throwing call throws
    /// the same error (it stopped the program before issue 35).
    @Test func aTooLongClassUsedDirectlyFailsTheNextWrite() throws {
        let realm = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "long-\(UUID())"))
        #expect(realm.objects(SeedTooLongClassName.self).count == 0)
        let error = #expect(throws: Realm.Error.self) { try realm.write {} }
        #expect(error?.code == .invalidSchema, "\(String(describing: error))")
        #expect(error?.message.contains(String(repeating: "é", count: 29)) == true)
        try realm.write {}
    }

    // MARK: 16 MB values

    @Test func valuesUpTo16MBAreStored() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let limit = 16 * 1024 * 1024
        try realm.write {
            realm.add(SeedBlob(value: [String(repeating: "x", count: limit), Data(count: limit)]))
        }
        let blob = try #require(realm.objects(SeedBlob.self).first)
        #expect(blob.text.utf8.count == limit)
        #expect(blob.bytes.count == limit)
    }

    @Test func valuesOver16MBAreErrors() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let tooLarge = 16 * 1024 * 1024 + 1
        realm.beginWrite()
        let text = #expect(throws: Realm.Error.self) {
            try realm.create(SeedBlob.self, value: ["text": String(repeating: "x", count: tooLarge)], update: .error)
        }
        #expect(text?.message.contains("SeedBlob.text") == true)
        let bytes = #expect(throws: Realm.Error.self) {
            try realm.add(SeedBlob(value: ["bytes": Data(count: tooLarge)]), update: .error)
        }
        #expect(bytes?.message.contains("SeedBlob.bytes") == true)
        try realm.commitWrite()
        // Nothing of the failed calls was kept.
        #expect(realm.objects(SeedBlob.self).isEmpty)
    }

    /// "An exception will be thrown at runtime if your app attempts to store
    /// more than 16MB in a single property."
    @Test func settingMoreThan16MBStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "blob"))
            let blob = SeedBlob()
            try! realm.write { realm.add(blob) }
            try! realm.write {
                blob.bytes = Data(count: 16 * 1024 * 1024 + 1)
            }
        }
        #expect(seedStandardError(result).contains("SeedBlob.bytes"))
    }

    // MARK: Models

    @Test func customConvenienceInitializers() throws {
        let model = SeedMyModelWithInit(myValue: "hello")
        #expect(model.myValue == "hello")
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write { realm.add(model) }
        #expect(realm.objects(SeedMyModelWithInit.self).first?.myValue == "hello")
    }

    @Test func uniqueStringKeysInsteadOfAutoIncrement() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            for title in ["first", "second", "third"] {
                realm.add(SeedAutoKeyed(value: ["title": title]))
                Thread.sleep(forTimeInterval: 0.002)
            }
        }
        let all = realm.objects(SeedAutoKeyed.self)
        #expect(Set(all.map(\.id)).count == 3)
        #expect(all.sorted(byKeyPath: "createdAt").map(\.title) == ["first", "second", "third"])
    }
}
