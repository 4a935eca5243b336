import Foundation
import RealmCore
import RealmSyncEngine
import RealmSyncWire
import Testing

/// Changesets no replica of ours makes, as a hostile or broken client
/// could upload them: each is refused as a bad changeset (a thrown error,
/// never a trap), and the replica stays usable.
@Suite struct HostileChangesetTests {
    /// A replica with the model checker's seed, and the identities in it.
    static func seeded() throws -> (ModelReplica, tags: ListReference, dogs: ListReference, past: ListReference) {
        let replica = try ModelReplica()
        try replica.apply(ModelChecker.seedChangesets, firstVersion: 1)
        let ana = ObjectIdentity.primaryKey(.int(1), incarnation: 0)
        return (replica, ListReference(ownerClass: "Person", owner: ana, property: "tags"),
                ListReference(ownerClass: "Person", owner: ana, property: "dogs"),
                ListReference(ownerClass: "Person", owner: ana, property: "past"))
    }

    static func changeset(_ instructions: [Instruction], timestamp: Int64 = 5_000) -> Changeset {
        Changeset(clientFileIdent: 77, clientVersion: 1, lastServerVersion: 1, timestamp: timestamp, firstSequence: 1, instructions: instructions)
    }

    /// Expects `instructions` refused, and the replica then still takes a
    /// local write to every list.
    static func expectRefused(_ instructions: [Instruction], _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (replica, _, _, _) = try seeded()
        do {
            try replica.apply([changeset(instructions)], firstVersion: 2)
            Issue.record("\(what): applied", sourceLocation: sourceLocation)
        } catch let error as RealmError {
            #expect(error.message.hasPrefix("Bad changeset"), "\(what): \(error.message)", sourceLocation: sourceLocation)
        }
        try replica.transaction.write {
            try ModelOperation.named("insertTag").body(replica, 1)
            try ModelOperation.named("insertMax").body(replica, 1)
            try ModelOperation.named("insertPast").body(replica, 1)
        }
    }

    @Test func malformedOrTakenPositionKeysAreRefused() throws {
        let (replica, tags, _, _) = try Self.seeded()
        let taken = try #require(try Self.positions(of: tags, in: replica).first)
        let element = GlobalKey(client: 77, counter: 1)
        try Self.expectRefused([.listInsert(tags, element: element, position: PositionKey([]), .string("x"))], "an empty key")
        try Self.expectRefused([.listInsert(tags, element: element, position: PositionKey([5, 0]), .string("x"))], "a key ending in zero")
        try Self.expectRefused([.listInsert(tags, element: element, position: taken, .string("x"))], "a taken key")
    }

    /// Set and map instructions aimed at what is not a set or map, or
    /// carrying what it cannot hold, and properties replicas do not
    /// integrate yet (Docs/SyncDesign.md, "Sets and maps").
    @Test func setAndMapInstructionsOfTheWrongKindAreRefused() throws {
        let (_, tags, dogs, _) = try Self.seeded()
        let ana = ObjectIdentity.primaryKey(.int(1), incarnation: 0)
        let (pets, labels, scores, walkers) = (ListReference(ownerClass: "Person", owner: ana, property: "pets"),
                                               ListReference(ownerClass: "Person", owner: ana, property: "labels"),
                                               ListReference(ownerClass: "Person", owner: ana, property: "scores"),
                                               ListReference(ownerClass: "Person", owner: ana, property: "walkers"))
        try Self.expectRefused([.setInsert(tags, .string("x"))], "a set insertion into a list")
        try Self.expectRefused([.setErase(scores, .string("x"))], "a set erasure from a map")
        try Self.expectRefused([.mapSet(labels, key: "k", .string("x"))], "a map value in a set")
        try Self.expectRefused([.mapErase(dogs, key: "k")], "a map erasure from a list")
        try Self.expectRefused([.setInsert(pets, .link(class: "Person", ana))], "a person in a set of dogs")
        try Self.expectRefused([.setInsert(pets, .null)], "nil in a set of dogs")
        try Self.expectRefused([.setInsert(labels, .link(class: "Dog", .global(GlobalKey(client: 77, counter: 1))))], "a link in a set of strings")
        try Self.expectRefused([.setInsert(labels, .int(3))], "a number in a set of strings")
        try Self.expectRefused([.mapSet(walkers, key: "w", .string("Rex"))], "a string in a map of dogs")
        try Self.expectRefused([.mapSet(scores, key: "k", .string("x"))], "a string in a map of numbers")
        try Self.expectRefused([.addProperty(class: "Person", PropertySpec(name: "labels", type: "string", isOptional: false, isList: false,
                                                                           isMap: true, target: nil))], "a set made a map")
        let homes = ListReference(ownerClass: "Person", owner: ana, property: "homes")
        let element = GlobalKey(client: 77, counter: 1)
        try Self.expectRefused([.mapSet(homes, key: "h", .link(class: "Address", .global(element)))], "a top-level identity as an embedded object")
        try Self.expectRefused([.mapSet(homes, key: "h", .link(class: "Address", .embedded(
            ownerClass: "Person", owner: .primaryKey(.int(2), incarnation: 0), property: "homes", element: element)))], "another owner's embedded object")
        try Self.expectRefused([.mapSet(walkers, key: "w", .link(class: "Dog", .embedded(
            ownerClass: "Person", owner: ana, property: "walkers", element: element)))], "an embedded identity in a map of top-level objects")
    }

    @Test func valuesOfTheWrongKindForAListAreRefused() throws {
        let (_, tags, dogs, past) = try Self.seeded()
        let element = GlobalKey(client: 77, counter: 1)
        let position = PositionKey.between(nil, and: nil, for: element)
        let ana = ObjectIdentity.primaryKey(.int(1), incarnation: 0)
        try Self.expectRefused([.listInsert(tags, element: element, position: position, .link(class: "Dog", .global(element)))], "a link in a list of strings")
        try Self.expectRefused([.listInsert(dogs, element: element, position: position, .link(class: "Person", ana))], "a person in a list of dogs")
        try Self.expectRefused([.listInsert(dogs, element: element, position: position, .string("Rex"))], "a string in a list of dogs")
        try Self.expectRefused([.listInsert(past, element: element, position: position, .string("Old"))], "a value in a list of embedded objects")
    }

    /// Nested collections (Docs/SyncDesign.md, "Nested collections")
    /// named where they are not, or made where no mixed value is.
    @Test func nestedCollectionsOfTheWrongKindOrPlaceAreRefused() throws {
        let (replica, tags, _, _) = try Self.seeded()
        let ana = ObjectIdentity.primaryKey(.int(1), incarnation: 0)
        let bo = ObjectIdentity.primaryKey(.int(2), incarnation: 0)
        let (outer, inner) = try NestedCollectionEdgeTests.names(replica)
        func nest(_ name: GlobalKey, owner: ObjectIdentity = ana, property: String = "nest") -> ListReference {
            ListReference(ownerClass: "Person", owner: owner, property: property, nested: name)
        }
        let element = GlobalKey(client: 77, counter: 1)
        let position = PositionKey.between(nil, and: nil, for: element)
        let made = GlobalKey(client: 77, counter: 2)
        try Self.expectRefused([.mapSet(nest(outer), key: "k", .int(1))], "a list named as a dictionary")
        try Self.expectRefused([.listInsert(nest(inner), element: element, position: position, .int(1))], "a dictionary named as a list")
        try Self.expectRefused([.setInsert(nest(inner), .int(1))], "a set named as nested")
        try Self.expectRefused([.listInsert(nest(outer, property: "tags"), element: element, position: position, .int(1))],
                               "a nested name on a list of strings")
        try Self.expectRefused([.listInsert(nest(outer, property: "anyList"), element: element, position: position, .int(1))],
                               "another property's nested list")
        try Self.expectRefused([.set(class: "Person", ana, property: "name", .nestedList(made))], "a nested list as a string")
        try Self.expectRefused([.set(class: "Person", ana, property: "anyList", .nestedList(made))], "a nested list as a list property")
        try Self.expectRefused([.listInsert(tags, element: element, position: position, .nestedList(made))], "a nested list in a list of strings")
        try Self.expectRefused([.setInsert(ListReference(ownerClass: "Person", owner: ana, property: "bag"), .nestedList(made))],
                               "a nested list in a set of mixed values")
        try Self.expectRefused([.mapSet(ListReference(ownerClass: "Person", owner: ana, property: "scores"), key: "n", .nestedDictionary(made))],
                               "a nested dictionary in a map of numbers")
        // A name given to a second collection while the first is here.
        try Self.expectRefused([.set(class: "Person", bo, property: "nest", .nestedList(outer))], "a nested collection made twice")
        // Another object's collection is refused; a name this replica
        // does not have (its value lost its place) is dropped.
        try Self.expectRefused([.listInsert(nest(outer, owner: bo), element: element, position: position, .int(1))],
                               "another object's nested list")
        try replica.apply([Self.changeset([.mapSet(nest(GlobalKey(client: 77, counter: 99)), key: "k", .int(1))])], firstVersion: 2)
    }

    @Test func anEmbeddedObjectOfTheWrongClassIsRefused() throws {
        let ana = ObjectIdentity.primaryKey(.int(1), incarnation: 0)
        try Self.expectRefused([.create(class: "Detail", .embedded(ownerClass: "Person", owner: ana, property: "home", element: GlobalKey(client: 77, counter: 1)))],
                               "a detail as a home")
    }

    /// Erasing an embedded list element as an object erases the element:
    /// the list's identities stay in step with its rows.
    @Test func anEmbeddedListElementErasedAsAnObjectLeavesTheListUsable() throws {
        let (replica, _, _, past) = try Self.seeded()
        let first = try #require(try Self.elements(of: past, in: replica).first)
        let identity = ObjectIdentity.embedded(ownerClass: "Person", owner: past.owner, property: "past", element: first)
        try replica.apply([Self.changeset([.erase(class: "Address", identity)])], firstVersion: 2)
        try replica.transaction.write { try ModelOperation.named("insertPast").body(replica, 1) }
        #expect(try replica.transaction.count(of: try #require(try replica.list(ModelReplica.PersonProperty.past, of: 1))) == 2)
    }

    /// A stamp at the end of time is kept (it wins), and later local
    /// writes still record.
    @Test func aTimestampAtTheEndOfTimeIsNoCrash() throws {
        let (replica, _, _, _) = try Self.seeded()
        let ana = ObjectIdentity.primaryKey(.int(1), incarnation: 0)
        try replica.apply([Self.changeset([.set(class: "Person", ana, property: "name", .string("late"))], timestamp: .max)], firstVersion: 2)
        try replica.transaction.write { try ModelOperation.named("rename").body(replica, 1) }
        #expect(try replica.takeUnuploaded().count == 1)
    }

    static func mirror(of reference: ListReference, in replica: ModelReplica) throws -> [(GlobalKey, PositionKey)] {
        try replica.transaction.beginWrite()
        defer { replica.transaction.cancelWrite() }
        let snapshot = try StateSnapshot.changesets(replica.transaction)
        return snapshot.flatMap(\.instructions).compactMap { instruction in
            guard case .listInsert(reference, let element, let position, _) = instruction else { return nil }
            return (element, position)
        }
    }

    static func positions(of reference: ListReference, in replica: ModelReplica) throws -> [PositionKey] {
        try mirror(of: reference, in: replica).map(\.1)
    }

    static func elements(of reference: ListReference, in replica: ModelReplica) throws -> [GlobalKey] {
        try mirror(of: reference, in: replica).map(\.0)
    }
}

/// Mixed values and the registers of sets and maps, in cases the model
/// checker's histories do not reach.
@Suite struct RegisterEdgeTests {
    /// A mixed property set to a link to an object not here, then to a
    /// number by a later write: the object's arrival leaves the number
    /// (before the fix, it set the link, where replicas that held the
    /// object all along show the number).
    @Test func aLaterValueEndsAMixedLinksWait() throws {
        let (replica, _, _, _) = try HostileChangesetTests.seeded()
        let ana = ObjectIdentity.primaryKey(.int(1), incarnation: 0)
        let late = ObjectIdentity.global(GlobalKey(client: 77, counter: 9))
        func changeset(_ version: UInt64, _ timestamp: Int64, _ instructions: [Instruction]) -> Changeset {
            Changeset(clientFileIdent: 77, clientVersion: version, lastServerVersion: 1, timestamp: timestamp, firstSequence: version * 10,
                      instructions: instructions)
        }
        try replica.apply([changeset(1, 5_000, [.set(class: "Person", ana, property: "any", .link(class: "Dog", late))])], firstVersion: 2)
        try replica.apply([changeset(2, 6_000, [.set(class: "Person", ana, property: "any", .int(5))])], firstVersion: 3)
        try replica.apply([changeset(3, 4_000, [.create(class: "Dog", late), .set(class: "Dog", late, property: "name", .string("Late"))])],
                          firstVersion: 4)
        let people = try replica.people
        #expect(try replica.transaction.value(of: try #require(try replica.person(1)), property: ModelReplica.PersonProperty.any, in: people) == .int(5))
    }

    /// Keys that Swift's `String` equality takes for one ("é" composed and
    /// decomposed) are two keys to RealmCore and the registers: a clear
    /// erases both (before the fix, it recorded one).
    @Test func aMapClearErasesKeysThatSwiftTakesForOne() throws {
        let (replica, _, _, _) = try HostileChangesetTests.seeded()
        let (composed, decomposed) = ("caf\u{e9}", "cafe\u{301}")
        _ = try replica.takeUnuploaded()
        try replica.transaction.write {
            try replica.withCollection(ModelReplica.PersonProperty.scores) { t, map in
                try t.setValue(.int(1), forKey: composed, in: map)
                try t.setValue(.int(2), forKey: decomposed, in: map)
            }
        }
        try replica.transaction.write {
            try replica.withCollection(ModelReplica.PersonProperty.scores) { t, map in try t.removeAll(fromMap: map) }
        }
        let erased = try replica.takeUnuploaded().last?.instructions.compactMap { instruction -> [UInt8]? in
            if case .mapErase(_, let key) = instruction { Array(key.utf8) } else { nil }
        } ?? []
        #expect(Set(erased) == [Array("j".utf8), Array("k".utf8), Array(composed.utf8), Array(decomposed.utf8)])
    }

    /// A mixed link to an embedded class, or to a class the file does not
    /// have, is a bad changeset.
    @Test func aMixedLinkToNoTopLevelClassIsRefused() throws {
        let ana = ObjectIdentity.primaryKey(.int(1), incarnation: 0)
        let somewhere = ObjectIdentity.global(GlobalKey(client: 77, counter: 1))
        try HostileChangesetTests.expectRefused([.set(class: "Person", ana, property: "any", .link(class: "Address", somewhere))],
                                                "a mixed link to an embedded class")
        try HostileChangesetTests.expectRefused([.set(class: "Person", ana, property: "any", .link(class: "Nowhere", somewhere))],
                                                "a mixed link to no class")
    }
}
