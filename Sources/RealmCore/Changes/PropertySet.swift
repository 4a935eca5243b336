/// A set of property indices, as a bit set that needs no allocation for
/// classes of up to 64 properties.
public struct PropertySet: Hashable, Sendable, Sequence, CustomStringConvertible {
    private var low: UInt64 = 0
    private var high: [UInt64] = []

    /// An empty set.
    public init() {}

    public var isEmpty: Bool { low == 0 && high.allSatisfy { $0 == 0 } }

    public func contains(_ index: Int) -> Bool {
        if index < 64 { return low & (1 << UInt64(index)) != 0 }
        let word = index / 64 - 1
        return word < high.count && high[word] & (1 << UInt64(index % 64)) != 0
    }

    public mutating func insert(_ index: Int) {
        if index < 64 {
            low |= 1 << UInt64(index)
            return
        }
        let word = index / 64 - 1
        if word >= high.count {
            high += [UInt64](repeating: 0, count: word - high.count + 1)
        }
        high[word] |= 1 << UInt64(index % 64)
    }

    public mutating func formUnion(_ other: PropertySet) {
        low |= other.low
        if high.count < other.high.count {
            high += [UInt64](repeating: 0, count: other.high.count - high.count)
        }
        for (word, bits) in other.high.enumerated() {
            high[word] |= bits
        }
    }

    public func makeIterator() -> IndexingIterator<[Int]> {
        var indices: [Int] = []
        for (word, bits) in ([low] + high).enumerated() where bits != 0 {
            for bit in 0..<64 where bits & (1 << UInt64(bit)) != 0 {
                indices.append(word * 64 + bit)
            }
        }
        return indices.makeIterator()
    }

    public var description: String {
        "{" + map(String.init).joined(separator: ", ") + "}"
    }

    /// The bit words, lowest first, for encoding.
    var words: [UInt64] { [low] + high }

    init(words: [UInt64]) {
        low = words.first ?? 0
        high = Array(words.dropFirst())
    }
}
