import Foundation
import RealmCore

/// Turns untyped input (dictionaries, arrays in property order, other
/// objects, the output of `JSONSerialization`) into the properties of an
/// unmanaged object, checking each value against its property.
enum ValueImporter {
    /// Fills the properties of an unmanaged object from `value`. Properties
    /// the input does not name keep their default values; the indices of
    /// those it names are recorded for partial updates.
    ///
    /// With `copies`, unmanaged objects met in the input are copied rather
    /// than taken, as `create` does; without, they are taken as they are,
    /// as `init(value:)` does (adding the object then adds them).
    static func fill(_ object: Object, from value: Any, copies: UnmanagedCopies? = nil) throws(Realm.Error) {
        let info = object._classInfo
        let className = info.className
        let properties = info.objectSchema.properties
        var provided: [(Int, Any)] = []
        switch value {
        // A dictionary first: casting one to a class (`Object`) bridges it
        // to an NSDictionary just to fail, which costs more than the rest.
        case let dictionary as [String: Any]:
            for (index, property) in properties.enumerated() {
                if let entry = dictionary[property.name] { provided.append((index, entry)) }
            }
        case let source as Object:
            guard Swift.type(of: source).className() == className || source is DynamicObject else {
                throw Realm.Error(.wrongType, "Cannot create an object of type '\(className)' from an object of type '\(Swift.type(of: source).className())'.")
            }
            for (index, property) in properties.enumerated() where property.type != .linkingObjects {
                provided.append((index, source[property.name] as Any))
            }
        case let dictionary as NSDictionary:
            for (index, property) in properties.enumerated() {
                if let entry = dictionary[property.name] { provided.append((index, entry)) }
            }
        case let array as [Any]:
            let stored = properties.indices.filter { properties[$0].type != .linkingObjects }
            // As in Realm, the values are the first properties' in order,
            // and properties past the end of a short array keep their
            // defaults; only more values than properties is refused.
            guard array.count <= stored.count else {
                throw Realm.Error(.fail, "Invalid array input: \(array.count) values for the \(stored.count) properties of '\(className)'; an array gives at most one value per property, in order.")
            }
            for (position, entry) in array.enumerated() { provided.append((stored[position], entry)) }
        case let array as NSArray:
            try fill(object, from: array.map { $0 }, copies: copies)
            return
        default:
            throw Realm.Error(.wrongType, "Invalid value '\(value)' to initialize an object of type '\(className)': expected a dictionary, an array or an object.")
        }
        for (index, entry) in provided {
            try set(entry, property: index, of: object, info: info, copies: copies)
        }
        object._providedProperties = Set(provided.map(\.0))
    }

    /// Sets one property of an unmanaged object from untyped input.
    static func set(_ entry: Any, property index: Int, of object: Object, info: ClassInfo, copies: UnmanagedCopies? = nil) throws(Realm.Error) {
        // Named only when an error needs it: formatting it for every value
        // would cost more than the conversion.
        func name() -> String { "'\(info.className).\(info.objectSchema.properties[index].name)'" }
        switch info.kinds[index] {
        case .persisted(let valueType):
            let converted = try convert(entry, to: valueType, name: name(), copies: copies)
            if object._unmanagedOverrides == nil { object._unmanagedOverrides = [:] }
            object._unmanagedOverrides![index] = converted ?? NSNull()
        case .optional(let wrapped):
            let optional = try convert(entry, to: wrapped, name: name(), allowNil: true)
            (boundProperty(of: object, info: info, index: index) as? RealmOptionalBase)?.setUnmanaged(optional)
        case .list(let factory):
            var converted: [_Persistable] = []
            for entry in try listElements(entry, name: name()) {
                converted.append(try element(entry, of: factory.elementType, name: name(), copies: copies))
            }
            (boundProperty(of: object, info: info, index: index) as? ListFactory)?.setUnmanaged(converted)
        case .set(let factory):
            var converted: [_Persistable] = []
            for entry in try listElements(entry, name: name()) {
                converted.append(try element(entry, of: factory.elementType, name: name(), copies: copies))
            }
            (boundProperty(of: object, info: info, index: index) as? SetFactory)?.setUnmanaged(converted)
        case .map(let factory):
            var converted: [(key: String, value: _Persistable)] = []
            for (key, value) in try mapEntries(entry, name: name()) {
                converted.append((key, try element(value, of: factory.valueType, name: name(), copies: copies)))
            }
            (boundProperty(of: object, info: info, index: index) as? MapFactory)?.setUnmanaged(converted)
        case .linkingObjects:
            break
        }
    }

    /// Converts untyped input to a value of `type`: nil for NSNull or nil
    /// when the type is optional; nested input for links makes unmanaged
    /// objects of the target class.
    static func convert(_ entry: Any, to valueType: _Persistable.Type, name: @autoclosure () -> String, allowNil: Bool = false,
                        copies: UnmanagedCopies? = nil) throws(Realm.Error) -> _Persistable? {
        if isNull(entry) {
            guard valueType._isOptional || allowNil else {
                throw Realm.Error(.missingValue, "Invalid value 'null' for required property \(name()).")
            }
            return nil
        }
        if let target = valueType._objectType {
            if let object = entry as? Object {
                guard Swift.type(of: object).className() == target.className() else {
                    throw Realm.Error(.wrongType, "Invalid value of type '\(Swift.type(of: object).className())' for property \(name()), which links to '\(target.className())'.")
                }
                if let copies, object._realm == nil {
                    return try copies.copy(of: object)
                }
                return object
            }
            let nested = target.init()
            do {
                try fill(nested, from: entry, copies: copies)
            } catch {
                // Say where in the input the nested object was.
                throw Realm.Error(error.code, "\(error.message) (in the value of \(name()))")
            }
            return nested
        }
        guard let converted = valueType._convert(from: unwrap(entry)) else {
            throw invalid(entry, name(), valueType._propertyType.rawValue)
        }
        return converted
    }

    /// The elements of untyped input for a list property: an array, or
    /// another Realm collection; nil or `NSNull` is no elements, as in Realm
    /// (setting a list to nil empties it).
    static func listElements(_ entry: Any, name: @autoclosure () -> String) throws(Realm.Error) -> [Any] {
        if isNull(entry) { return [] }
        switch entry {
        case let array as [Any]: return array
        case let array as NSArray: return array.map { $0 }
        case let collection as any RealmCollectionBase: return (collection as? any Sequence).map { Array($0) as [Any] } ?? []
        default: throw invalid(entry, name(), "list")
        }
    }

    /// The keys and values of untyped input for a map property: a
    /// dictionary with string keys, or another map; nil or `NSNull` is no
    /// entries.
    static func mapEntries(_ entry: Any, name: @autoclosure () -> String) throws(Realm.Error) -> [(key: String, value: Any)] {
        if isNull(entry) { return [] }
        switch entry {
        case let dictionary as [String: Any]: return dictionary.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        case let dictionary as NSDictionary:
            var entries: [(key: String, value: Any)] = []
            for (key, value) in dictionary {
                guard let key = key as? String else { throw invalid(entry, name(), "map") }
                entries.append((key, value))
            }
            return entries
        case let map as MapFactory: return map.anyEntries.map { ($0.key, $0.value as Any) }
        default: throw invalid(entry, name(), "map")
        }
    }

    /// One element of a list from untyped input.
    static func element(_ entry: Any, of elementType: _Persistable.Type, name: @autoclosure () -> String,
                        copies: UnmanagedCopies? = nil) throws(Realm.Error) -> _Persistable {
        // Nil is refused by `convert` unless the elements are optional.
        try convert(entry, to: elementType, name: name() + " (list element)", copies: copies) ?? elementType._defaultValue
    }

    /// The primary-key value of `key` for a lookup.
    static func primaryKeyValue<Key>(_ key: Key, className: String) -> Value {
        // The usual key types without a cast to an existential, which costs
        // more than the lookup's SQL.
        if Key.self == Int.self { return .int(Int64(unsafeBitCast(key, to: Int.self))) }
        if Key.self == String.self { return .string(unsafeBitCast(key, to: String.self)) }
        // Any integer width is an int key.
        if let persistable = key as? _Persistable, let value = try? persistable._toValue(in: nil) {
            return value
        }
        // `NSNull()`, as Realm takes it, for a nil optional primary key.
        if isNull(key) { return .null }
        preconditionFailure("Invalid primary key value '\(key)' for class '\(className)'.")
    }

    private static func boundProperty(of object: Object, info: ClassInfo, index: Int) -> Any? {
        info.layout.reference(index, of: object)
    }

    static func isNull(_ entry: Any) -> Bool {
        switch entry {
        // The usual values first: a cast to a concrete type is cheap.
        case is String, is Int, is Double, is Bool: false
        case is NSNull: true
        default: (entry as? AnyOptional)?.isNone ?? false
        }
    }

    /// Looks through an `Optional` wrapped in `Any`.
    private static func unwrap(_ entry: Any) -> Any {
        guard let optional = entry as? AnyOptional, let wrapped = optional.wrapped else { return entry }
        return unwrap(wrapped)
    }

    private static func invalid(_ entry: Any, _ name: String, _ typeName: String) -> Realm.Error {
        Realm.Error(.wrongType, "Invalid value '\(entry)' of type '\(Swift.type(of: entry))' for property \(name) of type '\(typeName)'.")
    }
}

/// The unmanaged objects met in the input of `create`, with the copies
/// made of them: `create` copies nested unmanaged objects, as Realm does,
/// and an object met twice, or in a cycle, is copied once.
final class UnmanagedCopies {
    private var copies: [ObjectIdentifier: Object] = [:]

    /// Records `copy` as the copy of `original`: the object `create` fills
    /// from an unmanaged object stands for it in cycles back to it.
    func record(_ copy: Object, asCopyOf original: Object) {
        copies[ObjectIdentifier(original)] = copy
    }

    func copy(of object: Object) throws(Realm.Error) -> Object {
        if let copy = copies[ObjectIdentifier(object)] { return copy }
        if let failure = object._importFailure { throw failure }
        let copy = Swift.type(of: object).init()
        // Recorded before filling, so that a cycle back to `object` finds it.
        copies[ObjectIdentifier(object)] = copy
        try ValueImporter.fill(copy, from: object, copies: self)
        return copy
    }
}

/// An `Optional` seen through `Any`, to tell nil from a value without a
/// `Mirror`.
private protocol AnyOptional {
    var isNone: Bool { get }
    /// The value inside, if any.
    var wrapped: Any? { get }
}

extension Optional: AnyOptional {
    fileprivate var isNone: Bool {
        if case .none = self { return true }
        return false
    }

    fileprivate var wrapped: Any? {
        if case .some(let value) = self { return value }
        return nil
    }
}
