/// What ``Results`` hold: model objects, and projections of them
/// (``Projection``). Each element stands for a stored object of one model
/// class, which queries, sorts and notifications work on.
public protocol RealmFetchable: RealmCollectionValue {
    /// The model class whose stored objects the elements stand for.
    static var _fetchedClass: Object.Type { get }
    /// The element standing for `object`, a managed object of
    /// ``_fetchedClass``.
    static func _element(for object: Object) -> Self
    /// The object the element stands for.
    var _fetchedObject: Object { get }
}

extension Object: RealmFetchable {
    public static var _fetchedClass: Object.Type { self }

    @inlinable
    public static func _element(for object: Object) -> Self {
        unsafeDowncast(object, to: self)
    }

    public var _fetchedObject: Object { self }
}
