import Foundation
import RealmObjects
import Testing

// Seed 000 "Collections" (RealmCollection, AnyRealmCollection, copying
// objects between Realms), "Relationships" (many-to-one, many-to-many,
// lists of primitive values, inverse relationships) and, from "Queries",
// the behaviour of Results that issue #3 owns (auto-updating results,
// snapshots in for…in, limiting results); seed 001 "Relationships"; seed
// 004's to-one, to-many and inverse relationships.
//
// Skipped: the query language beyond simple filters, sorting by several
// descriptors and chaining (issue #4); collection notifications (issue #5);
// seed 001's "assigning nil to an RLMArray empties it" (Swift lists are
// `let` properties and cannot be assigned).

/// The "Collections" sample's model and view controller.
final class SeedMyModel: Object {
    @Persisted var name = ""
    let groups = LinkingObjects(fromType: SeedMyModelGroup.self, property: "models")
}

final class SeedMyModelGroup: Object {
    @Persisted var title = ""
    let models = List<SeedMyModel>()
}

final class SeedViewController {
    // let collection: RealmCollection
    // ^
    // error: protocol 'RealmCollection' can only be used
    // as a generic constraint because it has Self or
    // associated type requirements

    let collection: AnyRealmCollection<SeedMyModel>

    init<C: RealmCollection>(collection: C) where C.ElementType == SeedMyModel {
        self.collection = AnyRealmCollection(collection)
    }
}

/// "Many-to-one" with a nested property path (`rex.owner?.address.country`).
final class SeedCountry: Object {
    @Persisted var country = ""
}

final class SeedOwner: Object {
    @Persisted var name = ""
    @Persisted var address: SeedCountry?
}

final class SeedOwnedDog: Object {
    @Persisted var name = ""
    @Persisted var owner: SeedOwner? // to-one relationships must be optional
}

/// "Lists containing Realm objects may store multiple references to the
/// same Realm object, including objects with primary keys."
final class SeedKeyedDog: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
}

final class SeedKennel: Object {
    @Persisted var name = ""
    let dogs = List<SeedKeyedDog>()
}

/// Lists of every primitive type the seed names, required and optional.
final class SeedPrimitiveLists: Object {
    let bools = List<Bool>()
    let ints = List<Int>()
    let int8s = List<Int8>()
    let int16s = List<Int16>()
    let int32s = List<Int32>()
    let int64s = List<Int64>()
    let floats = List<Float>()
    let doubles = List<Double>()
    let strings = List<String>()
    let datas = List<Data>()
    let dates = List<Date>()
    let optionalBools = List<Bool?>()
    let optionalInts = List<Int?>()
    let optionalInt8s = List<Int8?>()
    let optionalInt16s = List<Int16?>()
    let optionalInt32s = List<Int32?>()
    let optionalInt64s = List<Int64?>()
    let optionalFloats = List<Float?>()
    let optionalDoubles = List<Double?>()
    let optionalStrings = List<String?>()
    let optionalDatas = List<Data?>()
    let optionalDates = List<Date?>()
}

/// Inverse relationships through a to-one link.
final class SeedWalker: Object {
    @Persisted var name = ""
    let walkedDogs = LinkingObjects(fromType: SeedWalkedDog.self, property: "walker")
}

final class SeedWalkedDog: Object {
    @Persisted var name = ""
    @Persisted var walker: SeedWalker?
}

/// Seed 004's User and Task: ObjectId keys, a list and its backlink.
final class SeedUser: Object {
    @Persisted var _id: ObjectId = ObjectId.generate()
    @Persisted var _partition: String = ""
    @Persisted var name: String = ""
    // A user can have many tasks.
    let tasks = List<SeedTask>()
    override static func primaryKey() -> String? {
        return "_id"
    }
}

final class SeedTask: Object {
    @Persisted var _id: ObjectId = ObjectId.generate()
    @Persisted var _partition: String = ""
    @Persisted var text: String = ""
    // Backlink to the user. This is automatically updated whenever
    // this task is added to or removed from a user's task list.
    let assignee = LinkingObjects(fromType: SeedUser.self, property: "tasks")
    override static func primaryKey() -> String? {
        return "_id"
    }
}

/// Seed 004's one-directional to-one relationship.
final class SeedDogOwner: Object {
    @Persisted var name: String = ""
    @Persisted var birthdate: Date = Date(timeIntervalSince1970: 1)
    // A person can have one dog
    @Persisted var dog: SeedBreedDog?
}

final class SeedBreedDog: Object {
    @Persisted var name: String = ""
    @Persisted var age: Int = 0
    @Persisted var breed: String?
    // No backlink to person -- one-directional relationship
}

/// The "Auto-updating results" loop's model.
final class SeedAgingPerson: Object {
    @Persisted var name = ""
    @Persisted var age = 0
}

@Suite struct SeedCollectionsTests {
    // MARK: RealmCollection and AnyRealmCollection

    func operateOn<C: RealmCollection>(collection: C) -> String {
        // Collection could be either Results or List
        return "operating on collection containing \(collection.count) objects"
    }

    @Test func genericCodeOverEveryRealmCollection() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let group = SeedMyModelGroup(value: ["title": "all", "models": [["a"], ["b"], ["c"]]])
        try realm.write {
            realm.add(group)
            realm.add(SeedMyModel(value: ["d"]))
        }
        #expect(operateOn(collection: realm.objects(SeedMyModel.self)) == "operating on collection containing 4 objects")
        #expect(operateOn(collection: group.models) == "operating on collection containing 3 objects")
        let first = try #require(group.models.first)
        #expect(operateOn(collection: first.groups) == "operating on collection containing 1 objects")
        #expect(operateOn(collection: AnyRealmCollection(group.models)) == "operating on collection containing 3 objects")
        // An unmanaged list is a Realm collection too.
        #expect(operateOn(collection: List<Int>()) == "operating on collection containing 0 objects")
    }

    @Test func storingAnyRealmCollection() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let group = SeedMyModelGroup(value: ["title": "all", "models": [["a"], ["b"]]])
        try realm.write { realm.add(group) }

        let fromResults = SeedViewController(collection: realm.objects(SeedMyModel.self))
        let fromList = SeedViewController(collection: group.models)
        let fromLinkingObjects = SeedViewController(collection: group.models[0].groups.first!.models)
        #expect(fromResults.collection.count == 2)
        #expect(fromList.collection.map(\.name) == ["a", "b"])
        #expect(fromLinkingObjects.collection[1].name == "b")
        // Stored collections stay live.
        try realm.write { group.models.append(SeedMyModel(value: ["c"])) }
        #expect(fromResults.collection.count == 3)
        #expect(fromList.collection.last?.name == "c")
        #expect(fromResults.collection.realm == realm)
    }

    // MARK: Copying objects between Realms

    @Test func copyingObjectsBetweenRealms() throws {
        let source = try Realm(configuration: inMemoryConfiguration("source"))
        let destination = try Realm(configuration: inMemoryConfiguration("destination"))
        let original = SeedKennel(value: ["name": "Happy Paws", "dogs": [[1, "Rex"], [2, "Fido"]]])
        try source.write { source.add(original) }

        let copy = try destination.write {
            destination.create(SeedKennel.self, value: original)
        }
        #expect(copy.realm == destination)
        #expect(copy.name == "Happy Paws")
        #expect(copy.dogs.map(\.name) == ["Rex", "Fido"])
        #expect(destination.object(ofType: SeedKeyedDog.self, forPrimaryKey: 2)?.name == "Fido")
        // The copy is independent of the original.
        try destination.write { copy.name = "Copied Paws" }
        #expect(original.name == "Happy Paws")
        // Copying again with an update policy updates by primary key.
        try source.write { original.dogs[0].name = "Rex II" }
        try destination.write {
            destination.create(SeedKeyedDog.self, value: original.dogs[0], update: true)
        }
        #expect(destination.objects(SeedKeyedDog.self).count == 2)
        #expect(destination.object(ofType: SeedKeyedDog.self, forPrimaryKey: 1)?.name == "Rex II")
    }

    /// Seed 002: "If the object or any related objects are already being
    /// managed by a different Realm an error will be thrown. Instead, use one
    /// of the create functions."
    @Test func addingAnObjectOfAnotherRealmIsAnError() throws {
        let source = try Realm(configuration: inMemoryConfiguration("source"))
        let destination = try Realm(configuration: inMemoryConfiguration("destination"))
        let dog = Dog(value: ["name": "Rex", "age": 1])
        try source.write { source.add(dog) }
        destination.beginWrite()
        let error = #expect(throws: Realm.Error.self) {
            try destination.add(dog, update: .error)
        }
        destination.cancelWrite()
        #expect(error?.message.contains("Dog") == true)
        #expect(destination.objects(Dog.self).isEmpty)
        #expect(dog.realm == source)
    }

    // MARK: Many-to-one

    @Test func manyToOne() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let jim = Person()
        let rex = Dog()
        rex.owner = jim
        #expect(rex.owner === jim)
        jim.name = "Jim"
        try realm.write { realm.add(rex) }
        #expect(realm.objects(Person.self).first?.name == "Jim")
        #expect(rex.owner?.isSameObject(as: jim) == true)

        // Nested properties are reached with normal property syntax.
        let owned = SeedOwnedDog(value: ["name": "Rex", "owner": ["name": "Jim", "address": ["country": "Norway"]]])
        try realm.write { realm.add(owned) }
        let read = try #require(realm.objects(SeedOwnedDog.self).first)
        #expect(read.owner?.address?.country == "Norway")
        try realm.write { read.owner?.address?.country = "Sweden" }
        #expect(realm.objects(SeedCountry.self).first?.country == "Sweden")
    }

    /// Seed 004: a one-directional to-one relationship.
    @Test func oneDirectionalToOne() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let person = SeedDogOwner(value: ["name": "Ann", "dog": ["name": "Rex", "age": 3]])
        try realm.write { realm.add(person) }
        #expect(person.dog?.breed == nil)
        try realm.write { person.dog?.breed = "Collie" }
        #expect(realm.objects(SeedBreedDog.self).first?.breed == "Collie")
        // Clearing the link leaves the dog.
        try realm.write { person.dog = nil }
        #expect(realm.objects(SeedBreedDog.self).count == 1)
    }

    // MARK: Many-to-many

    @Test func manyToMany() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let jim = Person(value: ["name": "Jim"])
        let rex = Dog(value: ["name": "Rex", "age": 3])
        try realm.write {
            realm.add(jim)
            realm.add([Dog(value: ["name": "Fido", "age": 1]), Dog(value: ["name": "Spot", "age": 2]), Dog(value: ["name": "Fidonia", "age": 4])])
        }
        let someDogs = realm.objects(Dog.self).filter("name contains 'Fido'")
        try realm.write {
            jim.dogs.append(objectsIn: someDogs)
            jim.dogs.append(rex)
        }
        // Order of insertion is preserved; rex was added with the append.
        #expect(jim.dogs.map(\.name) == ["Fido", "Fidonia", "Rex"])
        #expect(rex.realm == realm)
        #expect(jim.dogs[2].isSameObject(as: rex))
    }

    @Test func theSameObjectSeveralTimesInAList() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let kennel = SeedKennel(value: ["name": "k"])
        let rex = SeedKeyedDog(value: [1, "Rex"])
        try realm.write {
            realm.add(kennel)
            kennel.dogs.append(rex)
            kennel.dogs.insert(rex, at: 0)
            kennel.dogs.append(rex)
        }
        #expect(kennel.dogs.count == 3)
        for index in 0..<3 {
            #expect(kennel.dogs[index].isSameObject(as: rex))
        }
        #expect(realm.objects(SeedKeyedDog.self).count == 1)
        // One list entry removed, the object and the other entries stay.
        try realm.write { kennel.dogs.remove(at: 1) }
        #expect(kennel.dogs.count == 2)
        #expect(realm.objects(SeedKeyedDog.self).count == 1)
    }

    @Test func listsOfPrimitiveValues() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let date = Date(timeIntervalSince1970: 86_400)
        let object = SeedPrimitiveLists()
        object.bools.append(objectsIn: [true, false])
        object.ints.append(objectsIn: [1, -1])
        object.int8s.append(.min)
        object.int16s.append(.max)
        object.int32s.append(-3)
        object.int64s.append(.max)
        object.floats.append(1.5)
        object.doubles.append(-2.5)
        object.strings.append(objectsIn: ["a", "b", "a"])
        object.datas.append(Data([9]))
        object.dates.append(date)
        object.optionalBools.append(objectsIn: [nil, true])
        object.optionalInts.append(objectsIn: [nil, 2])
        object.optionalInt8s.append(nil)
        object.optionalInt16s.append(16)
        object.optionalInt32s.append(nil)
        object.optionalInt64s.append(64)
        object.optionalFloats.append(objectsIn: [nil, 0.5])
        object.optionalDoubles.append(objectsIn: [0.25, nil])
        object.optionalStrings.append(objectsIn: [nil, "x"])
        object.optionalDatas.append(objectsIn: [nil, Data()])
        object.optionalDates.append(objectsIn: [date, nil])
        try realm.write { realm.add(object) }

        let read = try #require(realm.objects(SeedPrimitiveLists.self).first)
        #expect(Array(read.bools) == [true, false])
        #expect(Array(read.ints) == [1, -1])
        #expect(Array(read.int8s) == [.min])
        #expect(Array(read.int16s) == [.max])
        #expect(Array(read.int32s) == [-3])
        #expect(Array(read.int64s) == [.max])
        #expect(Array(read.floats) == [1.5])
        #expect(Array(read.doubles) == [-2.5])
        #expect(Array(read.strings) == ["a", "b", "a"])
        #expect(Array(read.datas) == [Data([9])])
        #expect(Array(read.dates) == [date])
        #expect(Array(read.optionalBools) == [nil, true])
        #expect(Array(read.optionalInts) == [nil, 2])
        #expect(Array(read.optionalInt8s) == [nil])
        #expect(Array(read.optionalInt16s) == [16])
        #expect(Array(read.optionalInt32s) == [nil])
        #expect(Array(read.optionalInt64s) == [64])
        #expect(Array(read.optionalFloats) == [nil, 0.5])
        #expect(Array(read.optionalDoubles) == [0.25, nil])
        #expect(Array(read.optionalStrings) == [nil, "x"])
        #expect(Array(read.optionalDatas) == [nil, Data()])
        #expect(Array(read.optionalDates) == [date, nil])

        try realm.write {
            read.strings.append("c")
            read.strings.move(from: 3, to: 0)
            read.optionalInts[0] = 7
        }
        #expect(Array(object.strings) == ["c", "a", "b", "a"])
        #expect(Array(object.optionalInts) == [7, 2])

        let schema = try #require(realm.schema["SeedPrimitiveLists"])
        #expect(schema["strings"]?.isList == true)
        #expect(schema["strings"]?.isOptional == false)
        #expect(schema["optionalStrings"]?.isOptional == true)
        #expect(schema["int8s"]?.type == .int)
    }

    // MARK: Inverse relationships

    @Test func inverseRelationships() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let rex = Dog(value: ["name": "Rex", "age": 1])
        #expect(rex.owners.isEmpty)  // unmanaged: empty
        let jim = Person(value: ["name": "Jim"])
        let ann = Person(value: ["name": "Ann"])
        try realm.write {
            realm.add([jim, ann])
            jim.dogs.append(rex)
        }
        #expect(rex.owners.map(\.name) == ["Jim"])
        try realm.write { ann.dogs.append(rex) }
        #expect(Set(rex.owners.map(\.name)) == ["Jim", "Ann"])
        // Adding a dog to Person.dogs does not set Dog.owner: they are
        // independent relationships.
        #expect(rex.owner == nil)
        try realm.write { jim.dogs.removeAll() }
        #expect(rex.owners.map(\.name) == ["Ann"])
    }

    @Test func inverseOfAToOneLink() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let walker = SeedWalker(value: ["name": "Sam"])
        try realm.write {
            realm.add(SeedWalkedDog(value: ["name": "Rex", "walker": walker]))
            realm.add(SeedWalkedDog(value: ["name": "Fido", "walker": walker]))
            realm.add(SeedWalkedDog(value: ["name": "Spot"]))
        }
        #expect(Set(walker.walkedDogs.map(\.name)) == ["Rex", "Fido"])
        try realm.write { walker.walkedDogs.first?.walker = nil }
        #expect(walker.walkedDogs.count == 1)
    }

    /// Seed 004: the backlink "is automatically updated whenever this task
    /// is added to or removed from a user's task list."
    @Test func taskAssignees() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let user = SeedUser(value: ["name": "Ann"])
        let task = SeedTask(value: ["text": "Write tests"])
        try realm.write {
            realm.add(user)
            realm.add(task)
        }
        #expect(task.assignee.isEmpty)
        try realm.write { user.tasks.append(task) }
        #expect(task.assignee.first?.name == "Ann")
        #expect(realm.object(ofType: SeedTask.self, forPrimaryKey: task._id)?.assignee.count == 1)
        try realm.write { user.tasks.remove(at: 0) }
        #expect(task.assignee.isEmpty)
    }

    /// "You cannot manually set the value of an inverse relationship
    /// property."
    @Test func settingLinkingObjectsStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "backlinks"))
            let rex = Dog(value: ["name": "Rex", "age": 1])
            try! realm.write {
                realm.add(rex)
                rex["owners"] = [Person()]
            }
        }
        #expect(seedStandardError(result).contains("Dog.owners"))
    }

    // MARK: Results (from "Queries")

    @Test func autoUpdatingResults() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let puppies = realm.objects(Dog.self).filter("age < 2")
        #expect(puppies.count == 0)
        try realm.write {
            realm.create(Dog.self, value: ["name": "Fido", "age": 1])
            // Results reflect the write transaction in progress.
            #expect(puppies.count == 1)
        }
        #expect(puppies.count == 1)
        let all = realm.objects(Dog.self)
        try realm.write { realm.create(Dog.self, value: ["name": "Rex", "age": 5]) }
        #expect(all.count == 2)
        #expect(puppies.count == 1)
        #expect(puppies.first?.name == "Fido")
    }

    /// A filter written per lookup, with a key path given by `%K`: each
    /// call's values and key path count, though the format is parsed and
    /// planned once per shape.
    @Test func filtersWrittenPerLookup() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            for (index, name) in ["Rex", "Fido", "Spot", "Rex"].enumerated() {
                realm.create(Dog.self, value: ["name": name, "age": index])
            }
        }
        for (name, ages) in [("Rex", [0, 3]), ("Fido", [1]), ("Ghost", []), ("Spot", [2])] {
            #expect(realm.objects(Dog.self).filter("name == %@", name).map(\.age) == ages)
            #expect(realm.objects(Dog.self).filter("%K == %@", "name", name).count == ages.count)
        }
        #expect(realm.objects(Dog.self).filter("%K == %@", "age", 2).first?.name == "Spot")
        #expect(realm.objects(Dog.self).filter("%K > %@ AND %K != %@", "age", 0, "name", "Rex").map(\.name) == ["Fido", "Spot"])
        try realm.write { realm.create(Dog.self, value: ["name": "Fido", "age": 9]) }
        #expect(realm.objects(Dog.self).filter("name == %@", "Fido").map(\.age) == [1, 9])
    }

    /// "The only time a Results is frozen is when fast-enumerating over it."
    @Test func forInEnumeratesASnapshot() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            for index in 0..<5 {
                realm.add(SeedAgingPerson(value: ["p\(index)", index % 2 == 0 ? 10 : 20]))
            }
        }
        try realm.write {
            for person in realm.objects(SeedAgingPerson.self).filter("age == 10") {
                person.age += 1
            }
        }
        #expect(realm.objects(SeedAgingPerson.self).filter("age == 11").count == 3)
        #expect(realm.objects(SeedAgingPerson.self).filter("age == 10").count == 0)
        #expect(realm.objects(SeedAgingPerson.self).filter("age == 20").count == 2)
    }

    /// "Limiting results": reading only the objects needed.
    @Test func limitingResults() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            for index in 0..<20 { realm.add(Dog(value: ["name": "d\(index)", "age": index])) }
        }
        // Loop through the first 5 Dog objects
        // restricting the number of objects read from disk
        let dogs = realm.objects(Dog.self).sorted(byKeyPath: "age")
        var names: [String] = []
        for i in 0..<5 {
            let dog = dogs[i]
            names.append(dog.name)
        }
        #expect(names == ["d0", "d1", "d2", "d3", "d4"])
        #expect(dogs.last?.age == 19)
    }
}
