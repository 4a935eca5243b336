/// A set of object keys stored as sorted, disjoint, non-adjacent ranges.
///
/// Keys are handed out in increasing order, so the objects a transaction
/// inserts (or a bulk delete removes) usually form a handful of ranges: a
/// 100,000-object insert is recorded as one range, not 100,000 keys. Keys
/// may be any `Int64` (a primary key can be an object's key), so range
/// arithmetic never steps past `Int64.min` or `Int64.max`.
public struct KeySet: Hashable, Sendable, Sequence, CustomStringConvertible {
    /// The ranges, sorted, with gaps between them.
    public private(set) var ranges: [ClosedRange<Int64>] = []

    /// An empty set.
    public init() {}

    /// A set of the given keys.
    public init(_ keys: some Sequence<ObjectKey>) {
        for key in keys { insert(key) }
    }

    public var isEmpty: Bool { ranges.isEmpty }

    /// The number of keys; O(number of ranges).
    public var count: Int {
        ranges.reduce(0) { $0 + Int($1.upperBound - $1.lowerBound + 1) }
    }

    public func contains(_ key: ObjectKey) -> Bool {
        guard let index = rangeIndex(containingOrAfter: key.rawValue), index < ranges.count else { return false }
        return ranges[index].contains(key.rawValue)
    }

    /// Adds `key`; O(1) when it extends the last range, O(log n + moves)
    /// otherwise.
    public mutating func insert(_ key: ObjectKey) {
        let value = key.rawValue
        if let last = ranges.last {
            if last.contains(value) { return }
            if value > last.upperBound {
                if value - 1 == last.upperBound {
                    ranges[ranges.count - 1] = last.lowerBound...value
                } else {
                    ranges.append(value...value)
                }
                return
            }
        } else {
            ranges.append(value...value)
            return
        }
        let index = rangeIndex(containingOrAfter: value) ?? ranges.count
        if index < ranges.count && ranges[index].contains(value) { return }
        // `value` lies strictly between the neighbouring ranges, so these
        // steps stay within Int64.
        let joinsPrevious = index > 0 && ranges[index - 1].upperBound == value - 1
        let joinsNext = index < ranges.count && ranges[index].lowerBound == value + 1
        switch (joinsPrevious, joinsNext) {
        case (true, true):
            ranges[index - 1] = ranges[index - 1].lowerBound...ranges[index].upperBound
            ranges.remove(at: index)
        case (true, false):
            ranges[index - 1] = ranges[index - 1].lowerBound...value
        case (false, true):
            ranges[index] = value...ranges[index].upperBound
        case (false, false):
            ranges.insert(value...value, at: index)
        }
    }

    /// Removes `key`, returning whether it was present.
    @discardableResult
    public mutating func remove(_ key: ObjectKey) -> Bool {
        let value = key.rawValue
        guard let index = rangeIndex(containingOrAfter: value), index < ranges.count, ranges[index].contains(value) else {
            return false
        }
        let range = ranges[index]
        switch (range.lowerBound == value, range.upperBound == value) {
        case (true, true): ranges.remove(at: index)
        case (true, false): ranges[index] = (value + 1)...range.upperBound
        case (false, true): ranges[index] = range.lowerBound...(value - 1)
        case (false, false):
            ranges[index] = range.lowerBound...(value - 1)
            ranges.insert((value + 1)...range.upperBound, at: index + 1)
        }
        return true
    }

    /// The keys in both sets; O(number of ranges).
    public func intersection(_ other: KeySet) -> KeySet {
        var result: [ClosedRange<Int64>] = []
        var (mine, theirs) = (0, 0)
        while mine < ranges.count && theirs < other.ranges.count {
            let (a, b) = (ranges[mine], other.ranges[theirs])
            let lower = Swift.max(a.lowerBound, b.lowerBound)
            let upper = Swift.min(a.upperBound, b.upperBound)
            if lower <= upper { result.append(lower...upper) }
            if a.upperBound < b.upperBound { mine += 1 } else { theirs += 1 }
        }
        // Pieces of disjoint, non-adjacent ranges stay disjoint and
        // non-adjacent.
        return KeySet(validatedRanges: result)
    }

    /// Adds every key of `other`.
    public mutating func formUnion(_ other: KeySet) {
        if ranges.isEmpty {
            ranges = other.ranges
            return
        }
        for range in other.ranges {
            for value in range { insert(ObjectKey(value)) }
        }
    }

    public mutating func removeAll() {
        ranges.removeAll()
    }

    public func makeIterator() -> AnyIterator<ObjectKey> {
        var rangeIterator = ranges.makeIterator()
        var current: ClosedRange<Int64>.Iterator?
        return AnyIterator {
            while true {
                if let value = current?.next() { return ObjectKey(value) }
                guard let next = rangeIterator.next() else { return nil }
                current = next.makeIterator()
            }
        }
    }

    public var description: String {
        "[" + ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)...\($0.upperBound)" }.joined(separator: ", ") + "]"
    }

    /// The index of the first range whose upper bound is at least `value`.
    private func rangeIndex(containingOrAfter value: Int64) -> Int? {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < value {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    /// Builds a set from ranges known to be sorted and disjoint (decoding).
    init(validatedRanges: [ClosedRange<Int64>]) {
        self.ranges = validatedRanges
    }
}
