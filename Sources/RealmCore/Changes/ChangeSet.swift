/// Everything one commit changed: per class, the objects inserted, deleted
/// and modified (with the modified properties); per list, the insertions,
/// deletions and moves.
///
/// Change sets are recorded as a write transaction runs, handed to the
/// coordinator right after the commit, and stored compressed in the file's
/// history so that other processes can read them.
public struct ChangeSet: Hashable, Sendable {
    /// The version the commit produced; the previous one is `version - 1`.
    public var version: UInt64
    /// Changes per class, by class name; classes the commit did not touch are
    /// absent.
    public var classes: [String: ObjectChanges]
    /// Changes per list, by owner and property.
    public var lists: [ListIdentifier: ListChanges]
    /// Whether the commit changed the schema, in which case property indices
    /// in this change set refer to the new schema and consumers should treat
    /// every object of a changed class as modified.
    public var schemaChanged: Bool

    public init(version: UInt64, classes: [String: ObjectChanges] = [:], lists: [ListIdentifier: ListChanges] = [:], schemaChanged: Bool = false) {
        self.version = version
        self.classes = classes
        self.lists = lists
        self.schemaChanged = schemaChanged
    }

    /// Whether the commit changed no object and no list.
    public var isEmpty: Bool {
        !schemaChanged && classes.values.allSatisfy(\.isEmpty) && lists.isEmpty
    }
}

/// What a commit did to the objects of one class.
public struct ObjectChanges: Hashable, Sendable {
    /// Objects created by the commit (and not deleted again in it).
    public var insertions = KeySet()
    /// Objects that existed before the commit and were deleted by it.
    public var deletions = KeySet()
    /// Objects that existed before and after the commit, with the indices of
    /// the properties that were set (list properties included when their list
    /// changed).
    public var modifications: [ObjectKey: PropertySet] = [:]
    /// Whether the commit deleted every object the class had before it; the
    /// keys are then not listed one by one in `deletions`.
    public var deletedAll = false

    public init() {}

    public var isEmpty: Bool {
        insertions.isEmpty && deletions.isEmpty && modifications.isEmpty && !deletedAll
    }

    /// Whether an object that existed before the commit was deleted by it.
    public func isDeleted(_ key: ObjectKey) -> Bool {
        deletedAll || deletions.contains(key)
    }
}

/// Names one list: its owner object and the list property.
public struct ListIdentifier: Hashable, Sendable, CustomStringConvertible {
    public var className: String
    public var propertyIndex: Int
    public var owner: ObjectKey

    public init(className: String, propertyIndex: Int, owner: ObjectKey) {
        self.className = className
        self.propertyIndex = propertyIndex
        self.owner = owner
    }

    public var description: String { "\(className)[\(owner.rawValue)].#\(propertyIndex)" }
}
