import Foundation
import RealmCore

/// The base class of Realm model classes.
///
/// Subclass it and declare stored properties with ``Persisted`` (and the
/// generic `let` properties ``List``, ``RealmOptional`` and
/// ``LinkingObjects``):
///
/// ```swift
/// class Dog: Object {
///     @Persisted var name = ""
///     @Persisted var age = 0
///     @Persisted var owner: Person?
/// }
/// ```
///
/// An object is *unmanaged* until it is added to a Realm: a plain Swift
/// object that can be passed between threads. Once managed, it is a live
/// view of its row: each property read sees the Realm's current version,
/// and writes (inside a write transaction) are visible at once to every
/// instance of the same object in that Realm. A managed object belongs to
/// the thread of its Realm; pass it to another thread with a
/// ``ThreadSafeReference``.
///
/// Every property must have a default value, because Realm discovers the
/// schema by reflecting over an instance made with `init()`.
///
/// As in Realm, an instance is an accessor, not the object: two reads of
/// the same object may give two instances (compare objects with `==`). A
/// loop over a collection that keeps none of the objects it is handed (no
/// strong, weak or unowned reference) may even get one instance rebound to
/// each object in turn, when the class has no stored property besides its
/// `@Persisted` ones; `init()` and `deinit` then run once for the loop, not
/// once per object. A class with a stored property of its own (an
/// ignored property) always gets an instance per object.
open class Object: CustomStringConvertible {
    // Managed state; nil realm means unmanaged.
    //
    // Every property read of a managed object passes through these fields,
    // so they are declared `@exclusivity(unchecked)`: an object belongs to
    // one thread, and none of them is ever passed `inout` across a call, so
    // the runtime's access tracking (a thread-local set per access) would
    // only ever confirm what the confinement already guarantees.
    @usableFromInline
    @exclusivity(unchecked)
    final var _realm: Realm? {
        didSet {
            _state = _realm.map { Unmanaged.passUnretained($0.state) }
            _invalidations = _realm?.state.invalidations ?? 0
            if _realm != nil { _bindPersistedProperties() }
        }
    }
    /// `_realm`'s state, unretained (`_realm` keeps it alive), for the read
    /// path: the state is weakly referenced (by the Realm cache), so
    /// retaining it takes the runtime's slow path, twice per property read.
    @exclusivity(unchecked)
    final var _state: Unmanaged<RealmState>?
    /// The Realm's count of `invalidate()` calls when the object was bound
    /// to it: a later call invalidates the object.
    @exclusivity(unchecked)
    final var _invalidations = 0
    /// The transaction's change counter when a query, link or list made this
    /// accessor: while it has not moved, nothing can have deleted the
    /// object, so a row that cannot be read means a damaged file.
    @exclusivity(unchecked)
    final var _madeAtChange = UInt64.max
    @exclusivity(unchecked)
    final var _key = ObjectKey(0)
    @exclusivity(unchecked)
    final var _handle = ClassHandle?.none
    /// Set when this instance deleted its object, so it stays invalidated
    /// even if a cancelled write restores the data (as the seeds specify).
    final var _deletedThroughThisInstance = false
    @exclusivity(unchecked)
    final var _cachedClassInfo: ClassInfo?
    /// Whether the `@Persisted` storages know this object (see
    /// ``_bindPersistedProperties()``).
    @exclusivity(unchecked)
    final var _arePersistedPropertiesBound = false
    /// The row a collection read this object's values in, valid while the
    /// batch's stamp matches the transaction's change counter.
    @exclusivity(unchecked)
    final var _rowBatch: RowBatch? {
        didSet { _rowBatchReference = _rowBatch.map { Unmanaged.passUnretained($0) } }
    }
    /// `_rowBatch`, unretained, for the read path (which would otherwise
    /// retain and release it on every property read).
    @exclusivity(unchecked)
    final var _rowBatchReference: Unmanaged<RowBatch>?
    /// The cursor row a loop handed this object out on, readable while it
    /// is at `_row` (``CursorRow/isAt(_:)``) and the transaction's
    /// change counter is its stamp.
    @exclusivity(unchecked)
    final var _cursorRow: CursorRow? {
        didSet { _cursorRowReference = _cursorRow.map { Unmanaged.passUnretained($0) } }
    }
    /// `_cursorRow`, unretained, for the read path.
    @exclusivity(unchecked)
    final var _cursorRowReference: Unmanaged<CursorRow>?
    /// The object's row in `_rowBatch`, or the position of `_cursorRow`.
    @exclusivity(unchecked)
    final var _row = 0
    /// Values set by name (``subscript(_:)``, `init(value:)`) on an
    /// unmanaged object, by property index, with `NSNull` for nil; they take
    /// precedence over the `@Persisted` storage, which cannot be reached by
    /// name.
    @usableFromInline
    @exclusivity(unchecked)
    final var _unmanagedOverrides: [Int: Any]? {
        didSet { if _unmanagedOverrides != nil { _bindPersistedProperties() } }
    }

    /// The override for a property: nil when there is none, `.some(nil)`
    /// when it was set to nil.
    final func _override(_ index: Int) -> _Persistable?? {
        guard let entry = _unmanagedOverrides?[index] else { return nil }
        return .some(entry is NSNull ? nil : entry as? _Persistable)
    }
    /// The properties `init(value:)` was given, for partial updates with
    /// `create(_:value:update:)`.
    final var _providedProperties: Set<Int>?
    /// On a probe object (the typed query builder's, a projection's): told
    /// the index of each `@Persisted` property read, to turn key paths into
    /// property names.
    @usableFromInline
    @exclusivity(unchecked)
    final var _accessRecorder: AccessRecorder? {
        didSet {
            guard _accessRecorder != nil else { return }
            _bindPersistedProperties()
            // A probe records reads of its collection properties too.
            if Swift.type(of: self) != DynamicObject.self { _classInfo.layout.collectionBindings.bind(self) }
        }
    }

    /// Tells the object's `@Persisted` storages their object and property
    /// index, once, when it becomes managed, a probe or gets values set by
    /// name: until then they are plain stored values (see ``Persisted``).
    final func _bindPersistedProperties() {
        // A `DynamicObject` keeps its values by name, and its info depends
        // on its class name, which may not be set yet.
        guard !_arePersistedPropertiesBound, Swift.type(of: self) != DynamicObject.self else { return }
        // An instance made while its thread reflects over its class (the
        // one reflection makes, whose `init` may use its properties) has no
        // info to bind with yet, and asking for it would start the
        // reflection again.
        if _cachedClassInfo == nil && ClassInfo.isBeingReflected(Swift.type(of: self)) { return }
        _bindPersistedProperties(with: _classInfo)
    }

    /// Binds the `@Persisted` storages of a new instance with its class's
    /// `info`, for a caller that has it at hand (an object factory).
    final func _bindPersistedProperties(with info: ClassInfo) {
        _arePersistedPropertiesBound = true
        info.layout.bindings.bind(self)
    }

    /// Whether the object is managed by a Realm (without retaining it).
    @inlinable
    final var _isManaged: Bool { _realm != nil }

    /// Creates an unmanaged object with the properties' default values.
    public required init() {}

    /// Creates an unmanaged object from a dictionary of property values by
    /// name, an array of values in property order, or another object of the
    /// same class; nested dictionaries and arrays create linked objects.
    ///
    /// An initializer cannot report bad input (a value of the wrong type,
    /// `null` for a required property, too few values in an array): the
    /// object keeps the values read before it and its defaults, and remembers
    /// the error, which adding it to a Realm reports as `add` reports its
    /// own (the commit throws it). Use ``Realm/create(_:value:update:)-(_,_,UpdatePolicy)``
    /// to have the error thrown at once.
    public convenience init(value: Any) {
        self.init()
        do {
            try ValueImporter.fill(self, from: value)
        } catch {
            _recordImportFailure(error)
        }
    }

    /// Keeps the first error of input an unmanaged object could not take,
    /// for adding it to report.
    final func _recordImportFailure(_ error: Realm.Error) {
        if _unmanagedOverrides == nil { _unmanagedOverrides = [:] }
        if _unmanagedOverrides![Self.importFailureSlot] == nil {
            _unmanagedOverrides![Self.importFailureSlot] = error
        }
    }

    /// Where ``init(value:)`` keeps the error of input it could not take:
    /// an index no property has.
    static let importFailureSlot = -1

    /// The error ``init(value:)`` met, if any.
    final var _importFailure: Realm.Error? {
        _unmanagedOverrides?[Self.importFailureSlot] as? Realm.Error
    }

    // MARK: Class configuration

    /// The name of the primary-key property, if any. Override to declare
    /// one (or use `@Persisted(primaryKey: true)`).
    open class func primaryKey() -> String? { nil }

    /// The names of the properties to index (or use
    /// `@Persisted(indexed: true)`).
    open class func indexedProperties() -> [String] { [] }

    /// The names of `@Persisted` properties Realm should not store.
    open class func ignoredProperties() -> [String] { [] }

    /// The class's name in the Realm: the unqualified Swift type name.
    open class func className() -> String {
        String(describing: self)
    }

    /// Whether objects of this class are embedded in a parent
    /// (``EmbeddedObject`` overrides this).
    open class var isEmbedded: Bool { false }

    // MARK: State

    /// The Realm managing this object, or nil when it is unmanaged. It
    /// stays set once the object is invalidated (deleted, or its Realm
    /// invalidated), as in Realm.
    public var realm: Realm? {
        _realm
    }

    /// Whether the object was deleted from its Realm, or its Realm was
    /// invalidated; an invalidated object must not be read.
    public var isInvalidated: Bool {
        guard let realm = _realm else { return false }
        return _deletedThroughThisInstance || _invalidations != realm.state.invalidations || !realm.objectExists(self)
    }

    /// The object's schema.
    public var objectSchema: ObjectSchema {
        _classInfo.objectSchema
    }

    /// Whether `object` is the same stored object as this one (the same
    /// stored class, key and Realm file), whether either is a typed or a
    /// `DynamicObject`; unmanaged objects are only the same as themselves.
    public func isSameObject(as object: Object?) -> Bool {
        guard let object else { return false }
        if object === self { return true }
        guard let realm = _realm, let other = object._realm, let handle = _handle, let otherHandle = object._handle else { return false }
        return _key == object._key && handle.className == otherHandle.className
            && realm.configuration.identity == other.configuration.identity
    }

    // MARK: Dynamic access

    /// The value of the property named `key`: a Swift value (`Int`,
    /// `String`, `Date`, an `Object` for links, a `List` for lists, nil).
    ///
    /// - Precondition: the class has such a property.
    public subscript(key: String) -> Any? {
        get { DynamicAccess.value(of: self, forKey: key) }
        set { DynamicAccess.setValue(newValue, of: self, forKey: key) }
    }

    /// The value of the property named `key`; see ``subscript(_:)``.
    public func value(forKey key: String) -> Any? {
        self[key]
    }

    /// Sets the property named `key` from a Swift value.
    public func setValue(_ value: Any?, forKey key: String) {
        self[key] = value
    }

    /// The value at `keyPath`: a property name, or names joined by dots
    /// through links (`"owner.name"`). A nil link on the way gives nil; a
    /// list or linking objects on the way gives an array of the values of
    /// its objects (`"dogs.name"`), as key-value coding does.
    ///
    /// - Precondition: each name but the last is a link, a list of objects
    ///   or linking objects, and the last is a property of the class it
    ///   leads to.
    public func value(forKeyPath keyPath: String) -> Any? {
        DynamicAccess.value(of: self, forKeyPath: keyPath)
    }

    /// Sets the property at `keyPath` (see ``value(forKeyPath:)``) of the
    /// object it leads to, or of each object of a list on the way; does
    /// nothing through a nil link. Inside a write transaction for a managed
    /// object.
    public func setValue(_ value: Any?, forKeyPath keyPath: String) {
        DynamicAccess.setValue(value, of: self, forKeyPath: keyPath)
    }

    /// The object's class and properties in Realm's format (see
    /// `ObjectDescription`), nested objects and lists five levels deep.
    open var description: String {
        ObjectDescription.describe(self)
    }

    // MARK: Internals

    /// The class's reflected schema and accessors.
    final var _classInfo: ClassInfo {
        if let info = _cachedClassInfo { return info }
        let info: ClassInfo
        // The Realm first: a new, unmanaged object (one per add) then
        // skips the dynamic cast.
        if let realm = _realm, let dynamic = self as? DynamicObject {
            info = realm.state.dynamicInfo(dynamic.dynamicClassName)
        } else {
            info = ClassInfo.of(Swift.type(of: self))
        }
        _cachedClassInfo = info
        return info
    }
}

/// The base class of embedded models: objects that exist only inside one
/// parent object, are deleted with it, and are never added or queried on
/// their own.
///
/// ```swift
/// class Address: EmbeddedObject {
///     @Persisted var street = ""
/// }
/// class Contact: Object {
///     @Persisted var address: Address?
/// }
/// ```
open class EmbeddedObject: Object {
    override open class var isEmbedded: Bool { true }
}

extension Object: _Persistable {
    public static var _propertyType: PropertyType { .object }
    public static var _objectType: Object.Type? { self }
    public static var _readsRealm: Bool { true }
    public static var _defaultValue: Self { Self() }

    public static func _fromValue(_ value: Value, in realm: Realm?) -> Self {
        guard case .object(let key) = value, let realm else { return Self() }
        return realm.makeObject(Self.self, key: key)
    }

    public func _toValue(in realm: Realm?) throws -> Value {
        guard let realm else { throw Realm.Error(.fail, "Cannot store a link to an object outside a Realm.") }
        return .object(try realm.linkKey(for: self))
    }
}

/// `autoreleasepool` does not exist on Linux; this one runs its body so the
/// seeds' threading samples compile unchanged.
#if !canImport(ObjectiveC)
public func autoreleasepool<Result>(invoking body: () throws -> Result) rethrows -> Result {
    try body()
}
#endif
