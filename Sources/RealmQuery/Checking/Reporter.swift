/// Builds errors for one comparison: quoting its format string and pointing
/// at a part of it, or quoting the predicate built in code.
struct Reporter {
    enum Place {
        case whole, left, op, right
        case leftComponent(Int)
        case rightComponent(Int)
    }

    let comparison: Comparison
    /// The whole predicate, formatted only for an error.
    let predicate: Predicate

    func error(_ message: String, at place: Place) -> QueryError {
        guard let location = comparison.location else {
            return QueryError(message, predicate: predicate.description)
        }
        let range: Range<Int>
        switch place {
        case .whole: range = location.comparison
        case .left: range = location.left
        case .op: range = location.op
        case .right: range = location.right
        case .leftComponent(let index): range = Self.component(index, starts: location.leftComponents, side: location.left)
        case .rightComponent(let index): range = Self.component(index, starts: location.rightComponents, side: location.right)
        }
        return QueryError(message, predicate: location.format, offset: range.lowerBound, length: range.count)
    }

    private static func component(_ index: Int, starts: [Int], side: Range<Int>) -> Range<Int> {
        guard index < starts.count else { return side }
        let start = starts[index]
        let end = index + 1 < starts.count ? starts[index + 1] - 1 : side.upperBound
        return start..<max(start + 1, end)
    }
}
