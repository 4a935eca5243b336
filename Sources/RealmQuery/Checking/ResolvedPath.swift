import RealmCore

/// One step of a key path from an object to the objects it reaches.
struct PathStep: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        /// A to-one link: at most one object.
        case link
        /// The object a map of objects holds for `key` (`map['key']`): at
        /// most one, as a to-one link.
        case mapValue(key: String)
        /// A list of objects: its elements, in list order.
        case list
        /// Linking objects: the objects of `targetClass` whose property
        /// `property` links here, once per link.
        case backlink(originIsList: Bool)
    }

    let kind: Kind
    /// The class that owns `property`: the class stepped from for links and
    /// lists, the class stepped to (the origin) for backlinks.
    let ownerClass: String
    /// The link or list property followed (for backlinks, the origin's link
    /// property).
    let property: String
    /// `property`'s index in `ownerClass`'s schema.
    let propertyIndex: Int
    /// The class of the objects reached.
    let targetClass: String

    var isToMany: Bool { !isToOne }

    /// Whether the step reaches at most one object: a link, or a map's
    /// value by key.
    var isToOne: Bool {
        switch kind {
        case .link, .mapValue: true
        case .list, .backlink: false
        }
    }
}

/// What a key path yields at its end.
enum PathTerminal: Hashable, Sendable {
    /// The object reached (its identity).
    case object
    /// A column property of the object reached.
    case column(Property, index: Int)
    /// The elements of a list of primitive values (a set's, a map's values).
    case primitiveList(Property, index: Int)
    /// The keys of a map (`scores.@keys`).
    case mapKeys(Property, index: Int)
    /// A map's value for one key (`scores['math']`): nil when it has no
    /// such key.
    case mapValue(Property, index: Int, key: String)
    /// The type of a mixed value (`value.@type`), by Realm's type names.
    case mixedType(Property, index: Int)
    /// What a path into the collections nested in a mixed property reaches
    /// (`value[0]`, `value['key'][*]`): the values, their type names
    /// (`.@type`), or the size of the collection reached (`[SIZE]`,
    /// `.@size`). A step that finds no collection, or no such element,
    /// reaches nothing: nil for a single value.
    case mixedPath(Property, index: Int, steps: [MixedStep], end: MixedPathEnd)
}

/// One subscript of a path into nested collections.
enum MixedStep: Hashable, Sendable {
    /// A list's element by position (`[0]`, `[FIRST]`), or from the end
    /// (`[LAST]` is `fromEnd(1)`).
    case position(Int)
    case fromEnd(Int)
    /// A dictionary's value by key (`['key']`).
    case key(String)
    /// Every element of a list, every value of a dictionary (`[*]`).
    case all
}

/// What a path into nested collections yields at its end.
enum MixedPathEnd: Hashable, Sendable {
    case values
    case typeNames
    case size
}

/// A key path resolved against a schema.
struct ResolvedPath: Hashable, Sendable {
    /// The class the path starts from.
    let rootClass: String
    let steps: [PathStep]
    let terminal: PathTerminal
    /// The path as written, for messages.
    let text: String

    /// Whether the path can yield several values: it goes through a list or
    /// linking objects, or ends in a list of primitives.
    var isMultiValued: Bool {
        switch terminal {
        case .primitiveList, .mapKeys: return true
        case .mixedType(let property, _) where property.isCollection: return true
        case .mixedPath(_, _, let steps, _) where steps.contains(.all): return true
        default: return steps.contains(where: \.isToMany)
        }
    }

    /// The class of the object reached.
    var endClass: String { steps.last?.targetClass ?? rootClass }

    /// The type of the values yielded: `.object` for identities.
    var valueType: PropertyType {
        switch terminal {
        case .object: .object
        case .column(let property, _), .primitiveList(let property, _), .mapValue(let property, _, _): property.type
        case .mapKeys: .string
        // Compared as mixed: SQL leaves the comparison to the post-filter.
        case .mixedType: .mixed
        // A size too: the post-filter decides every comparison on a path
        // into nested collections.
        case .mixedPath: .mixed
        }
    }

    /// Whether a yielded value can be nil: an optional property, or a to-one
    /// link after the last list on the way (a nil link yields nil, as in
    /// Realm; a nil link before a list yields no element at all).
    var mayBeNull: Bool {
        let tail = steps.lastIndex(where: \.isToMany).map { steps[($0 + 1)...] } ?? steps[...]
        let throughLink = tail.contains(where: \.isToOne)
        switch terminal {
        case .object:
            return throughLink
        case .column(let property, _):
            return property.isOptional || throughLink
        case .primitiveList(let property, _):
            // The list is the last collection: a nil link before it means no
            // elements, not a nil one.
            return property.isOptional
        case .mapKeys:
            return false
        case .mapValue:
            // A missing key reads as nil.
            return true
        case .mixedType:
            // nil has a type name: "null".
            return false
        case .mixedPath(_, _, _, let end):
            // Nothing reached reads as nil (and has no size).
            return end != .typeNames
        }
    }

    /// Whether the path is a column or the object of the root class, or
    /// the object a to-one link of it points at (whose key is the link
    /// column): SQL reads it from the root's row without a join.
    var isRootOnly: Bool {
        switch terminal {
        case .primitiveList, .mapKeys, .mapValue, .mixedType, .mixedPath:
            return false
        case .column:
            return steps.isEmpty
        case .object:
            return steps.isEmpty || (steps.count == 1 && steps[0].kind == .link)
        }
    }
}
