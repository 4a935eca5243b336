import Foundation
import RealmCore
import Synchronization

/// A light-weight view of a model class: chosen properties of a root
/// object, renamed, reached through links, or transformed, as Realm
/// Swift's `Projection`.
///
/// ```swift
/// class PersonProjection: Projection<Person> {
///     @Projected(\Person.firstName) var firstName
///     @Projected(\Person.lastName.localizedUppercase) var lastNameCaps
///     @Projected(\Person.address?.city) var homeCity
/// }
/// let people: Results<PersonProjection> = realm.objects(PersonProjection.self)
/// ```
///
/// A projection reads (and, through writable key paths, writes) its root
/// object; `Results` of a projection type query, sort and observe the root
/// class, and hand out a projection per object.
open class Projection<Root: Object>: RealmFetchable, ThreadConfined, Hashable, CustomStringConvertible {
    /// The object projected.
    public let rootObject: Root

    /// A projection of `object`.
    public required init(projecting object: Root) {
        rootObject = object
    }

    // MARK: RealmFetchable

    public static var _fetchedClass: Object.Type? { Root.self }

    public static func _element(for object: Object) -> Self {
        let projection = Self(projecting: unsafeDowncast(object, to: Root.self))
        // Stops on a property that reads nothing stored, as Realm does
        // when it first hands out a projection.
        _ = ProjectionSchema.of(projection)
        return projection
    }

    public var _fetchedObject: Object { rootObject }

    // MARK: Equality

    /// Projections are equal when they project the same object: the same
    /// instance, or the same stored object read through the same Realm
    /// instance (so a frozen projection never equals a live one), whatever
    /// the class's primary key, as in Realm Swift.
    public static func == (lhs: Projection, rhs: Projection) -> Bool {
        if lhs.rootObject === rhs.rootObject { return true }
        guard let realm = lhs.realm, realm == rhs.realm, !lhs.isInvalidated, !rhs.isInvalidated else { return false }
        return lhs.rootObject.isSameObject(as: rhs.rootObject)
    }

    public func hash(into hasher: inout Hasher) {
        if let handle = rootObject._handle, !isInvalidated {
            hasher.combine(rootObject._key.rawValue)
            hasher.combine(handle.className)
        } else {
            hasher.combine(ObjectIdentifier(rootObject))
        }
    }

    // MARK: Description

    /// The projection's class and root class, and each projected property
    /// with the root key path it reads and its value, as Realm Swift prints
    /// them.
    open var description: String {
        let properties = ProjectionSchema.of(self).map { property in
            "\t\(property.label)(\\.\(property.rootPath)) = \(rootObject[keyPath: property.keyPath] ?? "nil");"
        }
        return "\(type(of: self))<\(Root.self)> <\(Unmanaged.passUnretained(rootObject).toOpaque())> {\n\t"
            + properties.joined(separator: "\n") + "\n}"
    }

    // MARK: ThreadConfined

    /// The Realm of the root object; nil when it is unmanaged.
    public var realm: Realm? { rootObject.realm }

    /// Whether the root object was deleted or its Realm invalidated.
    public var isInvalidated: Bool { rootObject.isInvalidated }

    public var threadConfinedPayload: ThreadConfinedPayload { rootObject.threadConfinedPayload }

    public static func resolve(_ payload: ThreadConfinedPayload, in realm: Realm) -> Self? {
        Root.resolve(payload, in: realm).map { Self(projecting: $0) }
    }

    // MARK: _Persistable

    public static var _propertyType: PropertyType { .object }
    public static var _readsRealm: Bool { true }

    /// A projection has no default value: it needs a root object.
    public static var _defaultValue: Self {
        preconditionFailure("A projection of '\(Root.className())' is made from an object: use init(projecting:).")
    }

    public static func _fromValue(_ value: Value, in realm: Realm?) -> Self {
        Self(projecting: Root._fromValue(value, in: realm))
    }

    public func _toValue(in realm: Realm?) throws -> Value {
        try rootObject._toValue(in: realm)
    }

    public static func _convert(from any: Any) -> Self? {
        (any as? Root).map { Self(projecting: $0) }
    }
}

// MARK: Observing

/// What every projection class is: its `observe` methods hand out changes
/// of the class's own type (`ObjectChange<PersonProjection>`), as Realm
/// Swift's do. (`SendableMetatype`: observing on an actor makes the
/// projections of its changes there.)
public protocol ProjectionObservable: AnyObject, SendableMetatype {
    /// The model class projected.
    associatedtype Root: Object
    /// The object projected.
    var rootObject: Root { get }
    /// A projection of `object`.
    init(projecting object: Root)
}

extension Projection: ProjectionObservable {}

extension ProjectionObservable {
    /// Calls `block` after each commit that changed the root object's
    /// properties that the projection reads (narrowed to `keyPaths`: root
    /// key paths such as `"address.city"`, or projected names), with the
    /// projected properties' old and new values; and once with `.deleted`.
    /// On the registering thread, or on `queue` (a serial queue), where the
    /// projection passed projects an object confined to the queue.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (ObjectChange<Self>) -> Void) -> NotificationToken {
        let observation = ProjectedObservation(of: self, keyPaths: keyPaths)
        return rootObject.observe(keyPaths: observation.rootKeyPaths, on: queue) { (change: ObjectChange<Root>) in
            if let projected = observation.project(change, as: Self.self) { block(projected) }
        }
    }

    /// Observes the projection's properties that `keyPaths` name
    /// (`[\PersonProjection.homeCity]`): the root key paths they read,
    /// observed as when named by strings.
    ///
    /// - Precondition: each key path reads a stored property of the root.
    public func observe(keyPaths: [PartialKeyPath<Self>], on queue: DispatchQueue? = nil,
                        _ block: @escaping (ObjectChange<Self>) -> Void) -> NotificationToken {
        observe(keyPaths: rootKeyPaths(keyPaths), on: queue, block)
    }

    /// Calls `block` on `actor` after each commit that changed the root
    /// object's properties that the projection reads (narrowed to
    /// `keyPaths`, root key paths or projected names), and once with
    /// `.deleted`; the projection passed projects an object of a Realm
    /// isolated to `actor`.
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A,
                                  _isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, ObjectChange<Self>) -> Void) async -> NotificationToken {
        let observation = ProjectedObservation(of: self, keyPaths: keyPaths)
        return await rootObject.observe(keyPaths: observation.rootKeyPaths, on: actor, _isolation: _isolation) { actor, change in
            if let projected = observation.project(change, as: Self.self) { block(actor, projected) }
        }
    }

    /// Observes on `actor` the projection's properties that `keyPaths`
    /// name (`[\PersonProjection.homeCity]`).
    ///
    /// - Precondition: each key path reads a stored property of the root.
    public func observe<A: Actor>(keyPaths: [PartialKeyPath<Self>], on actor: A,
                                  _isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, ObjectChange<Self>) -> Void) async -> NotificationToken {
        await observe(keyPaths: rootKeyPaths(keyPaths), on: actor, _isolation: _isolation, block)
    }

    /// The root key paths that the projection's key paths read.
    private func rootKeyPaths(_ keyPaths: [PartialKeyPath<Self>]) -> [String] {
        keyPaths.map { ProjectionSchema.rootPath(of: $0, in: Self.self) }
    }
}

/// What observing a projection observes of its root object, and how a
/// change of the root reads as a change of the projection.
///
/// `@unchecked Sendable`: the schema's key paths are immutable, and a
/// change is projected on the thread (or actor) it is delivered on.
private struct ProjectedObservation<Root: Object>: @unchecked Sendable {
    /// The projected properties observed.
    let schema: [ProjectionSchema.Property]
    /// The root's key paths they read.
    let rootKeyPaths: [String]

    init<P: ProjectionObservable>(of projection: P, keyPaths: [String]?) where P.Root == Root {
        var schema = ProjectionSchema.of(projection)
        if let keyPaths, !keyPaths.isEmpty {
            schema = schema.filter { keyPaths.contains($0.rootPath) || keyPaths.contains($0.label) }
        }
        self.schema = schema
        rootKeyPaths = Array(Set(schema.map(\.rootPath).filter { !$0.isEmpty })).sorted()
    }

    /// The change of a projection of class `type`: the projected
    /// properties that read a changed property of the root, with their old
    /// and new values; nil when none does.
    func project<P: ProjectionObservable>(_ change: ObjectChange<Root>, as type: P.Type) -> ObjectChange<P>? where P.Root == Root {
        switch change {
        case .change(let properties):
            let object = properties.object
            // The old values read through the projected key paths: set
            // on an unmanaged root, as Realm Swift does.
            let oldRoot = properties.contains { $0.oldValue != nil } ? Root() : nil
            for property in properties {
                if let oldRoot, let old = property.oldValue { oldRoot.setValue(Self.typed(old), forKey: property.name) }
            }
            let changed = Set(properties.map(\.name))
            let projected = schema.filter { changed.contains($0.rootPath.components(separatedBy: ".")[0]) }.map { property in
                PropertyChange(name: property.label,
                               oldValue: oldRoot.flatMap { $0[keyPath: property.keyPath] },
                               newValue: object[keyPath: property.keyPath])
            }
            guard !projected.isEmpty else { return nil }
            return .change(PropertyChanges(object: type.init(projecting: object), properties: projected))
        case .deleted:
            return .deleted
        case .error(let error):
            return .error(error)
        }
    }

    /// An old value as the root's property takes it: the object's
    /// notification hands out a linked object as a `DynamicObject`, which
    /// a link property of a model class does not take; it is made an
    /// object of the class the root links to.
    private static func typed(_ value: Any) -> Any {
        guard let linked = value as? DynamicObject, let realm = linked.realm,
              let type = ClassInfo.of(Root.self).linkedTypes.first(where: { $0.className() == linked.dynamicClassName })
        else { return value }
        return realm.makeObject(type, key: linked._key, className: linked.dynamicClassName)
    }
}

/// Declares a property of a ``Projection``: the value at a key path of the
/// root object.
///
/// ```swift
/// @Projected(\Person.address?.city) var homeCity
/// ```
///
/// Setting it sets the root object's property, inside a write transaction
/// when managed, when the key path is writable.
@propertyWrapper
public struct Projected<T: Object, Value>: AnyProjected {
    let keyPath: KeyPath<T, Value>

    /// A property projecting `projectedKeyPath` of the root object.
    public init(_ projectedKeyPath: KeyPath<T, Value>) {
        keyPath = projectedKeyPath
    }

    var projectedKeyPath: AnyKeyPath { keyPath }

    @available(*, unavailable, message: "@Projected can only be used as a property of a Projection")
    public var wrappedValue: Value {
        get { fatalError("@Projected is read through its projection") }
        // swiftlint:disable:next unused_setter_value
        set { fatalError("@Projected is written through its projection") }
    }

    /// The property of a projection: the root object's value at the key
    /// path, read (and written) through the root object.
    public static subscript<EnclosingSelf: Projection<T>>(
        _enclosingInstance projection: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Self>
    ) -> Value {
        get {
            projection.rootObject[keyPath: projection[keyPath: storageKeyPath].keyPath]
        }
        set {
            guard let writable = projection[keyPath: storageKeyPath].keyPath as? ReferenceWritableKeyPath<T, Value> else {
                preconditionFailure("The key path \(projection[keyPath: storageKeyPath].keyPath) of a projection of '\(T.className())' is not writable.")
            }
            projection.rootObject[keyPath: writable] = newValue
        }
    }
}

/// A `@Projected` property, whatever its types.
protocol AnyProjected {
    var projectedKeyPath: AnyKeyPath { get }
}

/// The projected properties of a projection class, found once by
/// reflection.
enum ProjectionSchema {
    struct Property {
        /// The projection's property name.
        let label: String
        let keyPath: AnyKeyPath
        /// The root's stored properties the key path reads, joined by dots.
        let rootPath: String
    }

    private static let cache = Mutex<[ObjectIdentifier: [Property]]>([:])

    /// The root's stored properties a key path of the projection reads,
    /// joined by dots (`address.city` for `\.homeCity` projecting
    /// `\Person.address?.city`).
    ///
    /// - Precondition: the key path reads a stored property of the root.
    static func rootPath<P: ProjectionObservable>(of keyPath: AnyKeyPath, in projection: P.Type) -> String {
        let path = KeyPathNames.path(in: P.Root.self) { probe in P(projecting: unsafeDowncast(probe, to: P.Root.self))[keyPath: keyPath] }
        precondition(!path.isEmpty, "Key path \(keyPath) does not read a stored property of '\(P.Root.className())'.")
        return path.joined(separator: ".")
    }

    static func of<P: ProjectionObservable>(_ projection: P) -> [Property] {
        let key = ObjectIdentifier(type(of: projection))
        if let known = cache.withLock({ $0[key] }) { return known }
        var properties: [Property] = []
        var mirror: Mirror? = Mirror(reflecting: projection)
        var levels: [[Property]] = []
        while let current = mirror {
            levels.append(current.children.compactMap { child in
                guard let projected = child.value as? AnyProjected, let label = child.label else { return nil }
                let path = KeyPathNames.path(of: projected.projectedKeyPath, in: P.Root.self).joined(separator: ".")
                let name = label.hasPrefix("_") ? String(label.dropFirst()) : label
                precondition(!path.isEmpty, "@Projected property '\(name)' must be a part of Realm object")
                return Property(label: name, keyPath: projected.projectedKeyPath, rootPath: path)
            })
            mirror = current.superclassMirror
        }
        // Superclasses' properties first, in declaration order.
        for level in levels.reversed() { properties += level }
        cache.withLock { $0[key] = properties }
        return properties
    }
}

extension ProjectionSchema.Property: @unchecked Sendable {}
