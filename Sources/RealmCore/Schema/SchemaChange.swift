/// One difference between a stored schema and a wanted one.
///
/// As in Realm, adding a class, and adding or removing an index, are applied
/// automatically; a class that is stored but not wanted is left in the file
/// untouched (so that a program can open a file with a subset of its
/// classes). Every other difference needs a migration.
public enum SchemaChange: Hashable, Sendable, CustomStringConvertible {
    case addedClass(ObjectSchema)
    case addedProperty(className: String, Property)
    case removedProperty(className: String, Property)
    /// The type, list-ness or link target changed.
    case changedPropertyType(className: String, from: Property, to: Property)
    case changedOptionality(className: String, from: Property, to: Property)
    case changedPrimaryKey(className: String, from: String?, to: String?)
    case changedEmbedding(className: String, isEmbedded: Bool)
    case addedIndex(className: String, propertyName: String)
    case removedIndex(className: String, propertyName: String)

    /// Whether applying the change needs a higher schema version and a
    /// migration.
    public var requiresMigration: Bool {
        switch self {
        case .addedClass, .addedIndex, .removedIndex: false
        default: true
        }
    }

    public var description: String {
        switch self {
        case .addedClass(let schema):
            "Class '\(schema.name)' has been added."
        case .addedProperty(let className, let property):
            "Property '\(className).\(property.name)' has been added."
        case .removedProperty(let className, let property):
            "Property '\(className).\(property.name)' has been removed."
        case .changedPropertyType(let className, let from, let to):
            "Property '\(className).\(from.name)' has been changed from '\(from.typeDescription)' to '\(to.typeDescription)'."
        case .changedOptionality(let className, let from, let to):
            "Property '\(className).\(from.name)' has been made \(to.isOptional ? "optional" : "required") (was '\(from.typeDescription)', now '\(to.typeDescription)')."
        case .changedPrimaryKey(let className, let from, let to):
            switch (from, to) {
            case (nil, let to?): "Primary key property '\(className).\(to)' has been added."
            case (let from?, nil): "Primary key property '\(className).\(from)' has been removed."
            default: "Primary key for class '\(className)' has changed from '\(from ?? "")' to '\(to ?? "")'."
            }
        case .changedEmbedding(let className, let isEmbedded):
            "Class '\(className)' has been changed to \(isEmbedded ? "embedded" : "top-level")."
        case .addedIndex(let className, let propertyName):
            "Property '\(className).\(propertyName)' has been made indexed."
        case .removedIndex(let className, let propertyName):
            "Property '\(className).\(propertyName)' has been made unindexed."
        }
    }
}

extension Schema {
    /// Every change that turns this (stored) schema into `wanted`, restricted
    /// to the classes `wanted` names; in class, then property order.
    public func changes(to wanted: Schema) -> [SchemaChange] {
        var changes: [SchemaChange] = []
        for target in wanted.objectSchemas {
            guard let stored = self[target.name] else {
                changes.append(.addedClass(target))
                continue
            }
            changes += stored.changes(to: target)
        }
        return changes
    }
}

extension ObjectSchema {
    func changes(to target: ObjectSchema) -> [SchemaChange] {
        var changes: [SchemaChange] = []
        if isEmbedded != target.isEmbedded {
            changes.append(.changedEmbedding(className: name, isEmbedded: target.isEmbedded))
        }
        for property in properties where target[propertyNamed: property.name] == nil {
            changes.append(.removedProperty(className: name, property))
        }
        for wanted in target.properties {
            guard let stored = self[propertyNamed: wanted.name] else {
                changes.append(.addedProperty(className: name, wanted))
                continue
            }
            if stored.type != wanted.type || stored.isList != wanted.isList || stored.isSet != wanted.isSet || stored.isMap != wanted.isMap
                || stored.objectClassName != wanted.objectClassName
                || stored.linkOriginPropertyName != wanted.linkOriginPropertyName {
                changes.append(.changedPropertyType(className: name, from: stored, to: wanted))
            } else if stored.isOptional != wanted.isOptional {
                changes.append(.changedOptionality(className: name, from: stored, to: wanted))
            }
            let storedIndexed = stored.isIndexed && !stored.isPrimaryKey
            let wantedIndexed = wanted.isIndexed && !wanted.isPrimaryKey
            if !storedIndexed && wantedIndexed {
                changes.append(.addedIndex(className: name, propertyName: wanted.name))
            } else if storedIndexed && !wantedIndexed && !wanted.isPrimaryKey {
                changes.append(.removedIndex(className: name, propertyName: wanted.name))
            }
        }
        if primaryKeyProperty?.name != target.primaryKeyProperty?.name {
            changes.append(.changedPrimaryKey(className: name, from: primaryKeyProperty?.name, to: target.primaryKeyProperty?.name))
        }
        return changes
    }
}

extension Schema {
    /// This schema with what `wanted` adds: its new classes, and its new
    /// properties after each class's own; what this schema has that
    /// `wanted` lacks stays. Index flags follow `wanted`.
    ///
    /// - Throws: `schemaMismatch` when `wanted` changes an existing class or
    ///   property (a type, optionality, primary key or kind), naming it.
    func growing(to wanted: Schema, path: String) throws(RealmError) -> Schema {
        var grown = self
        for target in wanted.objectSchemas {
            guard var stored = self[target.name] else {
                grown.upsert(target)
                continue
            }
            let destructive = stored.changes(to: target).filter { change in
                switch change {
                case .removedProperty, .addedProperty, .addedIndex, .removedIndex: false
                default: true
                }
            }
            guard destructive.isEmpty else {
                throw RealmError(.schemaMismatch, "The synced Realm at '\(path)' cannot take these changes (its schema only grows):\n"
                    + destructive.map { "- \($0)" }.joined(separator: "\n"))
            }
            for property in target.properties {
                if let index = stored.properties.firstIndex(where: { $0.name == property.name }) {
                    stored.properties[index].isIndexed = property.isIndexed
                } else {
                    stored.properties.append(property)
                }
            }
            grown.upsert(stored)
        }
        return grown
    }
}
