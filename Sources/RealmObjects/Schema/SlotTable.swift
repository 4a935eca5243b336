import Foundation
import Synchronization

/// The slots of a class's `@Persisted` properties by the identity of their
/// storage key paths, read without a lock.
///
/// Every property access of every object starts here, on any thread, so a
/// lookup takes no lock: entries are written once, into a buffer that
/// never moves, before the count that publishes them is stored (release);
/// a reader loads the count (acquire) and scans only the entries below it,
/// which nobody writes again. Writers are serialized by a mutex, which
/// also keeps the key paths alive so that their identities stay theirs.
final class SlotTable: @unchecked Sendable {
    // @unchecked: `entries` and `keyPaths` are written only under
    // `writer`, `entries` at indices not yet published by `count`; readers
    // read only published indices.

    private struct Entry {
        var identity: ObjectIdentifier
        var slot: PersistedSlot
    }

    private let capacity: Int
    private let entries: UnsafeMutablePointer<Entry>
    private let count = Atomic<Int>(0)
    private let writer = NSLock()
    private var keyPaths: [AnyKeyPath] = []

    /// A table of at most `capacity` entries: key paths of generic classes
    /// are made per access, so their identities never repeat, and the
    /// table stops growing rather than grow for ever (such properties then
    /// take the slow path).
    init(capacity: Int) {
        self.capacity = capacity
        entries = .allocate(capacity: capacity)
    }

    deinit {
        entries.deinitialize(count: count.load(ordering: .acquiring))
        entries.deallocate()
    }

    /// The slot remembered for `keyPath`, if any.
    @inline(__always)
    func slot(for keyPath: AnyKeyPath) -> PersistedSlot? {
        let identity = ObjectIdentifier(keyPath)
        let published = count.load(ordering: .acquiring)
        var index = 0
        while index < published {
            if entries[index].identity == identity { return entries[index].slot }
            index &+= 1
        }
        return nil
    }

    /// The slot remembered for `keyPath`, scanning from position `start`
    /// and wrapping around; `start` becomes the position after the one
    /// found. A caller that reads a class's properties in the order they
    /// were first read (a loop reading each object's properties) finds
    /// each one at the first comparison, where a scan from the start costs
    /// one comparison per property before it.
    @inline(__always)
    func slot(for keyPath: AnyKeyPath, startingAt start: inout Int) -> PersistedSlot? {
        let identity = ObjectIdentifier(keyPath)
        let published = count.load(ordering: .acquiring)
        var index = start < published ? start : 0
        var remaining = published
        while remaining > 0 {
            if entries[index].identity == identity {
                start = index &+ 1
                return entries[index].slot
            }
            index &+= 1
            if index == published { index = 0 }
            remaining &-= 1
        }
        return nil
    }

    /// Remembers the slot of `keyPath` (`.ignored` for a property the
    /// schema leaves out), unless the table is full or has it already.
    func remember(_ slot: PersistedSlot, for keyPath: AnyKeyPath) {
        writer.withLock {
            let published = count.load(ordering: .relaxed)
            guard published < capacity, self.slot(for: keyPath) == nil else { return }
            (entries + published).initialize(to: Entry(identity: ObjectIdentifier(keyPath), slot: slot))
            keyPaths.append(keyPath)
            count.store(published + 1, ordering: .releasing)
        }
    }
}
