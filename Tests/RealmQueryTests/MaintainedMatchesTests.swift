import Foundation
import RealmCore
import RealmQuery
import Testing

/// Matches kept current from change sets agree with running the query
/// again, and report exactly the changes that turn the old into the new.
@Suite struct MaintainedMatchesTests {
    static let schema = Schema([
        ObjectSchema(name: "Item", properties: [
            Property(name: "name", type: .string),
            Property(name: "score", type: .int),
            Property(name: "owner", type: .object, isOptional: true, objectClassName: "Owner"),
        ]),
        ObjectSchema(name: "Owner", properties: [Property(name: "name", type: .string)]),
    ])

    static func changeSets(_ realm: TestRealm, after version: UInt64) throws -> [ChangeSet] {
        try #require(try realm.transaction.changeSets(after: version))
    }

    @Test func aOneObjectCommitIsAMoveOrAModification() throws {
        let realm = try TestRealm(schema: Self.schema)
        var keys: [ObjectKey] = []
        try realm.transaction.write {
            for index in 0..<100 { keys.append(try realm.create("Item", ["name": .string("i\(index)"), "score": .int(Int64(index))])) }
        }
        let query = try realm.query("Item", "score >= 10", sort: [SortDescriptor(keyPath: "score", ascending: false)])
        var matches = try #require(try MaintainedMatches(query: query, in: realm.transaction))
        #expect(matches.keys == Array(keys[10...].reversed()))
        let version = try realm.transaction.version
        let handle = try realm.transaction.classHandle(named: "Item")

        // Renaming keeps the place: a modification.
        try realm.transaction.write { try realm.transaction.setValue(.string("renamed"), of: keys[50], property: 0, in: handle) }
        var changes = try #require(try matches.update(after: try Self.changeSets(realm, after: version), in: realm.transaction))
        #expect(changes.deletions.isEmpty && changes.insertions.isEmpty)
        #expect(changes.modifiedInPlace == [49])

        // A new score moves it to the front: deleted at 49, inserted at 0.
        let second = try realm.transaction.version
        try realm.transaction.write { try realm.transaction.setValue(.int(1000), of: keys[50], property: 1, in: handle) }
        changes = try #require(try matches.update(after: try Self.changeSets(realm, after: second), in: realm.transaction))
        #expect(changes.deletions == [49])
        #expect(changes.insertions == [0])
        #expect(matches.keys == (try query.objectKeys(in: realm.transaction)))

        // Changes to another class leave the matches alone.
        let third = try realm.transaction.version
        try realm.transaction.write { _ = try realm.create("Owner", ["name": .string("o")]) }
        changes = try #require(try matches.update(after: try Self.changeSets(realm, after: third), in: realm.transaction))
        #expect(changes.deletions.isEmpty && changes.insertions.isEmpty && changes.modifiedInPlace.isEmpty)
    }

    @Test func queriesThatReadOtherClassesAreNotMaintained() throws {
        let realm = try TestRealm(schema: Self.schema)
        #expect(try MaintainedMatches(query: realm.query("Item", "owner.name == 'x'"), in: realm.transaction) == nil)
        #expect(try MaintainedMatches(query: realm.query("Item", "TRUEPREDICATE", distinct: ["score"]), in: realm.transaction) == nil)
        #expect(try MaintainedMatches(query: realm.query("Item", "name LIKE[d] 'x'"), in: realm.transaction) == nil)
        #expect(try MaintainedMatches(query: realm.query("Item", "score > 1", sort: [SortDescriptor(keyPath: "owner.name")]), in: realm.transaction) == nil)
    }

    @Test func randomCommitsAgreeWithTheQuery() throws {
        let realm = try TestRealm(schema: Self.schema)
        let handle = try realm.transaction.classHandle(named: "Item")
        var seed: UInt64 = 42
        func random(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        var live: [ObjectKey] = []
        try realm.transaction.write {
            for _ in 0..<300 { live.append(try realm.create("Item", ["name": .string("n\(random(30))"), "score": .int(Int64(random(40)))])) }
        }
        let query = try realm.query("Item", "score BETWEEN {5, 30} AND name != 'n3'",
                                    sort: [SortDescriptor(keyPath: "score"), SortDescriptor(keyPath: "name", ascending: false)])
        var matches = try #require(try MaintainedMatches(query: query, in: realm.transaction))
        var maintainedUpdates = 0
        for round in 0..<300 {
            let before = matches.keys
            let version = try realm.transaction.version
            try realm.transaction.write {
                // Few edits are made in place; some dozens take the copying
                // path; past the limit the query runs again.
                for _ in 0..<(round % 50 == 0 ? 80 : round % 7 == 0 ? 30 : 1 + random(3)) {
                    switch random(4) {
                    case 0:
                        live.append(try realm.create("Item", ["name": .string("n\(random(30))"), "score": .int(Int64(random(40)))]))
                    case 1 where live.count > 100:
                        try realm.transaction.deleteObject(live.remove(at: random(live.count)), in: handle)
                    case 2:
                        try realm.transaction.setValue(.string("n\(random(30))"), of: live[random(live.count)], property: 0, in: handle)
                    default:
                        try realm.transaction.setValue(.int(Int64(random(40))), of: live[random(live.count)], property: 1, in: handle)
                    }
                }
            }
            let expected = try query.objectKeys(in: realm.transaction)
            guard let changes = try matches.update(after: try Self.changeSets(realm, after: version), in: realm.transaction) else {
                matches = try #require(try MaintainedMatches(query: query, in: realm.transaction))
                #expect(matches.keys == expected)
                continue
            }
            maintainedUpdates += 1
            #expect(matches.keys == expected)
            // The deletions and insertions turn the old keys into the new.
            var applied = before
            for index in changes.deletions.reversed() { applied.remove(at: index) }
            for index in changes.insertions { applied.insert(expected[index], at: index) }
            #expect(applied == expected)
        }
        #expect(maintainedUpdates > 250)
    }
}

/// Cursors stream keys with rows, in batches, and can stop reading rows.
@Suite struct CursorTests {
    @Test func aCursorCanStopReadingRows() throws {
        let realm = try TestRealm(schema: MaintainedMatchesTests.schema)
        var keys: [ObjectKey] = []
        try realm.transaction.write {
            for index in 0..<600 { keys.append(try realm.create("Item", ["name": .string("i\(index)"), "score": .int(Int64(index))])) }
        }
        let query = try realm.query("Item", "score >= 100", sort: [SortDescriptor(keyPath: "score", ascending: false)])
        let cursor = try query.makeCursor(in: realm.transaction, firstBatchSize: 10)
        var seen: [ObjectKey] = []
        while let element = try cursor.next() {
            if seen.count < 10 {
                let batch = try #require(element.batch)
                #expect(batch.value(row: element.row, property: 1) == .int(Int64(599 - seen.count)))
            } else if seen.count >= 10 + ObjectCursor.rowsPerBatch {
                #expect(element.batch == nil)
            }
            seen.append(element.key)
            if seen.count == 10 + ObjectCursor.rowsPerBatch { cursor.stopReadingRows() }
        }
        #expect(seen == Array(keys[100...].reversed()))
    }
}

/// A cursor streaming in place hands out its statement's row, one at a
/// time, and copies it on request for an object that outlives it.
@Suite struct InPlaceCursorTests {
    static func fixture() throws -> TestRealm {
        let realm = try TestRealm(schema: MaintainedMatchesTests.schema)
        try realm.transaction.write {
            for index in 0..<600 { _ = try realm.create("Item", ["name": .string("i\(index)"), "score": .int(Int64(index))]) }
        }
        return realm
    }

    @Test func eachRowIsReadInPlaceWhileTheCursorStandsOnIt() throws {
        let realm = try Self.fixture()
        let cursor = try realm.query("Item", "score >= 100").makeCursor(in: realm.transaction)
        let row = try #require(cursor.readRowsInPlace())
        var positions: Set<Int> = []
        var seen = 0
        var previous: Int?
        while let element = try cursor.next() {
            #expect(element.isInPlace && element.batch == nil)
            #expect(row.isAt( element.row))
            if let previous { #expect(!row.isAt( previous)) }
            #expect(realm.transaction.isCurrent(row.stamp))
            let score = Int64(100 + seen)
            let at = element.row, transaction = realm.transaction
            #expect(row.int64(of: 1, at: at, in: transaction) == score)
            #expect(row.value(of: 0, at: at, in: transaction) == .string("i\(score)"))
            #expect(row.value(of: 2, at: at, in: transaction) == .null)
            // A typed read of another type's property answers nil.
            #expect(row.double(of: 1, at: at, in: transaction) == nil && row.bool(of: 1, at: at, in: transaction) == nil
                && row.int64(of: 0, at: at, in: transaction) == nil)
            // So does a read at a position the cursor left.
            if let previous { #expect(row.int64(of: 1, at: previous, in: transaction) == nil) }
            positions.insert(element.row)
            previous = element.row
            seen += 1
        }
        #expect(seen == 500)
        #expect(positions.count == 500)
        // Finished: the last row is left.
        let last = try #require(previous)
        #expect(!row.isAt( last))
        #expect(row.value(of: 0, at: last, in: realm.transaction) == nil)
        #expect(row.value(of: 0, at: row.position, in: realm.transaction) == nil)
        #expect(cursor.copyCurrentRow() == nil)
    }

    @Test func aCopiedRowOutlivesTheCursorsStep() throws {
        let realm = try Self.fixture()
        let cursor = try realm.query("Item", "score < 300").makeCursor(in: realm.transaction)
        _ = cursor.readRowsInPlace()
        var copies: [(batch: RowBatch, row: Int)] = []
        while try cursor.next() != nil {
            copies.append(try #require(cursor.copyCurrentRow()))
        }
        #expect(copies.count == 300)
        for (index, copy) in copies.enumerated() {
            #expect(copy.batch.value(row: copy.row, property: 1) == .int(Int64(index)))
            #expect(copy.batch.value(row: copy.row, property: 0) == .string("i\(index)"))
        }
        // Copies share batches, small at first, growing to `rowsPerBatch`
        // rows: 16, 64, then 256.
        #expect(Set(copies.map { ObjectIdentifier($0.batch) }).count == 3)
        #expect(copies[15].batch === copies[0].batch && copies[16].batch !== copies[15].batch)
    }

    @Test func aChangeLeavesTheRow() throws {
        let realm = try Self.fixture()
        let cursor = try realm.query("Item", "score >= 0").makeCursor(in: realm.transaction)
        let row = try #require(cursor.readRowsInPlace())
        let first = try #require(try cursor.next())
        #expect(row.isAt( first.row))
        try realm.transaction.write {
            _ = try realm.create("Item", ["name": .string("new"), "score": .int(-1)])
        }
        // The cursor was detached: the rest come as keys, read by key.
        #expect(!row.isAt( first.row))
        #expect(row.value(of: 1, at: first.row, in: realm.transaction) == nil)
        #expect(row.value(of: 1, at: row.position, in: realm.transaction) == nil)
        var rest = 0
        while let element = try cursor.next() {
            #expect(!element.isInPlace && element.batch == nil)
            rest += 1
        }
        #expect(rest == 599)
    }
}
