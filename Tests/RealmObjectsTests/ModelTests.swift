import Foundation
import RealmObjects
import Testing

/// Seed 000 "Models" and seed 004: property types, required and optional
/// values, primary keys, indexes, ignored properties, enums, embedded
/// objects, inheritance.
@Suite struct ModelTests {
    @Test func schemaIsDiscoveredInDeclarationOrder() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [Person.self]))
        let person = try #require(realm.schema["Person"])
        #expect(person.properties.map(\.name) == ["name", "birthdate", "picture", "dogs", "age"])
        #expect(person["picture"]?.isOptional == true)
        #expect(person["dogs"]?.isList == true)
        #expect(person["dogs"]?.objectClassName == "Dog")
        #expect(person["age"]?.type == .int)
        #expect(person["age"]?.isOptional == true)
        // Linked classes are registered with the class that links to them.
        let dog = try #require(realm.schema["Dog"])
        #expect(dog["owners"]?.type == .linkingObjects)
        #expect(dog["owner"]?.isOptional == true)
    }

    @Test func everyPropertyTypeRoundTrips() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let object = AllTypes()
        let date = Date(timeIntervalSinceReferenceDate: 123_456.789)
        let id = ObjectId.generate()
        let uuid = UUID()
        object.bool = true
        object.int = Int.max
        object.int8 = Int8.min
        object.int16 = 300
        object.int32 = -70_000
        object.int64 = Int64.min
        object.float = 1.25
        object.double = .pi
        object.string = "héllo 🐶"
        object.data = Data([1, 2, 3])
        object.date = date
        object.objectId = id
        object.uuid = uuid
        object.decimal = Decimal(string: "12345.6789")!
        object.status = .inProgress
        object.optionalInt = 5
        object.optionalString = "x"
        object.optionalStatus = .complete
        object.realmOptionalInt.value = 7
        object.ints.append(objectsIn: [1, 2, 3])
        object.optionalStrings.append(objectsIn: ["a", nil])
        object.dates.append(date)
        try realm.write { realm.add(object) }

        let read = try #require(realm.objects(AllTypes.self).first)
        #expect(read.bool == true)
        #expect(read.int == Int.max)
        #expect(read.int8 == Int8.min)
        #expect(read.int16 == 300)
        #expect(read.int32 == -70_000)
        #expect(read.int64 == Int64.min)
        #expect(read.float == 1.25)
        #expect(read.double == .pi)
        #expect(read.string == "héllo 🐶")
        #expect(read.data == Data([1, 2, 3]))
        #expect(read.date == date)
        #expect(read.objectId == id)
        #expect(read.uuid == uuid)
        #expect(read.decimal == Decimal(string: "12345.6789")!)
        #expect(read.status == .inProgress)
        #expect(read.optionalBool == nil)
        #expect(read.optionalInt == 5)
        #expect(read.optionalString == "x")
        #expect(read.optionalData == nil)
        #expect(read.optionalStatus == .complete)
        #expect(read.realmOptionalInt.value == 7)
        #expect(read.realmOptionalDouble.value == nil)
        #expect(Array(read.ints) == [1, 2, 3])
        #expect(Array(read.optionalStrings) == ["a", nil])
        #expect(Array(read.dates) == [date])

        try realm.write {
            read.optionalInt = nil
            read.realmOptionalInt.value = nil
            read.optionalStatus = nil
        }
        #expect(object.optionalInt == nil)
        #expect(object.realmOptionalInt.value == nil)
        #expect(object.optionalStatus == nil)
    }

    @Test func requiredAndOptionalProperties() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            let person = realm.create(Person.self, value: ["Jane", Date(timeIntervalSince1970: 1), nil, [], 27] as [Any?])
            #expect(person.age.value == 27)
            person.age.value = 28
        }
        #expect(realm.objects(Person.self).first?.age.value == 28)
    }

    @Test func primaryKeysAndIndexesInTheSchema() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [Book.self, City.self]))
        #expect(realm.schema["Book"]?.primaryKeyProperty?.name == "id")
        #expect(realm.schema["Book"]?["title"]?.isIndexed == true)
        #expect(realm.schema["City"]?.primaryKeyProperty?.name == "id")
    }

    @Test func ignoredAndComputedPropertiesAreNotStored() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [IgnoringPerson.self]))
        let schema = try #require(realm.schema["IgnoringPerson"])
        #expect(schema.properties.map(\.name) == ["firstName", "lastName"])
        let person = IgnoringPerson()
        person.firstName = "Ada"
        person.lastName = "Lovelace"
        person.tmpID = 5
        try realm.write { realm.add(person) }
        #expect(person.name == "Ada Lovelace")
    }

    /// The number of stored objects of a class, read through RealmCore
    /// (embedded classes cannot be queried through the SDK).
    func storedCount(_ className: String, in realm: Realm) throws -> Int {
        let transaction = try Coordinator.open(.file(realm.configuration.fileURL!.path)).makeTransaction()
        return try transaction.count(of: transaction.classHandle(named: className))
    }

    @Test func embeddedObjectsAreDeletedWithTheirParent() throws {
        let directory = TemporaryDirectory()
        let realm = try Realm(configuration: Realm.Configuration(fileURL: directory.file()))
        let contact = Contact()
        contact.name = "Tim"
        contact.address = Address(value: ["street": "Main St", "city": "Springfield"])
        contact.previousAddresses.append(Address(value: ["Old Rd", "Shelbyville"]))
        try realm.write { realm.add(contact) }

        #expect(contact.address?.street == "Main St")
        #expect(contact.previousAddresses.first?.city == "Shelbyville")
        #expect(try storedCount("Address", in: realm) == 2)

        // Replacing an embedded object deletes the old one.
        try realm.write { contact.address = Address(value: ["street": "High St"]) }
        #expect(try storedCount("Address", in: realm) == 2)
        #expect(contact.address?.street == "High St")

        try realm.write { realm.delete(contact) }
        #expect(try storedCount("Address", in: realm) == 0)
    }

    @Test func inheritedPropertiesComeFirst() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [Frog.self, Duck.self]))
        #expect(realm.schema["Frog"]?.properties.map(\.name) == ["age", "dateProp"])
        let duck = Duck(value: ["animal": ["age": 3], "name": "Gustav"])
        try realm.write { realm.add(duck) }
        #expect(realm.objects(Duck.self).first?.animal?.age == 3)
        #expect(realm.objects(Animal.self).count == 1)
    }

    @Test func unmanagedObjectsArePlainObjects() {
        let person = Person(value: ["name": "Jane", "dogs": [["name": "Rex", "age": 2]]])
        #expect(person.name == "Jane")
        #expect(person.dogs.count == 1)
        #expect(person.dogs[0].name == "Rex")
        #expect(person.realm == nil)
        #expect(person.isInvalidated == false)
        person.name = "Janet"
        #expect(person["name"] as? String == "Janet")
        person["name"] = "Jo"
        #expect(person.name == "Jo")
        let copy = Person(value: person)
        #expect(copy.name == "Jo")
        #expect(copy.dogs.count == 1)
    }
}
