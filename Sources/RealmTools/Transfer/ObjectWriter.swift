import Foundation
import RealmCore

/// Writes input values into objects of a Realm file, inside a write
/// transaction the caller holds: what `realm import` and the browser's
/// edits share.
///
/// Input is JSON (a value per property, as `realm export` writes it) or
/// text (a CSV field, a form field: scalars as text, lists and embedded
/// objects as JSON text, null as nil).
final class ObjectWriter {
    /// A property's input.
    enum Input {
        case json(JSONValue)
        case text(String?)
    }

    let file: RealmFile
    /// For the classes without a primary key whose objects an import made:
    /// the key each had in the exported file (`"$key"`) to the key it has
    /// now. A link's `{"$key": N}` to such a class is looked up here;
    /// to another class, it names the object with key N in this file.
    var keyMap: [String: [Int64: ObjectKey]] = [:]

    init(file: RealmFile) {
        self.file = file
    }

    private var transaction: Transaction { file.transaction }

    // MARK: Values

    /// The JSON of an input, parsing text for lists and embedded objects.
    private func json(_ input: Input, for property: Property) throws(ValueError) -> JSONValue {
        switch input {
        case .json(let value): return value
        case .text(nil): return .null
        case .text(let text?):
            do {
                return try JSONStreamReader.parse(text, name: "the value")
            } catch {
                throw ValueError("expected JSON for \(property.typeDescription): \(error.message)")
            }
        }
    }

    /// Whether a property's values are written after its object exists:
    /// lists, and links to embedded objects (which are made through their
    /// parent).
    func isDeferred(_ property: Property) throws(ToolError) -> Bool {
        // A mixed value may be a nested collection, made in its place.
        if property.isCollection || property.type == .mixed { return true }
        if property.type == .object { return try file.storedClass(named: property.objectClassName ?? "").objectSchema.isEmbedded }
        return false
    }

    /// A column value (a scalar, or a link to a top-level object).
    func columnValue(_ input: Input, for property: Property) throws(ValueError) -> Value {
        if property.type == .object { return try link(json(input, forLink: property), to: property) }
        if property.type == .mixed { return try mixed(json(input, for: property)) }
        switch input {
        case .json(let value): return try ValueParser.scalar(value, type: property.type, optional: property.isOptional)
        case .text(nil):
            // A CSV field or form field left empty: null, or the empty
            // string for a required string.
            if property.type == .string && !property.isOptional { return .string("") }
            guard property.isOptional else { throw ValueError("a value is required") }
            return .null
        case .text(let text?):
            return try ValueParser.scalar(text: text, type: property.type)
        }
    }

    /// A mixed value's input, parsed: a value, or a list or dictionary of
    /// them nested in it.
    indirect enum MixedInput {
        case value(Value)
        case list([MixedInput])
        case dictionary([(key: String, value: MixedInput)])
    }

    /// A mixed value's input, as the export writes it (see ``mixed(_:)``),
    /// including nested collections: `{"$type": "list", "value": [...]}`
    /// and `{"$type": "dictionary", "value": {...}}` of mixed values.
    func mixedInput(_ json: JSONValue, depth: Int = 0) throws(ValueError) -> MixedInput {
        guard case .object(let members) = json, case .string(let typeName)? = members.first(where: { $0.0 == "$type" })?.1,
              typeName == "list" || typeName == "dictionary" else {
            return .value(try mixed(json))
        }
        guard depth < 100 else { throw ValueError("collections nested more than 100 deep") }
        let value = members.first(where: { $0.0 == "value" })?.1
        if typeName == "list" {
            guard case .array(let elements)? = value else { throw ValueError("a mixed list's \"value\" is an array") }
            var list: [MixedInput] = []
            for element in elements { list.append(try mixedInput(element, depth: depth + 1)) }
            return .list(list)
        }
        guard case .object(let entries)? = value else { throw ValueError("a mixed dictionary's \"value\" is an object") }
        var dictionary: [(key: String, value: MixedInput)] = []
        for (key, element) in entries { dictionary.append((key, try mixedInput(element, depth: depth + 1))) }
        return .dictionary(dictionary)
    }

    /// Where a mixed input is written.
    enum MixedPlace {
        case property(ClassHandle, ObjectKey, Int)
        case append(ListHandle)
        case entry(ListHandle, String)
    }

    /// Writes a mixed input at `place`, making its nested collections there.
    func write(_ input: MixedInput, at place: MixedPlace) throws(RealmError) {
        let kind: NestedCollection.Kind
        switch input {
        case .value(let value):
            switch place {
            case .property(let handle, let key, let index): try transaction.setValue(value, of: key, property: index, in: handle)
            case .append(let list): try transaction.append(value, to: list)
            case .entry(let map, let key): try transaction.setValue(value, forKey: key, in: map)
            }
            return
        case .list: kind = .list
        case .dictionary: kind = .dictionary
        }
        let collection: ListHandle
        switch place {
        case .property(let handle, let key, let index): collection = try transaction.setNestedCollection(kind, of: key, property: index, in: handle)
        case .append(let list): collection = try transaction.insertNestedCollection(kind, at: transaction.count(of: list), in: list)
        case .entry(let map, let key): collection = try transaction.setNestedCollection(kind, forKey: key, in: map)
        }
        switch input {
        case .list(let elements): for element in elements { try write(element, at: .append(collection)) }
        case .dictionary(let entries): for entry in entries { try write(entry.value, at: .entry(collection, entry.key)) }
        case .value: break
        }
    }

    /// A mixed value's input, as the export writes it: null, or
    /// `{"$type": "int", "value": 1}` (any type's name and value; a link is
    /// `{"$type": "object", "class": "Dog", "value": <the link>}`). A
    /// nested list or dictionary is read by ``mixedInput(_:depth:)``.
    func mixed(_ json: JSONValue) throws(ValueError) -> Value {
        if json == .null { return .null }
        guard case .object(let members) = json,
              case .string(let typeName)? = members.first(where: { $0.0 == "$type" })?.1,
              let value = members.first(where: { $0.0 == "value" })?.1 else {
            throw ValueError("expected a mixed value ({\"$type\": …, \"value\": …} or null), found \(json.kind)")
        }
        if typeName == "list" || typeName == "dictionary" {
            // Only in a property, a list or a map (`mixedInput`).
            throw ValueError("a nested \(typeName) is not accepted here (a set holds none)")
        }
        if typeName == "object" {
            guard case .string(let className)? = members.first(where: { $0.0 == "class" })?.1 else {
                throw ValueError("a mixed link names its \"class\"")
            }
            let target = Property(name: "value", type: .object, isOptional: true, objectClassName: className)
            guard case .object(let key) = try link(value, to: target) else { return .null }
            return .link(className: className, key: key)
        }
        guard let type = PropertyType(rawValue: typeName), type != .object, type != .linkingObjects, type != .mixed else {
            throw ValueError("unknown mixed type '\(typeName)'")
        }
        return try ValueParser.scalar(value, type: type, optional: false)
    }

    /// A link's input: text is a primary key (or `{"$key":N}`).
    private func json(_ input: Input, forLink property: Property) throws(ValueError) -> JSONValue {
        switch input {
        case .json(let value): return value
        case .text(nil): return .null
        case .text(let text?):
            if text.hasPrefix("{") { return try json(input, for: property) }
            return .string(text)
        }
    }

    /// The object a link input names: by the target's primary key, or
    /// `{"$key": N}` for a class without one.
    func link(_ json: JSONValue, to property: Property) throws(ValueError) -> Value {
        if json == .null { return .null }
        let target: StoredClass
        do {
            target = try file.storedClass(named: property.objectClassName ?? "")
        } catch {
            throw ValueError(error.message)
        }
        do {
            if let key = json[member: "$key"] {
                guard case .number(let text) = key, let raw = Int64(text) else { throw ValueError("\"$key\" must be an integer") }
                if let imported = keyMap[target.name] {
                    guard let mapped = imported[raw] else { throw ValueError("no \(target.name) of the input has the \"$key\" \(raw)") }
                    return .object(mapped)
                }
                guard try transaction.objectExists(ObjectKey(raw), in: target.handle) else {
                    throw ValueError("no \(target.name) has the key \(raw)")
                }
                return .object(ObjectKey(raw))
            }
            guard let primaryKey = target.primaryKeyIndex else {
                throw ValueError("\(target.name) has no primary key: link to its objects with {\"$key\": N}")
            }
            let keyProperty = target.objectSchema.properties[primaryKey]
            if let explicit = json[member: "$primaryKey"] {
                guard explicit == .null, keyProperty.isOptional else { throw ValueError("\"$primaryKey\" names a nil primary key, and only that") }
                guard let found = try transaction.object(withPrimaryKey: .null, in: target.handle) else {
                    throw ValueError("no \(target.name) has a nil primary key")
                }
                return .object(found)
            }
            var keyValue = try ValueParser.scalar(json, type: keyProperty.type, optional: false)
            if case .string(let text) = json, keyProperty.type != .string {
                keyValue = try ValueParser.scalar(text: text, type: keyProperty.type)
            }
            guard let found = try transaction.object(withPrimaryKey: keyValue, in: target.handle) else {
                throw ValueError("no \(target.name) has the primary key \(json.literal)")
            }
            return .object(found)
        } catch let error as ValueError {
            throw error
        } catch {
            throw ValueError("\(error)")
        }
    }

    // MARK: Objects

    /// Creates an object of `storedClass` with the given column values
    /// (others take their defaults) and returns its key.
    func create(_ storedClass: StoredClass, columns: [Int: Value]) throws(ToolError) -> ObjectKey {
        let properties = storedClass.objectSchema.properties
        var named: [String: Value] = [:]
        for (index, value) in columns { named[properties[index].name] = value }
        do {
            return try transaction.createObject(ofClass: storedClass.name, values: named)
        } catch {
            throw ToolError(error.message)
        }
    }

    /// Sets a column property.
    func set(_ value: Value, property index: Int, of key: ObjectKey, in storedClass: StoredClass) throws(ToolError) {
        do {
            try transaction.setValue(value, of: key, property: index, in: storedClass.handle)
        } catch {
            throw ToolError(error.message)
        }
    }

    /// Fills a set from a JSON array, or a map from a JSON object, replacing
    /// what it held.
    private func setSetOrMap(_ value: JSONValue, property: Property, index: Int, of key: ObjectKey,
                             in storedClass: StoredClass) throws {
        let collection = ListHandle(owningClass: storedClass.handle, owner: key, property: index)
        func element(_ json: JSONValue) throws -> Value {
            if property.type == .mixed { return try mixed(json) }
            return property.type == .object ? try link(json, to: property)
                : try ValueParser.scalar(json, type: property.type, optional: property.isOptional || property.isMap)
        }
        if property.isSet {
            guard case .array(let elements) = value else { throw ToolError("expected an array for \(property.typeDescription), found \(value.kind)") }
            try transaction.removeAll(fromSet: collection)
            for (position, json) in elements.enumerated() {
                do {
                    try transaction.insert(element(json), intoSet: collection)
                } catch let error as ValueError {
                    throw ToolError("element \(position): \(error.message)")
                }
            }
        } else {
            guard case .object(let members) = value else { throw ToolError("expected an object for \(property.typeDescription), found \(value.kind)") }
            try transaction.removeAll(fromMap: collection)
            for (mapKey, json) in members {
                do {
                    if property.type == .mixed {
                        try write(mixedInput(json), at: .entry(collection, mapKey))
                    } else {
                        try transaction.setValue(element(json), forKey: mapKey, in: collection)
                    }
                } catch let error as ValueError {
                    throw ToolError("key '\(mapKey)': \(error.message)")
                }
            }
        }
    }

    /// Writes a deferred property (a list, or an embedded object) of an
    /// existing object, replacing what it held.
    func setDeferred(_ input: Input, property index: Int, of key: ObjectKey, in storedClass: StoredClass) throws(ToolError) {
        let property = storedClass.objectSchema.properties[index]
        let value: JSONValue
        do {
            value = try json(input, for: property)
        } catch {
            throw ToolError(error.message)
        }
        do {
            if property.isSet || property.isMap {
                try setSetOrMap(value, property: property, index: index, of: key, in: storedClass)
            } else if property.isList {
                guard case .array(let elements) = value else {
                    if value == .null { throw ToolError("expected an array for \(property.typeDescription), found null") }
                    throw ToolError("expected an array for \(property.typeDescription), found \(value.kind)")
                }
                let list = try transaction.list(index, of: key, in: storedClass.handle)
                try transaction.removeAll(from: list)
                let embedded = try property.type == .object && file.storedClass(named: property.objectClassName ?? "").objectSchema.isEmbedded
                for (position, element) in elements.enumerated() {
                    do {
                        if embedded {
                            let target = try file.storedClass(named: property.objectClassName ?? "")
                            let child = try transaction.appendEmbeddedObject(to: list, values: [])
                            try fill(child, of: target, from: element)
                        } else if property.type == .mixed {
                            try write(mixedInput(element), at: .append(list))
                        } else if property.type == .object {
                            try transaction.append(link(element, to: property), to: list)
                        } else {
                            try transaction.append(ValueParser.scalar(element, type: property.type, optional: property.isOptional), to: list)
                        }
                    } catch let error as ValueError {
                        throw ToolError("element \(position): \(error.message)")
                    } catch let error as ToolError {
                        throw ToolError("element \(position): \(error.message)")
                    }
                }
            } else if property.type == .mixed {
                try write(mixedInput(value), at: .property(storedClass.handle, key, index))
            } else {
                // An embedded object.
                let target = try file.storedClass(named: property.objectClassName ?? "")
                if value == .null {
                    try transaction.setValue(.null, of: key, property: index, in: storedClass.handle)
                } else {
                    let child = try transaction.createEmbeddedObject(in: storedClass.handle, owner: key, property: index, values: [])
                    try fill(child, of: target, from: value)
                }
            }
        } catch let error as ToolError {
            throw error
        } catch let error as ValueError {
            throw ToolError(error.message)
        } catch let error as RealmError {
            throw ToolError(error.message)
        } catch {
            throw ToolError("\(error)")
        }
    }

    /// Sets the properties an input object names on a new embedded
    /// object, checking that each exists.
    func fill(_ key: ObjectKey, of storedClass: StoredClass, from json: JSONValue) throws(ToolError) {
        guard case .object(let members) = json else {
            throw ToolError("expected an object of '\(storedClass.name)', found \(json.kind)")
        }
        for (name, value) in members {
            let index = try storedClass.propertyIndex(named: name)
            try write(.json(value), property: index, of: key, in: storedClass, creating: true)
        }
    }

    /// Writes one property from input, naming it in any error.
    func write(_ input: Input, property index: Int, of key: ObjectKey, in storedClass: StoredClass, creating: Bool) throws(ToolError) {
        let property = storedClass.objectSchema.properties[index]
        do throws(ToolError) {
            guard property.type != .linkingObjects else {
                throw ToolError("is computed from links and cannot be set")
            }
            if property.isPrimaryKey && !creating {
                return  // the object was found by it; it does not change
            }
            if try isDeferred(property) {
                try setDeferred(input, property: index, of: key, in: storedClass)
            } else {
                let value: Value
                do {
                    value = try columnValue(input, for: property)
                } catch {
                    throw ToolError(error.message)
                }
                try set(value, property: index, of: key, in: storedClass)
            }
        } catch {
            throw ToolError("property '\(storedClass.name).\(property.name)': \(error.message)")
        }
    }
}
