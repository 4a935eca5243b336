import RealmCore

/// Builds the schema of a set of model classes by reflection.
enum SchemaDiscovery {
    /// The classes and every class they link to, directly or not, each once,
    /// in first-seen order.
    static func closure(of types: [Object.Type]) -> [Object.Type] {
        var seen: Set<ObjectIdentifier> = []
        var result: [Object.Type] = []
        var pending = types
        while let type = pending.first {
            pending.removeFirst()
            guard seen.insert(ObjectIdentifier(type)).inserted else { continue }
            result.append(type)
            if let info = try? ClassInfo.reflecting(type) {
                pending += info.linkedTypes
            }
        }
        return result
    }

    /// The schema of exactly these classes, validated.
    static func schema(of types: [Object.Type]) throws(Realm.Error) -> Schema {
        var objectSchemas: [ObjectSchema] = []
        var seen: [String: Object.Type] = [:]
        for type in types {
            let info = try ClassInfo.reflecting(type)
            if let other = seen[info.className], other != type {
                throw Realm.Error(.invalidSchema, "Object type '\(info.className)' appears more than once in the schema (\(String(reflecting: other)) and \(String(reflecting: type))).")
            }
            seen[info.className] = type
            objectSchemas.append(info.objectSchema)
        }
        let schema = Schema(objectSchemas)
        do {
            try schema.validate()
        } catch {
            throw Realm.Error(error)
        }
        return schema
    }
}
