import Foundation
import RealmObjects
import Testing

/// Collections read objects with their rows, a batch at a time, and loops
/// still walk the snapshot taken when they began, whatever the body writes.
@Suite struct BatchLoadingTests {
    /// More dogs than two batches hold, so that loops cross batches.
    static let dogCount = 700

    func fixture(_ name: String = #function) throws -> Realm {
        let realm = try Realm(configuration: inMemoryConfiguration(name))
        try realm.write {
            for index in 0..<Self.dogCount {
                realm.add(Dog(value: ["name": "dog\(index)", "age": index % 10]))
            }
        }
        return realm
    }

    @Test func loopsReadEveryMatchWithItsValues() throws {
        let realm = try fixture()
        let young = realm.objects(Dog.self).filter("age < 5")
        var names: [String] = []
        var ages = 0
        for dog in young {
            names.append(dog.name)
            ages += dog.age
        }
        #expect(names.count == Self.dogCount / 2)
        #expect(names == (0..<Self.dogCount).filter { $0 % 10 < 5 }.map { "dog\($0)" })
        #expect(ages == (0..<Self.dogCount).map { $0 % 10 }.filter { $0 < 5 }.reduce(0, +))
    }

    @Test func sortedLoopsFollowTheSortOrder() throws {
        let realm = try fixture()
        let dogs = realm.objects(Dog.self).sorted(byKeyPath: "age", ascending: false)
        let ages = dogs.map(\.age)
        #expect(ages == ages.sorted(by: >))
        #expect(ages.count == Self.dogCount)
    }

    /// The seeds' pattern: changing matched objects inside the loop, so that
    /// they stop matching, still visits every object matched at the start.
    @Test func writingInsideTheLoopKeepsTheSnapshot() throws {
        let realm = try fixture()
        let young = realm.objects(Dog.self).filter("age < 5")
        var visited = 0
        try realm.write {
            for dog in young {
                #expect(dog.age < 5)
                dog.age += 5
                visited += 1
            }
        }
        #expect(visited == Self.dogCount / 2)
        #expect(young.count == 0)
    }

    /// A write begun partway through a loop (the read transaction ends) does
    /// not change what the rest of the loop visits.
    @Test func aWriteBegunMidLoopKeepsTheSnapshot() throws {
        let realm = try fixture()
        let dogs = realm.objects(Dog.self)
        var visited: [String] = []
        var deleted = 0
        for (position, dog) in dogs.enumerated() {
            if position == 40 {
                // Deletes half of the dogs the loop has not reached yet.
                try realm.write {
                    realm.delete(realm.objects(Dog.self).filter("age >= 5"))
                }
            }
            if dog.isInvalidated {
                deleted += 1
                continue
            }
            visited.append(dog.name)
            // The values come from the newest version once it changed.
            #expect(dog.name.hasPrefix("dog"))
        }
        #expect(visited.count + deleted == Self.dogCount)
        #expect(deleted == (40..<Self.dogCount).filter { $0 % 10 >= 5 }.count)
    }

    @Test func aLoopThatStopsEarlyReleasesItsStatement() throws {
        let realm = try fixture()
        let dogs = realm.objects(Dog.self)
        for dog in dogs where dog.age == 3 {
            break
        }
        // A second loop and a write both work after the abandoned one.
        #expect(dogs.map(\.name).count == Self.dogCount)
        try realm.write { realm.add(Dog(value: ["name": "late"])) }
        #expect(dogs.count == Self.dogCount + 1)
    }

    @Test func nestedLoopsOverTheSameResults() throws {
        let realm = try fixture()
        let few = realm.objects(Dog.self).filter("age == 0 AND name BEGINSWITH 'dog1'")
        var pairs = 0
        for _ in few {
            for _ in few { pairs += 1 }
        }
        #expect(pairs == few.count * few.count)
        #expect(few.count > 1)
    }

    /// An object read with its row sees later changes: from another instance
    /// of the same object, and from a write on another thread.
    @Test func objectsReadInBatchesStayLive() throws {
        let directory = TemporaryDirectory()
        let configuration = Realm.Configuration(fileURL: directory.file(), objectTypes: [Dog.self, Person.self])
        let realm = try Realm(configuration: configuration)
        try realm.write {
            for index in 0..<50 { realm.add(Dog(value: ["name": "dog\(index)", "age": index])) }
        }
        let dogs = Array(realm.objects(Dog.self))
        #expect(dogs[10].age == 10)
        try realm.write { realm.objects(Dog.self).filter("age == 10").first!.age = 100 }
        #expect(dogs[10].age == 100)

        seedRunOnThread {
            let other = try! Realm(configuration: configuration)
            try! other.write { other.objects(Dog.self).filter("age == 11").first!.name = "renamed" }
        }
        #expect(dogs[11].name == "dog11")
        realm.refresh()
        #expect(dogs[11].name == "renamed")
    }

    @Test func indexAccessReadsRowsAndSeesChanges() throws {
        let realm = try fixture()
        let dogs = realm.objects(Dog.self).filter("age == 7")
        let count = dogs.count
        #expect(count == Self.dogCount / 10)
        for position in 0..<count {
            #expect(dogs[position].age == 7)
            #expect(dogs[position].name == "dog\(position * 10 + 7)")
        }
        let first = dogs[0]
        try realm.write { first.name = "first" }
        #expect(dogs[0].name == "first")
        #expect(dogs.first?.name == "first")
        #expect(dogs.last?.name == "dog\(Self.dogCount - 3)")
    }

    @Test func listsReadTheirObjectsWithRows() throws {
        let realm = try fixture()
        let owner = Person(value: ["name": "owner"])
        try realm.write {
            realm.add(owner)
            owner.dogs.append(objectsIn: realm.objects(Dog.self).sorted(byKeyPath: "name"))
            owner.dogs.append(realm.objects(Dog.self).first!)
        }
        let names = owner.dogs.map(\.name)
        #expect(names.count == Self.dogCount + 1)
        #expect(Array(names.dropLast()) == realm.objects(Dog.self).map(\.name).sorted())
        #expect(names.last == "dog0")
        try realm.write { owner.dogs[0].name = "changed" }
        #expect(owner.dogs.first?.name == "changed")
    }

    @Test func postFilteredQueriesStillIterate() throws {
        let realm = try fixture()
        // Diacritic-insensitive matching runs in Swift after SQL narrows.
        let dogs = realm.objects(Dog.self).filter("name LIKE[d] 'dog1?'")
        #expect(Array(dogs).map(\.name) == (10...19).map { "dog\($0)" })
        #expect(dogs[3].name == "dog13")
    }
}
