/// Where one class's objects live: its table, its columns, its list tables,
/// and the links that point at it from elsewhere. Computed once per catalog
/// generation, so that object access builds no SQL names.
final class TableLayout: Sendable {
    /// The class's position in the catalog.
    let index: Int
    let objectSchema: ObjectSchema
    /// The quoted name of the class table.
    let table: String
    /// Per property index: the quoted column name, or nil when the property
    /// is not stored in a column.
    let columns: [String?]
    /// Per property index: the quoted list table, for list properties.
    let listTables: [String?]
    /// Per property index: the quoted set table, for set properties.
    let setTables: [String?]
    /// Per property index: the quoted map table, for map properties.
    let mapTables: [String?]
    /// Per property index: the quoted table of a list, set or map.
    let collectionTables: [String?]
    /// Per property index: the catalog index of the class linked to.
    let linkTargets: [Int?]
    /// The property indices of the column properties, in declaration order.
    let columnProperties: [Int]
    /// The column properties as a row query reads them, after the key.
    let rowColumns: [RowColumn]
    /// The primary-key property's index.
    let primaryKey: Int?
    /// Whether the objects' keys are their primary-key values: the table's
    /// `_key` holds the primary key, which has no column of its own, and
    /// no index beside the table's own b-tree. Classes created in a format 2
    /// file with a required `int` primary key are keyed so; the class keeps
    /// a separate key from the moment a migration changes its primary key.
    let isKeyedByPrimaryKey: Bool
    /// To-one links (class index, property index) pointing at this class.
    let incomingLinks: [PropertyReference]
    /// Lists of links (class index, property index) pointing at this class.
    let incomingLists: [PropertyReference]
    /// The mixed properties of this class, by index: columns, and
    /// collections of mixed values. A mixed value may link to any class.
    let mixedColumns: [Int]
    let mixedCollections: [Int]
    /// Sets and maps of links (class index, property index) pointing at
    /// this class.
    let incomingSets: [PropertyReference]
    let incomingMaps: [PropertyReference]

    /// Whether deleting an object of this class touches nothing else:
    /// nothing links to the class, and it has no lists and no links (which
    /// may own embedded objects).
    let standsAlone: Bool

    var name: String { objectSchema.name }
    var isEmbedded: Bool { objectSchema.isEmbedded }

    init(index: Int, objectSchema: ObjectSchema, tableName: String, isKeyedByPrimaryKey: Bool, in schema: Schema) {
        self.index = index
        self.objectSchema = objectSchema
        self.table = FileLayout.quote(tableName)
        self.isKeyedByPrimaryKey = isKeyedByPrimaryKey
        let properties = objectSchema.properties
        self.columns = properties.map { property in
            guard property.isColumn else { return nil }
            return isKeyedByPrimaryKey && property.isPrimaryKey ? "_key" : FileLayout.quote(property.name)
        }
        let collectionTables = properties.map {
            $0.isCollection ? FileLayout.quote(FileLayout.listTableName(forClass: objectSchema.name, property: $0.name)) : nil
        }
        self.collectionTables = collectionTables
        self.listTables = properties.indices.map { properties[$0].isList ? collectionTables[$0] : nil }
        self.setTables = properties.indices.map { properties[$0].isSet ? collectionTables[$0] : nil }
        self.mapTables = properties.indices.map { properties[$0].isMap ? collectionTables[$0] : nil }
        self.linkTargets = properties.map { property in
            guard property.type == .object, let target = property.objectClassName else { return nil }
            return schema.objectSchemas.firstIndex { $0.name == target }
        }
        self.columnProperties = properties.indices.filter { properties[$0].isColumn }
        self.rowColumns = columnProperties.map { RowColumn(property: $0, type: properties[$0].type) }
        self.primaryKey = properties.firstIndex(where: \.isPrimaryKey)
        var incomingLinks: [PropertyReference] = []
        var incomingLists: [PropertyReference] = []
        var incomingSets: [PropertyReference] = []
        var incomingMaps: [PropertyReference] = []
        for (classIndex, source) in schema.objectSchemas.enumerated() {
            for (propertyIndex, property) in source.properties.enumerated()
            where property.type == .object && property.objectClassName == objectSchema.name {
                let reference = PropertyReference(classIndex: classIndex, propertyIndex: propertyIndex)
                if property.isList {
                    incomingLists.append(reference)
                } else if property.isSet {
                    incomingSets.append(reference)
                } else if property.isMap {
                    incomingMaps.append(reference)
                } else {
                    incomingLinks.append(reference)
                }
            }
        }
        self.incomingLinks = incomingLinks
        self.incomingLists = incomingLists
        self.incomingSets = incomingSets
        self.incomingMaps = incomingMaps
        self.mixedColumns = properties.indices.filter { properties[$0].type == .mixed && properties[$0].isColumn }
        self.mixedCollections = properties.indices.filter { properties[$0].type == .mixed && properties[$0].isCollection }
        // A mixed value anywhere may link here.
        let schemaHasMixed = schema.objectSchemas.contains { $0.properties.contains { $0.type == .mixed } }
        self.standsAlone = incomingLinks.isEmpty && incomingLists.isEmpty && incomingSets.isEmpty && incomingMaps.isEmpty
            && !schemaHasMixed && properties.allSatisfy { !$0.isCollection && $0.type != .object }
    }

    /// Whether a primary key of this kind can be the objects' key: a
    /// required `int`, which SQLite can keep as the rowid.
    static func canKeyObjects(_ primaryKey: Property) -> Bool {
        primaryKey.type == .int && !primaryKey.isOptional && !primaryKey.isCollection
    }

    /// The property at `index`, which the caller has checked is in range.
    func property(_ index: Int) -> Property {
        objectSchema.properties[index]
    }

    /// The type of the property at `index`, read without copying its
    /// definition (hot paths check every value written against it).
    func propertyType(_ index: Int) -> PropertyType {
        objectSchema.properties[index].type
    }

    /// Whether the property at `index` is optional, read without copying
    /// its definition.
    func isOptional(_ index: Int) -> Bool {
        objectSchema.properties[index].isOptional
    }

    /// `'Class.property'`, for messages.
    func qualifiedName(_ propertyIndex: Int) -> String {
        "'\(name).\(objectSchema.properties[propertyIndex].name)'"
    }
}

/// A property of a class, by catalog positions.
struct PropertyReference: Hashable, Sendable {
    let classIndex: Int
    let propertyIndex: Int
}

/// A property of a class, by names: what stays meaningful when a schema
/// change moves classes and properties to other positions.
struct PropertyName: Hashable {
    let className: String
    let property: String
}
