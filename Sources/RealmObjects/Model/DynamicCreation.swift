import Foundation
import RealmCore

extension Realm {
    /// Creates an object of the class named `typeName` from untyped input,
    /// without a Swift model class: a dictionary of values by property name,
    /// an array in property order, or another object (typed or dynamic), with
    /// nested dictionaries and arrays for links and lists. With an update
    /// policy other than `.error`, an object with the same primary key gets
    /// the given values instead.
    ///
    /// ```swift
    /// let dog = realm.dynamicCreate("Dog", value: ["name": "Rex", "age": 1])
    /// print(dog["name"]!)
    /// ```
    ///
    /// As ``create(_:value:update:)-(_,_,Bool)`` does, a value the class
    /// cannot take creates nothing and records the error for the commit to
    /// throw; the object returned then is unmanaged and stored nowhere.
    ///
    /// - Precondition: in a write transaction; the Realm has a class named
    ///   `typeName`, which is not embedded; an update policy only for a
    ///   class with a primary key.
    @discardableResult
    public func dynamicCreate(_ typeName: String, value: Any = [String: Any](), update: UpdatePolicy = .error) -> DynamicObject {
        verifyThread()
        guard let objectSchema = transaction.schema[typeName] else {
            preconditionFailure("The Realm at '\(configuration.identity)' has no class named '\(typeName)'.")
        }
        precondition(!objectSchema.isEmbedded, "Embedded objects of class '\(typeName)' cannot be created on their own.")
        precondition(update == .error || objectSchema.primaryKeyProperty != nil,
                     "'\(typeName)' does not have a primary key and can not be updated.")
        var created: DynamicObject?
        recordingFailure(of: "create an object of class '\(typeName)'") {
            try transaction.atomicallyRethrowing {
                let key = try DynamicWriter(realm: self, policy: update).create(typeName, from: value)
                created = makeObject(DynamicObject.self, key: key, className: typeName)
            }
        }
        if let created { return created }
        let placeholder = DynamicObject()
        placeholder.dynamicClassName = typeName
        return placeholder
    }
}

/// Writes untyped input into a class known only by name: the dynamic
/// counterpart of ``ObjectWriter``.
private struct DynamicWriter {
    let realm: Realm
    let policy: Realm.UpdatePolicy

    var transaction: Transaction { realm.transaction }

    /// Creates (or, by primary key, updates) an object of `className` and
    /// returns its key.
    func create(_ className: String, from value: Any) throws -> ObjectKey {
        let info = realm.state.dynamicInfo(className)
        let properties = info.objectSchema.properties
        let handle = try transaction.classHandle(named: className)
        let given = try entries(of: value, info: info)

        var existing: ObjectKey?
        if policy != .error, let primaryKey = info.objectSchema.primaryKeyProperty,
           let index = info.propertyIndex(named: primaryKey.name) {
            let key = try given[index].map { try scalar($0, property: index, info: info) } ?? .null
            existing = try transaction.object(withPrimaryKey: key, in: handle)
        }
        let key: ObjectKey
        if let existing {
            key = existing
        } else {
            var row: [String: Value] = [:]
            for (index, property) in properties.enumerated() where property.isColumn && property.type != .object {
                // A nested collection is made in its place once the object is.
                if let entry = given[index], nestedCollection(entry, property) == nil {
                    row[property.name] = try scalar(entry, property: index, info: info)
                }
            }
            key = try transaction.createObject(ofClass: className, values: row)
        }
        for (index, property) in properties.enumerated() {
            guard let entry = given[index], !(existing != nil && property.isPrimaryKey) else { continue }
            if property.isSet {
                let set = ListHandle(owningClass: handle, owner: key, property: index)
                if existing != nil { try transaction.removeAll(fromSet: set) }
                for element in try ValueImporter.listElements(entry, name: "'\(className).\(property.name)'") {
                    try transaction.insert(try listElement(element, property: property, info: info, index: index), intoSet: set)
                }
            } else if property.isMap {
                let map = ListHandle(owningClass: handle, owner: key, property: index)
                if existing != nil { try transaction.removeAll(fromMap: map) }
                for (entryKey, element) in try ValueImporter.mapEntries(entry, name: "'\(className).\(property.name)'") {
                    try transaction.setValue(try listElement(element, property: property, info: info, index: index), forKey: entryKey, in: map)
                }
            } else if property.isList {
                let list = ListHandle(owningClass: handle, owner: key, property: index)
                if existing != nil { try transaction.removeAll(from: list) }
                for element in try ValueImporter.listElements(entry, name: "'\(className).\(property.name)'") {
                    try transaction.append(try listElement(element, property: property, info: info, index: index), to: list)
                }
            } else if property.type == .object {
                try transaction.setValue(try link(entry, property: property), of: key, property: index, in: handle)
            } else if let nested = nestedCollection(entry, property) {
                try realm.storeMixed(nested, at: .property(handle, key, index))
            } else if existing != nil {
                try transaction.setValue(try scalar(entry, property: index, info: info), of: key, property: index, in: handle)
            }
        }
        return key
    }

    /// The nested list or dictionary a mixed property's input gives, if any.
    private func nestedCollection(_ entry: Any, _ property: Property) -> AnyRealmValue? {
        guard property.type == .mixed, !property.isCollection, let mixed = AnyRealmValue._convert(from: entry), mixed.isNestedCollection else { return nil }
        return mixed
    }

    /// The input's values by property index: nil where it names none.
    private func entries(of value: Any, info: ClassInfo) throws -> [Any?] {
        let properties = info.objectSchema.properties
        var given = [Any?](repeating: nil, count: properties.count)
        switch value {
        case let source as Object:
            for (index, property) in properties.enumerated() where property.type != .linkingObjects {
                given[index] = source[property.name] ?? NSNull()
            }
        case let dictionary as [String: Any]:
            for (index, property) in properties.enumerated() { given[index] = dictionary[property.name] }
        case let dictionary as NSDictionary:
            for (index, property) in properties.enumerated() { given[index] = dictionary[property.name] }
        case let array as [Any]:
            let stored = properties.indices.filter { properties[$0].type != .linkingObjects }
            // Properties past the end of a short array keep their defaults,
            // as in Realm (see `ValueImporter`).
            guard array.count <= stored.count else {
                throw Realm.Error(.fail, "Invalid array input: \(array.count) values for the \(stored.count) properties of '\(info.className)'; an array gives at most one value per property, in order.")
            }
            for (position, entry) in array.enumerated() { given[stored[position]] = entry }
        case let array as NSArray:
            return try entries(of: array.map { $0 }, info: info)
        default:
            throw Realm.Error(.wrongType, "Invalid value '\(value)' to initialize an object of type '\(info.className)': expected a dictionary, an array or an object.")
        }
        return given
    }

    /// A column value from untyped input, checked against its property.
    private func scalar(_ entry: Any, property index: Int, info: ClassInfo) throws -> Value {
        guard case .persisted(let type) = info.kinds[index] else { return .null }
        let name = "'\(info.className).\(info.objectSchema.properties[index].name)'"
        return try ValueImporter.convert(entry, to: type, name: name)?._toValue(in: nil) ?? .null
    }

    /// A link from untyped input: an object of this Realm, or nested input
    /// for a new object of the target class.
    private func link(_ entry: Any, property: Property) throws -> Value {
        if ValueImporter.isNull(entry) { return .null }
        let target = property.objectClassName!
        if let object = entry as? Object, let owner = object._realm, owner.configuration.identity == realm.configuration.identity {
            guard object.objectSchema.name == target else {
                throw Realm.Error(.wrongType, "Invalid value of class '\(object.objectSchema.name)' for property '\(property.name)', which links to '\(target)'.")
            }
            return .object(object._key)
        }
        return .object(try create(target, from: entry))
    }

    private func listElement(_ entry: Any, property: Property, info: ClassInfo, index: Int) throws -> Value {
        if property.type == .object { return try link(entry, property: property) }
        let elementType: _Persistable.Type
        switch info.kinds[index] {
        case .list(let factory): elementType = factory.elementType
        case .set(let factory): elementType = factory.elementType
        case .map(let factory): elementType = factory.valueType
        default: return .null
        }
        let name = "'\(info.className).\(property.name)'"
        return try ValueImporter.element(entry, of: elementType, name: name)._toValue(in: nil)
    }
}
