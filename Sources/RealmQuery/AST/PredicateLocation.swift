/// Where a comparison was written in a format string, so that errors found
/// later (when the query is checked against a schema) can quote the format
/// string and point at the offending token.
///
/// A location never affects a predicate's identity: ``Comparison`` leaves it
/// out of `==` and hashing, so the same predicate written twice with
/// different spacing, or built in code, compares equal. Offsets count
/// `Character`s from the start of ``format``.
public struct PredicateLocation: Hashable, Sendable {
    /// The whole format string the comparison came from.
    public var format: String
    /// The span of the whole comparison.
    public var comparison: Range<Int>
    /// The span of the left operand.
    public var left: Range<Int>
    /// The span of the operator (and its options).
    public var op: Range<Int>
    /// The span of the right operand.
    public var right: Range<Int>
    /// The start of each key-path component of the left operand, when it is
    /// a key path written out in the format string.
    public var leftComponents: [Int]
    /// The same for the right operand.
    public var rightComponents: [Int]

    /// A location; offsets in `Character`s of `format`.
    public init(
        format: String, comparison: Range<Int>, left: Range<Int>, op: Range<Int>, right: Range<Int>,
        leftComponents: [Int] = [], rightComponents: [Int] = []
    ) {
        self.format = format
        self.comparison = comparison
        self.left = left
        self.op = op
        self.right = right
        self.leftComponents = leftComponents
        self.rightComponents = rightComponents
    }
}
