import Foundation
import RealmObjects
import Testing

// realm-swift v10.54.6's RealmSwift/Tests/ProjectedCollectTests.swift,
// ported: ProjectedCollectionsTestsTemplate's tests, run over both of its
// subclasses (ProjectedListTests and ProjectedSetTests) as an argument.
//
// Adaptations: `CommonPerson` is ProjectionPortTests' `PPortPerson` (no
// `Decimal128` money); expectations on notifications are met by
// `refresh()` on the test's thread; `assertThrows(…, reason:)` is an exit
// test (run on the list: an exit test's body captures nothing, so it
// takes no argument); `dispatchSyncNewThread` is `seedRunOnThread`.
//
// Not ported: `observeOnQueue`, a helper of the template that no test
// calls.

final class PCPortPersistedCollections: Object {
    @Persisted var list: List<PPortPerson>
    @Persisted var set: MutableSet<PPortPerson>
}

final class PCPortProjectedCollections: Projection<PCPortPersistedCollections> {
    @Projected(\PCPortPersistedCollections.list.projectTo.firstName) var list: ProjectedCollection<String>
    @Projected(\PCPortPersistedCollections.set.projectTo.firstName) var set: ProjectedCollection<String>
}

@Suite struct ProjectedCollectionPortTests {
    enum Kind: CaseIterable, CustomStringConvertible {
        case list, set
        var description: String { self == .list ? "ProjectedListTests" : "ProjectedSetTests" }
    }

    /// The template's setUp and the subclass's: three people, a first
    /// object holding them in both collections, and one holding them in
    /// the collection of `kind`; the collection is the first object's.
    private func setUp(_ kind: Kind, _ name: String = #function) throws -> (Realm, ProjectedCollection<String>) {
        let configuration = inMemoryConfiguration("\(name)-\(kind)", types: [PPortPerson.self, PPortAddress.self, PPortExtraInfo.self,
                                                                           PPortPhoneInfo.self, PPortMobile.self, PCPortPersistedCollections.self])
        let realm = try Realm(configuration: configuration)
        try realm.write {
            let js = realm.create(PPortPerson.self, value: ["firstName": "John", "lastName": "Snow",
                                                            "birthday": Date(timeIntervalSince1970: 10),
                                                            "address": ["Winterfell", "Kingdom in the North"]] as [String: Any])
            let dt = realm.create(PPortPerson.self, value: ["firstName": "Daenerys", "lastName": "Targaryen",
                                                            "birthday": Date(timeIntervalSince1970: 0),
                                                            "address": ["King's Landing", "Westeros"]] as [String: Any])
            let tl = realm.create(PPortPerson.self, value: ["firstName": "Tyrion", "lastName": "Lannister",
                                                            "birthday": Date(timeIntervalSince1970: 20),
                                                            "address": ["Casterly Rock", "Westeros"]] as [String: Any])
            js.friends.append(dt)
            js.friends.append(tl)
            dt.friends.append(js)
            realm.create(PCPortPersistedCollections.self, value: [[js, dt, tl], [js, dt, tl]])
        }
        try realm.write {
            let people = realm.objects(PPortPerson.self)
            realm.create(PCPortPersistedCollections.self, value: [kind == .list ? "list" : "set": people])
        }
        let projection = realm.objects(PCPortProjectedCollections.self)[0]
        return (realm, kind == .list ? projection.list : projection.set)
    }

    @Test(arguments: Kind.allCases) func count(_ kind: Kind) throws {
        let (_, collection) = try setUp(kind)
        #expect(collection.count == 3)
    }

    @Test(arguments: Kind.allCases) func access(_ kind: Kind) throws {
        let (_, collection) = try setUp(kind)
        #expect(collection[0] == collection.first)
        #expect(collection[2] == collection.last)
        #expect(collection.firstIndex(of: "Not tere") == nil)
        #expect(collection.firstIndex(of: "Daenerys") != nil)
    }

    @Test(arguments: Kind.allCases) func setValues(_ kind: Kind) throws {
        let (realm, collection) = try setUp(kind)
        try realm.write {
            collection[0] = "Overwrite"
        }
        #expect(collection.first == "Overwrite")
        let chandedObject = realm.objects(PPortPerson.self).filter("firstName == 'Overwrite'").first
        #expect(chandedObject != nil)
    }

    @Test(arguments: Kind.allCases) func freezeThawProjectedCollection(_ kind: Kind) throws {
        let (realm, collection) = try setUp(kind)
        let johnSnow = realm.objects(PPortPersonProjection.self).first!
        let projectedSet = collection.freeze()

        #expect(projectedSet.isFrozen)
        #expect(!johnSnow.isFrozen)

        let frosenJohn = johnSnow.freeze()
        let frozenProjectedSet = frosenJohn.firstFriendsName

        #expect(frosenJohn.isFrozen)
        #expect(projectedSet.isFrozen)
        #expect(frozenProjectedSet.isFrozen)
    }

    @Test(arguments: Kind.allCases) func realm(_ kind: Kind) throws {
        let (realm, collection) = try setUp(kind)
        let collectionRealm = try #require(collection.realm)
        #expect(collectionRealm.configuration.inMemoryIdentifier == realm.configuration.inMemoryIdentifier)
    }

    @Test(arguments: Kind.allCases) func description(_ kind: Kind) throws {
        let (_, collection) = try setUp(kind)
        #expect(collection.description == "ProjectedCollection<String> {\n\t[0] John\n\t[1] Daenerys\n\t[2] Tyrion\n}")
    }

    @Test(arguments: Kind.allCases) func filterFormat(_ kind: Kind) throws {
        let (_, collection) = try setUp(kind)
        #expect(collection.filter { $0 == "Daenerys" }.first != nil)
        #expect(collection.filter { $0 == "Not There" }.first == nil)
    }

    @Test(arguments: Kind.allCases) func sortWithProperty(_ kind: Kind) throws {
        let (_, collection) = try setUp(kind)
        #expect("Tyrion" == collection.sorted { $0 > $1 }.first!)
        #expect("Daenerys" == collection.sorted { $0 > $1 }.last!)
    }

    @Test(arguments: Kind.allCases) func fastEnumeration(_ kind: Kind) throws {
        let (_, collection) = try setUp(kind)
        #expect(collection.count > 0)
        var seen = 0
        for element in collection {
            _ = element
            seen += 1
        }
        #expect(seen == 3)
    }

    @Test(arguments: Kind.allCases) func observe(_ kind: Kind) throws {
        let (realm, collection) = try setUp(kind)
        var first: [String] = []
        let token = collection.observe { changes in
            switch changes {
            case .initial(let collection):
                #expect(collection.count == 3)
                first.append("initial")
            case .update:
                Issue.record("Shouldn't happen")
            case .error:
                Issue.record("Shouldn't happen")
            }
        }
        realm.refresh()
        #expect(first == ["initial"])

        // A second notification, and its initial call.
        var second = 0
        let token2 = collection.observe { _ in second += 1 }
        realm.refresh()
        #expect(second == 1)

        // A write that skips the first token: only the second is called
        // (the first would record an issue on .update).
        realm.beginWrite()
        realm.delete(realm.objects(PPortPerson.self))
        try realm.commitWrite(withoutNotifying: [token])
        realm.refresh()
        #expect(second == 2)

        token.invalidate()
        token2.invalidate()
    }

    @Test(arguments: Kind.allCases) func observeKeyPathNoChange(_ kind: Kind) throws {
        let (realm, collection) = try setUp(kind)
        var calls = 0
        let token0 = collection.observe(keyPaths: ["firstName"]) { changes in
            switch changes {
            case .initial(let collection):
                #expect(collection.count == 3)
            case .update:
                Issue.record("update not expected")
            case .error:
                Issue.record("error not expected")
            }
            calls += 1
        }
        let config = realm.configuration
        seedRunOnThread {
            let realm = try! Realm(configuration: config)
            realm.beginWrite()
            let obj = realm.create(PPortPerson.self)
            obj.firstName = "Name"
            try! realm.commitWrite()
        }
        realm.refresh()
        #expect(calls == 1)
        token0.invalidate()
    }

    @Test(arguments: Kind.allCases) func invalidate(_ kind: Kind) throws {
        let (realm, collection) = try setUp(kind)
        #expect(!collection.isInvalidated)
        realm.invalidate()
        #expect(collection.realm == nil || collection.isInvalidated)
    }

    @Test(arguments: Kind.allCases) func isFrozen(_ kind: Kind) throws {
        let (_, collection) = try setUp(kind)
        #expect(!collection.isFrozen)
        #expect(collection.freeze().isFrozen)
    }

    @Test(arguments: Kind.allCases) func thaw(_ kind: Kind) throws {
        let (_, collection) = try setUp(kind)
        let frozen = collection.freeze()
        #expect(frozen.isFrozen)

        let live = frozen.thaw()
        #expect(!live!.isFrozen)

        let liveRealm = live!.realm!
        try liveRealm.write { liveRealm.delete(liveRealm.objects(PCPortPersistedCollections.self)) }
        #expect(live!.isInvalidated)
        #expect(!frozen.isEmpty)
        try liveRealm.write { liveRealm.delete(liveRealm.objects(PPortPerson.self)) }
        #expect(!frozen.isInvalidated)
    }

    @Test func writingToTheFrozenRealmStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (_, collection) = try! ProjectedCollectionPortTests().setUp(.list, "writingToTheFrozenRealmStops")
            let frozenRealm = collection.freeze().realm!
            try! frozenRealm.write {}
        }
        #expect(seedStandardError(result).contains("Can't perform transactions on a frozen Realm"))
    }

    @Test(arguments: Kind.allCases) func thawFromDifferentThread(_ kind: Kind) throws {
        let (realm, collection) = try setUp(kind)
        let frozen = SeedUnchecked(value: collection.freeze())
        #expect(frozen.value.isFrozen)
        let checks = Locked<[Bool]>([])
        seedRunOnThread {
            let live = frozen.value.thaw()
            let liveRealm = live!.realm!
            try! liveRealm.write { liveRealm.delete(liveRealm.objects(PCPortPersistedCollections.self)) }
            checks.value = [!live!.isFrozen, live!.isInvalidated, !frozen.value.isEmpty]
        }
        #expect(checks.value == [true, true, true])
        withExtendedLifetime(realm) {}
    }

    @Test func freezeFromWrongThread() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (realm, _) = try! ProjectedCollectionPortTests().setUp(.list, "freezeFromWrongThread")
            let collection = SeedUnchecked(value: realm.objects(PPortPersonProjection.self).first!.firstFriendsName)
            seedRunOnThread { _ = collection.value.freeze() }
        }
        #expect(seedStandardError(result).contains("Realm accessed from incorrect thread"))
    }

    @Test(arguments: Kind.allCases) func accessFrozenCollectionFromDifferentThread(_ kind: Kind) throws {
        let (realm, collection) = try setUp(kind)
        let frozen = SeedUnchecked(value: collection.freeze())
        let found = Locked<[Bool]>([])
        seedRunOnThread {
            found.value = [frozen.value.contains(where: { $0 == "Daenerys" }), frozen.value.contains(where: { $0 == "Tyrion" })]
        }
        #expect(found.value == [true, true])
        withExtendedLifetime(realm) {}
    }

    @Test func observeFrozenCollection() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (_, collection) = try! ProjectedCollectionPortTests().setUp(.list, "observeFrozenCollection")
            _ = collection.freeze().observe { _ in }
        }
        #expect(seedStandardError(result).contains("Frozen Realms do not change and do not have change notifications."))
    }

    @Test(arguments: Kind.allCases) func filterFrozenCollection(_ kind: Kind) throws {
        let (_, collection) = try setUp(kind)
        let frozen = collection.freeze()
        #expect(frozen.filter({ $0 == "Daenerys" }).count == 1)
        #expect(frozen.filter({ $0 == "Nothing" }).first == nil)
    }
}
