/// A longest strictly increasing subsequence, found by patience sorting in
/// O(n log n): the elements that can stay where they are when a sequence
/// is reordered, so that the fewest move. Shared by maintained query
/// matches and by the collection-change diff.
package enum LongestIncreasingRun {
    /// The positions in `values` of one longest strictly increasing
    /// subsequence, last first.
    package static func positions(in values: [Int]) -> [Int] {
        var tails: [Int] = []          // positions, by subsequence length
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var result: [Int] = []
        var position = tails.last ?? -1
        while position >= 0 {
            result.append(position)
            position = previous[position]
        }
        return result
    }
}
