import Dispatch
import RealmCore

/// A list or set of objects seen as the values of one property of each, for
/// a ``Projection``'s property: `projectTo` makes one.
///
/// ```swift
/// class PersonProjection: Projection<Person> {
///     @Projected(\Person.dogs.projectTo.name) var dogNames: ProjectedCollection<String>
/// }
/// ```
///
/// It reads through the collection: its count and order are the
/// collection's, and each element is read from its object when asked
/// for. Setting an element sets the object's property (inside a write
/// transaction when managed). A projected set may hold repeated values:
/// it is not a set of values.
public struct ProjectedCollection<Element: RealmCollectionValue>: RandomAccessCollection, CustomStringConvertible, ThreadConfined {
    public typealias Index = Int

    private let elements: any ProjectedElements<Element>

    init(_ elements: any ProjectedElements<Element>) {
        self.elements = elements
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { elements.count }

    /// The value of the element's object at `position`; setting it sets
    /// the object's property.
    ///
    /// - Precondition: setting needs a writable key path.
    public subscript(position: Int) -> Element {
        get { elements.element(at: position) }
        nonmutating set { elements.set(newValue, at: position) }
    }

    /// The Realm of the projected collection, nil when unmanaged.
    public var realm: Realm? { elements.realm }

    /// Whether the projected collection can no longer be used.
    public var isInvalidated: Bool { elements.isInvalidated }

    /// The index of the first element equal to `value`, or nil.
    public func index(of value: Element) -> Int? {
        let stored = try? value._toValue(in: nil)
        return firstIndex { element in
            if let object = element as? Object, let other = value as? Object { return object.isSameObject(as: other) }
            return (try? element._toValue(in: nil)) == stored
        }
    }

    /// The index of the first object of the projected collection matching
    /// a predicate on the objects' properties, or nil.
    public func index(matching predicateFormat: String, _ arguments: Any...) -> Int? {
        elements.index(matching: predicateFormat, arguments: arguments)
    }

    /// The values, one a line, as Realm prints them.
    public var description: String {
        var text = "ProjectedCollection<\(Element.self)> {\n"
        for (position, value) in enumerated() { text += "\t[\(position)] \(value)\n" }
        return text + "}"
    }

    /// Calls `block` with `.initial`, then after each commit that changed
    /// the collection or its objects (narrowed to `keyPaths`, which name
    /// the objects' properties), on the registering thread (`queue` nil)
    /// or on a serial queue.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<ProjectedCollection<Element>>) -> Void) -> NotificationToken {
        elements.observe(keyPaths: keyPaths, on: queue) { change in
            switch change {
            case .initial(let elements): block(.initial(ProjectedCollection(elements)))
            case .update(let elements, let deletions, let insertions, let modifications):
                block(.update(ProjectedCollection(elements), deletions: deletions, insertions: insertions, modifications: modifications))
            case .error(let error): block(.error(error))
            }
        }
    }

    // MARK: ThreadConfined

    public var threadConfinedPayload: ThreadConfinedPayload {
        .projected(elements.collectionPayload, keyPath: ProjectedKeyPath(keyPath: elements.keyPath))
    }

    public static func resolve(_ payload: ThreadConfinedPayload, in realm: Realm) -> ProjectedCollection<Element>? {
        guard case .projected(let collection, let projected) = payload,
              case let keyPath = projected.keyPath,
              let source = type(of: keyPath).rootType as? Object.Type,
              let elements: any ProjectedElements<Element> = source.projectedElements(of: collection, keyPath: keyPath, in: realm)
        else { return nil }
        return ProjectedCollection(elements)
    }
}

/// What `projectTo` gives: `.name` on it is the ``ProjectedCollection`` of
/// the objects' names.
@dynamicMemberLookup
public struct CollectionElementMapper<Element: Object> {
    let collection: AnyRealmCollection<Element>

    /// The collection's objects seen as their values at `member`.
    public subscript<Value: RealmCollectionValue>(dynamicMember member: KeyPath<Element, Value>) -> ProjectedCollection<Value> {
        ProjectedCollection(ProjectedObjects(collection: collection, keyPath: member))
    }
}

extension List where Element: Object {
    /// The list seen as the values of one property of its objects, for a
    /// ``Projection``: `@Projected(\Person.dogs.projectTo.name)`.
    public var projectTo: CollectionElementMapper<Element> {
        CollectionElementMapper(collection: AnyRealmCollection(self))
    }
}

extension MutableSet where Element: Object {
    /// The set seen as the values of one property of its objects, for a
    /// ``Projection``: `@Projected(\Person.dogs.projectTo.name)`. Values
    /// may repeat.
    public var projectTo: CollectionElementMapper<Element> {
        CollectionElementMapper(collection: AnyRealmCollection(self))
    }
}

// MARK: The projected objects

/// The objects behind a ``ProjectedCollection``, whatever their class.
protocol ProjectedElements<Element> {
    associatedtype Element: RealmCollectionValue
    var count: Int { get }
    func element(at position: Int) -> Element
    func set(_ value: Element, at position: Int)
    var realm: Realm? { get }
    var isInvalidated: Bool { get }
    var keyPath: AnyKeyPath { get }
    /// The payload of the collection of objects.
    var collectionPayload: ThreadConfinedPayload { get }
    func index(matching predicateFormat: String, arguments: [Any]) -> Int?
    func observe(keyPaths: [String]?, on queue: DispatchQueue?,
                 _ block: @escaping (RealmCollectionChange<any ProjectedElements<Element>>) -> Void) -> NotificationToken
}

/// A list or set of objects of class `Source`, read at `keyPath`.
struct ProjectedObjects<Source: Object, Element: RealmCollectionValue>: ProjectedElements {
    let collection: AnyRealmCollection<Source>
    let typedKeyPath: KeyPath<Source, Element>

    init(collection: AnyRealmCollection<Source>, keyPath: KeyPath<Source, Element>) {
        self.collection = collection
        typedKeyPath = keyPath
    }

    var count: Int { collection.count }
    var realm: Realm? { collection.realm }
    var isInvalidated: Bool { collection.isInvalidated }
    var keyPath: AnyKeyPath { typedKeyPath }
    var collectionPayload: ThreadConfinedPayload { collection.base.threadConfinedPayload }

    func element(at position: Int) -> Element {
        collection[position][keyPath: typedKeyPath]
    }

    func set(_ value: Element, at position: Int) {
        guard let writable = typedKeyPath as? ReferenceWritableKeyPath<Source, Element> else {
            preconditionFailure("The key path \(typedKeyPath) of the projected collection's '\(Source.className())' objects is not writable.")
        }
        collection[position][keyPath: writable] = value
    }

    func index(matching predicateFormat: String, arguments: [Any]) -> Int? {
        collection.index(matching: predicateFormat, arguments: arguments)
    }

    func observe(keyPaths: [String]?, on queue: DispatchQueue?,
                 _ block: @escaping (RealmCollectionChange<any ProjectedElements<Element>>) -> Void) -> NotificationToken {
        let keyPath = typedKeyPath
        return collection.observe(keyPaths: keyPaths, on: queue) { change in
            switch change {
            case .initial(let objects): block(.initial(ProjectedObjects(collection: objects, keyPath: keyPath)))
            case .update(let objects, let deletions, let insertions, let modifications):
                block(.update(ProjectedObjects(collection: objects, keyPath: keyPath),
                              deletions: deletions, insertions: insertions, modifications: modifications))
            case .error(let error): block(.error(error))
            }
        }
    }
}

extension Object {
    /// The projected objects a payload describes, when this class is the
    /// key path's root and the collection is found in `realm`.
    static func projectedElements<Element: RealmCollectionValue>(of collection: ThreadConfinedPayload, keyPath: AnyKeyPath,
                                                                 in realm: Realm) -> (any ProjectedElements<Element>)? {
        guard let keyPath = keyPath as? KeyPath<Self, Element>,
              let objects = AnyRealmCollection<Self>.resolve(.wrapped(collection), in: realm) else { return nil }
        return ProjectedObjects(collection: objects, keyPath: keyPath)
    }
}
