/// The names Realm Swift gives the schema's parts, beside this library's:
/// code written against Realm Swift's `ObjectSchema`, `Schema`, `Property`
/// and `PropertyType` reads the same here.
extension ObjectSchema {
    /// The class name; the same as ``name``.
    public var className: String { name }
}

extension Schema {
    /// The schema of every class; the same as ``objectSchemas``.
    public var objectSchema: [ObjectSchema] { objectSchemas }
}

extension Property {
    /// Whether the property is a list; the same as ``isList``.
    public var isArray: Bool { isList }
    /// Whether the property is the primary key; the same as
    /// ``isPrimaryKey``.
    public var isPrimary: Bool { isPrimaryKey }
}

extension PropertyType {
    /// Realm Swift's name for the UUID type; the same as ``uuid``.
    public static var UUID: PropertyType { .uuid }
}

extension Schema: CustomStringConvertible {
    /// Each class's schema (see ``ObjectSchema/description``), one a line.
    public var description: String {
        objectSchemas.map(\.description).joined(separator: "\n")
    }
}
