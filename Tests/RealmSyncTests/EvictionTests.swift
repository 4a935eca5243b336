import Foundation
import RealmCore
import RealmSyncEngine
import RealmSyncWire
import Testing

/// Eviction from a query-based file (Docs/SyncDesign.md, "Query-based
/// sync"): an object leaves with what it embeds and its sync rows, and
/// nothing is recorded, tombstoned or ended; what the file's changesets
/// not yet acknowledged name stays.
@Suite struct EvictionTests {
    typealias Recorder = ChangesetRecorderTests

    /// A file holding person 7 (with an embedded home) whose dogs list
    /// holds Rex, written in one recorded changeset (after the schema's).
    static func file() throws -> (SyncedFile, Transaction, person: ObjectReference, dog: ObjectReference) {
        let directory = temporaryDirectory("eviction")
        let coordinator = try Coordinator.open(.file(directory.appendingPathComponent("a.realm").path, schema: Recorder.schema))
        let file = try SyncedFile(coordinator: coordinator)
        _ = try file.state()
        let t = try coordinator.makeTransaction()
        let people = try t.classHandle(named: "Person")
        let dogs = try t.classHandle(named: "Dog")
        try t.beginWrite()
        let ana = try t.createObject(in: people, values: [.int(7), .string("Ana")])
        let rex = try t.createObject(in: dogs, values: [.string("Rex"), .int(1), .null])
        try t.append(.object(rex), to: try t.list(2, of: ana, in: people))
        _ = try t.createEmbeddedObject(in: people, owner: ana, property: 4, values: [.string("Main St")])
        try t.commitWrite()
        let dog = try #require(try TopLevelObjects.identity(of: rex, in: dogs, t))
        return (file, t, ObjectReference(className: "Person", identity: .primaryKey(.int(7), incarnation: 0)),
                ObjectReference(className: "Dog", identity: dog))
    }

    static func count(_ table: String, _ t: Transaction) throws -> Int64 {
        try t.refresh()
        let select = try t.queryStatement("SELECT COUNT(*) FROM \(table)")
        defer { select.reset() }
        _ = try select.step()
        return select.int64(at: 0)
    }

    @Test func anEvictedObjectLeavesWithItsRowsAndNothingIsRecorded() throws {
        let (file, t, person, dog) = try Self.file()
        let written = try #require(try file.newestUnacknowledged())
        try file.acknowledge(through: written)
        try file.integrate([], reaching: 1, evicting: .objects([person, dog]), acknowledged: written)
        try t.refresh()
        for table in ["Person", "Dog", "Address"] {
            #expect(try t.count(of: try t.classHandle(named: table)) == 0, "\(table)")
        }
        for table in ["sync_history", "sync_tombstones", "sync_incarnations", "sync_objects", "sync_embedded", "sync_stamps", "sync_lists",
                      "sync_pending_links"] {
            #expect(try Self.count(table, t) == 0, "\(table)")
        }
    }

    @Test func whatChangesetsNotYetAcknowledgedNameStays() throws {
        let (file, t, person, dog) = try Self.file()
        let written = try #require(try file.newestUnacknowledged())
        try file.integrate([], reaching: 1, evicting: .objects([person, dog]), acknowledged: written - 1)
        try file.integrate([], reaching: 2, evicting: .allNotSent, acknowledged: written - 1)
        try t.refresh()
        #expect(try t.count(of: try t.classHandle(named: "Person")) == 1)
        #expect(try t.count(of: try t.classHandle(named: "Dog")) == 1)
        // Once the server has them, the view decides.
        try file.integrate([], reaching: 3, evicting: .allNotSent, received: [person], acknowledged: written)
        try t.refresh()
        #expect(try t.count(of: try t.classHandle(named: "Person")) == 1)
        #expect(try t.count(of: try t.classHandle(named: "Dog")) == 0)
    }

    /// An evicted object that a kept one's list holds comes back into the
    /// list when a later download brings it again (as the server's state
    /// has it there all along).
    @Test func anEvictedObjectComesBackIntoTheListsThatHeldIt() throws {
        let (file, t, person, dog) = try Self.file()
        let written = try #require(try file.newestUnacknowledged())
        try file.acknowledge(through: written)
        try file.integrate([], reaching: 1, evicting: .allNotSent, received: [person], acknowledged: written)
        let people = try t.classHandle(named: "Person")
        let ana = try #require(try t.object(withPrimaryKey: .int(7), in: people))
        let dogs = ListHandle(owningClass: people, owner: ana, property: 2)
        try t.refresh()
        #expect(try t.count(of: dogs) == 0)
        #expect(try Self.count("sync_pending_links", t) == 1)

        let back = Changeset(clientFileIdent: 9, clientVersion: 1, lastServerVersion: 1, timestamp: 1, firstSequence: 1,
                             instructions: [.create(class: "Dog", dog.identity), .set(class: "Dog", dog.identity, property: "name", .string("Rex"))])
        try file.integrate([(2, back)], reaching: 2, acknowledged: written)
        try t.refresh()
        #expect(try t.count(of: dogs) == 1)
        #expect(try Self.count("sync_pending_links", t) == 0)
    }
}
