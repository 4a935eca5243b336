import Foundation
import RealmCore
import RealmSyncEngine
import RealmSyncWire
import Testing

/// Lists of mixed values in cases the model checker's histories do not
/// reach: an element whose link names an object not here shows nil (as
/// RealmCore leaves an element whose object was deleted) and waits for it
/// (Docs/SyncDesign.md, "Mixed values").
@Suite struct MixedListEdgeTests {
    typealias P = ModelReplica.PersonProperty

    static let ana = ObjectIdentity.primaryKey(.int(1), incarnation: 0)
    static let anyList = ListReference(ownerClass: "Person", owner: ana, property: "anyList")
    /// A dog no replica has made yet.
    static let late = ObjectIdentity.global(GlobalKey(client: 77, counter: 9))

    static func changeset(_ version: UInt64, _ timestamp: Int64, _ instructions: [Instruction]) -> Changeset {
        Changeset(clientFileIdent: 77, clientVersion: version, lastServerVersion: 1, timestamp: timestamp, firstSequence: version * 10,
                  instructions: instructions)
    }

    /// Ana's list of mixed values, as RealmCore shows it.
    static func elements(_ replica: ModelReplica) throws -> [Value] {
        try replica.transaction.refresh()
        return try replica.transaction.values(of: try #require(try replica.list(P.anyList, of: 1)))
    }

    /// How many links wait in the replica's sync tables.
    static func waitingLinks(_ replica: ModelReplica) throws -> Int64 {
        try replica.transaction.refresh()
        let count = try replica.transaction.queryStatement("SELECT count(*) FROM sync_pending_links")
        defer { count.reset() }
        _ = try count.step()
        return count.int64(at: 0)
    }

    /// Inserts a link to the late dog at the front of Ana's list.
    static func insertLateLink(into replica: ModelReplica) throws -> GlobalKey {
        let element = GlobalKey(client: 77, counter: 1)
        let position = PositionKey.between(nil, and: try HostileChangesetTests.positions(of: anyList, in: replica).first, for: element)
        try replica.apply([changeset(1, 5_000, [.listInsert(anyList, element: element, position: position, .link(class: "Dog", late))])],
                          firstVersion: 2)
        return element
    }

    static func lateDogArrives(in replica: ModelReplica, version: UInt64) throws {
        try replica.apply([changeset(2, 4_000, [.create(class: "Dog", late), .set(class: "Dog", late, property: "name", .string("Late"))])],
                          firstVersion: version)
    }

    @Test func anElementShowsNilUntilItsObjectArrives() throws {
        let (replica, _, _, _) = try HostileChangesetTests.seeded()
        _ = try Self.insertLateLink(into: replica)
        #expect(try Self.elements(replica).first == .null)
        try Self.lateDogArrives(in: replica, version: 3)
        let late = try #require(try replica.dog("Late"))
        #expect(try Self.elements(replica).first == .link(className: "Dog", key: late))
    }

    /// A local write of the waiting element ends its wait: the object's
    /// arrival leaves what the later write put there, as every replica
    /// that had the object all along shows.
    @Test func aLocalWriteEndsAnElementsWait() throws {
        let (replica, _, _, _) = try HostileChangesetTests.seeded()
        _ = try Self.insertLateLink(into: replica)
        try replica.transaction.write {
            try replica.withList(P.anyList) { t, list, _ in try t.replace(at: 0, with: .int(3), in: list) }
        }
        try Self.lateDogArrives(in: replica, version: 3)
        #expect(try Self.elements(replica).first == .int(3))
    }

    /// So does a local removal, and a local clear: the arrival then
    /// changes nothing.
    @Test func aLocalRemovalOrClearEndsAnElementsWait() throws {
        for clears in [false, true] {
            let (replica, _, _, _) = try HostileChangesetTests.seeded()
            _ = try Self.insertLateLink(into: replica)
            try replica.transaction.write {
                try replica.withList(P.anyList) { t, list, _ in if clears { try t.removeAll(from: list) } else { try t.remove(at: 0, from: list) } }
            }
            #expect(try Self.waitingLinks(replica) == 0, "clears: \(clears)")
            let before = try Self.elements(replica)
            try Self.lateDogArrives(in: replica, version: 3)
            #expect(try Self.elements(replica) == before, "clears: \(clears)")
            #expect(before.count == (clears ? 0 : 2))
        }
    }

    /// An element erased by another replica waits no more either.
    @Test func anErasedElementWaitsNoMore() throws {
        let (replica, _, _, _) = try HostileChangesetTests.seeded()
        let element = try Self.insertLateLink(into: replica)
        #expect(try Self.waitingLinks(replica) == 1)
        try replica.apply([Self.changeset(3, 6_000, [.listErase(Self.anyList, element: element)])], firstVersion: 3)
        #expect(try Self.waitingLinks(replica) == 0)
        try Self.lateDogArrives(in: replica, version: 4)
        #expect(try Self.elements(replica) == [.string("z"), .link(className: "Dog", key: try #require(try replica.dog("Rex")))])
    }

    /// An object a query-based replica evicts leaves nil in the elements
    /// that link to it, and they show it again when it comes back.
    @Test func anEvictedObjectsElementsWaitForIt() throws {
        let (replica, _, _, _) = try HostileChangesetTests.seeded()
        let dogs = try replica.dogs
        let rex = try #require(try replica.dog("Rex"))
        let identity = try #require(try TopLevelObjects.identity(of: rex, in: dogs, replica.transaction))
        try replica.evict(rex, in: dogs)
        #expect(try Self.elements(replica) == [.string("z"), .null])
        try replica.apply([Self.changeset(1, 500, [.create(class: "Dog", identity), .set(class: "Dog", identity, property: "name", .string("Rex"))])],
                          firstVersion: 2)
        let back = try #require(try replica.dog("Rex"))
        #expect(try Self.elements(replica) == [.string("z"), .link(className: "Dog", key: back)])
    }

    @Test func aLinkToNoTopLevelClassIsRefused() throws {
        let element = GlobalKey(client: 77, counter: 1)
        let position = PositionKey.between(nil, and: nil, for: element)
        let somewhere = ObjectIdentity.global(GlobalKey(client: 77, counter: 2))
        try HostileChangesetTests.expectRefused([.listInsert(Self.anyList, element: element, position: position, .link(class: "Address", somewhere))],
                                                "a mixed element linking to an embedded class")
        try HostileChangesetTests.expectRefused([.listInsert(Self.anyList, element: element, position: position, .link(class: "Nowhere", somewhere))],
                                                "a mixed element linking to no class")
        try HostileChangesetTests.expectRefused([.listInsert(Self.anyList, element: element, position: position, .link(class: "Dog", .embedded(
            ownerClass: "Person", owner: Self.ana, property: "anyList", element: element)))], "a mixed element naming an embedded identity")
    }
}
