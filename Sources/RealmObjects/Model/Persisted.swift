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
///
/// Only an `Object` subclass's properties are stored: used anywhere else,
/// `@Persisted` is a plain stored value.
@propertyWrapper
public struct Persisted<Value: _Persistable> {
    // Plain fields rather than an enum: code that reaches a property
    // without knowing its type (copying an object into a Realm, binding an
    // object's properties) then needs no generic metadata.

    /// The object and property this storage belongs to, once the object
    /// is managed, a typed-query probe or has values set by name; empty
    /// for a plain unmanaged object, whose value is `unmanagedStorage`.
    @usableFromInline
    var binding = PersistedBinding()
    /// Marks this property while the layout is checked against reflection.
    var isProbe = false
    let isPrimaryKey: Bool
    let isIndexed: Bool
    /// The value of an unmanaged object (left as it was once managed).
    @usableFromInline
    var unmanagedStorage: Value

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

    // The accessors are the hot path of the object API. The storage knows
    // its object and property index (bound once per instance, when the
    // object becomes managed), so a read goes straight to the Realm: the
    // `_enclosingInstance` subscript would instead be handed a key path,
    // which the runtime makes (and retains and releases) on every access,
    // and the property would then be looked up by the key path's identity.
    // An unbound storage is a plain unmanaged value. A bound object that is
    // not managed (a typed-query probe, values set by name) takes the
    // out-of-line slow path.

    /// The property's value: the stored value of an unmanaged object; the
    /// Realm's current value of a managed one.
    public var wrappedValue: Value {
        @inlinable
        get {
            guard let owner = binding.owner else { return unmanagedStorage }
            return owner._withUnsafeGuaranteedRef { object in
                object._isManaged
                    ? Value._fromManaged(object, property: Int(binding.index))
                    : Self.unmanagedValue(of: object, property: Int(binding.index), stored: unmanagedStorage)
            }
        }
        @inlinable
        set {
            guard let owner = binding.owner else {
                // A collection property's object stays: a managed one
                // takes the new elements (as Realm's assignment does).
                if Value._isCollection, let collection = unmanagedStorage as? any CollectionAssignment,
                   collection.assignContents(of: newValue) {
                    return
                }
                unmanagedStorage = newValue
                return
            }
            let stored = owner._withUnsafeGuaranteedRef { object in
                Self.set(newValue, of: object, property: Int(binding.index))
            }
            if !stored { unmanagedStorage = newValue }
        }
    }

    /// The value of a bound, unmanaged object's property: what a probe
    /// reports, a value set by name, or the stored value.
    @usableFromInline
    static func unmanagedValue(of object: Object, property index: Int, stored: Value) -> Value {
        if let recorder = object._accessRecorder {
            recorder.record(index)
            // A collection is read on: `\Person.dogs.count`.
            if Value._isCollection { return stored }
            // A link read goes on to a probe of the linked class, when the
            // recorder follows links.
            if let linked = Value._objectType, let probe = recorder.probe?(linked), let value = probe as? Value {
                return value
            }
            return Value._defaultValue
        }
        if object._unmanagedOverrides != nil, let entry = object._override(index) {
            return (entry as? Value) ?? Value._fromValue(.null, in: nil)
        }
        return stored
    }

    /// Sets a bound object's property: writes it to the Realm of a managed
    /// object (true), or drops a value set by name on an unmanaged one,
    /// which then stores the new value itself (false).
    @usableFromInline
    static func set(_ newValue: Value, of object: Object, property index: Int) -> Bool {
        if let realm = object._realm {
            realm.writeValue(newValue, of: object, property: index)
            return true
        }
        if object._unmanagedOverrides != nil {
            object._unmanagedOverrides![index] = nil
        }
        return false
    }
}

/// What a probe object reports its property reads to (see
/// ``Object/_accessRecorder``).
@usableFromInline
final class AccessRecorder {
    /// Told the index of each `@Persisted` property read.
    @usableFromInline
    let record: (Int) -> Void
    /// Gives the probe a link read returns, of the linked class; nil to
    /// stop at the link.
    @usableFromInline
    let probe: ((Object.Type) -> Object?)?

    init(record: @escaping (Int) -> Void, probe: ((Object.Type) -> Object?)? = nil) {
        self.record = record
        self.probe = probe
    }
}

/// The object and property a ``Persisted`` storage belongs to, written
/// into the storage (``ModelLayout/Bindings/bind(_:)``) when its object is
/// bound.
///
/// The owner is unretained: the storage lives inside its owner.
@usableFromInline
struct PersistedBinding {
    @usableFromInline
    var owner: Unmanaged<Object>?
    /// The property's index in the class's schema.
    @usableFromInline
    var index: Int32 = 0

    init() {}

    init(owner: Unmanaged<Object>, index: Int) {
        self.owner = owner
        self.index = Int32(truncatingIfNeeded: index)
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
    /// Where the binding lies inside the property wrapper.
    static var bindingOffset: Int { get }
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

    static var bindingOffset: Int {
        MemoryLayout<Self>.offset(of: \Self.binding)!
    }

    static func storedValue(ofUnmanagedValueAt pointer: UnsafeRawPointer) throws -> RealmCore.Value {
        try pointer.assumingMemoryBound(to: Value.self).pointee._toValue(in: nil)
    }
}
