import RealmCore

// Realm 10 declares collections with `@Persisted` as well as with `let`:
//
//     @Persisted var dogs: List<Dog>
//     @Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>
//
// The wrapper holds the collection object, which is then the property's
// object as a `let` property's would be: schema discovery and the model
// layout look through the wrapper (ClassInfo, ModelLayout), and the Realm
// binds the same object. These conformances make the collections storable
// types for the wrapper; their value conversions are never used, since a
// collection property is never read or written as one value.

extension List: _Persistable {
    public static var _isCollection: Bool { true }
    public static var _propertyType: PropertyType { Element._propertyType }
    public static var _defaultValue: List<Element> { List() }
    public static func _fromValue(_ value: Value, in realm: Realm?) -> List<Element> {
        preconditionFailure("A list property is not read as one value.")
    }
    public func _toValue(in realm: Realm?) throws -> Value {
        throw Realm.Error(.wrongType, "A list cannot be stored as a value: lists of lists are not supported.")
    }
    public static func _convert(from any: Any) -> List<Element>? { nil }
}

extension LinkingObjects: _Persistable {
    public static var _isCollection: Bool { true }
    public static var _propertyType: PropertyType { .linkingObjects }
    public static var _defaultValue: LinkingObjects<Element> {
        preconditionFailure("A LinkingObjects property must name its origin: @Persisted(originProperty: \"property\") var owners: LinkingObjects<\(Element.self)>.")
    }
    public static func _fromValue(_ value: Value, in realm: Realm?) -> LinkingObjects<Element> {
        preconditionFailure("A linking objects property is not read as one value.")
    }
    public func _toValue(in realm: Realm?) throws -> Value {
        throw Realm.Error(.wrongType, "Linking objects cannot be stored as a value.")
    }
    public static func _convert(from any: Any) -> LinkingObjects<Element>? { nil }
}

extension Persisted {
    /// The objects of `Origin` whose property `originProperty` links to
    /// this object: an inverse relationship.
    ///
    /// ```swift
    /// @Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>
    /// ```
    public init<Origin: Object>(originProperty: String) where Value == LinkingObjects<Origin> {
        self.init(wrappedValue: LinkingObjects(fromType: Origin.self, property: originProperty))
    }
}

/// A collection that a `@Persisted` property's assignment fills in place:
/// the property keeps its collection object, bound to the Realm or not,
/// and the assigned collection's elements replace its own.
@usableFromInline
protocol CollectionAssignment: AnyObject {
    /// Replaces the elements with those of `other` (a collection of the
    /// same type; inside a write transaction when managed). Returns false
    /// when `other` is no such collection.
    func assignContents(of other: Any) -> Bool
}

extension List: CollectionAssignment {
    @usableFromInline
    func assignContents(of other: Any) -> Bool {
        guard let other = other as? List<Element> else { return false }
        guard other !== self else { return true }
        let elements = Array(other)
        if managed != nil {
            removeAll()
            append(objectsIn: elements)
        } else {
            changeUnmanaged { $0 = elements }
        }
        return true
    }
}
