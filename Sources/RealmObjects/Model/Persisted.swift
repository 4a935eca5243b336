import RealmCore

/// Declares a property of an ``Object`` subclass that Realm stores: the
/// Linux spelling of the seeds' `@objc dynamic var`.
///
/// ```swift
/// class Dog: Object {
///     @Persisted(primaryKey: true) var id = 0
///     @Persisted(indexed: true) var name = ""
///     @Persisted var owner: Person?
/// }
/// ```
///
/// On an unmanaged object the property is a plain stored value. Once the
/// object is managed by a Realm, every read goes to the Realm's current
/// version and every write (inside a write transaction) to the database, so
/// all instances of the object in that Realm see it at once.
@propertyWrapper
public struct Persisted<Value: _Persistable> {
    // Plain fields rather than an enum: code that reaches a property
    // without knowing its type (copying an object into a Realm) then needs
    // no generic metadata.

    /// The value of an unmanaged object (left as it was once managed).
    @usableFromInline
    var unmanagedStorage: Value
    /// Marks this property while its index is being resolved.
    var isProbe = false
    let isPrimaryKey: Bool
    let isIndexed: Bool

    /// A property with an initial value.
    public init(wrappedValue: Value) {
        unmanagedStorage = wrappedValue
        isPrimaryKey = false
        isIndexed = false
    }

    /// A property with its type's default value (zero, empty, nil, a new
    /// ObjectId or UUID, an enum's first case).
    public init() {
        self.init(wrappedValue: Value._defaultValue)
    }

    /// A property that is the class's primary key, or indexed.
    public init(wrappedValue: Value, primaryKey: Bool = false, indexed: Bool = false) {
        unmanagedStorage = wrappedValue
        isPrimaryKey = primaryKey
        isIndexed = indexed
    }

    /// A primary-key or indexed property with its type's default value.
    public init(primaryKey: Bool = false, indexed: Bool = false) {
        self.init(wrappedValue: Value._defaultValue, primaryKey: primaryKey, indexed: indexed)
    }

    @available(*, unavailable, message: "@Persisted can only be used in an Object subclass")
    public var wrappedValue: Value {
        get { fatalError("@Persisted can only be used in an Object subclass") }
        // swiftlint:disable:next unused_setter_value
        set { fatalError("@Persisted can only be used in an Object subclass") }
    }

    // The accessors are the hot path of the object API. A key path
    // projection through the runtime costs hundreds of instructions, so
    // the property is found instead by the identity of its storage key
    // path (`slot`), and an unmanaged value is read at the storage's
    // offset in the object. The rest (the first access of a property, an
    // ignored property, values set by name, the typed builder's probes)
    // takes the out-of-line slow path.
    @inlinable
    public static subscript<EnclosingSelf: Object>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Self>
    ) -> Value {
        get {
            let slot = object._cachedSlot(storageKeyPath)
            if slot.index >= 0 {
                if object._isManaged { return Value._fromManaged(object, property: slot.index) }
                if object._isPlainUnmanaged {
                    return object._storageAddress(slot.offset).assumingMemoryBound(to: Self.self).pointee.unmanagedStorage
                }
            }
            return slowGet(object, storageKeyPath)
        }
        set {
            let slot = object._cachedSlot(storageKeyPath)
            if slot.index >= 0 {
                if let realm = object._realm {
                    realm.writeValue(newValue, of: object, property: slot.index)
                    return
                }
                if object._isPlainUnmanaged {
                    object._storageAddress(slot.offset).assumingMemoryBound(to: Self.self).pointee.unmanagedStorage = newValue
                    return
                }
            }
            slowSet(newValue, object, storageKeyPath)
        }
    }

    @usableFromInline
    static func slowGet<EnclosingSelf: Object>(_ object: EnclosingSelf, _ storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Self>) -> Value {
        // A plain unmanaged object holds its value: no index is needed, and
        // none may be looked up while the class's schema is being read,
        // which makes an instance (whose init may use its properties).
        if object._realm == nil && object._isPlainUnmanaged {
            if !ClassInfo.isBeingReflected(Swift.type(of: object)) { _ = propertyIndex(object, storageKeyPath, waiting: false) }
            return object[keyPath: storageKeyPath].unmanagedStorage
        }
        // Resolving the index also remembers the slot, so that the next
        // access takes the fast path.
        let index = propertyIndex(object, storageKeyPath)
        if let recorder = object._accessRecorder, let index {
            recorder(index)
            return Value._defaultValue
        }
        // Ignored properties stay plain stored values even on managed
        // objects, as the seeds say.
        guard let realm = object._realm, let index else {
            if object._unmanagedOverrides != nil, let index, let entry = object._override(index) {
                return (entry as? Value) ?? Value._fromValue(.null, in: nil)
            }
            return object[keyPath: storageKeyPath].unmanagedStorage
        }
        return Value._fromValue(realm.readValue(of: object, property: index), in: realm)
    }

    @usableFromInline
    static func slowSet<EnclosingSelf: Object>(_ newValue: Value, _ object: EnclosingSelf, _ storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Self>) {
        // See slowGet: a model's init may set its properties.
        if object._realm == nil && object._isPlainUnmanaged {
            // Outside reflection, finding the slot now sends the next set
            // of this property (on any object) down the fast path: objects
            // made to be added are set property by property.
            if !ClassInfo.isBeingReflected(Swift.type(of: object)) { _ = propertyIndex(object, storageKeyPath, waiting: false) }
            object[keyPath: storageKeyPath].unmanagedStorage = newValue
            return
        }
        let index = propertyIndex(object, storageKeyPath)
        guard let realm = object._realm, let index else {
            if object._unmanagedOverrides != nil, let index {
                object._unmanagedOverrides![index] = nil
            }
            object[keyPath: storageKeyPath].unmanagedStorage = newValue
            return
        }
        realm.writeValue(newValue, of: object, property: index)
    }

    /// The property's schema index (nil for an ignored property), found by
    /// marking it on a probe object, and its slot remembered.
    ///
    /// Unless `waiting`, this is only a chance to remember the slot: it
    /// gives up rather than wait for the class's lock (see
    /// `ClassInfo.propertyIndex(forStorage:waiting:mark:)`).
    private static func propertyIndex<EnclosingSelf: Object>(_ object: EnclosingSelf, _ keyPath: ReferenceWritableKeyPath<EnclosingSelf, Self>,
                                                           waiting: Bool = true) -> Int? {
        let info = object._classInfo
        if let slot = info.cachedSlot(keyPath) { return slot.index >= 0 ? slot.index : nil }
        let found = info.propertyIndex(forStorage: keyPath, waiting: waiting) { probe, marked in
            (probe as! EnclosingSelf)[keyPath: keyPath].isProbe = marked
        }
        guard let index = found else { return nil }
        if let index, let offset = info.layout.storageOffset(ofProperty: index) {
            info.cacheSlot(PersistedSlot(index: index, offset: offset), for: keyPath)
        } else {
            info.cacheSlot(.ignored, for: keyPath)
        }
        return index
    }
}

/// What schema discovery needs to know of a `Persisted` property without
/// knowing its generic type.
protocol PersistedProperty {
    var isPrimaryKey: Bool { get }
    var isIndexed: Bool { get }
    var isProbe: Bool { get }
    static var valueType: _Persistable.Type { get }
    /// The unmanaged value, for copying an unmanaged object into a Realm.
    var unmanagedValue: _Persistable? { get }
    /// The unmanaged value of the storage at `pointer` (inside an object).
    static func unmanagedValue(at pointer: UnsafeRawPointer) -> _Persistable?
    /// Sets the probe marker of the storage at `pointer` (inside an object).
    static func setProbe(_ marked: Bool, at pointer: UnsafeMutableRawPointer)
    /// Where the unmanaged value lies inside the property wrapper.
    static var unmanagedValueOffset: Int { get }
    /// The unmanaged value at `pointer` (the wrapper's address plus
    /// ``unmanagedValueOffset``), converted for storing without boxing it.
    ///
    /// It reads the value as a `Value`, not through the wrapper, so that a
    /// call through an existential metatype (one per property of each
    /// object added) needs no metadata of the wrapper's generic type.
    static func storedValue(ofUnmanagedValueAt pointer: UnsafeRawPointer) throws -> RealmCore.Value
}

extension Persisted: PersistedProperty {
    static var valueType: _Persistable.Type { Value.self }

    var unmanagedValue: _Persistable? { unmanagedStorage }

    static func unmanagedValue(at pointer: UnsafeRawPointer) -> _Persistable? {
        pointer.assumingMemoryBound(to: Self.self).pointee.unmanagedStorage
    }

    static func setProbe(_ marked: Bool, at pointer: UnsafeMutableRawPointer) {
        pointer.assumingMemoryBound(to: Self.self).pointee.isProbe = marked
    }

    static var unmanagedValueOffset: Int {
        MemoryLayout<Self>.offset(of: \Self.unmanagedStorage)!
    }

    static func storedValue(ofUnmanagedValueAt pointer: UnsafeRawPointer) throws -> RealmCore.Value {
        try pointer.assumingMemoryBound(to: Value.self).pointee._toValue(in: nil)
    }
}
