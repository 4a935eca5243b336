import Foundation
import RealmObjects
import Testing

final class FrozenItem: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var score = 0.0
    @Persisted var tags: List<String>
    @Persisted var friends: List<FrozenItem>
    @Persisted var labels: MutableSet<String>
    @Persisted var counts: Map<String, Int>
    @Persisted var best: FrozenItem?
    @Persisted(originProperty: "friends") var followers: LinkingObjects<FrozenItem>
}

/// Frozen Realms, objects and collections: snapshots that never change and
/// that any thread may read, at once.
@Suite struct FrozenObjectTests {
    private func filledRealm(_ configuration: Realm.Configuration, count: Int = 20) throws -> Realm {
        let realm = try Realm(configuration: configuration)
        try realm.write {
            var previous: FrozenItem?
            for id in 0..<count {
                let item = realm.create(FrozenItem.self, value: ["id": id, "name": "item \(id)", "score": Double(id) / 2])
                item.tags.append(objectsIn: ["a\(id)", "b\(id)"])
                item.labels.insert("label \(id % 3)")
                item.counts["n"] = id
                if let previous {
                    item.friends.append(previous)
                    item.best = previous
                }
                previous = item
            }
        }
        return realm
    }

    @Test func aFrozenRealmDoesNotChange() throws {
        let realm = try filledRealm(inMemoryConfiguration(types: [FrozenItem.self]))
        let frozen = realm.freeze()
        #expect(frozen.isFrozen && !realm.isFrozen)
        #expect(frozen.freeze() == frozen)
        #expect(frozen.thaw() == realm)
        #expect(!frozen.autorefresh)
        try realm.write {
            realm.delete(realm.objects(FrozenItem.self).filter("id < 5"))
            realm.object(ofType: FrozenItem.self, forPrimaryKey: 10)!.name = "changed"
        }
        #expect(realm.objects(FrozenItem.self).count == 15)
        #expect(frozen.objects(FrozenItem.self).count == 20)
        #expect(frozen.object(ofType: FrozenItem.self, forPrimaryKey: 10)?.name == "item 10")
        #expect(frozen.object(ofType: FrozenItem.self, forPrimaryKey: 3)?.name == "item 3")
        #expect(!frozen.refresh())
        #expect(frozen.objects(FrozenItem.self).filter("name == 'changed'").isEmpty)
        #expect(frozen.objects(FrozenItem.self).filter("id < 5").isFrozen)
    }

    @Test func freezingAgainAtTheSameVersionGivesTheSameRealm() throws {
        let realm = try filledRealm(inMemoryConfiguration(types: [FrozenItem.self]), count: 1)
        let first = realm.freeze()
        #expect(realm.freeze() == first)
        try realm.write {}
        let second = realm.freeze()
        #expect(second != first)
        #expect(realm.freeze() == second)
    }

    @Test func frozenObjectsAndCollectionsKeepTheirValues() throws {
        let realm = try filledRealm(inMemoryConfiguration(types: [FrozenItem.self]))
        let item = realm.object(ofType: FrozenItem.self, forPrimaryKey: 7)!
        let frozenItem = item.freeze()
        let frozenResults = realm.objects(FrozenItem.self).sorted(byKeyPath: "id").freeze()
        let frozenTags = item.tags.freeze()
        let frozenLabels = item.labels.freeze()
        let frozenCounts = item.counts.freeze()
        let frozenFollowers = item.followers.freeze()
        #expect(frozenItem.isFrozen && frozenResults.isFrozen && frozenTags.isFrozen)
        #expect(frozenLabels.isFrozen && frozenCounts.isFrozen && frozenFollowers.isFrozen)
        #expect(!item.isFrozen)
        #expect(frozenItem.freeze() === frozenItem)

        try realm.write {
            item.name = "renamed"
            item.tags.append("c")
            item.labels.insert("new")
            item.counts["m"] = 1
            realm.delete(realm.object(ofType: FrozenItem.self, forPrimaryKey: 8)!)
            realm.create(FrozenItem.self, value: ["id": 100])
        }
        #expect(frozenItem.name == "item 7")
        #expect(frozenItem.best?.name == "item 6")
        #expect(frozenItem.best?.isFrozen == true)
        #expect(Array(frozenItem.tags) == ["a7", "b7"])
        #expect(Array(frozenTags) == ["a7", "b7"])
        #expect(Array(frozenLabels) == ["label 1"])
        #expect(frozenCounts["m"] == nil && frozenCounts["n"] == 7)
        #expect(frozenFollowers.map(\.id) == [8])
        #expect(frozenResults.count == 20)
        #expect(frozenResults.map(\.id) == Array(0..<20))
        #expect(frozenResults.last?.id == 19)
        #expect(frozenResults.filter("score >= 9").count == 2)
        #expect(frozenResults.sum(ofProperty: "id") as Int == 190)

        #expect(item.name == "renamed")
        #expect(realm.objects(FrozenItem.self).count == 20)
    }

    @Test func thawGivesTheLiveValueAtTheNewestVersion() throws {
        let realm = try filledRealm(inMemoryConfiguration(types: [FrozenItem.self]))
        let frozenItem = realm.object(ofType: FrozenItem.self, forPrimaryKey: 2)!.freeze()
        let frozenResults = realm.objects(FrozenItem.self).filter("id < 5").freeze()
        let frozenTags = frozenItem.tags
        #expect(frozenTags.isFrozen)
        try realm.write {
            realm.object(ofType: FrozenItem.self, forPrimaryKey: 2)!.name = "renamed"
            realm.delete(realm.object(ofType: FrozenItem.self, forPrimaryKey: 4)!)
        }
        let live = try #require(frozenItem.thaw())
        #expect(!live.isFrozen && live.name == "renamed")
        #expect(live.realm == realm)
        #expect(frozenResults.thaw()?.count == 4)
        #expect(frozenResults.count == 5)
        #expect(frozenTags.thaw()?.isFrozen == false)
        #expect(live.thaw() === live)

        try realm.write { realm.delete(live) }
        #expect(frozenItem.thaw() == nil)
        #expect(frozenTags.thaw() == nil)
        #expect(frozenItem.name == "item 2")
    }

    @Test func freezingInsideAWriteSnapshotsTheVersionBeforeIt() throws {
        let realm = try filledRealm(inMemoryConfiguration(types: [FrozenItem.self]), count: 3)
        realm.beginWrite()
        realm.object(ofType: FrozenItem.self, forPrimaryKey: 0)!.name = "in the write"
        realm.create(FrozenItem.self, value: ["id": 50])
        let frozen = realm.freeze()
        #expect(frozen.objects(FrozenItem.self).count == 3)
        #expect(frozen.object(ofType: FrozenItem.self, forPrimaryKey: 0)?.name == "item 0")
        let frozenItem = realm.object(ofType: FrozenItem.self, forPrimaryKey: 1)!.freeze()
        #expect(frozenItem.name == "item 1")
        try realm.commitWrite()
        #expect(frozen.objects(FrozenItem.self).count == 3)
        #expect(realm.objects(FrozenItem.self).count == 4)
    }

    /// A Realm behind the newest version: SQLite begins reads at the newest
    /// version only, so the frozen Realm takes the live one's read, and the
    /// live Realm moves on, as a refresh would.
    @Test func freezingARealmBehindTheNewestVersion() throws {
        let configuration = inMemoryConfiguration(types: [FrozenItem.self])
        let realm = try filledRealm(configuration, count: 3)
        realm.autorefresh = false
        let kept = realm.objects(FrozenItem.self)
        #expect(kept.count == 3)
        seedRunOnThread {
            let other = try! Realm(configuration: configuration)
            try! other.write { other.create(FrozenItem.self, value: ["id": 9, "name": "from another thread"]) }
        }
        #expect(realm.objects(FrozenItem.self).count == 3)
        let frozen = realm.freeze()
        #expect(frozen.objects(FrozenItem.self).count == 3)
        #expect(frozen.object(ofType: FrozenItem.self, forPrimaryKey: 9) == nil)
        #expect(realm.objects(FrozenItem.self).count == 4)
        #expect(kept.count == 4)
        #expect(realm.freeze() != frozen)
        #expect(realm.freeze().objects(FrozenItem.self).count == 4)
    }

    /// Many threads read the same frozen objects and collections at once;
    /// every read sees the frozen version.
    @Test func manyThreadsReadOneFrozenRealmAtOnce() throws {
        let directory = TemporaryDirectory()
        var configuration = Realm.Configuration(fileURL: directory.file(), objectTypes: [FrozenItem.self])
        configuration.objectTypes = [FrozenItem.self]
        let realm = try filledRealm(configuration, count: 300)
        let frozen = SeedUnchecked(value: (
            results: realm.objects(FrozenItem.self).sorted(byKeyPath: "id").freeze(),
            item: realm.object(ofType: FrozenItem.self, forPrimaryKey: 150)!.freeze()))
        let failures = Locked<[String]>([])
        let group = DispatchGroup()
        for thread in 0..<6 {
            group.enter()
            Thread {
                defer { group.leave() }
                let (results, item) = frozen.value
                for round in 0..<40 {
                    var ids = 0
                    for element in results { ids += element.id }
                    let middle = results[(round * 7 + thread) % 300]
                    let checks = [
                        ids == 300 * 299 / 2,
                        results.count == 300,
                        middle.name == "item \(middle.id)",
                        item.name == "item 150",
                        item.best?.best?.id == 148,
                        Array(item.tags) == ["a150", "b150"],
                        item.followers.first?.id == 151,
                        item.counts["n"] == 150,
                        results.filter("id < 10").count == 10,
                    ]
                    if checks.contains(false) {
                        failures.value.append("thread \(thread) round \(round): \(checks)")
                        return
                    }
                }
            }.start()
        }
        // Meanwhile the live Realm keeps writing.
        for round in 0..<20 {
            try realm.write {
                realm.object(ofType: FrozenItem.self, forPrimaryKey: 150)!.name = "live \(round)"
                realm.create(FrozenItem.self, value: ["id": 1000 + round])
            }
        }
        group.wait()
        #expect(failures.value.isEmpty, "\(failures.value)")
        #expect(realm.objects(FrozenItem.self).count == 320)
    }

    @Test func aFrozenResultsOfAMillionObjectsFreezesWithoutReadingThem() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [FrozenItem.self]))
        try realm.write {
            for id in 0..<10_000 { realm.create(FrozenItem.self, value: ["id": id]) }
        }
        let results = realm.objects(FrozenItem.self).filter("id >= 5000")
        let frozen = results.freeze()
        // Nothing was evaluated yet; the frozen query runs on first use.
        try realm.write { realm.delete(realm.objects(FrozenItem.self).filter("id >= 9000")) }
        #expect(frozen.count == 5000)
        #expect(results.count == 4000)
    }
}
