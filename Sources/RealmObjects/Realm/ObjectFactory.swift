import RealmCore

/// Makes the managed objects of one class for a collection, with what
/// every object needs (class handle, class info) looked up once rather
/// than per object.
struct ObjectFactory {
    let realm: Realm
    private let type: Object.Type
    private let handle: ClassHandle
    private let info: ClassInfo
    private let className: String
    /// Whether the objects are `DynamicObject`s, whose class info follows
    /// the stored schema (so the factory must not outlive a schema change).
    let isDynamic: Bool

    /// A factory for the stored class `className`; nil when the file does
    /// not have it yet (so there is nothing to make).
    init?(realm: Realm, type: Object.Type, className: String) {
        guard let handle = realm.state.handleIfStored(className) else { return nil }
        self.realm = realm
        self.type = type
        self.handle = handle
        self.className = className
        isDynamic = type is DynamicObject.Type
        info = isDynamic ? realm.state.dynamicInfo(className) : ClassInfo.of(type)
    }

    /// The object for `element` of a cursor, answering reads from its row
    /// while the row is current.
    func make(_ element: ObjectCursor.Element) -> Object {
        let object = make(element.key)
        object._rowBatch = element.batch
        object._row = element.row
        return object
    }

    /// The object with key `key`.
    func make(_ key: ObjectKey) -> Object {
        let object = type.init()
        object._realm = realm
        object._key = key
        object._handle = handle
        object._cachedClassInfo = info
        if isDynamic {
            (object as! DynamicObject).dynamicClassName = className
        }
        if !info.boundProperties.isEmpty {
            realm.bindProperties(of: object, info: info, handle: handle)
        }
        return object
    }
}
