import RealmCore

/// A Realm file's schema, as `realm schema` prints it: each class with its
/// object count, and each property with its type, optionality, index,
/// primary key, links and backlinks.
public enum SchemaDescription {
    /// Aligned text for people.
    public static func text(of file: RealmFile) throws(ToolError) -> String {
        var lines = ["\(file.path): schema version \(file.schemaVersion), \(file.schema.objectSchemas.count) class\(file.schema.objectSchemas.count == 1 ? "" : "es")"]
        for objectSchema in file.schema.objectSchemas.sorted(by: { $0.name < $1.name }) {
            let stored = try file.storedClass(named: objectSchema.name)
            let count = try file.count(of: stored)
            lines.append("")
            lines.append("\(objectSchema.name)\(objectSchema.isEmbedded ? " (embedded)" : ""): \(count) object\(count == 1 ? "" : "s")")
            let width = objectSchema.properties.map(\.name.count).max() ?? 0
            let typeWidth = objectSchema.properties.map(\.typeDescription.count).max() ?? 0
            for property in objectSchema.properties {
                var notes: [String] = []
                if property.isPrimaryKey { notes.append("primary key") }
                if property.isIndexed && !property.isPrimaryKey { notes.append("indexed") }
                if property.type == .object { notes.append(property.isCollection ? "links to many" : "link") }
                if property.type == .linkingObjects { notes.append("backlinks, computed") }
                let name = property.name + String(repeating: " ", count: width - property.name.count)
                let type = property.typeDescription + String(repeating: " ", count: typeWidth - property.typeDescription.count)
                lines.append("  \(name)  \(type)  \(notes.joined(separator: ", "))".trimmingTrailingSpaces())
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The same as JSON, for programs.
    public static func json(of file: RealmFile) throws(ToolError) -> String {
        var json = JSONWriter()
        json.raw("{\"path\":")
        json.string(file.path)
        json.raw(",\"schemaVersion\":")
        json.int(Int64(file.schemaVersion))
        json.raw(",\"classes\":[")
        for (position, objectSchema) in file.schema.objectSchemas.sorted(by: { $0.name < $1.name }).enumerated() {
            let stored = try file.storedClass(named: objectSchema.name)
            if position > 0 { json.raw(",") }
            json.raw("\n{\"name\":")
            json.string(objectSchema.name)
            json.raw(",\"embedded\":\(objectSchema.isEmbedded),\"count\":\(try file.count(of: stored)),\"primaryKey\":")
            if let key = objectSchema.primaryKeyProperty { json.string(key.name) } else { json.raw("null") }
            json.raw(",\"properties\":[")
            for (index, property) in objectSchema.properties.enumerated() {
                if index > 0 { json.raw(",") }
                json.raw("{\"name\":")
                json.string(property.name)
                json.raw(",\"type\":")
                json.string(property.type.rawValue)
                json.raw(",\"optional\":\(property.isOptional),\"list\":\(property.isList),\"set\":\(property.isSet),\"map\":\(property.isMap),\"indexed\":\(property.isIndexed),\"primaryKey\":\(property.isPrimaryKey)")
                if let target = property.objectClassName {
                    json.raw(",\"objectClass\":")
                    json.string(target)
                }
                if let origin = property.linkOriginPropertyName {
                    json.raw(",\"linkOrigin\":")
                    json.string(origin)
                }
                json.raw("}")
            }
            json.raw("]}")
        }
        json.raw("\n]}\n")
        return String(decoding: json.bytes, as: UTF8.self)
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
