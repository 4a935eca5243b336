import Foundation
import RealmCore

extension Realm {
    /// What `add` and `create` do when an object with the same primary key
    /// exists.
    public enum UpdatePolicy: Sendable {
        /// Fail with a duplicate-primary-key error.
        case error
        /// Update only the properties whose values differ.
        case modified
        /// Update every given property.
        case all
    }
}

/// Copies unmanaged objects (and everything they link to) into a Realm,
/// creating or updating rows.
///
/// Use it through ``adding(_:)``: an add that fails part way through a
/// graph has made some of its objects managed, and their rows go when the
/// caller rolls back (a savepoint, or the commit that reports the failure),
/// so they must become unmanaged again, with their values.
struct ObjectWriter {
    let realm: Realm
    /// The policy for nested objects too: `add(update:)` and
    /// `create(update:)` upsert the whole graph.
    var policy: Realm.UpdatePolicy = .error
    /// The objects this writer and its nested writers made managed.
    private let journal: Journal

    var transaction: Transaction { realm.transaction }

    init(realm: Realm, policy: Realm.UpdatePolicy = .error) {
        self.init(realm: realm, policy: policy, journal: Journal())
    }

    private init(realm: Realm, policy: Realm.UpdatePolicy, journal: Journal) {
        self.realm = realm
        self.policy = policy
        self.journal = journal
    }

    /// The objects an add made managed, in order.
    private final class Journal {
        var added: [(object: Object, info: ClassInfo, handle: ClassHandle)] = []
    }

    /// Runs `body`, which adds objects with this writer. When it succeeds,
    /// the objects it made managed drop the values set on them by name and
    /// their `let` properties (lists, optionals, linking objects) switch
    /// to the database; when it throws, they become unmanaged again, with
    /// their values, before the error goes on.
    func adding<Result>(_ body: (ObjectWriter) throws -> Result) throws -> Result {
        let result: Result
        do {
            result = try body(self)
        } catch {
            for entry in journal.added.reversed() { entry.object._realm = nil }
            journal.added.removeAll()
            throw error
        }
        for (object, info, handle) in journal.added {
            object._unmanagedOverrides = nil
            object._providedProperties = nil
            realm.bindProperties(of: object, info: info, handle: handle)
        }
        journal.added.removeAll()
        return result
    }

    /// The values of an unmanaged object, by property index.
    struct Snapshot {
        var scalars: [Int: _Persistable?] = [:]
        var lists: [Int: [_Persistable]] = [:]
        var sets: [Int: [_Persistable]] = [:]
        var maps: [Int: [(key: String, value: _Persistable)]] = [:]
    }

    func snapshot(of object: Object, info: ClassInfo) -> Snapshot {
        var snapshot = Snapshot()
        snapshot.scalars = info.layout.unmanagedValues(of: object)
        for (index, reference) in info.layout.references(of: object) {
            if let list = reference as? ListFactory {
                snapshot.lists[index] = list.unmanagedElements ?? []
            } else if let set = reference as? SetFactory {
                snapshot.sets[index] = set.unmanagedElements ?? []
            } else if let map = reference as? MapFactory {
                snapshot.maps[index] = map.unmanagedEntries ?? []
            } else if let optional = reference as? RealmOptionalBase {
                snapshot.scalars[index] = optional.unmanagedValue
            }
        }
        return snapshot
    }

    // MARK: Adding

    /// Adds an unmanaged object and everything it links to. With an update
    /// policy and a primary key, an existing object with the same key is
    /// updated instead (only the `partial` properties, when given).
    func add(_ object: Object, update: Realm.UpdatePolicy, partial: Set<Int>? = nil) throws {
        if let owner = object._realm {
            guard owner.configuration.identity == realm.configuration.identity else {
                throw Realm.Error(.fail, "Object of type '\(Swift.type(of: object).className())' is already managed by another Realm ('\(owner.configuration.identity)'); use create(_:value:update:) to copy it.")
            }
            guard !object.isInvalidated else {
                throw Realm.Error(.fail, "Adding a deleted or invalidated object of type '\(Swift.type(of: object).className())' to a Realm is not permitted.")
            }
            return
        }
        if let failure = object._importFailure { throw failure }
        guard !(object is EmbeddedObject) else {
            throw Realm.Error(.fail, "Embedded objects of type '\(Swift.type(of: object).className())' cannot be added on their own; assign them to a property or list of their parent.")
        }
        let info = object._classInfo
        try realm.state.register(Swift.type(of: object))
        guard let handle = realm.state.handleIfStored(info.className) else {
            throw Realm.Error(.fail, "The Realm has no class '\(info.className)'.")
        }
        let values = snapshot(of: object, info: info)
        let properties = info.objectSchema.properties

        var existing: ObjectKey?
        if update != .error, let primaryKey = properties.firstIndex(where: \.isPrimaryKey) {
            let value = try (values.scalars[primaryKey] ?? nil)?._toValue(in: nil) ?? .null
            existing = try transaction.object(withPrimaryKey: value, in: handle)
        }

        let key: ObjectKey
        if let existing {
            key = existing
        } else {
            // Scalars now; links after the object is managed, so that a
            // cycle back to it finds it added.
            var row = [Value](repeating: .null, count: properties.count)
            // Mixed values may hold objects, written with the links below.
            for (index, property) in properties.enumerated() where property.isColumn && property.type != .object && property.type != .mixed {
                row[index] = try (values.scalars[index] ?? nil)?._toValue(in: nil) ?? .null
            }
            key = try transaction.createObject(in: handle, values: row)
        }
        object._realm = realm
        object._key = key
        object._handle = handle
        journal.added.append((object, info, handle))
        try writeProperties(of: object, key: key, handle: handle, info: info, values: values,
                            isUpdate: existing != nil, only: existing != nil ? partial : nil, policy: update)
    }

    /// Writes links, lists and (for updates) scalars of a managed row from
    /// a snapshot.
    private func writeProperties(of object: Object, key: ObjectKey, handle: ClassHandle, info: ClassInfo,
                                 values: Snapshot, isUpdate: Bool, only: Set<Int>?, policy: Realm.UpdatePolicy) throws {
        let properties = info.objectSchema.properties
        let nested = ObjectWriter(realm: realm, policy: policy == .error ? .error : policy, journal: journal)
        for (index, property) in properties.enumerated() {
            if let only, !only.contains(index) { continue }
            if property.isPrimaryKey && isUpdate { continue }
            if property.isList {
                let list = ListHandle(owningClass: handle, owner: key, property: index)
                var elements = values.lists[index] ?? []
                if isUpdate, policy == .modified, property.objectClassName.flatMap({ realm.transaction.schema[$0]?.isEmbedded }) == true {
                    // As in Realm, updating what changed updates the
                    // embedded objects already in the list in place,
                    // position by position; the rest are removed or added.
                    // (Updating all replaces them.)
                    let existing = try transaction.values(of: list)
                    let kept = Swift.min(existing.count, elements.count)
                    for position in 0..<kept {
                        guard let embedded = elements[position] as? EmbeddedObject else { continue }
                        if case .object(let existingKey) = existing[position], embedded._realm == nil {
                            try nested.updateEmbedded(embedded, existing: existingKey)
                        } else {
                            try transaction.remove(at: position, from: list)
                            try nested.insertEmbedded(embedded, at: position, in: list)
                        }
                    }
                    for position in (kept..<existing.count).reversed() {
                        try transaction.remove(at: position, from: list)
                    }
                    elements.removeFirst(kept)
                } else if isUpdate {
                    try transaction.removeAll(from: list)
                }
                for element in elements {
                    if let embedded = element as? EmbeddedObject {
                        try nested.insertEmbedded(embedded, at: try transaction.count(of: list), in: list)
                    } else if let mixed = element as? AnyRealmValue, mixed.isNestedCollection {
                        try realm.storeMixed(mixed, at: .append(list))
                    } else {
                        try transaction.append(try nested.stored(element), to: list)
                    }
                }
                continue
            }
            if property.isSet {
                let set = ListHandle(owningClass: handle, owner: key, property: index)
                if isUpdate { try transaction.removeAll(fromSet: set) }
                for element in values.sets[index] ?? [] {
                    try transaction.insert(try nested.stored(element), intoSet: set)
                }
                continue
            }
            if property.isMap {
                let map = ListHandle(owningClass: handle, owner: key, property: index)
                if isUpdate { try transaction.removeAll(fromMap: map) }
                for (entryKey, element) in values.maps[index] ?? [] {
                    if let embedded = element as? EmbeddedObject {
                        try nested.setEmbedded(embedded, forKey: entryKey, in: map)
                        continue
                    }
                    if let mixed = element as? AnyRealmValue, mixed.isNestedCollection {
                        try realm.storeMixed(mixed, at: .entry(map, entryKey))
                        continue
                    }
                    try transaction.setValue(try nested.stored(element), forKey: entryKey, in: map)
                }
                continue
            }
            guard property.isColumn, let given = values.scalars[index] else { continue }
            if property.type == .object {
                if let embedded = given as? EmbeddedObject {
                    if isUpdate, policy == .modified, embedded._realm == nil,
                       case .object(let existing) = try transaction.value(of: key, property: index, in: handle) {
                        // As in Realm, updating what changed changes the
                        // embedded object in place: instances of it stay
                        // valid. (Updating all replaces it.)
                        try nested.updateEmbedded(embedded, existing: existing)
                    } else {
                        try nested.setEmbedded(embedded, owner: key, ownerHandle: handle, property: index)
                    }
                } else if let linked = given as? Object {
                    try transaction.setValue(.object(try nested.key(for: linked)), of: key, property: index, in: handle)
                } else if isUpdate {
                    try transaction.setValue(.null, of: key, property: index, in: handle)
                }
                continue
            }
            if property.type == .mixed {
                // An object held is added (or found) as a link's target is.
                let value: Value
                if let mixed = given as? AnyRealmValue, mixed.isNestedCollection {
                    try realm.storeMixed(mixed, at: .property(handle, key, index))
                    continue
                } else if case .object(let linked)? = given as? AnyRealmValue {
                    value = .link(className: linked.objectSchema.name, key: try nested.key(for: linked))
                } else {
                    value = try given?._toValue(in: nil) ?? .null
                }
                if isUpdate, policy == .modified, try transaction.value(of: key, property: index, in: handle) == value { continue }
                if isUpdate || !value.isNull { try transaction.setValue(value, of: key, property: index, in: handle) }
                continue
            }
            guard isUpdate else { continue }
            let value = try given?._toValue(in: nil) ?? .null
            if policy == .modified, try transaction.value(of: key, property: index, in: handle) == value { continue }
            try transaction.setValue(value, of: key, property: index, in: handle)
        }
    }

    /// The stored form of a collection element: an object (held directly
    /// or by a mixed value) is added or found first.
    func stored(_ element: _Persistable) throws -> Value {
        if let linked = element as? Object { return .object(try key(for: linked)) }
        if case .object(let linked)? = element as? AnyRealmValue {
            return .link(className: linked.objectSchema.name, key: try key(for: linked))
        }
        return try element._toValue(in: nil)
    }

    /// Writes an unmanaged embedded object's values over the embedded object
    /// `existing` (as the writer's update policy says), which it then
    /// stands for.
    private func updateEmbedded(_ embedded: EmbeddedObject, existing key: ObjectKey) throws {
        if let failure = embedded._importFailure { throw failure }
        let info = embedded._classInfo
        try realm.state.register(Swift.type(of: embedded))
        guard let handle = realm.state.handleIfStored(info.className) else {
            throw Realm.Error(.fail, "The Realm has no class '\(info.className)'.")
        }
        let values = snapshot(of: embedded, info: info)
        embedded._realm = realm
        embedded._key = key
        embedded._handle = handle
        journal.added.append((embedded, info, handle))
        try writeProperties(of: embedded, key: key, handle: handle, info: info, values: values,
                            isUpdate: true, only: nil, policy: policy)
    }

    /// The key of a linked object: itself when managed here; otherwise a copy
    /// added with this writer's policy.
    func key(for object: Object) throws -> ObjectKey {
        if let owner = object._realm, owner.configuration.identity == realm.configuration.identity, !object.isInvalidated {
            return object._key
        }
        if object._realm != nil {
            // Managed elsewhere (another Realm or invalidated): copy its values.
            let copy = Swift.type(of: object).init()
            try ValueImporter.fill(copy, from: object)
            try add(copy, update: policy)
            return copy._key
        }
        try add(object, update: policy)
        return object._key
    }

    // MARK: Embedded objects

    /// Creates a copy of an unmanaged embedded object in a to-one property,
    /// replacing (and deleting) the embedded object there.
    func setEmbedded(_ embedded: EmbeddedObject, owner: ObjectKey, ownerHandle: ClassHandle, property: Int) throws {
        try insertEmbedded(embedded) { values in
            try transaction.createEmbeddedObject(in: ownerHandle, owner: owner, property: property, values: values)
        }
    }

    /// Stores a copy of an unmanaged embedded object for `key` in a map,
    /// replacing (and deleting) the embedded object there.
    func setEmbedded(_ embedded: EmbeddedObject, forKey key: String, in map: ListHandle) throws {
        try insertEmbedded(embedded) { values in
            try transaction.setEmbeddedObject(forKey: key, in: map, values: values)
        }
    }

    /// Inserts a copy of an unmanaged embedded object into a list.
    func insertEmbedded(_ embedded: EmbeddedObject, at index: Int, in list: ListHandle) throws {
        try insertEmbedded(embedded) { values in
            try transaction.insertEmbeddedObject(at: index, in: list, values: values)
        }
    }

    private func insertEmbedded(_ embedded: EmbeddedObject, create: ([Value]) throws -> ObjectKey) throws {
        if embedded._realm != nil {
            // A managed embedded object already has its parent: store a copy
            // of its values (as copying an object between Realms does).
            let copy = Swift.type(of: embedded).init()
            try ValueImporter.fill(copy, from: embedded)
            try insertEmbedded(copy, create: create)
            return
        }
        if let failure = embedded._importFailure { throw failure }
        let info = embedded._classInfo
        try realm.state.register(Swift.type(of: embedded))
        guard let handle = realm.state.handleIfStored(info.className) else {
            throw Realm.Error(.fail, "The Realm has no class '\(info.className)'.")
        }
        let values = snapshot(of: embedded, info: info)
        let properties = info.objectSchema.properties
        var row = [Value](repeating: .null, count: properties.count)
        for (index, property) in properties.enumerated() where property.isColumn && property.type != .object {
            row[index] = try (values.scalars[index] ?? nil)?._toValue(in: nil) ?? .null
        }
        let key = try create(row)
        embedded._realm = realm
        embedded._key = key
        embedded._handle = handle
        journal.added.append((embedded, info, handle))
        try writeProperties(of: embedded, key: key, handle: handle, info: info, values: values, isUpdate: false, only: nil, policy: policy)
    }
}
