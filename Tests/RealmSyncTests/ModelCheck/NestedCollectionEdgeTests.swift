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

    /// What sync keeps of a nested collection (its name, mirror, registers
    /// and waiting links) goes when RealmCore deletes the collection, on
    /// the replica that replaced it and on one that applied the
    /// replacement: a value replaced at every write leaves no trail.
    @Test func replacedNestedCollectionsLeaveNothingBehind() throws {
        let (writer, _, _, _) = try HostileChangesetTests.seeded()
        let (reader, _, _, _) = try HostileChangesetTests.seeded()
        var version = UInt64(ModelChecker.seedChangesets.count + 1)
        for round in 1...12 {
            try writer.transaction.write {
                for name in ["nestList", "nestAppend", "nestInsertRex"] { try ModelOperation.named(name).body(writer, round) }
            }
            try writer.transaction.write { try ModelOperation.named("nestDict").body(writer, round) }
            let changes = try writer.takeUnuploaded()
            try reader.apply(changes, firstVersion: version)
            version += UInt64(changes.count)
        }
        // Late links into a list and a dictionary wait (a list's element
        // in sync_pending_links, a dictionary's value in its register),
        // and go with them.
        try writer.transaction.write {
            try ModelOperation.named("nestList").body(writer, 13)
            try writer.withNested(.list) { t, list in _ = try t.insertNestedCollection(.dictionary, at: 0, in: list) }
        }
        let last = try writer.takeUnuploaded()
        try reader.apply(last, firstVersion: version)
        version += UInt64(last.count)
        let names = try Self.liveNames(writer)
        try #require(names.count == 2)
        let (dictionary, list) = (names[0], names[1])
        let element = GlobalKey(client: 77, counter: 1)
        try reader.apply([Self.changeset(1, 90_000, [
            .listInsert(ListReference(ownerClass: "Person", owner: Self.ana, property: "nest", nested: list), element: element,
                        position: PositionKey.between(nil, and: nil, for: element), .link(class: "Dog", Self.late)),
            .mapSet(ListReference(ownerClass: "Person", owner: Self.ana, property: "nest", nested: dictionary), key: "late",
                    .link(class: "Dog", Self.late)),
        ])], firstVersion: version)
        #expect(try Self.count("sync_pending_links WHERE property GLOB '*.*'", reader) == 1)
        #expect(try Self.count("sync_members WHERE property GLOB '*.*' AND target IS NOT NULL", reader) == 1)
        try reader.transaction.write { try ModelOperation.named("nestScalar").body(reader, 1) }
        #expect(try Self.count("sync_pending_links WHERE property GLOB '*.*'", reader) == 0)
        #expect(try Self.count("sync_members WHERE property GLOB '*.*'", reader) == 0)

        for replica in [writer, reader] {
            try replica.transaction.refresh()
            #expect(try Self.count("sync_nested", replica) == (try Self.count("realm_nested_collections", replica)))
            for table in ["sync_lists", "sync_members", "sync_pending_links"] {
                #expect(try Self.count("""
                    \(table) WHERE property GLOB '*.*' AND NOT EXISTS (
                        SELECT 1 FROM sync_nested n WHERE \(table).property GLOB '*.' || n.client || '-' || n.counter)
                    """, replica) == 0, "\(table) keeps rows of deleted collections")
            }
        }
        #expect(try Self.count("sync_nested", reader) == 0)
    }

    /// The names of the nested collections `replica` has.
    static func liveNames(_ replica: ModelReplica) throws -> [GlobalKey] {
        try replica.transaction.refresh()
        let select = try replica.transaction.queryStatement("SELECT client, counter FROM sync_nested ORDER BY collection DESC")
        defer { select.reset() }
        var names: [GlobalKey] = []
        while try select.step() {
            names.append(GlobalKey(client: UInt64(bitPattern: select.int64(at: 0)), counter: UInt64(bitPattern: select.int64(at: 1))))
        }
        return names
    }

    /// The rows of `tableAndCondition` in `replica`'s file.
    static func count(_ tableAndCondition: String, _ replica: ModelReplica) throws -> Int64 {
        try replica.transaction.refresh()
        let select = try replica.transaction.queryStatement("SELECT count(*) FROM \(tableAndCondition)")
        defer { select.reset() }
        _ = try select.step()
        return select.int64(at: 0)
    }
}
