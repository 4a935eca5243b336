import Foundation
import RealmObjects
import Testing

// Seed 004 (the newer object-schema page): ObjectId primary keys,
// Int-backed enums (`@objc enum …: Int, RealmEnum` becomes
// `enum …: Int, PersistableEnum`, `RealmEnum` being an alias), and
// EmbeddedObject with cascading deletes. Its Person, Project, Book and
// ignored-property samples are in SeedModelsTests, its relationships in
// SeedCollectionsTests.
//
// Skipped: the `_partition` key's meaning (sync, out of scope for issue #3).

// A dog has an _id primary key, a string name, an optional
// string breed, and a date of birth.
final class SeedObjectIdDog: Object {
    @Persisted var _id = ObjectId.generate()
    @Persisted var name = ""
    @Persisted var breed: String?
    @Persisted var dateOfBirth = Date()
    override static func primaryKey() -> String? {
        return "_id"
    }
}

// Define the enum
enum SeedTaskStatusEnum: Int, RealmEnum {
    case notStarted = 1
    case inProgress = 2
    case complete = 3
}

// To use the enum:
final class SeedEnumTask: Object {
    @Persisted var name: String = ""
    @Persisted var owner: String?
    // Required enum property
    @Persisted var status = SeedTaskStatusEnum.notStarted
    // Optional enum property
    let optionalTaskStatusEnumProperty = RealmOptional<SeedTaskStatusEnum>()
    // The newer spelling of an optional enum.
    @Persisted var priority: SeedPriority?
}

enum SeedPriority: Int, PersistableEnum {
    case low = 10
    case high = 20
}

// Define an embedded object
final class SeedEmbeddedAddress: EmbeddedObject {
    @Persisted var street: String?
    @Persisted var city: String?
    @Persisted var country: String?
    @Persisted var postalCode: String?
}

// Define an object with one embedded object
final class SeedEmbeddedContact: Object {
    @Persisted var _id = ObjectId.generate()
    @Persisted var name = ""
    // Embed a single object.
    // Embedded object properties must be marked optional.
    @Persisted var address: SeedEmbeddedAddress?
    override static func primaryKey() -> String? {
        return "_id"
    }
    convenience init(name: String, address: SeedEmbeddedAddress) {
        self.init()
        self.name = name
        self.address = address
    }
}

// Define an object with an array of embedded objects
final class SeedBusiness: Object {
    @Persisted var name = ""
    let addresses = List<SeedEmbeddedAddress>() // Embed an array of objects
    convenience init(name: String, addresses: [SeedEmbeddedAddress]) {
        self.init()
        self.name = name
        self.addresses.append(objectsIn: addresses)
    }
}

/// An address with its street and city.
private func address(_ street: String, _ city: String) -> SeedEmbeddedAddress {
    SeedEmbeddedAddress(value: ["street": street, "city": city])
}

@Suite struct SeedEmbeddedAndEnumTests {
    /// The number of stored embedded addresses at the newest version, read
    /// through RealmCore (embedded classes cannot be queried on their own).
    func storedAddresses(_ realm: Realm) -> Int {
        let configuration = realm.configuration
        let core: Coordinator.Configuration = configuration.inMemoryIdentifier.map { .inMemory($0) }
            ?? .file(configuration.fileURL!.path)
        do {
            let transaction = try Coordinator.open(core).makeTransaction()
            return try transaction.count(of: transaction.classHandle(named: "SeedEmbeddedAddress"))
        } catch {
            Issue.record("cannot count the stored addresses: \(error)")
            return -1
        }
    }

    // MARK: ObjectId

    @Test func objectIdPrimaryKeys() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let rex = SeedObjectIdDog(value: ["name": "Rex"])
        let fido = SeedObjectIdDog(value: ["name": "Fido", "breed": "Beagle"])
        #expect(rex._id != fido._id)
        try realm.write { realm.add([rex, fido]) }
        #expect(realm.schema["SeedObjectIdDog"]?.primaryKeyProperty?.type == .objectId)
        let found = try #require(realm.object(ofType: SeedObjectIdDog.self, forPrimaryKey: fido._id))
        #expect(found.name == "Fido")
        #expect(found.breed == "Beagle")
        #expect(rex.breed == nil)
        // An ObjectId survives its string form.
        let text = rex._id.stringValue
        #expect(ObjectId(string: text) == rex._id)
        #expect(realm.object(ofType: SeedObjectIdDog.self, forPrimaryKey: ObjectId(string: text)!)?.name == "Rex")
        // Upsert by ObjectId.
        try realm.write {
            realm.create(SeedObjectIdDog.self, value: ["_id": rex._id, "breed": "Collie"], update: true)
        }
        #expect(rex.breed == "Collie")
        #expect(rex.name == "Rex")
        #expect(realm.objects(SeedObjectIdDog.self).count == 2)
    }

    // MARK: Enums

    @Test func intBackedEnums() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let task = SeedEnumTask()
        #expect(task.status == .notStarted)
        #expect(task.optionalTaskStatusEnumProperty.value == nil)
        task.name = "Write the seed tests"
        task.status = .inProgress
        try realm.write { realm.add(task) }
        #expect(realm.objects(SeedEnumTask.self).first?.status == .inProgress)
        #expect(realm.objects(SeedEnumTask.self).first?.optionalTaskStatusEnumProperty.value == nil)

        try realm.write {
            task.status = .complete
            task.optionalTaskStatusEnumProperty.value = .inProgress
            task.priority = .high
        }
        let read = try #require(realm.objects(SeedEnumTask.self).first)
        #expect(read.status == .complete)
        #expect(read.optionalTaskStatusEnumProperty.value == .inProgress)
        #expect(read.priority == .high)
        try realm.write {
            read.optionalTaskStatusEnumProperty.value = nil
            read.priority = nil
        }
        #expect(task.optionalTaskStatusEnumProperty.value == nil)
        #expect(task.priority == nil)

        // Stored as their Int raw values.
        let schema = try #require(realm.schema["SeedEnumTask"])
        #expect(schema["status"]?.type == .int)
        #expect(schema["status"]?.isOptional == false)
        #expect(schema["optionalTaskStatusEnumProperty"]?.type == .int)
        #expect(schema["optionalTaskStatusEnumProperty"]?.isOptional == true)
        #expect(realm.objects(SeedEnumTask.self).filter("status == %@", SeedTaskStatusEnum.complete.rawValue).count == 1)
        // Dynamic access, which knows only the stored schema, reads the raw value.
        #expect(realm.dynamicObjects("SeedEnumTask").first?["status"] as? Int == 3)
    }

    @Test func enumsFromRawValues() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            realm.create(SeedEnumTask.self, value: ["name": "a", "status": 3, "optionalTaskStatusEnumProperty": 2, "priority": 10])
            realm.create(SeedEnumTask.self, value: ["name": "b", "status": SeedTaskStatusEnum.inProgress])
        }
        let a = try #require(realm.objects(SeedEnumTask.self).filter("name == 'a'").first)
        #expect(a.status == .complete)
        #expect(a.optionalTaskStatusEnumProperty.value == .inProgress)
        #expect(a.priority == .low)
        #expect(realm.objects(SeedEnumTask.self).filter("name == 'b'").first?.status == .inProgress)
    }

    /// A raw value that is no case is a value of the wrong type: an error
    /// naming the property. (In a child process: the current build stops.)
    @Test func aRawValueThatIsNoCaseIsAnError() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "enum"))
            realm.beginWrite()
            do {
                try realm.create(SeedEnumTask.self, value: ["name": "c", "status": 7], update: .error)
                seedCheck(false, "raw value 7 was accepted")
            } catch let error as Realm.Error {
                seedCheck(error.message.contains("SeedEnumTask.status"), "the error names the property: \(error)")
            } catch {
                seedCheck(false, "unexpected error \(error)")
            }
            realm.cancelWrite()
        }
        #expect(!seedStandardError(result).contains("seed check failed"), "\(seedStandardError(result))")
    }

    // MARK: Embedded objects

    @Test func embeddedObjectsLiveInTheirParent() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let contact = SeedEmbeddedContact(name: "Nick", address: address("123 Fake St", "Springfield"))
        try realm.write { realm.add(contact) }
        #expect(contact.address?.street == "123 Fake St")
        #expect(contact.address?.realm == realm)
        #expect(storedAddresses(realm) == 1)

        // Modifying the embedded object in place.
        try realm.write { contact.address?.country = "USA" }
        #expect(realm.objects(SeedEmbeddedContact.self).first?.address?.country == "USA")

        // From nested dictionaries too.
        try realm.write {
            realm.create(SeedEmbeddedContact.self, value: ["name": "Ann", "address": ["city": "Oslo", "postalCode": "0150"]])
        }
        let ann = try #require(realm.objects(SeedEmbeddedContact.self).filter("name == 'Ann'").first)
        #expect(ann.address?.postalCode == "0150")
        #expect(ann.address?.street == nil)
        #expect(storedAddresses(realm) == 2)
    }

    /// "An embedded object exists as nested data inside of a single,
    /// specific parent object": a managed one cannot be given to a second
    /// parent (an error the commit throws, as Realm refuses it); `create`
    /// copies it instead.
    @Test func anEmbeddedObjectHasOneParent() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let nick = SeedEmbeddedContact(name: "Nick", address: address("1 Main St", "Springfield"))
        let ann = SeedEmbeddedContact(value: ["name": "Ann"])
        let business = SeedBusiness()
        business.name = "Shop"
        try realm.write { realm.add([nick, ann]); realm.add(business) }

        let error = #expect(throws: Realm.Error.self) {
            try realm.write { ann.address = nick.address }
        }
        #expect(error?.message.contains("embedded") == true)
        #expect(ann.address == nil)
        #expect(throws: Realm.Error.self) {
            try realm.write { business.addresses.append(nick.address!) }
        }
        #expect(business.addresses.isEmpty)
        #expect(storedAddresses(realm) == 1)

        // A copy made with create is a new embedded object of its own.
        let copy = try realm.write { realm.create(SeedEmbeddedContact.self, value: ["name": "Copy", "address": nick.address!]) }
        #expect(copy.address?.street == "1 Main St")
        #expect(copy.address?.isSameObject(as: nick.address!) == false)
        #expect(storedAddresses(realm) == 2)
    }

    /// "Realm automatically deletes embedded objects if their parent object
    /// is deleted or when overwritten by a new embedded object instance."
    @Test func cascadingDeletes() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let contact = SeedEmbeddedContact(name: "Nick", address: address("1 Main St", "Springfield"))
        try realm.write { realm.add(contact) }
        let first = try #require(contact.address)

        // Overwritten by a new instance: the old one is deleted.
        try realm.write { contact.address = address("2 High St", "Shelbyville") }
        #expect(first.isInvalidated)
        #expect(contact.address?.street == "2 High St")
        #expect(storedAddresses(realm) == 1)

        // Set to nil: deleted.
        try realm.write { contact.address = nil }
        #expect(storedAddresses(realm) == 0)

        // The parent deleted: deleted with it.
        try realm.write { contact.address = address("3 Low Rd", "Ogdenville") }
        let third = try #require(contact.address)
        try realm.write { realm.delete(contact) }
        #expect(third.isInvalidated)
        #expect(storedAddresses(realm) == 0)
    }

    @Test func listsOfEmbeddedObjects() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let business = SeedBusiness(name: "Mom and Pop", addresses: [
            address("1 Main St", "Springfield"), address("2 Main St", "Springfield"), address("3 Main St", "Springfield"),
        ])
        try realm.write { realm.add(business) }
        #expect(business.addresses.map { $0.street ?? "" } == ["1 Main St", "2 Main St", "3 Main St"])
        #expect(storedAddresses(realm) == 3)

        // Removed from the list: deleted.
        try realm.write { business.addresses.remove(at: 0) }
        #expect(storedAddresses(realm) == 2)
        #expect(business.addresses.first?.street == "2 Main St")

        try realm.write { business.addresses.append(address("4 Main St", "Springfield")) }
        #expect(storedAddresses(realm) == 3)

        // The parent deleted: every embedded object goes with it.
        try realm.write { realm.delete(business) }
        #expect(storedAddresses(realm) == 0)
    }

    @Test func deleteAllDeletesEmbeddedObjects() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            realm.add(SeedBusiness(name: "a", addresses: [address("1", "x")]))
            realm.add(SeedEmbeddedContact(name: "b", address: address("2", "y")))
        }
        #expect(storedAddresses(realm) == 2)
        try realm.write { realm.deleteAll() }
        #expect(storedAddresses(realm) == 0)
    }

    /// "It … cannot exist as an independent Realm object."
    @Test func anEmbeddedObjectCannotBeAddedOnItsOwn() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "embedded"))
            try! realm.write {
                realm.add(SeedEmbeddedAddress(value: ["street": "Nowhere"]))
            }
        }
        #expect(seedStandardError(result).contains("SeedEmbeddedAddress"))
    }

    @Test func anEmbeddedObjectCannotBeQueriedOnItsOwn() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "embedded"))
            _ = realm.objects(SeedEmbeddedAddress.self).count
        }
        #expect(seedStandardError(result).contains("SeedEmbeddedAddress"))
    }

    @Test func embeddedObjectsCopyBetweenRealms() throws {
        let source = try Realm(configuration: inMemoryConfiguration("source"))
        let destination = try Realm(configuration: inMemoryConfiguration("destination"))
        let contact = SeedEmbeddedContact(name: "Nick", address: address("1 Main St", "Springfield"))
        try source.write { source.add(contact) }
        // The throwing variant, so that a failure is reported, not a stop.
        try destination.write { try destination.create(SeedEmbeddedContact.self, value: contact, update: .error) }
        let copy = try #require(destination.objects(SeedEmbeddedContact.self).first)
        #expect(copy.address?.street == "1 Main St")
        #expect(copy._id == contact._id)
        #expect(storedAddresses(destination) == 1)
        #expect(storedAddresses(source) == 1)
    }
}
