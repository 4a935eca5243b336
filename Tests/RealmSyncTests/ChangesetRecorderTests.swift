import Foundation
import RealmCore
import RealmSync
import RealmSyncEngine
import RealmSyncWire
import Testing

/// Recording (Docs/SyncDesign.md, step 1): each write transaction of a
/// synced file becomes one changeset in its `sync_history`, in the same
/// SQLite transaction, naming objects and list elements so that any replica
/// can apply it.
@Suite struct ChangesetRecorderTests {
    static let schema = Schema([
        ObjectSchema(name: "Person", properties: [
            Property(name: "id", type: .int, isPrimaryKey: true),
            Property(name: "name", type: .string),
            Property(name: "dogs", type: .object, isList: true, objectClassName: "Dog"),
            Property(name: "tags", type: .string, isList: true),
            Property(name: "home", type: .object, isOptional: true, objectClassName: "Address"),
        ]),
        ObjectSchema(name: "Dog", properties: [
            Property(name: "name", type: .string),
            Property(name: "age", type: .int),
            Property(name: "owner", type: .object, isOptional: true, objectClassName: "Person"),
        ]),
        ObjectSchema(name: "Address", properties: [Property(name: "street", type: .string)], isEmbedded: true),
    ])

    static func open(_ path: String) throws -> (Coordinator, Transaction) {
        let coordinator = try Coordinator.open(.file(path, schema: schema))
        try ChangesetRecorder.install(on: coordinator, now: { 1_000 })
        return (coordinator, try coordinator.makeTransaction())
    }

    /// Every changeset in the file's history, oldest first.
    static func history(_ transaction: Transaction) throws -> [Changeset] {
        let statement = try transaction.queryStatement("SELECT changeset FROM sync_history ORDER BY client_version")
        defer { statement.reset() }
        var changesets: [Changeset] = []
        while try statement.step() { changesets.append(try ChangesetCoding.decode(Array(statement.data(at: 0)))) }
        return changesets
    }

    @Test func aWriteBecomesOneChangesetNamingEverythingByIdentity() throws {
        let directory = temporaryDirectory("recorder")
        let (_, t) = try Self.open(directory.appendingPathComponent("a.realm").path)
        let people = try t.classHandle(named: "Person")
        let dogs = try t.classHandle(named: "Dog")
        try t.beginWrite()
        let ana = try t.createObject(in: people, values: [.int(7), .string("Ana")])
        let rex = try t.createObject(in: dogs, values: [.string("Rex"), .int(1), .object(ana)])
        try t.setValue(.int(2), of: rex, property: 1, in: dogs)
        let list = try t.list(2, of: ana, in: people)
        try t.append(.object(rex), to: list)
        let tags = try t.list(3, of: ana, in: people)
        try t.append(.string("a"), to: tags)
        try t.append(.string("b"), to: tags)
        try t.move(from: 1, to: 0, in: tags)
        try t.remove(at: 1, from: tags)
        _ = try t.createEmbeddedObject(in: people, owner: ana, property: 4, values: [.string("Main St")])
        try t.commitWrite()

        let history = try Self.history(t)
        try #require(history.count == 1)
        let changeset = history[0]
        #expect(changeset.clientVersion == 1)
        #expect(changeset.timestamp == 1_000, "the clock, being after every stamp seen (none)")
        #expect(changeset.firstSequence == 1)
        let client = changeset.clientFileIdent
        #expect(client > 0)
        let anaID = ObjectIdentity.primaryKey(.int(7), incarnation: 0)
        let rexID = ObjectIdentity.global(GlobalKey(client: client, counter: 1))
        let dogsList = ListReference(ownerClass: "Person", owner: anaID, property: "dogs")
        let tagsList = ListReference(ownerClass: "Person", owner: anaID, property: "tags")
        // The first changeset declares the schema (its classes, then their
        // properties, which may link to any of them), then the data.
        let schemaCount = changeset.instructions.prefix { instruction in
            switch instruction {
            case .addClass, .addProperty: true
            default: false
            }
        }.count
        #expect(changeset.instructions.prefix(5) == [
            .addClass(ClassSpec(name: "Person", primaryKey: "id", isEmbedded: false)),
            .addClass(ClassSpec(name: "Dog", primaryKey: nil, isEmbedded: false)),
            .addClass(ClassSpec(name: "Address", primaryKey: nil, isEmbedded: true)),
            .addProperty(class: "Person", PropertySpec(name: "id", type: "int", isOptional: false, isList: false, target: nil)),
            .addProperty(class: "Person", PropertySpec(name: "name", type: "string", isOptional: false, isList: false, target: nil)),
        ])
        #expect(schemaCount == 3 + 5 + 3 + 1, "three classes, and their properties")
        let instructions = Array(changeset.instructions.dropFirst(schemaCount))
        #expect(instructions.prefix(6) == [
            .create(class: "Person", anaID),
            .set(class: "Person", anaID, property: "name", .string("Ana")),
            .create(class: "Dog", rexID),
            .set(class: "Dog", rexID, property: "name", .string("Rex")),
            .set(class: "Dog", rexID, property: "age", .int(1)),
            .set(class: "Dog", rexID, property: "owner", .link(class: "Person", anaID)),
        ])
        #expect(instructions[6] == .set(class: "Dog", rexID, property: "age", .int(2)))
        guard case .listInsert(dogsList, let rexElement, let rexPosition, .link(class: "Dog", rexID)) = instructions[7],
              case .listInsert(tagsList, let a, let aPosition, .string("a")) = instructions[8],
              case .listInsert(tagsList, let b, let bPosition, .string("b")) = instructions[9],
              case .listMove(tagsList, b, let bMoved) = instructions[10],
              case .listErase(tagsList, a) = instructions[11] else {
            Issue.record("unexpected list instructions: \(instructions[7...11])")
            return
        }
        #expect(rexElement.client == client && a != b)
        #expect(rexPosition == PositionKey.between(nil, and: nil, for: rexElement))
        #expect(aPosition < bPosition)
        #expect(bMoved < aPosition, "moved before 'a'")
        // An embedded object in a to-one property is named by a key of its
        // own, so that one replacing it is another object.
        guard case .create("Address", .embedded("Person", anaID, "home", let homeKey?)) = instructions[instructions.count - 2] else {
            Issue.record("unexpected embedded creation: \(instructions[instructions.count - 2])")
            return
        }
        #expect(homeKey.client == client)
        let homeID = ObjectIdentity.embedded(ownerClass: "Person", owner: anaID, property: "home", element: homeKey)
        #expect(Array(instructions.suffix(2)) == [
            .create(class: "Address", homeID),
            .set(class: "Address", homeID, property: "street", .string("Main St")),
        ])
    }

    @Test func changesetsAreNumberedAndOnlyCommittedWritesRecorded() throws {
        let directory = temporaryDirectory("recorder")
        let (_, t) = try Self.open(directory.appendingPathComponent("b.realm").path)
        let dogs = try t.classHandle(named: "Dog")
        try t.beginWrite()
        let rex = try t.createObject(in: dogs, values: [.string("Rex"), .int(1), .null])
        try t.commitWrite()
        try t.beginWrite()
        _ = try t.createObject(in: dogs, values: [.string("Gone"), .int(1), .null])
        t.cancelWrite()
        try t.beginWrite()
        try t.setValue(.string("Rex II"), of: rex, property: 0, in: dogs)
        try t.deleteObject(rex, in: dogs)
        try t.commitWrite()
        try t.beginWrite()
        try t.commitWrite()  // nothing changed: no changeset

        let history = try Self.history(t)
        #expect(history.map(\.clientVersion) == [1, 2])
        #expect(history[1].firstSequence == 1 + UInt64(history[0].instructions.count))
        let rexID = ObjectIdentity.global(GlobalKey(client: history[0].clientFileIdent, counter: 1))
        #expect(history[0].instructions.filter { if case .addClass = $0 { true } else { false } }.count == 3)
        #expect(history[1].instructions == [
            .set(class: "Dog", rexID, property: "name", .string("Rex II")),
            .erase(class: "Dog", rexID),
        ])
    }

    /// An operation that fails is rolled back to its savepoint, and what it
    /// recorded (kept in memory until the commit) goes with it; the write
    /// goes on and commits the rest.
    @Test func aFailedOperationLeavesNothingInTheChangeset() throws {
        struct Refused: Error {}
        let directory = temporaryDirectory("recorder")
        let (_, t) = try Self.open(directory.appendingPathComponent("rollback.realm").path)
        let dogs = try t.classHandle(named: "Dog")
        try t.beginWrite()
        _ = try t.createObject(in: dogs, values: [.string("Kept"), .int(1), .null])
        #expect(throws: Refused.self) {
            try t.atomicallyRethrowing {
                _ = try t.createObject(in: dogs, values: [.string("Lost"), .int(2), .null])
                throw Refused()
            }
        }
        _ = try t.createObject(in: dogs, values: [.string("Also kept"), .int(3), .null])
        try t.commitWrite()

        let history = try Self.history(t)
        #expect(history.count == 1)
        let names = history[0].instructions.compactMap { instruction -> String? in
            if case .set(_, _, "name", .string(let name)) = instruction { name } else { nil }
        }
        #expect(names == ["Kept", "Also kept"])
        let creations = history[0].instructions.filter { if case .create = $0 { true } else { false } }
        #expect(Set(creations).count == 2, "two objects, two identities (the lost one's was rolled back and given again)")
        #expect(try t.count(of: dogs) == 2)
    }

    @Test func aPrimaryKeyMadeAgainAfterItsDeletionIsANewIncarnation() throws {
        let directory = temporaryDirectory("recorder")
        let (_, t) = try Self.open(directory.appendingPathComponent("c.realm").path)
        let people = try t.classHandle(named: "Person")
        try t.write {
            let ana = try t.createObject(in: people, values: [.int(7), .string("Ana")])
            try t.deleteObject(ana, in: people)
            let again = try t.createObject(in: people, values: [.int(7), .string("Ana again")])
            try t.setValue(.string("Ana 2"), of: again, property: 1, in: people)
        }
        let data = try Self.history(t)[0].instructions.filter {
            if case .addClass = $0 { false } else if case .addProperty = $0 { false } else { true }
        }
        let first = ObjectIdentity.primaryKey(.int(7), incarnation: 0)
        let second = ObjectIdentity.primaryKey(.int(7), incarnation: 1)
        #expect(data == [
            .create(class: "Person", first), .set(class: "Person", first, property: "name", .string("Ana")),
            .erase(class: "Person", first),
            .create(class: "Person", second), .set(class: "Person", second, property: "name", .string("Ana again")),
            .set(class: "Person", second, property: "name", .string("Ana 2")),
        ])
    }

    @Test func classesAndPropertiesAddedLaterAreDeclaredBeforeTheirData() throws {
        let directory = temporaryDirectory("recorder")
        let (_, t) = try Self.open(directory.appendingPathComponent("d.realm").path)
        let dogs = try t.classHandle(named: "Dog")
        try t.write { _ = try t.createObject(in: dogs, values: [.string("Rex"), .int(1), .null]) }
        var wanted = Self.schema
        wanted.upsert(ObjectSchema(name: "Cat", properties: [Property(name: "name", type: .string)]))
        try t.write { try t.applySchema(wanted, schemaVersion: 0) }
        let history = try Self.history(t)
        #expect(history.count == 2)
        #expect(history[1].instructions == [
            .addClass(ClassSpec(name: "Cat", primaryKey: nil, isEmbedded: false)),
            .addProperty(class: "Cat", PropertySpec(name: "name", type: "string", isOptional: false, isList: false, target: nil)),
        ])
    }
}
