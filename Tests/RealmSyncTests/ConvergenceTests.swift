import Foundation
import RealmCore
import RealmSync
import RealmSyncWire
import Testing

/// Two replicas of one synced Realm, edited concurrently, then each given
/// the other's changesets (no server yet: the changesets are handed over
/// directly, as the server will relay them): both must end in the same
/// state, by the rules of Docs/SyncDesign.md.
@Suite struct ConvergenceTests {
    static let schema = Schema([
        ObjectSchema(name: "Person", properties: [
            Property(name: "id", type: .int, isPrimaryKey: true),
            Property(name: "name", type: .string),
            Property(name: "home", type: .object, isOptional: true, objectClassName: "Address"),
        ]),
        ObjectSchema(name: "Dog", properties: [
            Property(name: "name", type: .string),
            Property(name: "age", type: .int),
            Property(name: "owner", type: .object, isOptional: true, objectClassName: "Person"),
        ]),
        ObjectSchema(name: "Address", properties: [Property(name: "street", type: .string)], isEmbedded: true),
    ])

    /// A synced file with its own clock.
    final class Replica {
        let transaction: Transaction
        let recorder: ChangesetRecorder
        let clock: Clock
        /// The other replica's changesets applied so far.
        var received: UInt64 = 0
        var nextServerVersion: UInt64 = 1

        final class Clock: @unchecked Sendable {
            // @unchecked: set by the test between writes on its thread.
            var milliseconds: Int64 = 1_000
        }

        init(_ path: String) throws {
            let coordinator = try Coordinator.open(.file(path, schema: ConvergenceTests.schema))
            let clock = Clock()
            self.clock = clock
            recorder = try ChangesetRecorder.install(on: coordinator, now: { clock.milliseconds })
            transaction = try coordinator.makeTransaction()
        }

        var people: ClassHandle { get throws { try transaction.classHandle(named: "Person") } }
        var dogs: ClassHandle { get throws { try transaction.classHandle(named: "Dog") } }

        /// Applies the changesets `other` recorded since the last call.
        func receive(from other: Replica) throws {
            try other.transaction.refresh()
            let changesets = try ChangesetRecorderTests.history(other.transaction).filter { $0.clientVersion > received }
            guard !changesets.isEmpty else { return }
            try transaction.write {
                for changeset in changesets {
                    try ChangesetApplier.apply(changeset, serverVersion: nextServerVersion, in: transaction, recorder: recorder)
                    nextServerVersion += 1
                }
            }
            received = changesets.last!.clientVersion
        }

        /// The data, class by class, objects named by content so that two
        /// replicas compare.
        func snapshot() throws -> [String] {
            try transaction.refresh()
            var lines: [String] = []
            for className in ["Person", "Dog", "Address"] {
                let handle = try transaction.classHandle(named: className)
                var rows: [String] = []
                for key in try transaction.objectKeys(in: handle) {
                    var values = try transaction.values(of: key, in: handle)
                    for (index, value) in values.enumerated() {
                        // Links by their target's content, not local keys.
                        if case .object(let target) = value {
                            let targetClass = try transaction.objectSchema(handle).properties[index].objectClassName!
                            let targetHandle = try transaction.classHandle(named: targetClass)
                            values[index] = .string("→\(try transaction.values(of: target, in: targetHandle).prefix(2))")
                        }
                    }
                    rows.append("\(className) \(values)")
                }
                lines += rows.sorted()
            }
            return lines
        }
    }

    static func pair() throws -> (Replica, Replica) {
        let directory = temporaryDirectory("converge")
        return (try Replica(directory.appendingPathComponent("a.realm").path), try Replica(directory.appendingPathComponent("b.realm").path))
    }

    static func exchange(_ a: Replica, _ b: Replica) throws {
        try a.receive(from: b)
        try b.receive(from: a)
        #expect(try a.snapshot() == b.snapshot(), "the replicas converge")
    }

    static func clientIdent(_ replica: Replica) throws -> UInt64 {
        try ChangesetRecorderTests.history(replica.transaction).first!.clientFileIdent
    }

    @Test func theLaterWriteOfAPropertyWins() throws {
        let (a, b) = try Self.pair()
        try a.transaction.write { _ = try a.transaction.createObject(in: try a.people, values: [.int(1), .string("first")]) }
        try Self.exchange(a, b)
        // Concurrent renames: b's is later.
        a.clock.milliseconds = 2_000
        b.clock.milliseconds = 3_000
        try a.transaction.write { try a.transaction.setValue(.string("by a"), of: ObjectKey(1), property: 1, in: try a.people) }
        try b.transaction.write { try b.transaction.setValue(.string("by b"), of: ObjectKey(1), property: 1, in: try b.people) }
        try Self.exchange(a, b)
        #expect(try a.transaction.value(of: ObjectKey(1), property: 1, in: try a.people) == .string("by b"))
    }

    @Test func onEqualTimestampsTheHigherClientWins() throws {
        let (a, b) = try Self.pair()
        try a.transaction.write { _ = try a.transaction.createObject(in: try a.people, values: [.int(1), .string("first")]) }
        try b.transaction.write { _ = try b.transaction.createObject(in: try b.people, values: [.int(2), .string("other")]) }
        try Self.exchange(a, b)
        a.clock.milliseconds = 5_000
        b.clock.milliseconds = 5_000
        try a.transaction.write { try a.transaction.setValue(.string("by a"), of: ObjectKey(1), property: 1, in: try a.people) }
        try b.transaction.write { try b.transaction.setValue(.string("by b"), of: ObjectKey(1), property: 1, in: try b.people) }
        try Self.exchange(a, b)
        let winner = try Self.clientIdent(a) > Self.clientIdent(b) ? "by a" : "by b"
        #expect(try b.transaction.value(of: ObjectKey(1), property: 1, in: try b.people) == .string(winner))
    }

    @Test func twoCreationsOfOnePrimaryKeyMakeOneObject() throws {
        let (a, b) = try Self.pair()
        a.clock.milliseconds = 1_000
        b.clock.milliseconds = 1_500
        try a.transaction.write { _ = try a.transaction.createObject(in: try a.people, values: [.int(7), .string("Ana from a")]) }
        try b.transaction.write { _ = try b.transaction.createObject(in: try b.people, values: [.int(7), .string("Ana from b")]) }
        try Self.exchange(a, b)
        #expect(try a.transaction.count(of: try a.people) == 1)
        #expect(try a.transaction.value(of: ObjectKey(7), property: 1, in: try a.people) == .string("Ana from b"))
    }

    @Test func objectsWithoutPrimaryKeysNeverCollide() throws {
        let (a, b) = try Self.pair()
        try a.transaction.write { _ = try a.transaction.createObject(in: try a.dogs, values: [.string("Rex"), .int(1), .null]) }
        try b.transaction.write { _ = try b.transaction.createObject(in: try b.dogs, values: [.string("Fido"), .int(2), .null]) }
        try Self.exchange(a, b)
        #expect(try a.transaction.count(of: try a.dogs) == 2)
    }

    @Test func deleteWinsOverAConcurrentChange() throws {
        let (a, b) = try Self.pair()
        var rex = ObjectKey(0)
        try a.transaction.write { rex = try a.transaction.createObject(in: try a.dogs, values: [.string("Rex"), .int(1), .null]) }
        try Self.exchange(a, b)
        a.clock.milliseconds = 2_000
        b.clock.milliseconds = 9_000  // later, and still loses
        try a.transaction.write { try a.transaction.deleteObject(rex, in: try a.dogs) }
        let rexOnB = try b.transaction.objectKeys(in: try b.dogs)[0]
        try b.transaction.write { try b.transaction.setValue(.int(5), of: rexOnB, property: 1, in: try b.dogs) }
        try Self.exchange(a, b)
        #expect(try a.transaction.count(of: try a.dogs) == 0)
    }

    @Test func aPrimaryKeyMadeAgainAfterItsDeletionSurvivesTheDeletion() throws {
        let (a, b) = try Self.pair()
        try a.transaction.write {
            let ana = try a.transaction.createObject(in: try a.people, values: [.int(7), .string("Ana")])
            try a.transaction.deleteObject(ana, in: try a.people)
            _ = try a.transaction.createObject(in: try a.people, values: [.int(7), .string("Ana again")])
        }
        try Self.exchange(a, b)
        #expect(try b.transaction.value(of: ObjectKey(7), property: 1, in: try b.people) == .string("Ana again"))
    }

    @Test func aLinkToAnObjectDeletedConcurrentlyIsNil() throws {
        let (a, b) = try Self.pair()
        try a.transaction.write { _ = try a.transaction.createObject(in: try a.people, values: [.int(1), .string("Ana")]) }
        try Self.exchange(a, b)
        try a.transaction.write { try a.transaction.deleteObject(ObjectKey(1), in: try a.people) }
        try b.transaction.write { _ = try b.transaction.createObject(in: try b.dogs, values: [.string("Rex"), .int(1), .object(ObjectKey(1))]) }
        try Self.exchange(a, b)
        let rexOnA = try a.transaction.objectKeys(in: try a.dogs)[0]
        #expect(try a.transaction.value(of: rexOnA, property: 2, in: try a.dogs) == .null)
    }

    @Test func embeddedObjectsTravelWithTheirOwner() throws {
        let (a, b) = try Self.pair()
        try a.transaction.write {
            let ana = try a.transaction.createObject(in: try a.people, values: [.int(1), .string("Ana")])
            _ = try a.transaction.createEmbeddedObject(in: try a.people, owner: ana, property: 2,
                                                       values: [.string("Main St")])
        }
        try Self.exchange(a, b)
        let addressesOnB = try b.transaction.classHandle(named: "Address")
        #expect(try b.transaction.count(of: addressesOnB) == 1)
        try b.transaction.write { try b.transaction.deleteObject(ObjectKey(1), in: try b.people) }
        try Self.exchange(a, b)
        #expect(try a.transaction.count(of: try a.transaction.classHandle(named: "Address")) == 0)
    }

    @Test func applyingAChangesetTwiceChangesNothingMore() throws {
        let (a, b) = try Self.pair()
        try a.transaction.write {
            _ = try a.transaction.createObject(in: try a.dogs, values: [.string("Rex"), .int(1), .null])
            _ = try a.transaction.createObject(in: try a.people, values: [.int(3), .string("Bo")])
        }
        try Self.exchange(a, b)
        let before = try b.snapshot()
        b.received = 0  // as after a lost acknowledgement: delivered again
        try b.receive(from: a)
        #expect(try b.snapshot() == before)
    }

    @Test func listInstructionsAreRefusedUntilTheyAreIntegrated() throws {
        let (a, b) = try Self.pair()
        let changeset = Changeset(clientFileIdent: 99, clientVersion: 1, lastServerVersion: 0, timestamp: 1, firstSequence: 1,
                                  instructions: [.listErase(ListReference(ownerClass: "Person", owner: .primaryKey(.int(1), incarnation: 0),
                                                                          property: "dogs"), element: GlobalKey(client: 99, counter: 1))])
        try b.transaction.beginWrite()
        let error = #expect(throws: RealmError.self) {
            try ChangesetApplier.apply(changeset, serverVersion: 1, in: b.transaction, recorder: b.recorder)
        }
        #expect(error?.message.contains("Bad changeset") == true)
        b.transaction.cancelWrite()
        _ = a
    }
}
