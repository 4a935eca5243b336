import Foundation
import RealmObjects
import Testing

// Seed 000 "Writes" (the write-transaction rules, creating objects, nested
// objects, typed and key-value-coding updates, objects with primary keys,
// deleting objects); seed 001 "Writes"; seed 002's `write`, `beginWrite`,
// `commitWrite`, `cancelWrite`, `add(update:)`, `create`, `delete`.
//
// Skipped: `commitWrite(withoutNotifying:)` (notifications, issue #5) and a
// full disk making `commitWrite` throw (not reproducible in a unit test).

/// The seeds' Dog for "Nested objects": `Person(value: ["Jane", 30, dogs])`
/// needs a person whose properties are name, age and dogs, in that order.
/// The Dog of seed 000's "Creating objects": a name and an age, no more.
final class SeedTwoPropertyDog: Object {
    @Persisted var name = ""
    @Persisted var age = 0
}

final class SeedNestedPerson: Object {
    @Persisted var name = ""
    @Persisted var age = 0
    let dogs = List<SeedTwoPropertyDog>()
}

/// "Typed updates".
final class SeedAuthor: Object {
    @Persisted var name = ""
}

/// "Key-value coding".
final class SeedPlanetPerson: Object {
    @Persisted var name = ""
    @Persisted var isFirst = false
    @Persisted var planet = ""
}

/// A keyed model with optional properties, for partial updates where nil is
/// a value.
final class SeedNote: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var title: String? = nil
    @Persisted var body = ""
    let rating = RealmOptional<Int>()
}

@Suite struct SeedWritesTests {
    // MARK: Write transactions

    @Test func modifyingAnObjectOutsideAWriteTransactionStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "outside"))
            let dog = Dog(value: ["name": "Rex", "age": 1])
            try! realm.write { realm.add(dog) }
            dog.age = 2
        }
        #expect(seedStandardError(result).contains("write transaction"))
    }

    @Test func addingOutsideAWriteTransactionStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "outside"))
            realm.add(Dog(value: ["name": "Rex", "age": 1]))
        }
        #expect(seedStandardError(result).contains("write transaction"))
    }

    @Test func creatingOutsideAWriteTransactionStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "outside"))
            realm.create(Dog.self, value: ["name": "Rex", "age": 1])
        }
        #expect(seedStandardError(result).contains("write transaction"))
    }

    @Test func deletingOutsideAWriteTransactionStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "outside"))
            let dog = Dog(value: ["name": "Rex", "age": 1])
            try! realm.write { realm.add(dog) }
            realm.delete(dog)
        }
        #expect(seedStandardError(result).contains("write transaction"))
    }

    /// Seed 002: "Write transactions cannot be nested."
    @Test func nestedWriteTransactionsStop() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "nested"))
            try! realm.write {
                try! realm.write {
                    realm.add(Dog())
                }
            }
        }
        #expect(seedStandardError(result).contains("nested"))
    }

    @Test func committingWithoutATransactionStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "commit"))
            try! realm.commitWrite()
        }
        #expect(seedStandardError(result).contains("write transaction"))
    }

    @Test func writeAndBeginWriteCommitWrite() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        #expect(!realm.isInWriteTransaction)
        let name = try realm.write { () -> String in
            #expect(realm.isInWriteTransaction)
            return realm.create(Dog.self, value: ["name": "Rex", "age": 1]).name
        }
        #expect(name == "Rex")
        #expect(!realm.isInWriteTransaction)
        realm.beginWrite()
        realm.add(Dog(value: ["name": "Fido", "age": 2]))
        #expect(realm.isInWriteTransaction)
        try realm.commitWrite()
        #expect(!realm.isInWriteTransaction)
        #expect(realm.objects(Dog.self).count == 2)
    }

    /// Seed 002: "If block throws, the function throws the propagated
    /// ErrorType instead" — and nothing of the block is kept.
    @Test func aThrowingWriteBlockIsRolledBack() throws {
        struct Stop: Error {}
        let realm = try Realm(configuration: inMemoryConfiguration())
        let dog = Dog(value: ["name": "Rex", "age": 1])
        try realm.write { realm.add(dog) }
        #expect(throws: Stop.self) {
            try realm.write {
                dog.age = 10
                realm.add(Dog(value: ["name": "Fido", "age": 2]))
                throw Stop()
            }
        }
        #expect(dog.age == 1)
        #expect(realm.objects(Dog.self).count == 1)
    }

    // MARK: Creating objects

    @Test func creatingObjects() throws {
        // The seed's Dog has the two properties its array gives.
        typealias Dog = SeedTwoPropertyDog
        // (1) Create a Dog object and then set its properties
        let myDog = Dog()
        myDog.name = "Rex"
        myDog.age = 10

        // (2) Create a Dog object from a dictionary
        let myOtherDog = Dog(value: ["name" : "Pluto", "age": 3])

        // (3) Create a Dog object from an array
        let myThirdDog = Dog(value: ["Fido", 5])

        #expect(myOtherDog.name == "Pluto" && myOtherDog.age == 3)
        #expect(myThirdDog.name == "Fido" && myThirdDog.age == 5)

        // Get the default Realm (here an in-memory one)
        let realm = try Realm(configuration: inMemoryConfiguration())
        // Add to the Realm inside a transaction
        try realm.write {
            realm.add(myDog)
        }
        #expect(myDog.realm == realm)

        // After the object is added, changes to it are persisted.
        try realm.write { myDog.age = 11 }
        #expect(realm.objects(Dog.self).first?.age == 11)

        // Seed 001: add with beginWrite / commitWrite.
        realm.beginWrite()
        realm.add(myOtherDog)
        realm.add(myThirdDog)
        try realm.commitWrite()
        #expect(Set(realm.objects(Dog.self).map(\.name)) == ["Rex", "Pluto", "Fido"])
    }

    /// "Any changes are made available to other threads that use the same
    /// Realm when the write transaction is committed."
    @Test func committedChangesReachOtherThreads() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.add(Dog(value: ["name": "Old", "age": 0])) }
        realm.beginWrite()
        realm.add(Dog(value: ["name": "Rex", "age": 1]))
        let beforeCommit = Locked<Int>(-1)
        seedRunOnThread {
            beforeCommit.value = try! Realm(configuration: configuration).objects(Dog.self).count
        }
        try realm.commitWrite()
        let afterCommit = Locked<Int>(-1)
        seedRunOnThread {
            afterCommit.value = try! Realm(configuration: configuration).objects(Dog.self).count
        }
        #expect(beforeCommit.value == 1)
        #expect(afterCommit.value == 2)
    }

    /// "Reads are not blocked while a write transaction is open", even when
    /// the transaction is the one adding the class being read (the first
    /// object of a class).
    @Test func aReaderDoesNotWaitForAWriterAddingItsClass() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        realm.beginWrite()
        realm.add(SeedAuthor(value: ["name": "First"]))
        let readerDone = DispatchSemaphore(value: 0)
        let seen = Locked<Int>(-1)
        Thread {
            seen.value = try! Realm(configuration: configuration).objects(SeedAuthor.self).count
            readerDone.signal()
        }.start()
        let finishedInTime = readerDone.wait(timeout: .now() + 30) == .success
        #expect(finishedInTime, "the reader waited for the writer")
        try realm.commitWrite()
        if !finishedInTime { readerDone.wait() }
        #expect(seen.value == 0)
    }

    /// "Writes block each other … thread A must finish and commit its
    /// transaction before thread B's write operation takes place. Write
    /// operations always refresh automatically on beginWrite()." And
    /// "reads are not blocked while a write transaction is open".
    @Test func writesAreSerializedAndReadsAreNot() throws {
        let directory = TemporaryDirectory()
        let configuration = Realm.Configuration(fileURL: directory.file())
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }

        realm.beginWrite()
        realm.objects(Dog.self).first!.age = 2

        // A reader on another thread is not blocked, and sees the last commit.
        let readAge = Locked<Int>(-1)
        seedRunOnThread {
            readAge.value = try! Realm(configuration: configuration).objects(Dog.self).first!.age
        }
        #expect(readAge.value == 1)

        // A writer on another thread waits for this transaction.
        let writerStarted = DispatchSemaphore(value: 0)
        let writerDone = DispatchSemaphore(value: 0)
        let writerBegan = Locked<Bool>(false)
        let ageSeenByWriter = Locked<Int>(-1)
        Thread {
            let background = try! Realm(configuration: configuration)
            writerStarted.signal()
            background.beginWrite()
            writerBegan.value = true
            ageSeenByWriter.value = background.objects(Dog.self).first!.age
            background.objects(Dog.self).first!.age = 3
            try! background.commitWrite()
            writerDone.signal()
        }.start()
        writerStarted.wait()
        Thread.sleep(forTimeInterval: 0.2)
        #expect(writerBegan.value == false)
        try realm.commitWrite()
        #expect(writerDone.wait(timeout: .now() + 120) == .success)
        // beginWrite refreshed the writer to this thread's commit.
        #expect(ageSeenByWriter.value == 2)
        // This thread's own beginWrite refreshes it too.
        realm.beginWrite()
        #expect(realm.objects(Dog.self).first!.age == 3)
        realm.cancelWrite()
    }

    // MARK: Nested objects

    @Test func nestedObjects() throws {
        typealias Dog = SeedTwoPropertyDog
        let aDog = Dog(value: ["name": "Rex", "age": 3])
        let anotherDog = Dog(value: ["name": "Spot", "age": 4])
        // Instead of using already existing dogs...
        let aPerson = SeedNestedPerson(value: ["Jane", 30, [aDog, anotherDog]])
        // ...we can create them inline
        let anotherPerson = SeedNestedPerson(value: ["Jane", 30, [["Buster", 5], ["Buddy", 6]]])
        // Any combination of nested arrays and dictionaries.
        let thirdPerson = SeedNestedPerson(value: ["name": "Joan", "age": 31, "dogs": [["name": "Lassie", "age": 7], ["name": "Fido", "age": 8]]])

        #expect(aPerson.dogs.count == 2)
        #expect(aPerson.dogs[0] === aDog)
        #expect(anotherPerson.dogs.map(\.name) == ["Buster", "Buddy"])
        #expect(anotherPerson.dogs.map(\.age) == [5, 6])

        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            realm.add([aPerson, anotherPerson, thirdPerson])
        }
        #expect(realm.objects(Dog.self).count == 6)
        let joan = try #require(realm.objects(SeedNestedPerson.self).filter("name == 'Joan'").first)
        #expect(joan.dogs.map(\.name) == ["Lassie", "Fido"])
        #expect(joan.dogs.map(\.age) == [7, 8])
        #expect(aDog.realm == realm)
    }

    // MARK: Updating objects

    @Test func typedUpdates() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let author = SeedAuthor(value: ["name": "Tom"])
        try realm.write { realm.add(author) }
        // Update an object with a transaction
        try realm.write {
            author.name = "Thomas Pynchon"
        }
        #expect(realm.objects(SeedAuthor.self).first?.name == "Thomas Pynchon")
    }

    @Test func keyValueCoding() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            realm.add([SeedPlanetPerson(value: ["name": "A"]), SeedPlanetPerson(value: ["name": "B"])])
        }
        let persons = realm.objects(SeedPlanetPerson.self).sorted(byKeyPath: "name")
        try realm.write {
            persons.first?.setValue(true, forKeyPath: "isFirst")
            // set each person's planet property to "Earth"
            persons.setValue("Earth", forKeyPath: "planet")
        }
        #expect(persons.map(\.isFirst) == [true, false])
        #expect(persons.map(\.planet) == ["Earth", "Earth"])
        #expect(persons.value(forKeyPath: "planet") as? [String] == ["Earth", "Earth"])
        #expect(persons.value(forKey: "planet") as? [String] == ["Earth", "Earth"])
        #expect(persons[1].value(forKey: "name") as? String == "B")

        // Lists conform too.
        let jim = Person(value: ["name": "Jim", "dogs": [["name": "Rex", "age": 1], ["name": "Fido", "age": 2]]])
        try realm.write {
            realm.add(jim)
            jim.dogs.setValue(9, forKey: "age")
        }
        #expect(jim.dogs.map(\.age) == [9, 9])
    }

    @Test func keyPathsGoThroughLinksAndLists() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let jim = Person(value: ["name": "Jim", "dogs": [["name": "Rex", "age": 1], ["name": "Fido", "age": 2]]])
        let stray = Dog(value: ["name": "Stray", "age": 4])
        try realm.write {
            realm.add([jim, stray])
            for dog in jim.dogs { dog.owner = jim }
        }
        let rex = jim.dogs[0]
        #expect(rex.value(forKeyPath: "owner.name") as? String == "Jim")
        #expect(stray.value(forKeyPath: "owner.name") == nil)
        #expect(jim.value(forKeyPath: "dogs.name") as? [Any?] as? [String] == ["Rex", "Fido"])
        #expect(rex.value(forKeyPath: "owners.name") as? [Any?] as? [String] == ["Jim"])
        #expect(realm.objects(Dog.self).value(forKeyPath: "owner.name") as? [String?] == ["Jim", "Jim", nil])
        try realm.write {
            rex.setValue("James", forKeyPath: "owner.name")
            // Through a nil link, nothing happens.
            stray.setValue("Nobody", forKeyPath: "owner.name")
            // Through a list, every element changes.
            jim.setValue(7, forKeyPath: "dogs.age")
            realm.objects(Dog.self).filter("owner != nil").setValue("Spot", forKeyPath: "name")
        }
        #expect(jim.name == "James")
        #expect(realm.objects(Person.self).count == 1)
        #expect(jim.dogs.map(\.age) == [7, 7])
        #expect(realm.objects(Dog.self).map(\.name) == ["Spot", "Spot", "Stray"])
        // Unmanaged objects follow their links in memory.
        let puppy = Dog(value: ["name": "Puppy", "owner": ["name": "Ann"]])
        #expect(puppy.value(forKeyPath: "owner.name") as? String == "Ann")
        puppy.setValue("Anna", forKeyPath: "owner.name")
        #expect(puppy.owner?.name == "Anna")
    }

    // MARK: Objects with primary keys

    @Test func addWithUpdateUpsertsTheWholeObject() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            realm.add(Book(value: ["id": 1, "title": "Cheese", "price": 5.0]))
        }
        // Creating a book with the same primary key as a previously saved book
        let cheeseBook = Book()
        cheeseBook.title = "Cheese recipes"
        cheeseBook.price = 9000
        cheeseBook.id = 1

        // Updating book with id = 1
        try realm.write {
            realm.add(cheeseBook, update: true)
        }
        #expect(realm.objects(Book.self).count == 1)
        let book = try #require(realm.object(ofType: Book.self, forPrimaryKey: 1))
        #expect(book.title == "Cheese recipes")
        #expect(book.price == 9000)
        #expect(cheeseBook.isSameObject(as: book))

        // A full update: properties left at their defaults overwrite.
        try realm.write { realm.add(Book(value: ["id": 1, "price": 1.0]), update: true) }
        #expect(book.title == "")

        // If it did not exist, a new object is created.
        try realm.write { realm.add(Book(value: ["id": 2, "title": "Bread"]), update: true) }
        #expect(realm.objects(Book.self).count == 2)
    }

    @Test func partialUpdatesWithCreate() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            realm.add(Book(value: ["id": 1, "title": "Cheese", "price": 5.0]))
        }
        // Assuming a "Book" with a primary key of `1` already exists.
        try realm.write {
            realm.create(Book.self, value: ["id": 1, "price": 9000.0], update: true)
            // the book's `title` property will remain unchanged.
        }
        let book = try #require(realm.object(ofType: Book.self, forPrimaryKey: 1))
        #expect(book.title == "Cheese")
        #expect(book.price == 9000)
        // Seed 001's float-backed NSNumber.
        try realm.write {
            realm.create(Book.self, value: ["id": 1, "price": NSNumber(value: Float(12.5))], update: true)
        }
        #expect(book.price == 12.5)
    }

    /// "nil is still considered a valid value for optional properties … these
    /// will be applied to your object and those properties will be emptied."
    @Test func nilIsAppliedAsAValue() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            let note = realm.create(SeedNote.self, value: ["id": 1, "title": "Title", "body": "Body"])
            note.rating.value = 5
        }
        try realm.write {
            realm.create(SeedNote.self, value: ["id": 1, "title": nil, "rating": nil] as [String: Any?], update: true)
        }
        let note = try #require(realm.object(ofType: SeedNote.self, forPrimaryKey: 1))
        #expect(note.title == nil)
        #expect(note.rating.value == nil)
        #expect(note.body == "Body")
        // Seed 001: NSNull likewise.
        try realm.write {
            realm.create(SeedNote.self, value: ["id": 1, "title": "Back"], update: true)
            realm.create(SeedNote.self, value: ["id": 1, "title": NSNull()], update: true)
        }
        #expect(note.title == nil)
        // .modified updates only what differs, with the same result.
        try realm.write {
            try realm.create(SeedNote.self, value: ["id": 1, "body": "Body", "title": "New"], update: .modified)
        }
        #expect(note.title == "New")
        #expect(note.body == "Body")
    }

    /// "You may not pass update: true for object types which don't define a
    /// primary key."
    @Test func updateWithoutAPrimaryKeyStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "nokey"))
            try! realm.write {
                realm.add(Dog(value: ["name": "Rex", "age": 1]), update: true)
            }
        }
        #expect(seedStandardError(result).contains("primary key"))
    }

    /// Seed 002: `create` without an update policy, as in the seeds, does
    /// not throw; the throwing variant reports a taken key.
    @Test func createWithoutUpdateDoesNotThrow() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let created = try realm.write {
            realm.create(Book.self, value: ["id": 1, "title": "Cheese"])
        }
        #expect(created.realm == realm)
        #expect(created.title == "Cheese")
        realm.beginWrite()
        let error = #expect(throws: Realm.Error.self) {
            try realm.create(Book.self, value: ["id": 1, "title": "Again"], update: .error)
        }
        realm.cancelWrite()
        #expect(error?.code == .duplicatePrimaryKey)
        #expect(realm.objects(Book.self).count == 1)
    }

    // MARK: Deleting objects

    @Test func deletingObjects() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let cheeseBook = Book(value: ["id": 1, "title": "Cheese"])
        try realm.write {
            realm.add(cheeseBook)
            realm.add(Book(value: ["id": 2, "title": "Bread"]))
            realm.add(Person(value: ["name": "Jim", "dogs": [["name": "Rex", "age": 1], ["name": "Fido", "age": 2]]]))
            realm.add(Dog(value: ["name": "Spot", "age": 3]))
        }
        // Delete an object with a transaction
        try realm.write {
            realm.delete(cheeseBook)
        }
        #expect(cheeseBook.isInvalidated)
        #expect(realm.object(ofType: Book.self, forPrimaryKey: 1) == nil)

        // A List: its objects are deleted and it is emptied.
        let jim = try #require(realm.objects(Person.self).first)
        try realm.write { realm.delete(jim.dogs) }
        #expect(jim.dogs.isEmpty)
        #expect(realm.objects(Dog.self).map(\.name) == ["Spot"])

        // Results, and arrays.
        try realm.write { realm.delete(realm.objects(Dog.self).filter("age > 2")) }
        #expect(realm.objects(Dog.self).isEmpty)

        // Delete all objects from the realm
        try realm.write {
            realm.deleteAll()
        }
        #expect(realm.objects(Book.self).isEmpty)
        #expect(realm.objects(Person.self).isEmpty)
        #expect(jim.isInvalidated)
    }

    @Test func aDeletedLinkBecomesNil() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let rex = Dog(value: ["name": "Rex", "owner": ["name": "Jim"]])
        try realm.write { realm.add(rex) }
        let jim = try #require(rex.owner)
        try realm.write { realm.delete(jim) }
        #expect(rex.owner == nil)
    }

    @Test func readingADeletedObjectStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "deleted"))
            let dog = Dog(value: ["name": "Rex", "age": 1])
            try! realm.write { realm.add(dog) }
            try! realm.write { realm.delete(dog) }
            _ = dog.name
        }
        #expect(seedStandardError(result).contains("deleted or invalidated"))
    }

    /// Seed 002: "The object to be added must be valid and cannot have been
    /// previously deleted from a Realm."
    @Test func addingADeletedObjectStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "deleted"))
            let dog = Dog(value: ["name": "Rex", "age": 1])
            try! realm.write { realm.add(dog) }
            try! realm.write { realm.delete(dog) }
            try! realm.write { realm.add(dog) }
        }
        #expect(seedStandardError(result).contains("deleted or invalidated"))
    }

    // MARK: cancelWrite (seed 002)

    @Test func cancelWrite() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write { realm.add(Dog(value: ["name": "Old", "age": 1])) }

        let oldObject = realm.objects(Dog.self).first!
        let newObject = Dog()
        realm.beginWrite()
        realm.delete(oldObject)
        realm.add(newObject)
        realm.cancelWrite()

        // Both are invalidated; the new one does not become unmanaged.
        #expect(oldObject.isInvalidated)
        #expect(newObject.isInvalidated)
        // As in Realm, an invalidated object keeps its `realm`.
        #expect(newObject.realm == realm)
        #expect(!realm.isInWriteTransaction)
        // Re-running the query which provided oldObject returns the valid object.
        let again = try #require(realm.objects(Dog.self).first)
        #expect(!again.isInvalidated)
        #expect(again.name == "Old")
        #expect(realm.objects(Dog.self).count == 1)
    }

    @Test func cancelWriteRevertsModifications() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let dog = Dog(value: ["name": "Rex", "age": 1])
        let jim = Person(value: ["name": "Jim"])
        try realm.write { realm.add([dog]); realm.add(jim) }
        realm.beginWrite()
        dog.age = 7
        dog.owner = jim
        jim.dogs.append(dog)
        realm.create(Dog.self, value: ["name": "Fido", "age": 2])
        #expect(realm.objects(Dog.self).count == 2)
        realm.cancelWrite()
        #expect(dog.age == 1)
        #expect(dog.owner == nil)
        #expect(jim.dogs.isEmpty)
        #expect(realm.objects(Dog.self).count == 1)
    }
}
