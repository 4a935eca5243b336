import RealmCore

/// An object accessed by class and property names instead of a Swift model
/// class: what `realm.dynamicObjects("Dog")` and migrations hand out.
///
/// ```swift
/// for dog in realm.dynamicObjects("Dog") {
///     print(dog["name"] as! String)
/// }
/// ```
///
/// Links read as `DynamicObject`s, lists as arrays (`[DynamicObject]` for
/// lists of objects, `[Any?]` for lists of values).
@dynamicMemberLookup
public final class DynamicObject: Object {
    var dynamicClassName = ""

    public required init() {}

    /// A property by name, as `object["name"]` reads and writes it:
    /// Realm 10's `dynamicObject.name`.
    public subscript(dynamicMember member: String) -> Any? {
        get { self[member] }
        set { self[member] = newValue }
    }

    override public class func className() -> String { "DynamicObject" }

    /// The name of the object's class.
    public var className: String { dynamicClassName }

}

extension Realm {
    /// Every object of the class named `className`, accessed dynamically.
    ///
    /// - Precondition: the Realm has such a class.
    public func dynamicObjects(_ className: String) -> Results<DynamicObject> {
        withAccess {
            precondition(state.handleIfStored(className) != nil, "The Realm at '\(configuration.identity)' has no class named '\(className)'.")
            return Results(realm: self, query: Query(className: className))
        }
    }

    /// The object of the class named `className` with a primary key, or nil.
    public func dynamicObject(ofType className: String, forPrimaryKey key: Any) -> DynamicObject? {
        withAccess {
            guard let handle = state.handleIfStored(className) else { return nil }
            let value = ValueImporter.primaryKeyValue(key, className: className)
            let found = perform("find '\(className)' by primary key", ifDamaged: nil) { try $0.object(withPrimaryKey: value, in: handle) }
            return found.map { makeObject(DynamicObject.self, key: $0, className: className) }
        }
    }
}

extension Object {
    /// The list property named `propertyName` of a managed object, as a
    /// live `List` of `DynamicObject`s whatever its model class: read,
    /// count, iterate and change it (in a write transaction) as any list.
    ///
    /// ```swift
    /// let dogs = person.dynamicList("dogs")
    /// try realm.write { dogs.append(realm.dynamicCreate("Dog", value: ["Rex", 1, NSNull()])) }
    /// ```
    ///
    /// - Precondition: the object is managed, and `propertyName` names a
    ///   list of objects.
    public func dynamicList(_ propertyName: String) -> List<DynamicObject> {
        guard let realm = _realm, let handle = _handle else {
            preconditionFailure("dynamicList(\"\(propertyName)\") needs a managed object; '\(objectSchema.name)' is not managed by a Realm.")
        }
        return realm.withAccess {
            realm.verifyNotInvalidated(self)
            guard let index = _classInfo.propertyIndex(named: propertyName),
                  objectSchema.properties[index].isList, objectSchema.properties[index].type == .object else {
                preconditionFailure("'\(objectSchema.name).\(propertyName)' is not a list of objects.")
            }
            let list = List<DynamicObject>()
            list.bind(to: realm, owner: _key, ownerHandle: handle, property: index)
            return list
        }
    }

    /// The set property named `propertyName` of a managed object, as a
    /// live `MutableSet` of `DynamicObject`s whatever its model class.
    ///
    /// - Precondition: the object is managed, and `propertyName` names a
    ///   set of objects.
    public func dynamicMutableSet(_ propertyName: String) -> MutableSet<DynamicObject> {
        guard let realm = _realm, let handle = _handle else {
            preconditionFailure("dynamicMutableSet(\"\(propertyName)\") needs a managed object; '\(objectSchema.name)' is not managed by a Realm.")
        }
        return realm.withAccess {
            realm.verifyNotInvalidated(self)
            guard let index = _classInfo.propertyIndex(named: propertyName),
                  objectSchema.properties[index].isSet, objectSchema.properties[index].type == .object else {
                preconditionFailure("'\(objectSchema.name).\(propertyName)' is not a set of objects.")
            }
            let set = MutableSet<DynamicObject>()
            set.bind(to: realm, owner: _key, ownerHandle: handle, property: index)
            return set
        }
    }
}
