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
}

/// A list: its owner and the owner's list property.
public struct ListReference: Hashable, Sendable {
    /// The owner's class.
    public var ownerClass: String
    /// The owner.
    public var owner: ObjectIdentity
    /// The list property of the owner.
    public var property: String

    /// The list `property` of `owner`.
    public init(ownerClass: String, owner: ObjectIdentity, property: String) {
        self.ownerClass = ownerClass
        self.owner = owner
        self.property = property
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
    /// Whether it may be nil (its elements, for a list).
    public var isOptional: Bool
    /// Whether it is a list.
    public var isList: Bool
    /// The linked class, for links and lists of objects.
    public var target: String?

    /// A property as described.
    public init(name: String, type: String, isOptional: Bool, isList: Bool, target: String?) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isList = isList
        self.target = target
    }
}
