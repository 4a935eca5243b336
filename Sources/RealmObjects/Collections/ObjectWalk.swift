import RealmCore

/// A loop over a collection's objects: its cursor, and what makes the
/// objects, as `Results` and `List` iterators use it.
///
/// Not generic: it runs once per object, and generic code the compiler
/// cannot specialize for the caller's class would pay value-witness calls
/// per element (`Optional.map`, casts). The iterators turn its objects into
/// their element type.
final class ObjectWalk {
    private let cursor: ObjectCursor
    private let factory: ObjectFactory

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
        guard let element else { return nil }
        return factory.make(element)
    }
}
