import Foundation
import RealmObjects
import Testing

// realm-swift v10.54.6's RealmSwift/Tests/ProjectionTests.swift, ported:
// every test of ProjectionTests (33), with its models (renamed PPort…;
// `ModernAllTypesObject` and its enums are ModernObjectPortTests' MPort…
// ones, `AllTypesPrimitiveProjection` is PPortAllTypesPrimitiveProjection).
//
// Adaptations:
// - Notifications are delivered by `refresh()`, where Realm waits for an
//   expectation, and `XCTestExpectation`s are flags checked after it;
//   observeOnActor polls its count, in a Realm isolated to the main actor
//   (a thread-confined Realm cannot be used across a `@MainActor` test's
//   suspensions here, where the main actor is not one thread), and
//   `CustomGlobalActor` is AsyncAwaitPortTests' `PortGlobalActor`.
// - Realm's `.change(object, properties)` is `.change(properties)` here,
//   with the object as `properties.object` (the seeds' spelling).
// - `assertThrows` is an exit test; `ObjectId("…")` is
//   `ObjectId(string: "…")!`; `allTypeValues` is built one value at a time
//   (as one literal it is more than the type checker takes on).
// - testAllPropertyTypes observes the projection with key-value observing,
//   which Linux does not have: its checks stand on the projection's
//   notifications (see "Key-value observing, as notifications"), and two
//   of its values are typed as the notification gives them (an
//   `AnyRealmValue`, a `Float`) where KVO's `NSNumber` casts to any number.
//
// Found by this port and fixed (Projection.swift):
// - `observe` handed out `ObjectChange<Projection<Root>>`: it is now
//   `ObjectChange<Self>` (`ObjectChange<PersonProjection>`), as in Realm.
// - There was no `observe(keyPaths:on: actor)` for projections.
// - Projections compared as their root objects (by identity, without a
//   primary key): they are now equal when they project the same object
//   through the same Realm, as Realm's `RLMObjectBaseAreEqual`.
// - The old value of a projected property read through a link was lost:
//   the root's notification hands out a linked object as a
//   `DynamicObject`, which the typed root the old values are set on did
//   not take.
//
// Its list checks once were known issues: a list of values' notification
// was a diff of its values, which around equal values (nils, repeated
// numbers) reported other indexes, and nothing for an element set to the
// value it held. Notifications of lists of values now come from the
// change sets' record of the operations, as realm-core's do
// (`ListChangeComposition`), and all of them pass.

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
    @Persisted var money: Decimal128
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

final class PPortAllTypesPrimitiveProjection: Projection<MPortAllTypesObject> {
    @Projected(\MPortAllTypesObject.pk) var pk
    @Projected(\MPortAllTypesObject.boolCol) var boolCol
    @Projected(\MPortAllTypesObject.intCol) var intCol
    @Projected(\MPortAllTypesObject.int8Col) var int8Col
    @Projected(\MPortAllTypesObject.int16Col) var int16Col
    @Projected(\MPortAllTypesObject.int32Col) var int32Col
    @Projected(\MPortAllTypesObject.int64Col) var int64Col
    @Projected(\MPortAllTypesObject.floatCol) var floatCol
    @Projected(\MPortAllTypesObject.doubleCol) var doubleCol
    @Projected(\MPortAllTypesObject.stringCol) var stringCol
    @Projected(\MPortAllTypesObject.binaryCol) var binaryCol
    @Projected(\MPortAllTypesObject.dateCol) var dateCol
    @Projected(\MPortAllTypesObject.decimalCol) var decimalCol
    @Projected(\MPortAllTypesObject.objectIdCol) var objectIdCol
    @Projected(\MPortAllTypesObject.objectCol) var objectCol
    @Projected(\MPortAllTypesObject.arrayCol) var arrayCol
    @Projected(\MPortAllTypesObject.setCol) var setCol
    @Projected(\MPortAllTypesObject.anyCol) var anyCol
    @Projected(\MPortAllTypesObject.uuidCol) var uuidCol
    @Projected(\MPortAllTypesObject.intEnumCol) var intEnumCol
    @Projected(\MPortAllTypesObject.stringEnumCol) var stringEnumCol

    @Projected(\MPortAllTypesObject.optIntCol) var optIntCol
    @Projected(\MPortAllTypesObject.optInt8Col) var optInt8Col
    @Projected(\MPortAllTypesObject.optInt16Col) var optInt16Col
    @Projected(\MPortAllTypesObject.optInt32Col) var optInt32Col
    @Projected(\MPortAllTypesObject.optInt64Col) var optInt64Col
    @Projected(\MPortAllTypesObject.optFloatCol) var optFloatCol
    @Projected(\MPortAllTypesObject.optDoubleCol) var optDoubleCol
    @Projected(\MPortAllTypesObject.optBoolCol) var optBoolCol
    @Projected(\MPortAllTypesObject.optStringCol) var optStringCol
    @Projected(\MPortAllTypesObject.optBinaryCol) var optBinaryCol
    @Projected(\MPortAllTypesObject.optDateCol) var optDateCol
    @Projected(\MPortAllTypesObject.optDecimalCol) var optDecimalCol
    @Projected(\MPortAllTypesObject.optObjectIdCol) var optObjectIdCol
    @Projected(\MPortAllTypesObject.optUuidCol) var optUuidCol
    @Projected(\MPortAllTypesObject.optIntEnumCol) var optIntEnumCol
    @Projected(\MPortAllTypesObject.optStringEnumCol) var optStringEnumCol

    @Projected(\MPortAllTypesObject.arrayBool) var arrayBool
    @Projected(\MPortAllTypesObject.arrayInt) var arrayInt
    @Projected(\MPortAllTypesObject.arrayInt8) var arrayInt8
    @Projected(\MPortAllTypesObject.arrayInt16) var arrayInt16
    @Projected(\MPortAllTypesObject.arrayInt32) var arrayInt32
    @Projected(\MPortAllTypesObject.arrayInt64) var arrayInt64
    @Projected(\MPortAllTypesObject.arrayFloat) var arrayFloat
    @Projected(\MPortAllTypesObject.arrayDouble) var arrayDouble
    @Projected(\MPortAllTypesObject.arrayString) var arrayString
    @Projected(\MPortAllTypesObject.arrayBinary) var arrayBinary
    @Projected(\MPortAllTypesObject.arrayDate) var arrayDate
    @Projected(\MPortAllTypesObject.arrayDecimal) var arrayDecimal
    @Projected(\MPortAllTypesObject.arrayObjectId) var arrayObjectId
    @Projected(\MPortAllTypesObject.arrayAny) var arrayAny
    @Projected(\MPortAllTypesObject.arrayUuid) var arrayUuid

    @Projected(\MPortAllTypesObject.arrayOptBool) var arrayOptBool
    @Projected(\MPortAllTypesObject.arrayOptInt) var arrayOptInt
    @Projected(\MPortAllTypesObject.arrayOptInt8) var arrayOptInt8
    @Projected(\MPortAllTypesObject.arrayOptInt16) var arrayOptInt16
    @Projected(\MPortAllTypesObject.arrayOptInt32) var arrayOptInt32
    @Projected(\MPortAllTypesObject.arrayOptInt64) var arrayOptInt64
    @Projected(\MPortAllTypesObject.arrayOptFloat) var arrayOptFloat
    @Projected(\MPortAllTypesObject.arrayOptDouble) var arrayOptDouble
    @Projected(\MPortAllTypesObject.arrayOptString) var arrayOptString
    @Projected(\MPortAllTypesObject.arrayOptBinary) var arrayOptBinary
    @Projected(\MPortAllTypesObject.arrayOptDate) var arrayOptDate
    @Projected(\MPortAllTypesObject.arrayOptDecimal) var arrayOptDecimal
    @Projected(\MPortAllTypesObject.arrayOptObjectId) var arrayOptObjectId
    @Projected(\MPortAllTypesObject.arrayOptUuid) var arrayOptUuid

    @Projected(\MPortAllTypesObject.setBool) var setBool
    @Projected(\MPortAllTypesObject.setInt) var setInt
    @Projected(\MPortAllTypesObject.setInt8) var setInt8
    @Projected(\MPortAllTypesObject.setInt16) var setInt16
    @Projected(\MPortAllTypesObject.setInt32) var setInt32
    @Projected(\MPortAllTypesObject.setInt64) var setInt64
    @Projected(\MPortAllTypesObject.setFloat) var setFloat
    @Projected(\MPortAllTypesObject.setDouble) var setDouble
    @Projected(\MPortAllTypesObject.setString) var setString
    @Projected(\MPortAllTypesObject.setBinary) var setBinary
    @Projected(\MPortAllTypesObject.setDate) var setDate
    @Projected(\MPortAllTypesObject.setDecimal) var setDecimal
    @Projected(\MPortAllTypesObject.setObjectId) var setObjectId
    @Projected(\MPortAllTypesObject.setAny) var setAny
    @Projected(\MPortAllTypesObject.setUuid) var setUuid

    @Projected(\MPortAllTypesObject.setOptBool) var setOptBool
    @Projected(\MPortAllTypesObject.setOptInt) var setOptInt
    @Projected(\MPortAllTypesObject.setOptInt8) var setOptInt8
    @Projected(\MPortAllTypesObject.setOptInt16) var setOptInt16
    @Projected(\MPortAllTypesObject.setOptInt32) var setOptInt32
    @Projected(\MPortAllTypesObject.setOptInt64) var setOptInt64
    @Projected(\MPortAllTypesObject.setOptFloat) var setOptFloat
    @Projected(\MPortAllTypesObject.setOptDouble) var setOptDouble
    @Projected(\MPortAllTypesObject.setOptString) var setOptString
    @Projected(\MPortAllTypesObject.setOptBinary) var setOptBinary
    @Projected(\MPortAllTypesObject.setOptDate) var setOptDate
    @Projected(\MPortAllTypesObject.setOptDecimal) var setOptDecimal
    @Projected(\MPortAllTypesObject.setOptObjectId) var setOptObjectId
    @Projected(\MPortAllTypesObject.setOptUuid) var setOptUuid

    @Projected(\MPortAllTypesObject.mapBool) var mapBool
    @Projected(\MPortAllTypesObject.mapInt) var mapInt
    @Projected(\MPortAllTypesObject.mapInt8) var mapInt8
    @Projected(\MPortAllTypesObject.mapInt16) var mapInt16
    @Projected(\MPortAllTypesObject.mapInt32) var mapInt32
    @Projected(\MPortAllTypesObject.mapInt64) var mapInt64
    @Projected(\MPortAllTypesObject.mapFloat) var mapFloat
    @Projected(\MPortAllTypesObject.mapDouble) var mapDouble
    @Projected(\MPortAllTypesObject.mapString) var mapString
    @Projected(\MPortAllTypesObject.mapBinary) var mapBinary
    @Projected(\MPortAllTypesObject.mapDate) var mapDate
    @Projected(\MPortAllTypesObject.mapDecimal) var mapDecimal
    @Projected(\MPortAllTypesObject.mapObjectId) var mapObjectId
    @Projected(\MPortAllTypesObject.mapAny) var mapAny
    @Projected(\MPortAllTypesObject.mapUuid) var mapUuid

    @Projected(\MPortAllTypesObject.mapOptBool) var mapOptBool
    @Projected(\MPortAllTypesObject.mapOptInt) var mapOptInt
    @Projected(\MPortAllTypesObject.mapOptInt8) var mapOptInt8
    @Projected(\MPortAllTypesObject.mapOptInt16) var mapOptInt16
    @Projected(\MPortAllTypesObject.mapOptInt32) var mapOptInt32
    @Projected(\MPortAllTypesObject.mapOptInt64) var mapOptInt64
    @Projected(\MPortAllTypesObject.mapOptFloat) var mapOptFloat
    @Projected(\MPortAllTypesObject.mapOptDouble) var mapOptDouble
    @Projected(\MPortAllTypesObject.mapOptString) var mapOptString
    @Projected(\MPortAllTypesObject.mapOptBinary) var mapOptBinary
    @Projected(\MPortAllTypesObject.mapOptDate) var mapOptDate
    @Projected(\MPortAllTypesObject.mapOptDecimal) var mapOptDecimal
    @Projected(\MPortAllTypesObject.mapOptObjectId) var mapOptObjectId
    @Projected(\MPortAllTypesObject.mapOptUuid) var mapOptUuid

    @Projected(\MPortAllTypesObject.linkingObjects) var linkingObjects
}

/// Realm's `KeyPath: @retroactive @unchecked Sendable`, for the key paths
/// the notification tests hand to the thread that writes.
struct PPortKeyPath<Root, Value>: @unchecked Sendable {
    // @unchecked: a key path is immutable; Swift does not yet mark it
    // Sendable (Realm's test file makes every KeyPath Sendable instead).
    let keyPath: ReferenceWritableKeyPath<Root, Value>
}

/// `NSKeyValueChange`'s kinds of a list's change, as the KVO test checks
/// them.
enum PPortListChangeKind {
    case insertion, removal, replacement
}

/// A list, whatever its elements, observed for the indexes of its changes.
protocol PPortIndexedCollection {
    /// Calls `block` with the deleted, inserted and modified indexes of
    /// each change after the first delivery.
    func pportObserveIndexes(_ block: @escaping (_ deletions: [Int], _ insertions: [Int], _ modifications: [Int]) -> Void) -> NotificationToken
}

extension List: PPortIndexedCollection {
    func pportObserveIndexes(_ block: @escaping (_ deletions: [Int], _ insertions: [Int], _ modifications: [Int]) -> Void) -> NotificationToken {
        observe { change in
            if case .update(_, let deletions, let insertions, let modifications) = change { block(deletions, insertions, modifications) }
        }
    }
}

/// A set or map, whatever its values: its contents, to tell whether a
/// write changed them.
protocol PPortSnapshotCollection {
    var pportSnapshot: [String] { get }
}

extension MutableSet: PPortSnapshotCollection {
    var pportSnapshot: [String] { map { "\($0)" }.sorted() }
}

extension Map: PPortSnapshotCollection {
    var pportSnapshot: [String] { map { "\($0.key): \($0.value)" }.sorted() }
}

@Suite struct ProjectionPortTests {
    private func populatedRealm(_ configuration: Realm.Configuration) throws -> Realm {
        let realm = try Realm(configuration: configuration)
        try realm.write {
            let js = realm.create(PPortPerson.self, value: [
                "firstName": "John", "lastName": "Snow", "birthday": Date(timeIntervalSince1970: 10),
                "address": ["city": "Winterfell", "country": "Kingdom in the North"],
                "extras": ["phone": ["mobile": ["number": "555-555-555"]], "email": "john@doe.com"],
                "money": Decimal128("2.22"),
            ] as [String: Any])
            let dt = realm.create(PPortPerson.self, value: [
                "firstName": "Daenerys", "lastName": "Targaryen", "birthday": Date(timeIntervalSince1970: 0),
                "address": ["King's Landing", "Westeros"],
                "money": Decimal128("2.22"),
            ] as [String: Any])
            js.friends.append(dt)
            dt.friends.append(js)

            realm.create(MPortAllTypesObject.self, value: allTypeValues)
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

    /// Realm 10's typed `where` on results of projections: each projected
    /// property stands for the root property it reads (not from
    /// realm-swift's tests, which have none for it).
    @Test func typedWhereOnProjections() throws {
        let realm = try realm()
        let people = realm.objects(PPortPersonProjection.self)
        #expect(people.where { $0.firstName == "John" }.map(\.firstName) == ["John"])
        #expect(people.where { $0.homeCity == "King's Landing" }.map(\.firstName) == ["Daenerys"])
        #expect(people.where { $0.homeCity != nil && $0.firstName.starts(with: "D") }.count == 1)
        #expect(people.where { $0.firstName == "Nobody" }.isEmpty)
        // Live: a later write shows.
        let johns = people.where { $0.firstName == "John" }
        try realm.write { realm.objects(PPortPerson.self).filter("firstName == 'Daenerys'").first!.firstName = "John" }
        #expect(johns.count == 2)
    }

    @Test func projectionManualInit() throws {
        let realm = try realm()
        let johnSnow = realm.objects(PPortPerson.self).filter("lastName == 'Snow'").first!
        let pp = PPortPersonProjection(projecting: johnSnow)
        #expect(pp.homeCity == "Winterfell")
        #expect(pp.birthdayAsEpochtime == Date(timeIntervalSince1970: 10).timeIntervalSince1970)
        #expect(pp.firstFriendsName.first! == "Daenerys")
        #expect(pp.lastNameCaps == "SNOW")
        #expect(pp.mobile == "555-555-555")
    }

    @Test func projectionFromResult() throws {
        let realm = try realm()
        let johnSnow: PPortPersonProjection = realm.objects(PPortPersonProjection.self).first!
        #expect(johnSnow.homeCity == "Winterfell")
        #expect(johnSnow.birthdayAsEpochtime == Date(timeIntervalSince1970: 10).timeIntervalSince1970)
        #expect(johnSnow.firstFriendsName.first! == "Daenerys")
    }

    @Test func projectionFromResultFiltered() throws {
        let realm = try realm()
        let johnSnow: PPortPersonProjection = realm.objects(PPortPersonProjection.self).filter("lastName == 'Snow'").first!
        #expect(johnSnow.homeCity == "Winterfell")
        #expect(johnSnow.birthdayAsEpochtime == Date(timeIntervalSince1970: 10).timeIntervalSince1970)
        #expect(johnSnow.firstFriendsName.first! == "Daenerys")
        #expect(johnSnow.email == "john@doe.com")
    }

    @Test func projectionFromResultSorted() throws {
        let realm = try realm()
        let dany: PPortPersonProjection = realm.objects(PPortPersonProjection.self).sorted(byKeyPath: "firstName").first!
        #expect(dany.homeCity == "King's Landing")
        #expect(dany.birthdayAsEpochtime == Date(timeIntervalSince1970: 0).timeIntervalSince1970)
        #expect(dany.firstFriendsName.first! == "John")
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
        #expect(johnMapped == johnDefaultInit)
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

    @Test func observeNestedProjection() throws {
        let configuration = inMemoryConfiguration()
        let realm = try populatedRealm(configuration)
        let johnProjection = realm.objects(PPortPersonProjection.self).first!

        var fulfilled = false
        let token = johnProjection.observe(keyPaths: [\PPortPersonProjection.mobile]) { changes in
            if case .change(let propertyChange) = changes {
                #expect(propertyChange[0].name == "mobile")
                #expect((propertyChange[0].newValue as? String) == "529-345-678")
                fulfilled = true
            } else {
                Issue.record("expected .change, got \(changes)")
            }
        }
        seedRunOnThread {
            let realm = try! Realm(configuration: configuration)
            try! realm.write {
                let johnObject = realm.objects(PPortPerson.self).filter("lastName == 'Snow'").first!
                johnObject.extras?.phone?.mobile?.number = "529-345-678"
            }
        }
        realm.refresh()
        #expect(fulfilled)
        token.invalidate()

        fulfilled = false
        let token2 = johnProjection.observe { changes in
            if case .change(let propertyChange) = changes {
                #expect(propertyChange[0].name == "email")
                #expect(propertyChange[0].newValue as? String == "joe@realm.com")
                fulfilled = true
            } else {
                Issue.record("expected .change, got \(changes)")
            }
        }
        seedRunOnThread {
            let realm = try! Realm(configuration: configuration)
            try! realm.write {
                let johnObject = realm.objects(PPortPerson.self).filter("lastName == 'Snow'").first!
                johnObject.extras?.email = "joe@realm.com"
            }
        }
        realm.refresh()
        #expect(fulfilled)
        token2.invalidate()

        fulfilled = false
        let token3 = johnProjection.observe { changes in
            if case .change(let propertyChange) = changes {
                let change = propertyChange[0]
                #expect(change.name == "homeCity")
                #expect(change.newValue as? String == "Barranquilla")
                fulfilled = true
            } else {
                Issue.record("expected .change, got \(changes)")
            }
        }
        seedRunOnThread {
            let realm = try! Realm(configuration: configuration)
            try! realm.write {
                let johnObject = realm.objects(PPortPerson.self).filter("lastName == 'Snow'").first!
                johnObject.address?.city = "Barranquilla"
            }
        }
        realm.refresh()
        #expect(fulfilled)
        token3.invalidate()
    }

    @Test func observeComputedChange() throws {
        let configuration = inMemoryConfiguration()
        let realm = try populatedRealm(configuration)
        let johnProjection = realm.objects(PPortPersonProjection.self).first!

        #expect(johnProjection.lastNameCaps == "SNOW")

        var fulfilled = false
        let token = johnProjection.observe(keyPaths: [\PPortPersonProjection.lastNameCaps]) { chg in
            if case let .change(change) = chg {
                fulfilled = true
                guard let value = change.first else {
                    Issue.record("Change should contain PropertyChange")
                    return
                }
                #expect(value.name == "lastNameCaps")
                #expect(value.oldValue as? String == "SNOW")
                #expect(value.newValue as? String == "ALI")
            }
        }

        // Wait for the notifier to be registered before we do the write
        realm.refresh()

        seedRunOnThread {
            let realm = try! Realm(configuration: configuration)
            let johnObject = realm.objects(PPortPerson.self).filter("lastName == 'Snow'").first!
            try! realm.write {
                johnObject.lastName = "Ali"
            }
        }

        realm.refresh()
        #expect(fulfilled)
        token.invalidate()
    }

    @Test func observeMultipleProjectionsFromOneProperty() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        try realm.write {
            realm.create(PPortSimpleObject.self, value: [1, false])
        }
        let projection = realm.objects(PPortMultipleProjectionsFromOneProperty.self).first!

        var fulfilled = false
        let token = projection.observe { c in
            if case let .change(change) = c {
                fulfilled = true
                #expect(change.count == 3)
                for (i, prop) in change.enumerated() {
                    #expect(prop.name == "int\(i + 1)")
                    #expect(prop.oldValue as? Int == 1)
                    #expect(prop.newValue as? Int == 2)
                }
            }
        }

        try realm.write {}

        seedRunOnThread {
            let realm = try! Realm(configuration: configuration)
            try! realm.write {
                realm.objects(PPortSimpleObject.self).first!.int = 2
            }
        }
        realm.refresh()
        #expect(fulfilled)
        token.invalidate()
    }

    @MainActor @Test func observeOnActor() async throws {
        // Isolated to the main actor, which is not one thread here.
        let realm = try await Realm(configuration: inMemoryConfiguration(), actor: MainActor.shared)
        let projection = try simpleProjection(realm)
        let fulfillments = Locked(0)
        let block = { @Sendable (_: isolated PortGlobalActor, change: ObjectChange<PPortSimpleProjection>) in
            guard case let .change(properties) = change else {
                Issue.record("expected .change but got \(change)")
                return
            }
            guard properties.count == 1 else {
                Issue.record("expected one property but got \(properties.properties)")
                return
            }
            let prop = properties[0]
            #expect(prop.name == "int")
            #expect(prop.oldValue as? Int == 0)
            #expect(prop.newValue as? Int == 1)
            fulfillments.value += 1
        }
        let tokens = await [
            projection.observe(keyPaths: ["int"], on: PortGlobalActor.shared, block),
            projection.observe(keyPaths: [\.int], on: PortGlobalActor.shared, block),
        ]

        // should not produce notification
        try projection.realm!.write {
            projection.rootObject.bool = true
        }
        try projection.realm!.write {
            projection.int = 1
        }
        for _ in 0..<500 where fulfillments.value < 2 {
            try await Task.sleep(for: .milliseconds(10))
        }
        // Two, and no more (Realm's expectation fails when over-fulfilled):
        // the write of `bool`, delivered first, is no change of the
        // projection.
        #expect(fulfillments.value == 2)
        tokens.forEach { $0.invalidate() }
    }

    /// Realm's `allTypeValues`, assigned one by one: as one dictionary
    /// literal it is more than the type checker takes on in reasonable time.
    private var allTypeValues: [String: Any] {
        var values: [String: Any] = [:]
        values["boolCol"] = true
        values["intCol"] = 10
        values["int8Col"] = 11 as Int8
        values["int16Col"] = 12 as Int16
        values["int32Col"] = 13 as Int32
        values["int64Col"] = 14 as Int64
        values["floatCol"] = 15 as Float
        values["doubleCol"] = 16 as Double
        values["stringCol"] = "a"
        values["binaryCol"] = Data("b".utf8)
        values["dateCol"] = Date(timeIntervalSince1970: 17)
        values["decimalCol"] = 18 as Decimal128
        values["objectIdCol"] = ObjectId(string: "6058f12b957ba06156586a7c")!
        values["objectCol"] = MPortAllTypesObject(value: ["intCol": 1])
        values["arrayCol"] = [MPortAllTypesObject(value: ["pk": ObjectId(string: "6058f12682b2fbb1f334ef1d")!, "intCol": 2]), MPortAllTypesObject(value: ["pk": ObjectId(string: "6058f12d42e5a393e67538d0")!, "intCol": 3])]
        values["setCol"] = [MPortAllTypesObject(value: ["pk": ObjectId(string: "6058f12d42e5a393e67538d1")!, "intCol": 4]), MPortAllTypesObject(value: ["pk": ObjectId(string: "6058f12682b2fbb1f334ef1f")!, "intCol": 5]), MPortAllTypesObject(value: ["pk": ObjectId(string: "507f1f77bcf86cd799439011")!, "intCol": 6])]
        values["anyCol"] = AnyRealmValue.int(20)
        values["uuidCol"] = UUID(uuidString: "6b28ec45-b29a-4b0a-bd6a-343c7f6d90fd")!
        values["intEnumCol"] = MPortIntEnum.value2
        values["stringEnumCol"] = MPortStringEnum.value3
        values["optBoolCol"] = false
        values["optIntCol"] = 30
        values["optInt8Col"] = 31 as Int8
        values["optInt16Col"] = 32 as Int16
        values["optInt32Col"] = 33 as Int32
        values["optInt64Col"] = 34 as Int64
        values["optFloatCol"] = 35 as Float
        values["optDoubleCol"] = 36 as Double
        values["optStringCol"] = "c"
        values["optBinaryCol"] = Data("d".utf8)
        values["optDateCol"] = Date(timeIntervalSince1970: 37)
        values["optDecimalCol"] = 38 as Decimal128
        values["optObjectIdCol"] = ObjectId(string: "6058f12b957ba06156586a7c")!
        values["optUuidCol"] = UUID(uuidString: "6b28ec45-b29a-4b0a-bd6a-343c7f6d90fd")!
        values["optIntEnumCol"] = MPortIntEnum.value1
        values["optStringEnumCol"] = MPortStringEnum.value1
        values["arrayBool"] = [true, false] as [Bool]
        values["arrayInt"] = [1, 1, 2, 3] as [Int]
        values["arrayInt8"] = [1, 2, 3, 1] as [Int8]
        values["arrayInt16"] = [1, 2, 3, 1] as [Int16]
        values["arrayInt32"] = [1, 2, 3, 1] as [Int32]
        values["arrayInt64"] = [1, 2, 3, 1] as [Int64]
        values["arrayFloat"] = [1 as Float, 2 as Float, 3 as Float, 1 as Float]
        values["arrayDouble"] = [1 as Double, 2 as Double, 3 as Double, 1 as Double]
        values["arrayString"] = ["a", "b", "c"] as [String]
        values["arrayBinary"] = [Data("a".utf8)] as [Data]
        values["arrayDate"] = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1)] as [Date]
        values["arrayDecimal"] = [1 as Decimal128, 2 as Decimal128]
        values["arrayObjectId"] = [ObjectId(string: "6058f12b957ba06156586a7c")!, ObjectId(string: "6058f12682b2fbb1f334ef1d")!]
        values["arrayAny"] = [.none, .int(1), .string("a"), .none] as [AnyRealmValue]
        values["arrayUuid"] = [UUID(uuidString: "6b28ec45-b29a-4b0a-bd6a-343c7f6d90fd")!, UUID(uuidString: "6b28ec45-b29a-4b0a-bd6a-343c7f6d90fe")!]
        values["arrayOptBool"] = [true, false, nil] as [Bool?]
        values["arrayOptInt"] = [1, 1, 2, 3, nil] as [Int?]
        values["arrayOptInt8"] = [1, 2, 3, 1, nil] as [Int8?]
        values["arrayOptInt16"] = [1, 2, 3, 1, nil] as [Int16?]
        values["arrayOptInt32"] = [1, 2, 3, 1, nil] as [Int32?]
        values["arrayOptInt64"] = [1, 2, 3, 1, nil] as [Int64?]
        values["arrayOptFloat"] = [1 as Float, 2 as Float, 3 as Float, 1 as Float, nil]
        values["arrayOptDouble"] = [1 as Double, 2 as Double, 3 as Double, 1 as Double, nil]
        values["arrayOptString"] = ["a", "b", "c", nil]
        values["arrayOptBinary"] = [Data("a".utf8), nil]
        values["arrayOptDate"] = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1), nil]
        values["arrayOptDecimal"] = [1 as Decimal128, 2 as Decimal128, nil]
        values["arrayOptObjectId"] = [ObjectId(string: "6058f12b957ba06156586a7c")!, ObjectId(string: "6058f12682b2fbb1f334ef1d")!, nil]
        values["arrayOptUuid"] = [UUID(uuidString: "6b28ec45-b29a-4b0a-bd6a-343c7f6d90fd")!, UUID(uuidString: "6b28ec45-b29a-4b0a-bd6a-343c7f6d90fe")!, nil]
        values["setBool"] = [true] as [Bool]
        values["setInt"] = [1, 1, 2, 3] as [Int]
        values["setInt8"] = [1, 2, 3, 1] as [Int8]
        values["setInt16"] = [1, 2, 3, 1] as [Int16]
        values["setInt32"] = [1, 2, 3, 1] as [Int32]
        values["setInt64"] = [1, 2, 3, 1] as [Int64]
        values["setFloat"] = [1 as Float, 2 as Float, 3 as Float, 1 as Float]
        values["setDouble"] = [1 as Double, 2 as Double, 3 as Double, 1 as Double]
        values["setString"] = ["a", "b", "c"] as [String]
        values["setBinary"] = [Data("a".utf8)] as [Data]
        values["setDate"] = [Date(timeIntervalSince1970: 1), Date(timeIntervalSince1970: 2)] as [Date]
        values["setDecimal"] = [1 as Decimal128, 2 as Decimal128]
        values["setObjectId"] = [ObjectId(string: "6058f12b957ba06156586a7c")!, ObjectId(string: "6058f12682b2fbb1f334ef1d")!]
        values["setAny"] = [.none, .int(1), .string("a"), .none] as [AnyRealmValue]
        values["setUuid"] = [UUID(uuidString: "6b28ec45-b29a-4b0a-bd6a-343c7f6d90fd")!, UUID(uuidString: "6b28ec45-b29a-4b0a-bd6a-343c7f6d90fe")!, UUID(uuidString: "6b28ec45-b29a-4b0a-bd6a-343c7f6d90ff")!]
        values["setOptBool"] = [true, false, nil] as [Bool?]
        values["setOptInt"] = [1, 1, 2, 3, nil] as [Int?]
        values["setOptInt8"] = [1, 2, 3, 1, nil] as [Int8?]
        values["setOptInt16"] = [1, 2, 3, 1, nil] as [Int16?]
        values["setOptInt32"] = [1, 2, 3, 1, nil] as [Int32?]
        values["setOptInt64"] = [1, 2, 3, 1, nil] as [Int64?]
        values["setOptFloat"] = [1 as Float, 2 as Float, 3 as Float, 1 as Float, nil]
        values["setOptDouble"] = [1 as Double, 2 as Double, 3 as Double, 1 as Double, nil]
        values["setOptString"] = ["a", "b", "c", nil]
        values["setOptBinary"] = [Data("a".utf8), nil]
        values["setOptDate"] = [Date(timeIntervalSince1970: 1), Date(timeIntervalSince1970: 2), nil]
        values["setOptDecimal"] = [1 as Decimal128, 2 as Decimal128, nil]
        values["setOptObjectId"] = [ObjectId(string: "6058f12b957ba06156586a7c")!, ObjectId(string: "6058f12682b2fbb1f334ef1d")!, nil]
        values["setOptUuid"] = [UUID(uuidString: "6b28ec45-b29a-4b0a-bd6a-343c7f6d90fd")!, UUID(uuidString: "6b28ec45-b29a-4b0a-bd6a-343c7f6d90fe")!, UUID(uuidString: "6b28ec45-b29a-4b0a-bd6a-343c7f6d90ff")!, nil]
        values["mapBool"] = ["1": true, "2": false] as [String: Bool]
        values["mapInt"] = ["1": 1, "2": 1, "3": 2, "4": 3] as [String: Int]
        values["mapInt8"] = ["1": 1, "2": 2, "3": 3, "4": 1] as [String: Int8]
        values["mapInt16"] = ["1": 1, "2": 2, "3": 3, "4": 1] as [String: Int16]
        values["mapInt32"] = ["1": 1, "2": 2, "3": 3, "4": 1] as [String: Int32]
        values["mapInt64"] = ["1": 1, "2": 2, "3": 3, "4": 1] as [String: Int64]
        values["mapFloat"] = ["1": 1 as Float, "2": 2 as Float, "3": 3 as Float, "4": 1 as Float]
        values["mapDouble"] = ["1": 1 as Double, "2": 2 as Double, "3": 3 as Double, "4": 1 as Double]
        values["mapString"] = ["1": "a", "2": "b", "3": "c"] as [String: String]
        values["mapBinary"] = ["1": Data("a".utf8)] as [String: Data]
        values["mapDate"] = ["1": Date(timeIntervalSince1970: 1), "2": Date(timeIntervalSince1970: 2)] as [String: Date]
        values["mapDecimal"] = ["1": 1 as Decimal128, "2": 2 as Decimal128]
        values["mapObjectId"] = ["1": ObjectId(string: "6058f12b957ba06156586a7c")!, "2": ObjectId(string: "6058f12682b2fbb1f334ef1d")!]
        values["mapAny"] = ["1": .none, "2": .int(1), "3": .string("a"), "4": .none] as [String: AnyRealmValue]
        values["mapUuid"] = ["1": UUID(uuidString: "6b28ec45-b29a-4b0a-bd6a-343c7f6d90fd")!, "2": UUID(uuidString: "6b28ec45-b29a-4b0a-bd6a-343c7f6d90fe")!, "3": UUID(uuidString: "6b28ec45-b29a-4b0a-bd6a-343c7f6d90ff")!]
        values["mapOptBool"] = ["1": true, "2": false, "3": nil] as [String: Bool?]
        values["mapOptInt"] = ["1": 1, "2": 1, "3": 2, "4": 3, "5": nil] as [String: Int?]
        values["mapOptInt8"] = ["1": 1, "2": 2, "3": 3, "4": 1, "5": nil] as [String: Int8?]
        values["mapOptInt16"] = ["1": 1, "2": 2, "3": 3, "4": 1, "5": nil] as [String: Int16?]
        values["mapOptInt32"] = ["1": 1, "2": 2, "3": 3, "4": 1, "5": nil] as [String: Int32?]
        values["mapOptInt64"] = ["1": 1, "2": 2, "3": 3, "4": 1, "5": nil] as [String: Int64?]
        values["mapOptFloat"] = ["1": 1 as Float, "2": 2 as Float, "3": 3 as Float, "4": 1 as Float, "5": nil]
        values["mapOptDouble"] = ["1": 1 as Double, "2": 2 as Double, "3": 3 as Double, "4": 1 as Double, "5": nil]
        values["mapOptString"] = ["1": "a", "2": "b", "3": "c", "4": nil]
        values["mapOptBinary"] = ["1": Data("a".utf8), "2": nil]
        values["mapOptDate"] = ["1": Date(timeIntervalSince1970: 1), "2": Date(timeIntervalSince1970: 2), "3": nil]
        values["mapOptDecimal"] = ["1": 1 as Decimal128, "2": 2 as Decimal128, "3": nil]
        values["mapOptObjectId"] = ["1": ObjectId(string: "6058f12b957ba06156586a7c")!, "2": ObjectId(string: "6058f12682b2fbb1f334ef1d")!, "3": nil]
        values["mapOptUuid"] = ["1": UUID(uuidString: "6b28ec45-b29a-4b0a-bd6a-343c7f6d90fd")!, "2": UUID(uuidString: "6b28ec45-b29a-4b0a-bd6a-343c7f6d90fe")!, "3": UUID(uuidString: "6b28ec45-b29a-4b0a-bd6a-343c7f6d90ff")!, "4": nil]
        return values
    }

    // MARK: Every property type

    private func assertSetEquals<T: RealmCollectionValue & Hashable>(_ set: MutableSet<T>, _ expected: [T],
                                                                     sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(set.count == Set(expected).count, sourceLocation: sourceLocation)
        #expect(Set(set) == Set(expected), sourceLocation: sourceLocation)
    }

    private func assertEquivalent(_ actual: AnyRealmCollection<MPortAllTypesObject>, _ expected: [MPortAllTypesObject],
                                  expectedShouldBeCopy: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(actual.count == expected.count, sourceLocation: sourceLocation)
        for obj in expected {
            if expectedShouldBeCopy {
                #expect(actual.contains { $0.pk == obj.pk }, sourceLocation: sourceLocation)
            } else {
                #expect(actual.contains(obj), sourceLocation: sourceLocation)
            }
        }
    }

    private func assertMapEquals<T: RealmCollectionValue & Equatable>(_ actual: Map<String, T>, _ expected: [String: T],
                                                                      sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(actual.count == expected.count, sourceLocation: sourceLocation)
        for (key, value) in expected {
            #expect(actual[key] == value, sourceLocation: sourceLocation)
        }
    }

    @Test func projectionForAllRealmTypes() throws {
        let allTypesModel = try realm().objects(PPortAllTypesPrimitiveProjection.self).first!

        #expect(allTypesModel.boolCol == allTypeValues["boolCol"] as! Bool)
        #expect(allTypesModel.intCol == allTypeValues["intCol"] as! Int)
        #expect(allTypesModel.int8Col == allTypeValues["int8Col"] as! Int8)
        #expect(allTypesModel.int16Col == allTypeValues["int16Col"] as! Int16)
        #expect(allTypesModel.int32Col == allTypeValues["int32Col"] as! Int32)
        #expect(allTypesModel.int64Col == allTypeValues["int64Col"] as! Int64)
        #expect(allTypesModel.floatCol == allTypeValues["floatCol"] as! Float)
        #expect(allTypesModel.doubleCol == allTypeValues["doubleCol"] as! Double)
        #expect(allTypesModel.stringCol == allTypeValues["stringCol"] as! String)
        #expect(allTypesModel.binaryCol == allTypeValues["binaryCol"] as! Data)
        #expect(allTypesModel.dateCol == allTypeValues["dateCol"] as! Date)
        #expect(allTypesModel.decimalCol == allTypeValues["decimalCol"] as! Decimal128)
        assertEquivalent(AnyRealmCollection(allTypesModel.arrayCol),
                         allTypeValues["arrayCol"] as! [MPortAllTypesObject],
                         expectedShouldBeCopy: true)
        assertEquivalent(AnyRealmCollection(allTypesModel.setCol),
                         allTypeValues["setCol"] as! [MPortAllTypesObject],
                         expectedShouldBeCopy: true)
        #expect(allTypesModel.anyCol == allTypeValues["anyCol"] as! AnyRealmValue)
        #expect(allTypesModel.uuidCol == allTypeValues["uuidCol"] as! UUID)
        #expect(allTypesModel.intEnumCol == allTypeValues["intEnumCol"] as! MPortIntEnum)
        #expect(allTypesModel.stringEnumCol == allTypeValues["stringEnumCol"] as! MPortStringEnum)

        #expect(allTypesModel.optBoolCol == allTypeValues["optBoolCol"] as! Bool?)
        #expect(allTypesModel.optIntCol == allTypeValues["optIntCol"] as! Int?)
        #expect(allTypesModel.optInt8Col == allTypeValues["optInt8Col"] as! Int8?)
        #expect(allTypesModel.optInt16Col == allTypeValues["optInt16Col"] as! Int16?)
        #expect(allTypesModel.optInt32Col == allTypeValues["optInt32Col"] as! Int32?)
        #expect(allTypesModel.optInt64Col == allTypeValues["optInt64Col"] as! Int64?)
        #expect(allTypesModel.optFloatCol == allTypeValues["optFloatCol"] as! Float?)
        #expect(allTypesModel.optDoubleCol == allTypeValues["optDoubleCol"] as! Double?)
        #expect(allTypesModel.optStringCol == allTypeValues["optStringCol"] as! String?)
        #expect(allTypesModel.optBinaryCol == allTypeValues["optBinaryCol"] as! Data?)
        #expect(allTypesModel.optDateCol == allTypeValues["optDateCol"] as! Date?)
        #expect(allTypesModel.optDecimalCol == allTypeValues["optDecimalCol"] as! Decimal128?)
        #expect(allTypesModel.optObjectIdCol == allTypeValues["optObjectIdCol"] as! ObjectId?)
        #expect(allTypesModel.optUuidCol == allTypeValues["optUuidCol"] as! UUID?)
        #expect(allTypesModel.optIntEnumCol == allTypeValues["optIntEnumCol"] as! MPortIntEnum?)
        #expect(allTypesModel.optStringEnumCol == allTypeValues["optStringEnumCol"] as! MPortStringEnum?)

        #expect(Array(allTypesModel.arrayBool) == allTypeValues["arrayBool"] as! [Bool])
        #expect(Array(allTypesModel.arrayInt) == allTypeValues["arrayInt"] as! [Int])
        #expect(Array(allTypesModel.arrayInt8) == allTypeValues["arrayInt8"] as! [Int8])
        #expect(Array(allTypesModel.arrayInt16) == allTypeValues["arrayInt16"] as! [Int16])
        #expect(Array(allTypesModel.arrayInt32) == allTypeValues["arrayInt32"] as! [Int32])
        #expect(Array(allTypesModel.arrayInt64) == allTypeValues["arrayInt64"] as! [Int64])
        #expect(Array(allTypesModel.arrayFloat) == allTypeValues["arrayFloat"] as! [Float])
        #expect(Array(allTypesModel.arrayDouble) == allTypeValues["arrayDouble"] as! [Double])
        #expect(Array(allTypesModel.arrayString) == allTypeValues["arrayString"] as! [String])
        #expect(Array(allTypesModel.arrayBinary) == allTypeValues["arrayBinary"] as! [Data])
        #expect(Array(allTypesModel.arrayDate) == allTypeValues["arrayDate"] as! [Date])
        #expect(Array(allTypesModel.arrayDecimal) == allTypeValues["arrayDecimal"] as! [Decimal128])
        #expect(Array(allTypesModel.arrayObjectId) == allTypeValues["arrayObjectId"] as! [ObjectId])
        #expect(Array(allTypesModel.arrayAny) == allTypeValues["arrayAny"] as! [AnyRealmValue])
        #expect(Array(allTypesModel.arrayUuid) == allTypeValues["arrayUuid"] as! [UUID])

        #expect(Array(allTypesModel.arrayOptBool) == allTypeValues["arrayOptBool"] as! [Bool?])
        #expect(Array(allTypesModel.arrayOptInt) == allTypeValues["arrayOptInt"] as! [Int?])
        #expect(Array(allTypesModel.arrayOptInt8) == allTypeValues["arrayOptInt8"] as! [Int8?])
        #expect(Array(allTypesModel.arrayOptInt16) == allTypeValues["arrayOptInt16"] as! [Int16?])
        #expect(Array(allTypesModel.arrayOptInt32) == allTypeValues["arrayOptInt32"] as! [Int32?])
        #expect(Array(allTypesModel.arrayOptInt64) == allTypeValues["arrayOptInt64"] as! [Int64?])
        #expect(Array(allTypesModel.arrayOptFloat) == allTypeValues["arrayOptFloat"] as! [Float?])
        #expect(Array(allTypesModel.arrayOptDouble) == allTypeValues["arrayOptDouble"] as! [Double?])
        #expect(Array(allTypesModel.arrayOptString) == allTypeValues["arrayOptString"] as! [String?])
        #expect(Array(allTypesModel.arrayOptBinary) == allTypeValues["arrayOptBinary"] as! [Data?])
        #expect(Array(allTypesModel.arrayOptDate) == allTypeValues["arrayOptDate"] as! [Date?])
        #expect(Array(allTypesModel.arrayOptDecimal) == allTypeValues["arrayOptDecimal"] as! [Decimal128?])
        #expect(Array(allTypesModel.arrayOptObjectId) == allTypeValues["arrayOptObjectId"] as! [ObjectId?])
        #expect(Array(allTypesModel.arrayOptUuid) == allTypeValues["arrayOptUuid"] as! [UUID?])

        assertSetEquals(allTypesModel.setBool, allTypeValues["setBool"] as! [Bool])
        assertSetEquals(allTypesModel.setInt, allTypeValues["setInt"] as! [Int])
        assertSetEquals(allTypesModel.setInt8, allTypeValues["setInt8"] as! [Int8])
        assertSetEquals(allTypesModel.setInt16, allTypeValues["setInt16"] as! [Int16])
        assertSetEquals(allTypesModel.setInt32, allTypeValues["setInt32"] as! [Int32])
        assertSetEquals(allTypesModel.setInt64, allTypeValues["setInt64"] as! [Int64])
        assertSetEquals(allTypesModel.setFloat, allTypeValues["setFloat"] as! [Float])
        assertSetEquals(allTypesModel.setDouble, allTypeValues["setDouble"] as! [Double])
        assertSetEquals(allTypesModel.setString, allTypeValues["setString"] as! [String])
        assertSetEquals(allTypesModel.setBinary, allTypeValues["setBinary"] as! [Data])
        assertSetEquals(allTypesModel.setDate, allTypeValues["setDate"] as! [Date])
        assertSetEquals(allTypesModel.setDecimal, allTypeValues["setDecimal"] as! [Decimal128])
        assertSetEquals(allTypesModel.setObjectId, allTypeValues["setObjectId"] as! [ObjectId])
        assertSetEquals(allTypesModel.setAny, allTypeValues["setAny"] as! [AnyRealmValue])
        assertSetEquals(allTypesModel.setUuid, allTypeValues["setUuid"] as! [UUID])

        assertSetEquals(allTypesModel.setOptBool, allTypeValues["setOptBool"] as! [Bool?])
        assertSetEquals(allTypesModel.setOptInt, allTypeValues["setOptInt"] as! [Int?])
        assertSetEquals(allTypesModel.setOptInt8, allTypeValues["setOptInt8"] as! [Int8?])
        assertSetEquals(allTypesModel.setOptInt16, allTypeValues["setOptInt16"] as! [Int16?])
        assertSetEquals(allTypesModel.setOptInt32, allTypeValues["setOptInt32"] as! [Int32?])
        assertSetEquals(allTypesModel.setOptInt64, allTypeValues["setOptInt64"] as! [Int64?])
        assertSetEquals(allTypesModel.setOptFloat, allTypeValues["setOptFloat"] as! [Float?])
        assertSetEquals(allTypesModel.setOptDouble, allTypeValues["setOptDouble"] as! [Double?])
        assertSetEquals(allTypesModel.setOptString, allTypeValues["setOptString"] as! [String?])
        assertSetEquals(allTypesModel.setOptBinary, allTypeValues["setOptBinary"] as! [Data?])
        assertSetEquals(allTypesModel.setOptDate, allTypeValues["setOptDate"] as! [Date?])
        assertSetEquals(allTypesModel.setOptDecimal, allTypeValues["setOptDecimal"] as! [Decimal128?])
        assertSetEquals(allTypesModel.setOptObjectId, allTypeValues["setOptObjectId"] as! [ObjectId?])
        assertSetEquals(allTypesModel.setOptUuid, allTypeValues["setOptUuid"] as! [UUID?])

        assertMapEquals(allTypesModel.mapBool, allTypeValues["mapBool"] as! [String: Bool])
        assertMapEquals(allTypesModel.mapInt, allTypeValues["mapInt"] as! [String: Int])
        assertMapEquals(allTypesModel.mapInt8, allTypeValues["mapInt8"] as! [String: Int8])
        assertMapEquals(allTypesModel.mapInt16, allTypeValues["mapInt16"] as! [String: Int16])
        assertMapEquals(allTypesModel.mapInt32, allTypeValues["mapInt32"] as! [String: Int32])
        assertMapEquals(allTypesModel.mapInt64, allTypeValues["mapInt64"] as! [String: Int64])
        assertMapEquals(allTypesModel.mapFloat, allTypeValues["mapFloat"] as! [String: Float])
        assertMapEquals(allTypesModel.mapDouble, allTypeValues["mapDouble"] as! [String: Double])
        assertMapEquals(allTypesModel.mapString, allTypeValues["mapString"] as! [String: String])
        assertMapEquals(allTypesModel.mapBinary, allTypeValues["mapBinary"] as! [String: Data])
        assertMapEquals(allTypesModel.mapDate, allTypeValues["mapDate"] as! [String: Date])
        assertMapEquals(allTypesModel.mapDecimal, allTypeValues["mapDecimal"] as! [String: Decimal128])
        assertMapEquals(allTypesModel.mapObjectId, allTypeValues["mapObjectId"] as! [String: ObjectId])
        assertMapEquals(allTypesModel.mapAny, allTypeValues["mapAny"] as! [String: AnyRealmValue])
        assertMapEquals(allTypesModel.mapUuid, allTypeValues["mapUuid"] as! [String: UUID])

        assertMapEquals(allTypesModel.mapOptBool, allTypeValues["mapOptBool"] as! [String: Bool?])
        assertMapEquals(allTypesModel.mapOptInt, allTypeValues["mapOptInt"] as! [String: Int?])
        assertMapEquals(allTypesModel.mapOptInt8, allTypeValues["mapOptInt8"] as! [String: Int8?])
        assertMapEquals(allTypesModel.mapOptInt16, allTypeValues["mapOptInt16"] as! [String: Int16?])
        assertMapEquals(allTypesModel.mapOptInt32, allTypeValues["mapOptInt32"] as! [String: Int32?])
        assertMapEquals(allTypesModel.mapOptInt64, allTypeValues["mapOptInt64"] as! [String: Int64?])
        assertMapEquals(allTypesModel.mapOptFloat, allTypeValues["mapOptFloat"] as! [String: Float?])
        assertMapEquals(allTypesModel.mapOptDouble, allTypeValues["mapOptDouble"] as! [String: Double?])
        assertMapEquals(allTypesModel.mapOptString, allTypeValues["mapOptString"] as! [String: String?])
        assertMapEquals(allTypesModel.mapOptBinary, allTypeValues["mapOptBinary"] as! [String: Data?])
        assertMapEquals(allTypesModel.mapOptDate, allTypeValues["mapOptDate"] as! [String: Date?])
        assertMapEquals(allTypesModel.mapOptDecimal, allTypeValues["mapOptDecimal"] as! [String: Decimal128?])
        assertMapEquals(allTypesModel.mapOptObjectId, allTypeValues["mapOptObjectId"] as! [String: ObjectId?])
        assertMapEquals(allTypesModel.mapOptUuid, allTypeValues["mapOptUuid"] as! [String: UUID?])
    }

    // MARK: Notifications of every property type

    /// Observes `keyPath` of `obj`; the returned flag is set when the
    /// notification came, with one property, `expectedName`, whose old and
    /// new values `callback` checks.
    private func expectPropertyChange<T>(_ obj: PPortAllTypesPrimitiveProjection,
                                         _ keyPath: KeyPath<PPortAllTypesPrimitiveProjection, T>,
                                         _ expectedName: String,
                                         sourceLocation: SourceLocation,
                                         _ callback: @escaping (PPortAllTypesPrimitiveProjection, Any?, Any?) -> Void) -> (Locked<Bool>, NotificationToken) {
        let fulfilled = Locked(false)
        let token = obj.observe(keyPaths: [keyPath]) { changes in
            fulfilled.value = true
            guard case let .change(properties) = changes else {
                Issue.record("Expected .change but got \(changes)", sourceLocation: sourceLocation)
                return
            }
            guard properties.count == 1 else {
                Issue.record("Expected one property change but got \(properties.properties)", sourceLocation: sourceLocation)
                return
            }
            let prop = properties[0]
            #expect(prop.name == expectedName, sourceLocation: sourceLocation)
            callback(properties.object, prop.oldValue, prop.newValue)
        }
        return (fulfilled, token)
    }

    private func observeKeyPathChange<E: Equatable>(
        _ obj: PPortAllTypesPrimitiveProjection,
        _ keyPath: ReferenceWritableKeyPath<PPortAllTypesPrimitiveProjection, E>,
        _ name: String, _ new: E, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let old = obj[keyPath: keyPath]
        let (fulfilled, token) = expectPropertyChange(obj, keyPath, name, sourceLocation: sourceLocation) { _, oldValue, newValue in
            let actualOld = oldValue as? E
            let actualNew = newValue as? E

            if E.self != Optional<MPortAllTypesObject>.self {
                #expect(actualOld != actualNew, sourceLocation: sourceLocation)
                #expect(new == actualNew, sourceLocation: sourceLocation)
                #expect(old == actualOld, sourceLocation: sourceLocation)
            }
        }

        // Write on a background thread so that oldValue is present
        let tsr = ThreadSafeReference(to: obj)
        let configuration = obj.realm!.configuration
        let write = SeedUnchecked(value: (PPortKeyPath(keyPath: keyPath), new))
        seedRunOnThread {
            let realm = try! Realm(configuration: configuration)
            let obj = realm.resolve(tsr)!
            try! realm.write {
                obj.int8Col = 5 // Write to another property to verify keypath filtering works
                obj[keyPath: write.value.0.keyPath] = write.value.1
            }
        }
        obj.realm!.refresh()
        #expect(fulfilled.value, "observeKeyPathChange", sourceLocation: sourceLocation)
        token.invalidate()
    }

    private func observeKeyPathChange<E: RealmCollectionValue>(
        _ obj: PPortAllTypesPrimitiveProjection,
        _ keyPath: KeyPath<PPortAllTypesPrimitiveProjection, List<E>>,
        _ name: String, _ new: E, sourceLocation: SourceLocation = #_sourceLocation
    ) where E: Equatable {
        let old = Array(obj[keyPath: keyPath])
        let (fulfilled, token) = expectPropertyChange(obj, keyPath, name, sourceLocation: sourceLocation) { object, oldValue, newValue in
            // We wrote on the same thread, so oldValue is nil. oldValue doesn't
            // really work for collections so it's not worth testing.
            #expect(oldValue == nil, sourceLocation: sourceLocation)

            let observedNew = newValue as? List<E>
            #expect(observedNew === object[keyPath: keyPath], sourceLocation: sourceLocation)
            if let observedNew = observedNew {
                #expect(Array(observedNew) == old + [new], sourceLocation: sourceLocation)
            }
        }

        try! obj.realm!.write {
            obj.int8Col = 5 // Write to another property to verify keypath filtering works
            obj[keyPath: keyPath].append(new)
        }
        obj.realm!.refresh()
        #expect(fulfilled.value, "observeKeyPathChange", sourceLocation: sourceLocation)
        token.invalidate()
    }

    private func observeKeyPathChange<E: RealmCollectionValue & Hashable>(
        _ obj: PPortAllTypesPrimitiveProjection,
        _ keyPath: KeyPath<PPortAllTypesPrimitiveProjection, MutableSet<E>>,
        _ name: String, _ new: E, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let old = Array(obj[keyPath: keyPath])
        let (fulfilled, token) = expectPropertyChange(obj, keyPath, name, sourceLocation: sourceLocation) { object, oldValue, newValue in
            // We wrote on the same thread, so oldValue is nil. oldValue doesn't
            // really work for collections so it's not worth testing.
            #expect(oldValue == nil, sourceLocation: sourceLocation)

            let observedNew = newValue as? MutableSet<E>
            #expect(observedNew === object[keyPath: keyPath], sourceLocation: sourceLocation)
            if let observedNew = observedNew {
                self.assertSetEquals(observedNew, old + [new], sourceLocation: sourceLocation)
            }
        }

        try! obj.realm!.write {
            obj.int8Col = 5 // Write to another property to verify keypath filtering works
            obj[keyPath: keyPath].insert(new)
        }
        obj.realm!.refresh()
        #expect(fulfilled.value, "observeKeyPathChange", sourceLocation: sourceLocation)
        token.invalidate()
    }

    private func observeKeyPathChange<E: RealmCollectionValue & Equatable>(
        _ obj: PPortAllTypesPrimitiveProjection,
        _ keyPath: KeyPath<PPortAllTypesPrimitiveProjection, Map<String, E>>,
        _ name: String, _ new: E, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let old = Dictionary(uniqueKeysWithValues: obj[keyPath: keyPath].map { ($0.key, $0.value) })
        let (fulfilled, token) = expectPropertyChange(obj, keyPath, name, sourceLocation: sourceLocation) { object, oldValue, newValue in
            // We wrote on the same thread, so oldValue is nil. oldValue doesn't
            // really work for collections so it's not worth testing.
            #expect(oldValue == nil, sourceLocation: sourceLocation)

            let observedNew = newValue as? Map<String, E>
            #expect(observedNew === object[keyPath: keyPath], sourceLocation: sourceLocation)
            if let observedNew = observedNew {
                var updated = old
                updated["1"] = new
                self.assertMapEquals(observedNew, updated, sourceLocation: sourceLocation)
            }
        }

        try! obj.realm!.write {
            obj.int8Col = 5 // Write to another property to verify keypath filtering works
            obj[keyPath: keyPath]["1"] = new
        }
        obj.realm!.refresh()
        #expect(fulfilled.value, "observeKeyPathChange", sourceLocation: sourceLocation)
        token.invalidate()
    }

    @Test func allPropertyTypesNotifications() throws {
        let realm = try realm()
        let obj = realm.objects(MPortAllTypesObject.self).first!
        let obs = realm.objects(PPortAllTypesPrimitiveProjection.self).first!

        let data = Data("c".utf8)
        let date = Date(timeIntervalSince1970: 7)
        let decimal = Decimal128(number: 3)
        let objectId = ObjectId.generate()
        let uuid = UUID()
        let object = MPortAllTypesObject(value: ["intCol": 2])
        let anyValue = AnyRealmValue.int(22)

        observeKeyPathChange(obs, \.boolCol, "boolCol", false)
        observeKeyPathChange(obs, \.intCol, "intCol", 2)
        observeKeyPathChange(obs, \.int8Col, "int8Col", 2)
        observeKeyPathChange(obs, \.int16Col, "int16Col", 2)
        observeKeyPathChange(obs, \.int32Col, "int32Col", 2)
        observeKeyPathChange(obs, \.int64Col, "int64Col", 2)
        observeKeyPathChange(obs, \.floatCol, "floatCol", 2.0)
        observeKeyPathChange(obs, \.doubleCol, "doubleCol", 2.0)
        observeKeyPathChange(obs, \.stringCol, "stringCol", "def")
        observeKeyPathChange(obs, \.binaryCol, "binaryCol", data)
        observeKeyPathChange(obs, \.dateCol, "dateCol", date)
        observeKeyPathChange(obs, \.decimalCol, "decimalCol", decimal)
        observeKeyPathChange(obs, \.objectIdCol, "objectIdCol", objectId)
        observeKeyPathChange(obs, \.objectCol, "objectCol", object)
        observeKeyPathChange(obs, \.anyCol, "anyCol", anyValue)
        observeKeyPathChange(obs, \.uuidCol, "uuidCol", uuid)
        observeKeyPathChange(obs, \.intEnumCol, "intEnumCol", .value3)
        observeKeyPathChange(obs, \.stringEnumCol, "stringEnumCol", .value2)
        observeKeyPathChange(obs, \.optIntCol, "optIntCol", 2)
        observeKeyPathChange(obs, \.optInt8Col, "optInt8Col", 2)
        observeKeyPathChange(obs, \.optInt16Col, "optInt16Col", 2)
        observeKeyPathChange(obs, \.optInt32Col, "optInt32Col", 2)
        observeKeyPathChange(obs, \.optInt64Col, "optInt64Col", 2)
        observeKeyPathChange(obs, \.optFloatCol, "optFloatCol", 2.0)
        observeKeyPathChange(obs, \.optDoubleCol, "optDoubleCol", 2.0)
        observeKeyPathChange(obs, \.optBoolCol, "optBoolCol", true)
        observeKeyPathChange(obs, \.optStringCol, "optStringCol", "def")
        observeKeyPathChange(obs, \.optBinaryCol, "optBinaryCol", data)
        observeKeyPathChange(obs, \.optDateCol, "optDateCol", date)
        observeKeyPathChange(obs, \.optDecimalCol, "optDecimalCol", decimal)
        observeKeyPathChange(obs, \.optObjectIdCol, "optObjectIdCol", objectId)
        observeKeyPathChange(obs, \.optUuidCol, "optUuidCol", uuid)
        observeKeyPathChange(obs, \.optIntEnumCol, "optIntEnumCol", .value2)
        observeKeyPathChange(obs, \.optStringEnumCol, "optStringEnumCol", .value2)

        observeKeyPathChange(obs, \.arrayBool, "arrayBool", false)
        observeKeyPathChange(obs, \.arrayInt, "arrayInt", 4)
        observeKeyPathChange(obs, \.arrayInt8, "arrayInt8", 4)
        observeKeyPathChange(obs, \.arrayInt16, "arrayInt16", 4)
        observeKeyPathChange(obs, \.arrayInt32, "arrayInt32", 4)
        observeKeyPathChange(obs, \.arrayInt64, "arrayInt64", 4)
        observeKeyPathChange(obs, \.arrayFloat, "arrayFloat", 4)
        observeKeyPathChange(obs, \.arrayDouble, "arrayDouble", 4)
        observeKeyPathChange(obs, \.arrayString, "arrayString", "d")
        observeKeyPathChange(obs, \.arrayBinary, "arrayBinary", data)
        observeKeyPathChange(obs, \.arrayDate, "arrayDate", date)
        observeKeyPathChange(obs, \.arrayDecimal, "arrayDecimal", decimal)
        observeKeyPathChange(obs, \.arrayObjectId, "arrayObjectId", objectId)
        observeKeyPathChange(obs, \.arrayAny, "arrayAny", anyValue)
        observeKeyPathChange(obs, \.arrayUuid, "arrayUuid", uuid)
        observeKeyPathChange(obs, \.arrayOptBool, "arrayOptBool", true)
        observeKeyPathChange(obs, \.arrayOptInt, "arrayOptInt", 4)
        observeKeyPathChange(obs, \.arrayOptInt8, "arrayOptInt8", 4)
        observeKeyPathChange(obs, \.arrayOptInt16, "arrayOptInt16", 4)
        observeKeyPathChange(obs, \.arrayOptInt32, "arrayOptInt32", 4)
        observeKeyPathChange(obs, \.arrayOptInt64, "arrayOptInt64", 4)
        observeKeyPathChange(obs, \.arrayOptFloat, "arrayOptFloat", 4)
        observeKeyPathChange(obs, \.arrayOptDouble, "arrayOptDouble", 4)
        observeKeyPathChange(obs, \.arrayOptString, "arrayOptString", "d")
        observeKeyPathChange(obs, \.arrayOptBinary, "arrayOptBinary", data)
        observeKeyPathChange(obs, \.arrayOptDate, "arrayOptDate", date)
        observeKeyPathChange(obs, \.arrayOptDecimal, "arrayOptDecimal", decimal)
        observeKeyPathChange(obs, \.arrayOptObjectId, "arrayOptObjectId", objectId)
        observeKeyPathChange(obs, \.arrayOptUuid, "arrayOptUuid", uuid)

        try! realm.write {
            obj.setBool.removeAll()
            obj.setBool.insert(objectsIn: [true])
            obj.setOptBool.removeAll()
            obj.setOptBool.insert(objectsIn: [true, nil])
        }

        observeKeyPathChange(obs, \.setBool, "setBool", false)
        observeKeyPathChange(obs, \.setInt, "setInt", 4)
        observeKeyPathChange(obs, \.setInt8, "setInt8", 4)
        observeKeyPathChange(obs, \.setInt16, "setInt16", 4)
        observeKeyPathChange(obs, \.setInt32, "setInt32", 4)
        observeKeyPathChange(obs, \.setInt64, "setInt64", 4)
        observeKeyPathChange(obs, \.setFloat, "setFloat", 4)
        observeKeyPathChange(obs, \.setDouble, "setDouble", 4)
        observeKeyPathChange(obs, \.setString, "setString", "d")
        observeKeyPathChange(obs, \.setBinary, "setBinary", data)
        observeKeyPathChange(obs, \.setDate, "setDate", date)
        observeKeyPathChange(obs, \.setDecimal, "setDecimal", decimal)
        observeKeyPathChange(obs, \.setObjectId, "setObjectId", objectId)
        observeKeyPathChange(obs, \.setAny, "setAny", anyValue)
        observeKeyPathChange(obs, \.setUuid, "setUuid", uuid)
        observeKeyPathChange(obs, \.setOptBool, "setOptBool", false)
        observeKeyPathChange(obs, \.setOptInt, "setOptInt", 4)
        observeKeyPathChange(obs, \.setOptInt8, "setOptInt8", 4)
        observeKeyPathChange(obs, \.setOptInt16, "setOptInt16", 4)
        observeKeyPathChange(obs, \.setOptInt32, "setOptInt32", 4)
        observeKeyPathChange(obs, \.setOptInt64, "setOptInt64", 4)
        observeKeyPathChange(obs, \.setOptFloat, "setOptFloat", 4)
        observeKeyPathChange(obs, \.setOptDouble, "setOptDouble", 4)
        observeKeyPathChange(obs, \.setOptString, "setOptString", "d")
        observeKeyPathChange(obs, \.setOptBinary, "setOptBinary", data)
        observeKeyPathChange(obs, \.setOptDate, "setOptDate", date)
        observeKeyPathChange(obs, \.setOptDecimal, "setOptDecimal", decimal)
        observeKeyPathChange(obs, \.setOptObjectId, "setOptObjectId", objectId)
        observeKeyPathChange(obs, \.setOptUuid, "setOptUuid", uuid)

        observeKeyPathChange(obs, \.mapBool, "mapBool", false)
        observeKeyPathChange(obs, \.mapInt, "mapInt", 4)
        observeKeyPathChange(obs, \.mapInt8, "mapInt8", 4)
        observeKeyPathChange(obs, \.mapInt16, "mapInt16", 4)
        observeKeyPathChange(obs, \.mapInt32, "mapInt32", 4)
        observeKeyPathChange(obs, \.mapInt64, "mapInt64", 4)
        observeKeyPathChange(obs, \.mapFloat, "mapFloat", 4)
        observeKeyPathChange(obs, \.mapDouble, "mapDouble", 4)
        observeKeyPathChange(obs, \.mapString, "mapString", "d")
        observeKeyPathChange(obs, \.mapBinary, "mapBinary", data)
        observeKeyPathChange(obs, \.mapDate, "mapDate", date)
        observeKeyPathChange(obs, \.mapDecimal, "mapDecimal", decimal)
        observeKeyPathChange(obs, \.mapObjectId, "mapObjectId", objectId)
        observeKeyPathChange(obs, \.mapAny, "mapAny", anyValue)
        observeKeyPathChange(obs, \.mapUuid, "mapUuid", uuid)
        observeKeyPathChange(obs, \.mapOptBool, "mapOptBool", false)
        observeKeyPathChange(obs, \.mapOptInt, "mapOptInt", 4)
        observeKeyPathChange(obs, \.mapOptInt8, "mapOptInt8", 4)
        observeKeyPathChange(obs, \.mapOptInt16, "mapOptInt16", 4)
        observeKeyPathChange(obs, \.mapOptInt32, "mapOptInt32", 4)
        observeKeyPathChange(obs, \.mapOptInt64, "mapOptInt64", 4)
        observeKeyPathChange(obs, \.mapOptFloat, "mapOptFloat", 4)
        observeKeyPathChange(obs, \.mapOptDouble, "mapOptDouble", 4)
        observeKeyPathChange(obs, \.mapOptString, "mapOptString", "d")
        observeKeyPathChange(obs, \.mapOptBinary, "mapOptBinary", data)
        observeKeyPathChange(obs, \.mapOptDate, "mapOptDate", date)
        observeKeyPathChange(obs, \.mapOptDecimal, "mapOptDecimal", decimal)
        observeKeyPathChange(obs, \.mapOptObjectId, "mapOptObjectId", objectId)
        observeKeyPathChange(obs, \.mapOptUuid, "mapOptUuid", uuid)
    }

    // MARK: Key-value observing, as notifications

    // Realm's testAllPropertyTypes observes the projection with KVO
    // (`addObserver(_:forKeyPath:options:context:)`), which Linux does not
    // have. Each check stands here on the projection's notification for
    // the property, the observation Realm offers everywhere:
    // - `observeChange`'s old and new values are the notification's. A
    //   Realm's notifications of its own writes carry no old values (in
    //   Realm as here), so the projection is observed on a queue, whose
    //   Realm sees this thread's write as another's.
    // - `observeListChange`'s kind and indexes are those of the list's own
    //   notification (insertions, deletions, modifications).
    // - `observeSetChange`'s `.setting` is the notification itself. KVO
    //   reports every mutating call, notifications every change: a call
    //   that changes nothing (inserting a member again, emptying an empty
    //   set, removing a key that is not there) is reported by no
    //   notification, in Realm as here, and is checked to be none.

    /// The projection's notification for `key` after `block` is written,
    /// observed on a queue; nil when none came.
    private func observeChange(_ obj: PPortAllTypesPrimitiveProjection, _ key: String,
                               _ block: () -> Void) -> PropertyChange? {
        let received = Locked<[PropertyChange]?>(nil)
        let delivered = DispatchSemaphore(value: 0)
        let token = obj.observe(keyPaths: [key], on: DispatchQueue(label: "PPortKVO")) { change in
            if case .change(let properties) = change { received.value = properties.properties }
            delivered.signal()
        }
        try! obj.realm!.write(block)
        _ = delivered.wait(timeout: .now() + 5)
        token.invalidate()
        return received.value?.first { $0.name == key }
    }

    private func observeChange<T: Equatable>(_ obj: PPortAllTypesPrimitiveProjection, _ key: String, _ old: T?, _ new: T?,
                                             sourceLocation: SourceLocation = #_sourceLocation, _ block: () -> Void) {
        guard let change = observeChange(obj, key, block) else {
            Issue.record("did not get a notification", sourceLocation: sourceLocation)
            return
        }

        #expect(old == change.oldValue as? T, sourceLocation: sourceLocation)
        #expect(new == change.newValue as? T, sourceLocation: sourceLocation)
    }

    /// Whether the projection's notification for `key` came after `block`
    /// was written, delivered by `refresh()`.
    private func notified(_ obj: PPortAllTypesPrimitiveProjection, _ key: String, _ block: () -> Void) -> Bool {
        let realm = obj.realm!
        let notified = Locked(false)
        let token = obj.observe(keyPaths: [key]) { change in
            if case .change = change { notified.value = true }
        }
        try! realm.write(block)
        realm.refresh()
        token.invalidate()
        return notified.value
    }

    private func observeListChange(_ obj: PPortAllTypesPrimitiveProjection, _ key: String, _ kind: PPortListChangeKind,
                                   _ indexes: IndexSet = IndexSet(integer: 0),
                                   sourceLocation: SourceLocation = #_sourceLocation, _ block: () -> Void) {
        let list = obj.rootObject[key] as! PPortIndexedCollection
        let realm = obj.realm!
        let changes = Locked<(deletions: [Int], insertions: [Int], modifications: [Int])?>(nil)
        let token = list.pportObserveIndexes { changes.value = ($0, $1, $2) }
        realm.refresh() // The list's first notification.
        guard notified(obj, key, block) else {
            token.invalidate()
            Issue.record("did not get a notification", sourceLocation: sourceLocation)
            return
        }
        token.invalidate()
        guard let changes = changes.value else {
            Issue.record("the list did not report the change", sourceLocation: sourceLocation)
            return
        }
        let (actualKind, actualIndexes): (PPortListChangeKind?, [Int]) = switch changes {
        case (let deletions, [], []) where !deletions.isEmpty: (.removal, deletions)
        case ([], let insertions, []) where !insertions.isEmpty: (.insertion, insertions)
        case ([], [], let modifications) where !modifications.isEmpty: (.replacement, modifications)
        default: (nil, [])
        }
        #expect(actualKind == kind, "\(changes)", sourceLocation: sourceLocation)
        #expect(IndexSet(actualIndexes) == indexes, sourceLocation: sourceLocation)
    }

    private func newObjects(_ realm: Realm, _ defaultValues: [String: Any] = [:]) -> (MPortAllTypesObject, PPortAllTypesPrimitiveProjection) {
        realm.beginWrite()
        realm.delete(realm.objects(MPortAllTypesObject.self))
        let obj = realm.create(MPortAllTypesObject.self, value: defaultValues)
        let obs = PPortAllTypesPrimitiveProjection(projecting: obj)
        try! realm.commitWrite()
        return (obj, obs)
    }

    private func observeSetChange(_ obj: PPortAllTypesPrimitiveProjection, _ key: String,
                                  sourceLocation: SourceLocation = #_sourceLocation, _ block: () -> Void) {
        let contents = { (obj.rootObject[key] as! PPortSnapshotCollection).pportSnapshot }
        let before = contents()
        let notified = notified(obj, key, block)
        if contents() == before {
            #expect(!notified, "a write that changed nothing was reported", sourceLocation: sourceLocation)
        } else {
            #expect(notified, "did not get a notification", sourceLocation: sourceLocation)
        }
    }

    @Test func allPropertyTypes() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        var (obj, obs) = newObjects(realm, allTypeValues)

        let data = Data("b".utf8)
        let date = Date(timeIntervalSince1970: 2)
        let decimal = Decimal128(number: 3)
        let objectId = ObjectId()
        let uuid = UUID()

        observeChange(obs, "boolCol", true, false) { obj.boolCol = false }
        observeChange(obs, "int8Col", 11 as Int8, 10) { obj.int8Col = 10 }
        observeChange(obs, "int16Col", 12 as Int16, 10) { obj.int16Col = 10 }
        observeChange(obs, "int32Col", 13 as Int32, 10) { obj.int32Col = 10 }
        observeChange(obs, "int64Col", 14 as Int64, 10) { obj.int64Col = 10 }
        observeChange(obs, "floatCol", 15 as Float, 10) { obj.floatCol = 10 }
        observeChange(obs, "doubleCol", 16 as Double, 10) { obj.doubleCol = 10 }
        observeChange(obs, "stringCol", "a", "abc") { obj.stringCol = "abc" }
        observeChange(obs, "objectCol", obj.objectCol, obj) { obj.objectCol = obj }
        observeChange(obs, "binaryCol", obj.binaryCol, data) { obj.binaryCol = data }
        observeChange(obs, "dateCol", obj.dateCol, date) { obj.dateCol = date }
        observeChange(obs, "decimalCol", obj.decimalCol, decimal) { obj.decimalCol = decimal }
        observeChange(obs, "objectIdCol", obj.objectIdCol, objectId) { obj.objectIdCol = objectId }
        observeChange(obs, "uuidCol", obj.uuidCol, uuid) { obj.uuidCol = uuid }
        // The notification's values are AnyRealmValues (KVO's are Objective-C objects).
        observeChange(obs, "anyCol", AnyRealmValue.int(20), .int(1)) { obj.anyCol = .int(1) }

        (obj, obs) = newObjects(realm)

        observeListChange(obs, "arrayCol", .insertion) { obj.arrayCol.append(obj) }
        observeListChange(obs, "arrayCol", .removal) { obj.arrayCol.removeAll() }
        observeSetChange(obs, "setCol") { obj.setCol.insert(obj) }
        observeSetChange(obs, "setCol") { obj.setCol.remove(obj) }

        observeChange(obs, "optIntCol", nil, 10) { obj.optIntCol = 10 }
        // A Float (KVO's NSNumber casts to a Double too).
        observeChange(obs, "optFloatCol", nil, 10 as Float) { obj.optFloatCol = 10 }
        observeChange(obs, "optDoubleCol", nil, 10.0) { obj.optDoubleCol = 10 }
        observeChange(obs, "optBoolCol", nil, true) { obj.optBoolCol = true }
        observeChange(obs, "optStringCol", nil, "abc") { obj.optStringCol = "abc" }
        observeChange(obs, "optBinaryCol", nil, data) { obj.optBinaryCol = data }
        observeChange(obs, "optDateCol", nil, date) { obj.optDateCol = date }
        observeChange(obs, "optDecimalCol", nil, decimal) { obj.optDecimalCol = decimal }
        observeChange(obs, "optObjectIdCol", nil, objectId) { obj.optObjectIdCol = objectId }
        observeChange(obs, "optUuidCol", nil, uuid) { obj.optUuidCol = uuid }

        observeChange(obs, "optIntCol", 10, nil) { obj.optIntCol = nil }
        observeChange(obs, "optFloatCol", 10 as Float, nil) { obj.optFloatCol = nil }
        observeChange(obs, "optDoubleCol", 10.0, nil) { obj.optDoubleCol = nil }
        observeChange(obs, "optBoolCol", true, nil) { obj.optBoolCol = nil }
        observeChange(obs, "optStringCol", "abc", nil) { obj.optStringCol = nil }
        observeChange(obs, "optBinaryCol", data, nil) { obj.optBinaryCol = nil }
        observeChange(obs, "optDateCol", date, nil) { obj.optDateCol = nil }
        observeChange(obs, "optDecimalCol", decimal, nil) { obj.optDecimalCol = nil }
        observeChange(obs, "optObjectIdCol", objectId, nil) { obj.optObjectIdCol = nil }
        observeChange(obs, "optUuidCol", uuid, nil) { obj.optUuidCol = nil }

        // .insertion append
        observeListChange(obs, "arrayBool", .insertion) { obj.arrayBool.append(true) }
        observeListChange(obs, "arrayInt", .insertion) { obj.arrayInt.append(10) }
        observeListChange(obs, "arrayInt8", .insertion) { obj.arrayInt8.append(10) }
        observeListChange(obs, "arrayInt16", .insertion) { obj.arrayInt16.append(10) }
        observeListChange(obs, "arrayInt32", .insertion) { obj.arrayInt32.append(10) }
        observeListChange(obs, "arrayInt64", .insertion) { obj.arrayInt64.append(10) }
        observeListChange(obs, "arrayFloat", .insertion) { obj.arrayFloat.append(10.0) }
        observeListChange(obs, "arrayDouble", .insertion) { obj.arrayDouble.append(10.0) }
        observeListChange(obs, "arrayString", .insertion) { obj.arrayString.append("10") }
        observeListChange(obs, "arrayBinary", .insertion) { obj.arrayBinary.append(data) }
        observeListChange(obs, "arrayDate", .insertion) { obj.arrayDate.append(date) }
        observeListChange(obs, "arrayDecimal", .insertion) { obj.arrayDecimal.append(decimal) }
        observeListChange(obs, "arrayObjectId", .insertion) { obj.arrayObjectId.append(objectId) }
        observeListChange(obs, "arrayAny", .insertion) { obj.arrayAny.append(.int(10)) }
        observeListChange(obs, "arrayUuid", .insertion) { obj.arrayUuid.append(uuid) }

        observeListChange(obs, "arrayOptBool", .insertion) { obj.arrayOptBool.append(true) }
        observeListChange(obs, "arrayOptInt", .insertion) { obj.arrayOptInt.append(10) }
        observeListChange(obs, "arrayOptInt8", .insertion) { obj.arrayOptInt8.append(10) }
        observeListChange(obs, "arrayOptInt16", .insertion) { obj.arrayOptInt16.append(10) }
        observeListChange(obs, "arrayOptInt32", .insertion) { obj.arrayOptInt32.append(10) }
        observeListChange(obs, "arrayOptInt64", .insertion) { obj.arrayOptInt64.append(10) }
        observeListChange(obs, "arrayOptFloat", .insertion) { obj.arrayOptFloat.append(10.0) }
        observeListChange(obs, "arrayOptDouble", .insertion) { obj.arrayOptDouble.append(10.0) }
        observeListChange(obs, "arrayOptString", .insertion) { obj.arrayOptString.append("10") }
        observeListChange(obs, "arrayOptBinary", .insertion) { obj.arrayOptBinary.append(data) }
        observeListChange(obs, "arrayOptDate", .insertion) { obj.arrayOptDate.append(date) }
        observeListChange(obs, "arrayOptDecimal", .insertion) { obj.arrayOptDecimal.append(decimal) }
        observeListChange(obs, "arrayOptObjectId", .insertion) { obj.arrayOptObjectId.append(objectId) }
        observeListChange(obs, "arrayOptUuid", .insertion) { obj.arrayOptUuid.append(uuid) }

        (obj, obs) = newObjects(realm)
        observeListChange(obs, "arrayOptBool", .insertion) { obj.arrayOptBool.append(nil) }
        observeListChange(obs, "arrayOptInt", .insertion) { obj.arrayOptInt.append(nil) }
        observeListChange(obs, "arrayOptInt8", .insertion) { obj.arrayOptInt8.append(nil) }
        observeListChange(obs, "arrayOptInt16", .insertion) { obj.arrayOptInt16.append(nil) }
        observeListChange(obs, "arrayOptInt32", .insertion) { obj.arrayOptInt32.append(nil) }
        observeListChange(obs, "arrayOptInt64", .insertion) { obj.arrayOptInt64.append(nil) }
        observeListChange(obs, "arrayOptFloat", .insertion) { obj.arrayOptFloat.append(nil) }
        observeListChange(obs, "arrayOptDouble", .insertion) { obj.arrayOptDouble.append(nil) }
        observeListChange(obs, "arrayOptString", .insertion) { obj.arrayOptString.append(nil) }
        observeListChange(obs, "arrayOptBinary", .insertion) { obj.arrayOptBinary.append(nil) }
        observeListChange(obs, "arrayOptDate", .insertion) { obj.arrayOptDate.append(nil) }
        observeListChange(obs, "arrayOptDecimal", .insertion) { obj.arrayOptDecimal.append(nil) }
        observeListChange(obs, "arrayOptObjectId", .insertion) { obj.arrayOptObjectId.append(nil) }
        observeListChange(obs, "arrayOptUuid", .insertion) { obj.arrayOptUuid.append(nil) }

        // .insertion insert at
        observeListChange(obs, "arrayBool", .insertion) { obj.arrayBool.insert(true, at: 0) }
        observeListChange(obs, "arrayInt", .insertion) { obj.arrayInt.append(10) }
        observeListChange(obs, "arrayInt8", .insertion) { obj.arrayInt8.insert(10, at: 0) }
        observeListChange(obs, "arrayInt16", .insertion) { obj.arrayInt16.insert(10, at: 0) }
        observeListChange(obs, "arrayInt32", .insertion) { obj.arrayInt32.insert(10, at: 0) }
        observeListChange(obs, "arrayInt64", .insertion) { obj.arrayInt64.insert(10, at: 0) }
        observeListChange(obs, "arrayFloat", .insertion) { obj.arrayFloat.insert(10, at: 0) }
        observeListChange(obs, "arrayDouble", .insertion) { obj.arrayDouble.insert(10, at: 0) }
        observeListChange(obs, "arrayString", .insertion) { obj.arrayString.insert("abc", at: 0) }
        observeListChange(obs, "arrayBinary", .insertion) { obj.arrayBinary.append(data) }
        observeListChange(obs, "arrayDate", .insertion) { obj.arrayDate.append(date) }
        observeListChange(obs, "arrayDecimal", .insertion) { obj.arrayDecimal.insert(decimal, at: 0) }
        observeListChange(obs, "arrayObjectId", .insertion) { obj.arrayObjectId.insert(objectId, at: 0) }
        observeListChange(obs, "arrayUuid", .insertion) { obj.arrayUuid.insert(uuid, at: 0) }
        observeListChange(obs, "arrayAny", .insertion) { obj.arrayAny.insert(.string("a"), at: 0) }

        observeListChange(obs, "arrayOptBool", .insertion) { obj.arrayOptBool.insert(true, at: 0) }
        observeListChange(obs, "arrayOptInt", .insertion) { obj.arrayOptInt.insert(10, at: 0) }
        observeListChange(obs, "arrayOptInt8", .insertion) { obj.arrayOptInt8.insert(10, at: 0) }
        observeListChange(obs, "arrayOptInt16", .insertion) { obj.arrayOptInt16.insert(10, at: 0) }
        observeListChange(obs, "arrayOptInt32", .insertion) { obj.arrayOptInt32.insert(10, at: 0) }
        observeListChange(obs, "arrayOptInt64", .insertion) { obj.arrayOptInt64.insert(10, at: 0) }
        observeListChange(obs, "arrayOptFloat", .insertion) { obj.arrayOptFloat.insert(10, at: 0) }
        observeListChange(obs, "arrayOptDouble", .insertion) { obj.arrayOptDouble.insert(10, at: 0) }
        observeListChange(obs, "arrayOptString", .insertion) { obj.arrayOptString.insert("abc", at: 0) }
        observeListChange(obs, "arrayOptBinary", .insertion) { obj.arrayOptBinary.insert(data, at: 0) }
        observeListChange(obs, "arrayOptDate", .insertion) { obj.arrayOptDate.insert(date, at: 0) }
        observeListChange(obs, "arrayOptDecimal", .insertion) { obj.arrayOptDecimal.insert(decimal, at: 0) }
        observeListChange(obs, "arrayOptObjectId", .insertion) { obj.arrayOptObjectId.insert(objectId, at: 0) }
        observeListChange(obs, "arrayOptUuid", .insertion) { obj.arrayOptUuid.insert(uuid, at: 0) }

        observeListChange(obs, "arrayOptBool", .insertion) { obj.arrayOptBool.insert(nil, at: 0) }
        observeListChange(obs, "arrayOptInt", .insertion) { obj.arrayOptInt.insert(nil, at: 0) }
        observeListChange(obs, "arrayOptInt8", .insertion) { obj.arrayOptInt8.insert(nil, at: 0) }
        observeListChange(obs, "arrayOptInt16", .insertion) { obj.arrayOptInt16.insert(nil, at: 0) }
        observeListChange(obs, "arrayOptInt32", .insertion) { obj.arrayOptInt32.insert(nil, at: 0) }
        observeListChange(obs, "arrayOptInt64", .insertion) { obj.arrayOptInt64.insert(nil, at: 0) }
        observeListChange(obs, "arrayOptFloat", .insertion) { obj.arrayOptFloat.insert(nil, at: 0) }
        observeListChange(obs, "arrayOptDouble", .insertion) { obj.arrayOptDouble.insert(nil, at: 0) }
        observeListChange(obs, "arrayOptString", .insertion) { obj.arrayOptString.insert(nil, at: 0) }
        observeListChange(obs, "arrayOptDate", .insertion) { obj.arrayOptDate.insert(nil, at: 0) }
        observeListChange(obs, "arrayOptBinary", .insertion) { obj.arrayOptBinary.insert(nil, at: 0) }
        observeListChange(obs, "arrayOptDecimal", .insertion) { obj.arrayOptDecimal.insert(nil, at: 0) }
        observeListChange(obs, "arrayOptObjectId", .insertion) { obj.arrayOptObjectId.insert(nil, at: 0) }
        observeListChange(obs, "arrayOptUuid", .insertion) { obj.arrayOptUuid.insert(nil, at: 0) }
        // .replacement
        observeListChange(obs, "arrayBool", .replacement) { obj.arrayBool[0] = true }
        observeListChange(obs, "arrayInt", .replacement) { obj.arrayInt[0] = 10 }
        observeListChange(obs, "arrayInt8", .replacement) { obj.arrayInt8[0] = 10 }
        observeListChange(obs, "arrayInt16", .replacement) { obj.arrayInt16[0] = 10 }
        observeListChange(obs, "arrayInt32", .replacement) { obj.arrayInt32[0] = 10 }
        observeListChange(obs, "arrayInt64", .replacement) { obj.arrayInt64[0] = 10 }
        observeListChange(obs, "arrayFloat", .replacement) { obj.arrayFloat[0] = 10 }
        observeListChange(obs, "arrayDouble", .replacement) { obj.arrayDouble[0] = 10 }
        observeListChange(obs, "arrayString", .replacement) { obj.arrayString[0] = "abc" }
        observeListChange(obs, "arrayBinary", .replacement) { obj.arrayBinary[0] = data }
        observeListChange(obs, "arrayDate", .replacement) { obj.arrayDate[0] = date }
        observeListChange(obs, "arrayDecimal", .replacement) { obj.arrayDecimal[0] = decimal }
        observeListChange(obs, "arrayObjectId", .replacement) { obj.arrayObjectId[0] = objectId }
        observeListChange(obs, "arrayUuid", .replacement) { obj.arrayUuid[0] = uuid }
        observeListChange(obs, "arrayAny", .replacement) { obj.arrayAny[0] = .string("a") }

        observeListChange(obs, "arrayOptBool", .replacement) { obj.arrayOptBool[0] = true }
        observeListChange(obs, "arrayOptInt", .replacement) { obj.arrayOptInt[0] = 10 }
        observeListChange(obs, "arrayOptInt8", .replacement) { obj.arrayOptInt8[0] = 10 }
        observeListChange(obs, "arrayOptInt16", .replacement) { obj.arrayOptInt16[0] = 10 }
        observeListChange(obs, "arrayOptInt32", .replacement) { obj.arrayOptInt32[0] = 10 }
        observeListChange(obs, "arrayOptInt64", .replacement) { obj.arrayOptInt64[0] = 10 }
        observeListChange(obs, "arrayOptFloat", .replacement) { obj.arrayOptFloat[0] = 10 }
        observeListChange(obs, "arrayOptDouble", .replacement) { obj.arrayOptDouble[0] = 10 }
        observeListChange(obs, "arrayOptString", .replacement) { obj.arrayOptString[0] = "abc" }
        observeListChange(obs, "arrayOptBinary", .replacement) { obj.arrayOptBinary[0] = data }
        observeListChange(obs, "arrayOptDate", .replacement) { obj.arrayOptDate[0] = date }
        observeListChange(obs, "arrayOptBinary", .replacement) { obj.arrayOptBinary[0] = data }
        observeListChange(obs, "arrayOptDate", .replacement) { obj.arrayOptDate[0] = date }
        observeListChange(obs, "arrayOptDecimal", .replacement) { obj.arrayOptDecimal[0] = decimal }
        observeListChange(obs, "arrayOptObjectId", .replacement) { obj.arrayOptObjectId[0] = objectId }
        observeListChange(obs, "arrayOptUuid", .replacement) { obj.arrayOptUuid[0] = uuid }

        observeListChange(obs, "arrayOptBool", .replacement) { obj.arrayOptBool[0] = nil }
        observeListChange(obs, "arrayOptInt", .replacement) { obj.arrayOptInt[0] = nil }
        observeListChange(obs, "arrayOptInt8", .replacement) { obj.arrayOptInt8[0] = nil }
        observeListChange(obs, "arrayOptInt16", .replacement) { obj.arrayOptInt16[0] = nil }
        observeListChange(obs, "arrayOptInt32", .replacement) { obj.arrayOptInt32[0] = nil }
        observeListChange(obs, "arrayOptInt64", .replacement) { obj.arrayOptInt64[0] = nil }
        observeListChange(obs, "arrayOptFloat", .replacement) { obj.arrayOptFloat[0] = nil }
        observeListChange(obs, "arrayOptDouble", .replacement) { obj.arrayOptDouble[0] = nil }
        observeListChange(obs, "arrayOptString", .replacement) { obj.arrayOptString[0] = nil }
        observeListChange(obs, "arrayOptBinary", .replacement) { obj.arrayOptBinary[0] = nil }
        observeListChange(obs, "arrayOptDate", .replacement) { obj.arrayOptDate[0] = nil }
        observeListChange(obs, "arrayOptDate", .replacement) { obj.arrayOptDate[0] = nil }
        observeListChange(obs, "arrayOptBinary", .replacement) { obj.arrayOptBinary[0] = nil }
        observeListChange(obs, "arrayOptDecimal", .replacement) { obj.arrayOptDecimal[0] = nil }
        observeListChange(obs, "arrayOptObjectId", .replacement) { obj.arrayOptObjectId[0] = nil }
        observeListChange(obs, "arrayOptUuid", .replacement) { obj.arrayOptUuid[0] = nil }

        // .removal removeAll
        observeListChange(obs, "arrayBool", .removal) { obj.arrayBool.removeAll() }
        observeListChange(obs, "arrayInt", .removal) { obj.arrayInt.removeAll() }
        observeListChange(obs, "arrayInt8", .removal) { obj.arrayInt8.removeAll() }
        observeListChange(obs, "arrayInt16", .removal) { obj.arrayInt16.removeAll() }
        observeListChange(obs, "arrayInt32", .removal) { obj.arrayInt32.removeAll() }
        observeListChange(obs, "arrayInt64", .removal) { obj.arrayInt64.removeAll() }
        observeListChange(obs, "arrayFloat", .removal) { obj.arrayFloat.removeAll() }
        observeListChange(obs, "arrayDouble", .removal) { obj.arrayDouble.removeAll() }
        observeListChange(obs, "arrayString", .removal) { obj.arrayString.removeAll() }
        observeListChange(obs, "arrayBinary", .removal) { obj.arrayBinary.removeAll() }
        observeListChange(obs, "arrayDate", .removal) { obj.arrayDate.removeAll() }
        observeListChange(obs, "arrayDecimal", .removal) { obj.arrayDecimal.removeAll() }
        observeListChange(obs, "arrayObjectId", .removal) { obj.arrayObjectId.removeAll() }
        observeListChange(obs, "arrayUuid", .removal) { obj.arrayUuid.removeAll() }
        observeListChange(obs, "arrayAny", .removal) { obj.arrayAny.removeAll() }

        let indices = IndexSet(integersIn: 0..<3)
        observeListChange(obs, "arrayOptBool", .removal, indices) { obj.arrayOptBool.removeAll() }
        observeListChange(obs, "arrayOptInt", .removal, indices) { obj.arrayOptInt.removeAll() }
        observeListChange(obs, "arrayOptInt8", .removal, indices) { obj.arrayOptInt8.removeAll() }
        observeListChange(obs, "arrayOptInt16", .removal, indices) { obj.arrayOptInt16.removeAll() }
        observeListChange(obs, "arrayOptInt32", .removal, indices) { obj.arrayOptInt32.removeAll() }
        observeListChange(obs, "arrayOptInt64", .removal, indices) { obj.arrayOptInt64.removeAll() }
        observeListChange(obs, "arrayOptFloat", .removal, indices) { obj.arrayOptFloat.removeAll() }
        observeListChange(obs, "arrayOptDouble", .removal, indices) { obj.arrayOptDouble.removeAll() }
        observeListChange(obs, "arrayOptString", .removal, indices) { obj.arrayOptString.removeAll() }
        observeListChange(obs, "arrayOptBinary", .removal, indices) { obj.arrayOptBinary.removeAll() }
        observeListChange(obs, "arrayOptDate", .removal, indices) { obj.arrayOptDate.removeAll() }
        observeListChange(obs, "arrayOptDecimal", .removal, indices) { obj.arrayOptDecimal.removeAll() }
        observeListChange(obs, "arrayOptObjectId", .removal, indices) { obj.arrayOptObjectId.removeAll() }
        observeListChange(obs, "arrayOptUuid", .removal, indices) { obj.arrayOptUuid.removeAll() }

        // .removal remove at
        (obj, obs) = newObjects(realm, allTypeValues)
        observeListChange(obs, "arrayBool", .removal) { obj.arrayBool.remove(at: 0) }
        observeListChange(obs, "arrayInt", .removal) { obj.arrayInt.remove(at: 0) }
        observeListChange(obs, "arrayInt8", .removal) { obj.arrayInt8.remove(at: 0) }
        observeListChange(obs, "arrayInt16", .removal) { obj.arrayInt16.remove(at: 0) }
        observeListChange(obs, "arrayInt32", .removal) { obj.arrayInt32.remove(at: 0) }
        observeListChange(obs, "arrayInt64", .removal) { obj.arrayInt64.remove(at: 0) }
        observeListChange(obs, "arrayFloat", .removal) { obj.arrayFloat.remove(at: 0) }
        observeListChange(obs, "arrayDouble", .removal) { obj.arrayDouble.remove(at: 0) }
        observeListChange(obs, "arrayString", .removal) { obj.arrayString.remove(at: 0) }
        observeListChange(obs, "arrayBinary", .removal) { obj.arrayBinary.remove(at: 0) }
        observeListChange(obs, "arrayDate", .removal) { obj.arrayDate.remove(at: 0) }
        observeListChange(obs, "arrayDecimal", .removal) { obj.arrayDecimal.remove(at: 0) }
        observeListChange(obs, "arrayObjectId", .removal) { obj.arrayObjectId.remove(at: 0) }
        observeListChange(obs, "arrayUuid", .removal) { obj.arrayUuid.remove(at: 0) }
        observeListChange(obs, "arrayAny", .removal) { obj.arrayAny.remove(at: 0) }

        observeListChange(obs, "arrayOptBool", .removal) { obj.arrayOptBool.remove(at: 0) }
        observeListChange(obs, "arrayOptInt", .removal) { obj.arrayOptInt.remove(at: 0) }
        observeListChange(obs, "arrayOptInt8", .removal) { obj.arrayOptInt8.remove(at: 0) }
        observeListChange(obs, "arrayOptInt16", .removal) { obj.arrayOptInt16.remove(at: 0) }
        observeListChange(obs, "arrayOptInt32", .removal) { obj.arrayOptInt32.remove(at: 0) }
        observeListChange(obs, "arrayOptInt64", .removal) { obj.arrayOptInt64.remove(at: 0) }
        observeListChange(obs, "arrayOptFloat", .removal) { obj.arrayOptFloat.remove(at: 0) }
        observeListChange(obs, "arrayOptDouble", .removal) { obj.arrayOptDouble.remove(at: 0) }
        observeListChange(obs, "arrayOptString", .removal) { obj.arrayOptString.remove(at: 0) }
        observeListChange(obs, "arrayOptBinary", .removal) { obj.arrayOptBinary.remove(at: 0) }
        observeListChange(obs, "arrayOptDate", .removal) { obj.arrayOptDate.remove(at: 0) }
        observeListChange(obs, "arrayOptDecimal", .removal) { obj.arrayOptDecimal.remove(at: 0) }
        observeListChange(obs, "arrayOptObjectId", .removal) { obj.arrayOptObjectId.remove(at: 0) }
        observeListChange(obs, "arrayOptUuid", .removal) { obj.arrayOptUuid.remove(at: 0) }

        // insert
        observeSetChange(obs, "setBool") { obj.setBool.insert(true) }
        observeSetChange(obs, "setInt") { obj.setInt.insert(10) }
        observeSetChange(obs, "setInt8") { obj.setInt8.insert(10) }
        observeSetChange(obs, "setInt16") { obj.setInt16.insert(10) }
        observeSetChange(obs, "setInt32") { obj.setInt32.insert(10) }
        observeSetChange(obs, "setInt64") { obj.setInt64.insert(10) }
        observeSetChange(obs, "setFloat") { obj.setFloat.insert(10.0) }
        observeSetChange(obs, "setDouble") { obj.setDouble.insert(10.0) }
        observeSetChange(obs, "setString") { obj.setString.insert("10") }
        observeSetChange(obs, "setBinary") { obj.setBinary.insert(data) }
        observeSetChange(obs, "setDate") { obj.setDate.insert(date) }
        observeSetChange(obs, "setDecimal") { obj.setDecimal.insert(decimal) }
        observeSetChange(obs, "setObjectId") { obj.setObjectId.insert(objectId) }
        observeSetChange(obs, "setAny") { obj.setAny.insert(.string("a")) }
        observeSetChange(obs, "setUuid") { obj.setUuid.insert(uuid) }

        observeSetChange(obs, "setOptBool") { obj.setOptBool.insert(true) }
        observeSetChange(obs, "setOptInt") { obj.setOptInt.insert(10) }
        observeSetChange(obs, "setOptInt8") { obj.setOptInt8.insert(10) }
        observeSetChange(obs, "setOptInt16") { obj.setOptInt16.insert(10) }
        observeSetChange(obs, "setOptInt32") { obj.setOptInt32.insert(10) }
        observeSetChange(obs, "setOptInt64") { obj.setOptInt64.insert(10) }
        observeSetChange(obs, "setOptFloat") { obj.setOptFloat.insert(10.0) }
        observeSetChange(obs, "setOptDouble") { obj.setOptDouble.insert(10.0) }
        observeSetChange(obs, "setOptString") { obj.setOptString.insert("10") }
        observeSetChange(obs, "setOptBinary") { obj.setOptBinary.insert(data) }
        observeSetChange(obs, "setOptDate") { obj.setOptDate.insert(date) }
        observeSetChange(obs, "setOptDecimal") { obj.setOptDecimal.insert(decimal) }
        observeSetChange(obs, "setOptObjectId") { obj.setOptObjectId.insert(objectId) }
        observeSetChange(obs, "setOptUuid") { obj.setOptUuid.insert(uuid) }

        observeSetChange(obs, "setOptBool") { obj.setOptBool.insert(nil) }
        observeSetChange(obs, "setOptInt") { obj.setOptInt.insert(nil) }
        observeSetChange(obs, "setOptInt8") { obj.setOptInt8.insert(nil) }
        observeSetChange(obs, "setOptInt16") { obj.setOptInt16.insert(nil) }
        observeSetChange(obs, "setOptInt32") { obj.setOptInt32.insert(nil) }
        observeSetChange(obs, "setOptInt64") { obj.setOptInt64.insert(nil) }
        observeSetChange(obs, "setOptFloat") { obj.setOptFloat.insert(nil) }
        observeSetChange(obs, "setOptDouble") { obj.setOptDouble.insert(nil) }
        observeSetChange(obs, "setOptString") { obj.setOptString.insert(nil) }
        observeSetChange(obs, "setOptBinary") { obj.setOptBinary.insert(nil) }
        observeSetChange(obs, "setOptDate") { obj.setOptDate.insert(nil) }
        observeSetChange(obs, "setOptDecimal") { obj.setOptDecimal.insert(nil) }
        observeSetChange(obs, "setOptObjectId") { obj.setOptObjectId.insert(nil) }
        observeSetChange(obs, "setOptUuid") { obj.setOptUuid.insert(nil) }

        // insert objectsIn
        observeSetChange(obs, "setBool") { obj.setBool.insert(objectsIn: [true]) }
        observeSetChange(obs, "setInt") { obj.setInt.insert(objectsIn: [10]) }
        observeSetChange(obs, "setInt8") { obj.setInt8.insert(objectsIn: [10]) }
        observeSetChange(obs, "setInt16") { obj.setInt16.insert(objectsIn: [10]) }
        observeSetChange(obs, "setInt32") { obj.setInt32.insert(objectsIn: [10]) }
        observeSetChange(obs, "setInt64") { obj.setInt64.insert(objectsIn: [10]) }
        observeSetChange(obs, "setFloat") { obj.setFloat.insert(objectsIn: [10.0]) }
        observeSetChange(obs, "setDouble") { obj.setDouble.insert(objectsIn: [10.0]) }
        observeSetChange(obs, "setString") { obj.setString.insert(objectsIn: ["10"]) }
        observeSetChange(obs, "setBinary") { obj.setBinary.insert(objectsIn: [data]) }
        observeSetChange(obs, "setDate") { obj.setDate.insert(objectsIn: [date]) }
        observeSetChange(obs, "setDecimal") { obj.setDecimal.insert(objectsIn: [decimal]) }
        observeSetChange(obs, "setObjectId") { obj.setObjectId.insert(objectsIn: [objectId]) }
        observeSetChange(obs, "setAny") { obj.setAny.insert(objectsIn: [.string("a")]) }
        observeSetChange(obs, "setUuid") { obj.setUuid.insert(objectsIn: [uuid]) }

        observeSetChange(obs, "setOptBool") { obj.setOptBool.insert(objectsIn: [true, nil]) }
        observeSetChange(obs, "setOptInt") { obj.setOptInt.insert(objectsIn: [10, nil]) }
        observeSetChange(obs, "setOptInt8") { obj.setOptInt8.insert(objectsIn: [10, nil]) }
        observeSetChange(obs, "setOptInt16") { obj.setOptInt16.insert(objectsIn: [10, nil]) }
        observeSetChange(obs, "setOptInt32") { obj.setOptInt32.insert(objectsIn: [10, nil]) }
        observeSetChange(obs, "setOptInt64") { obj.setOptInt64.insert(objectsIn: [10, nil]) }
        observeSetChange(obs, "setOptFloat") { obj.setOptFloat.insert(objectsIn: [10.0, nil]) }
        observeSetChange(obs, "setOptDouble") { obj.setOptDouble.insert(objectsIn: [10.0, nil]) }
        observeSetChange(obs, "setOptString") { obj.setOptString.insert(objectsIn: ["10", nil]) }
        observeSetChange(obs, "setOptBinary") { obj.setOptBinary.insert(objectsIn: [data, nil]) }
        observeSetChange(obs, "setOptDate") { obj.setOptDate.insert(objectsIn: [date, nil]) }
        observeSetChange(obs, "setOptDecimal") { obj.setOptDecimal.insert(objectsIn: [decimal, nil]) }
        observeSetChange(obs, "setOptObjectId") { obj.setOptObjectId.insert(objectsIn: [objectId, nil]) }
        observeSetChange(obs, "setOptUuid") { obj.setOptUuid.insert(objectsIn: [uuid, nil]) }

        // delete
        observeSetChange(obs, "setBool") { obj.setBool.remove(true) }
        observeSetChange(obs, "setInt") { obj.setInt.remove(10) }
        observeSetChange(obs, "setInt8") { obj.setInt8.remove(10) }
        observeSetChange(obs, "setInt16") { obj.setInt16.remove(10) }
        observeSetChange(obs, "setInt32") { obj.setInt32.remove(10) }
        observeSetChange(obs, "setInt64") { obj.setInt64.remove(10) }
        observeSetChange(obs, "setFloat") { obj.setFloat.remove(10.0) }
        observeSetChange(obs, "setDouble") { obj.setDouble.remove(10.0) }
        observeSetChange(obs, "setString") { obj.setString.remove("10") }
        observeSetChange(obs, "setBinary") { obj.setBinary.remove(data) }
        observeSetChange(obs, "setDate") { obj.setDate.remove(date) }
        observeSetChange(obs, "setDecimal") { obj.setDecimal.remove(decimal) }
        observeSetChange(obs, "setObjectId") { obj.setObjectId.remove(objectId) }
        observeSetChange(obs, "setAny") { obj.setAny.remove(.string("a")) }
        observeSetChange(obs, "setUuid") { obj.setUuid.remove(uuid) }

        observeSetChange(obs, "setOptBool") { obj.setOptBool.remove(true) }
        observeSetChange(obs, "setOptInt") { obj.setOptInt.remove(10) }
        observeSetChange(obs, "setOptInt8") { obj.setOptInt8.remove(10) }
        observeSetChange(obs, "setOptInt16") { obj.setOptInt16.remove(10) }
        observeSetChange(obs, "setOptInt32") { obj.setOptInt32.remove(10) }
        observeSetChange(obs, "setOptInt64") { obj.setOptInt64.remove(10) }
        observeSetChange(obs, "setOptFloat") { obj.setOptFloat.remove(10.0) }
        observeSetChange(obs, "setOptDouble") { obj.setOptDouble.remove(10.0) }
        observeSetChange(obs, "setOptString") { obj.setOptString.remove("10") }
        observeSetChange(obs, "setOptBinary") { obj.setOptBinary.remove(data) }
        observeSetChange(obs, "setOptDate") { obj.setOptDate.remove(date) }
        observeSetChange(obs, "setOptDecimal") { obj.setOptDecimal.remove(decimal) }
        observeSetChange(obs, "setOptObjectId") { obj.setOptObjectId.remove(objectId) }
        observeSetChange(obs, "setOptUuid") { obj.setOptUuid.remove(uuid) }

        observeSetChange(obs, "setOptBool") { obj.setOptBool.remove(nil) }
        observeSetChange(obs, "setOptInt") { obj.setOptInt.remove(nil) }
        observeSetChange(obs, "setOptInt8") { obj.setOptInt8.remove(nil) }
        observeSetChange(obs, "setOptInt16") { obj.setOptInt16.remove(nil) }
        observeSetChange(obs, "setOptInt32") { obj.setOptInt32.remove(nil) }
        observeSetChange(obs, "setOptInt64") { obj.setOptInt64.remove(nil) }
        observeSetChange(obs, "setOptFloat") { obj.setOptFloat.remove(nil) }
        observeSetChange(obs, "setOptDouble") { obj.setOptDouble.remove(nil) }
        observeSetChange(obs, "setOptString") { obj.setOptString.remove(nil) }
        observeSetChange(obs, "setOptDate") { obj.setOptDate.remove(nil) }
        observeSetChange(obs, "setOptBinary") { obj.setOptBinary.remove(nil) }
        observeSetChange(obs, "setOptDecimal") { obj.setOptDecimal.remove(nil) }
        observeSetChange(obs, "setOptObjectId") { obj.setOptObjectId.remove(nil) }
        observeSetChange(obs, "setOptUuid") { obj.setOptUuid.remove(nil) }
        // delete all
        observeSetChange(obs, "setBool") { obj.setBool.removeAll() }
        observeSetChange(obs, "setInt") { obj.setInt.removeAll() }
        observeSetChange(obs, "setInt8") { obj.setInt8.removeAll() }
        observeSetChange(obs, "setInt16") { obj.setInt16.removeAll() }
        observeSetChange(obs, "setInt32") { obj.setInt32.removeAll() }
        observeSetChange(obs, "setInt64") { obj.setInt64.removeAll() }
        observeSetChange(obs, "setFloat") { obj.setFloat.removeAll() }
        observeSetChange(obs, "setDouble") { obj.setDouble.removeAll() }
        observeSetChange(obs, "setString") { obj.setString.removeAll() }
        observeSetChange(obs, "setBinary") { obj.setBinary.removeAll() }
        observeSetChange(obs, "setDate") { obj.setDate.removeAll() }
        observeSetChange(obs, "setDecimal") { obj.setDecimal.removeAll() }
        observeSetChange(obs, "setObjectId") { obj.setObjectId.removeAll() }
        observeSetChange(obs, "setAny") { obj.setAny.removeAll() }
        observeSetChange(obs, "setUuid") { obj.setUuid.removeAll() }

        observeSetChange(obs, "setOptBool") { obj.setOptBool.removeAll() }
        observeSetChange(obs, "setOptInt") { obj.setOptInt.removeAll() }
        observeSetChange(obs, "setOptInt8") { obj.setOptInt8.removeAll() }
        observeSetChange(obs, "setOptInt16") { obj.setOptInt16.removeAll() }
        observeSetChange(obs, "setOptInt32") { obj.setOptInt32.removeAll() }
        observeSetChange(obs, "setOptInt64") { obj.setOptInt64.removeAll() }
        observeSetChange(obs, "setOptFloat") { obj.setOptFloat.removeAll() }
        observeSetChange(obs, "setOptDouble") { obj.setOptDouble.removeAll() }
        observeSetChange(obs, "setOptString") { obj.setOptString.removeAll() }
        observeSetChange(obs, "setOptBinary") { obj.setOptBinary.removeAll() }
        observeSetChange(obs, "setOptDate") { obj.setOptDate.removeAll() }
        observeSetChange(obs, "setOptDecimal") { obj.setOptDecimal.removeAll() }
        observeSetChange(obs, "setOptObjectId") { obj.setOptObjectId.removeAll() }
        observeSetChange(obs, "setOptUuid") { obj.setOptUuid.removeAll() }

        observeSetChange(obs, "mapBool") { obj.mapBool["key"] = true }
        observeSetChange(obs, "mapInt") { obj.mapInt["key"] = 10 }
        observeSetChange(obs, "mapInt8") { obj.mapInt8["key"] = 10 }
        observeSetChange(obs, "mapInt16") { obj.mapInt16["key"] = 10 }
        observeSetChange(obs, "mapInt32") { obj.mapInt32["key"] = 10 }
        observeSetChange(obs, "mapInt64") { obj.mapInt64["key"] = 10 }
        observeSetChange(obs, "mapFloat") { obj.mapFloat["key"] = 10.0 }
        observeSetChange(obs, "mapDouble") { obj.mapDouble["key"] = 10.0 }
        observeSetChange(obs, "mapString") { obj.mapString["key"] = "10" }
        observeSetChange(obs, "mapBinary") { obj.mapBinary["key"] = data }
        observeSetChange(obs, "mapDate") { obj.mapDate["key"] = date }
        observeSetChange(obs, "mapDecimal") { obj.mapDecimal["key"] = decimal }
        observeSetChange(obs, "mapObjectId") { obj.mapObjectId["key"] = objectId }
        observeSetChange(obs, "mapAny") { obj.mapAny["key"] = .string("a") }
        observeSetChange(obs, "mapUuid") { obj.mapUuid["key"] = uuid }

        observeSetChange(obs, "mapOptBool") { obj.mapOptBool["key"] = true }
        observeSetChange(obs, "mapOptInt") { obj.mapOptInt["key"] = 10 }
        observeSetChange(obs, "mapOptInt8") { obj.mapOptInt8["key"] = 10 }
        observeSetChange(obs, "mapOptInt16") { obj.mapOptInt16["key"] = 10 }
        observeSetChange(obs, "mapOptInt32") { obj.mapOptInt32["key"] = 10 }
        observeSetChange(obs, "mapOptInt64") { obj.mapOptInt64["key"] = 10 }
        observeSetChange(obs, "mapOptFloat") { obj.mapOptFloat["key"] = 10.0 }
        observeSetChange(obs, "mapOptDouble") { obj.mapOptDouble["key"] = 10.0 }
        observeSetChange(obs, "mapOptString") { obj.mapOptString["key"] = "10" }
        observeSetChange(obs, "mapOptBinary") { obj.mapOptBinary["key"] = data }
        observeSetChange(obs, "mapOptDate") { obj.mapOptDate["key"] = date }
        observeSetChange(obs, "mapOptDecimal") { obj.mapOptDecimal["key"] = decimal }
        observeSetChange(obs, "mapOptObjectId") { obj.mapOptObjectId["key"] = objectId }
        observeSetChange(obs, "mapOptUuid") { obj.mapOptUuid["key"] = uuid }

        observeSetChange(obs, "mapBool") { obj.mapBool["key"] = nil }
        observeSetChange(obs, "mapInt") { obj.mapInt["key"] = nil }
        observeSetChange(obs, "mapInt8") { obj.mapInt8["key"] = nil }
        observeSetChange(obs, "mapInt16") { obj.mapInt16["key"] = nil }
        observeSetChange(obs, "mapInt32") { obj.mapInt32["key"] = nil }
        observeSetChange(obs, "mapInt64") { obj.mapInt64["key"] = nil }
        observeSetChange(obs, "mapFloat") { obj.mapFloat["key"] = nil }
        observeSetChange(obs, "mapDouble") { obj.mapDouble["key"] = nil }
        observeSetChange(obs, "mapString") { obj.mapString["key"] = nil }
        observeSetChange(obs, "mapBinary") { obj.mapBinary["key"] = nil }
        observeSetChange(obs, "mapDate") { obj.mapDate["key"] = nil }
        observeSetChange(obs, "mapDecimal") { obj.mapDecimal["key"] = nil }
        observeSetChange(obs, "mapObjectId") { obj.mapObjectId["key"] = nil }
        observeSetChange(obs, "mapAny") { obj.mapAny["key"] = nil }
        observeSetChange(obs, "mapUuid") { obj.mapUuid["key"] = nil }

        observeSetChange(obs, "mapOptBool") { obj.mapOptBool["key"] = nil }
        observeSetChange(obs, "mapOptInt") { obj.mapOptInt["key"] = nil }
        observeSetChange(obs, "mapOptInt8") { obj.mapOptInt8["key"] = nil }
        observeSetChange(obs, "mapOptInt16") { obj.mapOptInt16["key"] = nil }
        observeSetChange(obs, "mapOptInt32") { obj.mapOptInt32["key"] = nil }
        observeSetChange(obs, "mapOptInt64") { obj.mapOptInt64["key"] = nil }
        observeSetChange(obs, "mapOptFloat") { obj.mapOptFloat["key"] = nil }
        observeSetChange(obs, "mapOptDouble") { obj.mapOptDouble["key"] = nil }
        observeSetChange(obs, "mapOptString") { obj.mapOptString["key"] = nil }
        observeSetChange(obs, "mapOptBinary") { obj.mapOptBinary["key"] = nil }
        observeSetChange(obs, "mapOptDate") { obj.mapOptDate["key"] = nil }
        observeSetChange(obs, "mapOptDecimal") { obj.mapOptDecimal["key"] = nil }
        observeSetChange(obs, "mapOptObjectId") { obj.mapOptObjectId["key"] = nil }
        observeSetChange(obs, "mapOptUuid") { obj.mapOptUuid["key"] = nil }

        observeSetChange(obs, "mapOptBool") { obj.mapOptBool.removeObject(for: "key") }
        observeSetChange(obs, "mapOptInt") { obj.mapOptInt.removeObject(for: "key") }
        observeSetChange(obs, "mapOptInt8") { obj.mapOptInt8.removeObject(for: "key") }
        observeSetChange(obs, "mapOptInt16") { obj.mapOptInt16.removeObject(for: "key") }
        observeSetChange(obs, "mapOptInt32") { obj.mapOptInt32.removeObject(for: "key") }
        observeSetChange(obs, "mapOptInt64") { obj.mapOptInt64.removeObject(for: "key") }
        observeSetChange(obs, "mapOptFloat") { obj.mapOptFloat.removeObject(for: "key") }
        observeSetChange(obs, "mapOptDouble") { obj.mapOptDouble.removeObject(for: "key") }
        observeSetChange(obs, "mapOptString") { obj.mapOptString.removeObject(for: "key") }
        observeSetChange(obs, "mapOptBinary") { obj.mapOptBinary.removeObject(for: "key") }
        observeSetChange(obs, "mapOptDate") { obj.mapOptDate.removeObject(for: "key") }
        observeSetChange(obs, "mapOptDecimal") { obj.mapOptDecimal.removeObject(for: "key") }
        observeSetChange(obs, "mapOptObjectId") { obj.mapOptObjectId.removeObject(for: "key") }
        observeSetChange(obs, "mapOptUuid") { obj.mapOptUuid.removeObject(for: "key") }
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

    @Test func freezeFromWrongThread() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "freezeFromWrongThread"))
            let object = try! realm.write { realm.create(PPortSimpleObject.self) }
            let projection = SeedUnchecked(value: PPortSimpleProjection(projecting: object))
            seedRunOnThread { _ = projection.value.freeze() }
        }
        #expect(seedStandardError(result).contains("Realm accessed from incorrect thread"))
    }

    @Test func accessFrozenObjectFromDifferentThread() throws {
        let frozen = SeedUnchecked(value: try simpleProjection(Realm(configuration: inMemoryConfiguration())).freeze())
        let value = Locked(-1)
        seedRunOnThread { value.value = frozen.value.int }
        #expect(value.value == 0)
    }

    @Test func mutateFrozenObject() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "mutateFrozenProjection"))
            let object = try! realm.write { realm.create(PPortSimpleObject.self) }
            let frozen = PPortSimpleProjection(projecting: object).freeze()
            seedCheck(frozen.isFrozen, "the projection is frozen")
            try! frozen.realm!.write { }
        }
        #expect(seedStandardError(result).contains("Can't perform transactions on a frozen Realm"))
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
