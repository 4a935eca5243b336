import RealmCore
import RealmQuery

/// What a collection notification reports, as in RealmSwift.
public enum RealmCollectionChange<CollectionType> {
    /// The first delivery: the collection as it is when observing began.
    case initial(CollectionType)
    /// The collection changed. `deletions` are indices in the collection as
    /// it was at the previous delivery; `insertions` and `modifications` are
    /// indices in the collection as it is now. Removing the deleted indices
    /// (highest first) and then inserting at the inserted ones (lowest first)
    /// turns the previous collection into this one.
    case update(CollectionType, deletions: [Int], insertions: [Int], modifications: [Int])
    /// Computing the changes failed; no further notifications follow.
    case error(Swift.Error)
}

/// Computes the change between two states of a collection from the
/// identities of its elements (object keys, or values, numbered by
/// occurrence so that duplicates stay distinct).
enum CollectionDiff {
    struct Identity: Hashable {
        let value: Value
        let occurrence: Int
    }

    /// Numbers repeated elements so that each identity is unique.
    static func identities(_ values: [Value]) -> [Identity] {
        var seen: [Value: Int] = [:]
        return values.map { value in
            let occurrence = seen[value, default: 0]
            seen[value] = occurrence + 1
            return Identity(value: value, occurrence: occurrence)
        }
    }

    /// The same changes of a list of values with each element replaced in
    /// place reported as a modification, as Realm reports `list[i] = v`:
    /// within each run of removed elements between two kept ones, the
    /// k-th deletion and the k-th insertion there pair up. (Values have no
    /// identity of their own, so a replacement and a removal with an
    /// insertion at the same place cannot be told apart; Realm's own
    /// record of the write says "modified" for the first.)
    static func pairingReplacements(_ changes: (deletions: [Int], insertions: [Int], modifications: [Int]), oldCount: Int, newCount: Int)
        -> (deletions: [Int], insertions: [Int], modifications: [Int]) {
        guard !changes.deletions.isEmpty, !changes.insertions.isEmpty else { return changes }
        /// The run each index is in: the number of kept elements before it.
        func runs(_ changed: [Int], count: Int) -> [Int: [Int]] {
            var byRun: [Int: [Int]] = [:]
            let changedSet = Set(changed)
            var kept = 0
            for index in 0..<count {
                if changedSet.contains(index) { byRun[kept, default: []].append(index) } else { kept += 1 }
            }
            return byRun
        }
        let deletedRuns = runs(changes.deletions, count: oldCount)
        let insertedRuns = runs(changes.insertions, count: newCount)
        var deletions: [Int] = []
        var insertions: [Int] = []
        var modifications = changes.modifications
        for (run, deleted) in deletedRuns {
            let inserted = insertedRuns[run] ?? []
            let paired = Swift.min(deleted.count, inserted.count)
            modifications += inserted.prefix(paired)
            deletions += deleted.dropFirst(paired)
        }
        for (run, inserted) in insertedRuns {
            insertions += inserted.dropFirst(Swift.min(inserted.count, deletedRuns[run]?.count ?? 0))
        }
        return (deletions.sorted(), insertions.sorted(), modifications.sorted())
    }

    /// Deletions (old indices), insertions and modifications (new indices).
    /// Elements kept but out of order are reported as a deletion plus an
    /// insertion (the fewest such moves: those outside a longest increasing
    /// run of old positions). `isModified` is asked for kept elements only.
    static func changes(from old: [Identity], to new: [Identity], isModified: (Identity) -> Bool)
        -> (deletions: [Int], insertions: [Int], modifications: [Int]) {
        var oldIndex: [Identity: Int] = [:]
        oldIndex.reserveCapacity(old.count)
        for (index, identity) in old.enumerated() { oldIndex[identity] = index }
        var kept: [(new: Int, old: Int)] = []
        var insertions: [Int] = []
        for (index, identity) in new.enumerated() {
            if let previous = oldIndex[identity] {
                kept.append((index, previous))
            } else {
                insertions.append(index)
            }
        }
        let stationary = Set(LongestIncreasingRun.positions(in: kept.map(\.old)))
        var keptOld = Set<Int>()
        var modifications: [Int] = []
        for (position, pair) in kept.enumerated() {
            if stationary.contains(position) {
                keptOld.insert(pair.old)
                if isModified(new[pair.new]) { modifications.append(pair.new) }
            } else {
                insertions.append(pair.new)
            }
        }
        let deletions = old.indices.filter { !keptOld.contains($0) }
        return (deletions, insertions.sorted(), modifications)
    }
}
