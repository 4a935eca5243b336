import RealmCore

/// What an object notification reports.
public enum ObjectChange<T> {
    /// Properties of the object changed; each with its old and new value.
    /// The seeds' `case .change(let properties)` iterates them; the object
    /// itself is `properties.object`.
    case change(PropertyChanges<T>)
    /// The object was deleted; no further notifications follow.
    case deleted
    /// Computing the change failed; no further notifications follow.
    case error(Swift.Error)
}

/// The properties that changed in one object notification, in the order of
/// the class's properties, with the object they belong to as the
/// observer's thread or queue sees it. It is a collection of
/// ``PropertyChange``s, which is how the seeds use it:
///
/// ```swift
/// case .change(let properties):
///     for property in properties { print(property.name, property.newValue!) }
/// ```
public struct PropertyChanges<T>: RandomAccessCollection {
    /// The object that changed.
    public let object: T
    /// The changed properties.
    public let properties: [PropertyChange]

    public var startIndex: Int { properties.startIndex }
    public var endIndex: Int { properties.endIndex }
    public subscript(position: Int) -> PropertyChange { properties[position] }
}

/// One changed property of an object notification.
public struct PropertyChange {
    /// The property's name.
    public let name: String
    /// The value before the change (nil for lists).
    public let oldValue: Any?
    /// The value after the change.
    public let newValue: Any?
}

/// One object registration: the values at the last delivery.
final class ObjectNotifier {
    enum Outcome { case continuing, finished }

    private let className: String
    private let key: ObjectKey
    private let keyPaths: [String]?
    private let deliverChange: (ObjectChangeReport) -> Void
    private var lastValues: [Value] = []
    private var lastVersion: UInt64 = 0
    weak var token: NotificationToken?

    enum ObjectChangeReport {
        /// The changed properties; `oldValuesKnown` is false when every
        /// commit reported was this Realm's own, whose old values Realm
        /// does not report.
        case change([(index: Int, old: Value, new: Value)], oldValuesKnown: Bool)
        case deleted
        case error(Swift.Error)
    }

    init(className: String, key: ObjectKey, keyPaths: [String]?, deliver: @escaping (ObjectChangeReport) -> Void) {
        self.className = className
        self.key = key
        self.keyPaths = keyPaths
        self.deliverChange = deliver
    }

    /// The object's values at a version, when observing began elsewhere
    /// (on the thread that asked to observe on a queue): changes after it
    /// are then reported, even those made before this registration.
    var initialBaseline: (values: [Value], version: UInt64)?

    func start(in state: RealmState) {
        if let initialBaseline {
            lastValues = initialBaseline.values
            lastVersion = initialBaseline.version
        } else {
            rebase(in: state)
        }
    }

    func rebase(in state: RealmState) {
        guard let handle = state.handleIfStored(className) else { return }
        lastValues = (try? state.transaction.values(of: key, in: handle)) ?? lastValues
        lastVersion = (try? state.transaction.version) ?? lastVersion
    }

    func deliver(in state: RealmState) -> Outcome {
        let transaction = state.transaction
        do {
            let version = try transaction.version
            guard version != lastVersion, let handle = state.handleIfStored(className) else { return .continuing }
            let inspector = ChangeInspector(try transaction.changeSets(after: lastVersion))
            guard try transaction.objectExists(key, in: handle), !inspector.isDeleted(className, key) else {
                deliverChange(.deleted)
                return .finished
            }
            let properties = inspector.modifiedProperties(className, key)
            let schema = transaction.schema
            let filter = KeyPathFilter.make(keyPaths, className: className, schema: schema)
            let current = try transaction.values(of: key, in: handle)
            var changes: [(Int, Value, Value)] = []
            for index in current.indices {
                if let filter, !filter.includes(index) { continue }
                let wasSet = properties?.contains(index) ?? !inspector.isComplete
                let isList = schema[className]?.properties[index].isCollection ?? false
                let old = index < lastValues.count ? lastValues[index] : .null
                // A property set to the value it had is a change, as in
                // Realm (seed 000); only where the history is incomplete
                // does a comparison of the values decide.
                var changed = isList || properties != nil ? wasSet : (wasSet && current[index] != old)
                // A key path through a link (`owner.name`): a change of the
                // object at its end is a change of the link's property; one
                // naming linking objects (`owners`): a link that arrived.
                if !changed, let filter, filter.includes(index), let property = schema[className]?.properties[index],
                   property.type == .object || property.type == .linkingObjects {
                    changed = inspector.linkedObjectChanged(className, key, index, property, filter: filter, in: transaction)
                }
                if changed {
                    changes.append((index, old, current[index]))
                }
            }
            let local = state.madeAllCommits(after: lastVersion, through: version)
            lastValues = current
            lastVersion = version
            if !changes.isEmpty { deliverChange(.change(changes, oldValuesKnown: !local)) }
            return .continuing
        } catch {
            deliverChange(.error(error))
            return .finished
        }
    }
}
