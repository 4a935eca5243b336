/// Converts offsets in Unicode scalars into offsets in `Character`s, which
/// is what a user counts when looking at the predicate.
struct CharacterOffsets {
    let format: String
    private let characterIndexOfScalar: [Int]

    init(_ format: String) {
        self.format = format
        // ASCII without CR LF (one Character of two scalars) maps one to one.
        if format.utf8.allSatisfy({ $0 < 0x80 }) && !format.utf8.contains(0x0D) {
            self.characterIndexOfScalar = []
            return
        }
        var map: [Int] = []
        for (index, character) in format.enumerated() {
            for _ in character.unicodeScalars { map.append(index) }
        }
        map.append(format.count)
        self.characterIndexOfScalar = map
    }

    func character(_ scalarOffset: Int) -> Int {
        if characterIndexOfScalar.isEmpty { return max(0, scalarOffset) }
        return characterIndexOfScalar[min(max(0, scalarOffset), characterIndexOfScalar.count - 1)]
    }

    func range(_ scalars: Range<Int>) -> Range<Int> {
        let lower = character(scalars.lowerBound)
        return lower..<max(lower, character(scalars.upperBound))
    }

    func error(_ message: String, scalarRange: Range<Int>) -> QueryError {
        let range = range(scalarRange)
        return QueryError(message, predicate: format, offset: range.lowerBound, length: range.count)
    }
}
