import CStorage
import Foundation
import RealmCore
import Testing

/// A small deterministic random number generator (SplitMix64).
private struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A class with one list of ints, and a wide class whose property indices
/// go beyond 64.
private enum ChangeSchema {
    static let holder = ObjectSchema(name: "Holder", properties: [
        Property(name: "values", type: .int, isList: true),
        Property(name: "label", type: .string),
    ])
    static let wideCount = 70
    static let wide = ObjectSchema(name: "Wide", properties: (0..<wideCount).map {
        Property(name: "p\($0)", type: .int)
    })
    static let schema = Schema(TestSchema.schema.objectSchemas + [holder, wide])
}

/// Expects `changes` to transform `old` into `new`; see ``listChangeProblems``.
private func checkListChanges(
    _ changes: ListChanges?, old: [(id: Int, value: Int64)], new: [(id: Int, value: Int64)],
    context: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    for problem in listChangeProblems(changes, old: old, new: new) {
        Issue.record("\(context): \(problem)", sourceLocation: sourceLocation)
    }
}

/// What is wrong with `changes` as a description of how `old` became
/// `new`; empty when they are right.
///
/// `old` and `new` hold (identity, value) pairs: identities are unique per
/// element and survive moves and replacements; values change on replace.
private func listChangeProblems(
    _ changes: ListChanges?, old: [(id: Int, value: Int64)], new: [(id: Int, value: Int64)]
) -> [String] {
    var problems: [String] = []
    guard let changes else {
        if old.map(\.id) != new.map(\.id) || old.map(\.value) != new.map(\.value) {
            problems.append("no list changes reported, but the list changed")
        }
        return problems
    }
    if changes.isEmpty { problems.append("an empty ListChanges was reported") }
    if changes.oldCount != old.count { problems.append("oldCount \(changes.oldCount), not \(old.count)") }
    if changes.newCount != new.count { problems.append("newCount \(changes.newCount), not \(new.count)") }
    guard changes.deletions.allSatisfy({ $0 >= 0 && $0 < old.count }),
          changes.insertions.allSatisfy({ $0 >= 0 && $0 < new.count }) else {
        return problems + ["indices out of range: \(changes)"]
    }
    // Modifications: in range of the new list and disjoint from insertions.
    if !changes.modifications.allSatisfy({ $0 >= 0 && $0 < new.count }) {
        problems.append("modification out of range: \(changes)")
    }
    if !changes.modifications.intersection(changes.insertions).isEmpty {
        problems.append("modifications overlap insertions: \(Array(changes.modifications)) and \(Array(changes.insertions))")
    }

    // Applying the changes turns the old list into the new one.
    var applied = old
    for index in changes.deletions.reversed() { applied.remove(at: index) }
    for index in changes.insertions {
        guard index <= applied.count else { return problems + ["insertion \(index) beyond the list being built"] }
        applied.insert(new[index], at: index)
    }
    guard applied.count == new.count else {
        return problems + ["applying \(changes) gives \(applied.count) elements, not \(new.count)"]
    }
    if applied.map(\.id) != new.map(\.id) {
        problems.append("applying deletions \(Array(changes.deletions)) and insertions \(Array(changes.insertions)) to \(old.map(\.id)) gives \(applied.map(\.id)), not \(new.map(\.id))")
    }
    // Elements kept in place have their old value unless modified, and
    // every kept element whose value changed is reported as modified.
    for index in 0..<new.count where !changes.insertions.contains(index) && !changes.modifications.contains(index) {
        if applied[index].value != new[index].value {
            problems.append("element at \(index) changed but is not in modifications \(Array(changes.modifications))")
        }
    }
    for index in changes.modifications where index < new.count && applied[index].id != new[index].id {
        problems.append("modification at \(index) is of a different element")
    }

    // The kept elements keep their relative order.
    let keptOld = old.indices.filter { !changes.deletions.contains($0) }.map { old[$0].id }
    let keptNew = new.indices.filter { !changes.insertions.contains($0) }.map { new[$0].id }
    if keptOld != keptNew { problems.append("kept elements reordered: \(keptOld) became \(keptNew)") }

    // Moves: from a deletion to an insertion, of the same element, each
    // index at most once.
    for move in changes.moves {
        if !changes.deletions.contains(move.from) { problems.append("move \(move) not from a deletion") }
        if !changes.insertions.contains(move.to) { problems.append("move \(move) not to an insertion") }
        if move.from >= 0 && move.from < old.count && move.to >= 0 && move.to < new.count && old[move.from].id != new[move.to].id {
            problems.append("move \(move) of different elements")
        }
    }
    if Set(changes.moves.map(\.from)).count != changes.moves.count { problems.append("repeated move source") }
    if Set(changes.moves.map(\.to)).count != changes.moves.count { problems.append("repeated move destination") }
    // An old element that is deleted and reinserted must be reported as a
    // move.
    let oldIdentities = Set(old.map(\.id))
    let movedTo = Set(changes.moves.map(\.to))
    for index in changes.insertions where oldIdentities.contains(new[index].id) && !movedTo.contains(index) {
        problems.append("element \(new[index].id) at \(index) moved without a move")
    }
    return problems
}

/// A plain SQLite connection to a Realm file, to look at and damage its
/// stored history.
private final class RawDatabase {
    private var handle: OpaquePointer?

    init(path: String) throws {
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
            throw RealmError(.fileAccess, "cannot open \(path)")
        }
        sqlite3_busy_timeout(handle, 5000)
    }

    deinit { sqlite3_close(handle) }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw RealmError(.storage, String(cString: sqlite3_errmsg(handle)))
        }
    }

    func integers(_ sql: String) throws -> [Int64] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw RealmError(.storage, String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        var result: [Int64] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            result.append(sqlite3_column_int64(statement, 0))
        }
        return result
    }
}

/// The indices of a property set, in order.
private func propertyIndices(_ set: PropertySet) -> [Int] { Array(set) }

private func intValue(_ value: Value) -> Int64 {
    if case .int(let int) = value { return int }
    return .min
}

@Suite struct ChangeSetTests {
    // MARK: (a) Randomized list changes

    @Test(arguments: [0x5EED_0001, 0xC0FF_EE42, 7] as [UInt64])
    func randomListOperationsProduceConsistentChanges(seed: UInt64) throws {
        let directory = TemporaryDirectory()
        let coordinator = try openCoordinator(directory, schema: ChangeSchema.schema)
        let transaction = try coordinator.makeTransaction()
        let holders = try transaction.classHandle(named: "Holder")
        var random = SplitMix64(seed: seed)
        var nextValue: Int64 = 1000

        // The model: (identity, value); replace keeps the identity.
        var model: [(id: Int, value: Int64)] = []
        var nextIdentity = 0
        func fresh() -> (id: Int, value: Int64) {
            nextIdentity += 1
            nextValue += 1
            return (nextIdentity, nextValue)
        }

        // A holder whose list is never touched, which must never appear.
        let (owner, bystander) = try transaction.write {
            let owner = try transaction.createObject(in: holders, values: [.null, .string("owner")])
            let bystander = try transaction.createObject(in: holders, values: [.null, .string("bystander")])
            let other = try transaction.list(0, of: bystander, in: holders)
            try transaction.append(.int(1), to: other)
            return (owner, bystander)
        }
        let list = try transaction.list(0, of: owner, in: holders)
        let identifier = ListIdentifier(className: "Holder", propertyIndex: 0, owner: owner)
        var totalOperations = 0

        for commit in 0..<50 {
            let old = model
            let versionBefore = try transaction.version
            try transaction.beginWrite()
            // The first commit fills the list; the others mix operations.
            let operations = commit == 0 ? 30 : Int.random(in: 1...12, using: &random)
            var log: [String] = []
            for _ in 0..<operations {
                let count = model.count
                var choice = Int.random(in: 0..<100, using: &random)
                if count == 0 || commit == 0 { choice = choice % 25 }
                switch choice {
                case 0..<15:
                    let index = Int.random(in: 0...count, using: &random)
                    let element = fresh()
                    try transaction.insert(.int(element.value), at: index, in: list)
                    model.insert(element, at: index)
                    log.append("insert \(index)")
                case 15..<25:
                    let element = fresh()
                    try transaction.append(.int(element.value), to: list)
                    model.append(element)
                    log.append("append")
                case 25..<45:
                    let index = Int.random(in: 0..<count, using: &random)
                    try transaction.remove(at: index, from: list)
                    model.remove(at: index)
                    log.append("remove \(index)")
                case 45..<65:
                    let from = Int.random(in: 0..<count, using: &random)
                    let to = Int.random(in: 0..<count, using: &random)
                    try transaction.move(from: from, to: to, in: list)
                    model.insert(model.remove(at: from), at: to)
                    log.append("move \(from)->\(to)")
                case 65..<80:
                    let first = Int.random(in: 0..<count, using: &random)
                    let second = Int.random(in: 0..<count, using: &random)
                    try transaction.swapAt(first, second, in: list)
                    model.swapAt(first, second)
                    log.append("swap \(first),\(second)")
                case 80..<97:
                    let index = Int.random(in: 0..<count, using: &random)
                    nextValue += 1
                    try transaction.replace(at: index, with: .int(nextValue), in: list)
                    model[index].value = nextValue
                    log.append("replace \(index)")
                default:
                    try transaction.removeAll(from: list)
                    model.removeAll()
                    log.append("removeAll")
                }
                totalOperations += 1
            }
            // The list as stored follows the model within the write.
            #expect(try transaction.values(of: list).map(intValue) == model.map(\.value), "commit \(commit) after \(log)")
            let changeSet = try transaction.commitWrite()
            #expect(changeSet.version == versionBefore + 1)
            let stored = try transaction.values(of: list).map(intValue)
            #expect(stored == model.map(\.value), "commit \(commit): stored list differs from the model")
            checkListChanges(changeSet.lists[identifier], old: old, new: model, context: "seed \(seed) commit \(commit) ops \(log)")
            // Only this list changed.
            #expect(changeSet.lists.keys.allSatisfy { $0 == identifier })
            #expect(changeSet.lists[ListIdentifier(className: "Holder", propertyIndex: 0, owner: bystander)] == nil)
            // The owner is modified (property 0) whenever its list changed.
            if changeSet.lists[identifier] != nil {
                #expect(changeSet.classes["Holder"]?.modifications[owner]?.contains(0) == true, "commit \(commit) ops \(log)")
            }
            #expect(changeSet.classes["Holder"]?.modifications[bystander] == nil)
        }
        #expect(totalOperations >= 200)
    }

    /// The checker used above does catch wrong change descriptions.
    @Test func listChangeCheckerRejectsWrongChanges() {
        let old = [(id: 1, value: Int64(10)), (id: 2, value: 20), (id: 3, value: 30)]
        // [1, 2, 3] → [2, 1, 3] with 2's value replaced.
        let new = [(id: 2, value: Int64(21)), (id: 1, value: 10), (id: 3, value: 30)]
        // Reported without the move, which the checker requires.
        let withoutMove = ListChanges(deletions: [0], insertions: [1], modifications: [0], moves: [], oldCount: 3, newCount: 3)
        #expect(listChangeProblems(withoutMove, old: old, new: new) == ["element 1 at 1 moved without a move"])
        let missingModification = ListChanges(deletions: [0], insertions: [1], oldCount: 3, newCount: 3)
        #expect(listChangeProblems(missingModification, old: old, new: new).contains { $0.hasPrefix("element at 0 changed") })
        let overlap = ListChanges(deletions: [1], insertions: [0], modifications: [0], oldCount: 3, newCount: 3)
        #expect(listChangeProblems(overlap, old: old, new: new).contains { $0.hasPrefix("modifications overlap insertions") })
        let wrongIndices = ListChanges(deletions: [2], insertions: [2], oldCount: 3, newCount: 3)
        #expect(listChangeProblems(wrongIndices, old: old, new: new).contains { $0.hasPrefix("applying deletions") })
        let wrongCounts = ListChanges(deletions: [0], insertions: [1], modifications: [0], oldCount: 4, newCount: 2)
        #expect(listChangeProblems(wrongCounts, old: old, new: new).contains("oldCount 4, not 3"))
        #expect(listChangeProblems(ListChanges(insertions: [5], oldCount: 3, newCount: 3), old: old, new: new).contains { $0.hasPrefix("indices out of range") })
        #expect(listChangeProblems(nil, old: old, new: new) == ["no list changes reported, but the list changed"])
        // Unchanged lists need no changes.
        #expect(listChangeProblems(nil, old: old, new: old) == [])
    }

    /// A write that leaves the list in more than 512 pieces, where the
    /// builder looks for stationary elements greedily.
    @Test func listChangesWithVeryManyRuns() throws {
        let directory = TemporaryDirectory()
        let coordinator = try openCoordinator(directory, schema: ChangeSchema.schema)
        let transaction = try coordinator.makeTransaction()
        let holders = try transaction.classHandle(named: "Holder")
        let count = 1200
        let owner = try transaction.write {
            let owner = try transaction.createObject(in: holders, values: [.null, .string("o")])
            let list = try transaction.list(0, of: owner, in: holders)
            for value in 0..<count { try transaction.append(.int(Int64(value)), to: list) }
            return owner
        }
        let list = try transaction.list(0, of: owner, in: holders)
        let old = (0..<count).map { (id: $0, value: Int64($0)) }
        var new = old
        try transaction.beginWrite()
        for index in stride(from: 0, to: count - 1, by: 2) {
            try transaction.swapAt(index, index + 1, in: list)
            new.swapAt(index, index + 1)
        }
        try transaction.move(from: 0, to: count - 1, in: list)
        new.append(new.removeFirst())
        try transaction.replace(at: 600, with: .int(-1), in: list)
        new[600].value = -1
        let changeSet = try transaction.commitWrite()
        #expect(try transaction.values(of: list).map(intValue) == new.map(\.value))
        let changes = try #require(changeSet.lists[ListIdentifier(className: "Holder", propertyIndex: 0, owner: owner)])
        checkListChanges(changes, old: old, new: new, context: "many runs")
        // Half of the elements at least stay in place.
        #expect(changes.deletions.count <= count / 2 + 1)
    }

    /// Specific sequences whose changes are known exactly.
    @Test func listChangesForKnownSequences() throws {
        let directory = TemporaryDirectory()
        let coordinator = try openCoordinator(directory, schema: ChangeSchema.schema)
        let transaction = try coordinator.makeTransaction()
        let holders = try transaction.classHandle(named: "Holder")
        let owner = try transaction.write {
            try transaction.createObject(in: holders, values: [.null, .string("o")])
        }
        let list = try transaction.list(0, of: owner, in: holders)
        let identifier = ListIdentifier(className: "Holder", propertyIndex: 0, owner: owner)
        func commit(_ body: () throws -> Void) throws -> ListChanges? {
            try transaction.beginWrite()
            try body()
            return try transaction.commitWrite().lists[identifier]
        }

        // Appends to an empty list.
        var changes = try #require(try commit {
            for value in 0..<5 { try transaction.append(.int(Int64(value)), to: list) }
        })
        #expect(changes == ListChanges(insertions: IndexSet(integersIn: 0..<5), oldCount: 0, newCount: 5))

        // A move forward is one deletion, one insertion and one move.
        changes = try #require(try commit { try transaction.move(from: 1, to: 3, in: list) })
        #expect(changes.deletions == IndexSet(integer: 1))
        #expect(changes.insertions == IndexSet(integer: 3))
        #expect(changes.moves.map { [$0.from, $0.to] } == [[1, 3]])
        #expect(changes.modifications.isEmpty)

        // Replacing is a modification at the new index.
        changes = try #require(try commit {
            try transaction.insert(.int(9), at: 0, in: list)
            try transaction.replace(at: 2, with: .int(20), in: list)
        })
        #expect(changes.insertions == IndexSet(integer: 0))
        #expect(changes.deletions.isEmpty)
        #expect(changes.modifications == IndexSet(integer: 2))

        // Insert then remove the same element: nothing to report.
        #expect(try commit {
            try transaction.insert(.int(100), at: 2, in: list)
            try transaction.remove(at: 2, from: list)
        } == nil)

        // A move there and back: nothing to report.
        #expect(try commit {
            try transaction.move(from: 0, to: 4, in: list)
            try transaction.move(from: 4, to: 0, in: list)
        } == nil)

        // Swap of two elements is reported as moves.
        let before = try transaction.values(of: list)
        changes = try #require(try commit { try transaction.swapAt(0, 5, in: list) })
        let after = try transaction.values(of: list)
        #expect(after[0] == before[5] && after[5] == before[0])
        #expect(!changes.moves.isEmpty)
        #expect(changes.modifications.isEmpty)
        for move in changes.moves {
            #expect(before[move.from] == after[move.to])
        }

        // Replacing an element inserted in the same write is just an insertion.
        changes = try #require(try commit {
            try transaction.append(.int(50), to: list)
            try transaction.replace(at: 6, with: .int(51), in: list)
        })
        #expect(changes.insertions == IndexSet(integer: 6))
        #expect(changes.modifications.isEmpty)

        // Remove all, then append: every old element deleted.
        changes = try #require(try commit {
            try transaction.removeAll(from: list)
            try transaction.append(.int(1), to: list)
        })
        #expect(changes == ListChanges(deletions: IndexSet(integersIn: 0..<7), insertions: IndexSet(integer: 0), oldCount: 7, newCount: 1))
    }

    // MARK: (b) Class-level change sets

    private struct People {
        let directory = TemporaryDirectory()
        let coordinator: Coordinator
        let transaction: Transaction
        let dogs: ClassHandle
        let people: ClassHandle

        init() throws {
            coordinator = try openCoordinator(directory)
            transaction = try coordinator.makeTransaction()
            dogs = try transaction.classHandle(named: "Dog")
            people = try transaction.classHandle(named: "Person")
        }

        func dog(_ name: String, _ age: Int64 = 1, owner: ObjectKey? = nil) throws -> ObjectKey {
            try transaction.createObject(in: dogs, values: [.string(name), .int(age), owner.map(Value.object) ?? .null])
        }
    }

    @Test func insertionsDeletionsAndModifications() throws {
        let p = try People()
        let t = p.transaction
        let startVersion = try t.version
        try t.beginWrite()
        let rex = try p.dog("Rex")
        let fido = try p.dog("Fido")
        let tim = try t.createObject(in: p.people, values: [.int(1), .string("Tim")])
        var changes = try t.commitWrite()
        #expect(changes.version == startVersion + 1)
        #expect(try t.version == changes.version)
        #expect(!changes.schemaChanged)
        #expect(changes.classes["Dog"]?.insertions == KeySet([rex, fido]))
        #expect(changes.classes["Dog"]?.deletions.isEmpty == true)
        #expect(changes.classes["Dog"]?.modifications.isEmpty == true)
        #expect(changes.classes["Person"]?.insertions == KeySet([tim]))
        #expect(changes.lists.isEmpty)

        // Modifications with their properties.
        try t.beginWrite()
        try t.setValue(.int(5), of: rex, property: 1, in: p.dogs)
        try t.setValue(.string("Fido II"), of: fido, property: 0, in: p.dogs)
        try t.setValue(.int(4), of: fido, property: 1, in: p.dogs)
        try t.setValue(.int(6), of: fido, property: 1, in: p.dogs)
        try t.setValue(.object(tim), of: fido, property: 2, in: p.dogs)
        let dogList = try t.list(2, of: tim, in: p.people)
        try t.append(.object(rex), to: dogList)
        let nicknames = try t.list(3, of: tim, in: p.people)
        try t.append(.null, to: nicknames)
        changes = try t.commitWrite()
        let dogChanges = try #require(changes.classes["Dog"])
        #expect(dogChanges.insertions.isEmpty)
        #expect(dogChanges.deletions.isEmpty)
        #expect(dogChanges.modifications.count == 2)
        #expect(dogChanges.modifications[rex].map(propertyIndices) == [1])
        #expect(dogChanges.modifications[fido].map(propertyIndices) == [0, 1, 2])
        #expect(changes.classes["Person"]?.modifications[tim].map(propertyIndices) == [2, 3])
        #expect(changes.lists.count == 2)
        #expect(changes.lists[ListIdentifier(className: "Person", propertyIndex: 2, owner: tim)] == ListChanges(insertions: IndexSet(integer: 0), oldCount: 0, newCount: 1))
        #expect(changes.lists[ListIdentifier(className: "Person", propertyIndex: 3, owner: tim)] == ListChanges(insertions: IndexSet(integer: 0), oldCount: 0, newCount: 1))

        // Deletions.
        try t.beginWrite()
        try t.setValue(.int(9), of: rex, property: 1, in: p.dogs)
        try t.deleteObject(rex, in: p.dogs)
        changes = try t.commitWrite()
        #expect(changes.classes["Dog"]?.deletions == KeySet([rex]))
        #expect(changes.classes["Dog"]?.isDeleted(rex) == true)
        #expect(changes.classes["Dog"]?.isDeleted(fido) == false)
        // A deleted object is not also modified.
        #expect(changes.classes["Dog"]?.modifications[rex] == nil)
        #expect(changes.classes["Dog"]?.insertions.isEmpty == true)
        // It was removed from Tim's list: a list change, and Tim is modified.
        #expect(changes.lists[ListIdentifier(className: "Person", propertyIndex: 2, owner: tim)] == ListChanges(deletions: IndexSet(integer: 0), oldCount: 1, newCount: 0))
        #expect(changes.classes["Person"]?.modifications[tim].map(propertyIndices) == [2])
        #expect(try t.count(of: dogList) == 0)
    }

    @Test func insertThenDeleteInOneTransactionRecordsNothing() throws {
        let p = try People()
        let t = p.transaction
        let keep = try t.write { try p.dog("Keep") }
        try t.beginWrite()
        let temporary = try p.dog("Temp")
        try t.setValue(.int(3), of: temporary, property: 1, in: p.dogs)
        let person = try t.createObject(in: p.people, values: [.int(7), .string("Tmp")])
        try t.append(.object(keep), to: t.list(2, of: person, in: p.people))
        try t.deleteObject(temporary, in: p.dogs)
        try t.deleteObject(person, in: p.people)
        let changes = try t.commitWrite()
        #expect(changes.isEmpty)
        #expect(changes.classes.values.allSatisfy { $0.isEmpty })
        #expect(changes.lists.isEmpty)
        #expect(changes.classes["Dog"]?.deletions.contains(temporary) != true)
    }

    @Test func modifyingAnObjectInsertedInTheSameTransactionIsOnlyAnInsertion() throws {
        let p = try People()
        let t = p.transaction
        let other = try t.write { try p.dog("Other") }
        try t.beginWrite()
        let rex = try p.dog("Rex")
        try t.setValue(.int(10), of: rex, property: 1, in: p.dogs)
        try t.setValue(.string("Rex!"), of: rex, property: 0, in: p.dogs)
        let tim = try t.createObject(in: p.people, values: [.int(1), .string("Tim")])
        try t.setValue(.string("Timothy"), of: tim, property: 1, in: p.people)
        try t.append(.object(other), to: t.list(2, of: tim, in: p.people))
        try t.setValue(.object(tim), of: rex, property: 2, in: p.dogs)
        let changes = try t.commitWrite()
        #expect(changes.classes["Dog"]?.insertions == KeySet([rex]))
        #expect(changes.classes["Dog"]?.modifications.isEmpty == true)
        #expect(changes.classes["Person"]?.insertions == KeySet([tim]))
        #expect(changes.classes["Person"]?.modifications.isEmpty == true)
        #expect(try t.value(of: rex, property: 1, in: p.dogs) == .int(10))
    }

    @Test func deleteAllObjectsRecordsDeletedAll() throws {
        let p = try People()
        let t = p.transaction
        let (tim, ann, dogs) = try t.write {
            let tim = try t.createObject(in: p.people, values: [.int(1), .string("Tim")])
            let ann = try t.createObject(in: p.people, values: [.int(2), .string("Ann")])
            let dogs = try (0..<4).map { try p.dog("d\($0)", owner: $0 % 2 == 0 ? tim : nil) }
            try t.append(.object(dogs[0]), to: t.list(2, of: tim, in: p.people))
            try t.append(.object(dogs[1]), to: t.list(2, of: tim, in: p.people))
            try t.append(.object(dogs[1]), to: t.list(2, of: ann, in: p.people))
            return (tim, ann, dogs)
        }

        // Deleting every dog empties the people's lists.
        try t.beginWrite()
        let late = try p.dog("late")
        try t.deleteAllObjects(in: p.dogs)
        let afterwards = try p.dog("afterwards")
        var changes = try t.commitWrite()
        let dogChanges = try #require(changes.classes["Dog"])
        #expect(dogChanges.deletedAll)
        #expect(dogChanges.deletions.isEmpty)
        #expect(dogChanges.isDeleted(dogs[3]))
        #expect(!dogChanges.insertions.contains(late))
        #expect(dogChanges.insertions == KeySet([afterwards]))
        #expect(changes.lists[ListIdentifier(className: "Person", propertyIndex: 2, owner: tim)] == ListChanges(deletions: IndexSet(integersIn: 0..<2), oldCount: 2, newCount: 0))
        #expect(changes.lists[ListIdentifier(className: "Person", propertyIndex: 2, owner: ann)] == ListChanges(deletions: IndexSet(integer: 0), oldCount: 1, newCount: 0))
        #expect(changes.classes["Person"]?.modifications[tim]?.contains(2) == true)
        #expect(changes.classes["Person"]?.modifications[ann]?.contains(2) == true)
        #expect(try t.count(of: p.dogs) == 1)

        // Deleting every person nullifies the dogs' links to them.
        try t.write { try t.setValue(.object(tim), of: afterwards, property: 2, in: p.dogs) }
        try t.beginWrite()
        try t.deleteAllObjects(in: p.people)
        changes = try t.commitWrite()
        #expect(changes.classes["Person"]?.deletedAll == true)
        #expect(changes.classes["Dog"]?.modifications[afterwards].map(propertyIndices) == [2])
        #expect(try t.value(of: afterwards, property: 2, in: p.dogs) == .null)
        #expect(changes.lists.isEmpty)
    }

    @Test func deleteAllRecordsEveryClass() throws {
        let p = try People()
        let t = p.transaction
        try t.write {
            let tim = try t.createObject(in: p.people, values: [.int(1), .string("Tim")])
            let rex = try p.dog("Rex", owner: tim)
            try t.append(.object(rex), to: t.list(2, of: tim, in: p.people))
        }
        try t.beginWrite()
        try t.deleteAll()
        let changes = try t.commitWrite()
        #expect(changes.classes["Dog"]?.deletedAll == true)
        #expect(changes.classes["Person"]?.deletedAll == true)
        #expect(changes.lists.isEmpty)
        #expect(try t.count(of: p.dogs) == 0)
        #expect(try t.count(of: p.people) == 0)
    }

    @Test func deletingAnObjectNullifiesLinksAndRemovesItFromLists() throws {
        let p = try People()
        let t = p.transaction
        let (tim, ann, rex, fido, spot) = try t.write {
            let tim = try t.createObject(in: p.people, values: [.int(1), .string("Tim")])
            let ann = try t.createObject(in: p.people, values: [.int(2), .string("Ann")])
            let rex = try p.dog("Rex", owner: tim)
            let fido = try p.dog("Fido", owner: tim)
            let spot = try p.dog("Spot", owner: ann)
            let timDogs = try t.list(2, of: tim, in: p.people)
            for dog in [rex, fido, spot, fido] { try t.append(.object(dog), to: timDogs) }
            try t.append(.object(fido), to: t.list(2, of: ann, in: p.people))
            return (tim, ann, rex, fido, spot)
        }

        // Deleting Tim: Rex's and Fido's owner become nil, Spot is untouched.
        try t.beginWrite()
        try t.deleteObject(tim, in: p.people)
        var changes = try t.commitWrite()
        #expect(changes.classes["Person"]?.deletions == KeySet([tim]))
        let dogChanges = try #require(changes.classes["Dog"])
        #expect(Set(dogChanges.modifications.keys) == [rex, fido])
        #expect(dogChanges.modifications[rex].map(propertyIndices) == [2])
        #expect(dogChanges.modifications[fido].map(propertyIndices) == [2])
        #expect(try t.value(of: rex, property: 2, in: p.dogs) == .null)
        #expect(try t.value(of: spot, property: 2, in: p.dogs) == .object(ann))
        // Tim's own list is gone with him and not reported.
        #expect(changes.lists.isEmpty)

        // Deleting Fido removes both of its entries from Ann's list.
        try t.write {
            let annDogs = try t.list(2, of: ann, in: p.people)
            try t.insert(.object(rex), at: 0, in: annDogs)
            try t.append(.object(spot), to: annDogs)
            try t.append(.object(fido), to: annDogs)
        }
        // Ann's dogs: [rex, fido, spot, fido].
        try t.beginWrite()
        try t.deleteObject(fido, in: p.dogs)
        changes = try t.commitWrite()
        #expect(changes.classes["Dog"]?.deletions == KeySet([fido]))
        #expect(changes.lists[ListIdentifier(className: "Person", propertyIndex: 2, owner: ann)] == ListChanges(deletions: [1, 3], oldCount: 4, newCount: 2))
        #expect(changes.classes["Person"]?.modifications[ann].map(propertyIndices) == [2])
        #expect(try t.values(of: t.list(2, of: ann, in: p.people)) == [.object(rex), .object(spot)])
    }

    @Test func deletingSeveralObjectsFromOneList() throws {
        let p = try People()
        let t = p.transaction
        let (tim, dogs) = try t.write {
            let tim = try t.createObject(in: p.people, values: [.int(1), .string("Tim")])
            let dogs = try (0..<6).map { try p.dog("d\($0)") }
            for dog in dogs { try t.append(.object(dog), to: t.list(2, of: tim, in: p.people)) }
            return (tim, dogs)
        }
        try t.beginWrite()
        try t.deleteObjects([dogs[4], dogs[1], dogs[2]], in: p.dogs)
        let changes = try t.commitWrite()
        #expect(changes.classes["Dog"]?.deletions == KeySet([dogs[1], dogs[2], dogs[4]]))
        #expect(changes.classes["Dog"]?.deletions.ranges.count == 2)
        #expect(changes.lists[ListIdentifier(className: "Person", propertyIndex: 2, owner: tim)] == ListChanges(deletions: [1, 2, 4], oldCount: 6, newCount: 3))
        #expect(try t.values(of: t.list(2, of: tim, in: p.people)) == [dogs[0], dogs[3], dogs[5]].map(Value.object))
    }

    @Test func failedOperationsRecordNothing() throws {
        let p = try People()
        let t = p.transaction
        let tim = try t.write { try t.createObject(in: p.people, values: [.int(1), .string("Tim")]) }
        try t.beginWrite()
        #expect(throws: RealmError.self) { try t.createObject(in: p.people, values: [.int(1), .string("Dup")]) }
        #expect(throws: RealmError.self) { try t.setValue(.string("x"), of: tim, property: 0, in: p.people) }
        #expect(throws: RealmError.self) { try t.deleteObjects([tim, ObjectKey(999)], in: p.people) }
        #expect(throws: RealmError.self) { try t.append(.int(1), to: t.list(2, of: tim, in: p.people)) }
        let changes = try t.commitWrite()
        #expect(changes.isEmpty)
        #expect(try t.objectExists(tim, in: p.people))
    }

    // MARK: (c) Change sets from history

    /// Runs `count` commits of varied content and returns their change sets.
    private func varietyOfCommits(_ count: Int, from firstCommit: Int = 0, transaction t: Transaction) throws -> [ChangeSet] {
        let dogs = try t.classHandle(named: "Dog")
        let people = try t.classHandle(named: "Person")
        let holders = try t.classHandle(named: "Holder")
        let wides = try t.classHandle(named: "Wide")
        var random = SplitMix64(seed: 99)
        var result: [ChangeSet] = []
        var holder: ObjectKey?
        var wide: ObjectKey?
        for commit in firstCommit..<(firstCommit + count) {
            try t.beginWrite()
            switch commit % 7 {
            case 0:
                // Many inserts: a large change set that is compressed.
                for index in 0..<Int.random(in: 20...60, using: &random) {
                    try t.createObject(in: dogs, values: [.string("dog \(commit).\(index)"), .int(Int64(index))])
                }
            case 1:
                // Modifications of scattered objects.
                let keys = try t.objectKeys(in: dogs)
                for key in keys where Bool.random(using: &random) {
                    try t.setValue(.int(Int64(commit)), of: key, property: 1, in: dogs)
                }
                if let key = keys.first { try t.setValue(.string("first"), of: key, property: 0, in: dogs) }
            case 2:
                let personID = Int64(commit)
                let person = try t.createObject(in: people, values: [.int(personID), .string("p\(personID)")])
                let list = try t.list(2, of: person, in: people)
                for key in try t.objectKeys(in: dogs).prefix(5) { try t.append(.object(key), to: list) }
                try t.append(.string("nick"), to: t.list(3, of: person, in: people))
            case 3:
                // Deletions in ranges, some of them linked from lists.
                let keys = try t.objectKeys(in: dogs)
                try t.deleteObjects(keys.enumerated().filter { $0.offset % 3 == 0 }.map(\.element), in: dogs)
            case 4:
                if holder == nil {
                    holder = try t.createObject(in: holders, values: [.null, .string("h")])
                    wide = try t.createObject(in: wides)
                }
                let list = try t.list(0, of: holder!, in: holders)
                for _ in 0..<Int.random(in: 1...15, using: &random) {
                    let count = try t.count(of: list)
                    switch Int.random(in: 0..<5, using: &random) {
                    case 0 where count > 0: try t.remove(at: Int.random(in: 0..<count, using: &random), from: list)
                    case 1 where count > 1: try t.move(from: 0, to: count - 1, in: list)
                    case 2 where count > 0: try t.replace(at: count / 2, with: .int(-1), in: list)
                    case 3 where count > 2: try t.swapAt(0, 2, in: list)
                    default: try t.insert(.int(Int64(commit)), at: Int.random(in: 0...count, using: &random), in: list)
                    }
                }
                // Properties above 64 in the change set.
                try t.setValue(.int(Int64(commit)), of: wide!, property: 66, in: wides)
                try t.setValue(.int(Int64(commit)), of: wide!, property: 3, in: wides)
                try t.setValue(.int(Int64(commit)), of: wide!, property: ChangeSchema.wideCount - 1, in: wides)
            case 5:
                if commit % 14 == 5 {
                    try t.deleteAllObjects(in: dogs)
                    try t.createObject(in: dogs, values: [.string("survivor")])
                }
                // Otherwise an empty commit.
            default:
                // Deleting a person nullifies links and drops its lists.
                if let person = try t.objectKeys(in: people).first {
                    if let dog = try t.objectKeys(in: dogs).first {
                        try t.setValue(.object(person), of: dog, property: 2, in: dogs)
                    }
                    try t.deleteObject(person, in: people)
                }
            }
            result.append(try t.commitWrite())
        }
        return result
    }

    @Test func changeSetsAfterAVersionMatchTheCommits() throws {
        let directory = TemporaryDirectory()
        let coordinator = try openCoordinator(directory, schema: ChangeSchema.schema)
        let transaction = try coordinator.makeTransaction()
        let start = try transaction.version
        let committed = try varietyOfCommits(10, transaction: transaction)
        #expect(committed.map(\.version) == (1...10).map { start + UInt64($0) })
        #expect(try transaction.changeSets(after: start) == committed)
        #expect(try transaction.changeSets(after: start + 4) == Array(committed.dropFirst(4)))
        #expect(try transaction.changeSets(after: start + 10) == [])
        #expect(try transaction.changeSets(after: start + 20) == [])
        // Another transaction of the same coordinator sees the same.
        let other = try coordinator.makeTransaction()
        #expect(try other.changeSets(after: start + 7) == Array(committed.dropFirst(7)))
    }

    @Test func changeSetsFromTheFileHistoryMatchTheCommits() throws {
        let directory = TemporaryDirectory()
        let coordinator = try openCoordinator(directory, schema: ChangeSchema.schema)
        let transaction = try coordinator.makeTransaction()
        let start = try transaction.version
        let committed = try varietyOfCommits(90, transaction: transaction)
        #expect(try transaction.version == start + 90)
        // Some change sets are large enough to be stored compressed, and
        // some name properties above 64.
        #expect(committed.contains { $0.classes["Dog"]?.insertions.count ?? 0 >= 20 })
        #expect(committed.contains { $0.classes["Wide"]?.modifications.values.contains { $0.contains(66) } == true })
        #expect(committed.contains { $0.classes["Dog"]?.deletedAll == true })
        #expect(committed.contains { !$0.lists.isEmpty })

        // The in-memory cache no longer covers the early commits…
        #expect(coordinator.recentChangeSets(after: start) == nil)
        #expect(coordinator.recentChangeSets(after: start + 80) == Array(committed.dropFirst(80)))
        // …so these come from the file's history.
        let fromHistory = try #require(try transaction.changeSets(after: start))
        #expect(fromHistory.count == committed.count)
        for (stored, original) in zip(fromHistory, committed) {
            #expect(stored == original, "version \(original.version)")
        }
        #expect(try transaction.changeSets(after: start + 5) == Array(committed.dropFirst(5)))
        #expect(try transaction.changeSets(after: start + 26) == Array(committed.dropFirst(26)))
        // A fresh transaction reads the same history.
        let other = try coordinator.makeTransaction()
        #expect(try other.changeSets(after: start + 1) == Array(committed.dropFirst(1)))

        // Some of the history rows were stored compressed (format byte 1).
        let database = try RawDatabase(path: directory.path())
        let formats = try database.integers("SELECT DISTINCT CAST(hex(substr(changes, 1, 1)) AS INTEGER) FROM realm_history WHERE version > \(start) ORDER BY 1")
        #expect(formats == [0, 1])

        // A damaged history row is missing history: nil, not a wrong answer.
        try database.execute("UPDATE realm_history SET changes = x'01ff0000' WHERE version = \(start + 10)")
        let afterDamage = try coordinator.makeTransaction()
        #expect(try afterDamage.changeSets(after: start) == nil)
        #expect(try afterDamage.changeSets(after: start + 9) == nil)
        #expect(try afterDamage.changeSets(after: start + 10) == Array(committed.dropFirst(10)))
        // So is a missing one.
        try database.execute("DELETE FROM realm_history WHERE version = \(start + 20)")
        let afterDelete = try coordinator.makeTransaction()
        #expect(try afterDelete.changeSets(after: start + 15) == nil)
        #expect(try afterDelete.changeSets(after: start + 20) == Array(committed.dropFirst(20)))
    }

    @Test func changeSetsOfAReaderPinnedAtAnOldVersion() throws {
        let directory = TemporaryDirectory()
        let coordinator = try openCoordinator(directory, schema: ChangeSchema.schema)
        let writer = try coordinator.makeTransaction()
        let start = try writer.version
        let first = try varietyOfCommits(3, transaction: writer)
        let reader = try coordinator.makeTransaction()
        #expect(try reader.version == start + 3)
        let later = try varietyOfCommits(4, from: 3, transaction: writer)
        // The reader only sees the commits up to its own version.
        #expect(try reader.version == start + 3)
        #expect(try reader.changeSets(after: start) == first)
        #expect(try reader.changeSets(after: start + 3) == [])
        try reader.refresh()
        #expect(try reader.changeSets(after: start) == first + later)
        #expect(try reader.changeSets(after: start + 3) == later)
    }

    @Test func cancelledWritesRecordNothing() throws {
        let p = try People()
        let t = p.transaction
        let rex = try t.write { try p.dog("Rex") }
        try t.beginWrite()
        try t.setValue(.int(40), of: rex, property: 1, in: p.dogs)
        _ = try p.dog("Cancelled")
        t.cancelWrite()
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try t.write {
                try t.setValue(.string("Rex?"), of: rex, property: 0, in: p.dogs)
                throw Failure()
            }
        }
        try t.beginWrite()
        try t.setValue(.int(2), of: rex, property: 1, in: p.dogs)
        let changes = try t.commitWrite()
        #expect(changes.classes["Dog"]?.insertions.isEmpty == true)
        #expect(changes.classes["Dog"]?.modifications == [rex: { var set = PropertySet(); set.insert(1); return set }()])
        #expect(try t.value(of: rex, property: 0, in: p.dogs) == .string("Rex"))
        #expect(try t.count(of: p.dogs) == 1)
    }

    // MARK: (d) KeySet and PropertySet

    @Test func keySetMergesRanges() {
        var keys = KeySet()
        #expect(keys.isEmpty)
        #expect(keys.count == 0)
        for key in [1, 2, 3] as [Int64] { keys.insert(ObjectKey(key)) }
        #expect(keys.ranges == [1...3])
        keys.insert(ObjectKey(5))
        #expect(keys.ranges == [1...3, 5...5])
        keys.insert(ObjectKey(4))
        #expect(keys.ranges == [1...5])
        keys.insert(ObjectKey(10))
        keys.insert(ObjectKey(8))
        #expect(keys.ranges == [1...5, 8...8, 10...10])
        keys.insert(ObjectKey(9))
        #expect(keys.ranges == [1...5, 8...10])
        keys.insert(ObjectKey(7))
        #expect(keys.ranges == [1...5, 7...10])
        keys.insert(ObjectKey(0))
        keys.insert(ObjectKey(-5))
        #expect(keys.ranges == [-5 ... -5, 0...5, 7...10])
        // Inserting a present key changes nothing.
        keys.insert(ObjectKey(3))
        keys.insert(ObjectKey(10))
        keys.insert(ObjectKey(-5))
        #expect(keys.ranges == [-5 ... -5, 0...5, 7...10])
        keys.insert(ObjectKey(6))
        #expect(keys.ranges == [-5 ... -5, 0...10])
        #expect(keys.count == 12)
        #expect(keys.description == "[-5, 0...10]")
    }

    @Test func keySetRemoveSplitsRanges() {
        var keys = KeySet((1...10).map { ObjectKey(Int64($0)) })
        #expect(keys.ranges == [1...10])
        func remove(_ key: Int64) -> Bool { keys.remove(ObjectKey(key)) }
        #expect(remove(5))
        #expect(keys.ranges == [1...4, 6...10])
        #expect(!remove(5))
        #expect(remove(1))
        #expect(remove(10))
        #expect(keys.ranges == [2...4, 6...9])
        #expect(!remove(0))
        #expect(!remove(100))
        #expect(remove(3))
        #expect(keys.ranges == [2...2, 4...4, 6...9])
        #expect(remove(2))
        #expect(remove(4))
        #expect(keys.ranges == [6...9])
        #expect(keys.count == 4)
        keys.removeAll()
        #expect(keys.isEmpty)
        #expect(!remove(6))
    }

    @Test func keySetContainsCountAndOrder() {
        let keys = KeySet([9, 3, 4, 20, 2, 21, -1, 7].map { ObjectKey(Int64($0)) })
        #expect(keys.ranges == [-1 ... -1, 2...4, 7...7, 9...9, 20...21])
        #expect(keys.count == 8)
        #expect(Array(keys) == [-1, 2, 3, 4, 7, 9, 20, 21].map { ObjectKey(Int64($0)) })
        for present in [-1, 2, 3, 4, 7, 9, 20, 21] as [Int64] {
            #expect(keys.contains(ObjectKey(present)))
        }
        for absent in [-2, 0, 1, 5, 6, 8, 10, 19, 22, .max, .min] as [Int64] {
            #expect(!keys.contains(ObjectKey(absent)))
        }
        // Order of insertion does not matter for equality.
        let same = KeySet([21, 20, 9, 7, 4, 3, 2, -1].map { ObjectKey(Int64($0)) })
        #expect(same == keys)
        #expect(same.hashValue == keys.hashValue)
        #expect(KeySet() == KeySet([ObjectKey]()))
        #expect(KeySet().description == "[]")
    }

    @Test func keySetMatchesASetModel() {
        var random = SplitMix64(seed: 4242)
        var keys = KeySet()
        var model = Set<Int64>()
        for step in 0..<5000 {
            let key = Int64.random(in: -20...200, using: &random)
            if Int.random(in: 0..<3, using: &random) == 0 {
                let removed = keys.remove(ObjectKey(key))
                #expect(removed == (model.remove(key) != nil), "step \(step)")
            } else {
                keys.insert(ObjectKey(key))
                model.insert(key)
            }
            if step % 97 == 0 || step == 4999 {
                #expect(keys.count == model.count)
                #expect(Array(keys).map(\.rawValue) == model.sorted())
                // Ranges are sorted, disjoint and not adjacent.
                for (a, b) in zip(keys.ranges, keys.ranges.dropFirst()) {
                    #expect(a.upperBound + 1 < b.lowerBound, "ranges \(a) and \(b) at step \(step)")
                }
                for probe in -22...202 {
                    #expect(keys.contains(ObjectKey(Int64(probe))) == model.contains(Int64(probe)))
                }
            }
        }
    }

    @Test func propertySetBasics() {
        var set = PropertySet()
        #expect(set.isEmpty)
        #expect(Array(set) == [])
        #expect(set.description == "{}")
        for index in [5, 0, 63, 64, 127, 128, 200, 64] { set.insert(index) }
        #expect(!set.isEmpty)
        #expect(Array(set) == [0, 5, 63, 64, 127, 128, 200])
        for index in [0, 5, 63, 64, 127, 128, 200] { #expect(set.contains(index)) }
        for index in [1, 62, 65, 126, 129, 199, 201, 256, 1000] { #expect(!set.contains(index)) }
        #expect(set.description == "{0, 5, 63, 64, 127, 128, 200}")

        // Only high indices.
        var high = PropertySet()
        high.insert(300)
        #expect(!high.isEmpty)
        #expect(Array(high) == [300])
        #expect(!high.contains(44))
        #expect(!high.contains(236))

        // Union with sets of different widths, in both directions.
        var small = PropertySet()
        small.insert(1)
        var union = small
        union.formUnion(high)
        #expect(Array(union) == [1, 300])
        var reversed = high
        reversed.formUnion(small)
        #expect(reversed == union)
        union.formUnion(set)
        #expect(Array(union) == [0, 1, 5, 63, 64, 127, 128, 200, 300])
        union.formUnion(PropertySet())
        #expect(Array(union) == [0, 1, 5, 63, 64, 127, 128, 200, 300])

        // Equality does not depend on insertion order.
        var a = PropertySet()
        var b = PropertySet()
        for index in [3, 70, 140] { a.insert(index) }
        for index in [140, 3, 70] { b.insert(index) }
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
    }
}
