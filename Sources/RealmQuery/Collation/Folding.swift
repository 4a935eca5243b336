import RealmCore

/// How `[c]`, `[d]` and `[cd]` fold characters before comparing them.
///
/// Each folding maps one code point to one code point (never to several), so
/// folded strings keep their length in code points: that is what lets SQL
/// LIKE patterns, whose `_` matches exactly one code point, narrow a folded
/// comparison faithfully. Code points from 592 up are never folded.
struct Folding: Sendable {
    /// The number of code points the tables cover (0–591).
    static let coveredCount = 592

    /// What a pattern character becomes in a SQL LIKE pattern that narrows a
    /// folded comparison.
    enum LikeLiteral: Sendable {
        /// The character itself matches exactly what folds to the same as it
        /// (SQLite's LIKE folds ASCII letters' case and nothing else).
        case exact
        /// The character itself matches everything that folds to the same as
        /// it, and more: the result needs checking.
        case superset
        /// Some character that folds to the same is not matched by the
        /// character itself: use `_`, and check the result.
        case wildcard
    }

    private let table: [UInt32]
    let kind: Kind
    private let likeLiterals: [LikeLiteral]

    /// Which of the three foldings this is.
    enum Kind: Sendable {
        case caseInsensitive, diacriticInsensitive, both
    }

    /// `[c]`: case only.
    static let caseInsensitive = Folding(composing: [caseTable], kind: .caseInsensitive)
    /// `[d]`: diacritics only.
    static let diacriticInsensitive = Folding(composing: [diacriticTable], kind: .diacriticInsensitive)
    /// `[cd]`: both, applied until neither changes anything, so that every
    /// character reaches the same representative whichever it starts from.
    static let both = Folding(composing: [diacriticTable, caseTable], kind: .both)

    /// The folding of `options`, or nil for exact comparison.
    static func of(_ options: StringOptions) -> Folding? {
        switch (options.contains(.caseInsensitive), options.contains(.diacriticInsensitive)) {
        case (false, false): nil
        case (true, false): caseInsensitive
        case (false, true): diacriticInsensitive
        case (true, true): both
        }
    }

    private static let caseTable = table(FoldingTables.caseFolding)
    private static let diacriticTable = table(FoldingTables.diacriticFolding)

    private static func table(_ pairs: [(UInt16, UInt16)]) -> [UInt32] {
        var table = (0..<UInt32(coveredCount)).map { $0 }
        for (from, to) in pairs { table[Int(from)] = UInt32(to) }
        return table
    }

    private init(composing tables: [[UInt32]], kind: Kind) {
        self.kind = kind
        var table = (0..<UInt32(Self.coveredCount)).map { $0 }
        var changed = true
        while changed {
            changed = false
            for step in tables {
                for index in table.indices where step[Int(table[index])] != table[index] {
                    table[index] = step[Int(table[index])]
                    changed = true
                }
            }
        }
        self.table = table
        var classes: [UInt32: [UInt32]] = [:]
        for (codePoint, folded) in table.enumerated() { classes[folded, default: []].append(UInt32(codePoint)) }
        self.likeLiterals = (0..<UInt32(Self.coveredCount)).map { codePoint in
            let equivalent = Set(classes[table[Int(codePoint)]] ?? [codePoint])
            var likeMatches: Set<UInt32> = [codePoint]
            if let partner = Self.asciiCasePartner(codePoint) { likeMatches.insert(partner) }
            if equivalent == likeMatches { return .exact }
            return equivalent.isSubset(of: likeMatches) ? .superset : .wildcard
        }
    }

    private static func asciiCasePartner(_ codePoint: UInt32) -> UInt32? {
        switch codePoint {
        case 0x41...0x5A: codePoint + 0x20
        case 0x61...0x7A: codePoint - 0x20
        default: nil
        }
    }

    @inline(__always)
    func fold(_ codePoint: UInt32) -> UInt32 {
        codePoint < UInt32(Self.coveredCount) ? table[Int(codePoint)] : codePoint
    }

    /// The folded code points of `text`.
    func fold(_ text: String) -> [UInt32] {
        text.unicodeScalars.map { fold($0.value) }
    }

    func likeLiteral(_ codePoint: UInt32) -> LikeLiteral {
        codePoint < UInt32(Self.coveredCount) ? likeLiterals[Int(codePoint)] : .exact
    }
}
