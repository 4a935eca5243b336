import Foundation
import RealmCore

/// The change of a list over several commits, composed from what each
/// commit's change set recorded of its operations (``ListChanges``) rather
/// than from comparing the elements.
///
/// A list of values needs this: its elements have no identity, so a
/// comparison cannot tell a replaced element from a removed one next to an
/// equal value, or see an element set to the value it held. Realm reports
/// both from its record of the operations (`list[i] = v` is a modification
/// of `i`, even when `v` was there), and so does this.
enum ListChangeComposition {
    /// The composed change, in the terms of a collection notification
    /// (moves as a deletion and an insertion), from a list of `baseCount`
    /// elements to one of `newCount`; nil when the records do not add up
    /// to that (a commit changed the list without recording it, as
    /// deleting its owner does): the caller compares the elements then.
    static func compose(_ steps: [ListChanges?], baseCount: Int, newCount: Int)
        -> (deletions: [Int], insertions: [Int], modifications: [Int])? {
        // Each element is a token: the base's are 0..<baseCount, inserted
        // ones are new numbers; `modified` collects the tokens replaced.
        var tokens = Array(0..<baseCount)
        var nextToken = baseCount
        var modified = Set<Int>()
        for case let step? in steps {
            guard step.oldCount == tokens.count else { return nil }
            var next = [Int?](repeating: nil, count: step.newCount)
            for move in step.moves {
                guard move.from < tokens.count, move.to < step.newCount else { return nil }
                next[move.to] = tokens[move.from]
            }
            let movedFrom = Set(step.moves.map(\.from))
            let movedTo = Set(step.moves.map(\.to))
            // The survivors, in order, fill the places neither inserted
            // nor taken by a move.
            var survivors = tokens.indices.lazy.filter { !step.deletions.contains($0) && !movedFrom.contains($0) }.map { tokens[$0] }.makeIterator()
            for index in 0..<step.newCount where next[index] == nil {
                if step.insertions.contains(index) && !movedTo.contains(index) {
                    next[index] = nextToken
                    nextToken += 1
                } else {
                    guard let survivor = survivors.next() else { return nil }
                    next[index] = survivor
                }
            }
            guard survivors.next() == nil else { return nil }
            tokens = next.map { $0! }
            for index in step.modifications where index < tokens.count { modified.insert(tokens[index]) }
        }
        guard tokens.count == newCount else { return nil }
        // Base elements kept in order are stationary; those out of order
        // are moves: a deletion and an insertion, as Realm Swift reports.
        let kept = tokens.enumerated().filter { $0.element < baseCount }
        let stationary = Set(LongestIncreasingRun.positions(in: kept.map(\.element)))
        var keptBase = Set<Int>()
        var insertions: [Int] = []
        var modifications: [Int] = []
        for (position, pair) in kept.enumerated() {
            if stationary.contains(position) {
                keptBase.insert(pair.element)
                if modified.contains(pair.element) { modifications.append(pair.offset) }
            } else {
                insertions.append(pair.offset)
            }
        }
        for (index, token) in tokens.enumerated() where token >= baseCount { insertions.append(index) }
        let deletions = (0..<baseCount).filter { !keptBase.contains($0) }
        return (deletions, insertions.sorted(), modifications)
    }
}
