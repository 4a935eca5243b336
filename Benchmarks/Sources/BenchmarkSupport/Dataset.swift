/// The data every contender stores, and what the workloads must find in it.
///
/// Every contender builds the same rows from these functions, so that a
/// workload's expected counts and sums can be computed here, without a
/// database, and checked against what each contender returns.
public enum Dataset {
    // MARK: The main class: id, stringCol, indexedString, intCol

    /// The value of `stringCol` of object `i`: "a" for every tenth object,
    /// otherwise one of 900 other values ("b1" … "b999"), so that
    /// `stringCol == 'a'` matches exactly 10% of the objects and the
    /// column is not trivially compressible.
    public static func stringCol(_ i: Int) -> String {
        i % 10 == 0 ? "a" : "b\(i % 1000)"
    }

    /// The value of `indexedString` (and of the lookup class's strings):
    /// unique per object.
    public static func uniqueString(_ i: Int) -> String {
        "s\(i)"
    }

    /// The value of `intCol`: a permutation of 0..<1,000,003 restricted to
    /// the first objects, so that sorting by it is real work (neither
    /// sorted nor reversed) and every value is distinct.
    public static func intCol(_ i: Int) -> Int {
        (i &* 7919) % 1_000_003
    }

    /// How many of `count` objects match `stringCol == 'a'`.
    public static func matchCount(of count: Int) -> Int {
        (count + 9) / 10
    }

    /// The sum of `intCol` over the objects matching `stringCol == 'a'`.
    public static func matchIntSum(of count: Int) -> Int {
        stride(from: 0, to: count, by: 10).reduce(0) { $0 + intCol($1) }
    }

    /// The sum of `intCol` over all `count` objects.
    public static func intSum(of count: Int) -> Int {
        (0..<count).reduce(0) { $0 + intCol($1) }
    }

    /// `intCol` of the first, middle (index count / 2) and last object in
    /// ascending `intCol` order.
    public static func sortedProbe(of count: Int) -> [Int] {
        let sorted = (0..<count).map(intCol).sorted()
        return [sorted[0], sorted[count / 2], sorted[count - 1]]
    }

    // MARK: Lookups

    /// The primary keys (or string indices) to look up: `lookups` distinct
    /// objects among `count`, in a scattered order so that no lookup reuses
    /// the page of the one before.
    public static func lookupKeys(_ lookups: Int, among count: Int) -> [Int] {
        // 7919 is prime and does not divide count, so i -> i * 7919 % count
        // is a permutation of 0..<count.
        precondition(count % 7919 != 0 && lookups <= count)
        return (0..<lookups).map { ($0 &* 7919) % count }
    }

    /// The sum of `intCol` over the objects whose keys are `keys`.
    public static func intSum(ofKeys keys: [Int]) -> Int {
        keys.reduce(0) { $0 + intCol($1) }
    }

    // MARK: Ten integers

    /// Property `k` (0…9) of object `i` of the ten-integer class.
    public static func tenInts(_ i: Int, _ k: Int) -> Int {
        i + k
    }

    /// The sum of all ten properties of `count` ten-integer objects.
    public static func tenIntsSum(of count: Int) -> Int {
        10 * (count * (count - 1) / 2) + 45 * count
    }

    // MARK: Lists

    /// The value stored in element `i` of the list.
    public static func listValue(_ i: Int) -> Int {
        i
    }

    /// The key of entry `i` of the map workloads.
    public static func mapKey(_ i: Int) -> String {
        "key\(i)"
    }

    /// The sum of the values of a list of `count` elements.
    public static func listSum(of count: Int) -> Int {
        count * (count - 1) / 2
    }

    // MARK: Mixed values

    /// A value of the mixed workload, of one of three types.
    public enum MixedValue {
        case int(Int)
        case string(String)
        case double(Double)
    }

    /// The mixed value of object `i`: an int, a string and a double in
    /// turn, each one of 100 values.
    public static func mixedValue(_ i: Int) -> MixedValue {
        switch i % 3 {
        case 0: .int(i % 100)
        case 1: .string("s\(i % 100)")
        default: .double(Double(i % 100))
        }
    }

    /// The integer the mixed workload looks for: it equals ints and doubles
    /// of its value, never strings.
    public static let mixedProbe = 7

    /// How many of `count` objects have a mixed value equal to the probe.
    public static func mixedMatchCount(of count: Int) -> Int {
        (0..<count).count { $0 % 100 == mixedProbe && $0 % 3 != 1 }
    }
}
