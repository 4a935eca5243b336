import Foundation
import RealmObjects
import Testing

/// Seed 000 "Writes" and "JSON", seed 002's Realm API: add, create, update,
/// delete, and the write-transaction rules.
@Suite struct WriteTests {
    @Test func creatingObjectsThreeWays() throws {
        let myDog = Dog()
        myDog.name = "Rex"
        myDog.age = 10
        let myOtherDog = Dog(value: ["name": "Pluto", "age": 3])
        let myThirdDog = Dog(value: ["name": "Fido", "age": 5])
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            realm.add(myDog)
            realm.add([myOtherDog, myThirdDog])
        }
        let names = realm.objects(Dog.self).sorted(byKeyPath: "name").map(\.name)
        #expect(names == ["Fido", "Pluto", "Rex"])
        #expect(myThirdDog.age == 5)
        #expect(myDog.realm == realm)
    }

    @Test func nestedObjectsFromArraysAndDictionaries() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let aDog = Dog(value: ["name": "Buster", "age": 5])
        let anotherDog = Dog(value: ["name": "Buddy", "age": 6])
        try realm.write {
            realm.create(Person.self, value: ["name": "Jane", "dogs": [aDog, anotherDog]])
            realm.create(Person.self, value: ["name": "Joan", "dogs": [["Buster", 5, NSNull()], ["name": "Buddy", "age": 6]]])
        }
        #expect(realm.objects(Person.self).count == 2)
        #expect(realm.objects(Dog.self).count == 4)
        let joan = try #require(realm.objects(Person.self).filter("name == 'Joan'").first)
        #expect(joan.dogs.map(\.name) == ["Buster", "Buddy"])
        #expect(joan.dogs[1].owners.count == 1)
    }

    @Test func updatesByPrimaryKey() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            realm.add(Book(value: ["id": 1, "title": "Cheese", "price": 1.0]))
        }
        let cheeseBook = Book()
        cheeseBook.title = "Cheese recipes"
        cheeseBook.price = 9000
        cheeseBook.id = 1
        try realm.write {
            realm.add(cheeseBook, update: true)
        }
        #expect(realm.objects(Book.self).count == 1)
        #expect(realm.object(ofType: Book.self, forPrimaryKey: 1)?.title == "Cheese recipes")

        // A partial update leaves the other properties alone.
        try realm.write {
            realm.create(Book.self, value: ["id": 1, "price": 9001.0], update: true)
        }
        let book = try #require(realm.object(ofType: Book.self, forPrimaryKey: 1))
        #expect(book.price == 9001)
        #expect(book.title == "Cheese recipes")

        // nil is applied as a value.
        try realm.write {
            realm.add(City(value: ["id": 7, "name": "Oslo", "population": 700_000]))
            realm.create(City.self, value: ["id": 7, "population": NSNull()], update: true)
        }
        #expect(realm.object(ofType: City.self, forPrimaryKey: 7)?.population == nil)
        #expect(realm.object(ofType: City.self, forPrimaryKey: 7)?.name == "Oslo")
    }

    @Test func duplicatePrimaryKeysThrowWithoutUpdate() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write { realm.add(City(value: ["id": 1, "name": "A"])) }
        realm.beginWrite()
        let error = #expect(throws: Realm.Error.self) {
            try realm.add(City(value: ["id": 1, "name": "B"]), update: .error)
        }
        #expect(error?.code == .duplicatePrimaryKey)
        #expect(error?.message.contains("'City'") == true)
        // The transaction is still usable.
        try realm.add(City(value: ["id": 2, "name": "B"]), update: .error)
        try realm.commitWrite()
        #expect(realm.objects(City.self).count == 2)
    }

    @Test func jsonImport() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let data = #"{"name": "San Francisco", "id": 123, "population": 870000, "ignored": true}"#.data(using: .utf8)!
        try realm.write {
            let json = try JSONSerialization.jsonObject(with: data, options: [])
            realm.create(City.self, value: json, update: true)
        }
        let city = try #require(realm.object(ofType: City.self, forPrimaryKey: 123))
        #expect(city.name == "San Francisco")
        #expect(city.population == 870_000)

        // Nested JSON maps to relationships.
        let nested = #"{"name": "Jane", "dogs": [{"name": "Rex", "age": 2}, {"name": "Fido", "age": 4}]}"#.data(using: .utf8)!
        try realm.write {
            realm.create(Person.self, value: try JSONSerialization.jsonObject(with: nested))
        }
        #expect(realm.objects(Person.self).first?.dogs.map(\.age) == [2, 4])
    }

    @Test func badJSONValuesAreErrorsNamingTheProperty() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        realm.beginWrite()
        let null = #expect(throws: Realm.Error.self) {
            try realm.create(City.self, value: ["id": 1, "name": NSNull()], update: .error)
        }
        #expect(null?.message.contains("'City.name'") == true)
        let wrongType = #expect(throws: Realm.Error.self) {
            try realm.create(City.self, value: ["id": "one", "name": "x"], update: .error)
        }
        #expect(wrongType?.message.contains("'City.id'") == true)
        #expect(wrongType?.message.contains("one") == true)
        let fractional = #expect(throws: Realm.Error.self) {
            try realm.create(City.self, value: ["id": 1.5, "name": "x"], update: .error)
        }
        #expect(fractional?.message.contains("'City.id'") == true)
        realm.cancelWrite()
        #expect(realm.objects(City.self).count == 0)
    }

    @Test func copyingObjectsBetweenRealms() throws {
        let source = try Realm(configuration: inMemoryConfiguration("source"))
        let destination = try Realm(configuration: inMemoryConfiguration("destination"))
        let person = Person(value: ["name": "Jane", "dogs": [["name": "Rex", "age": 1]]])
        try source.write { source.add(person) }
        try destination.write {
            destination.create(Person.self, value: person)
        }
        let copy = try #require(destination.objects(Person.self).first)
        #expect(copy.name == "Jane")
        #expect(copy.dogs.first?.name == "Rex")
        #expect(!copy.isSameObject(as: person))
        #expect(source.objects(Dog.self).count == 1)
        #expect(destination.objects(Dog.self).count == 1)
    }

    @Test func deletingObjects() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let book = Book(value: ["id": 1, "title": "Cheese"])
        try realm.write {
            realm.add(book)
            realm.add(Book(value: ["id": 2, "title": "Bread"]))
            realm.add(Book(value: ["id": 3, "title": "Wine"]))
        }
        try realm.write { realm.delete(book) }
        #expect(book.isInvalidated)
        // As in Realm, a deleted object keeps its `realm`.
        #expect(book.realm == realm)
        #expect(realm.objects(Book.self).count == 2)
        try realm.write { realm.delete(realm.objects(Book.self).filter("title == 'Bread'")) }
        #expect(realm.objects(Book.self).map(\.title) == ["Wine"])
        try realm.write { realm.deleteAll() }
        #expect(realm.objects(Book.self).isEmpty)
    }

    @Test func writeBlocksThatThrowAreCancelled() throws {
        struct Failure: Error {}
        let realm = try Realm(configuration: inMemoryConfiguration())
        #expect(throws: Failure.self) {
            try realm.write {
                realm.add(Dog(value: ["name": "Rex"]))
                throw Failure()
            }
        }
        #expect(!realm.isInWriteTransaction)
        #expect(realm.objects(Dog.self).count == 0)
    }

    @Test func cancelWriteRestoresDeletedDataAndInvalidatesAddedObjects() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write { realm.add(Dog(value: ["name": "Old"])) }
        let oldObject = try #require(realm.objects(Dog.self).first)
        let newObject = Dog(value: ["name": "New"])
        realm.beginWrite()
        realm.add(newObject)
        realm.delete(oldObject)
        realm.cancelWrite()
        #expect(oldObject.isInvalidated)
        #expect(newObject.isInvalidated)
        // Re-running the query gives the valid object again.
        #expect(realm.objects(Dog.self).first?.name == "Old")
        // The cancelled object's key is never reused by a later object.
        try realm.write { realm.add(Dog(value: ["name": "Newer"])) }
        #expect(newObject.isInvalidated)
    }

    @Test func keyValueCodingOnCollections() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            realm.add([Dog(value: ["name": "a", "age": 1]), Dog(value: ["name": "b", "age": 2])])
        }
        let dogs = realm.objects(Dog.self)
        try realm.write {
            dogs.first?.setValue(10, forKey: "age")
            dogs.setValue("same", forKey: "name")
        }
        #expect(dogs.value(forKey: "name") as? [String] == ["same", "same"])
        #expect(dogs.map(\.age) == [10, 2])
    }

    @Test func deletingResultsDeletesTheirObjects() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            for index in 0..<30 { realm.add(Dog(value: ["name": "d\(index)", "age": index % 3])) }
            let owner = Person(value: ["name": "Tim"])
            owner.dogs.append(objectsIn: realm.objects(Dog.self).filter("age == 1"))
            realm.add(owner)
        }
        let owner = realm.objects(Person.self).first!
        let kept = realm.objects(Dog.self).filter("age == 2").first!
        try realm.write { realm.delete(realm.objects(Dog.self).filter("age == 1")) }
        #expect(realm.objects(Dog.self).count == 20)
        #expect(owner.dogs.isEmpty)                 // lists drop deleted objects
        #expect(!kept.isInvalidated)
        try realm.write { realm.delete(realm.objects(Dog.self)) }
        #expect(realm.objects(Dog.self).isEmpty)
        #expect(kept.isInvalidated)
        #expect(realm.objects(Person.self).count == 1)
    }

    /// A class nothing links to loses a query's matches in one DELETE,
    /// and the deletions reach notifications like any others.
    @Test func deletingMatchesOfAStandaloneClass() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [Book.self]))
        try realm.write {
            for index in 0..<100 { realm.add(Book(value: ["id": index, "title": "t\(index % 4)", "price": Double(index)])) }
        }
        let cheap = realm.objects(Book.self).filter("price < 50").sorted(byKeyPath: "price")
        var deletions: [Int] = []
        let token = cheap.observe { change in
            if case .update(_, let deleted, _, _) = change { deletions = deleted }
        }
        let kept = realm.object(ofType: Book.self, forPrimaryKey: 1)!
        let gone = realm.object(ofType: Book.self, forPrimaryKey: 2)!
        try realm.write { realm.delete(realm.objects(Book.self).filter("title == 't2'")) }
        realm.refresh()
        #expect(realm.objects(Book.self).count == 75)
        #expect(realm.objects(Book.self).filter("title == 't2'").isEmpty)
        #expect(gone.isInvalidated && !kept.isInvalidated)
        #expect(deletions == (0..<50).filter { $0 % 4 == 2 })

        // A predicate true of every object, though not TRUEPREDICATE itself,
        // still reports each deletion.
        try realm.write { realm.delete(realm.objects(Book.self).filter("title == 't0' OR TRUEPREDICATE")) }
        realm.refresh()
        #expect(realm.objects(Book.self).isEmpty)
        #expect(deletions == Array(0..<38))
        #expect(kept.isInvalidated)
        token.invalidate()
    }
}
