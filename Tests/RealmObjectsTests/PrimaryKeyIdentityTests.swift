import Foundation
import RealmObjects
import Testing

/// A class with a required `Int` primary key is stored keyed by it
/// (Docs/FileFormat.md): an object deleted and created again with the same
/// primary key gets the same key. Notifications must still tell the old
/// object from the new one.
@Suite struct PrimaryKeyIdentityTests {
    final class Coupon: Object {
        @Persisted(primaryKey: true) var code: String?
        @Persisted var value = 0
    }

    /// A lookup by primary key reads the object's row with it; later reads
    /// see later writes all the same.
    @Test func lookupsByPrimaryKeyReadTheRow() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            realm.add(City(value: ["id": 4, "name": "Oslo", "population": 700_000]))
            realm.add(Coupon(value: ["code": nil, "value": 1]))
            realm.add(Coupon(value: ["code": "A", "value": 2]))
        }
        let oslo = try #require(realm.object(ofType: City.self, forPrimaryKey: 4))
        #expect(oslo.name == "Oslo" && oslo.population == 700_000)
        try realm.write { oslo.name = "Kristiania" }
        #expect(oslo.name == "Kristiania")
        #expect(realm.object(ofType: City.self, forPrimaryKey: 5) == nil)
        #expect(realm.object(ofType: Coupon.self, forPrimaryKey: nil as String?)?.value == 1)
        // As in Realm's own tests, NSNull finds the nil key too.
        #expect(realm.object(ofType: Coupon.self, forPrimaryKey: NSNull())?.value == 1)
        #expect(realm.object(ofType: Coupon.self, forPrimaryKey: "A")?.value == 2)
        #expect(realm.object(ofType: Coupon.self, forPrimaryKey: "B") == nil)
    }

    @Test func unsortedResultsComeInPrimaryKeyOrder() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            for id in [30, -4, 7, 0] { realm.add(City(value: ["id": id, "name": "c\(id)"])) }
        }
        #expect(realm.objects(City.self).map(\.id) == [-4, 0, 7, 30])
        #expect(realm.objects(City.self).filter("id > 0").map(\.name) == ["c7", "c30"])
        #expect(realm.object(ofType: City.self, forPrimaryKey: -4)?.name == "c-4")
        #expect(realm.objects(City.self).sorted(byKeyPath: "id", ascending: false).map(\.id) == [30, 7, 0, -4])
    }

    @Test func anObjectDeletedAndCreatedAgainIsReportedDeleted() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let old = City(value: ["id": 1, "name": "Oslo"])
        try realm.write { realm.add(old) }
        let sameObject = try #require(realm.object(ofType: City.self, forPrimaryKey: 1))
        var reports: [String] = []
        let token = old.observe { change in
            switch change {
            case .change(let properties): reports.append("change \(properties.map(\.name))")
            case .deleted: reports.append("deleted")
            case .error(let error): reports.append("error \(error)")
            }
        }
        try realm.write {
            realm.delete(old)
            realm.add(City(value: ["id": 1, "name": "Bergen"]))
        }
        realm.refresh()
        #expect(reports == ["deleted"])
        #expect(old.isInvalidated)
        // Another instance of the deleted object reads the new one
        // (Docs/DifferencesFromApplePlatforms.md).
        #expect(!sameObject.isInvalidated && sameObject.name == "Bergen")
        #expect(realm.object(ofType: City.self, forPrimaryKey: 1)?.name == "Bergen")
        token.invalidate()
    }

    @Test func collectionNotificationsFollowARecreatedObject() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        try realm.write {
            for (id, name) in [(1, "Oslo"), (2, "Bergen"), (3, "Tromsø")] { realm.add(City(value: ["id": id, "name": name])) }
        }
        let (token, log) = NotificationTests.observeNames(realm.objects(City.self).sorted(byKeyPath: "name"), \.name)
        // In one write, and across two (each delivered at its commit).
        try realm.write {
            realm.delete(realm.object(ofType: City.self, forPrimaryKey: 2)!)
            realm.add(City(value: ["id": 2, "name": "Alta"]))
        }
        realm.refresh()
        try realm.write { realm.delete(realm.object(ofType: City.self, forPrimaryKey: 3)!) }
        try realm.write { realm.add(City(value: ["id": 3, "name": "Narvik"])) }
        realm.refresh()
        #expect(log.names == ["Alta", "Narvik", "Oslo"])
        // Bergen leaves index 0 and Alta arrives there: a deletion and an
        // insertion, not a modification; then Tromsø leaves, Narvik comes.
        #expect(log.updates.map { [$0.deletions, $0.insertions, $0.modifications] } == [[[0], [0], []], [[2], [], []], [[], [1], []]])

        // Two commits on another thread arrive as one change.
        let done = DispatchSemaphore(value: 0)
        Thread {
            let other = try! Realm(configuration: configuration)
            try! other.write { other.delete(other.object(ofType: City.self, forPrimaryKey: 1)!) }
            try! other.write { other.add(City(value: ["id": 1, "name": "Oslo"])) }
            done.signal()
        }.start()
        done.wait()
        realm.refresh()
        #expect(log.names == ["Alta", "Narvik", "Oslo"])
        #expect(log.updates.last.map { [$0.deletions, $0.insertions, $0.modifications] } == [[2], [2], []])
        token.invalidate()
    }

    /// `add(_:update:)` on a primary key that is taken updates the object in
    /// place: same key, a modification, not a deletion.
    @Test func upsertsModifyInPlace() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let city = City(value: ["id": 9, "name": "Bodø"])
        try realm.write { realm.add(city) }
        var reports: [String] = []
        let token = city.observe { change in
            if case .change(let properties) = change { reports += properties.map(\.name) }
            if case .deleted = change { reports.append("deleted") }
        }
        try realm.write { try realm.add(City(value: ["id": 9, "name": "Molde"]), update: .modified) }
        realm.refresh()
        #expect(reports == ["name"])
        #expect(city.name == "Molde")
        token.invalidate()
    }
}
