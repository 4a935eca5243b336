import Foundation
import RealmObjects
import Testing

// realm-swift v10.54.6's RealmSwift/Tests/ProjectionTests.swift, ported in
// part.
//
// Ported: the projection basics (testProjectionManualInit … 
// testProjectionFromResultSortedBirthday, testDescription), testObserveKeyPath,
// testObserveMultipleProjectionsFromOneProperty, and the frozen-projection
// tests (testIsFrozen … testThawCreatedOnDifferentThread).
//
// Adaptations: `Decimal128` money is left out of `CommonPerson`;
// notifications are delivered by `refresh()`; `assertThrows` is an exit
// test.
//
// Not ported: testProjectionForAllRealmTypes, testAllPropertyTypes and
// testAllPropertyTypesNotifications (ModernAllTypesObject, with every
// collection projected), testObserveNestedProjection and the typed key
// path observers (`observe(keyPaths: [\PersonProjection.mobile])`),
// and testObserveOnActor.

final class PPortAddress: EmbeddedObject {
    @Persisted var city = ""
    @Persisted var country = ""
}

final class PPortExtraInfo: Object {
    @Persisted var phone: PPortPhoneInfo?
    @Persisted var email: String?
}

final class PPortPhoneInfo: Object {
    @Persisted var mobile: PPortMobile?
}

final class PPortMobile: EmbeddedObject {
    @Persisted var number = ""
}

final class PPortPerson: Object {
    @Persisted var firstName: String
    @Persisted var lastName = ""
    @Persisted var birthday: Date
    @Persisted var address: PPortAddress?
    @Persisted var extras: PPortExtraInfo?
    @Persisted var friends: List<PPortPerson>
    @Persisted var reviews: List<String>
}

final class PPortPersonProjection: Projection<PPortPerson> {
    @Projected(\PPortPerson.firstName) var firstName
    @Projected(\PPortPerson.lastName.localizedUppercase) var lastNameCaps
    @Projected(\PPortPerson.birthday.timeIntervalSince1970) var birthdayAsEpochtime
    @Projected(\PPortPerson.address?.city) var homeCity
    @Projected(\PPortPerson.extras?.email) var email
    @Projected(\PPortPerson.extras?.phone?.mobile?.number) var mobile
    @Projected(\PPortPerson.friends.projectTo.firstName) var firstFriendsName: ProjectedCollection<String>
}

final class PPortSimpleObject: Object {
    @Persisted var int: Int
    @Persisted var bool: Bool
}

final class PPortSimpleProjection: Projection<PPortSimpleObject> {
    @Projected(\PPortSimpleObject.int) var int
}

extension PPortSimpleObject {
    var stringify: String {
        "\(int) - \(bool)"
    }
}

final class PPortAdvancedObject: Object {
    @Persisted(primaryKey: true) var pk: ObjectId
    @Persisted var commonArray: List<Int>
    @Persisted var objectsArray: List<PPortSimpleObject>
    @Persisted var commonSet: MutableSet<Int>
    @Persisted var objectsSet: MutableSet<PPortSimpleObject>
}

final class PPortAdvancedProjection: Projection<PPortAdvancedObject> {
    @Projected(\PPortAdvancedObject.commonArray.count) var arrayLen
    @Projected(\PPortAdvancedObject.commonArray) var renamedArray
    @Projected(\PPortAdvancedObject.objectsArray.projectTo.stringify) var projectedArray: ProjectedCollection<String>
    @Projected(\PPortAdvancedObject.commonSet.first) var firstElement
    @Projected(\PPortAdvancedObject.objectsSet.projectTo.bool) var projectedSet: ProjectedCollection<Bool>
}

final class PPortFailedProjection: Projection<MPortAllTypesObject> {
    @Projected(\MPortAllTypesObject.ignored) var ignored
}

final class PPortMultipleProjectionsFromOneProperty: Projection<PPortSimpleObject> {
    @Projected(\PPortSimpleObject.int) var int1
    @Projected(\PPortSimpleObject.int) var int2
    @Projected(\PPortSimpleObject.int) var int3
}

@Suite struct ProjectionPortTests {
    private func populatedRealm(_ configuration: Realm.Configuration) throws -> Realm {
        let realm = try Realm(configuration: configuration)
        try realm.write {
            let js = realm.create(PPortPerson.self, value: [
                "firstName": "John", "lastName": "Snow", "birthday": Date(timeIntervalSince1970: 10),
                "address": ["city": "Winterfell", "country": "Kingdom in the North"],
                "extras": ["phone": ["mobile": ["number": "555-555-555"]], "email": "john@doe.com"],
            ] as [String: Any])
            let dt = realm.create(PPortPerson.self, value: [
                "firstName": "Daenerys", "lastName": "Targaryen", "birthday": Date(timeIntervalSince1970: 0),
                "address": ["King's Landing", "Westeros"],
            ] as [String: Any])
            js.friends.append(dt)
            dt.friends.append(js)
            realm.create(PPortAdvancedObject.self, value: ["pk": ObjectId.generate(),
                                                           "commonArray": [1, 2, 3],
                                                           "objectsArray": [[1, true] as [Any], [2, false]],
                                                           "commonSet": [1, 2, 3],
                                                           "objectsSet": [[1, true] as [Any], [2, false]]])
        }
        return realm
    }

    private func realm(_ name: String = #function) throws -> Realm {
        try populatedRealm(inMemoryConfiguration(name))
    }

    @Test func projectionManualInit() throws {
        let realm = try realm()
        let johnSnow = realm.objects(PPortPerson.self).filter("lastName == 'Snow'").first!
        let pp = PPortPersonProjection(projecting: johnSnow)
        #expect(pp.homeCity == "Winterfell")
        #expect(pp.birthdayAsEpochtime == Date(timeIntervalSince1970: 10).timeIntervalSince1970)
        #expect(pp.lastNameCaps == "SNOW")
        #expect(pp.mobile == "555-555-555")
    }

    @Test func projectionFromResult() throws {
        let realm = try realm()
        let johnSnow: PPortPersonProjection = realm.objects(PPortPersonProjection.self).first!
        #expect(johnSnow.homeCity == "Winterfell")
        #expect(johnSnow.birthdayAsEpochtime == Date(timeIntervalSince1970: 10).timeIntervalSince1970)
    }

    @Test func projectionFromResultFiltered() throws {
        let realm = try realm()
        let johnSnow: PPortPersonProjection = realm.objects(PPortPersonProjection.self).filter("lastName == 'Snow'").first!
        #expect(johnSnow.homeCity == "Winterfell")
        #expect(johnSnow.email == "john@doe.com")
    }

    @Test func projectionFromResultSorted() throws {
        let realm = try realm()
        let dany: PPortPersonProjection = realm.objects(PPortPersonProjection.self).sorted(byKeyPath: "firstName").first!
        #expect(dany.homeCity == "King's Landing")
        #expect(dany.birthdayAsEpochtime == Date(timeIntervalSince1970: 0).timeIntervalSince1970)
        #expect(dany.email == nil && dany.mobile == nil)
    }

    @Test func projectionEnumeration() throws {
        let realm = try realm()
        #expect(realm.objects(PPortPersonProjection.self).count > 0)
        var names: [String] = []
        for projection in realm.objects(PPortPersonProjection.self) { names.append(projection.firstName) }
        #expect(names == ["John", "Daenerys"])
    }

    @Test func projectionEquality() throws {
        let realm = try realm()
        let johnObject = realm.objects(PPortPerson.self).filter("lastName == 'Snow'").first!
        let johnDefaultInit = PPortPersonProjection(projecting: johnObject)
        let johnMapped = realm.objects(PPortPersonProjection.self).filter("lastName == 'Snow'").first!
        let notJohn = realm.objects(PPortPersonProjection.self).filter("lastName != 'Snow'").first!
        // Realm's CommonPerson has no primary key either: its projections
        // compare their root objects, which are the same instance here
        // only when the same object was projected.
        #expect(johnDefaultInit == PPortPersonProjection(projecting: johnObject))
        #expect(johnMapped != notJohn)
    }

    @Test func description() throws {
        let actual = try realm().objects(PPortPersonProjection.self).filter("lastName == 'Snow'").first!.description
        let expected = #"^PPortPersonProjection<PPortPerson> <0x[0-9a-f]+> \{\n\t\tfirstName\(\\\.firstName\) = John;\n\tlastNameCaps\(\\\.lastName\) = SNOW;\n\tbirthdayAsEpochtime\(\\\.birthday\) = 10\.0;\n\thomeCity\(\\\.address\.city\) = Optional\("Winterfell"\);\n\temail\(\\\.extras\.email\) = Optional\("john@doe\.com"\);\n\tmobile\(\\\.extras\.phone\.mobile\.number\) = Optional\("555-555-555"\);\n\tfirstFriendsName\(\\\.friends\) = ProjectedCollection<String> \{\n\t\[0\] Daenerys\n\};\n\}$"#
        #expect(actual.range(of: expected, options: .regularExpression) != nil, "\(actual)")
    }

    @Test func projectionsRealmShouldNotBeNil() throws {
        #expect(try realm().objects(PPortPersonProjection.self).first!.realm != nil)
    }

    @Test func projectionFromResultSortedBirthday() throws {
        let dany: PPortPersonProjection = try realm().objects(PPortPersonProjection.self).sorted(byKeyPath: "birthday").first!
        #expect(dany.homeCity == "King's Landing")
        #expect(dany.birthdayAsEpochtime == Date(timeIntervalSince1970: 0).timeIntervalSince1970)
        #expect(dany.firstFriendsName.first! == "John")
    }

    @Test func failedProjection() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: inMemoryConfiguration("failedProjection", types: [MPortAllTypesObject.self]))
            try! realm.write { realm.create(MPortAllTypesObject.self, value: ["pk": ObjectId.generate()]) }
            precondition(realm.objects(PPortFailedProjection.self).count > 0)
            _ = realm.objects(PPortFailedProjection.self).first
        }
        #expect(seedStandardError(result).contains("@Projected property 'ignored' must be a part of Realm object"))
    }

    @Test func advancedProjection() throws {
        let proj = try realm().objects(PPortAdvancedProjection.self).first!
        #expect(proj.arrayLen == 3)
        #expect(proj.projectedArray.elementsEqual(["1 - true", "2 - false"]), "'\(proj.projectedArray)' should be equal to '[\"1 - true\", \"2 - false\"]'")
        #expect(proj.renamedArray.elementsEqual([1, 2, 3]))
        #expect(proj.firstElement == 1)
        #expect(proj.projectedSet.elementsEqual([true, false]), "'\(proj.projectedArray)' should be equal to '[true, false]'")
    }

    @Test func observeKeyPath() throws {
        let configuration = inMemoryConfiguration()
        let realm = try populatedRealm(configuration)
        let johnProjection = realm.objects(PPortPersonProjection.self).filter("lastName == 'Snow'").first!
        var changes: [[String]] = []
        let token = johnProjection.observe(keyPaths: ["lastName"], on: nil) { change in
            if case .change(let properties) = change {
                changes.append(properties.map { "\($0.name): \($0.oldValue.map { "\($0)" } ?? "-") -> \($0.newValue.map { "\($0)" } ?? "-")" })
            }
        }
        seedRunOnThread {
            let realm = try! Realm(configuration: configuration)
            try! realm.write {
                realm.objects(PPortPerson.self).filter("lastName == 'Snow'").first!.lastName = "Targaryen"
                realm.objects(PPortPerson.self).filter("lastName == 'Snow'").first?.firstName = "Aegon"
            }
        }
        realm.refresh()
        #expect(changes == [["lastNameCaps: SNOW -> TARGARYEN"]])
        // A change to a property not observed is not reported.
        seedRunOnThread {
            let realm = try! Realm(configuration: configuration)
            try! realm.write { realm.objects(PPortPerson.self).filter("lastName == 'Targaryen'").first!.firstName = "Jon" }
        }
        realm.refresh()
        #expect(changes.count == 1)
        token.invalidate()
    }

    /// Realm's `.change(_, properties)` is `.change(properties)` here (the
    /// seeds' spelling).
    private static func firstChange(_ change: ObjectChange<Projection<PPortPerson>>) -> (name: String, old: String?, new: String?)? {
        guard case .change(let properties) = change, let first = properties.first else { return nil }
        return (first.name, first.oldValue.map { "\($0)" }, first.newValue.map { "\($0)" })
    }

    @Test func observeNestedProjection() throws {
        let configuration = inMemoryConfiguration()
        let realm = try populatedRealm(configuration)
        let johnProjection = realm.objects(PPortPersonProjection.self).first!

        var seen: [(name: String, old: String?, new: String?)] = []
        let token = johnProjection.observe(keyPaths: [\PPortPersonProjection.mobile]) { seen += Self.firstChange($0).map { [$0] } ?? [] }
        seedRunOnThread {
            let realm = try! Realm(configuration: configuration)
            try! realm.write {
                let johnObject = realm.objects(PPortPerson.self).filter("lastName == 'Snow'").first!
                johnObject.extras?.phone?.mobile?.number = "529-345-678"
            }
        }
        realm.refresh()
        #expect(seen.map(\.name) == ["mobile"])
        #expect(seen.first?.new == "Optional(\"529-345-678\")")
        token.invalidate()

        seen = []
        let token2 = johnProjection.observe { seen += Self.firstChange($0).map { [$0] } ?? [] }
        seedRunOnThread {
            let realm = try! Realm(configuration: configuration)
            try! realm.write {
                realm.objects(PPortPerson.self).filter("lastName == 'Snow'").first!.extras?.email = "joe@realm.com"
            }
        }
        realm.refresh()
        #expect(seen.map(\.name) == ["email"])
        #expect(seen.first?.new == "Optional(\"joe@realm.com\")")
        token2.invalidate()

        seen = []
        let token3 = johnProjection.observe { seen += Self.firstChange($0).map { [$0] } ?? [] }
        seedRunOnThread {
            let realm = try! Realm(configuration: configuration)
            try! realm.write {
                realm.objects(PPortPerson.self).filter("lastName == 'Snow'").first!.address?.city = "Barranquilla"
            }
        }
        realm.refresh()
        #expect(seen.map(\.name) == ["homeCity"])
        #expect(seen.first?.new == "Optional(\"Barranquilla\")")
        token3.invalidate()
    }

    @Test func observeComputedChange() throws {
        let configuration = inMemoryConfiguration()
        let realm = try populatedRealm(configuration)
        let johnProjection = realm.objects(PPortPersonProjection.self).first!
        #expect(johnProjection.lastNameCaps == "SNOW")

        var seen: [(name: String, old: String?, new: String?)] = []
        let token = johnProjection.observe(keyPaths: [\PPortPersonProjection.lastNameCaps]) { seen += Self.firstChange($0).map { [$0] } ?? [] }
        realm.refresh()
        seedRunOnThread {
            let realm = try! Realm(configuration: configuration)
            let johnObject = realm.objects(PPortPerson.self).filter("lastName == 'Snow'").first!
            try! realm.write { johnObject.lastName = "Ali" }
        }
        realm.refresh()
        #expect(seen.count == 1)
        #expect(seen.first?.name == "lastNameCaps")
        #expect(seen.first?.old == "SNOW")
        #expect(seen.first?.new == "ALI")
        token.invalidate()
    }

    @Test func observeMultipleProjectionsFromOneProperty() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let object = try realm.write { realm.create(PPortSimpleObject.self) }
        let projection = PPortMultipleProjectionsFromOneProperty(projecting: object)
        var names: [String] = []
        let token = projection.observe { change in
            if case .change(let properties) = change { names = properties.map(\.name) }
        }
        try realm.write { object.int = 1 }
        realm.refresh()
        #expect(names == ["int1", "int2", "int3"])
        token.invalidate()
    }

    // MARK: Frozen projections

    private func simpleProjection(_ realm: Realm) throws -> PPortSimpleProjection {
        let object = try realm.write { realm.create(PPortSimpleObject.self) }
        return PPortSimpleProjection(projecting: object)
    }

    @Test func isFrozen() throws {
        let projection = try simpleProjection(Realm(configuration: inMemoryConfiguration()))
        let frozen = projection.freeze()
        #expect(!projection.isFrozen)
        #expect(frozen.isFrozen)
    }

    @Test func freezingFrozenObjectReturnsSelf() throws {
        let projection = try simpleProjection(Realm(configuration: inMemoryConfiguration()))
        let frozen = projection.freeze()
        #expect(projection != frozen)
        #expect(projection.freeze() !== frozen)
        #expect(frozen == frozen.freeze())
        #expect(frozen.freeze() === frozen)
    }

    @Test func freezingDeletedObject() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "deletedProjection"))
            let object = try! realm.write { realm.create(PPortSimpleObject.self) }
            let projection = PPortSimpleProjection(projecting: object)
            try! realm.write { realm.delete(object) }
            _ = projection.freeze()
        }
        #expect(seedStandardError(result).contains("has been deleted or invalidated."))
    }

    @Test func accessFrozenObjectFromDifferentThread() throws {
        let frozen = SeedUnchecked(value: try simpleProjection(Realm(configuration: inMemoryConfiguration())).freeze())
        let value = Locked(-1)
        seedRunOnThread { value.value = frozen.value.int }
        #expect(value.value == 0)
    }

    @Test func observeFrozenObject() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "observeFrozenProjection"))
            let object = try! realm.write { realm.create(PPortSimpleObject.self) }
            _ = PPortSimpleProjection(projecting: object).freeze().observe { _ in }
        }
        #expect(seedStandardError(result).contains("Frozen Realms do not change and do not have change notifications."))
    }

    @Test func frozenObjectEquality() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let projectionA = try simpleProjection(realm)
        let frozenA1 = projectionA.freeze()
        let frozenA2 = projectionA.freeze()
        #expect(frozenA1 == frozenA2)
        let projectionB = try simpleProjection(realm)
        let frozenB = projectionB.freeze()
        #expect(frozenA1 != frozenB)
    }

    @Test func freezeInsideWriteTransaction() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "freezeInWrite"))
            try! realm.write {
                _ = PPortSimpleProjection(projecting: realm.create(PPortSimpleObject.self)).freeze()
            }
        }
        #expect(seedStandardError(result).contains("Cannot freeze an object in the same write transaction as it was created in."))
        // Frozen objects have the value of the object at the start of the transaction.
        let realm = try realmOnThisThread(inMemoryConfiguration())
        let object = try realm.write { realm.create(PPortSimpleObject.self) }
        let projection = PPortSimpleProjection(projecting: object)
        try realm.write {
            object.int = 2
            #expect(projection.freeze().int == 0)
        }
    }

    @Test func thaw() throws {
        let frozen = try simpleProjection(Realm(configuration: inMemoryConfiguration())).freeze()
        #expect(frozen.isFrozen)
        let live = try #require(frozen.thaw())
        #expect(!live.isFrozen)
        try live.realm!.write { live.int = 2 }
        #expect(live.int != frozen.int)
    }

    @Test func thawDeleted() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let frozen = try simpleProjection(realm).freeze()
        #expect(frozen.isFrozen)
        try realm.write { realm.deleteAll() }
        #expect(frozen.thaw() == nil, "Thaw should return nil when object was deleted")
    }

    @Test func thawPreviousVersion() throws {
        let projection = try simpleProjection(Realm(configuration: inMemoryConfiguration()))
        let frozen = projection.freeze()
        #expect(frozen.isFrozen)
        #expect(projection.int == frozen.int)
        try projection.realm!.write { projection.int = 1 }
        #expect(projection.int != frozen.int, "Frozen object shouldn't mutate")
        let thawed = try #require(frozen.thaw())
        #expect(!thawed.isFrozen)
        #expect(thawed.int == projection.int, "Thawed object should reflect transactions since the original reference was frozen.")
    }

    @Test func thawUpdatedOnDifferentThread() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        let projection = try simpleProjection(realm)
        let tsr = ThreadSafeReference(to: projection)
        let frozenBox = Locked<SeedUnchecked<PPortSimpleProjection>?>(nil)
        seedRunOnThread {
            let realm = try! Realm(configuration: configuration)
            let resolved: PPortSimpleProjection = realm.resolve(tsr)!
            try! realm.write { resolved.int = 1 }
            frozenBox.value = SeedUnchecked(value: resolved.freeze())
        }
        let frozen = try #require(frozenBox.value).value
        let thawed = try #require(frozen.thaw())
        #expect(thawed.int == 0, "Thaw shouldn't reflect background transactions until main thread realm is refreshed")
        realm.refresh()
        #expect(thawed.int == 1)
    }

    @Test func thawCreatedOnDifferentThread() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        #expect(realm.objects(PPortSimpleProjection.self).count == 0)
        let frozenBox = Locked<SeedUnchecked<PPortSimpleProjection>?>(nil)
        seedRunOnThread {
            let realm = try! Realm(configuration: configuration)
            let object = try! realm.write { realm.create(PPortSimpleObject.self) }
            frozenBox.value = SeedUnchecked(value: PPortSimpleProjection(projecting: object).freeze())
        }
        let frozen = try #require(frozenBox.value).value
        #expect(frozen.thaw() == nil)
        #expect(realm.objects(PPortSimpleProjection.self).count == 0)
        realm.refresh()
        #expect(realm.objects(PPortSimpleProjection.self).count == 1)
    }
}
