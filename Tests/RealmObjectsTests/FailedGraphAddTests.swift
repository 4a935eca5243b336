import Foundation
import RealmObjects
import Testing

/// An add that fails part way through a graph of new objects leaves every
/// object of the graph unmanaged, with the values it had (set by name or by
/// property, lists included), so that it can be fixed and added again.
@Suite struct FailedGraphAddTests {
    final class Kennel: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var favourite: Puppy?
        let puppies = List<Puppy>()
    }

    final class Puppy: Object {
        @Persisted var name = ""
        let tags = List<String>()
    }

    private static let tooLong = String(repeating: "x", count: 16 * 1024 * 1024 + 1)

    private func realm(_ name: String) throws -> Realm {
        try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "failed-graph-add-\(name)",
                                                     objectTypes: [Kennel.self, Puppy.self]))
    }

    /// A kennel whose favourite (added first, whole) is fine and whose second
    /// puppy has a tag over 16 MB.
    private func kennel() -> (kennel: Kennel, favourite: Puppy, bad: Puppy) {
        let favourite = Puppy()
        favourite["name"] = "Ann"
        favourite.tags.append("first")
        let bad = Puppy()
        bad.name = "Bob"
        bad.tags.append(Self.tooLong)
        let kennel = Kennel()
        kennel.id = 1
        kennel.favourite = favourite
        kennel.puppies.append(objectsIn: [favourite, bad])
        return (kennel, favourite, bad)
    }

    @Test func aThrowingAddLeavesTheWholeGraphUnmanaged() throws {
        let realm = try realm("throwing")
        let (kennel, favourite, bad) = kennel()
        realm.beginWrite()
        #expect(throws: Realm.Error.self) { try realm.add(kennel, update: .error) }
        for object in [kennel, favourite, bad] as [Object] {
            #expect(object.realm == nil && !object.isInvalidated)
        }
        #expect(favourite.name == "Ann" && Array(favourite.tags) == ["first"])
        #expect(kennel.favourite === favourite && kennel.puppies.count == 2)
        #expect(realm.objects(Puppy.self).isEmpty && realm.objects(Kennel.self).isEmpty)

        // Fixed, the same graph adds in the same transaction.
        bad.tags.removeAll()
        try realm.add(kennel, update: .error)
        try realm.commitWrite()
        #expect(realm.objects(Puppy.self).count == 2)
        #expect(favourite.realm != nil && favourite.name == "Ann" && Array(favourite.tags) == ["first"])
        #expect(realm.objects(Kennel.self).first?.puppies.map(\.name) == ["Ann", "Bob"])
    }

    @Test func aFailedAssignmentLeavesItsGraphUnmanaged() throws {
        let realm = try realm("assignment")
        try realm.write { realm.add(Kennel()) }
        let stored = try #require(realm.objects(Kennel.self).first)
        let (_, favourite, bad) = kennel()
        favourite.tags.append(Self.tooLong)
        // The failure is reported by the commit, which rolls the write back.
        #expect(throws: Realm.Error.self) {
            try realm.write {
                stored.favourite = favourite
                stored.puppies.append(bad)
            }
        }
        #expect(favourite.realm == nil && favourite.tags.count == 2)
        #expect(stored.favourite == nil && realm.objects(Puppy.self).isEmpty)
    }
}
