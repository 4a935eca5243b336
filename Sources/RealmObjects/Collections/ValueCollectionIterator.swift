import RealmCore

/// Iterates over a map's entries or a set's elements as they were when
/// iteration began.
///
/// A managed collection is read from the database a batch at a time, as
/// the loop asks for more (``CollectionStream``): a loop holds one batch,
/// not the whole collection, and a loop that stops early reads little
/// ahead. ``next()`` is inlinable, so that the loop over a batch is
/// specialized to the element type where it is written, as the standard
/// library's array iterator is; only a refill calls into the library.
public struct ValueCollectionIterator<Element>: IteratorProtocol {
    @usableFromInline var batch: [Element]
    @usableFromInline var position = 0
    @usableFromInline let stream: CollectionStream<Element>?

    /// Iterates over elements already read (an unmanaged collection's).
    init(elements: [Element]) {
        batch = elements
        stream = nil
    }

    /// Iterates over what `stream` reads.
    init(stream: CollectionStream<Element>) {
        batch = []
        self.stream = stream
    }

    /// The next element, or nil after the last.
    @inlinable
    public mutating func next() -> Element? {
        if position < batch.count {
            defer { position &+= 1 }
            return batch[position]
        }
        guard let stream, stream.refill(&batch) else { return nil }
        position = 1
        return batch[0]
    }
}

/// Reads the batches of a ``ValueCollectionIterator`` from a
/// ``CollectionCursor``, on the Realm's terms (its thread, or a frozen
/// Realm's lock; damage noted for the next throwing call).
@usableFromInline
final class CollectionStream<Element> {
    /// Replaces the batch's elements with up to `limit` elements read from
    /// the cursor. (The batch is emptied there, where its element type may
    /// be known, rather than here, where each element would be destroyed
    /// through its type's witness table.)
    typealias ReadBatch = (_ cursor: CollectionCursor, _ batch: inout [Element], _ limit: Int) throws(RealmError) -> Void

    private let realm: Realm
    private let action: String
    /// Nil once the cursor has handed out everything.
    private var cursor: CollectionCursor?
    private let readBatch: ReadBatch
    /// Small at first, so that a loop that stops early reads little ahead.
    private var batchSize = 16

    /// The number of elements of every batch but the first (and the last).
    static var elementsPerBatch: Int { 256 }

    init(realm: Realm, cursor: CollectionCursor, action: String, readBatch: @escaping ReadBatch) {
        self.realm = realm
        self.cursor = cursor
        self.action = action
        self.readBatch = readBatch
    }

    /// Replaces `batch` with the next elements; false at the end.
    @usableFromInline
    func refill(_ batch: inout [Element]) -> Bool {
        guard let cursor else {
            batch.removeAll()
            return false
        }
        let limit = batchSize
        realm.perform(action, ifDamaged: ()) { _ in try readBatch(cursor, &batch, limit) }
        // Fewer than asked for: the end (or damage, already noted).
        if batch.count < limit { self.cursor = nil }
        batchSize = Self.elementsPerBatch
        return !batch.isEmpty
    }
}
