import Foundation
import RealmObjects
import Testing

// Seed 000 "Models" (supported property types, required properties,
// primary keys, indexes, ignored properties, the property cheatsheet) and
// "Working with Realm objects" (auto-updating objects, model inheritance);
// seed 001 "Default property values"; seed 004's Person, Project and Book.
//
// Skipped: "Property attributes" (`@objc dynamic`, `@objcMembers`: there is
// no Objective-C runtime on Linux; `@Persisted` replaces them, see
// Docs/DifferencesFromApplePlatforms.md), CGFloat (discouraged by the
// seed), KVO on ignored properties (no KVO on Linux; observation belongs to
// issue #5), and seed 001's `+requiredProperties` (Objective-C only: in
// Swift, optionality is the type's).

/// The "Required properties" sample: an optional string and a RealmOptional
/// number, in that order.
final class SeedOptionalPerson: Object {
    // Optional string property, defaulting to nil
    @Persisted var name: String? = nil

    // Optional int property, defaulting to nil
    // RealmOptional properties should always be declared with `let`,
    // as assigning to them directly will not work as desired
    let age = RealmOptional<Int>()
}

/// The "Primary keys" sample.
final class SeedKeyedPerson: Object {
    @Persisted var id = 0
    @Persisted var name = ""

    override static func primaryKey() -> String? {
        return "id"
    }
}

/// The "Indexing properties" sample.
final class SeedIndexedBook: Object {
    @Persisted var price = 0
    @Persisted var title = ""

    override static func indexedProperties() -> [String] {
        return ["title"]
    }
}

/// Every type that "Realm supports indexing for": string, integer, boolean,
/// Date (seed 000) and ObjectId (seed 004).
final class SeedIndexedTypes: Object {
    @Persisted var string = ""
    @Persisted var int = 0
    @Persisted var int8: Int8 = 0
    @Persisted var bool = false
    @Persisted var date = Date(timeIntervalSince1970: 0)
    @Persisted var objectId = ObjectId.generate()

    override static func indexedProperties() -> [String] {
        ["string", "int", "int8", "bool", "date", "objectId"]
    }
}

/// An index on a type that cannot have one.
final class SeedIndexedDouble: Object {
    @Persisted var weight = 0.0
    override static func indexedProperties() -> [String] { ["weight"] }
}

/// The property cheatsheet of seed 000, row by row, with seed 004's sized
/// integers and ObjectId; optional numbers both as `RealmOptional` (the
/// seeds' spelling) and as optional `@Persisted` (the newer one).
final class SeedCheatsheet: Object {
    @Persisted var boolValue = false
    @Persisted var intValue = 0
    @Persisted var int8Value: Int8 = 0
    @Persisted var int16Value: Int16 = 0
    @Persisted var int32Value: Int32 = 0
    @Persisted var int64Value: Int64 = 0
    @Persisted var floatValue: Float = 0.0
    @Persisted var doubleValue: Double = 0.0
    @Persisted var stringValue = ""
    @Persisted var dataValue = Data()
    @Persisted var dateValue = Date()
    @Persisted var objectIdValue = ObjectId.generate()
    @Persisted var objectValue: SeedCheatsheetTarget?
    let listValue = List<SeedCheatsheetTarget>()

    let optionalBool = RealmOptional<Bool>()
    let optionalInt = RealmOptional<Int>()
    let optionalInt8 = RealmOptional<Int8>()
    let optionalInt16 = RealmOptional<Int16>()
    let optionalInt32 = RealmOptional<Int32>()
    let optionalInt64 = RealmOptional<Int64>()
    let optionalFloat = RealmOptional<Float>()
    let optionalDouble = RealmOptional<Double>()
    @Persisted var optionalString: String? = nil
    @Persisted var optionalData: Data? = nil
    @Persisted var optionalDate: Date? = nil
    @Persisted var optionalObjectId: ObjectId? = nil

    @Persisted var persistedOptionalBool: Bool?
    @Persisted var persistedOptionalInt: Int?
    @Persisted var persistedOptionalInt8: Int8?
    @Persisted var persistedOptionalInt16: Int16?
    @Persisted var persistedOptionalInt32: Int32?
    @Persisted var persistedOptionalInt64: Int64?
    @Persisted var persistedOptionalFloat: Float?
    @Persisted var persistedOptionalDouble: Double?
}

final class SeedCheatsheetTarget: Object {
    @Persisted var name = ""
    let listedIn = LinkingObjects(fromType: SeedCheatsheet.self, property: "listValue")
}

/// Seed 001's "Default property values", in Swift: property initializers.
final class SeedDefaultsBook: Object {
    @Persisted var price: Float = 0
    @Persisted var title = ""
    @Persisted var author = "Anonymous"
    @Persisted var pages = 100
    @Persisted var subtitle: String? = "none"
    let rating = RealmOptional<Int>(3)
}

/// "Model inheritance": a base model, a subclass, and the seed's
/// composition pattern.
class SeedAnimal: Object {
    @Persisted var age = 0

    var isAdult: Bool { age >= 2 }

    func celebrateBirthday() {
        age += 1
    }
}

final class SeedCat: SeedAnimal {
    @Persisted var name = ""
}

// Models composed with Animal
final class SeedDuck: Object {
    @Persisted var animal: SeedAnimal? = nil
    @Persisted var name = ""
}

final class SeedFrog: Object {
    @Persisted var animal: SeedAnimal? = nil
    @Persisted var dateProp = Date()
}

/// Seed 004's Person: required and optional strings and numbers.
final class SeedSchemaPerson: Object {
    // Required string property
    @Persisted var name = ""
    // Optional string property
    @Persisted var address: String?
    // Required numeric property
    @Persisted var ageYears = 0
    // Optional numeric property
    let heightCm = RealmOptional<Float>()
}

/// Seed 004's Project.
final class SeedProject: Object {
    @Persisted var id = 0
    @Persisted var name = ""
    // Return the name of the primary key property
    override static func primaryKey() -> String? {
        return "id"
    }
}

/// Seed 004's Person with an ignored property and a read-only one.
final class SeedIgnoringPerson: Object {
    @Persisted var tmpId = 0
    @Persisted var firstName = ""
    @Persisted var lastName = ""
    // Read-only properties are automatically ignored
    var name: String {
        return "\(firstName) \(lastName)"
    }
    // Return a list of ignored property names
    override static func ignoredProperties() -> [String] {
        return ["tmpId"]
    }
}

@Suite struct SeedModelsTests {
    // MARK: Models

    @Test func theDogAndPersonModels() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [Dog.self, Person.self]))
        let dog = try #require(realm.schema["Dog"])
        #expect(dog["owner"]?.type == .object)
        #expect(dog["owner"]?.objectClassName == "Person")
        #expect(dog["owner"]?.isOptional == true)   // Properties can be optional
        let person = try #require(realm.schema["Person"])
        #expect(person["name"]?.type == .string)
        #expect(person["birthdate"]?.type == .date)
        #expect(person["dogs"]?.isList == true)
        // Unmanaged objects are used like any other Swift objects.
        let jane = Person()
        #expect(jane.birthdate == Date(timeIntervalSince1970: 1))
        jane.name = "Jane"
        jane.dogs.append(Dog(value: ["name": "Rex"]))
        #expect(jane.dogs.first?.name == "Rex")
        #expect(jane.realm == nil)
    }

    @Test func requiredAndOptionalProperties() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            let person = realm.create(SeedOptionalPerson.self, value: ["Jane", 27])
            #expect(person.name == "Jane")
            #expect(person.age.value == 27)
            // Reading from or modifying a `RealmOptional` is done via the `value` property
            person.age.value = 28
        }
        let person = try #require(realm.objects(SeedOptionalPerson.self).first)
        #expect(person.age.value == 28)
        try realm.write {
            person.name = nil
            person.age.value = nil
        }
        #expect(person.name == nil)
        #expect(person.age.value == nil)
        let schema = try #require(realm.schema["SeedOptionalPerson"])
        #expect(schema["name"]?.isOptional == true)
        #expect(schema["age"]?.isOptional == true)
        #expect(schema["age"]?.type == .int)
    }

    /// Seed 004's Person: required and optional strings and numbers.
    @Test func requiredAndOptionalPropertiesOfSeed004() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let person = SeedSchemaPerson()
        #expect(person.address == nil)
        #expect(person.heightCm.value == nil)
        person.name = "Ann"
        person.heightCm.value = 171.5
        try realm.write { realm.add(person) }
        #expect(realm.objects(SeedSchemaPerson.self).first?.heightCm.value == 171.5)
        #expect(realm.objects(SeedSchemaPerson.self).first?.address == nil)
        let schema = try #require(realm.schema["SeedSchemaPerson"])
        #expect(schema["name"]?.isOptional == false)
        #expect(schema["address"]?.isOptional == true)
        #expect(schema["ageYears"]?.isOptional == false)
        #expect(schema["heightCm"]?.isOptional == true)
        #expect(schema["heightCm"]?.type == .float)
    }

    // MARK: Property cheatsheet

    @Test func theCheatsheetSchema() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [SeedCheatsheet.self]))
        let schema = try #require(realm.schema["SeedCheatsheet"])
        let expected: [(String, PropertyType, Bool)] = [
            ("boolValue", .bool, false), ("intValue", .int, false), ("int8Value", .int, false),
            ("int16Value", .int, false), ("int32Value", .int, false), ("int64Value", .int, false),
            ("floatValue", .float, false), ("doubleValue", .double, false), ("stringValue", .string, false),
            ("dataValue", .data, false), ("dateValue", .date, false), ("objectIdValue", .objectId, false),
            ("objectValue", .object, true),
            ("optionalBool", .bool, true), ("optionalInt", .int, true), ("optionalInt8", .int, true),
            ("optionalInt16", .int, true), ("optionalInt32", .int, true), ("optionalInt64", .int, true),
            ("optionalFloat", .float, true), ("optionalDouble", .double, true), ("optionalString", .string, true),
            ("optionalData", .data, true), ("optionalDate", .date, true), ("optionalObjectId", .objectId, true),
            ("persistedOptionalBool", .bool, true), ("persistedOptionalInt", .int, true),
            ("persistedOptionalInt8", .int, true), ("persistedOptionalInt16", .int, true),
            ("persistedOptionalInt32", .int, true), ("persistedOptionalInt64", .int, true),
            ("persistedOptionalFloat", .float, true), ("persistedOptionalDouble", .double, true),
        ]
        for (name, type, isOptional) in expected {
            let property = try #require(schema[name], "missing property \(name)")
            #expect(property.type == type, "\(name)")
            #expect(property.isOptional == isOptional, "\(name)")
            #expect(property.isList == false, "\(name)")
        }
        #expect(schema["listValue"]?.isList == true)
        #expect(schema["listValue"]?.objectClassName == "SeedCheatsheetTarget")
        let target = try #require(realm.schema["SeedCheatsheetTarget"])
        #expect(target["listedIn"]?.type == .linkingObjects)
        #expect(target["listedIn"]?.linkOriginPropertyName == "listValue")
        // Declaration order.
        #expect(schema.properties.first?.name == "boolValue")
        #expect(schema.properties.last?.name == "persistedOptionalDouble")
    }

    @Test func theCheatsheetRoundTripsEveryType() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let date = Date(timeIntervalSince1970: 1_600_000_000.25)
        let id = ObjectId.generate()
        let object = SeedCheatsheet()
        object.boolValue = true
        object.intValue = -42
        object.int8Value = .max
        object.int16Value = .min
        object.int32Value = 123_456
        object.int64Value = .max
        object.floatValue = 2.5
        object.doubleValue = 1e300
        object.stringValue = "ünïcödé"
        object.dataValue = Data([0, 255, 7])
        object.dateValue = date
        object.objectIdValue = id
        object.objectValue = SeedCheatsheetTarget(value: ["name": "linked"])
        object.listValue.append(SeedCheatsheetTarget(value: ["name": "listed"]))
        object.optionalBool.value = false
        object.optionalInt.value = 1
        object.optionalInt8.value = -8
        object.optionalInt16.value = 16
        object.optionalInt32.value = -32
        object.optionalInt64.value = .min
        object.optionalFloat.value = 0.5
        object.optionalDouble.value = -0.25
        object.optionalString = "s"
        object.optionalData = Data([1])
        object.optionalDate = date
        object.optionalObjectId = id
        object.persistedOptionalBool = true
        object.persistedOptionalInt = 2
        object.persistedOptionalInt8 = 8
        object.persistedOptionalInt16 = -16
        object.persistedOptionalInt32 = 32
        object.persistedOptionalInt64 = 64
        object.persistedOptionalFloat = 1.5
        object.persistedOptionalDouble = 2.25
        try realm.write { realm.add(object) }

        let read = try #require(realm.objects(SeedCheatsheet.self).first)
        #expect(read.boolValue == true)
        #expect(read.intValue == -42)
        #expect(read.int8Value == .max)
        #expect(read.int16Value == .min)
        #expect(read.int32Value == 123_456)
        #expect(read.int64Value == .max)
        #expect(read.floatValue == 2.5)
        #expect(read.doubleValue == 1e300)
        #expect(read.stringValue == "ünïcödé")
        #expect(read.dataValue == Data([0, 255, 7]))
        #expect(read.dateValue == date)
        #expect(read.objectIdValue == id)
        #expect(read.objectValue?.name == "linked")
        #expect(read.listValue.map(\.name) == ["listed"])
        #expect(read.listValue.first?.listedIn.count == 1)
        #expect(read.optionalBool.value == false)
        #expect(read.optionalInt.value == 1)
        #expect(read.optionalInt8.value == -8)
        #expect(read.optionalInt16.value == 16)
        #expect(read.optionalInt32.value == -32)
        #expect(read.optionalInt64.value == .min)
        #expect(read.optionalFloat.value == 0.5)
        #expect(read.optionalDouble.value == -0.25)
        #expect(read.optionalString == "s")
        #expect(read.optionalData == Data([1]))
        #expect(read.optionalDate == date)
        #expect(read.optionalObjectId == id)
        #expect(read.persistedOptionalBool == true)
        #expect(read.persistedOptionalInt == 2)
        #expect(read.persistedOptionalInt8 == 8)
        #expect(read.persistedOptionalInt16 == -16)
        #expect(read.persistedOptionalInt32 == 32)
        #expect(read.persistedOptionalInt64 == 64)
        #expect(read.persistedOptionalFloat == 1.5)
        #expect(read.persistedOptionalDouble == 2.25)

        // Every optional can be emptied again.
        try realm.write {
            read.objectValue = nil
            read.optionalBool.value = nil
            read.optionalInt.value = nil
            read.optionalInt8.value = nil
            read.optionalInt16.value = nil
            read.optionalInt32.value = nil
            read.optionalInt64.value = nil
            read.optionalFloat.value = nil
            read.optionalDouble.value = nil
            read.optionalString = nil
            read.optionalData = nil
            read.optionalDate = nil
            read.optionalObjectId = nil
            read.persistedOptionalBool = nil
            read.persistedOptionalInt = nil
            read.persistedOptionalInt8 = nil
            read.persistedOptionalInt16 = nil
            read.persistedOptionalInt32 = nil
            read.persistedOptionalInt64 = nil
            read.persistedOptionalFloat = nil
            read.persistedOptionalDouble = nil
        }
        // Seen through the first instance: objects are live.
        #expect(object.objectValue == nil)
        #expect(object.optionalBool.value == nil)
        #expect(object.optionalInt.value == nil)
        #expect(object.optionalInt8.value == nil)
        #expect(object.optionalInt16.value == nil)
        #expect(object.optionalInt32.value == nil)
        #expect(object.optionalInt64.value == nil)
        #expect(object.optionalFloat.value == nil)
        #expect(object.optionalDouble.value == nil)
        #expect(object.optionalString == nil)
        #expect(object.optionalData == nil)
        #expect(object.optionalDate == nil)
        #expect(object.optionalObjectId == nil)
        #expect(object.persistedOptionalBool == nil)
        #expect(object.persistedOptionalInt == nil)
        #expect(object.persistedOptionalInt8 == nil)
        #expect(object.persistedOptionalInt16 == nil)
        #expect(object.persistedOptionalInt32 == nil)
        #expect(object.persistedOptionalInt64 == nil)
        #expect(object.persistedOptionalFloat == nil)
        #expect(object.persistedOptionalDouble == nil)
        // The linked object itself is still there.
        #expect(realm.objects(SeedCheatsheetTarget.self).count == 2)
    }

    @Test func optionalsDefaultToNil() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write { realm.add(SeedCheatsheet()) }
        let read = try #require(realm.objects(SeedCheatsheet.self).first)
        #expect(read.objectValue == nil)
        #expect(read.optionalBool.value == nil)
        #expect(read.optionalInt64.value == nil)
        #expect(read.optionalFloat.value == nil)
        #expect(read.optionalString == nil)
        #expect(read.optionalData == nil)
        #expect(read.optionalDate == nil)
        #expect(read.persistedOptionalInt == nil)
        #expect(read.persistedOptionalDouble == nil)
        #expect(read.stringValue == "")
        #expect(read.dataValue == Data())
        #expect(read.listValue.isEmpty)
    }

    /// "Object properties must be optional": a model with a required link
    /// cannot be declared (`@Persisted var owner: Person` does not satisfy
    /// the model rules), which the schema reports naming the property.
    @Test func aRequiredLinkIsAnInvalidModel() throws {
        let error = #expect(throws: Realm.Error.self) {
            _ = try Realm(configuration: inMemoryConfiguration(types: [SeedRequiredLink.self]))
        }
        #expect(error?.message.contains("SeedRequiredLink.owner") == true)
    }

    // MARK: Primary keys

    @Test func primaryKeys() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            realm.add(SeedKeyedPerson(value: ["id": 1, "name": "Ann"]))
            realm.add(SeedKeyedPerson(value: ["id": 2, "name": "Bob"]))
        }
        #expect(realm.schema["SeedKeyedPerson"]?.primaryKeyProperty?.name == "id")
        #expect(realm.object(ofType: SeedKeyedPerson.self, forPrimaryKey: 2)?.name == "Bob")
        #expect(realm.object(ofType: SeedKeyedPerson.self, forPrimaryKey: 3) == nil)
        // Uniqueness: the throwing add refuses a taken key.
        realm.beginWrite()
        let error = #expect(throws: Realm.Error.self) {
            try realm.add(SeedKeyedPerson(value: ["id": 1, "name": "Another Ann"]), update: .error)
        }
        realm.cancelWrite()
        #expect(error?.code == .duplicatePrimaryKey)
        #expect(realm.object(ofType: SeedKeyedPerson.self, forPrimaryKey: 1)?.name == "Ann")
    }

    @Test func addingADuplicatePrimaryKeyStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "duplicate"))
            try! realm.write {
                realm.add(SeedKeyedPerson(value: ["id": 1, "name": "Ann"]))
                realm.add(SeedKeyedPerson(value: ["id": 1, "name": "Bob"]))
            }
        }
        #expect(seedStandardError(result).contains("primary key"))
    }

    /// "Once an object with a primary key is added to a Realm, the primary
    /// key cannot be changed."
    @Test func changingAPrimaryKeyStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "pk"))
            let person = SeedKeyedPerson(value: ["id": 1, "name": "Ann"])
            try! realm.write { realm.add(person) }
            try! realm.write { person.id = 2 }
        }
        #expect(seedStandardError(result).contains("SeedKeyedPerson.id"))
    }

    /// Seed 004's Project: find, update and upsert by primary key.
    @Test func projectsByPrimaryKey() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            realm.add(SeedProject(value: ["id": 1, "name": "Build"]))
            realm.add(SeedProject(value: ["id": 1, "name": "Rebuild"]), update: true)
            realm.add(SeedProject(value: ["id": 2, "name": "Ship"]), update: true)
        }
        #expect(realm.objects(SeedProject.self).count == 2)
        #expect(realm.object(ofType: SeedProject.self, forPrimaryKey: 1)?.name == "Rebuild")
    }

    // MARK: Indexes

    @Test func indexedProperties() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [SeedIndexedBook.self, SeedIndexedTypes.self]))
        #expect(realm.schema["SeedIndexedBook"]?["title"]?.isIndexed == true)
        #expect(realm.schema["SeedIndexedBook"]?["price"]?.isIndexed == false)
        let types = try #require(realm.schema["SeedIndexedTypes"])
        for name in ["string", "int", "int8", "bool", "date", "objectId"] {
            #expect(types[name]?.isIndexed == true, "\(name)")
        }
        try realm.write {
            realm.add(SeedIndexedBook(value: [10, "Cheese"]))
            realm.add(SeedIndexedBook(value: [20, "Bread"]))
        }
        #expect(realm.objects(SeedIndexedBook.self).filter("title == 'Bread'").first?.price == 20)
    }

    @Test func anIndexOnADoubleIsAnInvalidModel() throws {
        let error = #expect(throws: Realm.Error.self) {
            _ = try Realm(configuration: inMemoryConfiguration(types: [SeedIndexedDouble.self]))
        }
        #expect(error?.message.contains("SeedIndexedDouble.weight") == true)
    }

    // MARK: Ignored properties

    @Test func ignoredAndReadOnlyPropertiesAreNotStored() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [IgnoringPerson.self, SeedIgnoringPerson.self]))
        #expect(realm.schema["IgnoringPerson"]?.properties.map(\.name) == ["firstName", "lastName"])
        #expect(realm.schema["SeedIgnoringPerson"]?.properties.map(\.name) == ["firstName", "lastName"])

        let person = IgnoringPerson()
        person.tmpID = 7
        person.firstName = "Ada"
        person.lastName = "Lovelace"
        #expect(person.tmpID == 7)
        #expect(person.name == "Ada Lovelace")
        try realm.write { realm.add(person) }
        #expect(person.name == "Ada Lovelace")
        let read = try #require(realm.objects(IgnoringPerson.self).first)
        try realm.write { read.firstName = "Augusta" }
        #expect(person.name == "Augusta Lovelace")
    }

    /// "Ignored properties behave exactly like normal properties … they'll
    /// be backed by ivars": on a managed object too, without a write
    /// transaction. (In a child process: the current build stops here.)
    @Test func ignoredPropertiesWorkOnManagedObjects() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "ignored"))
            let person = IgnoringPerson()
            person.tmpID = 7
            try! realm.write { realm.add(person) }
            person.tmpID = 8
            seedCheck(person.tmpID == 8, "an ignored property keeps its value on a managed object")
        }
        #expect(!seedStandardError(result).contains("seed check failed"), "\(seedStandardError(result))")
    }

    // MARK: Default values (seed 001)

    @Test func defaultPropertyValues() throws {
        let book = SeedDefaultsBook()
        #expect(book.author == "Anonymous")
        #expect(book.pages == 100)
        #expect(book.subtitle == "none")
        #expect(book.rating.value == 3)

        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            realm.add(SeedDefaultsBook())
            // Values not given take the defaults, "every time an object is created".
            realm.create(SeedDefaultsBook.self, value: ["title": "Given"])
        }
        let given = try #require(realm.objects(SeedDefaultsBook.self).filter("title == 'Given'").first)
        #expect(given.author == "Anonymous")
        #expect(given.pages == 100)
        #expect(given.subtitle == "none")
        #expect(given.rating.value == 3)
        #expect(realm.objects(SeedDefaultsBook.self).filter("author == 'Anonymous'").count == 2)
    }

    // MARK: Auto-updating objects

    @Test func autoUpdatingObjects() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let myDog = Dog()
        myDog.name = "Fido"
        myDog.age = 1

        try realm.write {
            realm.add(myDog)
        }

        let myPuppy = realm.objects(Dog.self).filter("age == 1").first
        try realm.write {
            myPuppy!.age = 2
        }

        #expect(myDog.age == 2)  // "age of my dog: 2"
        // Inside the transaction already, before the commit.
        realm.beginWrite()
        myDog.name = "Rex"
        #expect(myPuppy!.name == "Rex")
        try realm.commitWrite()
        #expect(myPuppy!.name == "Rex")
    }

    // MARK: Model inheritance

    @Test func subclassesInheritPropertiesAndMethods() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [SeedCat.self, SeedAnimal.self]))
        #expect(realm.schema["SeedCat"]?.properties.map(\.name) == ["age", "name"])
        #expect(realm.schema["SeedAnimal"]?.properties.map(\.name) == ["age"])

        // Methods and functions that take parent classes as arguments can
        // operate on subclasses.
        func ageOf(_ animal: SeedAnimal) -> Int { animal.age }
        let cat = SeedCat(value: ["age": 1, "name": "Tom"])
        #expect(ageOf(cat) == 1)
        #expect(!cat.isAdult)
        try realm.write {
            realm.add(cat)
            cat.celebrateBirthday()
        }
        #expect(ageOf(cat) == 2)
        #expect(cat.isAdult)
        #expect(realm.objects(SeedCat.self).first?.age == 2)
        // No polymorphic queries: the parent's table does not hold subclasses.
        #expect(realm.objects(SeedAnimal.self).isEmpty)
    }

    @Test func compositionInsteadOfInheritance() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        // Usage
        let duck = SeedDuck(value: [ "animal": [ "age": 3 ], "name": "Gustav" ])
        #expect(duck.animal?.age == 3)
        let frog = SeedFrog(value: ["animal": ["age": 1]])
        try realm.write {
            realm.add(duck)
            realm.add(frog)
        }
        #expect(realm.objects(SeedDuck.self).first?.animal?.age == 3)
        #expect(realm.objects(SeedDuck.self).first?.name == "Gustav")
        #expect(realm.objects(SeedFrog.self).first?.animal?.age == 1)
        #expect(realm.objects(SeedAnimal.self).count == 2)
    }
}

/// A model with a required (non-optional) link, which the seeds forbid.
final class SeedRequiredLink: Object {
    @Persisted var owner: SeedRequiredLinkTarget = SeedRequiredLinkTarget()
}

final class SeedRequiredLinkTarget: Object {
    @Persisted var name = ""
}
