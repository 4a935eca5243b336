/// The schema of one class: its name and its properties in declaration order.
public struct ObjectSchema: Hashable, Sendable, CustomStringConvertible {
    /// The class name: at most 57 UTF-8 bytes.
    public var name: String
    /// The properties, in declaration order.
    public var properties: [Property]
    /// Whether objects of this class exist only inside a parent object, are
    /// deleted with it, and cannot be queried on their own.
    public var isEmbedded: Bool
    /// The fully qualified name of the Swift type that declared the class,
    /// when it is known; lets a stored class be resolved back to its type.
    public var swiftTypeName: String?

    /// Creates an object schema.
    public init(name: String, properties: [Property], isEmbedded: Bool = false, swiftTypeName: String? = nil) {
        self.name = name
        self.properties = properties
        self.isEmbedded = isEmbedded
        self.swiftTypeName = swiftTypeName
    }

    /// The primary-key property, if the class has one.
    public var primaryKeyProperty: Property? {
        properties.first(where: \.isPrimaryKey)
    }

    /// The index of the property named `name` in ``properties``.
    public func propertyIndex(named name: String) -> Int? {
        properties.firstIndex { $0.name == name }
    }

    /// The property named `name`.
    public subscript(propertyNamed name: String) -> Property? {
        propertyIndex(named: name).map { properties[$0] }
    }

    /// The property named `name`, as in RealmSwift's `objectSchema["name"]`.
    public subscript(name: String) -> Property? {
        self[propertyNamed: name]
    }

    public var description: String {
        let header = isEmbedded ? "embedded class \(name)" : "class \(name)"
        return header + " { " + properties.map(\.description).joined(separator: "; ") + " }"
    }
}
