/// Changing the stored schema inside a write transaction.
extension Transaction {
    /// Brings the stored schema to include `wanted` (classes the file has
    /// and `wanted` lacks are kept), applying every change of
    /// `storedSchema.changes(to: wanted)`, and records `schemaVersion`.
    ///
    /// Values of added required properties start at their type's zero value;
    /// a property whose type changed loses its values (read them from a
    /// transaction pinned before the change, as migrations do).
    ///
    /// - Throws: `invalidSchema` when the merged schema is invalid; a
    ///   `duplicatePrimaryKey` when a new primary key has duplicate values.
    ///   Nothing is changed then.
    public func applySchema(_ wanted: Schema, schemaVersion: UInt64) throws(RealmError) {
        try requireWrite("change the schema")
        try ensureReading()
        let stored = catalog.schema
        var merged = stored
        for objectSchema in wanted.objectSchemas { merged.upsert(objectSchema) }
        try merged.validate()
        let changes = stored.changes(to: wanted)
        try atomically { () throws(RealmError) in
            for className in classesLosingKeyedLayout(changes) {
                try separateKeyFromPrimaryKey(in: catalog.tables[catalog.tableIndex(named: className)!])
            }
            for change in changes { try apply(change, stored: stored) }
            try writeCatalog(merged, touched: Set(wanted.classNames))
            let metadata = try connection.cachedStatement(
                "UPDATE realm_metadata SET schema_version = ?, catalog_generation = catalog_generation + 1 WHERE id = 1")
            metadata.bind(Int64(bitPattern: schemaVersion), at: 1)
            try metadata.run()
            replaceCatalog(try Catalog.load(from: connection))
        }
    }

    /// Removes a class and all its objects from the file (a migration's
    /// `deleteData(forType:)`); links to its objects become nil.
    public func removeClass(named className: String) throws(RealmError) {
        try requireWrite("change the schema")
        let handle = try classHandle(named: className)
        let layout = try layout(handle)
        var remaining = catalog.schema
        remaining.remove(className: className)
        let dangling = remaining.objectSchemas.flatMap { schema in
            schema.properties.filter { $0.objectClassName == className }.map { "'\(schema.name).\($0.name)'" }
        }
        guard dangling.isEmpty else {
            throw RealmError(.invalidSchema, "Cannot remove class '\(className)': properties \(dangling.joined(separator: ", ")) link to it.")
        }
        try atomically { () throws(RealmError) in
            try deleteAllObjects(in: handle)
            for property in layout.collectionTables.compactMap({ $0 }) {
                try connection.execute("DROP TABLE \(property)")
            }
            try connection.execute("DROP TABLE \(layout.table)")
            let deleteClass = try connection.cachedStatement("DELETE FROM realm_classes WHERE name = ?")
            deleteClass.bind(className, at: 1)
            try deleteClass.run()
            let deleteProperties = try connection.cachedStatement("DELETE FROM realm_properties WHERE class_name = ?")
            deleteProperties.bind(className, at: 1)
            try deleteProperties.run()
            try connection.execute("UPDATE realm_metadata SET catalog_generation = catalog_generation + 1 WHERE id = 1")
            replaceCatalog(try Catalog.load(from: connection))
        }
    }

    /// Allows primary keys to change for the rest of this write transaction,
    /// as a migration may.
    public func allowPrimaryKeyChanges() throws(RealmError) {
        try requireWrite("change primary keys")
        allowsPrimaryKeyChanges = true
    }

    // MARK: Classes keyed by their primary key

    /// Whether a class created now is keyed by its primary key: it has a
    /// required `int` primary key, and the file's format records the choice.
    private func keysByPrimaryKey(_ objectSchema: ObjectSchema) -> Bool {
        catalog.formatVersion >= 2 && objectSchema.primaryKeyProperty.map(TableLayout.canKeyObjects) == true
    }

    /// The classes keyed by their primary key that `changes` change the
    /// primary key of: its property is removed, changes type or
    /// optionality, or stops being the primary key.
    private func classesLosingKeyedLayout(_ changes: [SchemaChange]) -> [String] {
        var classes: [String] = []
        for change in changes {
            let className: String
            let property: String?
            switch change {
            case .removedProperty(let name, let removed): (className, property) = (name, removed.name)
            case .changedPropertyType(let name, let from, _): (className, property) = (name, from.name)
            case .changedOptionality(let name, let from, _): (className, property) = (name, from.name)
            case .changedPrimaryKey(let name, _, _): (className, property) = (name, nil)
            default: continue
            }
            guard let index = catalog.tableIndex(named: className), catalog.tables[index].isKeyedByPrimaryKey,
                  !classes.contains(className) else { continue }
            let primaryKey = catalog.tables[index].objectSchema.primaryKeyProperty?.name
            if property == nil || property == primaryKey { classes.append(className) }
        }
        return classes
    }

    /// Gives a class keyed by its primary key the layout of other classes:
    /// the primary key gets its own column, filled from the keys, with a
    /// unique index. Keys stay as they are, so links and lists stay valid;
    /// the primary key can then change without changing the object's key.
    /// Inside an atomic operation; reloads the catalog.
    func separateKeyFromPrimaryKey(in layout: TableLayout) throws(RealmError) {
        guard layout.isKeyedByPrimaryKey, let primaryKey = layout.objectSchema.primaryKeyProperty else { return }
        let className = layout.name
        let column = FileLayout.quote(primaryKey.name)
        try connection.execute("ALTER TABLE \(classTable(className)) ADD COLUMN \(column) \(primaryKey.type.sqlDeclaration)")
        try connection.execute("UPDATE \(classTable(className)) SET \(column) = _key")
        try createIndex(className, primaryKey.name, unique: true)
        let flag = try connection.cachedStatement("UPDATE realm_classes SET keyed_by_primary_key = 0 WHERE name = ?")
        flag.bind(className, at: 1)
        try flag.run()
        try connection.execute("UPDATE realm_metadata SET catalog_generation = catalog_generation + 1 WHERE id = 1")
        replaceCatalog(try Catalog.load(from: connection))
    }

    // MARK: DDL

    private func apply(_ change: SchemaChange, stored: Schema) throws(RealmError) {
        switch change {
        case .addedClass(let objectSchema):
            try createTables(for: objectSchema)
        case .addedProperty(let className, let property):
            try addStorage(for: property, className: className)
            if property.isPrimaryKey { deferPrimaryKeyIndex(className, property.name) }
        case .removedProperty(let className, let property):
            try removeStorage(for: property, className: className)
        case .changedPropertyType(let className, let from, let to):
            try removeStorage(for: from, className: className)
            try addStorage(for: to, className: className)
        case .changedOptionality(let className, let from, let to):
            guard from.isOptional && !to.isOptional else { return }
            let fill = Self.literal(for: to.type)
            if to.isCollection {
                // A set may hold nil once: filling it in may repeat the
                // fill value, which the set then keeps once.
                if to.isSet {
                    try connection.execute("DELETE FROM \(listTable(className, to)) WHERE value IS NULL AND owner IN (SELECT owner FROM \(listTable(className, to)) WHERE value = \(fill))")
                }
                try connection.execute("UPDATE \(listTable(className, to)) SET value = \(fill) WHERE value IS NULL")
            } else {
                try connection.execute("UPDATE \(classTable(className)) SET \(FileLayout.quote(to.name)) = \(fill) WHERE \(FileLayout.quote(to.name)) IS NULL")
            }
        case .changedPrimaryKey(let className, let from, let to):
            if let from, let property = stored[className]?[propertyNamed: from], property.isColumn {
                try connection.execute("DROP INDEX IF EXISTS \(indexName(className, from))")
                if property.isIndexed && !property.isPrimaryKey {
                    try createIndex(className, from, unique: false)
                }
            }
            if let to {
                try connection.execute("DROP INDEX IF EXISTS \(indexName(className, to))")
                deferPrimaryKeyIndex(className, to)
            }
        case .changedEmbedding:
            break
        case .addedIndex(let className, let propertyName):
            try createIndex(className, propertyName, unique: false)
        case .removedIndex(let className, let propertyName):
            try connection.execute("DROP INDEX IF EXISTS \(indexName(className, propertyName))")
        }
    }

    private func createTables(for objectSchema: ObjectSchema) throws(RealmError) {
        // A primary key that keys the objects is the table's `_key`.
        let keyedByPrimaryKey = keysByPrimaryKey(objectSchema)
        let stored = objectSchema.properties.filter { $0.isColumn && !(keyedByPrimaryKey && $0.isPrimaryKey) }
        let columns = stored.map { property in
            (FileLayout.quote(property.name) + " " + property.type.sqlDeclaration).trimmingCharacters(in: .whitespaces)
        }
        try connection.execute("CREATE TABLE \(classTable(objectSchema.name)) (\((["_key INTEGER PRIMARY KEY"] + columns).joined(separator: ", ")))")
        for property in objectSchema.properties {
            if property.isColumn {
                if keyedByPrimaryKey && property.isPrimaryKey { continue }
                try createIndexIfNeeded(objectSchema.name, property)
            } else if property.isCollection {
                try createListTable(objectSchema.name, property)
            }
        }
    }

    private func addStorage(for property: Property, className: String) throws(RealmError) {
        if property.isCollection {
            try createListTable(className, property)
        } else if property.isColumn {
            var declaration = FileLayout.quote(property.name) + " " + property.type.sqlDeclaration
            if !property.isOptional && property.type != .object {
                declaration += " DEFAULT " + Self.literal(for: property.type)
            }
            try connection.execute("ALTER TABLE \(classTable(className)) ADD COLUMN \(declaration)")
            // A new primary key's values all start at the default: its
            // unique index waits for the migration to set them.
            if !property.isPrimaryKey { try createIndexIfNeeded(className, property) }
        }
    }

    /// Makes the unique index of `className.property`, a primary key, at
    /// commit (``createPendingPrimaryKeyIndexes()``).
    private func deferPrimaryKeyIndex(_ className: String, _ property: String) {
        let name = PropertyName(className: className, property: property)
        if !pendingPrimaryKeyIndexes.contains(name) { pendingPrimaryKeyIndexes.append(name) }
    }

    /// Makes the unique indexes of the primary keys this write's schema
    /// changes gave to classes with objects, now that a migration had its
    /// chance to set their values.
    ///
    /// - Throws: `duplicatePrimaryKey` naming the class and property when
    ///   two objects share a value; nothing is changed then.
    func createPendingPrimaryKeyIndexes() throws(RealmError) {
        guard !pendingPrimaryKeyIndexes.isEmpty else { return }
        try atomically { () throws(RealmError) in
            for name in pendingPrimaryKeyIndexes {
                // The class or the property may be gone again, or no longer
                // the primary key, after a later change in the same write.
                guard let layout = catalog.tableIndex(named: name.className).map({ catalog.tables[$0] }),
                      let primaryKey = layout.objectSchema.primaryKeyProperty, primaryKey.name == name.property,
                      !layout.isKeyedByPrimaryKey else { continue }
                try connection.execute("DROP INDEX IF EXISTS \(indexName(name.className, name.property))")
                do {
                    try createIndex(name.className, name.property, unique: true)
                } catch {
                    throw RealmError(.duplicatePrimaryKey, "Cannot make '\(name.className).\(name.property)' the primary key: objects of class '\(name.className)' have duplicate values for it.")
                }
            }
        }
        pendingPrimaryKeyIndexes = []
    }

    private func removeStorage(for property: Property, className: String) throws(RealmError) {
        if property.type == .mixed { try deleteNestedCollections(ofProperty: property.name, className: className) }
        if property.isCollection {
            try connection.execute("DROP TABLE IF EXISTS \(listTable(className, property))")
        } else if property.isColumn {
            try connection.execute("DROP INDEX IF EXISTS \(indexName(className, property.name))")
            try connection.execute("ALTER TABLE \(classTable(className)) DROP COLUMN \(FileLayout.quote(property.name))")
        }
    }

    /// The table of a list, set or map property: a row per element.
    /// - a list's rows are keyed by owner and a dense position;
    /// - a set's by owner and value (UNIQUE, which lets several NULLs by:
    ///   the set operations keep nil once);
    /// - a map's by owner and key.
    private func createListTable(_ className: String, _ property: Property) throws(RealmError) {
        let table = listTable(className, property)
        let declaration = property.type.sqlDeclaration
        if property.isSet {
            try connection.execute("CREATE TABLE \(table) (owner INTEGER NOT NULL, value \(declaration), UNIQUE (owner, value))")
        } else if property.isMap {
            try connection.execute("CREATE TABLE \(table) (owner INTEGER NOT NULL, key TEXT NOT NULL, value \(declaration), PRIMARY KEY (owner, key)) WITHOUT ROWID")
        } else {
            try connection.execute("CREATE TABLE \(table) (owner INTEGER NOT NULL, position INTEGER NOT NULL, value \(declaration), PRIMARY KEY (owner, position)) WITHOUT ROWID")
        }
        if property.type == .object || property.type == .mixed {
            // Finding the lists that hold an object, when it is deleted or its
            // backlinks are read.
            let name = FileLayout.listTableName(forClass: className, property: property.name)
            try connection.execute("CREATE INDEX \(FileLayout.quote(FileLayout.indexName(forTable: name, column: "value"))) ON \(table) (value)")
        }
    }

    private func createIndexIfNeeded(_ className: String, _ property: Property) throws(RealmError) {
        if property.isPrimaryKey {
            try createIndex(className, property.name, unique: true)
        } else if property.isIndexed || property.type == .object || property.type == .mixed {
            // Links are always indexed: deleting an object must find the
            // links to it without scanning.
            try createIndex(className, property.name, unique: false)
        }
    }

    private func createIndex(_ className: String, _ propertyName: String, unique: Bool) throws(RealmError) {
        try connection.execute("CREATE \(unique ? "UNIQUE " : "")INDEX \(indexName(className, propertyName)) ON \(classTable(className)) (\(FileLayout.quote(propertyName)))")
    }

    private func writeCatalog(_ schema: Schema, touched: Set<String>) throws(RealmError) {
        let existing = Set(catalog.schema.classNames)
        for (position, objectSchema) in schema.objectSchemas.enumerated() where touched.contains(objectSchema.name) {
            let classRow: Statement
            if existing.contains(objectSchema.name) {
                classRow = try connection.cachedStatement("UPDATE realm_classes SET is_embedded = ?, swift_type = ? WHERE name = ?")
                classRow.bind(Int64(objectSchema.isEmbedded ? 1 : 0), at: 1)
                if let swiftType = objectSchema.swiftTypeName { classRow.bind(swiftType, at: 2) } else { classRow.bindNull(at: 2) }
                classRow.bind(objectSchema.name, at: 3)
            } else {
                // Format 1 files have no keyed_by_primary_key column.
                classRow = try connection.cachedStatement(catalog.formatVersion >= 2
                    ? "INSERT INTO realm_classes (name, position, table_name, is_embedded, swift_type, next_key, keyed_by_primary_key) VALUES (?, ?, ?, ?, ?, 1, ?)"
                    : "INSERT INTO realm_classes (name, position, table_name, is_embedded, swift_type, next_key) VALUES (?, ?, ?, ?, ?, 1)")
                classRow.bind(objectSchema.name, at: 1)
                classRow.bind(Int64(position), at: 2)
                classRow.bind(FileLayout.tableName(forClass: objectSchema.name), at: 3)
                classRow.bind(Int64(objectSchema.isEmbedded ? 1 : 0), at: 4)
                if let swiftType = objectSchema.swiftTypeName { classRow.bind(swiftType, at: 5) } else { classRow.bindNull(at: 5) }
                if catalog.formatVersion >= 2 { classRow.bind(Int64(keysByPrimaryKey(objectSchema) ? 1 : 0), at: 6) }
            }
            try classRow.run()

            let clear = try connection.cachedStatement("DELETE FROM realm_properties WHERE class_name = ?")
            clear.bind(objectSchema.name, at: 1)
            try clear.run()
            let insert = try connection.cachedStatement("""
                INSERT INTO realm_properties (class_name, name, position, type, is_optional, is_list, object_class, origin_property, is_indexed, is_primary_key)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for (index, property) in objectSchema.properties.enumerated() {
                insert.bind(objectSchema.name, at: 1)
                insert.bind(property.name, at: 2)
                insert.bind(Int64(index), at: 3)
                insert.bind(property.type.rawValue, at: 4)
                insert.bind(Int64(property.isOptional ? 1 : 0), at: 5)
                insert.bind(Int64(property.isList ? 1 : property.isSet ? 2 : property.isMap ? 3 : 0), at: 6)
                if let target = property.objectClassName { insert.bind(target, at: 7) } else { insert.bindNull(at: 7) }
                if let origin = property.linkOriginPropertyName { insert.bind(origin, at: 8) } else { insert.bindNull(at: 8) }
                insert.bind(Int64(property.isIndexed ? 1 : 0), at: 9)
                insert.bind(Int64(property.isPrimaryKey ? 1 : 0), at: 10)
                try insert.run()
            }
        }
    }

    private func classTable(_ className: String) -> String {
        FileLayout.quote(FileLayout.tableName(forClass: className))
    }

    private func listTable(_ className: String, _ property: Property) -> String {
        FileLayout.quote(FileLayout.listTableName(forClass: className, property: property.name))
    }

    private func indexName(_ className: String, _ propertyName: String) -> String {
        FileLayout.quote(FileLayout.indexName(forTable: FileLayout.tableName(forClass: className), column: propertyName))
    }

    /// The SQL literal of a type's zero value, for column defaults.
    static func literal(for type: PropertyType) -> String {
        switch type {
        case .bool, .int: "0"
        case .float, .double: "0.0"
        case .string: "''"
        case .decimal: "'0'"
        case .data: "X''"
        case .date: "-978307200.0"
        case .objectId: "X'000000000000000000000000'"
        case .uuid: "X'00000000000000000000000000000000'"
        case .object, .linkingObjects, .mixed: "NULL"
        }
    }
}

import Foundation
