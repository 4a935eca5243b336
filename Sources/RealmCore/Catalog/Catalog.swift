/// The stored schema of a file at one catalog generation, with the table
/// layout of every class. Immutable; shared by the coordinator and every
/// transaction that reads at a version with this generation.
final class Catalog: Sendable {
    let schema: Schema
    let tables: [TableLayout]
    let schemaVersion: UInt64
    /// The file's layout version (``FileLayout/readableFormatVersions``).
    let formatVersion: Int64
    /// The classes whose objects' keys are their primary-key values (see
    /// ``TableLayout/isKeyedByPrimaryKey``).
    let classesKeyedByPrimaryKey: Set<String>
    /// Incremented by every commit that changes the schema, so that a
    /// transaction can tell after a refresh whether to reload.
    let generation: Int64
    /// Whether the file has the tables of collections nested in mixed
    /// values (made the first time one is stored).
    let hasNestedCollections: Bool
    /// The generation of a file no schema was ever applied to: a new one.
    static let initialGeneration: Int64 = 1
    private let tableIndexByName: [String: Int]

    init(schema: Schema, tableNames: [String], keyedByPrimaryKey: Set<String>, schemaVersion: UInt64,
         formatVersion: Int64, generation: Int64, hasNestedCollections: Bool) {
        self.schema = schema
        self.hasNestedCollections = hasNestedCollections
        self.schemaVersion = schemaVersion
        self.formatVersion = formatVersion
        self.generation = generation
        self.classesKeyedByPrimaryKey = keyedByPrimaryKey
        self.tables = schema.objectSchemas.enumerated().map { index, objectSchema in
            TableLayout(index: index, objectSchema: objectSchema, tableName: tableNames[index],
                        isKeyedByPrimaryKey: keyedByPrimaryKey.contains(objectSchema.name), in: schema)
        }
        var byName: [String: Int] = [:]
        for (index, objectSchema) in schema.objectSchemas.enumerated() {
            byName[objectSchema.name] = index
        }
        self.tableIndexByName = byName
    }

    func tableIndex(named className: String) -> Int? {
        tableIndexByName[className]
    }

    /// Reads the catalog inside the connection's current transaction.
    static func load(from connection: Connection) throws(RealmError) -> Catalog {
        let metadata = try connection.cachedStatement(
            "SELECT format_version, schema_version, catalog_generation FROM realm_metadata WHERE id = 1")
        defer { metadata.reset() }
        guard try metadata.step() else {
            throw RealmError(.corruptFile, "The Realm file at '\(connection.path)' has no metadata row.")
        }
        let formatVersion = metadata.int64(at: 0)
        guard FileLayout.readableFormatVersions.contains(formatVersion) else {
            let readable = FileLayout.readableFormatVersions
            throw RealmError(
                .incompatibleFormat,
                "The Realm file at '\(connection.path)' has format version \(formatVersion); this library reads versions \(readable.lowerBound) to \(readable.upperBound).")
        }
        let schemaVersion = UInt64(bitPattern: metadata.int64(at: 1))
        let generation = metadata.int64(at: 2)

        var propertiesByClass: [String: [Property]] = [:]
        let properties = try connection.cachedStatement("""
            SELECT class_name, name, type, is_optional, is_list, object_class, origin_property, is_indexed, is_primary_key
            FROM realm_properties ORDER BY class_name, position
            """)
        defer { properties.reset() }
        while try properties.step() {
            let typeName = properties.string(at: 2)
            guard let type = PropertyType(rawValue: typeName) else {
                throw RealmError(
                    .corruptFile,
                    "The Realm file at '\(connection.path)' stores property '\(properties.string(at: 0)).\(properties.string(at: 1))' with unknown type '\(typeName)'.")
            }
            let property = Property(
                name: properties.string(at: 1),
                type: type,
                isOptional: properties.int64(at: 3) != 0,
                // The column tells the collection kind: 1 list, 2 set, 3 map.
                isList: properties.int64(at: 4) == 1,
                isSet: properties.int64(at: 4) == 2,
                isMap: properties.int64(at: 4) == 3,
                objectClassName: properties.isNull(at: 5) ? nil : properties.string(at: 5),
                linkOriginPropertyName: properties.isNull(at: 6) ? nil : properties.string(at: 6),
                isIndexed: properties.int64(at: 7) != 0,
                isPrimaryKey: properties.int64(at: 8) != 0)
            propertiesByClass[properties.string(at: 0), default: []].append(property)
        }

        var objectSchemas: [ObjectSchema] = []
        var tableNames: [String] = []
        var keyedByPrimaryKey: Set<String> = []
        // Format 1 has no keyed_by_primary_key column: no class is keyed so.
        let classes = try connection.cachedStatement(formatVersion >= 2
            ? "SELECT name, table_name, is_embedded, swift_type, keyed_by_primary_key FROM realm_classes ORDER BY position"
            : "SELECT name, table_name, is_embedded, swift_type, 0 FROM realm_classes ORDER BY position")
        defer { classes.reset() }
        while try classes.step() {
            let name = classes.string(at: 0)
            let objectSchema = ObjectSchema(
                name: name,
                properties: propertiesByClass[name] ?? [],
                isEmbedded: classes.int64(at: 2) != 0,
                swiftTypeName: classes.isNull(at: 3) ? nil : classes.string(at: 3))
            if classes.int64(at: 4) != 0 {
                guard objectSchema.primaryKeyProperty.map(TableLayout.canKeyObjects) == true else {
                    throw RealmError(
                        .corruptFile,
                        "The Realm file at '\(connection.path)' keys class '\(name)' by its primary key, which is not a required int.")
                }
                keyedByPrimaryKey.insert(name)
            }
            objectSchemas.append(objectSchema)
            tableNames.append(classes.string(at: 1))
        }
        let hasNestedCollections = try connection.scalar(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'realm_nested_collections'") == 1
        return Catalog(schema: Schema(objectSchemas), tableNames: tableNames, keyedByPrimaryKey: keyedByPrimaryKey,
                       schemaVersion: schemaVersion, formatVersion: formatVersion, generation: generation,
                       hasNestedCollections: hasNestedCollections)
    }
}
