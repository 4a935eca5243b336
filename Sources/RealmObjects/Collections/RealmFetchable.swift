/// What ``Results`` of objects hold: model objects, and projections of
/// them (``Projection``). Each element stands for a stored object of one
/// model class (its ``_Persistable/_fetchedClass``), which queries, sorts
/// and notifications work on.
public protocol RealmFetchable: RealmCollectionValue {
    /// The object the element stands for.
    var _fetchedObject: Object { get }
}

extension RealmFetchable {
    /// The model class of the elements, which every fetchable type has.
    static var modelClass: Object.Type { _fetchedClass! }
}

extension Object: RealmFetchable {
    public static var _fetchedClass: Object.Type? { self }

    @inlinable
    public static func _element(for object: Object) -> Self {
        unsafeDowncast(object, to: self)
    }

    public var _fetchedObject: Object { self }
}
