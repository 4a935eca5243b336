/// One change of a changeset: a statement of what a replica must do, with
/// everything it needs for its effect not to depend on the order replicas
/// apply changesets in (Docs/SyncDesign.md, "Instructions and their
/// rules"). Never SQL.
public enum Instruction: Hashable, Sendable {
    /// A class, created if no replica has it; the same name with another
    /// shape is a bad changeset.
    case addClass(ClassSpec)
    /// A property added to a class.
    case addProperty(class: String, PropertySpec)
    /// An object created (merging with one of the same identity).
    case create(class: String, ObjectIdentity)
    /// An object deleted: delete wins over concurrent changes to it.
    case erase(class: String, ObjectIdentity)
    /// A property set: last writer wins, by the instruction's stamp.
    case set(class: String, ObjectIdentity, property: String, SyncValue)
    /// A value a creation gave a property without being asked to (the
    /// property's default): it loses to every `set`, whatever their
    /// stamps, so that two replicas creating one primary key keep the
    /// values either of them set (Docs/SyncDesign.md, "Defaults").
    case setDefault(class: String, ObjectIdentity, property: String, SyncValue)
    /// An integer property increased by `delta` (commutes with other
    /// additions).
    case addInteger(class: String, ObjectIdentity, property: String, delta: Int64)
    /// An element inserted into a list at a position key.
    case listInsert(ListReference, element: GlobalKey, position: PositionKey, SyncValue)
    /// An element's value replaced.
    case listSet(ListReference, element: GlobalKey, SyncValue)
    /// An element moved to a new position key.
    case listMove(ListReference, element: GlobalKey, position: PositionKey)
    /// An element removed.
    case listErase(ListReference, element: GlobalKey)
    /// The elements the clearing client had seen, removed.
    case listClear(ListReference, elements: [GlobalKey])
    /// A member added to a set: its presence is a last-writer-wins
    /// register (Docs/SyncDesign.md, "Sets and maps"). A link member is
    /// its target's identity.
    case setInsert(ListReference, SyncValue)
    /// A member taken out of a set (clearing is the erase of each member
    /// the clearing client held).
    case setErase(ListReference, SyncValue)
    /// A map's key given a value: last writer wins per key.
    case mapSet(ListReference, key: String, SyncValue)
    /// A map's key removed (clearing is the erase of each key the
    /// clearing client held).
    case mapErase(ListReference, key: String)
}

/// A list, set or map: its owner and the owner's collection property, or
/// a list or dictionary nested in the mixed values of that property.
public struct ListReference: Hashable, Sendable {
    /// The owner's class.
    public var ownerClass: String
    /// The owner.
    public var owner: ObjectIdentity
    /// The owner's property: its collection, or the mixed property (or
    /// list or map of mixed values) the nested collection is in.
    public var property: String
    /// The nested collection's name (the key of the `nestedList` or
    /// `nestedDictionary` value that made it), at any depth; nil for the
    /// property's own collection.
    public var nested: GlobalKey?

    /// The collection `property` of `owner`, or the collection named
    /// `nested` in its mixed values.
    public init(ownerClass: String, owner: ObjectIdentity, property: String, nested: GlobalKey? = nil) {
        self.ownerClass = ownerClass
        self.owner = owner
        self.property = property
        self.nested = nested
    }
}

/// A class as `addClass` describes it.
public struct ClassSpec: Hashable, Sendable {
    /// The class's name.
    public var name: String
    /// The primary key property, if the class has one (it is also among
    /// the class's properties, added by `addProperty`).
    public var primaryKey: String?
    /// Whether its objects are embedded in others.
    public var isEmbedded: Bool

    /// A class as described.
    public init(name: String, primaryKey: String?, isEmbedded: Bool) {
        self.name = name
        self.primaryKey = primaryKey
        self.isEmbedded = isEmbedded
    }
}

/// A property as `addProperty` describes it.
public struct PropertySpec: Hashable, Sendable {
    /// The property's name.
    public var name: String
    /// The stored type's name: RealmCore's `PropertyType` raw value
    /// (`int`, `string`, `object` …).
    public var type: String
    /// Whether it may be nil (its elements or values, for a collection).
    public var isOptional: Bool
    /// Whether it is a list.
    public var isList: Bool
    /// Whether it is a set.
    public var isSet: Bool
    /// Whether it is a map (from strings).
    public var isMap: Bool
    /// The linked class, for links and collections of objects.
    public var target: String?

    /// A property as described; at most one of `isList`, `isSet` and
    /// `isMap`.
    public init(name: String, type: String, isOptional: Bool, isList: Bool, isSet: Bool = false, isMap: Bool = false, target: String?) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isList = isList
        self.isSet = isSet
        self.isMap = isMap
        self.target = target
    }
}

extension Instruction {
    /// Whether this is a `setInsert`.
    var isSetInsert: Bool {
        if case .setInsert = self { return true }
        return false
    }
}
