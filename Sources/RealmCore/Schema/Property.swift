/// One property of an object schema.
public struct Property: Hashable, Sendable, CustomStringConvertible {
    /// The property's name: at most 63 UTF-8 bytes, no `.`.
    public var name: String
    /// The type of its values (of its elements, for a list).
    public var type: PropertyType
    /// Whether the property (or, for a list, each element) may be nil.
    public var isOptional: Bool
    /// Whether the property is an ordered list of values or links.
    public var isList: Bool
    /// Whether the property is a set of distinct values or links
    /// (`MutableSet`).
    public var isSet: Bool
    /// Whether the property maps string keys to values or links (`Map`).
    public var isMap: Bool
    /// For `object` and `linkingObjects` properties: the class linked to, or
    /// for linking objects, the class whose links are followed back.
    public var objectClassName: String?
    /// For `linkingObjects` properties: the property of `objectClassName`
    /// that links to this class.
    public var linkOriginPropertyName: String?
    /// Whether the property has a search index.
    public var isIndexed: Bool
    /// Whether the property is the class's primary key (indexed and unique).
    public var isPrimaryKey: Bool

    /// Creates a property. Links are optional by nature and lists of links
    /// never are; ``Schema/validate()`` reports other inconsistencies.
    public init(
        name: String,
        type: PropertyType,
        isOptional: Bool = false,
        isList: Bool = false,
        isSet: Bool = false,
        isMap: Bool = false,
        objectClassName: String? = nil,
        linkOriginPropertyName: String? = nil,
        isIndexed: Bool = false,
        isPrimaryKey: Bool = false
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isList = isList
        self.isSet = isSet
        self.isMap = isMap
        self.objectClassName = objectClassName
        self.linkOriginPropertyName = linkOriginPropertyName
        self.isIndexed = isIndexed
        self.isPrimaryKey = isPrimaryKey
    }

    /// Whether the property lives in a column of its class's table (rather
    /// than in a collection table, or nowhere for linking objects).
    public var isColumn: Bool {
        !isCollection && type != .linkingObjects
    }

    /// Whether the property is a list, a set or a map: its values live in
    /// a table of their own, a row per element.
    public var isCollection: Bool {
        isList || isSet || isMap
    }

    /// The value a new object takes for this property when it is given
    /// none: nil when optional (and for collections and linking objects), zero
    /// or empty when required.
    package var defaultValue: Value {
        isOptional || !isColumn ? .null : type.defaultValue
    }

    /// The type as a user writes it: `int?`, `list<Dog>`, `Dog?`.
    public var typeDescription: String {
        let base = type == .object || type == .linkingObjects ? (objectClassName ?? "?") : type.rawValue
        if type == .linkingObjects {
            return "linking objects <\(base).\(linkOriginPropertyName ?? "?")>"
        }
        let element = isOptional && !(type == .object && !isCollection) ? base + "?" : base
        if isList { return "list<\(element)>" }
        if isSet { return "set<\(element)>" }
        if isMap { return "map<string, \(element)>" }
        return type == .object ? base + "?" : element
    }

    public var description: String { "\(name): \(typeDescription)" }
}
