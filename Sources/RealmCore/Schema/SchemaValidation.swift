/// The limits that Realm puts on names.
public enum SchemaLimits {
    /// The longest class name, in UTF-8 bytes.
    public static let maximumClassNameLength = 57
    /// The longest property name, in UTF-8 bytes.
    public static let maximumPropertyNameLength = 63
    /// The longest String or Data value, in bytes (16 MiB).
    public static let maximumValueSize = 16 * 1024 * 1024
    /// The name of the object-key column of every class table, which no
    /// property may take.
    public static let reservedPropertyName = "_key"
}

extension Schema {
    /// Checks every rule a schema must follow and throws one
    /// ``RealmError/Kind/invalidSchema`` error that lists every violation,
    /// each naming its class and property.
    public func validate() throws(RealmError) {
        let problems = validationProblems()
        guard problems.isEmpty else {
            throw RealmError(
                .invalidSchema,
                "Schema validation failed due to the following errors:\n" + problems.map { "- " + $0 }.joined(separator: "\n"))
        }
    }

    /// Every rule violation, one sentence each.
    func validationProblems() -> [String] {
        var problems: [String] = []
        var seenClasses: Set<String> = []
        for objectSchema in objectSchemas {
            let className = objectSchema.name
            if !seenClasses.insert(className).inserted {
                problems.append("Class '\(className)' is defined more than once.")
            }
            if className.isEmpty {
                problems.append("A class has an empty name.")
            } else if className.utf8.count > SchemaLimits.maximumClassNameLength {
                problems.append("Class name '\(className)' is \(className.utf8.count) UTF-8 bytes long; the limit is \(SchemaLimits.maximumClassNameLength).")
            }
            problems += propertyProblems(of: objectSchema)
        }
        return problems
    }

    private func propertyProblems(of objectSchema: ObjectSchema) -> [String] {
        var problems: [String] = []
        let className = objectSchema.name
        var seenProperties: Set<String> = []
        let primaryKeys = objectSchema.properties.filter(\.isPrimaryKey)
        if primaryKeys.count > 1 {
            problems.append("Class '\(className)' has more than one primary key: \(primaryKeys.map { "'\($0.name)'" }.joined(separator: ", ")).")
        }
        for property in objectSchema.properties {
            let name = "'\(className).\(property.name)'"
            if !seenProperties.insert(property.name).inserted {
                problems.append("Property \(name) is defined more than once.")
            }
            if property.name.isEmpty {
                problems.append("Class '\(className)' has a property with an empty name.")
            } else if property.name.utf8.count > SchemaLimits.maximumPropertyNameLength {
                problems.append("Property name \(name) is \(property.name.utf8.count) UTF-8 bytes long; the limit is \(SchemaLimits.maximumPropertyNameLength).")
            }
            if property.name.contains(".") {
                problems.append("Property name \(name) contains '.', which separates key paths.")
            }
            if property.name == SchemaLimits.reservedPropertyName {
                problems.append("Property name \(name) is reserved for the object key.")
            }
            if property.isPrimaryKey {
                if !property.type.canBePrimaryKey || property.isCollection {
                    problems.append("Property \(name) of type \(property.typeDescription) cannot be a primary key; only int, string, objectId and uuid properties can.")
                }
                if objectSchema.isEmbedded {
                    problems.append("Embedded class '\(className)' cannot have a primary key ('\(property.name)').")
                }
            }
            if property.isIndexed && !property.isPrimaryKey && (!property.type.canBeIndexed || property.isCollection) {
                problems.append("Property \(name) of type \(property.typeDescription) cannot be indexed; only bool, int, string, date, objectId and uuid properties can.")
            }
            problems += linkProblems(of: property, in: objectSchema)
        }
        return problems
    }

    private func linkProblems(of property: Property, in objectSchema: ObjectSchema) -> [String] {
        let name = "'\(objectSchema.name).\(property.name)'"
        switch property.type {
        case .object:
            guard let target = property.objectClassName else {
                return ["Property \(name) links to objects but names no target class."]
            }
            guard self[target] != nil else {
                return ["Property \(name) links to class '\(target)', which is not in the schema."]
            }
            if !property.isCollection && !property.isOptional {
                return ["Property \(name) links to a single '\(target)' and must be optional."]
            }
            if (property.isList || property.isSet) && property.isOptional {
                return ["Property \(name) is a \(property.isSet ? "set" : "list") of '\(target)' objects, which cannot be nil; \(property.isSet ? "sets" : "lists") of links must not be optional."]
            }
            if property.isMap && !property.isOptional {
                return ["Property \(name) maps keys to '\(target)' objects and must be optional: a deleted object leaves nil."]
            }
            if property.isSet && self[target]?.isEmbedded == true {
                return ["Property \(name) is a set of embedded '\(target)' objects: only lists, maps and to-one links hold embedded objects."]
            }
            return []
        case .linkingObjects:
            guard let origin = property.objectClassName, let originProperty = property.linkOriginPropertyName else {
                return ["Linking objects property \(name) must name the origin class and property."]
            }
            guard let originSchema = self[origin] else {
                return ["Linking objects property \(name) follows links from class '\(origin)', which is not in the schema."]
            }
            guard let link = originSchema[propertyNamed: originProperty] else {
                return ["Linking objects property \(name) follows property '\(origin).\(originProperty)', which does not exist."]
            }
            guard link.type == .object, link.objectClassName == objectSchema.name else {
                return ["Linking objects property \(name) follows property '\(origin).\(originProperty)', which does not link to '\(objectSchema.name)'."]
            }
            return []
        default:
            if property.objectClassName != nil {
                return ["Property \(name) of type \(property.type) cannot name a target class."]
            }
            return []
        }
    }
}
