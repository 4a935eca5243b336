import Foundation
import RealmObjects
import Testing

// The freeze and thaw tests of realm-swift v10.54.6, ported:
// - RealmSwift/Tests/ObjectTests.swift, "Frozen Objects Tests" and
//   testEqualityForFrozenObjectTypeWithoutPrimaryKey;
// - RealmSwift/Tests/RealmCollectionTypeTests.swift, RealmCollectionTests'
//   testIsFrozen … testQueryFrozenCollection, run over every collection kind
//   of CollectionTypePortTests (the unmanaged list's overrides are the
//   `.listUnmanaged` branches);
// - RealmSwift/Tests/RealmTests.swift, testThaw and the frozen copies of
//   testWriteCopyToPath and testWriteCopyForConfiguration;
// - Realm/Tests/RealmTests.mm, "Frozen Realms" (the Objective-C API's tests
//   of the same behaviour, in Swift).
//
// Adaptations: `assertThrows(…, reason:)` is an exit test whose standard
// error holds the reason; `dispatchSyncNewThread` is `seedRunOnThread`;
// `where { $0.stringCol == "1" }` is the typed query of this package.
//
// Not ported: the frozen `anyCol` of testFreezeAllPropertyTypes compares
// `AnyRealmValue`s, here a string; `optNSStringCol` (Objective-C
// bridging) is left out as in PortModels.

final class FPortObject: Object {
    @Persisted var boolCol = false
    @Persisted var intCol = 123
    @Persisted var floatCol = 1.23 as Float
    @Persisted var doubleCol = 12.3
    @Persisted var stringCol = "a"
    @Persisted var binaryCol = Data("a".utf8)
    @Persisted var dateCol = Date(timeIntervalSince1970: 1)
    @Persisted var objectCol: PortBoolObject?
    @Persisted var uuidCol = UUID()
    @Persisted var anyCol: AnyRealmValue
    @Persisted var arrayCol: List<PortBoolObject>
    @Persisted var setCol: MutableSet<PortBoolObject>
}

final class FPortListObject: Object {
    @Persisted var int: List<Int>
    @Persisted var float: List<Float>
    @Persisted var double: List<Double>
    @Persisted var string: List<String>
    @Persisted var data: List<Data>
    @Persisted var date: List<Date>
    @Persisted var intOpt: List<Int?>
    @Persisted var stringOpt: List<String?>
    @Persisted var dateOpt: List<Date?>
    @Persisted var uuid: List<UUID>
    @Persisted var uuidOpt: List<UUID?>
    @Persisted var any: List<AnyRealmValue>
}

// MARK: ObjectTests

@Suite struct FreezeObjectPortTests {
    private func realm(_ name: String = #function) throws -> Realm {
        try Realm(configuration: inMemoryConfiguration(name))
    }

    @Test func equalityForFrozenObjectTypeWithoutPrimaryKey() throws {
        let realm = try realm()
        let testObject = try realm.write { realm.create(PortStringObject.self) }
        let frozen = testObject.freeze()
        let retrievedObject = realm.objects(PortStringObject.self).first!.freeze()
        #expect(frozen == retrievedObject)
    }

    @Test func isFrozen() throws {
        let obj = PortStringObject()
        #expect(!obj.isFrozen)
        let realm = try realm()
        try realm.write { realm.add(obj) }
        #expect(!obj.isFrozen)
        let frozen = obj.freeze()
        #expect(!obj.isFrozen)
        #expect(frozen.isFrozen)
    }

    @Test func freezeUnmanaged() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = PortStringObject().freeze()
        }
        #expect(seedStandardError(result).contains("Unmanaged objects cannot be frozen."))
    }

    @Test func modifyFrozenObject() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "modifyFrozen"))
            let obj = PortStringObject()
            try! realm.write { realm.add(obj) }
            let frozenObj = obj.freeze()
            frozenObj.stringCol = "foo"
        }
        #expect(seedStandardError(result).contains("Attempting to modify a frozen object - call thaw on the Object instance first."))
    }

    @Test func freezeDynamicObject() throws {
        let realm = try realm()
        try realm.write {
            realm.create(FPortObject.self, value: ["arrayCol": [[true]], "setCol": [[true]]])
        }
        let obj = realm.dynamicObjects("FPortObject").first!.freeze()
        #expect(obj.isFrozen)
        #expect(obj.dynamicList("arrayCol").isFrozen)
        #expect(obj.dynamicList("arrayCol").first!.isFrozen)
        #expect(obj.dynamicMutableSet("setCol").isFrozen)
        #expect(obj.dynamicMutableSet("setCol").first!.isFrozen)
    }

    @Test func freezeAllPropertyTypes() throws {
        let realm = try realm()
        let (obj, optObj, listObj) = try realm.write {
            (
                realm.create(FPortObject.self, value: [
                    "boolCol": true,
                    "intCol": 456,
                    "floatCol": 4.56 as Float,
                    "doubleCol": 45.6,
                    "stringCol": "b",
                    "binaryCol": Data("b".utf8),
                    "dateCol": Date(timeIntervalSince1970: 2),
                    "objectCol": [true],
                    "uuidCol": UUID(),
                    "anyCol": "hello",
                ]),
                realm.create(PortOptionalObject.self, value: [
                    "optStringCol": "String",
                    "optBinaryCol": Data(),
                    "optDateCol": Date(),
                    "optIntCol": 1,
                    "optInt8Col": 2,
                    "optInt16Col": 3,
                    "optInt32Col": 4,
                    "optInt64Col": 5,
                    "optFloatCol": 6.1,
                    "optDoubleCol": 7.2,
                    "optBoolCol": true,
                ]),
                realm.create(FPortListObject.self, value: [
                    "int": [1],
                    "float": [6.6 as Float],
                    "double": [7.7],
                    "string": ["8"],
                    "data": [Data("9".utf8)],
                    "date": [Date(timeIntervalSince1970: 10)],
                    "intOpt": [11, NSNull()],
                    "stringOpt": ["18", NSNull()],
                    "dateOpt": [Date(timeIntervalSince1970: 20), NSNull()],
                    "uuid": [UUID()],
                    "uuidOpt": [UUID(), NSNull()],
                    "any": ["hello", NSNull()],
                ])
            )
        }

        let frozenObj = obj.freeze()
        #expect(obj.boolCol == frozenObj.boolCol)
        #expect(obj.intCol == frozenObj.intCol)
        #expect(obj.floatCol == frozenObj.floatCol)
        #expect(obj.doubleCol == frozenObj.doubleCol)
        #expect(obj.stringCol == frozenObj.stringCol)
        #expect(obj.binaryCol == frozenObj.binaryCol)
        #expect(obj.dateCol == frozenObj.dateCol)
        #expect(obj.objectCol?.boolCol == frozenObj.objectCol?.boolCol)
        #expect(obj.uuidCol == frozenObj.uuidCol)
        #expect(obj.anyCol == frozenObj.anyCol)

        let frozenOptObj = optObj.freeze()
        #expect(optObj.optStringCol == frozenOptObj.optStringCol)
        #expect(optObj.optBinaryCol == frozenOptObj.optBinaryCol)
        #expect(optObj.optDateCol == frozenOptObj.optDateCol)
        #expect(optObj.optIntCol.value == frozenOptObj.optIntCol.value)
        #expect(optObj.optInt8Col.value == frozenOptObj.optInt8Col.value)
        #expect(optObj.optInt16Col.value == frozenOptObj.optInt16Col.value)
        #expect(optObj.optInt32Col.value == frozenOptObj.optInt32Col.value)
        #expect(optObj.optInt64Col.value == frozenOptObj.optInt64Col.value)
        #expect(optObj.optFloatCol.value == frozenOptObj.optFloatCol.value)
        #expect(optObj.optDoubleCol.value == frozenOptObj.optDoubleCol.value)
        #expect(optObj.optBoolCol.value == frozenOptObj.optBoolCol.value)
        #expect(optObj.optEnumCol.value == frozenOptObj.optEnumCol.value)
        #expect(optObj.optUuidCol == frozenOptObj.optUuidCol)

        let frozenListObj = listObj.freeze()
        #expect(Array(listObj.int) == Array(frozenListObj.int))
        #expect(Array(listObj.float) == Array(frozenListObj.float))
        #expect(Array(listObj.double) == Array(frozenListObj.double))
        #expect(Array(listObj.string) == Array(frozenListObj.string))
        #expect(Array(listObj.data) == Array(frozenListObj.data))
        #expect(Array(listObj.date) == Array(frozenListObj.date))
        #expect(Array(listObj.intOpt) == Array(frozenListObj.intOpt))
        #expect(Array(listObj.stringOpt) == Array(frozenListObj.stringOpt))
        #expect(Array(listObj.dateOpt) == Array(frozenListObj.dateOpt))
        #expect(Array(listObj.uuid) == Array(frozenListObj.uuid))
        #expect(Array(listObj.uuidOpt) == Array(frozenListObj.uuidOpt))
        #expect(Array(listObj.any) == Array(frozenListObj.any))
    }

    @Test func thaw() async throws {
        let realm = try realm()
        let obj = try realm.write { realm.create(PortBoolObject.self, value: ["boolCol": true]) }
        let frozenObj = obj.freeze()
        #expect(frozenObj.isFrozen)

        let liveObj = try #require(frozenObj.thaw())
        #expect(!liveObj.isFrozen)
        #expect(liveObj.boolCol == frozenObj.boolCol)

        try liveObj.realm!.write { liveObj.boolCol = false }
        #expect(liveObj.boolCol != frozenObj.boolCol)

        // assertThrows(try! frozenObj.realm!.write {}, reason: "Can't perform transactions on a frozen Realm")
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "thawWrite"))
            let obj = try! realm.write { realm.create(PortBoolObject.self, value: ["boolCol": true]) }
            try! obj.freeze().realm!.write {}
        }
        #expect(seedStandardError(result).contains("Can't perform transactions on a frozen Realm"))
    }

    @Test func thawUnmanaged() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = PortBoolObject().thaw()
        }
        #expect(seedStandardError(result).contains("Unmanaged objects cannot be thawed."))
    }

    @Test func thawDeleted() throws {
        let realm = try realm()
        let obj = try realm.write { realm.create(PortBoolObject.self, value: ["boolCol": true]) }
        let frozen = obj.freeze()
        try realm.write { realm.delete(obj) }
        #expect(frozen.thaw() == nil, "Thaw should return nil when object was deleted")
    }

    @Test func thawPreviousVersion() throws {
        let realm = try realm()
        let obj = try realm.write { realm.create(PortBoolObject.self, value: ["boolCol": true]) }
        let frozen = obj.freeze()
        #expect(frozen.isFrozen)
        try obj.realm!.write { obj.boolCol = false }
        #expect(frozen.boolCol, "Frozen objects shouldn't mutate")
        let thawed = try #require(frozen.thaw())
        #expect(!thawed.isFrozen)
        #expect(!thawed.boolCol, "Thaw should reflect transactions since the original reference was frozen")
    }

    @Test func thawUpdatedOnDifferentThread() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        let obj = try realm.write { realm.create(PortBoolObject.self, value: ["boolCol": true]) }
        let frozen = obj.freeze()
        let thawed = try #require(frozen.thaw())
        let tsr = ThreadSafeReference(to: thawed)
        seedRunOnThread {
            let background = try! Realm(configuration: configuration)
            let resolved = background.resolve(tsr)!
            try! background.write { resolved.boolCol = false }
        }
        #expect(frozen.thaw()!.boolCol)
        #expect(thawed.boolCol)
        realm.refresh()
        #expect(!frozen.thaw()!.boolCol)
        #expect(!thawed.boolCol)
    }
}

// MARK: RealmCollectionTypeTests

@Suite struct FreezeCollectionPortTests {
    typealias Kind = CPortCollectionKind

    @Test(arguments: Kind.allCases) func isFrozen(_ kind: Kind) throws {
        let f = try CPortCollectionFixture(kind)
        #expect(!f.collection.isFrozen)
        guard kind != .listUnmanaged else { return }
        #expect(f.collection.freeze().isFrozen)
    }

    // ListUnmanagedRealmCollectionTests.testFreeze
    @Test func freezeUnmanagedList() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = List<PortBoolObject>().freeze()
        }
        #expect(seedStandardError(result).contains("This method may only be called on List instances retrieved from a Realm"))
    }

    @Test(arguments: Kind.managed) func thaw(_ kind: Kind) throws {
        let f = try CPortCollectionFixture(kind)
        let frozen = f.collection.freeze()
        #expect(frozen.isFrozen)

        let live = try #require(frozen.thaw())
        #expect(!live.isFrozen)
        let liveRealm = live.realm!
        try liveRealm.write {
            for object in Array(live) { liveRealm.delete(object) }
        }
        #expect(live.isEmpty)
        #expect(!frozen.isEmpty)
    }

    @Test(arguments: Kind.managed) func thawFromDifferentThread(_ kind: Kind) throws {
        let f = try CPortCollectionFixture(kind)
        let frozen = SeedUnchecked(value: f.collection.freeze())
        #expect(frozen.value.isFrozen)
        let outcome = Locked<[Bool]>([])
        seedRunOnThread {
            let live = frozen.value.thaw()!
            let liveRealm = live.realm!
            var checks = [!live.isFrozen]
            try! liveRealm.write {
                for object in Array(live) { liveRealm.delete(object) }
            }
            checks += [live.isEmpty, !frozen.value.isEmpty]
            outcome.value = checks
        }
        #expect(outcome.value == [true, true, true])
    }

    @Test(arguments: Kind.managed) func thawPreviousVersion(_ kind: Kind) throws {
        let f = try CPortCollectionFixture(kind)
        let collection = f.collection
        let frozen = collection.freeze()
        #expect(frozen.isFrozen)
        #expect(collection.count == frozen.count)

        let realm = collection.realm!
        try realm.write {
            for object in Array(collection) { realm.delete(object) }
        }
        #expect(frozen.count != collection.count, "Frozen collections should not change")

        let live = try #require(frozen.thaw())
        #expect(live.isEmpty, "Thawed collection should reflect transactions since the original reference was frozen")
        #expect(!frozen.isEmpty)
        #expect(live.count == collection.count)
    }

    @Test(arguments: Kind.managed) func thawUpdatedOnDifferentThread(_ kind: Kind) throws {
        let f = try CPortCollectionFixture(kind)
        let collection = f.collection
        let tsr = ThreadSafeReference(to: AnyRealmCollection(collection))
        let frozenBox = Locked<SeedUnchecked<(any CPortStringCollection, Results<CPortNullableStringObjectWithLink>)>?>(nil)

        #expect(collection.count == 2) // stringCol "1" and "2"
        #expect(collection.filter("stringCol == %@", "3").count == 0)

        let configuration = f.configuration
        seedRunOnThread {
            let realm = try! Realm(configuration: configuration)
            let collection = realm.resolve(tsr)!
            try! realm.write { collection.first!.stringCol = "3" }
            try! realm.write { realm.delete(collection.last!) }
            let query = collection.filter("stringCol == %@", "1")
            frozenBox.value = SeedUnchecked(value: (collection.freeze(), query.freeze()))
        }
        let (frozen, frozenQuery) = try #require(frozenBox.value).value

        let thawed = try #require(frozen.thaw())
        #expect(frozen.count == 1)
        #expect(frozen.first?.stringCol == "3")
        #expect(frozen.filter("stringCol == %@", "1").count == 0)
        #expect(frozen.filter("stringCol == %@", "2").count == 0)
        #expect(frozen.filter("stringCol == %@", "3").count == 1)

        #expect(thawed.count == 2)
        #expect(thawed.first?.stringCol == "1")
        #expect(thawed.filter("stringCol == %@", "1").count == 1)
        #expect(thawed.filter("stringCol == %@", "2").count == 1)
        #expect(thawed.filter("stringCol == %@", "3").count == 0)

        #expect(collection.count == 2)
        #expect(collection.first?.stringCol == "1")

        let thawedQuery = try #require(frozenQuery.thaw())
        #expect(frozenQuery.count == 0)
        #expect(frozenQuery.first?.stringCol == nil)
        #expect(thawedQuery.count == 1)
        #expect(thawedQuery.first?.stringCol == "1")
        #expect(thawedQuery.where { $0.stringCol == "1" }.count == 1)

        collection.realm!.refresh()

        #expect(thawed.count == 1)
        #expect(thawed.first?.stringCol == "3")
        #expect(thawed.filter("stringCol == %@", "3").count == 1)
        #expect(thawed.where { $0.stringCol == "3" }.count == 1)
        #expect(thawedQuery.count == 0)
        #expect(thawedQuery.first?.stringCol == nil)
        #expect(collection.count == 1)
        #expect(collection.first?.stringCol == "3")
        #expect(collection.where { $0.stringCol == "1" }.count == 0)
    }

    @Test(arguments: Kind.managed) func thawDeletedParent(_ kind: Kind) throws {
        let f = try CPortCollectionFixture(kind)
        let collection = f.collection
        let frozenElement = collection.first!.freeze()
        #expect(frozenElement.isFrozen)

        let realm = collection.realm!
        try realm.write {
            for object in Array(collection) { realm.delete(object) }
        }
        #expect(collection.first == nil)
        #expect(frozenElement.thaw() == nil)
    }

    @Test func freezeFromWrongThread() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "wrongThread"))
            try! realm.write { realm.create(CPortNullableStringObjectWithLink.self, value: ["1"]) }
            let collection = SeedUnchecked(value: realm.objects(CPortNullableStringObjectWithLink.self))
            seedRunOnThread { _ = collection.value.freeze() }
        }
        #expect(seedStandardError(result).contains("Realm accessed from incorrect thread"))
    }

    @Test(arguments: Kind.managed) func accessFrozenCollectionFromDifferentThread(_ kind: Kind) throws {
        let f = try CPortCollectionFixture(kind)
        let frozen = SeedUnchecked(value: f.collection.freeze())
        let read = Locked<[String?]>([])
        seedRunOnThread {
            read.value = frozen.value.map(\.stringCol)
        }
        // The linking objects' order is not defined: Realm checks it with
        // `contains` in that variant.
        #expect(Set(read.value) == ["1", "2"])
        if kind != .linkingObjects { #expect(read.value == ["1", "2"]) }
    }

    @Test func observeFrozenCollection() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "observeFrozen"))
            try! realm.write { realm.create(CPortNullableStringObjectWithLink.self, value: ["1"]) }
            _ = realm.objects(CPortNullableStringObjectWithLink.self).freeze().observe { _ in }
        }
        #expect(seedStandardError(result).contains("Frozen Realms do not change and do not have change notifications."))
    }

    @Test(arguments: Kind.managed) func queryFrozenCollection(_ kind: Kind) throws {
        let f = try CPortCollectionFixture(kind)
        let frozen = f.collection.freeze()
        #expect(frozen.filter("stringCol = '1'").count == 1)
        #expect(frozen.filter("stringCol = '2'").count == 1)
        #expect(frozen.filter("stringCol = '3'").count == 0)
        #expect(frozen.filter("stringCol = '3'").isFrozen)

        #expect(frozen.where { $0.stringCol == "1" }.count == 1)
        #expect(frozen.where { $0.stringCol == "2" }.count == 1)
        #expect(frozen.where { $0.stringCol == "3" }.count == 0)
        #expect(frozen.where { $0.stringCol == "3" }.isFrozen)
    }
}

// MARK: RealmTests (Swift and Objective-C)

@Suite struct FreezeRealmPortTests {
    @Test func thaw() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        #expect(realm.objects(PortBoolObject.self).count == 0)
        let frozenRealm = SeedUnchecked(value: realm.freeze())
        #expect(frozenRealm.value.isFrozen)
        seedRunOnThread {
            let thawedRealm = frozenRealm.value.thaw()
            seedCheck(!thawedRealm.isFrozen, "the thawed Realm is live")
            try! thawedRealm.write {
                try! Realm(configuration: configuration).create(PortBoolObject.self, value: ["boolCol": true])
            }
        }
        #expect(realm.objects(PortBoolObject.self).count == 0)
        realm.refresh()
        #expect(realm.objects(PortBoolObject.self).count == 1)
    }

    @Test func writeCopyToPathThenFreeze() throws {
        let directory = TemporaryDirectory()
        let realm = try Realm(configuration: Realm.Configuration(fileURL: directory.file("original.realm")))
        try realm.write { realm.add(PortBoolObject()) }
        try realm.writeCopy(toFile: directory.file("copy.realm"))
        let copy = try Realm(fileURL: directory.file("copy.realm"))
        #expect(copy.objects(PortBoolObject.self).count == 1)
        let frozenCopy = copy.freeze()
        #expect(frozenCopy.objects(PortBoolObject.self).count == 1)
        #expect(frozenCopy.isFrozen)
        #expect(frozenCopy.objects(PortBoolObject.self).isFrozen)
    }

    // RealmTests.mm testIsFrozen
    @Test func isFrozen() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        #expect(!realm.isFrozen)
        let frozenRealm = realm.freeze()
        let thawedRealm = frozenRealm.thaw()
        #expect(!realm.isFrozen)
        #expect(!thawedRealm.isFrozen)
        #expect(frozenRealm.isFrozen)
    }

    // RealmTests.mm testRefreshFrozen
    @Test func refreshFrozen() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let frozenRealm = realm.freeze()
        #expect(!realm.refresh())
        #expect(!frozenRealm.refresh())
        try realm.write { realm.create(PortIntObject.self, value: [0]) }
        #expect(!frozenRealm.refresh())
        #expect(frozenRealm.objects(PortIntObject.self).count == 0)
    }

    // RealmTests.mm testForbiddenMethodsOnFrozenRealm
    @Test func autorefreshCannotBeEnabledOnAFrozenRealm() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "forbidden")).freeze().autorefresh = true
        }
        #expect(seedStandardError(result).contains("Auto-refresh cannot be enabled for frozen Realms."))
    }

    @Test func aFrozenRealmCannotBeginAWrite() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "forbidden")).freeze().beginWrite()
        }
        #expect(seedStandardError(result).contains("Can't perform transactions on a frozen Realm"))
    }

    @Test func aFrozenRealmHasNoNotifications() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "forbidden")).freeze().observe { _, _ in }
        }
        #expect(seedStandardError(result).contains("Frozen Realms do not change and do not have change notifications."))
    }

    @Test func aFrozenRealmsResultsHaveNoNotifications() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let frozen = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "forbidden")).freeze()
            _ = frozen.objects(PortIntObject.self).observe { _ in }
        }
        #expect(seedStandardError(result).contains("Frozen Realms do not change and do not have change notifications."))
    }

    // RealmTests.mm testFrozenRealmCaching
    @Test func frozenRealmCaching() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let fr1 = realm.freeze()
        let fr2 = realm.freeze()
        #expect(fr1 == fr2)
        try realm.write {}
        let fr3 = realm.freeze()
        let fr4 = realm.freeze()
        #expect(fr3 == fr4)
        #expect(fr1 != fr3)
    }

    // RealmTests.mm testReadAfterInvalidateFrozen
    @Test func readAfterInvalidateFrozen() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "invalidateFrozen")).freeze()
            realm.invalidate()
            _ = realm.objects(PortIntObject.self)
        }
        #expect(seedStandardError(result).contains("Cannot read from a frozen Realm which has been invalidated."))
    }

    // RealmTests.mm testThaw
    @Test func thawRealm() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        #expect(!realm.isFrozen)
        try realm.write { realm.create(PortIntObject.self, value: [1]) }
        let frozenRealm = realm.freeze()
        #expect(frozenRealm.isFrozen)
        let frozenObj = try #require(frozenRealm.objects(PortIntObject.self).filter("intCol = 1").first)
        #expect(frozenObj.isFrozen)

        let thawedRealm = realm.thaw()
        #expect(!thawedRealm.isFrozen)
        let thawedObj = try #require(thawedRealm.objects(PortIntObject.self).filter("intCol = 1").first)
        try realm.write { thawedObj.intCol = 2 }
        #expect(thawedObj.intCol != frozenObj.intCol)
        #expect(thawedRealm.objects(PortIntObject.self).filter("intCol = 1").first == nil)
    }

    // RealmTests.mm testThawDifferentThread
    @Test func thawDifferentThread() throws {
        let configuration = inMemoryConfiguration()
        let live = try Realm(configuration: configuration)
        let frozenRealm = SeedUnchecked(value: live.freeze())
        #expect(frozenRealm.value.isFrozen)
        let outcome = Locked<[Bool]>([])
        // Thaw on a thread which already has a Realm should use that one.
        seedRunOnThread {
            let realm = try! Realm(configuration: configuration)
            let thawed = frozenRealm.value.thaw()
            outcome.value = [!thawed.isFrozen, thawed == realm]
        }
        #expect(outcome.value == [true, true])
        // Thaw on a thread without one.
        seedRunOnThread {
            outcome.value = [!frozenRealm.value.thaw().isFrozen]
        }
        #expect(outcome.value == [true])
    }

    // RealmTests.mm testThawPreviousVersion
    @Test func thawPreviousVersion() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let frozenRealm = realm.freeze()
        #expect(frozenRealm.isFrozen)
        #expect(frozenRealm.isEmpty == realm.isEmpty)
        try realm.write { realm.create(PortIntObject.self, value: [1]) }
        #expect(frozenRealm.isEmpty != realm.isEmpty, "Contents of frozen Realm should not mutate")
        let thawed = frozenRealm.thaw()
        #expect(!thawed.isFrozen)
        #expect(thawed.isEmpty == realm.isEmpty, "Thawed realm should reflect transactions since the original reference was frozen")
        #expect(thawed.isEmpty != frozenRealm.isEmpty)
    }
}
