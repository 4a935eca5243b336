import Foundation
import RealmCore
import Testing

/// The schema of the list tests: an owner with lists of ints, of optional
/// strings, of objects and of embedded objects.
private enum ListSchema {
    static let name = 0
    static let ints = 1
    static let strings = 2
    static let items = 3
    static let parts = 4

    static let owner = ObjectSchema(name: "ListOwner", properties: [
        Property(name: "name", type: .string),
        Property(name: "ints", type: .int, isList: true),
        Property(name: "strings", type: .string, isOptional: true, isList: true),
        Property(name: "items", type: .object, isList: true, objectClassName: "ListItem"),
        Property(name: "parts", type: .object, isList: true, objectClassName: "ListPart"),
    ])
    static let item = ObjectSchema(name: "ListItem", properties: [
        Property(name: "value", type: .int),
    ])
    static let part = ObjectSchema(name: "ListPart", properties: [
        Property(name: "label", type: .string),
    ], isEmbedded: true)
    static let schema = Schema([owner, item, part])
}

/// A file with one committed owner object; the transaction is reading.
private final class ListFixture {
    let directory = TemporaryDirectory()
    let coordinator: Coordinator
    let transaction: Transaction
    let owners: ClassHandle
    let items: ClassHandle
    let parts: ClassHandle
    let owner: ObjectKey

    init() throws {
        coordinator = try openCoordinator(directory, schema: ListSchema.schema)
        transaction = try coordinator.makeTransaction()
        owners = try transaction.classHandle(named: "ListOwner")
        items = try transaction.classHandle(named: "ListItem")
        parts = try transaction.classHandle(named: "ListPart")
        try transaction.beginWrite()
        owner = try transaction.createObject(in: owners, values: [.string("owner")])
        try transaction.commitWrite()
    }

    func list(_ property: Int, of key: ObjectKey? = nil) throws -> ListHandle {
        try transaction.list(property, of: key ?? owner, in: owners)
    }

    var ints: ListHandle { get throws { try list(ListSchema.ints) } }
    var strings: ListHandle { get throws { try list(ListSchema.strings) } }
    var itemList: ListHandle { get throws { try list(ListSchema.items) } }
    var partList: ListHandle { get throws { try list(ListSchema.parts) } }

    /// The elements of an int list, checked element by element against
    /// `value(at:)` and `count(of:)`.
    func intValues(_ list: ListHandle, sourceLocation: SourceLocation = #_sourceLocation) throws -> [Int64] {
        let values = try transaction.values(of: list)
        #expect(try transaction.count(of: list) == values.count, sourceLocation: sourceLocation)
        for (index, value) in values.enumerated() {
            #expect(try transaction.value(at: index, in: list) == value, sourceLocation: sourceLocation)
        }
        return values.map { value in
            guard case .int(let int) = value else {
                Issue.record("Unexpected element \(value) in an int list", sourceLocation: sourceLocation)
                return Int64.min
            }
            return int
        }
    }

    /// Fills the int list with `values` (in its own write transaction).
    func setInts(_ values: [Int64]) throws {
        let list = try ints
        try transaction.write {
            try transaction.removeAll(from: list)
            for value in values { try transaction.append(.int(value), to: list) }
        }
    }

    /// The elements of a list of links as keys.
    func keys(_ list: ListHandle, sourceLocation: SourceLocation = #_sourceLocation) throws -> [ObjectKey] {
        try transaction.values(of: list).map { value in
            guard case .object(let key) = value else {
                Issue.record("Unexpected element \(value) in a list of links", sourceLocation: sourceLocation)
                return ObjectKey(-1)
            }
            return key
        }
    }

    func makeItems(_ values: [Int64]) throws -> [ObjectKey] {
        try transaction.write {
            try values.map { try transaction.createObject(in: items, values: [.int($0)]) }
        }
    }
}

/// Expects `body` to throw a `RealmError` of `kind`.
private func expectRealmError(_ kind: RealmError.Kind, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
    let error = #expect(throws: RealmError.self, sourceLocation: sourceLocation) { try body() }
    #expect(error?.kind == kind, "\(error?.message ?? "no error")", sourceLocation: sourceLocation)
}

@Suite struct ListOperationTests {
    // MARK: Lists of ints

    @Test func insertAtStartMiddleAndEnd() throws {
        let f = try ListFixture()
        try f.setInts([1, 2, 3])
        let list = try f.ints
        try f.transaction.write {
            try f.transaction.insert(.int(0), at: 0, in: list)
            #expect(try f.intValues(list) == [0, 1, 2, 3])
            try f.transaction.insert(.int(15), at: 2, in: list)
            #expect(try f.intValues(list) == [0, 1, 15, 2, 3])
            try f.transaction.insert(.int(4), at: 5, in: list)
            #expect(try f.intValues(list) == [0, 1, 15, 2, 3, 4])
            try f.transaction.insert(.int(-1), at: 0, in: list)
            try f.transaction.insert(.int(35), at: 6, in: list)
        }
        #expect(try f.intValues(list) == [-1, 0, 1, 15, 2, 3, 35, 4])
    }

    @Test func insertIntoEmptyListAndAppend() throws {
        let f = try ListFixture()
        let list = try f.ints
        #expect(try f.intValues(list) == [])
        try f.transaction.write {
            try f.transaction.insert(.int(7), at: 0, in: list)
            try f.transaction.append(.int(8), to: list)
            try f.transaction.append(.int(9), to: list)
            try f.transaction.append(.int(7), to: list)
        }
        #expect(try f.intValues(list) == [7, 8, 9, 7])
        // Appending many keeps order and dense positions.
        try f.transaction.write {
            for value in 10..<110 { try f.transaction.append(.int(Int64(value)), to: list) }
        }
        #expect(try f.intValues(list) == [7, 8, 9, 7] + (10..<110).map(Int64.init))
    }

    /// Appends in a row skip the owner check and the length lookup (see
    /// `Transaction.lastAppend`); every other change in between must make
    /// the next append look again.
    @Test func appendsInARowStayCorrectWhateverHappensBetween() throws {
        struct Refused: Error {}
        let f = try ListFixture()
        let ints = try f.ints
        let strings = try f.strings
        let items = try f.itemList
        try f.transaction.write {
            for value in 1...3 { try f.transaction.append(.int(Int64(value)), to: ints) }
            // Another list in between.
            try f.transaction.append(.string("s"), to: strings)
            try f.transaction.append(.int(4), to: ints)
            // A removal, an insertion and a move in between.
            try f.transaction.remove(at: 0, from: ints)
            try f.transaction.append(.int(5), to: ints)
            try f.transaction.insert(.int(0), at: 0, in: ints)
            try f.transaction.append(.int(6), to: ints)
            try f.transaction.move(from: 0, to: 5, in: ints)
            try f.transaction.append(.int(7), to: ints)
            // Objects added between appends (what `List.append` of new
            // objects does) leave the remembered length valid.
            for value in 8...10 {
                let key = try f.transaction.createObject(in: f.items, values: [.int(Int64(value))])
                try f.transaction.append(.object(key), to: items)
                try f.transaction.append(.int(Int64(value)), to: ints)
            }
        }
        #expect(try f.intValues(ints) == [2, 3, 4, 5, 6, 0, 7, 8, 9, 10])
        #expect(try f.transaction.count(of: items) == 3)

        // An append undone by a failed atomic operation is forgotten.
        try f.transaction.write {
            try f.transaction.append(.int(11), to: ints)
            #expect(throws: Refused.self) {
                try f.transaction.atomicallyRethrowing {
                    try f.transaction.append(.int(99), to: ints)
                    throw Refused()
                }
            }
            try f.transaction.append(.int(12), to: ints)
        }
        #expect(try f.intValues(ints) == [2, 3, 4, 5, 6, 0, 7, 8, 9, 10, 11, 12])

        // A cancelled write, then a new one.
        try f.transaction.beginWrite()
        try f.transaction.append(.int(98), to: ints)
        f.transaction.cancelWrite()
        try f.transaction.write { try f.transaction.append(.int(13), to: ints) }
        #expect(try f.intValues(ints).suffix(2) == [12, 13])

        // The owner deleted between two appends.
        try f.transaction.beginWrite()
        defer { f.transaction.cancelWrite() }
        try f.transaction.append(.int(14), to: ints)
        try f.transaction.deleteObject(f.owner, in: f.owners)
        expectRealmError(.objectNotFound) { try f.transaction.append(.int(15), to: ints) }
    }

    @Test func removeAtStartMiddleAndEnd() throws {
        let f = try ListFixture()
        try f.setInts([0, 1, 2, 3, 4, 5, 6])
        let list = try f.ints
        try f.transaction.write {
            try f.transaction.remove(at: 0, from: list)
            #expect(try f.intValues(list) == [1, 2, 3, 4, 5, 6])
            try f.transaction.remove(at: 2, from: list)
            #expect(try f.intValues(list) == [1, 2, 4, 5, 6])
            try f.transaction.remove(at: 4, from: list)
            #expect(try f.intValues(list) == [1, 2, 4, 5])
        }
        #expect(try f.intValues(list) == [1, 2, 4, 5])
        try f.transaction.write {
            for _ in 0..<4 { try f.transaction.remove(at: 0, from: list) }
        }
        #expect(try f.intValues(list) == [])
        // An emptied list accepts new elements at position 0.
        try f.transaction.write { try f.transaction.append(.int(42), to: list) }
        #expect(try f.intValues(list) == [42])
    }

    @Test func moveForwardAndBackward() throws {
        let f = try ListFixture()
        try f.setInts([0, 1, 2, 3, 4])
        let list = try f.ints
        try f.transaction.write {
            try f.transaction.move(from: 1, to: 3, in: list)
        }
        #expect(try f.intValues(list) == [0, 2, 3, 1, 4])
        try f.transaction.write {
            try f.transaction.move(from: 3, to: 1, in: list)
        }
        #expect(try f.intValues(list) == [0, 1, 2, 3, 4])
        try f.transaction.write {
            try f.transaction.move(from: 0, to: 4, in: list)
            #expect(try f.intValues(list) == [1, 2, 3, 4, 0])
            try f.transaction.move(from: 4, to: 0, in: list)
            #expect(try f.intValues(list) == [0, 1, 2, 3, 4])
            try f.transaction.move(from: 2, to: 2, in: list)
            #expect(try f.intValues(list) == [0, 1, 2, 3, 4])
            try f.transaction.move(from: 3, to: 4, in: list)
            #expect(try f.intValues(list) == [0, 1, 2, 4, 3])
        }
        #expect(try f.intValues(list) == [0, 1, 2, 4, 3])
    }

    @Test func swapElements() throws {
        let f = try ListFixture()
        try f.setInts([0, 1, 2, 3, 4])
        let list = try f.ints
        try f.transaction.write {
            try f.transaction.swapAt(1, 3, in: list)
            #expect(try f.intValues(list) == [0, 3, 2, 1, 4])
            try f.transaction.swapAt(4, 0, in: list)
            #expect(try f.intValues(list) == [4, 3, 2, 1, 0])
            try f.transaction.swapAt(2, 3, in: list)
            #expect(try f.intValues(list) == [4, 3, 1, 2, 0])
            try f.transaction.swapAt(2, 2, in: list)
        }
        #expect(try f.intValues(list) == [4, 3, 1, 2, 0])
    }

    @Test func replaceElements() throws {
        let f = try ListFixture()
        try f.setInts([0, 1, 2])
        let list = try f.ints
        try f.transaction.write {
            try f.transaction.replace(at: 0, with: .int(10), in: list)
            try f.transaction.replace(at: 1, with: .int(11), in: list)
            try f.transaction.replace(at: 2, with: .int(12), in: list)
            try f.transaction.replace(at: 1, with: .int(-11), in: list)
        }
        #expect(try f.intValues(list) == [10, -11, 12])
    }

    @Test func removeAllElements() throws {
        let f = try ListFixture()
        try f.setInts([5, 6, 7])
        let list = try f.ints
        let other = try f.transaction.write {
            let other = try f.transaction.createObject(in: f.owners, values: [.string("other")])
            let otherList = try f.list(ListSchema.ints, of: other)
            try f.transaction.append(.int(99), to: otherList)
            return other
        }
        try f.transaction.write {
            try f.transaction.removeAll(from: list)
            #expect(try f.intValues(list) == [])
            // Removing from an empty list is a no-op.
            try f.transaction.removeAll(from: list)
            try f.transaction.append(.int(1), to: list)
            try f.transaction.insert(.int(0), at: 0, in: list)
        }
        #expect(try f.intValues(list) == [0, 1])
        // Another owner's list of the same property is untouched.
        #expect(try f.intValues(try f.list(ListSchema.ints, of: other)) == [99])
    }

    @Test func cancelledWriteLeavesListUnchanged() throws {
        let f = try ListFixture()
        try f.setInts([1, 2, 3])
        let list = try f.ints
        try f.transaction.beginWrite()
        try f.transaction.insert(.int(0), at: 0, in: list)
        try f.transaction.move(from: 0, to: 3, in: list)
        try f.transaction.removeAll(from: list)
        f.transaction.cancelWrite()
        #expect(try f.intValues(list) == [1, 2, 3])
    }

    @Test func listsAreVisibleToOtherTransactionsAfterCommit() throws {
        let f = try ListFixture()
        let reader = try f.coordinator.makeTransaction()
        let readerList = try reader.list(ListSchema.ints, of: f.owner, in: reader.classHandle(named: "ListOwner"))
        #expect(try reader.count(of: readerList) == 0)
        try f.setInts([3, 1, 2])
        // The reader's snapshot is pinned until it refreshes.
        #expect(try reader.count(of: readerList) == 0)
        try reader.refresh()
        #expect(try reader.values(of: readerList) == [.int(3), .int(1), .int(2)])
    }

    // MARK: Lists of optional strings

    @Test func optionalStringListHoldsNil() throws {
        let f = try ListFixture()
        let list = try f.strings
        try f.transaction.write {
            try f.transaction.append(.string("a"), to: list)
            try f.transaction.append(.null, to: list)
            try f.transaction.insert(.null, at: 0, in: list)
            try f.transaction.insert(.string(""), at: 2, in: list)
            try f.transaction.append(.string("héllo 🐶"), to: list)
        }
        #expect(try f.transaction.values(of: list) == [.null, .string("a"), .string(""), .null, .string("héllo 🐶")])
        #expect(try f.transaction.value(at: 0, in: list) == .null)
        #expect(try f.transaction.value(at: 2, in: list) == .string(""))
        try f.transaction.write {
            try f.transaction.replace(at: 0, with: .string("first"), in: list)
            try f.transaction.replace(at: 1, with: .null, in: list)
            try f.transaction.move(from: 3, to: 0, in: list)
            try f.transaction.swapAt(1, 4, in: list)
        }
        // After replace: [first, nil, "", nil, héllo]; move 3→0: [nil, first, nil, "", héllo];
        // swap 1,4: [nil, héllo, nil, "", first].
        #expect(try f.transaction.values(of: list) == [.null, .string("héllo 🐶"), .null, .string(""), .string("first")])
        try f.transaction.write {
            try f.transaction.remove(at: 0, from: list)
            try f.transaction.remove(at: 1, from: list)
        }
        #expect(try f.transaction.values(of: list) == [.string("héllo 🐶"), .string(""), .string("first")])
    }

    // MARK: Lists of objects

    @Test func objectListOperations() throws {
        let f = try ListFixture()
        let keys = try f.makeItems([10, 20, 30, 40])
        let list = try f.itemList
        try f.transaction.write {
            try f.transaction.append(.object(keys[0]), to: list)
            try f.transaction.append(.object(keys[1]), to: list)
            try f.transaction.insert(.object(keys[2]), at: 0, in: list)
            try f.transaction.insert(.object(keys[3]), at: 1, in: list)
            // The same object may appear twice.
            try f.transaction.append(.object(keys[0]), to: list)
        }
        #expect(try f.keys(list) == [keys[2], keys[3], keys[0], keys[1], keys[0]])
        #expect(try f.transaction.linkingObjects(to: keys[0], from: f.owners, property: ListSchema.items) == [f.owner, f.owner])
        #expect(try f.transaction.linkingObjects(to: keys[3], from: f.owners, property: ListSchema.items) == [f.owner])

        try f.transaction.write {
            try f.transaction.move(from: 0, to: 4, in: list)
            try f.transaction.swapAt(0, 1, in: list)
            try f.transaction.replace(at: 2, with: .object(keys[3]), in: list)
        }
        // move: [3, 0, 1, 0, 2]; swap: [0, 3, 1, 0, 2]; replace 2: [0, 3, 3, 0, 2].
        #expect(try f.keys(list) == [keys[0], keys[3], keys[3], keys[0], keys[2]])

        try f.transaction.write {
            try f.transaction.remove(at: 4, from: list)
            try f.transaction.remove(at: 0, from: list)
        }
        #expect(try f.keys(list) == [keys[3], keys[3], keys[0]])
        #expect(try f.transaction.linkingObjects(to: keys[2], from: f.owners, property: ListSchema.items) == [])
        // Removing a link from a list does not delete the object.
        #expect(try f.transaction.count(of: f.items) == 4)
        #expect(try f.transaction.objectExists(keys[2], in: f.items))

        try f.transaction.write { try f.transaction.removeAll(from: list) }
        #expect(try f.keys(list) == [])
        #expect(try f.transaction.count(of: f.items) == 4)
    }

    @Test func deletingALinkedObjectRemovesItFromLists() throws {
        let f = try ListFixture()
        let keys = try f.makeItems([1, 2, 3])
        let list = try f.itemList
        try f.transaction.write {
            for key in [keys[0], keys[1], keys[2], keys[1], keys[0]] {
                try f.transaction.append(.object(key), to: list)
            }
        }
        try f.transaction.write { try f.transaction.deleteObject(keys[1], in: f.items) }
        #expect(try f.keys(list) == [keys[0], keys[2], keys[0]])
        try f.transaction.write { try f.transaction.append(.object(keys[2]), to: list) }
        #expect(try f.keys(list) == [keys[0], keys[2], keys[0], keys[2]])
    }

    // MARK: Lists of embedded objects

    @Test func embeddedObjectsInsertAndAppend() throws {
        let f = try ListFixture()
        let list = try f.partList
        let (a, b, c, d) = try f.transaction.write {
            let b = try f.transaction.appendEmbeddedObject(to: list, values: [.string("b")])
            let d = try f.transaction.appendEmbeddedObject(to: list, values: [.string("d")])
            let a = try f.transaction.insertEmbeddedObject(at: 0, in: list, values: [.string("a")])
            let c = try f.transaction.insertEmbeddedObject(at: 2, in: list, values: [.string("c")])
            return (a, b, c, d)
        }
        #expect(try f.keys(list) == [a, b, c, d])
        #expect(try f.keys(list).map { try f.transaction.value(of: $0, property: 0, in: f.parts) } == ["a", "b", "c", "d"].map(Value.string))
        #expect(try f.transaction.count(of: f.parts) == 4)

        // An embedded object with default values.
        let e = try f.transaction.write { try f.transaction.appendEmbeddedObject(to: list) }
        #expect(try f.transaction.value(of: e, property: 0, in: f.parts) == .string(""))
        #expect(try f.keys(list) == [a, b, c, d, e])
    }

    @Test func embeddedObjectsAreDeletedWithTheirListEntry() throws {
        let f = try ListFixture()
        let list = try f.partList
        try f.transaction.beginWrite()
        let keys = try (0..<5).map { try f.transaction.appendEmbeddedObject(to: list, values: [.string("p\($0)")]) }
        var changes = try f.transaction.commitWrite()
        let identifier = ListIdentifier(className: "ListOwner", propertyIndex: ListSchema.parts, owner: f.owner)
        #expect(changes.classes["ListPart"]?.insertions == KeySet(keys))
        #expect(changes.lists[identifier] == ListChanges(insertions: IndexSet(integersIn: 0..<5), oldCount: 0, newCount: 5))
        #expect(changes.classes["ListOwner"]?.modifications[f.owner]?.contains(ListSchema.parts) == true)

        try f.transaction.beginWrite()
        try f.transaction.remove(at: 2, from: list)
        changes = try f.transaction.commitWrite()
        #expect(changes.classes["ListPart"]?.deletions == KeySet([keys[2]]))
        #expect(changes.lists[identifier] == ListChanges(deletions: IndexSet(integer: 2), oldCount: 5, newCount: 4))
        #expect(try f.keys(list) == [keys[0], keys[1], keys[3], keys[4]])
        #expect(try !f.transaction.objectExists(keys[2], in: f.parts))
        #expect(try f.transaction.count(of: f.parts) == 4)

        // Moving and swapping embedded objects keeps them alive.
        try f.transaction.write {
            try f.transaction.move(from: 0, to: 3, in: list)
            try f.transaction.swapAt(0, 1, in: list)
        }
        #expect(try f.keys(list) == [keys[3], keys[1], keys[4], keys[0]])
        #expect(try f.transaction.count(of: f.parts) == 4)

        try f.transaction.write { try f.transaction.removeAll(from: list) }
        #expect(try f.keys(list) == [])
        #expect(try f.transaction.count(of: f.parts) == 0)

        // Deleting the owner deletes its embedded objects.
        let more = try f.transaction.write {
            try (0..<2).map { _ in try f.transaction.appendEmbeddedObject(to: list) }
        }
        try f.transaction.write { try f.transaction.deleteObject(f.owner, in: f.owners) }
        for key in more { #expect(try !f.transaction.objectExists(key, in: f.parts)) }
        #expect(try f.transaction.count(of: f.parts) == 0)
    }

    @Test func embeddedListRejectsDirectLinks() throws {
        let f = try ListFixture()
        let list = try f.partList
        let existing = try f.transaction.write { try f.transaction.appendEmbeddedObject(to: list, values: [.string("x")]) }
        try f.transaction.beginWrite()
        defer { f.transaction.cancelWrite() }
        expectRealmError(.invalidValue) { try f.transaction.append(.object(existing), to: list) }
        expectRealmError(.invalidValue) { try f.transaction.insert(.object(existing), at: 0, in: list) }
        expectRealmError(.invalidValue) { try f.transaction.replace(at: 0, with: .object(existing), in: list) }
        // Embedded objects only go into lists of embedded objects.
        expectRealmError(.invalidValue) { try f.transaction.appendEmbeddedObject(to: f.itemList) }
        expectRealmError(.invalidValue) { try f.transaction.insertEmbeddedObject(at: 0, in: f.ints) }
        // Out of bounds: no embedded object is created.
        expectRealmError(.indexOutOfBounds) { try f.transaction.insertEmbeddedObject(at: 2, in: list, values: [.string("y")]) }
        expectRealmError(.indexOutOfBounds) { try f.transaction.insertEmbeddedObject(at: -1, in: list) }
        #expect(try f.keys(list) == [existing])
        #expect(try f.transaction.count(of: f.parts) == 1)
        #expect(try f.transaction.value(of: existing, property: 0, in: f.parts) == .string("x"))
    }

    // MARK: Errors

    @Test func outOfBoundsLeavesListUnchangedAndWriteUsable() throws {
        let f = try ListFixture()
        try f.setInts([0, 1, 2])
        let list = try f.ints
        try f.transaction.beginWrite()
        expectRealmError(.indexOutOfBounds) { try f.transaction.insert(.int(9), at: 4, in: list) }
        expectRealmError(.indexOutOfBounds) { try f.transaction.insert(.int(9), at: -1, in: list) }
        expectRealmError(.indexOutOfBounds) { try f.transaction.remove(at: 3, from: list) }
        expectRealmError(.indexOutOfBounds) { try f.transaction.remove(at: -1, from: list) }
        expectRealmError(.indexOutOfBounds) { try f.transaction.move(from: 3, to: 0, in: list) }
        expectRealmError(.indexOutOfBounds) { try f.transaction.move(from: 0, to: 3, in: list) }
        expectRealmError(.indexOutOfBounds) { try f.transaction.move(from: -1, to: 0, in: list) }
        expectRealmError(.indexOutOfBounds) { try f.transaction.swapAt(0, 3, in: list) }
        expectRealmError(.indexOutOfBounds) { try f.transaction.swapAt(5, 1, in: list) }
        expectRealmError(.indexOutOfBounds) { try f.transaction.swapAt(-1, 1, in: list) }
        expectRealmError(.indexOutOfBounds) { try f.transaction.replace(at: 3, with: .int(9), in: list) }
        expectRealmError(.indexOutOfBounds) { try f.transaction.replace(at: -2, with: .int(9), in: list) }
        expectRealmError(.indexOutOfBounds) { _ = try f.transaction.value(at: 3, in: list) }
        expectRealmError(.indexOutOfBounds) { _ = try f.transaction.value(at: -1, in: list) }
        #expect(try f.intValues(list) == [0, 1, 2])
        #expect(f.transaction.isInWriteTransaction)

        // The write goes on, and only the valid operations are recorded.
        try f.transaction.append(.int(3), to: list)
        expectRealmError(.indexOutOfBounds) { try f.transaction.remove(at: 4, from: list) }
        try f.transaction.remove(at: 0, from: list)
        let changes = try f.transaction.commitWrite()
        #expect(try f.intValues(list) == [1, 2, 3])
        let listChanges = try #require(changes.lists[ListIdentifier(className: "ListOwner", propertyIndex: ListSchema.ints, owner: f.owner)])
        #expect(listChanges.oldCount == 3)
        #expect(listChanges.newCount == 3)
        #expect(listChanges.deletions == IndexSet(integer: 0))
        #expect(listChanges.insertions == IndexSet(integer: 2))
        #expect(listChanges.modifications.isEmpty)
        #expect(listChanges.moves.isEmpty)
    }

    @Test func outOfBoundsOnEmptyList() throws {
        let f = try ListFixture()
        let list = try f.ints
        try f.transaction.beginWrite()
        defer { f.transaction.cancelWrite() }
        expectRealmError(.indexOutOfBounds) { try f.transaction.insert(.int(1), at: 1, in: list) }
        expectRealmError(.indexOutOfBounds) { try f.transaction.remove(at: 0, from: list) }
        expectRealmError(.indexOutOfBounds) { try f.transaction.move(from: 0, to: 0, in: list) }
        expectRealmError(.indexOutOfBounds) { try f.transaction.swapAt(0, 0, in: list) }
        expectRealmError(.indexOutOfBounds) { try f.transaction.replace(at: 0, with: .int(1), in: list) }
        expectRealmError(.indexOutOfBounds) { _ = try f.transaction.value(at: 0, in: list) }
        try f.transaction.removeAll(from: list)
        #expect(try f.intValues(list) == [])
    }

    @Test func writesOutsideAWriteTransactionThrow() throws {
        let f = try ListFixture()
        try f.setInts([1, 2, 3])
        let ints = try f.ints
        let parts = try f.partList
        #expect(!f.transaction.isInWriteTransaction)
        expectRealmError(.invalidTransactionState) { try f.transaction.insert(.int(0), at: 0, in: ints) }
        expectRealmError(.invalidTransactionState) { try f.transaction.append(.int(0), to: ints) }
        expectRealmError(.invalidTransactionState) { try f.transaction.remove(at: 0, from: ints) }
        expectRealmError(.invalidTransactionState) { try f.transaction.move(from: 0, to: 1, in: ints) }
        expectRealmError(.invalidTransactionState) { try f.transaction.swapAt(0, 1, in: ints) }
        expectRealmError(.invalidTransactionState) { try f.transaction.replace(at: 0, with: .int(0), in: ints) }
        expectRealmError(.invalidTransactionState) { try f.transaction.removeAll(from: ints) }
        expectRealmError(.invalidTransactionState) { try f.transaction.insertEmbeddedObject(at: 0, in: parts) }
        expectRealmError(.invalidTransactionState) { try f.transaction.appendEmbeddedObject(to: parts) }
        // Reading still works and nothing changed.
        #expect(try f.intValues(ints) == [1, 2, 3])
        #expect(try f.transaction.count(of: f.parts) == 0)
        // After a commit the transaction is reading again.
        try f.transaction.write { try f.transaction.append(.int(4), to: ints) }
        expectRealmError(.invalidTransactionState) { try f.transaction.append(.int(5), to: ints) }
        #expect(try f.intValues(ints) == [1, 2, 3, 4])
    }

    @Test func elementTypeIsChecked() throws {
        let f = try ListFixture()
        try f.setInts([1])
        let item = try f.makeItems([5])[0]
        let ints = try f.ints
        let strings = try f.strings
        let objects = try f.itemList
        try f.transaction.beginWrite()
        defer { f.transaction.cancelWrite() }
        // Wrong type.
        expectRealmError(.wrongType) { try f.transaction.append(.string("1"), to: ints) }
        expectRealmError(.wrongType) { try f.transaction.insert(.double(1), at: 0, in: ints) }
        expectRealmError(.wrongType) { try f.transaction.replace(at: 0, with: .bool(true), in: ints) }
        expectRealmError(.wrongType) { try f.transaction.append(.int(1), to: strings) }
        expectRealmError(.wrongType) { try f.transaction.append(.data(Data("a".utf8)), to: strings) }
        expectRealmError(.wrongType) { try f.transaction.append(.int(Int64(item.rawValue)), to: objects) }
        expectRealmError(.wrongType) { try f.transaction.append(.object(item), to: ints) }
        // Nil into a non-optional list.
        expectRealmError(.missingValue) { try f.transaction.append(.null, to: ints) }
        expectRealmError(.missingValue) { try f.transaction.insert(.null, at: 0, in: ints) }
        expectRealmError(.missingValue) { try f.transaction.replace(at: 0, with: .null, in: ints) }
        expectRealmError(.missingValue) { try f.transaction.append(.null, to: objects) }
        // A link to an object that does not exist.
        expectRealmError(.invalidValue) { try f.transaction.append(.object(ObjectKey(item.rawValue + 1000)), to: objects) }
        // A property that is not a list.
        expectRealmError(.invalidValue) { _ = try f.transaction.list(ListSchema.name, of: f.owner, in: f.owners) }
        expectRealmError(.unknownName) { _ = try f.transaction.list(17, of: f.owner, in: f.owners) }
        // Nothing was changed by the failures, and the write goes on.
        #expect(try f.intValues(ints) == [1])
        #expect(try f.transaction.count(of: strings) == 0)
        #expect(try f.transaction.count(of: objects) == 0)
        try f.transaction.append(.object(item), to: objects)
        try f.transaction.append(.null, to: strings)
        #expect(try f.keys(objects) == [item])
        #expect(try f.transaction.values(of: strings) == [.null])
    }

    @Test func listsOfADeletedOwnerThrowObjectNotFound() throws {
        let f = try ListFixture()
        try f.setInts([1, 2, 3])
        let item = try f.makeItems([1])[0]
        let ints = try f.ints
        let objects = try f.itemList
        let parts = try f.partList
        try f.transaction.write {
            try f.transaction.append(.object(item), to: objects)
            try f.transaction.appendEmbeddedObject(to: parts)
            try f.transaction.deleteObject(f.owner, in: f.owners)
        }
        #expect(try !f.transaction.objectExists(f.owner, in: f.owners))
        // The deleted owner's list rows are gone.
        #expect(try f.transaction.count(of: ints) == 0)
        #expect(try f.transaction.count(of: objects) == 0)
        #expect(try f.transaction.linkingObjects(to: item, from: f.owners, property: ListSchema.items) == [])
        try f.transaction.beginWrite()
        defer { f.transaction.cancelWrite() }
        expectRealmError(.objectNotFound) { try f.transaction.append(.int(4), to: ints) }
        expectRealmError(.objectNotFound) { try f.transaction.insert(.int(4), at: 0, in: ints) }
        expectRealmError(.objectNotFound) { try f.transaction.remove(at: 0, from: ints) }
        expectRealmError(.objectNotFound) { try f.transaction.move(from: 0, to: 1, in: ints) }
        expectRealmError(.objectNotFound) { try f.transaction.swapAt(0, 1, in: ints) }
        expectRealmError(.objectNotFound) { try f.transaction.replace(at: 0, with: .int(4), in: ints) }
        expectRealmError(.objectNotFound) { try f.transaction.removeAll(from: ints) }
        expectRealmError(.objectNotFound) { try f.transaction.append(.object(item), to: objects) }
        expectRealmError(.objectNotFound) { try f.transaction.appendEmbeddedObject(to: parts) }
        expectRealmError(.objectNotFound) { try f.transaction.insertEmbeddedObject(at: 0, in: parts) }
        #expect(try f.transaction.count(of: ints) == 0)
        #expect(try f.transaction.count(of: f.parts) == 0)
    }

    @Test func ownerDeletedInTheSameWriteTransaction() throws {
        let f = try ListFixture()
        let ints = try f.ints
        try f.transaction.beginWrite()
        try f.transaction.append(.int(1), to: ints)
        try f.transaction.deleteObject(f.owner, in: f.owners)
        expectRealmError(.objectNotFound) { try f.transaction.append(.int(2), to: ints) }
        let changes = try f.transaction.commitWrite()
        // The deleted owner's list is not reported.
        #expect(changes.lists.isEmpty)
        #expect(changes.classes["ListOwner"]?.deletions == KeySet([f.owner]))
        #expect(changes.classes["ListOwner"]?.modifications.isEmpty == true)
    }
}
