import RealmCore

/// A property declared with `let`, holding an optional value (or, later,
/// an `AnyRealmValue`): Realm 10's successor of ``RealmOptional``, which
/// takes any optional type rather than numbers and Booleans only.
///
/// ```swift
/// class Person: Object {
///     let age = RealmProperty<Int?>()
///     let nickname = RealmProperty<String?>()
/// }
/// person.age.value = 28
/// ```
///
/// `@Persisted var age: Int?` is the same property in the newer spelling.
public final class RealmProperty<Value: _Persistable>: RealmOptionalBase {
    private enum Storage {
        case unmanaged(Value)
        case managed(Realm, ObjectKey, ClassHandle, Int)
    }

    private var storage: Storage
    /// The Realm's count of `invalidate()` calls when the owner was bound.
    private var invalidations = 0

    /// A property holding its type's default value (nil for optionals).
    public init() {
        storage = .unmanaged(Value._defaultValue)
    }

    /// The value, read from and written to the Realm once the owner is
    /// managed (writes inside a write transaction).
    public var value: Value {
        get {
            switch storage {
            case .unmanaged(let value):
                return value
            case .managed(let realm, let key, let handle, let property):
                verifyValid(realm, handle)
                let stored = realm.perform("read a property", ifDamaged: .null) { try $0.value(of: key, property: property, in: handle) }
                return Value._fromValue(stored, in: realm)
            }
        }
        set {
            switch storage {
            case .unmanaged:
                storage = .unmanaged(newValue)
            case .managed(let realm, let key, let handle, let property):
                verifyValid(realm, handle)
                realm.verifyObjectWritable()
                realm.recordingFailure(of: "set '\(handle.className).\(realm.propertyName(property, of: handle))'") {
                    if let mixed = newValue as? AnyRealmValue, mixed.isNestedCollection {
                        try realm.storeMixed(mixed, at: .property(handle, key, property))
                    } else {
                        try realm.transaction.setValue(try newValue._toValue(in: realm), of: key, property: property, in: handle)
                    }
                }
            }
        }
    }

    static var wrappedType: _Persistable.Type { Value.self }
    static var isNullable: Bool { Value._isOptional }

    var unmanagedValue: _Persistable? {
        if case .unmanaged(let value) = storage { return value }
        return nil
    }

    func setUnmanaged(_ value: _Persistable?) {
        storage = .unmanaged((value as? Value) ?? Value._fromValue(.null, in: nil))
    }

    func bind(to realm: Realm, owner: ObjectKey, ownerHandle: ClassHandle, property: Int) {
        storage = .managed(realm, owner, ownerHandle, property)
        invalidations = realm.state.invalidations
    }

    private func verifyValid(_ realm: Realm, _ handle: ClassHandle) {
        if invalidations != realm.state.invalidations {
            preconditionFailure("Object of class '\(handle.className)' has been deleted or invalidated.")
        }
    }
}
