import Foundation

/// What one commit did to one list, in the form collection notifications
/// need.
///
/// Applying the changes to the list as it was before the commit yields the
/// list after it: remove the elements at `deletions` (indices into the old
/// list, highest first), then insert at `insertions` (indices into the new
/// list, lowest first). `modifications` are indices into the new list of
/// elements that stayed in place but were replaced. A moved element appears
/// in both `deletions` and `insertions`, and in `moves`.
public struct ListChanges: Hashable, Sendable {
    public var deletions: IndexSet
    public var insertions: IndexSet
    public var modifications: IndexSet
    public var moves: [Move]
    /// The list's length before the commit.
    public var oldCount: Int
    /// The list's length after the commit.
    public var newCount: Int

    /// One element that changed position.
    public struct Move: Hashable, Sendable {
        /// Its index in the old list.
        public var from: Int
        /// Its index in the new list.
        public var to: Int

        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    public init(deletions: IndexSet = [], insertions: IndexSet = [], modifications: IndexSet = [], moves: [Move] = [], oldCount: Int, newCount: Int) {
        self.deletions = deletions
        self.insertions = insertions
        self.modifications = modifications
        self.moves = moves
        self.oldCount = oldCount
        self.newCount = newCount
    }

    /// Whether the commit left the list as it was.
    public var isEmpty: Bool {
        deletions.isEmpty && insertions.isEmpty && modifications.isEmpty
    }
}

/// Tracks, operation by operation within one write transaction, how a list's
/// elements map to the list as it was when the transaction began.
///
/// The list is a sequence of runs; each run is either a stretch of
/// consecutive old elements still in their old order, or a stretch of new
/// elements. Appends extend the last run, so a long series of appends costs
/// O(1) each; an operation in the middle costs O(number of runs).
struct ListChangeBuilder: Sendable {
    private struct Run: Sendable {
        /// The old index of the run's first element, or -1 for new elements.
        var oldStart: Int
        var count: Int
        /// Whether the run's (old) elements were replaced in place.
        var isModified: Bool

        var isInserted: Bool { oldStart < 0 }
    }

    let oldCount: Int
    private var runs: [Run]
    private(set) var count: Int

    init(oldCount: Int) {
        self.oldCount = oldCount
        self.count = oldCount
        self.runs = oldCount > 0 ? [Run(oldStart: 0, count: oldCount, isModified: false)] : []
    }

    mutating func insert(at index: Int) {
        insert(Run(oldStart: -1, count: 1, isModified: false), at: index)
    }

    mutating func remove(at index: Int) {
        _ = take(at: index)
    }

    mutating func modify(at index: Int) {
        let runIndex = split(at: index, length: 1)
        if !runs[runIndex].isInserted {
            runs[runIndex].isModified = true
        }
    }

    mutating func move(from source: Int, to destination: Int) {
        guard source != destination else { return }
        let element = take(at: source)
        insert(element, at: destination)
    }

    mutating func removeAll() {
        runs.removeAll()
        count = 0
    }

    /// The changes so far, relative to the list when the builder was made.
    func changes() -> ListChanges {
        // Old elements that survive, in new order; those outside a longest
        // increasing run of old indices are reported as moves.
        var keptRuns: [(newStart: Int, run: Run)] = []
        var position = 0
        for run in runs {
            if !run.isInserted { keptRuns.append((position, run)) }
            position += run.count
        }
        let stationary = Self.increasingSubset(keptRuns.map(\.run))

        var deletions = IndexSet(integersIn: 0..<oldCount)
        var insertions = IndexSet()
        var modifications = IndexSet()
        var moves: [ListChanges.Move] = []
        for (offset, kept) in keptRuns.enumerated() {
            let oldRange = kept.run.oldStart..<(kept.run.oldStart + kept.run.count)
            let newRange = kept.newStart..<(kept.newStart + kept.run.count)
            if stationary.contains(offset) {
                deletions.remove(integersIn: oldRange)
                if kept.run.isModified { modifications.insert(integersIn: newRange) }
            } else {
                insertions.insert(integersIn: newRange)
                for step in 0..<kept.run.count {
                    moves.append(.init(from: oldRange.lowerBound + step, to: newRange.lowerBound + step))
                }
            }
        }
        position = 0
        for run in runs {
            if run.isInserted { insertions.insert(integersIn: position..<(position + run.count)) }
            position += run.count
        }
        return ListChanges(deletions: deletions, insertions: insertions, modifications: modifications, moves: moves, oldCount: oldCount, newCount: count)
    }

    // MARK: Runs

    private mutating func insert(_ element: Run, at index: Int) {
        precondition(index >= 0 && index <= count, "list change index \(index) out of 0...\(count)")
        count += 1
        if index == count - 1, let last = runs.last, canExtend(last, with: element) {
            runs[runs.count - 1].count += 1
            return
        }
        let runIndex = index == count - 1 ? runs.count : split(at: index)
        runs.insert(element, at: runIndex)
        mergeAround(runIndex)
    }

    /// Removes the element at `index` and returns it as a run of one.
    private mutating func take(at index: Int) -> Run {
        let runIndex = split(at: index, length: 1)
        let element = runs.remove(at: runIndex)
        count -= 1
        if runIndex > 0 { mergeAround(runIndex - 1) }
        return element
    }

    private func canExtend(_ run: Run, with next: Run) -> Bool {
        run.isModified == next.isModified
            && (run.isInserted ? next.isInserted : !next.isInserted && next.oldStart == run.oldStart + run.count)
    }

    /// Splits runs so that one starts at `index`; returns that run's index
    /// (or the number of runs when `index` is the end).
    @discardableResult
    private mutating func split(at index: Int) -> Int {
        var start = 0
        for runIndex in runs.indices {
            let run = runs[runIndex]
            if index == start { return runIndex }
            if index < start + run.count {
                let head = index - start
                var tail = run
                tail.count -= head
                if !run.isInserted { tail.oldStart += head }
                runs[runIndex].count = head
                runs.insert(tail, at: runIndex + 1)
                return runIndex + 1
            }
            start += run.count
        }
        return runs.count
    }

    /// Splits so that the element at `index` is a run of exactly `length`.
    private mutating func split(at index: Int, length: Int) -> Int {
        precondition(index >= 0 && index + length <= count, "list change index \(index) out of 0..<\(count)")
        let runIndex = split(at: index)
        split(at: index + length)
        return runIndex
    }

    private mutating func mergeAround(_ runIndex: Int) {
        var index = max(runIndex - 1, 0)
        while index + 1 < runs.count && index <= runIndex + 1 {
            if canExtend(runs[index], with: runs[index + 1]) {
                runs[index].count += runs[index + 1].count
                runs.remove(at: index + 1)
            } else {
                index += 1
            }
        }
    }

    /// The offsets of kept runs forming the longest (by element count)
    /// subsequence with increasing old indices: those elements did not move.
    private static func increasingSubset(_ kept: [Run]) -> Set<Int> {
        guard kept.count > 1 else { return Set(kept.indices) }
        guard kept.count <= 512 else {
            // Quadratic search would be slow; any increasing subset is still
            // a correct description, just possibly with more moves.
            var result: Set<Int> = []
            var last = -1
            for (offset, run) in kept.enumerated() where run.oldStart > last {
                result.insert(offset)
                last = run.oldStart
            }
            return result
        }
        var best = kept.map(\.count)
        var previous = [Int](repeating: -1, count: kept.count)
        for i in kept.indices {
            for j in 0..<i where kept[j].oldStart < kept[i].oldStart && best[j] + kept[i].count > best[i] {
                best[i] = best[j] + kept[i].count
                previous[i] = j
            }
        }
        var result: Set<Int> = []
        var index = best.indices.max { best[$0] < best[$1] }
        while let current = index, current >= 0 {
            result.insert(current)
            index = previous[current] >= 0 ? previous[current] : nil
        }
        return result
    }
}
