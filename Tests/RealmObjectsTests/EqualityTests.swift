import Foundation
import RealmObjects
import Testing

/// `==` on objects and results, `Realm.isEmpty`, and what `objects(_:)`
/// refuses, as in Realm Swift.
@Suite struct EqualityTests {
    /// Realm's `isEqual:` compares rows only for classes with a primary key;
    /// other objects are equal only to themselves (ObjectTests'
    /// testObjectEquality, RealmCollectionTypeTests' index(of:)).
    @Test func managedObjectsWithoutAPrimaryKeyAreEqualOnlyToThemselves() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let rex = Dog(value: ["name": "Rex", "age": 1])
        let twin = Dog(value: ["name": "Rex", "age": 1])
        #expect(rex != twin)
        #expect(rex == rex)
        try realm.write { realm.add([rex, twin]) }
        let found = try #require(realm.objects(Dog.self).first)
        #expect(found != rex)
        #expect(found.isSameObject(as: rex))
        #expect(!found.isSameObject(as: twin))
        #expect(Set([found, rex, twin]).count == 3)
        // A dynamic object of the row is the same object, not an equal one.
        let dynamic = try #require(realm.dynamicObjects("Dog").first)
        #expect(dynamic.isSameObject(as: found))
        #expect(found.isSameObject(as: dynamic))
        #expect(dynamic != found)
    }

    @Test func managedObjectsWithAPrimaryKeyAreEqualWhenTheyAreTheSameRow() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let cheese = Book(value: ["id": 1, "title": "Cheese"])
        let twin = Book(value: ["id": 1, "title": "Cheese"])
        #expect(cheese != twin)  // unmanaged: only itself
        try realm.write { realm.add(cheese) }
        let found = try #require(realm.objects(Book.self).first)
        #expect(found == cheese)
        #expect(found !== cheese)
        #expect(Set([found, cheese]).count == 1)
        // An object of another file is another object, whatever its values.
        let other = try Realm(configuration: inMemoryConfiguration("other"))
        let stranger = try other.write { other.create(Book.self, value: ["id": 1, "title": "Cheese"]) }
        #expect(stranger != found)
        #expect(!stranger.isSameObject(as: found))
        // A dynamic object of the row equals the typed one.
        let dynamic = try #require(realm.dynamicObjects("Book").first)
        #expect(dynamic == found)
        #expect(dynamic.isSameObject(as: found))
    }

    /// ResultsEquatabilityTests: results are equal only to themselves.
    @Test func resultsAreEqualOnlyToThemselves() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let dogs = realm.objects(Dog.self)
        #expect(dogs == dogs)
        #expect(dogs != realm.objects(Dog.self))
        #expect(dogs.filter("age > 1") != dogs.filter("age > 1"))
    }

    @Test func isEmpty() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        #expect(realm.isEmpty)
        try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
        #expect(!realm.isEmpty)
        try realm.write { realm.deleteAll() }
        #expect(realm.isEmpty)
    }

    @Test func objectsOfObjectItselfIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "object-itself"))
            _ = realm.objects(Object.self).count
        }
        #expect(seedStandardError(result).contains("Object type 'Object' is not managed"))
    }
}

/// The thread's cache keeps a Realm alive while a write is open on it.
@Suite struct ThreadCacheWriteTests {
    @Test func aSecondRealmOnTheThreadSeesTheOpenWrite() throws {
        let directory = TemporaryDirectory()
        let configuration = Realm.Configuration(fileURL: directory.file())
        func begin() throws {
            let first = try Realm(configuration: configuration)
            first.beginWrite()
            first.add(Dog(value: ["name": "Uncommitted", "age": 1]))
            // `first` goes away here; the open write keeps its Realm.
        }
        try begin()
        let second = try Realm(configuration: configuration)
        #expect(second.isInWriteTransaction)
        #expect(second.objects(Dog.self).map(\.name) == ["Uncommitted"])
        try second.commitWrite()
        #expect(!second.isInWriteTransaction)
        #expect(second.objects(Dog.self).count == 1)

    }
}

/// ThreadSafeReference carries LinkingObjects and AnyRealmCollection too.
@Suite struct ThreadSafeCollectionReferenceTests {
    @Test func linkingObjectsAndAnyRealmCollectionsCrossThreads() throws {
        let directory = TemporaryDirectory()
        let configuration = Realm.Configuration(fileURL: directory.file())
        let realm = try Realm(configuration: configuration)
        let rex = Dog(value: ["name": "Rex", "age": 1])
        try realm.write {
            realm.add(rex)
            realm.create(Person.self, value: ["name": "Jim", "dogs": [rex]])
            realm.create(Person.self, value: ["name": "Ann", "dogs": [rex]])
        }
        let owners = ThreadSafeReference(to: rex.owners)
        let anyResults = ThreadSafeReference(to: AnyRealmCollection(realm.objects(Dog.self).filter("age < 5")))
        let anyList = ThreadSafeReference(to: AnyRealmCollection(realm.objects(Person.self).first!.dogs))
        let anyOwners = ThreadSafeReference(to: AnyRealmCollection(rex.owners))
        let seen = Locked<[String]>([])
        let done = DispatchSemaphore(value: 0)
        Thread {
            let other = try! Realm(configuration: configuration)
            let resolvedOwners = other.resolve(owners)!
            seen.value.append(resolvedOwners.map(\.name).sorted().joined(separator: ","))
            seen.value.append(other.resolve(anyResults)!.map(\.name).joined(separator: ","))
            seen.value.append("\(other.resolve(anyList)!.count)")
            seen.value.append("\(other.resolve(anyOwners)!.count)")
            done.signal()
        }.start()
        done.wait()
        #expect(seen.value == ["Ann,Jim", "Rex", "1", "2"])
    }
}
