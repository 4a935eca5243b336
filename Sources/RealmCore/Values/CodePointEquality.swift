extension String {
    /// Whether the two strings hold the same code points, as Realm compares
    /// strings (and as SQLite compares TEXT): Swift's `==` is canonical
    /// equivalence, under which `"é"` as U+00E9 equals `"e"` followed by
    /// U+0301, and would let one stand for the other in a cache.
    ///
    /// Strings equal by code points are canonically equivalent too, so
    /// `String`'s hash stays consistent with this equality.
    @inlinable
    package func hasSameCodePoints(as other: String) -> Bool {
        utf8.count == other.utf8.count && utf8.elementsEqual(other.utf8)
    }
}
