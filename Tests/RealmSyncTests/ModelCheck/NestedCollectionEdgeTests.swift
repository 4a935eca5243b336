import Foundation
import RealmCore
import RealmSyncEngine
import RealmSyncWire
import Testing

/// Collections nested in mixed values in cases the model checker's
/// histories do not reach (Docs/SyncDesign.md, "Nested collections"):
/// links inside them to objects not here wait, as elsewhere.
@Suite struct NestedCollectionEdgeTests {
    typealias P = ModelReplica.PersonProperty

    static let ana = ObjectIdentity.primaryKey(.int(1), incarnation: 0)
    static let late = ObjectIdentity.global(GlobalKey(client: 77, counter: 9))

    /// The seed's `nest` list and the dictionary inside it, by name.
    static func names(_ replica: ModelReplica) throws -> (list: GlobalKey, dictionary: GlobalKey) {
        try replica.transaction.beginWrite()
        defer { replica.transaction.cancelWrite() }
        let state = try StateSnapshot.changesets(replica.transaction).flatMap(\.instructions)
        let list = try #require(state.lazy.compactMap { instruction -> GlobalKey? in
            if case .set("Person", ana, "nest", .nestedList(let name)) = instruction { name } else { nil }
        }.first)
        let dictionary = try #require(state.lazy.compactMap { instruction -> GlobalKey? in
            if case .listInsert(_, _, _, .nestedDictionary(let name)) = instruction { name } else { nil }
        }.first)
        return (list, dictionary)
    }

    /// Ana's `nest` list, and the first dictionary in it.
    static func nest(_ replica: ModelReplica) throws -> (list: [Value], dictionary: [String: Value]) {
        try replica.transaction.refresh()
        var list: [Value] = []
        var dictionary: [String: Value] = [:]
        try replica.withNested(.list) { t, nested in list = try t.values(of: nested) }
        try replica.withInnerDictionary { t, nested in for (key, value) in try t.entries(of: nested) { dictionary[key] = value } }
        return (list, dictionary)
    }

    static func changeset(_ version: UInt64, _ timestamp: Int64, _ instructions: [Instruction]) -> Changeset {
        Changeset(clientFileIdent: 77, clientVersion: version, lastServerVersion: 1, timestamp: timestamp, firstSequence: version * 10,
                  instructions: instructions)
    }

    @Test func linksInNestedCollectionsWaitForTheirObjects() throws {
        let (replica, _, _, _) = try HostileChangesetTests.seeded()
        let (list, dictionary) = try Self.names(replica)
        let element = GlobalKey(client: 77, counter: 1)
        try replica.apply([Self.changeset(1, 5_000, [
            .listInsert(ListReference(ownerClass: "Person", owner: Self.ana, property: "nest", nested: list), element: element,
                        position: PositionKey.between(nil, and: nil, for: element), .link(class: "Dog", Self.late)),
            .mapSet(ListReference(ownerClass: "Person", owner: Self.ana, property: "nest", nested: dictionary), key: "late",
                    .link(class: "Dog", Self.late)),
        ])], firstVersion: 2)
        var nest = try Self.nest(replica)
        #expect(nest.list.first == .null && nest.dictionary["late"] == .null)
        try replica.apply([Self.changeset(2, 4_000, [.create(class: "Dog", Self.late), .set(class: "Dog", Self.late, property: "name", .string("Late"))])],
                          firstVersion: 3)
        let late = Value.link(className: "Dog", key: try #require(try replica.dog("Late")))
        nest = try Self.nest(replica)
        #expect(nest.list.first == late && nest.dictionary["late"] == late)
    }

    @Test func anEvictedObjectsNestedLinksWaitForIt() throws {
        let (replica, _, _, _) = try HostileChangesetTests.seeded()
        try replica.transaction.write {
            try ModelOperation.named("nestInsertRex").body(replica, 1)
            try ModelOperation.named("nestInnerRex").body(replica, 1)
        }
        let dogs = try replica.dogs
        let rex = try #require(try replica.dog("Rex"))
        let identity = try #require(try TopLevelObjects.identity(of: rex, in: dogs, replica.transaction))
        try replica.evict(rex, in: dogs)
        var nest = try Self.nest(replica)
        #expect(nest.list.first == .null && nest.dictionary["r"] == .null)
        try replica.apply([Self.changeset(1, 500, [.create(class: "Dog", identity), .set(class: "Dog", identity, property: "name", .string("Rex"))])],
                          firstVersion: 2)
        let back = Value.link(className: "Dog", key: try #require(try replica.dog("Rex")))
        nest = try Self.nest(replica)
        #expect(nest.list.first == back && nest.dictionary["r"] == back)
    }

    /// A nested collection's content travels in the state: a replica
    /// caught up from it holds the same, and its instructions find the
    /// collections by name.
    @Test func aReplicaCaughtUpFromTheStateFindsNestedCollectionsByName() throws {
        let (replica, _, _, _) = try HostileChangesetTests.seeded()
        try replica.transaction.write {
            try ModelOperation.named("nestAppend").body(replica, 1)
            try ModelOperation.named("nestInnerSet").body(replica, 1)
            try ModelOperation.named("anyListNest").body(replica, 1)
        }
        let changes = try replica.takeUnuploaded()
        let newcomer = try ModelReplica()
        try replica.transaction.beginWrite()
        let state = try StateSnapshot.changesets(replica.transaction)
        replica.transaction.cancelWrite()
        try newcomer.apply(state, firstVersion: 1)
        #expect(try newcomer.dump() == (try replica.dump()))
        // A later change of the original's, given to the newcomer.
        try replica.transaction.write { try ModelOperation.named("nestAppend").body(replica, 2) }
        try newcomer.apply(try replica.takeUnuploaded(), firstVersion: UInt64(state.count + 1))
        #expect(try newcomer.dump() == (try replica.dump()))
        #expect(!changes.isEmpty)
    }
}
