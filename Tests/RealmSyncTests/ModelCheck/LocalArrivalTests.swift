import Foundation
import RealmCore
import RealmSyncEngine
import RealmSyncWire
import Testing

/// A local write that creates a primary key another replica's link names
/// creates that very object: the links waiting for it show it, as on the
/// replicas that held it all along (Docs/SyncDesign.md, "Links to objects
/// not here"). Before, only the applier's arrivals showed them, so a
/// query-based replica kept nil where the server had the link.
@Suite struct LocalArrivalTests {
    typealias P = ModelReplica.PersonProperty

    /// A seeded replica whose links to Bo wait for him: Ana's friends list
    /// holds him, and her mixed value, her list of mixed values and her set
    /// of mixed values link to him too, when a query-based view loses him.
    static func waitingForBo() throws -> ModelReplica {
        let (replica, _, _, _) = try HostileChangesetTests.seeded()
        let bo = try #require(try replica.person(2))
        try replica.transaction.write {
            try replica.setPerson(1, P.any, .link(className: "Person", key: bo))
            try replica.withList(P.anyList) { t, list, _ in try t.insert(.link(className: "Person", key: bo), at: 0, in: list) }
            try replica.withCollection(P.bag) { t, set in try t.insert(.link(className: "Person", key: bo), intoSet: set) }
        }
        _ = try replica.takeUnuploaded()
        try replica.evict(bo, in: try replica.people)
        return replica
    }

    @Test func aLocalCreationShowsTheLinksThatWaitForIt() throws {
        let replica = try Self.waitingForBo()
        let t = replica.transaction
        let people = try replica.people
        let ana = try #require(try replica.person(1))
        #expect(try t.values(of: try t.list(P.friends, of: ana, in: people)).isEmpty)
        #expect(try t.value(of: ana, property: P.any, in: people) == .null)

        // The app makes Bo here.
        try t.beginWrite()
        let made = try t.createObject(in: people, values: [.int(2), .string("Bo again")])
        let changes = try t.commitWrite()

        let link = Value.link(className: "Person", key: made)
        #expect(try t.values(of: try t.list(P.friends, of: ana, in: people)) == [.object(made)])
        #expect(try t.value(of: ana, property: P.any, in: people) == link)
        #expect(try t.values(of: try t.list(P.anyList, of: ana, in: people)).first == link)
        #expect(try t.setValues(of: ListHandle(owningClass: people, owner: ana, property: P.bag)).contains(link))
        // Notified as part of the write, and not recorded: the links keep
        // the stamps of the writes that named Bo.
        #expect(changes.lists[ListIdentifier(className: "Person", propertyIndex: P.friends, owner: ana)] != nil)
        #expect(changes.classes["Person"]?.modifications[ana] != nil)
        let recorded = try replica.takeUnuploaded().flatMap(\.instructions)
        #expect(!recorded.contains { instruction in
            if case .set(_, .primaryKey(.int(1), _), _, _) = instruction { return true }
            if case .listInsert = instruction { return true }
            if case .setInsert = instruction { return true }
            return false
        }, "\(recorded)")
        #expect(try MixedListEdgeTests.waitingLinks(replica) == 0)
    }

    /// An evicted object keyed by its primary key comes back with the
    /// same local key and incarnation: the list elements that held it show
    /// it again (before the fix, the list's sync identities could not tell
    /// its rows were dropped, and the arrival failed as a bad changeset).
    @Test func anEvictedPrimaryKeyObjectComesBackIntoItsLists() throws {
        let (replica, _, _, _) = try HostileChangesetTests.seeded()
        let t = replica.transaction
        let people = try replica.people
        let bo = try #require(try replica.person(2))
        let identity = try #require(try TopLevelObjects.identity(of: bo, in: people, t))
        try replica.evict(bo, in: people)
        try replica.apply([Changeset(clientFileIdent: 77, clientVersion: 1, lastServerVersion: 1, timestamp: 500, firstSequence: 1, instructions: [
            .create(class: "Person", identity), .set(class: "Person", identity, property: "name", .string("Bo")),
        ])], firstVersion: 2)
        let back = try #require(try replica.person(2))
        let ana = try #require(try replica.person(1))
        #expect(try t.values(of: try t.list(P.friends, of: ana, in: people)) == [.object(back)])
    }

    /// The write that creates the object may also write the links that
    /// wait for it: they keep what the write gave them (before the fix, the
    /// arrival overwrote them after they were recorded, and this replica
    /// kept the old link where every other had the new value).
    @Test func aWriteThatCreatesTheObjectKeepsWhatItWritesToItsLinks() throws {
        let replica = try Self.waitingForBo()
        let t = replica.transaction
        let people = try replica.people
        try t.write {
            _ = try t.createObject(in: people, values: [.int(2), .string("Bo again")])
            try replica.setPerson(1, P.any, .int(5))
            try replica.withList(P.anyList) { t, list, _ in try t.replace(at: 0, with: .string("mine"), in: list) }
        }
        let ana = try #require(try replica.person(1))
        #expect(try t.value(of: ana, property: P.any, in: people) == .int(5))
        #expect(try t.values(of: try t.list(P.anyList, of: ana, in: people)).first == .string("mine"))
        #expect(try t.values(of: try t.list(P.friends, of: ana, in: people)) == [.object(try #require(try replica.person(2)))])
    }
}
