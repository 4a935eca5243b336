import Foundation
import RealmCore
import RealmQuery

/// Reads objects of a stored class and turns their values into text: JSON
/// for exports and the browser, cells for tables and CSV.
///
/// Links are written as the target's primary key; to an embedded object, as
/// the object itself; to an object of a class without a primary key, as
/// `{"$key": N}`, its object key in this file; to an object whose optional
/// primary key is nil, as `{"$primaryKey": null}`. Dates are ISO 8601 (UTC),
/// data base64, object ids hex, decimals strings (to keep every digit),
/// lists arrays, and linking objects are left out (they are computed).
final class ObjectReader {
    let file: RealmFile

    init(file: RealmFile) {
        self.file = file
    }

    private var transaction: Transaction { file.transaction }

    /// The values of every property of an object, in schema order; lists
    /// and linking objects read as null (read them with ``listValues``).
    func values(of element: ObjectCursor.Element, in storedClass: StoredClass) throws(ToolError) -> [Value] {
        if let batch = element.batch {
            return storedClass.objectSchema.properties.indices.map { index in
                storedClass.objectSchema.properties[index].isColumn ? batch.value(row: element.row, property: index) : .null
            }
        }
        return try values(of: element.key, in: storedClass)
    }

    func values(of key: ObjectKey, in storedClass: StoredClass) throws(ToolError) -> [Value] {
        do {
            return try transaction.values(of: key, in: storedClass.handle)
        } catch {
            throw ToolError(error, while: "reading an object of '\(storedClass.name)'")
        }
    }

    /// The elements of a list property.
    func listValues(_ property: Int, of key: ObjectKey, in storedClass: StoredClass) throws(ToolError) -> [Value] {
        do {
            // A set's elements too (in order of value), and a map's values.
            return try transaction.collectionValues(property, of: key, in: storedClass.handle)
        } catch {
            throw ToolError(error, while: "reading list '\(storedClass.name).\(storedClass.objectSchema.properties[property].name)'")
        }
    }

    /// A map's keys and values, in the order of the keys.
    func mapEntries(_ property: Int, of key: ObjectKey, in storedClass: StoredClass) throws(ToolError) -> [(key: String, value: Value)] {
        do {
            return try transaction.entries(of: ListHandle(owningClass: storedClass.handle, owner: key, property: property))
        } catch {
            throw ToolError(error, while: "reading map '\(storedClass.name).\(storedClass.objectSchema.properties[property].name)'")
        }
    }

    /// A list's or set's elements as a JSON array, a map's entries as a
    /// JSON object.
    func writeCollectionJSON(_ index: Int, of key: ObjectKey, in storedClass: StoredClass, into json: inout JSONWriter, depth: Int) throws(ToolError) {
        let property = storedClass.objectSchema.properties[index]
        if property.isMap {
            json.raw(UInt8(ascii: "{"))
            for (position, entry) in try mapEntries(index, of: key, in: storedClass).enumerated() {
                if position > 0 { json.raw(UInt8(ascii: ",")) }
                json.string(entry.key)
                json.raw(UInt8(ascii: ":"))
                try writeJSON(entry.value, of: property, into: &json, depth: depth)
            }
            json.raw(UInt8(ascii: "}"))
            return
        }
        json.raw(UInt8(ascii: "["))
        for (position, element) in try listValues(index, of: key, in: storedClass).enumerated() {
            if position > 0 { json.raw(UInt8(ascii: ",")) }
            try writeJSON(element, of: property, into: &json, depth: depth)
        }
        json.raw(UInt8(ascii: "]"))
    }

    /// The keys of the objects whose `origin` links point at `key`.
    func linkingObjects(_ property: Property, to key: ObjectKey) throws(ToolError) -> (StoredClass, [ObjectKey]) {
        let source = try file.storedClass(named: property.objectClassName ?? "")
        let origin = try source.propertyIndex(named: property.linkOriginPropertyName ?? "")
        do {
            return (source, try transaction.linkingObjects(to: key, from: source.handle, property: origin))
        } catch {
            throw ToolError(error, while: "reading linking objects '\(property.name)'")
        }
    }

    /// The class a link property points to.
    func target(of property: Property) throws(ToolError) -> StoredClass {
        try file.storedClass(named: property.objectClassName ?? "")
    }

    // MARK: JSON

    /// Writes an object as a JSON object of its value properties; an object
    /// of a top-level class without a primary key starts with its key
    /// (`"$key": N`), which links to it name.
    func writeJSON(key: ObjectKey, values: [Value], of storedClass: StoredClass, into json: inout JSONWriter, depth: Int = 0) throws(ToolError) {
        json.raw(UInt8(ascii: "{"))
        var first = true
        if storedClass.isKeyedByObjectKey {
            json.raw("\"$key\":")
            json.int(key.rawValue)
            first = false
        }
        for index in storedClass.valueProperties {
            let property = storedClass.objectSchema.properties[index]
            if !first { json.raw(UInt8(ascii: ",")) }
            first = false
            json.string(property.name)
            json.raw(UInt8(ascii: ":"))
            if property.isCollection {
                try writeCollectionJSON(index, of: key, in: storedClass, into: &json, depth: depth)
            } else {
                try writeJSON(values[index], of: property, into: &json, depth: depth)
            }
        }
        json.raw(UInt8(ascii: "}"))
    }

    /// Writes one value (a list's element, or a property's value).
    func writeJSON(_ value: Value, of property: Property, into json: inout JSONWriter, depth: Int) throws(ToolError) {
        if property.type == .mixed, !value.isNull {
            // The value's type with it, so that it reads back as itself.
            let inner: (value: Value, property: Property)
            json.raw("{\"$type\":")
            if case .collection(let collection) = value {
                json.string(collection.kind == .list ? "list" : "dictionary")
                json.raw(",\"value\":")
                try writeNestedJSON(collection, of: property, into: &json, depth: depth)
                json.raw(UInt8(ascii: "}"))
                return
            }
            if case .link(let className, let key) = value {
                json.string("object")
                json.raw(",\"class\":")
                json.string(className)
                inner = (.object(key), Property(name: property.name, type: .object, isOptional: true, objectClassName: className))
            } else {
                json.string(value.type?.rawValue ?? "null")
                inner = (value, Property(name: property.name, type: value.type ?? .string))
            }
            json.raw(",\"value\":")
            try writeJSON(inner.value, of: inner.property, into: &json, depth: depth)
            json.raw(UInt8(ascii: "}"))
            return
        }
        switch value {
        case .null: json.raw("null")
        case .bool(let flag): json.raw(flag ? "true" : "false")
        case .int(let number): json.int(number)
        case .float(let number): json.float(number)
        case .double(let number): json.double(number)
        case .string(let text): json.string(text)
        case .data(let bytes): json.string(bytes.base64EncodedString())
        case .date(let date):
            if let text = ISO8601.string(from: date) { json.string(text) } else { json.double(date.timeIntervalSince1970) }
        case .objectId(let id): json.string(id.stringValue)
        case .uuid(let id): json.string(id.uuidString)
        // Exact: the coefficient and exponent read back as they were.
        case .decimal(let number): json.string(number.canonicalText)
        case .collection(let collection):
            // Only mixed values hold these, written above.
            try writeNestedJSON(collection, of: property, into: &json, depth: depth)
        case .link(let className, let key):
            // Only mixed values hold these, written above.
            let target = Property(name: property.name, type: .object, isOptional: true, objectClassName: className)
            try writeJSON(.object(key), of: target, into: &json, depth: depth)
        case .object(let target):
            let targetClass = try self.target(of: property)
            if targetClass.objectSchema.isEmbedded {
                guard depth < 100 else { throw ToolError("embedded objects of '\(targetClass.name)' nested more than 100 deep") }
                try writeJSON(key: target, values: values(of: target, in: targetClass), of: targetClass, into: &json, depth: depth + 1)
            } else if let primaryKey = targetClass.primaryKeyIndex {
                let keyValue = try primaryKeyValue(of: target, in: targetClass, index: primaryKey)
                if keyValue.isNull {
                    // A bare null would read back as no link.
                    json.raw("{\"$primaryKey\":null}")
                } else {
                    try writeJSON(keyValue, of: targetClass.objectSchema.properties[primaryKey], into: &json, depth: depth)
                }
            } else {
                json.raw("{\"$key\":")
                json.int(target.rawValue)
                json.raw(UInt8(ascii: "}"))
            }
        }
    }

    private func primaryKeyValue(of key: ObjectKey, in storedClass: StoredClass, index: Int) throws(ToolError) -> Value {
        do {
            return try transaction.value(of: key, property: index, in: storedClass.handle)
        } catch {
            throw ToolError(error, while: "reading the primary key of an object of '\(storedClass.name)'")
        }
    }

    // MARK: Text

    /// A value as a CSV field: text for scalars (nil for null), the
    /// target's primary key for a link, JSON for lists and embedded objects.
    func csvText(key: ObjectKey, values: [Value], property index: Int, of storedClass: StoredClass) throws(ToolError) -> String? {
        let property = storedClass.objectSchema.properties[index]
        var isEmbedded = false
        if property.type == .object { isEmbedded = try target(of: property).objectSchema.isEmbedded }
        if property.isCollection || (isEmbedded && !values[index].isNull) || (property.type == .mixed && !values[index].isNull) {
            var json = JSONWriter()
            if property.isCollection {
                try writeCollectionJSON(index, of: key, in: storedClass, into: &json, depth: 0)
            } else {
                try writeJSON(values[index], of: property, into: &json, depth: 0)
            }
            return String(decoding: json.bytes, as: UTF8.self)
        }
        return try scalarText(values[index], of: property, linkStyle: .json)
    }

    enum LinkStyle {
        /// `{"$key":N}` for a target without a primary key (CSV, which
        /// reads it back).
        case json
        /// `Dog#12`, for people.
        case short
    }

    /// Writes a list or dictionary nested in a mixed value: a JSON array or
    /// object of its mixed values.
    private func writeNestedJSON(_ collection: NestedCollection, of property: Property, into json: inout JSONWriter, depth: Int) throws(ToolError) {
        guard depth < 100 else { throw ToolError("collections in '\(property.name)' nested more than 100 deep") }
        let mixed = Property(name: property.name, type: .mixed, isOptional: true)
        do {
            guard let handle = try transaction.handle(of: collection) else { return json.raw("null") }
            if collection.kind == .list {
                json.raw(UInt8(ascii: "["))
                for (index, element) in try transaction.values(of: handle).enumerated() {
                    if index > 0 { json.raw(UInt8(ascii: ",")) }
                    try writeJSON(element, of: mixed, into: &json, depth: depth + 1)
                }
                json.raw(UInt8(ascii: "]"))
            } else {
                json.raw(UInt8(ascii: "{"))
                for (index, entry) in try transaction.entries(of: handle).enumerated() {
                    if index > 0 { json.raw(UInt8(ascii: ",")) }
                    json.string(entry.key)
                    json.raw(UInt8(ascii: ":"))
                    try writeJSON(entry.value, of: mixed, into: &json, depth: depth + 1)
                }
                json.raw(UInt8(ascii: "}"))
            }
        } catch let error as RealmError {
            throw ToolError(error, while: "reading a nested collection of '\(property.name)'")
        } catch let error as ToolError {
            throw error
        } catch {
            throw ToolError("\(error)")
        }
    }

    /// A scalar value as text, nil for null.
    func scalarText(_ value: Value, of property: Property, linkStyle: LinkStyle) throws(ToolError) -> String? {
        switch value {
        case .null: return nil
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .float(let number): return number.description
        case .double(let number): return number.description
        case .string(let text): return text
        case .data(let bytes): return bytes.base64EncodedString()
        case .date(let date): return ISO8601.string(from: date) ?? date.timeIntervalSince1970.description
        case .objectId(let id): return id.stringValue
        case .uuid(let id): return id.uuidString
        case .decimal(let number): return number.canonicalText
        case .link(let className, let key):
            let target = Property(name: property.name, type: .object, isOptional: true, objectClassName: className)
            return try scalarText(.object(key), of: target, linkStyle: linkStyle)
        case .collection(let collection):
            // Its contents as JSON, as an export writes them.
            var json = JSONWriter()
            try writeNestedJSON(collection, of: property, into: &json, depth: 0)
            return String(decoding: json.bytes, as: UTF8.self)
        case .object(let target):
            let targetClass = try self.target(of: property)
            if let primaryKey = targetClass.primaryKeyIndex, !targetClass.objectSchema.isEmbedded {
                let keyValue = try primaryKeyValue(of: target, in: targetClass, index: primaryKey)
                if keyValue.isNull {
                    return linkStyle == .json ? "{\"$primaryKey\":null}" : "\(targetClass.name)(nil)"
                }
                return try scalarText(keyValue, of: targetClass.objectSchema.properties[primaryKey], linkStyle: linkStyle)
            }
            switch linkStyle {
            case .json: return "{\"$key\":\(target.rawValue)}"
            case .short: return "\(targetClass.name)#\(target.rawValue)"
            }
        }
    }

    /// A short description of a property's value for a table cell: lists
    /// by their size and first elements, embedded objects as JSON.
    func tableText(key: ObjectKey, values: [Value], property index: Int, of storedClass: StoredClass) throws(ToolError) -> String {
        let property = storedClass.objectSchema.properties[index]
        if property.isMap {
            let entries = try mapEntries(index, of: key, in: storedClass)
            let shown = try entries.prefix(3).map { entry throws(ToolError) in
                "\(entry.key): " + (try scalarText(entry.value, of: property, linkStyle: .short) ?? "null")
            }
            return "{" + shown.joined(separator: ", ") + (entries.count > 3 ? ", … \(entries.count) in all" : "") + "}"
        }
        if property.isCollection {
            let elements = try listValues(index, of: key, in: storedClass)
            let shown = try elements.prefix(3).map { element throws(ToolError) in
                try scalarText(element, of: property, linkStyle: .short) ?? "null"
            }
            return "[" + shown.joined(separator: ", ") + (elements.count > 3 ? ", … \(elements.count) in all" : "") + "]"
        }
        if property.type == .object, !values[index].isNull, try target(of: property).objectSchema.isEmbedded {
            var json = JSONWriter()
            try writeJSON(values[index], of: property, into: &json, depth: 0)
            return String(decoding: json.bytes, as: UTF8.self)
        }
        return try scalarText(values[index], of: property, linkStyle: .short) ?? "null"
    }
}
