import Foundation
import RealmCore
import RealmSync
import RealmSyncEngine
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
            Property(name: "dogs", type: .object, isList: true, objectClassName: "Dog"),
            Property(name: "tags", type: .string, isList: true),
            Property(name: "past", type: .object, isList: true, objectClassName: "Address"),
        ]),
        ObjectSchema(name: "Dog", properties: [
            Property(name: "name", type: .string),
            Property(name: "age", type: .int),
            Property(name: "owner", type: .object, isOptional: true, objectClassName: "Person"),
        ]),
        ObjectSchema(name: "Address", properties: [Property(name: "street", type: .string)], isEmbedded: true),
        // No links, lists or embedded objects: the state's second pass
        // (references) skips the class.
        ObjectSchema(name: "Note", properties: [Property(name: "text", type: .string), Property(name: "count", type: .int)]),
    ])

    /// A synced file with its own clock.
    final class Replica {
        let transaction: Transaction
        let recorder: ChangesetRecorder
        let clock: Clock
        /// The last of this replica's client versions handed to the relay.
        var uploaded: UInt64 = 0

        final class Clock: @unchecked Sendable {
            // @unchecked: set by the test between writes on its thread.
            var milliseconds: Int64 = 1_000
        }
        /// The relay's entries seen so far.
        var downloaded = 0
        /// The relay of a pair of replicas (the pairwise tests).
        var relay: Relay?

        init(_ path: String) throws {
            let coordinator = try Coordinator.open(.file(path, schema: ConvergenceTests.schema))
            let clock = Clock()
            self.clock = clock
            recorder = try ChangesetRecorder.install(on: coordinator, now: { clock.milliseconds })
            transaction = try coordinator.makeTransaction()
        }

        var people: ClassHandle { get throws { try transaction.classHandle(named: "Person") } }
        var dogs: ClassHandle { get throws { try transaction.classHandle(named: "Dog") } }

        /// Hands the relay this replica's new changesets, then applies the
        /// others' it has not seen, in the relay's order: what a server
        /// does, with a server version per changeset.
        func sync(with relay: Relay) throws {
            try transaction.refresh()
            for changeset in try ChangesetRecorderTests.history(transaction) where changeset.clientVersion > uploaded {
                relay.log.append((ObjectIdentifier(self), changeset))
                uploaded = changeset.clientVersion
            }
            let pending = relay.log[downloaded...].enumerated().filter { $0.element.origin != ObjectIdentifier(self) }
            if !pending.isEmpty {
                try transaction.write {
                    for (offset, entry) in pending {
                        try ChangesetApplier.apply(entry.changeset, serverVersion: UInt64(downloaded + offset + 1), in: transaction,
                                                   recorder: recorder)
                    }
                }
            }
            downloaded = relay.log.count
        }

        /// A value, a link by its target's content rather than its local
        /// key (an embedded object's too).
        func describe(_ value: Value, _ property: Property) throws -> String {
            guard case .object(let target) = value, let targetClass = property.objectClassName else { return "\(value)" }
            let targetHandle = try transaction.classHandle(named: targetClass)
            return "→\(try transaction.values(of: target, in: targetHandle).prefix(2))"
        }

        /// The data, class by class, objects named by content so that two
        /// replicas compare.
        func snapshot() throws -> [String] {
            try transaction.refresh()
            var lines: [String] = []
            for className in ["Person", "Dog", "Address", "Note"] {
                let handle = try transaction.classHandle(named: className)
                var rows: [String] = []
                let properties = try transaction.objectSchema(handle).properties
                for key in try transaction.objectKeys(in: handle) {
                    var values = try transaction.values(of: key, in: handle)
                    for (index, property) in properties.enumerated() {
                        if property.isList {
                            let elements = try transaction.values(of: try transaction.list(index, of: key, in: handle))
                            values[index] = .string("\(try elements.map { try describe($0, property) })")
                        } else {
                            values[index] = .string(try describe(values[index], property))
                        }
                    }
                    rows.append("\(className) \(values)")
                }
                lines += rows.sorted()
            }
            return lines
        }
    }

    /// What the server will be, reduced to its order: one log of every
    /// replica's changesets.
    final class Relay {
        var log: [(origin: ObjectIdentifier, changeset: Changeset)] = []
    }

    static func pair() throws -> (Replica, Replica) {
        let directory = temporaryDirectory("converge")
        let a = try Replica(directory.appendingPathComponent("a.realm").path)
        let b = try Replica(directory.appendingPathComponent("b.realm").path)
        a.relay = Relay()
        b.relay = a.relay
        return (a, b)
    }

    static func exchange(_ a: Replica, _ b: Replica) throws {
        let relay = try #require(a.relay)
        try a.sync(with: relay)
        try b.sync(with: relay)
        try a.sync(with: relay)
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

    /// A new object's values are gathered and inserted with it (what a
    /// state download brings): across the changesets of one batch, the
    /// later write of a property still wins, whatever order the writes
    /// come in, and the object ends as when each changeset is applied
    /// alone.
    @Test func aNewObjectsValuesGatheredFromSeveralChangesetsKeepTheLaterWrite() throws {
        let person = ObjectIdentity.primaryKey(.int(9), incarnation: 0)
        let create = Changeset(clientFileIdent: 0, clientVersion: 0, lastServerVersion: 0, timestamp: 0, firstSequence: 0,
                               instructions: [.create(class: "Person", person)])
        func rename(_ name: String, at timestamp: Int64, by client: UInt64) -> Changeset {
            Changeset(clientFileIdent: client, clientVersion: 1, lastServerVersion: 0, timestamp: timestamp, firstSequence: 1,
                      instructions: [.set(class: "Person", person, property: "name", .string(name))])
        }
        let newer = rename("newer", at: 3_000, by: 5)
        let older = rename("older", at: 2_000, by: 6)
        let directory = temporaryDirectory("gather")
        for (index, order) in [[create, newer, older], [create, older, newer]].enumerated() {
            for batched in [true, false] {
                let replica = try Replica(directory.appendingPathComponent("\(index)-\(batched).realm").path)
                try replica.transaction.write {
                    let numbered = order.enumerated().map { (serverVersion: UInt64($0.offset + 1), changeset: $0.element) }
                    if batched {
                        try ChangesetApplier.apply(numbered, in: replica.transaction, recorder: replica.recorder)
                    } else {
                        for entry in numbered { try ChangesetApplier.apply([entry], in: replica.transaction, recorder: replica.recorder) }
                    }
                }
                let key = try #require(try replica.transaction.object(withPrimaryKey: .int(9), in: try replica.people))
                #expect(try replica.transaction.value(of: key, property: 1, in: try replica.people) == .string("newer"),
                        "order \(index), \(batched ? "one batch" : "one changeset at a time")")
            }
        }
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
        // As after a lost acknowledgement: delivered again.
        let relay = try #require(a.relay)
        b.downloaded = 0
        try b.sync(with: relay)
        #expect(try b.snapshot() == before)
    }

    // MARK: Lists

    /// Person 1 with tags ["a", "b", "c"] on both replicas.
    static func pairWithTags() throws -> (Replica, Replica) {
        let (a, b) = try pair()
        try a.transaction.write {
            let ana = try a.transaction.createObject(in: try a.people, values: [.int(1), .string("Ana")])
            let tags = try a.transaction.list(4, of: ana, in: try a.people)
            for tag in ["a", "b", "c"] { try a.transaction.append(.string(tag), to: tags) }
        }
        try exchange(a, b)
        return (a, b)
    }

    static func tags(_ replica: Replica) throws -> [Value] {
        try replica.transaction.values(of: try replica.transaction.list(4, of: ObjectKey(1), in: try replica.people))
    }

    @Test func concurrentInsertionsAtOnePlaceKeepOneOrder() throws {
        let (a, b) = try Self.pairWithTags()
        try a.transaction.write { try a.transaction.insert(.string("from a"), at: 1, in: try a.transaction.list(4, of: ObjectKey(1), in: try a.people)) }
        try b.transaction.write { try b.transaction.insert(.string("from b"), at: 1, in: try b.transaction.list(4, of: ObjectKey(1), in: try b.people)) }
        try Self.exchange(a, b)
        let tags = try Self.tags(a)
        #expect(tags.count == 5)
        #expect(tags.first == .string("a") && tags.last == .string("c"))
    }

    @Test func concurrentMovesOfOneElementLeaveItOnceAtTheLaterPlace() throws {
        let (a, b) = try Self.pairWithTags()
        a.clock.milliseconds = 2_000
        b.clock.milliseconds = 3_000
        try a.transaction.write { try a.transaction.move(from: 0, to: 2, in: try a.transaction.list(4, of: ObjectKey(1), in: try a.people)) }
        try b.transaction.write { try b.transaction.move(from: 0, to: 1, in: try b.transaction.list(4, of: ObjectKey(1), in: try b.people)) }
        try Self.exchange(a, b)
        #expect(try Self.tags(a) == [.string("b"), .string("a"), .string("c")], "b's move is later")
    }

    @Test func anErasedElementStaysErasedWhateverMovesIt() throws {
        let (a, b) = try Self.pairWithTags()
        a.clock.milliseconds = 2_000
        b.clock.milliseconds = 3_000
        try a.transaction.write { try a.transaction.remove(at: 0, from: try a.transaction.list(4, of: ObjectKey(1), in: try a.people)) }
        try b.transaction.write {
            let tags = try b.transaction.list(4, of: ObjectKey(1), in: try b.people)
            try b.transaction.move(from: 0, to: 2, in: tags)
            try b.transaction.replace(at: 2, with: .string("A"), in: tags)
        }
        try Self.exchange(a, b)
        #expect(try Self.tags(a) == [.string("b"), .string("c")])
    }

    @Test func aClearKeepsWhatWasInsertedConcurrently() throws {
        let (a, b) = try Self.pairWithTags()
        try a.transaction.write { try a.transaction.removeAll(from: try a.transaction.list(4, of: ObjectKey(1), in: try a.people)) }
        try b.transaction.write { try b.transaction.append(.string("new"), to: try b.transaction.list(4, of: ObjectKey(1), in: try b.people)) }
        try Self.exchange(a, b)
        #expect(try Self.tags(a) == [.string("new")])
    }

    @Test func theLaterReplacementOfAnElementWins() throws {
        let (a, b) = try Self.pairWithTags()
        a.clock.milliseconds = 4_000
        b.clock.milliseconds = 3_000
        try a.transaction.write { try a.transaction.replace(at: 1, with: .string("B by a"), in: try a.transaction.list(4, of: ObjectKey(1), in: try a.people)) }
        try b.transaction.write { try b.transaction.replace(at: 1, with: .string("B by b"), in: try b.transaction.list(4, of: ObjectKey(1), in: try b.people)) }
        try Self.exchange(a, b)
        #expect(try Self.tags(b) == [.string("a"), .string("B by a"), .string("c")])
    }

    @Test func aListDropsAnObjectDeletedConcurrently() throws {
        let (a, b) = try Self.pair()
        try a.transaction.write {
            let ana = try a.transaction.createObject(in: try a.people, values: [.int(1), .string("Ana")])
            let rex = try a.transaction.createObject(in: try a.dogs, values: [.string("Rex"), .int(1), .null])
            let fido = try a.transaction.createObject(in: try a.dogs, values: [.string("Fido"), .int(2), .null])
            let dogs = try a.transaction.list(3, of: ana, in: try a.people)
            try a.transaction.append(.object(rex), to: dogs)
            try a.transaction.append(.object(fido), to: dogs)
        }
        try Self.exchange(a, b)
        let rexOnB = try b.transaction.objectKeys(in: try b.dogs).first { key in
            try b.transaction.value(of: key, property: 0, in: try b.dogs) == .string("Rex")
        }!
        try b.transaction.write { try b.transaction.deleteObject(rexOnB, in: try b.dogs) }
        try a.transaction.write { try a.transaction.move(from: 0, to: 1, in: try a.transaction.list(3, of: ObjectKey(1), in: try a.people)) }
        try Self.exchange(a, b)
        #expect(try a.transaction.count(of: try a.transaction.list(3, of: ObjectKey(1), in: try a.people)) == 1)
        // And the lists stay usable after the element went without an
        // instruction.
        try a.transaction.write { try a.transaction.append(.object(try a.transaction.objectKeys(in: try a.dogs)[0]), to: try a.transaction.list(3, of: ObjectKey(1), in: try a.people)) }
        try Self.exchange(a, b)
    }

    @Test func embeddedObjectsInListsTravel() throws {
        let (a, b) = try Self.pair()
        try a.transaction.write {
            let ana = try a.transaction.createObject(in: try a.people, values: [.int(1), .string("Ana")])
            let past = try a.transaction.list(5, of: ana, in: try a.people)
            _ = try a.transaction.appendEmbeddedObject(to: past, values: [.string("Old Rd")])
            _ = try a.transaction.insertEmbeddedObject(at: 0, in: past, values: [.string("Older Ln")])
        }
        try Self.exchange(a, b)
        #expect(try b.transaction.count(of: try b.transaction.list(5, of: ObjectKey(1), in: try b.people)) == 2)
    }

    /// Three replicas make random changes of every kind the applier
    /// integrates, exchange some of them as they go, then all of them: every
    /// replica ends with the same data. `REALM_SYNC_CONVERGENCE_ROUNDS` sets
    /// the number of rounds; a failure names its seed.
    @Test func randomEditsConverge() throws {
        let rounds = Int(ProcessInfo.processInfo.environment["REALM_SYNC_CONVERGENCE_ROUNDS"] ?? "") ?? 40
        var nonEmpty = 0
        for round in 0..<rounds {
            let seed = UInt64(20261125 + round)
            var generator = RandomEdits.Generator(seed: seed)
            let directory = temporaryDirectory("random")
            let replicas = try (0..<3).map { try Replica(directory.appendingPathComponent("r\($0).realm").path) }
            let relay = Relay()
            for step in 0..<30 {
                let replica = replicas[Int(generator.next() % 3)]
                // Clocks that disagree by up to 25 ms.
                replica.clock.milliseconds = 1_000 + Int64(step) * 10 + Int64(generator.next() % 25)
                try replica.transaction.write { try RandomEdits.edit(replica, &generator) }
                // Now and then a replica connects; the others stay offline.
                if generator.next() % 3 == 0 { try replicas[Int(generator.next() % 3)].sync(with: relay) }
            }
            for replica in replicas { try replica.sync(with: relay) }
            for replica in replicas { try replica.sync(with: relay) }
            let first = try replicas[0].snapshot()
            if !first.isEmpty { nonEmpty += 1 }
            for replica in replicas.dropFirst() {
                let other = try replica.snapshot()
                #expect(other == first, """
                    seed \(seed): replicas differ (replay with this seed); only in the first: \(first.filter { !other.contains($0) }); \
                    only in this one: \(other.filter { !first.contains($0) })
                    """)
            }
        }
        #expect(nonEmpty > rounds / 2, "the rounds edit something")
    }
}

extension ConvergenceTests {
    /// The state read in small chunks, each applied in a write of its own
    /// (as a client applies a download message by message), leaves a new
    /// replica as the whole state applied at once does, and as the source:
    /// chunks cut between an object's creation and its links, lists and
    /// embedded objects, and a new object's values gathered per chunk.
    @Test(arguments: [1, 3, 7, 50])
    func theStateReadInChunksMakesTheSameReplica(instructionsPerChunk: Int) throws {
        for round in 0..<10 {
            let seed = UInt64(20261128 + round)
            var generator = RandomEdits.Generator(seed: seed)
            let directory = temporaryDirectory("chunks")
            let source = try Replica(directory.appendingPathComponent("source.realm").path)
            let notes = try source.transaction.classHandle(named: "Note")
            for step in 0..<40 {
                source.clock.milliseconds = 1_000 + Int64(step)
                try source.transaction.write {
                    try RandomEdits.edit(source, &generator)
                    if step % 10 == 0 { _ = try source.transaction.createObject(in: notes, values: [.string("note \(step)"), .int(Int64(step))]) }
                }
            }
            try source.transaction.refresh()
            var stream = StateSnapshot.Stream(source.transaction)
            var chunks: [[Changeset]] = []
            while let chunk = try stream.next(instructions: instructionsPerChunk) { chunks.append(chunk) }
            #expect(chunks.count > 1 || instructionsPerChunk == 50)
            let topLevel = try ["Person", "Dog", "Note"].reduce(0) { try $0 + source.transaction.count(of: source.transaction.classHandle(named: $1)) }
            #expect(stream.objectVisits == 2 * topLevel, "the progress estimate counts each object twice, a skipped pass included")
            let whole = try Replica(directory.appendingPathComponent("whole.realm").path)
            let chunked = try Replica(directory.appendingPathComponent("chunked.realm").path)
            try whole.transaction.write {
                try ChangesetApplier.apply(chunks.joined().map { (0, $0) }, in: whole.transaction, recorder: whole.recorder)
            }
            for chunk in chunks {
                try chunked.transaction.write {
                    try ChangesetApplier.apply(chunk.map { (0, $0) }, in: chunked.transaction, recorder: chunked.recorder)
                }
            }
            let expected = try source.snapshot()
            #expect(try whole.snapshot() == expected, "seed \(seed): the whole state")
            #expect(try chunked.snapshot() == expected, "seed \(seed): the state in chunks of \(instructionsPerChunk)")
        }
    }
}

/// The random changes of `randomEditsConverge`.
enum RandomEdits {
    struct Generator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func edit(_ replica: ConvergenceTests.Replica, _ g: inout Generator) throws(RealmError) {
        let t = replica.transaction
        let people = try t.classHandle(named: "Person")
        let dogs = try t.classHandle(named: "Dog")
        let personKeys = try t.objectKeys(in: people)
        let dogKeys = try t.objectKeys(in: dogs)
        switch g.next() % 9 {
        case 0:
            let id = Int64(g.next() % 4)
            if try t.object(withPrimaryKey: .int(id), in: people) == nil {
                _ = try t.createObject(in: people, values: [.int(id), .string("p\(g.next() % 100)")])
            }
        case 1:
            _ = try t.createObject(in: dogs, values: [.string("d\(g.next() % 100)"), .int(Int64(g.next() % 10)), .null])
        case 2:
            if let key = personKeys.randomElement(&g) { try t.setValue(.string("n\(g.next() % 100)"), of: key, property: 1, in: people) }
        case 3:
            if let key = dogKeys.randomElement(&g) {
                try t.setValue(personKeys.randomElement(&g).map { .object($0) } ?? .null, of: key, property: 2, in: dogs)
            }
        case 4:
            if g.next() % 3 == 0, let key = dogKeys.randomElement(&g) { try t.deleteObject(key, in: dogs) }
            else if g.next() % 4 == 0, let key = personKeys.randomElement(&g) { try t.deleteObject(key, in: people) }
        case 5:
            if let key = personKeys.randomElement(&g) {
                let tags = try t.list(4, of: key, in: people)
                let count = try t.count(of: tags)
                try t.insert(.string("t\(g.next() % 100)"), at: Int(g.next() % UInt64(count + 1)), in: tags)
            }
        case 6:
            if let key = personKeys.randomElement(&g) {
                let tags = try t.list(4, of: key, in: people)
                let count = try t.count(of: tags)
                guard count > 0 else { return }
                switch g.next() % 4 {
                case 0: try t.move(from: Int(g.next() % UInt64(count)), to: Int(g.next() % UInt64(count)), in: tags)
                case 1: try t.remove(at: Int(g.next() % UInt64(count)), from: tags)
                case 2: try t.replace(at: Int(g.next() % UInt64(count)), with: .string("r\(g.next() % 100)"), in: tags)
                default: if g.next() % 3 == 0 { try t.removeAll(from: tags) } else { try t.swapAt(0, Int(g.next() % UInt64(count)), in: tags) }
                }
            }
        case 7:
            if let key = personKeys.randomElement(&g), let dog = dogKeys.randomElement(&g) {
                let list = try t.list(3, of: key, in: people)
                try t.insert(.object(dog), at: Int(g.next() % UInt64(try t.count(of: list) + 1)), in: list)
            }
        default:
            if let key = personKeys.randomElement(&g) {
                let list = try t.list(3, of: key, in: people)
                let count = try t.count(of: list)
                if count > 1 { try t.move(from: Int(g.next() % UInt64(count)), to: Int(g.next() % UInt64(count)), in: list) }
            }
        }
    }
}

extension Array {
    fileprivate func randomElement(_ g: inout RandomEdits.Generator) -> Element? {
        isEmpty ? nil : self[Int(g.next() % UInt64(count))]
    }
}
