/// Counts read from the file are checked before anything is sized by them.
///
/// A damaged b-tree can make `count(*)` or `max(position) + 1` answer a
/// number no file of this size could hold (billions, from a page whose
/// cell count or a position's varint was flipped); an array sized by it
/// would exhaust memory. Every stored row takes at least a few bytes of a
/// page (a cell pointer, a header, a key), so a count above the file's
/// bytes is damage.
extension Transaction {
    /// Counts this small are never checked: no allocation they size can
    /// hurt, and checking needs the file's size.
    private static let uncheckedCountLimit: Int64 = 1 << 16

    /// `count`, read from the file for `what`, once it is plausible.
    ///
    /// - Throws: `corruptFile` when it is negative or larger than the file
    ///   could hold.
    package func plausibleCount(_ count: Int64, of what: @autoclosure () -> String) throws(RealmError) -> Int {
        guard count < 0 || count > Self.uncheckedCountLimit else { return Int(count) }
        if count >= 0, count <= (try databaseBytes()) { return Int(count) }
        throw RealmError(.corruptFile, "The file at '\(coordinator.path)' counts \(count) \(what()), more than a file of its size can hold.")
    }

    /// The database's size at this version, in bytes (its pages, the
    /// write-ahead log's included).
    private func databaseBytes() throws(RealmError) -> Int64 {
        let pages = try connection.cachedStatement("PRAGMA page_count")
        defer { pages.reset() }
        let size = try connection.cachedStatement("PRAGMA page_size")
        defer { size.reset() }
        guard try pages.step(), try size.step() else { return 0 }
        return pages.int64(at: 0) &* size.int64(at: 0)
    }
}
