internal import CStorage

/// The process's heap, as the C library manages it.
package enum HeapMemory {
    /// Gives freed heap memory back to the system. glibc keeps what a
    /// thread freed in that thread's arena, and after a large block is
    /// freed it serves the next ones from the heap rather than fresh
    /// mappings: work that allocates and frees in large batches (applying
    /// a download message by message) keeps a small heap whose resident
    /// size still grows until trimmed.
    package static func returnFreedMemory() {
        cstorage_trim_heap()
    }
}
