import Foundation
import RealmCore
import Synchronization

/// What Realm knows of one `Object` subclass: its schema, discovered by
/// reflecting over an instance made with `init()`, in declaration order
/// (inherited properties first), and how to reach its properties.
///
/// Computed once per class and cached for the life of the process.
final class ClassInfo: @unchecked Sendable {
    // @unchecked: every stored property is immutable; some hold metatypes
    // and existentials the compiler cannot see are safe to share.

    let type: Object.Type
    let className: String
    let objectSchema: ObjectSchema
    /// The kind of each property, by schema index.
    let kinds: [PropertyKind]
    /// The `let` properties (lists, optionals, linking objects) that must be
    /// bound to their Realm when an object is managed: reflection labels and
    /// schema indices.
    let boundProperties: [(label: String, index: Int)]
    /// The classes this class links to, directly or through linking objects.
    let linkedTypes: [Object.Type]
    /// Where each Realm property sits in an instance.
    let layout: ModelLayout
    private let indexByName: [String: Int]
    /// Whether every property is a plain `@Persisted` value (no links,
    /// lists, embedded objects or `let` properties), so that adding an
    /// object is one INSERT.
    let isFlat: Bool
    /// Whether the class is flat and keeps no state of its own beside its
    /// `@Persisted` properties (no other stored property, ignored ones
    /// included), so that a managed instance carries nothing but its
    /// binding to a row: a loop may rebind an instance it handed out, once
    /// nobody holds it, to the next object (see `ObjectWalk`).
    let isRebindable: Bool

    enum PropertyKind {
        case persisted(_Persistable.Type)
        case list(any ListFactory.Type)
        case set(any SetFactory.Type)
        case map(any MapFactory.Type)
        case optional(_Persistable.Type)
        case linkingObjects
    }

    private init(type: Object.Type, className: String, objectSchema: ObjectSchema, kinds: [PropertyKind],
                 boundProperties: [(String, Int)], linkedTypes: [Object.Type]) {
        self.type = type
        self.className = className
        self.objectSchema = objectSchema
        self.kinds = kinds
        self.boundProperties = boundProperties
        self.linkedTypes = linkedTypes
        var byName: [String: Int] = [:]
        for (index, property) in objectSchema.properties.enumerated() { byName[property.name] = index }
        self.indexByName = byName
        layout = type == DynamicObject.self ? .dynamic : ModelLayout(of: type, indexByName: byName, bound: boundProperties)
        isFlat = layout.referenceFields.isEmpty && boundProperties.isEmpty && !objectSchema.isEmbedded
            && layout.persistedFields.count == objectSchema.properties.count
            && objectSchema.properties.allSatisfy { $0.isColumn && $0.type != .object && $0.type != .mixed }
        isRebindable = isFlat && layout.storesOnlyRealmProperties
    }

    func propertyIndex(named name: String) -> Int? {
        indexByName[name]
    }

    // MARK: Cache

    private static let cache = Mutex<[ObjectIdentifier: ClassInfo]>([:])

    /// The info of a class; stops with the reflection error for an invalid
    /// model (``Realm/init(configuration:)`` reports it as an error first).
    static func of(_ type: Object.Type) -> ClassInfo {
        if let recent = UnsafeRawPointer(bitPattern: recent.load(ordering: .acquiring)) {
            let info = Unmanaged<ClassInfo>.fromOpaque(recent).takeUnretainedValue()
            if info.type == type { return info }
        }
        do {
            let info = try reflecting(type)
            recent.store(UInt(bitPattern: Unmanaged.passUnretained(info).toOpaque()), ordering: .releasing)
            return info
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// The model class of a class name among those reflected over in this
    /// process, for a mixed value's link: which Swift type to make.
    static func registeredType(named className: String) -> Object.Type? {
        cache.withLock { cache in cache.values.first { $0.className == className && $0.type != DynamicObject.self }?.type }
    }

    /// The info ``of(_:)`` returned last, unretained: every new object of a
    /// class asks for its info once, and a loop of adds asks for one class,
    /// which this answers without the cache's lock and hash. Infos in the
    /// cache live as long as the process, so the pointer (its bits; 0 for
    /// none) never dangles.
    private static let recent = Atomic<UInt>(0)

    /// The classes being reflected over now, by the thread reflecting, and
    /// how many times: reflection makes an instance, whose `init` may use
    /// its properties, which must then not ask for the class's info again
    /// on that thread. The count spares the common case (no reflection
    /// anywhere) the lock.
    private static let reflectionsUnderWay = Atomic<Int>(0)
    private static let beingReflected = Mutex<[Reflection: Int]>([:])

    /// A class reflected over by a thread.
    private struct Reflection: Hashable {
        let type: ObjectIdentifier
        let thread: ObjectIdentifier

        init(_ type: Object.Type) {
            self.type = ObjectIdentifier(type)
            thread = ObjectIdentifier(Thread.current)
        }
    }

    /// Whether the current thread is reflecting over `type`, so that its
    /// info is not there yet (another thread's reflection does not count:
    /// asking for the info then reflects over the class on this thread
    /// too).
    @inline(__always)
    static func isBeingReflected(_ type: Object.Type) -> Bool {
        reflectionsUnderWay.load(ordering: .acquiring) != 0 && beingReflected.withLock { $0[Reflection(type)] != nil }
    }

    /// The info of a class, reflecting over it on first use.
    static func reflecting(_ type: Object.Type) throws(Realm.Error) -> ClassInfo {
        if let cached = cache.withLock({ $0[ObjectIdentifier(type)] }) { return cached }
        let reflection = Reflection(type)
        reflectionsUnderWay.add(1, ordering: .acquiringAndReleasing)
        beingReflected.withLock { $0[reflection, default: 0] += 1 }
        defer {
            beingReflected.withLock { counts in
                let left = counts[reflection, default: 1] - 1
                counts[reflection] = left == 0 ? nil : left
            }
            reflectionsUnderWay.subtract(1, ordering: .acquiringAndReleasing)
        }
        let info = try reflect(type)
        return cache.withLock { cache in
            if let raced = cache[ObjectIdentifier(type)] { return raced }
            cache[ObjectIdentifier(type)] = info
            return info
        }
    }

    // MARK: Reflection

    /// The stored properties of an instance, inherited ones first.
    static func children(of object: Object) -> [(String, Any)] {
        var mirrors: [Mirror] = []
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            mirrors.append(current)
            mirror = current.superclassMirror
        }
        return mirrors.reversed().flatMap { mirror in
            mirror.children.compactMap { child in child.label.map { ($0, child.value) } }
        }
    }

    private static func reflect(_ objectType: Object.Type) throws(Realm.Error) -> ClassInfo {
        let className = objectType.className()
        let instance = objectType.init()
        let ignored = Set(objectType.ignoredProperties())
        let indexed = Set(objectType.indexedProperties())
        let declaredPrimaryKey = objectType.primaryKey()

        var properties: [Property] = []
        var kinds: [PropertyKind] = []
        var bound: [(String, Int)] = []
        var linked: [Object.Type] = []
        for (fieldLabel, field) in children(of: instance) {
            var property: Property
            let kind: PropertyKind
            // `@Persisted var list: List<T>` (and sets, maps, linking
            // objects) holds the collection object in its wrapper: it is
            // the `let` property's object under the wrapper's name.
            var (label, value) = (fieldLabel, field)
            if let persisted = field as? PersistedProperty, Swift.type(of: persisted).valueType._isCollection,
               let collection = persisted.unmanagedValue {
                (label, value) = (String(fieldLabel.dropFirst()), collection)
            }
            if let persisted = value as? PersistedProperty {
                let name = String(label.dropFirst())
                let valueType = Swift.type(of: persisted).valueType
                property = Property(
                    name: name, type: valueType._propertyType,
                    isOptional: valueType._isOptional,
                    objectClassName: valueType._objectType?.className(),
                    isIndexed: persisted.isIndexed, isPrimaryKey: persisted.isPrimaryKey)
                if let target = valueType._objectType {
                    linked.append(target)
                    if !valueType._isOptional {
                        throw Realm.Error(.invalidSchema, "Property '\(className).\(name)' links to '\(target.className())' and must be optional ('\(target.className())?').")
                    }
                }
                kind = .persisted(valueType)
            } else if let list = value as? ListFactory {
                let element = Swift.type(of: list).elementType
                property = Property(
                    name: label, type: element._propertyType,
                    isOptional: element._isOptional && element._objectType == nil,
                    isList: true, objectClassName: element._objectType?.className())
                if let target = element._objectType {
                    linked.append(target)
                    if element._isOptional {
                        throw Realm.Error(.invalidSchema, "Property '\(className).\(label)' is a list of optional '\(target.className())' objects; lists of objects cannot hold nil.")
                    }
                }
                kind = .list(Swift.type(of: list))
            } else if let set = value as? SetFactory {
                let element = Swift.type(of: set).elementType
                property = Property(
                    name: label, type: element._propertyType,
                    isOptional: element._isOptional && element._objectType == nil,
                    isSet: true, objectClassName: element._objectType?.className())
                if let target = element._objectType {
                    linked.append(target)
                    if element._isOptional {
                        throw Realm.Error(.invalidSchema, "Property '\(className).\(label)' is a set of optional '\(target.className())' objects; sets of objects cannot hold nil.")
                    }
                    if target is EmbeddedObject.Type {
                        throw Realm.Error(.invalidSchema, "Property '\(className).\(label)' is a set of embedded '\(target.className())' objects; sets cannot hold embedded objects.")
                    }
                }
                kind = .set(Swift.type(of: set))
            } else if let map = value as? MapFactory {
                let element = Swift.type(of: map).valueType
                property = Property(
                    name: label, type: element._propertyType,
                    isOptional: element._isOptional,
                    isMap: true, objectClassName: element._objectType?.className())
                if let target = element._objectType {
                    linked.append(target)
                    if !element._isOptional {
                        throw Realm.Error(.invalidSchema, "Property '\(className).\(label)' maps keys to '\(target.className())' objects, which must be optional ('Map<String, \(target.className())?>').")
                    }
                }
                kind = .map(Swift.type(of: map))
            } else if let optional = value as? RealmOptionalBase {
                let wrapped = Swift.type(of: optional).wrappedType
                property = Property(name: label, type: wrapped._propertyType, isOptional: Swift.type(of: optional).isNullable)
                kind = .optional(wrapped)
            } else if let linking = value as? LinkingObjectsBase {
                let origin = Swift.type(of: linking).originType
                property = Property(
                    name: label, type: .linkingObjects,
                    objectClassName: origin.className(), linkOriginPropertyName: linking.originProperty)
                linked.append(origin)
                kind = .linkingObjects
            } else {
                continue
            }
            guard !ignored.contains(property.name) else { continue }
            // A `let` property is bound to its Realm by its index in the
            // schema, which an ignored property does not take.
            if case .persisted = kind {} else { bound.append((fieldLabel, properties.count)) }
            if indexed.contains(property.name) { property.isIndexed = true }
            if property.name == declaredPrimaryKey { property.isPrimaryKey = true }
            properties.append(property)
            kinds.append(kind)
        }
        let names = Set(properties.map(\.name))
        if let declaredPrimaryKey, !names.contains(declaredPrimaryKey) {
            throw Realm.Error(.invalidSchema, "Primary key property '\(declaredPrimaryKey)' does not exist on object '\(className)'.")
        }
        if let missing = indexed.first(where: { !names.contains($0) }) {
            throw Realm.Error(.invalidSchema, "Indexed property '\(missing)' does not exist on object '\(className)'.")
        }
        let objectSchema = ObjectSchema(
            name: className, properties: properties, isEmbedded: objectType.isEmbedded,
            swiftTypeName: String(reflecting: objectType))
        let info = ClassInfo(type: objectType, className: className, objectSchema: objectSchema, kinds: kinds,
                             boundProperties: bound, linkedTypes: linked)
        #if DEBUG
        info.layout.verify(against: instance, of: objectSchema)
        precondition(info.layout.persistedFields.count == kinds.count - bound.count
                     && info.layout.referenceFields.count == bound.count,
                     "The layout of '\(className)' misses properties that reflection finds.")
        #endif
        return info
    }
}

extension ClassInfo {
    /// The info of a class known only by its stored schema, for dynamic
    /// objects.
    static func dynamic(_ objectSchema: ObjectSchema) -> ClassInfo {
        let kinds: [PropertyKind] = objectSchema.properties.map { property in
            if property.type == .linkingObjects { return .linkingObjects }
            if property.isList { return .list(listType(property)) }
            if property.isSet { return .set(setType(property)) }
            if property.isMap { return .map(mapType(property)) }
            return .persisted(valueType(property.type, optional: property.isOptional || property.type == .object))
        }
        return ClassInfo(type: DynamicObject.self, className: objectSchema.name, objectSchema: objectSchema,
                         kinds: kinds, boundProperties: [], linkedTypes: [])
    }

    private static func valueType(_ type: PropertyType, optional: Bool) -> _Persistable.Type {
        switch (type, optional) {
        case (.bool, false): Bool.self
        case (.bool, true): Bool?.self
        case (.int, false): Int.self
        case (.int, true): Int?.self
        case (.float, false): Float.self
        case (.float, true): Float?.self
        case (.double, false): Double.self
        case (.double, true): Double?.self
        case (.string, false): String.self
        case (.string, true): String?.self
        case (.data, false): Data.self
        case (.data, true): Data?.self
        case (.date, false): Date.self
        case (.date, true): Date?.self
        case (.objectId, false): ObjectId.self
        case (.objectId, true): ObjectId?.self
        case (.uuid, false): UUID.self
        case (.uuid, true): UUID?.self
        case (.decimal, false): Decimal.self
        case (.decimal, true): Decimal?.self
        case (.mixed, _): AnyRealmValue.self
        case (.object, _), (.linkingObjects, _): DynamicObject?.self
        }
    }

    private static func listType(_ property: Property) -> any ListFactory.Type {
        switch (property.type, property.isOptional) {
        case (.bool, false): List<Bool>.self
        case (.bool, true): List<Bool?>.self
        case (.int, false): List<Int>.self
        case (.int, true): List<Int?>.self
        case (.float, false): List<Float>.self
        case (.float, true): List<Float?>.self
        case (.double, false): List<Double>.self
        case (.double, true): List<Double?>.self
        case (.string, false): List<String>.self
        case (.string, true): List<String?>.self
        case (.data, false): List<Data>.self
        case (.data, true): List<Data?>.self
        case (.date, false): List<Date>.self
        case (.date, true): List<Date?>.self
        case (.objectId, false): List<ObjectId>.self
        case (.objectId, true): List<ObjectId?>.self
        case (.uuid, false): List<UUID>.self
        case (.uuid, true): List<UUID?>.self
        case (.decimal, false): List<Decimal>.self
        case (.decimal, true): List<Decimal?>.self
        case (.mixed, _): List<AnyRealmValue>.self
        case (.object, _), (.linkingObjects, _): List<DynamicObject>.self
        }
    }

    private static func setType(_ property: Property) -> any SetFactory.Type {
        switch (property.type, property.isOptional) {
        case (.bool, false): MutableSet<Bool>.self
        case (.bool, true): MutableSet<Bool?>.self
        case (.int, false): MutableSet<Int>.self
        case (.int, true): MutableSet<Int?>.self
        case (.float, false): MutableSet<Float>.self
        case (.float, true): MutableSet<Float?>.self
        case (.double, false): MutableSet<Double>.self
        case (.double, true): MutableSet<Double?>.self
        case (.string, false): MutableSet<String>.self
        case (.string, true): MutableSet<String?>.self
        case (.data, false): MutableSet<Data>.self
        case (.data, true): MutableSet<Data?>.self
        case (.date, false): MutableSet<Date>.self
        case (.date, true): MutableSet<Date?>.self
        case (.objectId, false): MutableSet<ObjectId>.self
        case (.objectId, true): MutableSet<ObjectId?>.self
        case (.uuid, false): MutableSet<UUID>.self
        case (.uuid, true): MutableSet<UUID?>.self
        case (.decimal, false): MutableSet<Decimal>.self
        case (.decimal, true): MutableSet<Decimal?>.self
        case (.mixed, _): MutableSet<AnyRealmValue>.self
        case (.object, _), (.linkingObjects, _): MutableSet<DynamicObject>.self
        }
    }

    private static func mapType(_ property: Property) -> any MapFactory.Type {
        switch (property.type, property.isOptional) {
        case (.bool, false): Map<String, Bool>.self
        case (.bool, true): Map<String, Bool?>.self
        case (.int, false): Map<String, Int>.self
        case (.int, true): Map<String, Int?>.self
        case (.float, false): Map<String, Float>.self
        case (.float, true): Map<String, Float?>.self
        case (.double, false): Map<String, Double>.self
        case (.double, true): Map<String, Double?>.self
        case (.string, false): Map<String, String>.self
        case (.string, true): Map<String, String?>.self
        case (.data, false): Map<String, Data>.self
        case (.data, true): Map<String, Data?>.self
        case (.date, false): Map<String, Date>.self
        case (.date, true): Map<String, Date?>.self
        case (.objectId, false): Map<String, ObjectId>.self
        case (.objectId, true): Map<String, ObjectId?>.self
        case (.uuid, false): Map<String, UUID>.self
        case (.uuid, true): Map<String, UUID?>.self
        case (.decimal, false): Map<String, Decimal>.self
        case (.decimal, true): Map<String, Decimal?>.self
        case (.mixed, _): Map<String, AnyRealmValue>.self
        case (.object, _), (.linkingObjects, _): Map<String, DynamicObject?>.self
        }
    }
}
