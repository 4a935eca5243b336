import RealmCore

/// A loop over a collection's objects: its cursor, and what makes the
/// objects, as `Results` and `List` iterators use it.
///
/// Not generic: it runs once per object, and generic code the compiler
/// cannot specialize for the caller's class would pay value-witness calls
/// per element (`Optional.map`, casts). The iterators turn its objects into
/// their element type.
///
/// A loop that lets each object go before asking for the next (`for dog in
/// dogs { total += dog.age }`) gets one instance, rebound to each object in
/// turn, rather than one allocated and freed per object. That is done only
/// when nobody can tell: the walk holds the only reference to the instance
/// (no strong, weak or unowned reference elsewhere), and its class keeps no
/// state beside its `@Persisted` properties (`ClassInfo.isRebindable`).
final class ObjectWalk {
    private let cursor: ObjectCursor
    private let factory: ObjectFactory
    /// The object handed out last, while it may be rebound.
    private var last: Object?

    init(cursor: ObjectCursor, factory: ObjectFactory) {
        self.cursor = cursor
        self.factory = factory
    }

    /// The next object, or nil at the end (or when the file turns out to be
    /// damaged, which is noted for the next throwing call).
    func next() -> Object? {
        let realm = factory.realm
        realm.verifyThread()
        let element: ObjectCursor.Element?
        do {
            element = try cursor.next()
        } catch {
            realm.failedToRead(error, while: "read the next object of a collection")
            return nil
        }
        guard let element else {
            last = nil
            return nil
        }
        guard Self.mayRebind, factory.makesRebindableObjects else { return factory.make(element) }
        if isKnownUniquelyReferenced(&last), let object = last, Self.hasNoOtherReferences(object) {
            factory.rebind(object, to: element)
            return object
        }
        let object = factory.make(element)
        last = object
        return object
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
