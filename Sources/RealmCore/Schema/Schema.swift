/// The set of object schemas of a Realm.
public struct Schema: Hashable, Sendable, Sequence {
    /// The object schemas, in the order they were given or stored.
    public private(set) var objectSchemas: [ObjectSchema]

    /// Creates a schema. Use ``validate()`` before storing it.
    public init(_ objectSchemas: [ObjectSchema]) {
        self.objectSchemas = objectSchemas
    }

    /// The schema of the class named `className`.
    public subscript(className: String) -> ObjectSchema? {
        objectSchemas.first { $0.name == className }
    }

    /// The names of all classes.
    public var classNames: [String] { objectSchemas.map(\.name) }

    public func makeIterator() -> IndexingIterator<[ObjectSchema]> {
        objectSchemas.makeIterator()
    }

    /// Adds or replaces the schema of one class.
    public mutating func upsert(_ objectSchema: ObjectSchema) {
        if let index = objectSchemas.firstIndex(where: { $0.name == objectSchema.name }) {
            objectSchemas[index] = objectSchema
        } else {
            objectSchemas.append(objectSchema)
        }
    }

    /// Removes the schema of the class named `className`.
    public mutating func remove(className: String) {
        objectSchemas.removeAll { $0.name == className }
    }
}
