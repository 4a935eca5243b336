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
    @usableFromInline
    enum Storage {
        case unmanaged(Value)
        /// Managed, with the property's index once resolved.
        case managed(Int)
        /// Marks this property while its index is being resolved.
        case probe
    }

    @usableFromInline
    var storage: Storage
    let isPrimaryKey: Bool
    let isIndexed: Bool

    /// A property with an initial value.
    public init(wrappedValue: Value) {
        storage = .unmanaged(wrappedValue)
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
        storage = .unmanaged(wrappedValue)
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

    // The accessors of managed objects are the hot path of the object API:
    // inlined into the model class, the storage key path is a constant and
    // reading the resolved index is a plain load. Everything else (the
    // first access, unmanaged objects, the typed builder's probes) takes
    // the out-of-line slow path.
    @inlinable
    public static subscript<EnclosingSelf: Object>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Self>
    ) -> Value {
        get {
            if case .managed(let index) = object[keyPath: storageKeyPath].storage, let realm = object._realm {
                return Value._fromValue(realm.readValue(of: object, property: index), in: realm)
            }
            return slowGet(object, storageKeyPath)
        }
        set {
            if case .managed(let index) = object[keyPath: storageKeyPath].storage, let realm = object._realm {
                realm.writeValue(newValue, of: object, property: index)
                return
            }
            slowSet(newValue, object, storageKeyPath)
        }
    }

    @usableFromInline
    static func slowGet<EnclosingSelf: Object>(_ object: EnclosingSelf, _ storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Self>) -> Value {
        if let recorder = object._accessRecorder, let index = unmanagedIndex(object, storageKeyPath) {
            recorder(index)
            return Value._defaultValue
        }
        // Ignored properties stay plain stored values even on managed
        // objects, as the seeds say.
        guard let realm = object._realm, let index = managedIndex(object, storageKeyPath) else {
            if object._unmanagedOverrides != nil, let index = unmanagedIndex(object, storageKeyPath),
               let entry = object._override(index) {
                return (entry as? Value) ?? Value._fromValue(.null, in: nil)
            }
            if case .unmanaged(let value) = object[keyPath: storageKeyPath].storage { return value }
            return Value._defaultValue
        }
        return Value._fromValue(realm.readValue(of: object, property: index), in: realm)
    }

    @usableFromInline
    static func slowSet<EnclosingSelf: Object>(_ newValue: Value, _ object: EnclosingSelf, _ storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Self>) {
        guard let realm = object._realm, let index = managedIndex(object, storageKeyPath) else {
            if object._unmanagedOverrides != nil, let index = unmanagedIndex(object, storageKeyPath) {
                object._unmanagedOverrides![index] = nil
            }
            object[keyPath: storageKeyPath].storage = .unmanaged(newValue)
            return
        }
        realm.writeValue(newValue, of: object, property: index)
    }

    /// The property's index for an unmanaged object, without changing its
    /// storage.
    private static func unmanagedIndex<EnclosingSelf: Object>(_ object: EnclosingSelf, _ keyPath: ReferenceWritableKeyPath<EnclosingSelf, Self>) -> Int? {
        object._classInfo.propertyIndex(forStorage: keyPath) { probe, marked in
            (probe as! EnclosingSelf)[keyPath: keyPath].storage = marked ? .probe : .unmanaged(Value._defaultValue)
        }
    }

    /// The property's index on a managed object, resolved on first access
    /// and kept in storage; nil for an ignored property.
    @inline(__always)
    private static func managedIndex<EnclosingSelf: Object>(_ object: EnclosingSelf, _ keyPath: ReferenceWritableKeyPath<EnclosingSelf, Self>) -> Int? {
        if case .managed(let index) = object[keyPath: keyPath].storage { return index }
        guard object._realm != nil, let index = unmanagedIndex(object, keyPath) else { return nil }
        object[keyPath: keyPath].storage = .managed(index)
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
    /// The unmanaged value of the storage at `pointer`, converted for
    /// storing without boxing it (nil when the storage holds none).
    static func unmanagedStoredValue(at pointer: UnsafeRawPointer) throws -> RealmCore.Value?
    /// Switches the storage at `pointer` to the managed property `index`,
    /// so that the accessors go straight to the Realm.
    static func markManaged(at pointer: UnsafeMutableRawPointer, index: Int)
}

extension Persisted: PersistedProperty {
    var isProbe: Bool {
        if case .probe = storage { return true }
        return false
    }

    static var valueType: _Persistable.Type { Value.self }

    var unmanagedValue: _Persistable? {
        if case .unmanaged(let value) = storage { return value }
        return nil
    }

    static func unmanagedValue(at pointer: UnsafeRawPointer) -> _Persistable? {
        pointer.assumingMemoryBound(to: Self.self).pointee.unmanagedValue
    }

    static func markManaged(at pointer: UnsafeMutableRawPointer, index: Int) {
        pointer.assumingMemoryBound(to: Self.self).pointee.storage = .managed(index)
    }

    static func unmanagedStoredValue(at pointer: UnsafeRawPointer) throws -> RealmCore.Value? {
        guard case .unmanaged(let value) = pointer.assumingMemoryBound(to: Self.self).pointee.storage else { return nil }
        return try value._toValue(in: nil)
    }
}
