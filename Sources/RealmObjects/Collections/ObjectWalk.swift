import RealmCore

/// A loop over a collection's objects: its cursor, and what makes the
/// objects, as `Results` and `List` iterators use it.
///
/// Not generic: it runs once per object, and generic code the compiler
/// cannot specialize for the caller's class would pay value-witness calls
/// per element (`Optional.map`, casts). The iterators turn its objects into
/// their element type.
///
/// The cursor streams in place: each object reads its row straight from
/// the cursor's statement (``CursorRow``), and nothing is copied for the
/// columns the loop does not read. Before the cursor steps on, an object
/// the loop kept (anyone else holds a reference to it) gets its row
/// copied into a batch, so that it goes on reading without a query.
///
/// A loop that lets each object go before asking for the next (`for dog in
/// dogs { total += dog.age }`) gets one instance, rebound to each object in
/// turn, rather than one allocated and freed per object. That is done only
/// when nobody can tell: the walk holds the only reference to the instance
/// (no strong, weak or unowned reference elsewhere), and its class keeps no
/// state beside its `@Persisted` properties (`ClassInfo.isRebindable`).
final class ObjectWalk {
    private let cursor: ObjectCursor
    /// The cursor's row, nil when the cursor has no statement (its
    /// objects read by key).
    private let cursorRow: CursorRow?
    /// `cursorRow`, unretained, for rebinding.
    private let cursorRowReference: Unmanaged<CursorRow>?
    private let factory: ObjectFactory
    /// The object handed out last. (A walk belongs to its Realm's thread:
    /// access tracking is left off.)
    @exclusivity(unchecked) private var last: Object?

    init(cursor: ObjectCursor, factory: ObjectFactory) {
        self.cursor = cursor
        self.factory = factory
        cursorRow = cursor.readRowsInPlace()
        cursorRowReference = cursorRow.map { Unmanaged.passUnretained($0) }
    }

    deinit {
        // A loop that stopped early may have kept its last object. (A
        // frozen Realm's walk may end on any thread.)
        if let lock = factory.realm.state.frozenLock {
            lock.withLock { if isLastHeldElsewhere() { keepRowOfLast() } }
        } else if isLastHeldElsewhere() {
            keepRowOfLast()
        }
    }

    /// The next object, or nil at the end (or when the file turns out to be
    /// damaged, which is noted for the next throwing call).
    func next() -> Object? {
        factory.realm.withAccess(nextOnThread)
    }

    private func nextOnThread() -> Object? {
        var reusable: Object?
        if last != nil {
            if isLastHeldElsewhere() {
                keepRowOfLast()
                last = nil
            } else if Self.mayRebind, factory.makesRebindableObjects {
                reusable = last
            }
        }
        // (Where references the Swift runtime does not count may exist,
        // an object that looked let go but was not reads by key once the
        // cursor moves on: slower, never wrong. Only rebinding needs the
        // counts to be complete.)
        let element: ObjectCursor.Element?
        do {
            element = try cursor.next()
        } catch {
            factory.realm.failedToRead(error, while: "read the next object of a collection")
            last = nil
            return nil
        }
        guard let element else {
            last = nil
            return nil
        }
        if let reusable {
            factory.rebind(reusable, to: element, cursorRow: cursorRowReference)
            return reusable
        }
        let object = factory.make(element, cursorRow: cursorRow)
        last = object
        return object
    }

    /// Whether someone besides the walk holds the last object, by the
    /// Swift runtime's counts of strong, weak and unowned references.
    private func isLastHeldElsewhere() -> Bool {
        guard last != nil else { return false }
        guard isKnownUniquelyReferenced(&last) else { return true }
        return !Unmanaged.passUnretained(last.unsafelyUnwrapped)._withUnsafeGuaranteedRef(Self.hasNoOtherReferences)
    }

    /// Copies the cursor's row into a batch for the last object, when it
    /// still reads that row, because the cursor is about to leave it.
    private func keepRowOfLast() {
        guard let object = last, let cursorRow, object._cursorRow === cursorRow, cursorRow.isAt(object._row),
              let kept = cursor.copyCurrentRow() else { return }
        object._rowBatch = kept.batch
        object._row = kept.row
        object._cursorRow = nil
    }

    /// Whether instances may be rebound at all. Where the Objective-C
    /// runtime exists, it can hold references the Swift runtime does not
    /// count (its weak tables, associated objects), so an instance is never
    /// rebound there.
    #if canImport(ObjectiveC)
    private static var mayRebind: Bool { false }
    #else
    private static var mayRebind: Bool { true }
    #endif

    /// Whether no weak or unowned reference to `object` exists (the runtime
    /// counts one of each for the object itself).
    @inline(__always)
    private static func hasNoOtherReferences(_ object: Object) -> Bool {
        _getWeakRetainCount(object) <= 1 && _getUnownedRetainCount(object) <= 1
    }
}
