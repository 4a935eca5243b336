import Foundation
import RealmCore
import Testing

/// Schema validation, diffs, the catalog stored in the file, and opening a
/// file whose schema differs.
@Suite struct SchemaTests {
    @Test func validationListsEveryProblemWithNames() throws {
        let schema = Schema([
            ObjectSchema(name: String(repeating: "C", count: 58), properties: []),
            ObjectSchema(name: "Bad", properties: [
                Property(name: String(repeating: "p", count: 64), type: .int),
                Property(name: "owner", type: .object, objectClassName: "Person"),
                Property(name: "ghost", type: .object, isOptional: true, objectClassName: "Ghost"),
                Property(name: "price", type: .double, isPrimaryKey: true),
                Property(name: "blob", type: .data, isIndexed: true),
                Property(name: "a.b", type: .int),
                Property(name: "_key", type: .int),
                Property(name: "twice", type: .int),
                Property(name: "twice", type: .string),
                Property(name: "backlinks", type: .linkingObjects, objectClassName: "Bad", linkOriginPropertyName: "nothing"),
            ]),
            ObjectSchema(name: "Person", properties: []),
            ObjectSchema(name: "Address", properties: [Property(name: "id", type: .int, isPrimaryKey: true)], isEmbedded: true),
        ])
        let error = #expect(throws: RealmError.self) { try schema.validate() }
        #expect(error?.kind == .invalidSchema)
        let message = error?.message ?? ""
        for fragment in [
            "Class name 'CCC", "the limit is 57",
            "the limit is 63",
            "'Bad.owner' links to a single 'Person' and must be optional",
            "'Bad.ghost' links to class 'Ghost', which is not in the schema",
            "'Bad.price' of type double cannot be a primary key",
            "'Bad.blob' of type data cannot be indexed",
            "'Bad.a.b' contains '.'",
            "'Bad._key' is reserved",
            "'Bad.twice' is defined more than once",
            "'Bad.backlinks' follows property 'Bad.nothing', which does not exist",
            "Embedded class 'Address' cannot have a primary key",
        ] {
            #expect(message.contains(fragment), "missing: \(fragment)")
        }
        // 57 and 63 bytes are allowed, counted in UTF-8.
        try Schema([ObjectSchema(name: String(repeating: "é", count: 28) + "x", properties: [
            Property(name: String(repeating: "p", count: 63), type: .int),
        ])]).validate()
    }

    @Test func diffReportsAddedRemovedAndChangedProperties() {
        let stored = Schema([ObjectSchema(name: "Dog", properties: [
            Property(name: "name", type: .string),
            Property(name: "age", type: .int),
            Property(name: "weight", type: .double, isOptional: true),
            Property(name: "tag", type: .string, isIndexed: true),
            Property(name: "id", type: .int),
        ])])
        let wanted = Schema([
            ObjectSchema(name: "Dog", properties: [
                Property(name: "name", type: .string, isIndexed: true),
                Property(name: "age", type: .string),
                Property(name: "weight", type: .double),
                Property(name: "tag", type: .string),
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "color", type: .string, isOptional: true),
            ]),
            ObjectSchema(name: "Cat", properties: []),
        ])
        let changes = stored.changes(to: wanted)
        let descriptions = changes.map(\.description)
        #expect(descriptions.contains("Property 'Dog.age' has been changed from 'int' to 'string'."))
        #expect(descriptions.contains { $0.hasPrefix("Property 'Dog.weight' has been made required") })
        #expect(descriptions.contains("Property 'Dog.color' has been added."))
        #expect(descriptions.contains("Property 'Dog.name' has been made indexed."))
        #expect(descriptions.contains("Property 'Dog.tag' has been made unindexed."))
        #expect(descriptions.contains("Primary key property 'Dog.id' has been added."))
        #expect(descriptions.contains("Class 'Cat' has been added."))
        #expect(changes.filter(\.requiresMigration).count == 4)
        #expect(stored.changes(to: stored).isEmpty)

        let removed = Schema([ObjectSchema(name: "Dog", properties: [Property(name: "name", type: .string)])])
        #expect(stored.changes(to: removed).map(\.description).contains("Property 'Dog.age' has been removed."))
    }

    @Test func catalogRoundTripsThroughTheFile() throws {
        let directory = TemporaryDirectory()
        var schema = TestSchema.schema
        schema.upsert(ObjectSchema(name: "Address", properties: [Property(name: "street", type: .string)], isEmbedded: true, swiftTypeName: "App.Address"))
        var person = TestSchema.person
        person.properties.append(Property(name: "home", type: .object, isOptional: true, objectClassName: "Address"))
        person.properties.append(Property(name: "pets", type: .linkingObjects, objectClassName: "Dog", linkOriginPropertyName: "owner"))
        schema.upsert(person)
        do {
            _ = try Coordinator.open(.file(directory.path(), schema: schema, schemaVersion: 3))
        }
        let coordinator = try Coordinator.open(.file(directory.path()))
        let transaction = try coordinator.makeTransaction()
        try transaction.refresh()
        #expect(transaction.schemaVersion == 3)
        for objectSchema in schema {
            #expect(transaction.schema[objectSchema.name] == objectSchema)
        }
    }

    @Test func newClassesAreAddedWithoutAMigration() throws {
        let directory = TemporaryDirectory()
        do { _ = try Coordinator.open(.file(directory.path(), schema: Schema([TestSchema.dog, TestSchema.person]))) }
        let cat = ObjectSchema(name: "Cat", properties: [Property(name: "name", type: .string)])
        let coordinator = try Coordinator.open(.file(directory.path(), schema: Schema([TestSchema.dog, TestSchema.person, cat])))
        let transaction = try coordinator.makeTransaction()
        let cats = try transaction.classHandle(named: "Cat")
        try transaction.write { try transaction.createObject(in: cats, values: [.string("Tom")]) }
        #expect(try transaction.count(of: cats) == 1)
    }

    @Test func aSubsetOfClassesOpensAndLeavesTheRestAlone() throws {
        let directory = TemporaryDirectory()
        do {
            let coordinator = try openCoordinator(directory)
            let transaction = try coordinator.makeTransaction()
            let people = try transaction.classHandle(named: "Person")
            try transaction.write { try transaction.createObject(in: people, values: [.int(1), .string("Tim")]) }
        }
        let other = ObjectSchema(name: "Note", properties: [Property(name: "text", type: .string)])
        let coordinator = try Coordinator.open(.file(directory.path(), schema: Schema([other])))
        let transaction = try coordinator.makeTransaction()
        #expect(try transaction.count(of: transaction.classHandle(named: "Person")) == 1)
    }

    @Test func otherDifferencesNeedAMigrationAndListEveryDifference() throws {
        let directory = TemporaryDirectory()
        do { _ = try openCoordinator(directory) }
        var dog = TestSchema.dog
        dog.properties[1] = Property(name: "age", type: .double)
        dog.properties.append(Property(name: "color", type: .string))
        let error = #expect(throws: RealmError.self) {
            _ = try Coordinator.open(.file(directory.path(), schema: Schema([dog, TestSchema.person])))
        }
        #expect(error?.kind == .schemaMismatch)
        #expect(error?.message.contains("Migration is required") == true)
        #expect(error?.message.contains("Property 'Dog.age' has been changed from 'int' to 'double'.") == true)
        #expect(error?.message.contains("Property 'Dog.color' has been added.") == true)
        // The stored schema is untouched.
        _ = try Coordinator.open(.file(directory.path(), schema: TestSchema.schema))
    }

    @Test func aLowerSchemaVersionIsRefused() throws {
        let directory = TemporaryDirectory()
        do { _ = try openCoordinator(directory, version: 5) }
        let error = #expect(throws: RealmError.self) { _ = try openCoordinator(directory, version: 4) }
        #expect(error?.message.contains("less than last set version 5") == true)
    }

    @Test func migrationAppliesTheSchemaAndSeesTheOldData() throws {
        let directory = TemporaryDirectory()
        do {
            let coordinator = try openCoordinator(directory)
            let transaction = try coordinator.makeTransaction()
            let dogs = try transaction.classHandle(named: "Dog")
            try transaction.write {
                try transaction.createObject(in: dogs, values: [.string("Rex"), .int(3)])
                try transaction.createObject(in: dogs, values: [.string("Fido"), .int(7)])
            }
        }
        var dog = TestSchema.dog
        dog.properties[1] = Property(name: "age", type: .string)
        dog.properties.append(Property(name: "nickname", type: .string))
        let schema = Schema([dog, TestSchema.person])
        let configuration = Coordinator.Configuration(location: .file(directory.path()), schema: schema, schemaVersion: 1) { migration in
            #expect(migration.oldSchemaVersion == 0)
            #expect(migration.oldSchema["Dog"]?[propertyNamed: "age"]?.type == .int)
            let old = migration.oldTransaction
            let new = migration.transaction
            let oldDogs = try old.classHandle(named: "Dog")
            let newDogs = try new.classHandle(named: "Dog")
            let nickname = try new.propertyIndex(named: "nickname", in: newDogs)
            for key in try old.objectKeys(in: oldDogs) {
                guard case .int(let age) = try old.value(of: key, property: 1, in: oldDogs),
                      case .string(let name) = try old.value(of: key, property: 0, in: oldDogs) else {
                    Issue.record("old values unreadable")
                    continue
                }
                // New columns start at their zero value.
                #expect(try new.value(of: key, property: nickname, in: newDogs) == .string(""))
                try new.setValue(.string("\(age) years"), of: key, property: 1, in: newDogs)
                try new.setValue(.string(name.lowercased()), of: key, property: nickname, in: newDogs)
            }
        }
        let coordinator = try Coordinator.open(configuration)
        let transaction = try coordinator.makeTransaction()
        let dogs = try transaction.classHandle(named: "Dog")
        let values = try transaction.objectKeys(in: dogs).map { try transaction.values(of: $0, in: dogs) }
        #expect(values.map { $0[1] } == [.string("3 years"), .string("7 years")])
        #expect(values.map { $0[3] } == [.string("rex"), .string("fido")])
        #expect(transaction.schemaVersion == 1)
    }

    @Test func aThrowingMigrationLeavesTheFileAsItWas() throws {
        let directory = TemporaryDirectory()
        do {
            let coordinator = try openCoordinator(directory)
            let transaction = try coordinator.makeTransaction()
            let dogs = try transaction.classHandle(named: "Dog")
            try transaction.write { try transaction.createObject(in: dogs, values: [.string("Rex"), .int(3)]) }
        }
        var dog = TestSchema.dog
        dog.properties.remove(at: 1)
        struct Refused: Error {}
        let configuration = Coordinator.Configuration(location: .file(directory.path()), schema: Schema([dog, TestSchema.person]), schemaVersion: 1) { _ in
            throw Refused()
        }
        let error = #expect(throws: RealmError.self) { _ = try Coordinator.open(configuration) }
        #expect(error?.message.contains("rolled back") == true)
        let coordinator = try openCoordinator(directory)
        let transaction = try coordinator.makeTransaction()
        let dogs = try transaction.classHandle(named: "Dog")
        #expect(transaction.schemaVersion == 0)
        #expect(try transaction.values(of: ObjectKey(1), in: dogs)[1] == .int(3))
    }

    @Test func indexChangesAreAppliedWithoutAMigration() throws {
        let directory = TemporaryDirectory()
        do { _ = try openCoordinator(directory) }
        var dog = TestSchema.dog
        dog.properties[0].isIndexed = false
        dog.properties[1].isIndexed = true
        let coordinator = try Coordinator.open(.file(directory.path(), schema: Schema([dog, TestSchema.person])))
        let transaction = try coordinator.makeTransaction()
        try transaction.refresh()
        #expect(transaction.schema["Dog"]?[propertyNamed: "age"]?.isIndexed == true)
        #expect(transaction.schema["Dog"]?[propertyNamed: "name"]?.isIndexed == false)
    }

    @Test func anAdditiveSchemaGrowsKeepsWhatOthersAddedAndRefusesChanges() throws {
        let directory = TemporaryDirectory()
        func openAdditively(_ schema: Schema) throws -> Coordinator {
            var configuration = Coordinator.Configuration.file(directory.path(), schema: schema)
            configuration.isSchemaAdditive = true
            return try Coordinator.open(configuration)
        }
        do {
            let coordinator = try openAdditively(Schema([TestSchema.dog, TestSchema.person]))
            let transaction = try coordinator.makeTransaction()
            let dogs = try transaction.classHandle(named: "Dog")
            try transaction.write { try transaction.createObject(in: dogs, values: [.string("Rex"), .int(3), .null]) }
        }
        // A newer client adds a property and a class, with no version.
        var newerDog = TestSchema.dog
        newerDog.properties.append(Property(name: "color", type: .string))
        let toy = ObjectSchema(name: "Toy", properties: [Property(name: "label", type: .string)])
        do { _ = try openAdditively(Schema([newerDog, TestSchema.person, toy])) }
        // The older client opens it again; the file keeps what it lacks.
        do {
            let coordinator = try openAdditively(Schema([TestSchema.dog, TestSchema.person]))
            let transaction = try coordinator.makeTransaction()
            try transaction.refresh()
            #expect(transaction.schema["Dog"]?[propertyNamed: "color"] != nil)
            #expect(transaction.schema["Toy"] != nil)
            #expect(transaction.schemaVersion == 0)
            let dogs = try transaction.classHandle(named: "Dog")
            #expect(try transaction.count(of: dogs) == 1)
        }
        // A change to an existing property is refused, naming it.
        var changedDog = TestSchema.dog
        changedDog.properties[1] = Property(name: "age", type: .double)
        let error = #expect(throws: RealmError.self) { _ = try openAdditively(Schema([changedDog, TestSchema.person])) }
        #expect(error?.kind == .schemaMismatch)
        #expect(error?.message.contains("Property 'Dog.age' has been changed from 'int' to 'double'.") == true)
        #expect(error?.message.contains("only grows") == true)
    }
}
