import RealmCore

/// The count a collection answered at one version of its Realm, which its
/// elements must then agree with.
///
/// A collection counts in SQL (`COUNT(*)`, which may read an index) and
/// reads its elements with another statement (which reads the table). In a
/// sound file the two agree at one version; in a damaged one they may not,
/// and code that trusts `count` (`Array(results)`, `for i in
/// 0..<results.count { results[i] }`) would stop the program on the
/// difference. So once a count has been answered at a version, reading the
/// elements at that version gives exactly that many: positions the rows do
/// not reach hold placeholders (objects whose row cannot be read, values at
/// their default, as a damaged read gives), rows past the count are
/// dropped, and the difference is noted as damage (`Realm+Damage.swift`).
struct ReportedCount {
    private var stamp: UInt64?
    private var value = 0

    /// Notes that `count` was answered at `stamp` (the Realm's change
    /// counter).
    mutating func note(_ count: Int, at stamp: UInt64) {
        self.stamp = stamp
        value = count
    }

    /// The count answered at `stamp`, or nil when none was.
    func count(at stamp: UInt64) -> Int? {
        self.stamp == stamp ? value : nil
    }

    /// `keys`, read at `stamp`, made as long as the count answered at that
    /// version (padded with ``ObjectKey/unreadable``, or cut); a difference
    /// is noted as damage of `realm` found while doing `action`.
    func conform(_ keys: inout [ObjectKey], at stamp: UInt64, in realm: Realm, while action: @autoclosure () -> String) {
        guard let expected = count(at: stamp), expected != keys.count else { return }
        realm.noteCountMismatch(counted: expected, read: keys.count, while: action())
        if keys.count > expected {
            keys.removeLast(keys.count - expected)
        } else {
            keys.append(contentsOf: repeatElement(.unreadable, count: expected - keys.count))
        }
    }
}

/// A loop held to the count its collection answered at the loop's version
/// (see ``ReportedCount``): it ends after that many elements, and hands out
/// placeholders when the rows end first.
struct CountedLoop {
    let expected: Int
    private var handedOut = 0
    private var isOver = false
    private var mismatchNoted = false

    init(expected: Int) {
        self.expected = expected
    }

    /// The next element: from `read` while the count allows, then a
    /// `placeholder` if the rows ended early. `mismatch` is told (once)
    /// how many rows there were, or at least were, when they disagree.
    mutating func next<T>(_ read: () -> T?, placeholder: () -> T, mismatch: (_ rows: Int) -> Void) -> T? {
        guard !isOver else { return nil }
        guard handedOut < expected else {
            isOver = true
            if !mismatchNoted, read() != nil { mismatch(expected + 1) }
            return nil
        }
        handedOut += 1
        if !mismatchNoted, let element = read() { return element }
        if !mismatchNoted {
            mismatchNoted = true
            mismatch(handedOut - 1)
        }
        return placeholder()
    }
}

extension ObjectKey {
    /// A key no row has: the element a collection hands out where its count
    /// says there is one and a damaged file has no row (reading it gives
    /// the properties' defaults, and notes the damage).
    static let unreadable = ObjectKey(Int64.min)
}

extension Realm {
    /// Notes that a collection counted `counted` elements at this version
    /// and then read `read`: only a damaged file does that.
    func noteCountMismatch(counted: Int, read: Int, while action: @autoclosure () -> String) {
        noteDamage(RealmError(.corruptFile, "\(counted) elements were counted but \(read == counted + 1 ? "more" : String(read)) read"), while: action())
    }
}
