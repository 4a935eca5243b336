import Foundation
import RealmCore
import RealmSyncEngine
import RealmSyncWire
import Testing

/// Links whose target a replica does not have yet (Docs/SyncDesign.md,
/// "Links to objects not here"): they read nil, and are set when the
/// object arrives, unless a later write of the link came first or the
/// object can never come.
@Suite struct PendingLinkTests {
    typealias Replica = ConvergenceTests.Replica

    static let ana = ObjectIdentity.primaryKey(.int(7), incarnation: 0)
    static let rex = ObjectIdentity.global(GlobalKey(client: 5, counter: 1))
    static let element = GlobalKey(client: 5, counter: 2)

    /// Changeset number `version` of client 5, written at `timestamp`.
    static func changeset(_ version: UInt64, at timestamp: Int64, _ instructions: [Instruction]) -> Changeset {
        Changeset(clientFileIdent: 5, clientVersion: version, lastServerVersion: 0, timestamp: timestamp, firstSequence: version * 100,
                  instructions: instructions)
    }

    static let makeRex = changeset(1, at: 1_000, [.create(class: "Dog", rex), .set(class: "Dog", rex, property: "name", .string("Rex"))])
    static let rexToAna = changeset(2, at: 2_000, [.set(class: "Dog", rex, property: "owner", .link(class: "Person", ana))])
    static let makeAna = changeset(3, at: 1_500, [.create(class: "Person", ana), .set(class: "Person", ana, property: "name", .string("Ana"))])

    static func apply(_ changesets: [Changeset], to replica: Replica) throws {
        try replica.transaction.write {
            for (index, changeset) in changesets.enumerated() {
                try ChangesetApplier.apply(changeset, serverVersion: UInt64(index + 1), in: replica.transaction, recorder: replica.recorder)
            }
        }
    }

    static func replica(_ name: String) throws -> Replica {
        try Replica(temporaryDirectory("pending-links").appendingPathComponent("\(name).realm").path)
    }

    /// Rex's owner, as its name; nil for none.
    static func owner(in replica: Replica) throws -> String? {
        let t = replica.transaction
        try t.refresh()
        let dog = try #require(try t.objectKeys(in: try replica.dogs).first)
        guard case .object(let person) = try t.value(of: dog, property: 2, in: try replica.dogs) else { return nil }
        guard case .string(let name) = try t.value(of: person, property: 1, in: try replica.people) else { return "?" }
        return name
    }

    static func waiting(_ replica: Replica) throws -> Int64 {
        try EvictionTests.count("sync_pending_links", replica.transaction)
    }

    @Test func aLinkToAnObjectNotHereIsSetWhenItArrives() throws {
        let late = try Self.replica("late")
        try Self.apply([Self.makeRex, Self.rexToAna], to: late)
        #expect(try Self.owner(in: late) == nil, "nil while Ana is not here")
        #expect(try Self.waiting(late) == 1)
        try Self.apply([Self.makeAna], to: late)
        #expect(try Self.owner(in: late) == "Ana")
        #expect(try Self.waiting(late) == 0)

        // As a replica that had Ana first, stamp included: an older write
        // of the link loses to the one that waited.
        let early = try Self.replica("early")
        try Self.apply([Self.makeAna, Self.makeRex, Self.rexToAna], to: early)
        let older = Self.changeset(4, at: 1_800, [.set(class: "Dog", Self.rex, property: "owner", .null)])
        for replica in [late, early] {
            try Self.apply([older], to: replica)
            #expect(try Self.owner(in: replica) == "Ana")
        }
    }

    @Test func aLaterWriteOfTheLinkEndsTheWait() throws {
        let remote = try Self.replica("remote")
        let newer = Self.changeset(4, at: 3_000, [.set(class: "Dog", Self.rex, property: "owner", .null)])
        try Self.apply([Self.makeRex, Self.rexToAna, newer], to: remote)
        #expect(try Self.waiting(remote) == 0)
        try Self.apply([Self.makeAna], to: remote)
        #expect(try Self.owner(in: remote) == nil)

        // A local write ends it too.
        let local = try Self.replica("local")
        try Self.apply([Self.makeRex, Self.rexToAna], to: local)
        local.clock.milliseconds = 5_000
        let dog = try #require(try local.transaction.objectKeys(in: try local.dogs).first)
        try local.transaction.write { try local.transaction.setValue(.null, of: dog, property: 2, in: try local.dogs) }
        #expect(try Self.waiting(local) == 0)
        try Self.apply([Self.makeAna], to: local)
        #expect(try Self.owner(in: local) == nil)
    }

    @Test func anErasedTargetEndsTheWaitAndALaterIncarnationIsAnotherObject() throws {
        let replica = try Self.replica("erased")
        try Self.apply([Self.makeRex, Self.rexToAna], to: replica)
        try Self.apply([Self.changeset(5, at: 4_000, [.erase(class: "Person", Self.ana)])], to: replica)
        #expect(try Self.waiting(replica) == 0)
        let again = ObjectIdentity.primaryKey(.int(7), incarnation: 1)
        try Self.apply([Self.changeset(6, at: 5_000, [.create(class: "Person", again), .set(class: "Person", again, property: "name", .string("Ana again"))])],
                       to: replica)
        #expect(try Self.owner(in: replica) == nil)

        // A link to an ended incarnation never waits.
        try Self.apply([Self.changeset(7, at: 6_000, [.set(class: "Dog", Self.rex, property: "owner", .link(class: "Person", Self.ana))])], to: replica)
        #expect(try Self.owner(in: replica) == nil)
        #expect(try Self.waiting(replica) == 0)
    }

    @Test func aListElementWaitsForItsObject() throws {
        let replica = try Self.replica("list")
        let dogs = ListReference(ownerClass: "Person", owner: Self.ana, property: "dogs")
        let insert = Self.changeset(8, at: 2_500, [.listInsert(dogs, element: Self.element, position: PositionKey.between(nil, and: nil, for: Self.element),
                                                               .link(class: "Dog", Self.rex))])
        try Self.apply([Self.makeAna, insert], to: replica)
        let t = replica.transaction
        let ana = try #require(try t.object(withPrimaryKey: .int(7), in: try replica.people))
        let list = ListHandle(owningClass: try replica.people, owner: ana, property: 3)
        try t.refresh()
        #expect(try t.count(of: list) == 0, "hidden while Rex is not here")
        try Self.apply([Self.makeRex], to: replica)
        try t.refresh()
        #expect(try t.count(of: list) == 1)
        #expect(try Self.waiting(replica) == 0)
        // The element is whole again: erasing it removes Rex from the list.
        try Self.apply([Self.changeset(9, at: 3_000, [.listErase(dogs, element: Self.element)])], to: replica)
        try t.refresh()
        #expect(try t.count(of: list) == 0)
    }
}
