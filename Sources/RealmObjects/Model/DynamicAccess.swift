import Foundation
import RealmCore

/// Reading and writing properties by name: `object["name"]`,
/// `value(forKey:)`, `setValue(_:forKey:)`, and everything dynamic objects
/// do.
enum DynamicAccess {
    /// The value of the property `key`; an enum property's raw value, as
    /// Realm's key-value access gives it (``_Persistable/_keyValue``).
    static func value(of object: Object, forKey key: String) -> Any? {
        // Key-value coding's name for the object itself.
        if key == "self" { return object }
        let info = object._classInfo
        guard let index = info.propertyIndex(named: key) else {
            preconditionFailure("Invalid property name '\(key)' for class '\(info.className)'.")
        }
        guard let realm = object._realm else {
            // Unmanaged reads are rare: the cast finds an enum's raw value.
            return unmanagedValue(of: object, info: info, index: index).map { ($0 as? _Persistable)?._keyValue ?? $0 }
        }
        return realm.withAccess { managedValue(of: object, forKey: key, info: info, index: index, in: realm) }
    }

    /// ``value(of:forKey:)`` of a managed object, on its Realm's thread or
    /// under its frozen Realm's lock.
    private static func managedValue(of object: Object, forKey key: String, info: ClassInfo, index: Int, in realm: Realm) -> Any? {
        let property = info.objectSchema.properties[index]
        realm.verifyNotInvalidated(object)
        switch info.kinds[index] {
        case .persisted(let type), .optional(let type):
            let value = realm.readValue(of: object, property: index)
            if case .object(let target) = value, object is DynamicObject {
                return realm.makeObject(DynamicObject.self, key: target, className: property.objectClassName!)
            }
            if value.isNull { return nil }
            return type._fromValue(value, in: realm)._keyValue
        case .list(let factory):
            if let dynamic = object as? DynamicObject {
                // A list of objects is a live List<DynamicObject>, as in
                // Realm (its migrations' `List<MigrationObject>`).
                if property.type == .object { return dynamic.dynamicList(key) }
                let list = ListHandle(owningClass: object._handle!, owner: object._key, property: index)
                let values = realm.perform("read list '\(info.className).\(key)'", ifDamaged: []) { try $0.values(of: list) }
                return values.map { value -> Any? in
                    if case .object(let target) = value {
                        return realm.makeObject(DynamicObject.self, key: target, className: property.objectClassName!)
                    }
                    return value.isNull ? nil : factory.elementType._fromValue(value, in: realm)
                }
            }
            return boundProperty(of: object, info: info, index: index)
        case .set, .map:
            if object is DynamicObject {
                // A snapshot: an array of the set's elements, a dictionary
                // of the map's entries.
                let collection = ListHandle(owningClass: object._handle!, owner: object._key, property: index)
                let convert = { (value: Value) -> Any? in
                    if case .object(let target) = value {
                        return realm.makeObject(DynamicObject.self, key: target, className: property.objectClassName!)
                    }
                    return DynamicAccess.swiftValue(value, property: property, realm: realm)
                }
                if property.isSet {
                    let values = realm.perform("read set '\(info.className).\(key)'", ifDamaged: []) { try $0.setValues(of: collection) }
                    return values.map(convert)
                }
                let entries = realm.perform("read map '\(info.className).\(key)'", ifDamaged: []) { try $0.entries(of: collection) }
                return Dictionary(entries.map { ($0.key, convert($0.value) as Any) }, uniquingKeysWith: { first, _ in first })
            }
            return boundProperty(of: object, info: info, index: index)
        case .linkingObjects:
            if object is DynamicObject {
                let keys = realm.perform("read linking objects", ifDamaged: []) { transaction -> [ObjectKey] in
                    let source = try transaction.classHandle(named: property.objectClassName!)
                    let origin = try transaction.propertyIndex(named: property.linkOriginPropertyName!, in: source)
                    return try transaction.linkingObjects(to: object._key, from: source, property: origin)
                }
                return keys.map { realm.makeObject(DynamicObject.self, key: $0, className: property.objectClassName!) }
            }
            return boundProperty(of: object, info: info, index: index)
        }
    }

    /// Sets a property by name from untyped input. A value the property
    /// cannot take changes nothing: on a managed object the error is
    /// recorded for the commit to throw; an unmanaged one keeps it, and
    /// adding it to a Realm reports it.
    static func setValue(_ value: Any?, of object: Object, forKey key: String) {
        let info = object._classInfo
        guard let index = info.propertyIndex(named: key) else {
            // Bad input, like a value of the wrong type: recorded for the
            // commit (or for `add`, on an unmanaged object) to throw.
            let error = Realm.Error(.fail, "Invalid property name '\(key)' for class '\(info.className)'.")
            guard let realm = object._realm else { return object._recordImportFailure(error) }
            realm.verifyThread()
            realm.verifyObjectWritable()
            precondition(realm.isInWriteTransaction, "Attempting to modify object outside of a write transaction - call beginWrite on a Realm instance first (setting '\(info.className).\(key)').")
            realm.recordWriteFailure(error)
            return
        }
        let property = info.objectSchema.properties[index]
        let entry: Any = value ?? NSNull()
        let name = "'\(info.className).\(key)'"
        guard let realm = object._realm else {
            do {
                try ValueImporter.set(entry, property: index, of: object, info: info)
            } catch {
                // As `init(value:)` does: adding the object reports it.
                object._recordImportFailure(error)
            }
            return
        }
        realm.verifyThread()
        realm.verifyObjectWritable()
        realm.verifyNotInvalidated(object)
        precondition(realm.isInWriteTransaction, "Attempting to modify object outside of a write transaction - call beginWrite on a Realm instance first (setting \(name)).")
        if case .linkingObjects = info.kinds[index] {
            preconditionFailure("Linking objects property \(name) is computed from links and cannot be set.")
        }
        let transaction = realm.transaction
        realm.recordingFailure(of: "set \(name)") {
            // Converting first: a value of the wrong type changes nothing.
            switch info.kinds[index] {
            case .persisted(let type), .optional(let type):
                let converted = try ValueImporter.convert(entry, to: type, name: name, allowNil: property.isOptional || property.type == .object)
                try transaction.atomicallyRethrowing {
                    if let embedded = converted as? EmbeddedObject {
                        try realm.setEmbedded(embedded, of: object, property: index)
                    } else if let linked = converted as? Object {
                        try transaction.setValue(.object(try realm.linkKey(for: linked)), of: object._key, property: index, in: object._handle!)
                    } else if let mixed = converted as? AnyRealmValue, mixed.isNestedCollection {
                        try realm.storeMixed(mixed, at: .property(object._handle!, object._key, index))
                    } else {
                        try transaction.setValue(try converted?._toValue(in: realm) ?? .null, of: object._key, property: index, in: object._handle!)
                    }
                }
            case .list(let factory):
                let elements = try ValueImporter.listElements(entry, name: name)
                let converted = try elements.map { try ValueImporter.element($0, of: factory.elementType, name: name) }
                let list = ListHandle(owningClass: object._handle!, owner: object._key, property: index)
                try transaction.atomicallyRethrowing {
                    try transaction.removeAll(from: list)
                    for element in converted {
                        if let embedded = element as? EmbeddedObject {
                            try realm.insertEmbedded(embedded, at: try transaction.count(of: list), in: list)
                        } else if let linked = element as? Object {
                            try transaction.append(.object(try realm.linkKey(for: linked)), to: list)
                        } else if let mixed = element as? AnyRealmValue, mixed.isNestedCollection {
                            try realm.storeMixed(mixed, at: .append(list))
                        } else {
                            try transaction.append(try element._toValue(in: realm), to: list)
                        }
                    }
                }
            case .set(let factory):
                let elements = try ValueImporter.listElements(entry, name: name)
                let converted = try elements.map { try ValueImporter.element($0, of: factory.elementType, name: name) }
                let set = ListHandle(owningClass: object._handle!, owner: object._key, property: index)
                try transaction.atomicallyRethrowing {
                    try transaction.removeAll(fromSet: set)
                    for element in converted {
                        let value = try (element as? Object).map { try realm.linkKey(for: $0) }.map(Value.object)
                        try transaction.insert(try value ?? element._toValue(in: realm), intoSet: set)
                    }
                }
            case .map(let factory):
                let entries = try ValueImporter.mapEntries(entry, name: name)
                let converted = try entries.map { ($0.key, try ValueImporter.element($0.value, of: factory.valueType, name: name)) }
                let map = ListHandle(owningClass: object._handle!, owner: object._key, property: index)
                try transaction.atomicallyRethrowing {
                    try transaction.removeAll(fromMap: map)
                    for (key, element) in converted {
                        if let mixed = element as? AnyRealmValue, mixed.isNestedCollection {
                            try realm.storeMixed(mixed, at: .entry(map, key))
                            continue
                        }
                        let value = try (element as? Object).map { try realm.linkKey(for: $0) }.map(Value.object)
                        try transaction.setValue(try value ?? element._toValue(in: realm), forKey: key, in: map)
                    }
                }
            case .linkingObjects:
                break
            }
        }
    }

    // MARK: Key paths

    /// The value at `keyPath`: a property name, or names joined by dots
    /// that go through links (`owner.name`). A nil link on the way gives
    /// nil; a list or linking objects on the way gives an array with the
    /// value for each of its objects, as key-value coding does.
    static func value(of object: Object, forKeyPath keyPath: String) -> Any? {
        guard let (head, rest) = split(keyPath) else { return value(of: object, forKey: keyPath) }
        let linked = value(of: object, forKey: head)
        if let collection = linkedObjects(linked, of: object, through: head, in: keyPath) {
            return collection.map { value(of: $0, forKeyPath: rest) }
        }
        return (linked as? Object).map { value(of: $0, forKeyPath: rest) } ?? nil
    }

    /// Sets the property at the end of `keyPath` (see
    /// ``value(of:forKeyPath:)``) of the object it leads to, or of each of
    /// them through a list; does nothing through a nil link.
    static func setValue(_ value: Any?, of object: Object, forKeyPath keyPath: String) {
        guard let (head, rest) = split(keyPath) else { return setValue(value, of: object, forKey: keyPath) }
        let linked = Self.value(of: object, forKey: head)
        if let collection = linkedObjects(linked, of: object, through: head, in: keyPath) {
            for element in collection { setValue(value, of: element, forKeyPath: rest) }
        } else if let linked = linked as? Object {
            setValue(value, of: linked, forKeyPath: rest)
        }
    }

    /// The first name of a dotted key path and the rest; nil for a name.
    private static func split(_ keyPath: String) -> (head: String, rest: String)? {
        guard let dot = keyPath.firstIndex(of: ".") else { return nil }
        return (String(keyPath[..<dot]), String(keyPath[keyPath.index(after: dot)...]))
    }

    /// The objects of the list or linking objects `value` read from
    /// property `name`; nil for a to-one link (or nil).
    ///
    /// - Precondition: the property is a link, a list of objects or linking
    ///   objects, since the key path goes on through it.
    private static func linkedObjects(_ value: Any?, of object: Object, through name: String, in keyPath: String) -> [Object]? {
        let property = object._classInfo.objectSchema.properties[object._classInfo.propertyIndex(named: name)!]
        guard property.type == .object || property.type == .linkingObjects else {
            preconditionFailure("Key path '\(keyPath)' goes through '\(object._classInfo.className).\(name)', which is not a link.")
        }
        guard property.isCollection || property.type == .linkingObjects else { return nil }
        if let objects = value as? [Any?] { return objects.compactMap { $0 as? Object } }
        if let map = value as? MapFactory { return map.anyEntries.compactMap { $0.value as? Object } }
        if let entries = value as? [String: Any] { return entries.keys.sorted().compactMap { entries[$0] as? Object } }
        guard let sequence = value as? any Sequence else { return [] }
        return objectsOf(sequence)
    }

    private static func objectsOf(_ sequence: some Sequence) -> [Object] {
        sequence.compactMap { $0 as? Object }
    }

    private static func unmanagedValue(of object: Object, info: ClassInfo, index: Int) -> Any? {
        if let override = object._override(index) {
            return override.flatMap(unwrapped)
        }
        if let reference = info.layout.reference(index, of: object) {
            if let optional = reference as? RealmOptionalBase { return optional.unmanagedValue.flatMap(unwrapped) }
            return reference
        }
        return info.layout.unmanagedValues(of: object)[index].flatMap { $0 }.flatMap(unwrapped)
    }

    private static func boundProperty(of object: Object, info: ClassInfo, index: Int) -> Any? {
        info.layout.reference(index, of: object)
    }

    /// An optional held in an existential, as `Any?` (nil for none).
    private static func unwrapped(_ value: _Persistable) -> Any? {
        ValueImporter.isNull(value) ? nil : value
    }
}

extension DynamicAccess {
    /// A stored value as the Swift value a property of its type holds
    /// (`Int` for integers, `DynamicObject` for links, nil for null).
    static func swiftValue(_ value: Value, property: Property, realm: Realm) -> Any? {
        switch value {
        case .null: nil
        case .bool(let bool): bool
        case .int(let int): Int(int)
        case .float(let float): float
        case .double(let double): double
        case .string(let string): string
        case .data(let data): data
        case .date(let date): date
        case .link, .collection:
            AnyRealmValue._fromValue(value, in: realm)._keyValue
        case .objectId(let id): id
        case .uuid(let uuid): uuid
        case .decimal(let decimal): decimal
        case .object(let key): property.objectClassName.map { realm.makeObject(DynamicObject.self, key: key, className: $0) }
        }
    }
}
