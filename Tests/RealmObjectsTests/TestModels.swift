import Foundation
import RealmObjects

// The seeds' models, in the Linux spelling (@Persisted for @objc dynamic).

final class Dog: Object {
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var owner: Person?
    let owners = LinkingObjects(fromType: Person.self, property: "dogs")
}

final class Person: Object {
    @Persisted var name = ""
    @Persisted var birthdate = Date(timeIntervalSince1970: 1)
    @Persisted var picture: Data? = nil
    let dogs = List<Dog>()
    let age = RealmOptional<Int>()
}

final class Book: Object {
    @Persisted var id = 0
    @Persisted var title = ""
    @Persisted var price = 0.0

    override static func primaryKey() -> String? { "id" }
    override static func indexedProperties() -> [String] { ["title"] }
}

final class City: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var population: Int? = nil
}

final class IgnoringPerson: Object {
    @Persisted var tmpID = 0
    var name: String { "\(firstName) \(lastName)" }
    @Persisted var firstName = ""
    @Persisted var lastName = ""

    override static func ignoredProperties() -> [String] { ["tmpID"] }
}

enum TaskStatus: Int, PersistableEnum {
    case notStarted = 1
    case inProgress = 2
    case complete = 3
}

/// Every property type of the cheatsheet, required and optional.
final class AllTypes: Object {
    @Persisted var bool = false
    @Persisted var int = 0
    @Persisted var int8: Int8 = 0
    @Persisted var int16: Int16 = 0
    @Persisted var int32: Int32 = 0
    @Persisted var int64: Int64 = 0
    @Persisted var float: Float = 0
    @Persisted var double: Double = 0
    @Persisted var string = ""
    @Persisted var data = Data()
    @Persisted var date = Date(timeIntervalSince1970: 0)
    @Persisted var objectId = ObjectId(string: "000000000000000000000000")!
    @Persisted var uuid = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
    @Persisted var decimal: Decimal = 0
    @Persisted var status = TaskStatus.notStarted

    @Persisted var optionalBool: Bool?
    @Persisted var optionalInt: Int?
    @Persisted var optionalFloat: Float?
    @Persisted var optionalDouble: Double?
    @Persisted var optionalString: String?
    @Persisted var optionalData: Data?
    @Persisted var optionalDate: Date?
    @Persisted var optionalObjectId: ObjectId?
    @Persisted var optionalUUID: UUID?
    @Persisted var optionalStatus: TaskStatus?

    let realmOptionalInt = RealmOptional<Int>()
    let realmOptionalDouble = RealmOptional<Double>()
    let realmOptionalBool = RealmOptional<Bool>()

    let ints = List<Int>()
    let optionalStrings = List<String?>()
    let dates = List<Date>()
}

final class Address: EmbeddedObject {
    @Persisted var street = ""
    @Persisted var city = ""
}

final class Contact: Object {
    @Persisted(primaryKey: true) var _id = ObjectId.generate()
    @Persisted var name = ""
    @Persisted var address: Address?
    let previousAddresses = List<Address>()
}

class Animal: Object {
    @Persisted var age = 0
}

final class Duck: Object {
    @Persisted var animal: Animal? = nil
    @Persisted var name = ""
}

final class Frog: Animal {
    @Persisted var dateProp = Date(timeIntervalSince1970: 0)
}

/// A fresh in-memory configuration, so that tests do not share data.
func inMemoryConfiguration(_ name: String = #function, types: [Object.Type]? = nil) -> Realm.Configuration {
    Realm.Configuration(inMemoryIdentifier: "\(name)-\(UUID().uuidString)", objectTypes: types)
}

/// A temporary directory removed when released.
final class TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("realm-objects-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func file(_ name: String = "test.realm") -> URL {
        url.appendingPathComponent(name)
    }
}

/// This thread's Realm for `configuration`. (Named `Realm(configuration:)`
/// in an asynchronous function, Swift picks the main actor's asynchronous
/// initializer, as Realm Swift's does.)
func realmOnThisThread(_ configuration: Realm.Configuration) throws -> Realm {
    try Realm(configuration: configuration)
}
