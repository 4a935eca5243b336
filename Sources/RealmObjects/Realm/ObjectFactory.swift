import RealmCore

/// Makes the managed objects of one class for a collection, with what
/// every object needs (class handle, class info) looked up once rather
/// than per object.
struct ObjectFactory {
    /// What a factory needs of a stored model class, which a Realm keeps
    /// per class (see `RealmState.storedClass(_:named:)`).
    final class StoredClass {
        let type: Object.Type
        let handle: ClassHandle
        let info: ClassInfo
        let className: String
        /// Whether the objects are `DynamicObject`s, whose class info
        /// follows the stored schema (so it must not outlive a schema
        /// change).
        let isDynamic: Bool

        init(type: Object.Type, handle: ClassHandle, info: ClassInfo, className: String, isDynamic: Bool) {
            self.type = type
            self.handle = handle
            self.info = info
            self.className = className
            self.isDynamic = isDynamic
        }
    }

    let realm: Realm
    private let stored: StoredClass

    /// Whether the objects are `DynamicObject`s, whose class info follows
    /// the stored schema (so the factory must not outlive a schema change).
    var isDynamic: Bool { stored.isDynamic }

    /// A factory for the stored class `className`; nil when the file does
    /// not have it yet (so there is nothing to make).
    init?(realm: Realm, type: Object.Type, className: String) {
        guard let stored = realm.state.storedClass(type, named: className) else { return nil }
        self.realm = realm
        self.stored = stored
    }

    /// The object for `element` of a cursor, answering reads from its row
    /// while the row is current: a row of a batch, or `cursorRow`, the row
    /// of the cursor streaming in place.
    func make(_ element: ObjectCursor.Element, cursorRow: CursorRow?) -> Object {
        let object = make(element.key)
        if element.isInPlace {
            object._cursorRow = cursorRow
        } else {
            object._rowBatch = element.batch
        }
        object._row = element.row
        return object
    }

    /// Whether an instance this factory made may be rebound to another
    /// object (``rebind(_:to:cursorRow:)``).
    var makesRebindableObjects: Bool { stored.info.isRebindable }

    /// Binds `object`, an instance this factory made that nobody else
    /// holds, to the object of `element`, as if ``make(_:cursorRow:)``
    /// had made it: a loop that lets each object go then allocates none.
    /// `cursorRow` comes unretained (the caller holds it): consecutive
    /// objects share a row source, and keeping it, compared unretained,
    /// spares a retain and a release per object.
    ///
    /// - Precondition: ``makesRebindableObjects``.
    func rebind(_ object: Object, to element: ObjectCursor.Element, cursorRow: Unmanaged<CursorRow>?) {
        object._key = element.key
        if element.isInPlace, let cursorRow {
            if object._cursorRowReference?.toOpaque() != cursorRow.toOpaque() {
                object._cursorRow = cursorRow.takeUnretainedValue()
            }
            if object._rowBatchReference != nil { object._rowBatch = nil }
        } else {
            if object._cursorRowReference != nil { object._cursorRow = nil }
            if object._rowBatch !== element.batch { object._rowBatch = element.batch }
        }
        object._row = element.row
        object._madeAtChange = realm.transaction.changeCounter
        object._invalidations = realm.state.invalidations
        object._deletedThroughThisInstance = false
    }

    /// The object with key `key`.
    func make(_ key: ObjectKey) -> Object {
        let object = stored.type.init()
        // Bound here, with the info at hand, rather than when it becomes
        // managed: one object per row of `results[i]`, a link or a lookup.
        object._cachedClassInfo = stored.info
        object._bindPersistedProperties(with: stored.info)
        object._realm = realm
        object._key = key
        object._handle = stored.handle
        object._madeAtChange = realm.transaction.changeCounter
        if stored.isDynamic {
            (object as! DynamicObject).dynamicClassName = stored.className
        }
        if !stored.info.boundProperties.isEmpty {
            realm.bindProperties(of: object, info: stored.info, handle: stored.handle)
        }
        return object
    }
}
