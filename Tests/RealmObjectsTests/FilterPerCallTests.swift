import Foundation
import RealmObjects
import Synchronization
import Testing

/// A filter written per lookup (`objects(Dog.self).filter("name == %@", name).first`)
/// reuses its parse and plan from the Realm's memo; each call must still
/// see its own arguments and the Realm's current version.
@Suite struct FilterPerCallTests {
    @Test func eachLookupFindsItsOwnObject() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            for index in 0..<50 { realm.add(Dog(value: ["name": "dog\(index)", "age": index])) }
        }
        for index in (0..<50).reversed() {
            #expect(realm.objects(Dog.self).filter("name == %@", "dog\(index)").first?.age == index)
        }
        #expect(realm.objects(Dog.self).filter("name == %@", "nobody").first == nil)
        // Another kind of argument for the same format.
        #expect(realm.objects(Dog.self).filter("age == %@", 7).first?.name == "dog7")
        #expect(realm.objects(Dog.self).filter("age == %@", 7.0).first?.name == "dog7")
        #expect(realm.objects(Dog.self).filter("age == %@", 7.5).first == nil)
    }

    @Test func lookupsSeeEachWrite() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 3])) }
        #expect(realm.objects(Dog.self).filter("name == %@", "Rex").count == 1)
        try realm.write {
            realm.objects(Dog.self).filter("name == %@", "Rex").first!.name = "Max"
            realm.add(Dog(value: ["name": "Rex", "age": 5]))
        }
        #expect(realm.objects(Dog.self).filter("name == %@", "Rex").first?.age == 5)
        #expect(realm.objects(Dog.self).filter("name == %@", "Max").first?.age == 3)
    }

    @Test func realmsOnSeveralThreadsLookUpAtOnce() throws {
        let directory = TemporaryDirectory()
        let configuration = Realm.Configuration(fileURL: directory.url.appendingPathComponent("dogs.realm"), objectTypes: [Dog.self, Person.self])
        let realm = try Realm(configuration: configuration)
        try realm.write {
            for index in 0..<200 { realm.add(Dog(value: ["name": "dog\(index)", "age": index])) }
        }
        let mismatches = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            guard let realm = try? Realm(configuration: configuration) else {
                mismatches.withLock { $0 += 1 }
                return
            }
            for index in stride(from: thread, to: 200, by: 4) where
                realm.objects(Dog.self).filter("name == %@", "dog\(index)").first?.age != index {
                mismatches.withLock { $0 += 1 }
            }
        }
        #expect(mismatches.withLock { $0 } == 0)
    }
}
