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
public final class DynamicObject: Object {
    var dynamicClassName = ""

    public required init() {}

    override public class func className() -> String { "DynamicObject" }

    /// The name of the object's class.
    public var className: String { dynamicClassName }

    override public var description: String {
        let fields = objectSchema.properties.filter { $0.type != .linkingObjects }.map { property -> String in
            "\(property.name) = \(self[property.name].map { "\($0)" } ?? "nil")"
        }
        return "\(dynamicClassName) { " + fields.joined(separator: "; ") + " }"
    }
}

extension Realm {
    /// Every object of the class named `className`, accessed dynamically.
    ///
    /// - Precondition: the Realm has such a class.
    public func dynamicObjects(_ className: String) -> Results<DynamicObject> {
        verifyThread()
        precondition(state.handleIfStored(className) != nil, "The Realm at '\(configuration.identity)' has no class named '\(className)'.")
        return Results(realm: self, query: Query(className: className))
    }

    /// The object of the class named `className` with a primary key, or nil.
    public func dynamicObject(ofType className: String, forPrimaryKey key: Any) -> DynamicObject? {
        verifyThread()
        guard let handle = state.handleIfStored(className) else { return nil }
        let value = ValueImporter.primaryKeyValue(key, className: className)
        let found = perform("find '\(className)' by primary key") { try $0.object(withPrimaryKey: value, in: handle) }
        return found.map { makeObject(DynamicObject.self, key: $0, className: className) }
    }
}
