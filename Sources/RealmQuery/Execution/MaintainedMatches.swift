import Foundation
import RealmCore

/// The ordered matches of a query over a class, kept current from the
/// change sets of later commits rather than by running the query again.
///
/// When a query reads only its class's own columns (no links, lists or
/// subqueries), a commit can change its matches only through the objects
/// of that class it inserted, modified or deleted. So after a commit, only
/// those objects are tested, with the query narrowed to their keys, and
/// placed by their sort values among the others: a one-object commit under
/// 100,000 sorted matches reads one row, not 100,000.
///
/// Queries that read other classes, apply distinct, or need Swift to
/// filter or sort are not maintained (``init(query:in:)`` returns nil), nor
/// are commits that change the schema, delete every object of the class, or
/// touch so many objects that running the query again costs no more
/// (``update(after:in:)`` returns nil); the caller then runs the query.
public struct MaintainedMatches {
    /// The keys of the matches, in the query's order.
    public private(set) var keys: [ObjectKey]
    /// The sort values of each match, `ascending.count` per match.
    private var sortValues: ContiguousArray<Value>
    private let ascending: [Bool]
    private let query: Query

    /// The class of the matches.
    public var className: String { query.className }

    /// What a commit changed, in the terms of collection notifications.
    public struct Changes {
        /// Indices, in the previous matches, of objects no longer there (or
        /// moved: a move is a deletion and an insertion).
        public var deletions: [Int]
        /// Indices, in the new matches, of objects that entered (or moved).
        public var insertions: [Int]
        /// Indices, in the new matches, of objects the commits modified
        /// that stayed in place.
        public var modifiedInPlace: [Int]
    }

    /// Evaluates `query`; nil when its matches cannot be maintained.
    public init?(query: Query, in transaction: Transaction) throws {
        guard case .table = query.source, query.distinct.isEmpty else { return nil }
        _ = try transaction.version
        guard transaction.schema[query.className] != nil else { return nil }
        let plan = try QueryPlanner(query, in: transaction).plan()
        guard plan.isFlat, plan.sortedKeysStatement() != nil else { return nil }
        self.query = query
        ascending = plan.sortTerms.map(\.ascending)
        (keys, sortValues) = try Self.matches(plan, in: transaction)
    }

    /// Brings the matches up to date with `changeSets` (the commits since
    /// the last update, oldest first), returning what changed; nil when the
    /// caller should run the query again instead.
    public mutating func update(after changeSets: [ChangeSet], in transaction: Transaction) throws -> Changes? {
        var deleted = KeySet()
        var candidates = Set<ObjectKey>()
        for changeSet in changeSets {
            if changeSet.schemaChanged { return nil }
            guard let changes = changeSet.classes[query.className] else { continue }
            if changes.deletedAll { return nil }
            for key in changes.deletions { deleted.insert(key) }
            for key in changes.insertions {
                // Deleted, then created again with the same primary key (its
                // key): matching by key would take it for the old object.
                if deleted.contains(key) { return nil }
                candidates.insert(key)
            }
            for key in changes.modifications.keys { candidates.insert(key) }
        }
        candidates = candidates.filter { !deleted.contains($0) }
        if candidates.isEmpty && deleted.isEmpty { return Changes(deletions: [], insertions: [], modifiedInPlace: []) }
        // Past this, one pass of the query is as cheap as testing each.
        if candidates.count > max(64, keys.count / 8) { return nil }

        var narrowed = query
        narrowed.predicate = query.predicate.and(.compare(.keyPath("SELF"), .in, .values(candidates.map { .object($0) })))
        let plan = try QueryPlanner(narrowed, in: transaction).plan()
        let (matchedKeys, matchedSortValues) = try Self.matches(plan, in: transaction)
        if candidates.count + deleted.count <= Self.fewChanges {
            return updateInPlace(deleted: deleted, candidates: candidates, matchedKeys: matchedKeys, matchedSortValues: matchedSortValues)
        }

        // The objects the commits did not touch keep their order: the
        // stationary ones. Candidates leave, and re-enter where their sort
        // values place them among the stationary ones.
        let width = ascending.count
        var stationaryKeys: [ObjectKey] = []
        stationaryKeys.reserveCapacity(keys.count)
        var stationarySortValues = ContiguousArray<Value>()
        stationarySortValues.reserveCapacity(sortValues.count)
        var deletions: [Int] = []
        // A candidate that was a match: its old index, and how many
        // stationary matches preceded it.
        var leaving: [ObjectKey: (index: Int, rank: Int)] = [:]
        for (index, key) in keys.enumerated() {
            if deleted.contains(key) {
                deletions.append(index)
            } else if candidates.contains(key) {
                leaving[key] = (index, stationaryKeys.count)
            } else {
                stationaryKeys.append(key)
                stationarySortValues.append(contentsOf: sortValues[index * width ..< (index + 1) * width])
            }
        }

        let (ranks, inPlace) = placements(of: matchedKeys, matchedSortValues, among: stationaryKeys, stationarySortValues,
                                          leaving: leaving)

        var newKeys: [ObjectKey] = []
        newKeys.reserveCapacity(stationaryKeys.count + matchedKeys.count)
        var newSortValues = ContiguousArray<Value>()
        newSortValues.reserveCapacity((stationaryKeys.count + matchedKeys.count) * width)
        var insertions: [Int] = []
        var modifiedInPlace: [Int] = []
        var stationaryCopied = 0
        for position in matchedKeys.indices {
            let rank = ranks[position]
            newKeys.append(contentsOf: stationaryKeys[stationaryCopied ..< rank])
            newSortValues.append(contentsOf: stationarySortValues[stationaryCopied * width ..< rank * width])
            stationaryCopied = rank
            let key = matchedKeys[position]
            if inPlace.contains(position) {
                leaving[key] = nil
                modifiedInPlace.append(newKeys.count)
            } else {
                insertions.append(newKeys.count)
            }
            newKeys.append(key)
            newSortValues.append(contentsOf: matchedSortValues[position * width ..< (position + 1) * width])
        }
        newKeys.append(contentsOf: stationaryKeys[stationaryCopied...])
        newSortValues.append(contentsOf: stationarySortValues[(stationaryCopied * width)...])

        // Candidates that were matches and are not in place: gone or moved.
        for (_, old) in leaving { deletions.append(old.index) }
        deletions.sort()
        keys = newKeys
        sortValues = newSortValues
        return Changes(deletions: deletions, insertions: insertions, modifiedInPlace: modifiedInPlace)
    }

    /// Up to this many touched objects, the matches are edited in place:
    /// the touched ones are found by a scan that compares keys (no copy,
    /// no hashing) and removed and inserted with memory moves, so a small
    /// commit under 100,000 matches costs well under a millisecond.
    static let fewChanges = 16

    /// ``update(after:in:)`` for a few touched objects.
    private mutating func updateInPlace(deleted: KeySet, candidates: Set<ObjectKey>,
                                        matchedKeys: [ObjectKey], matchedSortValues: ContiguousArray<Value>) -> Changes {
        let width = ascending.count
        let touched = Array(candidates) + Array(deleted)
        // The touched objects that were matches, by old index.
        var found: [(index: Int, key: ObjectKey)] = []
        keys.withUnsafeBufferPointer { buffer in
            for index in buffer.indices {
                let key = buffer[index]
                for candidate in touched where candidate == key {
                    found.append((index, key))
                    break
                }
            }
        }
        // Remove them (last first), noting for each leaving candidate how
        // many stationary matches preceded it.
        var deletions: [Int] = []
        var leaving: [ObjectKey: (index: Int, rank: Int)] = [:]
        for (removedBefore, entry) in found.enumerated() {
            if candidates.contains(entry.key) {
                leaving[entry.key] = (entry.index, entry.index - removedBefore)
            } else {
                deletions.append(entry.index)
            }
        }
        for entry in found.reversed() {
            keys.remove(at: entry.index)
            sortValues.removeSubrange(entry.index * width ..< (entry.index + 1) * width)
        }

        // `keys` and `sortValues` now hold the stationary matches.
        let (ranks, inPlace) = placements(of: matchedKeys, matchedSortValues, among: keys, sortValues, leaving: leaving)

        var insertions: [Int] = []
        var modifiedInPlace: [Int] = []
        for position in matchedKeys.indices {
            // Earlier matches were inserted before this one.
            let newIndex = ranks[position] + position
            let key = matchedKeys[position]
            keys.insert(key, at: newIndex)
            sortValues.insert(contentsOf: matchedSortValues[position * width ..< (position + 1) * width], at: newIndex * width)
            if inPlace.contains(position) {
                leaving[key] = nil
                modifiedInPlace.append(newIndex)
            } else {
                insertions.append(newIndex)
            }
        }
        for (_, old) in leaving { deletions.append(old.index) }
        deletions.sort()
        return Changes(deletions: deletions, insertions: insertions, modifiedInPlace: modifiedInPlace)
    }

    /// Where each match among the candidates goes (its rank: the number of
    /// stationary matches before it; they arrive in the query's order, so
    /// ranks never decrease), and which of them stay in place: of those
    /// that were matches between the same stationary neighbours, the most
    /// that also keep their order among themselves. The others move (a
    /// deletion and an insertion).
    private func placements(of matchedKeys: [ObjectKey], _ matchedSortValues: ContiguousArray<Value>,
                            among stationaryKeys: [ObjectKey], _ stationarySortValues: ContiguousArray<Value>,
                            leaving: [ObjectKey: (index: Int, rank: Int)]) -> (ranks: [Int], inPlace: Set<Int>) {
        let width = ascending.count
        var ranks: [Int] = []
        // Candidates that stay between the same stationary neighbours, in
        // the new order: (position among the matched, old index).
        var sameGap: [(position: Int, oldIndex: Int)] = []
        for position in matchedKeys.indices {
            let rank = insertionRank(of: matchedKeys[position], matchedSortValues[position * width ..< (position + 1) * width],
                                     among: stationaryKeys, stationarySortValues)
            ranks.append(rank)
            if let old = leaving[matchedKeys[position]], old.rank == rank {
                sameGap.append((position, old.index))
            }
        }
        let inPlace = Set(LongestIncreasingRun.positions(in: sameGap.map(\.oldIndex)).map { sameGap[$0].position })
        return (ranks, inPlace)
    }

    /// The number of stationary matches that sort before `key`.
    private func insertionRank(of key: ObjectKey, _ values: ArraySlice<Value>, among stationaryKeys: [ObjectKey],
                               _ stationarySortValues: ContiguousArray<Value>) -> Int {
        let width = ascending.count
        var low = 0
        var high = stationaryKeys.count
        while low < high {
            let middle = (low + high) / 2
            if precedes(stationaryKeys[middle], stationarySortValues[middle * width ..< (middle + 1) * width], key, values) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    /// The query's order: the sort values, then the key (source order).
    private func precedes(_ leftKey: ObjectKey, _ left: ArraySlice<Value>, _ rightKey: ObjectKey, _ right: ArraySlice<Value>) -> Bool {
        for (term, (leftValue, rightValue)) in zip(left, right).enumerated() {
            let order = SQLOrdering.compare(leftValue, rightValue)
            if order != .orderedSame { return (order == .orderedAscending) == ascending[term] }
        }
        return leftKey.rawValue < rightKey.rawValue
    }

    private static func matches(_ plan: QueryPlan, in transaction: Transaction) throws -> ([ObjectKey], ContiguousArray<Value>) {
        guard let (sql, arguments) = plan.sortedKeysStatement() else {
            throw RealmError(.invalidValue, "The query on '\(plan.className)' cannot be maintained.")
        }
        let statement = try transaction.queryStatement(sql)
        defer { statement.reset() }
        Query.bind(arguments, to: statement)
        var keys: [ObjectKey] = []
        var values = ContiguousArray<Value>()
        while try statement.step() {
            keys.append(ObjectKey(statement.int64(at: 0)))
            for (index, term) in plan.sortTerms.enumerated() {
                values.append(statement.value(at: Int32(index + 1), as: term.type))
            }
        }
        return (keys, values)
    }
}
