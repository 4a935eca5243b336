/// Where an element sits in a list: a byte string compared
/// lexicographically. A new element gets a key strictly between its
/// neighbours' (``between(_:and:for:)``), so no other element moves and two
/// replicas inserting at one place need not agree on indices.
///
/// Every key made ends with its element's identity, so no two elements
/// ever have the same key: two clients inserting at the same place at the
/// same time get keys ordered by their identities, the same way on every
/// replica, and a later insertion between them still finds room.
///
/// Keys never end in a zero byte: with one, there would be no key between
/// `k` and `k + [0]`.
public struct PositionKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The key, compared byte by byte.
    public var bytes: [UInt8]

    /// A key of these bytes (as decoded; made keys come from
    /// ``between(_:and:)``).
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public static func < (lhs: PositionKey, rhs: PositionKey) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }

    public var description: String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The key of `element` strictly after `lower` and strictly before
    /// `upper`: the midpoint at the first byte with room (so that inserting
    /// again and again at one place adds about a byte every eight
    /// insertions), then the element's identity.
    ///
    /// - Parameters:
    ///   - lower: the key before, or nil at the start of the list.
    ///   - upper: the key after, or nil at the end.
    ///   - element: the identity of the element the key is for.
    /// - Precondition: `lower < upper`, and neither ends in a zero byte.
    public static func between(_ lower: PositionKey?, and upper: PositionKey?, for element: GlobalKey) -> PositionKey {
        // The midpoint is never a prefix of `upper` (it ends with a byte
        // below upper's, or is below it earlier), so what follows it keeps
        // the key below `upper`; and it is above `lower`, which stays so.
        var key = midpoint(lower, upper)
        for shift in stride(from: 56, through: 0, by: -8) { key.bytes.append(UInt8(truncatingIfNeeded: element.client >> UInt64(shift))) }
        for shift in stride(from: 56, through: 0, by: -8) { key.bytes.append(UInt8(truncatingIfNeeded: element.counter >> UInt64(shift))) }
        key.bytes.append(1)
        return key
    }

    /// The shortest key strictly between `lower` and `upper` this method
    /// finds, without an identity.
    static func midpoint(_ lower: PositionKey?, _ upper: PositionKey?) -> PositionKey {
        let low = lower?.bytes ?? []
        var high = upper?.bytes
        if let high { precondition(low.lexicographicallyPrecedes(high), "PositionKey.between: \(low) is not before \(high)") }
        var result: [UInt8] = []
        var index = 0
        while true {
            let a = index < low.count ? Int(low[index]) : 0
            // Past the upper key's prefix, or with none, the sky is the
            // limit. (The upper key cannot run out first: it is larger.)
            let b = high.map { index < $0.count ? Int($0[index]) : 0 } ?? 256
            if b - a > 1 {
                result.append(UInt8((a + b) / 2))
                return PositionKey(result)
            }
            result.append(UInt8(a))
            // With b == a + 1, anything after `a` here is below the upper
            // key: only the lower key bounds the rest.
            if b != a { high = nil }
            index += 1
        }
    }
}
