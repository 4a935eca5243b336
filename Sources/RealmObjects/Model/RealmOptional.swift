import RealmCore

/// An optional number or Bool property, as the seeds declare them:
///
/// ```swift
/// class Person: Object {
///     let age = RealmOptional<Int>()
/// }
/// person.age.value = 28
/// ```
///
/// Declare with `let`. (`@Persisted var age: Int?` is the same property in
/// the newer spelling.)
public final class RealmOptional<Wrapped: _Persistable>: RealmOptionalBase, ManagedProperty {
    private enum Storage {
        case unmanaged(Wrapped?)
        case managed(Realm, ObjectKey, ClassHandle, Int)
    }

    private var storage: Storage
    /// The Realm's count of `invalidate()` calls when the owner was bound:
    /// a later call invalidates the owner, and this property with it.
    private var invalidations = 0

    /// An optional holding `value` (nil by default).
    public init(_ value: Wrapped? = nil) {
        storage = .unmanaged(value)
    }

    /// The value, read from and written to the Realm once the owner is
    /// managed (writes inside a write transaction).
    public var value: Wrapped? {
        get {
            switch storage {
            case .unmanaged(let value):
                return value
            case .managed(let realm, let key, let handle, let property):
                verifyValid(realm)
                let stored = realm.perform("read an optional property", ifDamaged: .null) { try $0.value(of: key, property: property, in: handle) }
                return Wrapped?._fromValue(stored, in: realm)
            }
        }
        set {
            switch storage {
            case .unmanaged:
                storage = .unmanaged(newValue)
            case .managed(let realm, let key, let handle, let property):
                verifyValid(realm)
                realm.verifyObjectWritable()
                realm.recordingFailure(of: "set '\(handle.className).\(realm.propertyName(property, of: handle))'") {
                    try realm.transaction.setValue(try newValue._toValue(in: realm), of: key, property: property, in: handle)
                }
            }
        }
    }

    static var wrappedType: _Persistable.Type { Wrapped.self }
    static var isNullable: Bool { true }

    var unmanagedValue: _Persistable? {
        if case .unmanaged(let value) = storage { return value }
        return nil
    }

    func setUnmanaged(_ value: _Persistable?) {
        storage = .unmanaged(value as? Wrapped)
    }

    func bind(to realm: Realm, owner: ObjectKey, ownerHandle: ClassHandle, property: Int) {
        storage = .managed(realm, owner, ownerHandle, property)
        invalidations = realm.state.invalidations
    }

    private func verifyValid(_ realm: Realm) {
        if invalidations != realm.state.invalidations {
            preconditionFailure("Object of class '\(ownerClassName)' has been deleted or invalidated.")
        }
    }

    private var ownerClassName: String {
        if case .managed(_, _, let handle, _) = storage { return handle.className }
        return "?"
    }
}

/// What schema discovery needs of a `RealmOptional` or `RealmProperty`
/// whatever its type.
protocol RealmOptionalBase: ManagedProperty {
    /// The stored type (for `RealmProperty<Int?>`, `Int?`).
    static var wrappedType: _Persistable.Type { get }
    /// Whether the property may hold nil.
    static var isNullable: Bool { get }
    var unmanagedValue: _Persistable? { get }
    func setUnmanaged(_ value: _Persistable?)
}
