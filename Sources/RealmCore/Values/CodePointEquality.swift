import Foundation

extension String {
    /// Whether the two strings hold the same code points, as Realm compares
    /// strings (and as SQLite compares TEXT): Swift's `==` is canonical
    /// equivalence, under which `"é"` as U+00E9 equals `"e"` followed by
    /// U+0301, and would let one stand for the other in a cache.
    ///
    /// Strings equal by code points are canonically equivalent too, so
    /// `String`'s hash stays consistent with this equality.
    ///
    /// Native strings compare their UTF-8 buffers directly: the generic
    /// walk over two `UTF8View`s costs tens of instructions a byte, and a
    /// filter's format string is compared on every call.
    @inlinable
    package func hasSameCodePoints(as other: String) -> Bool {
        let compared = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in
                mine.count == theirs.count
                    && (mine.isEmpty || memcmp(mine.baseAddress!, theirs.baseAddress!, mine.count) == 0)
            }
        }
        if let compared, let compared { return compared }
        return utf8.count == other.utf8.count && utf8.elementsEqual(other.utf8)
    }
}
