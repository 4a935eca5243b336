import Foundation
import RealmCore

/// What a migration block works with: the objects as they were (in the old
/// schema) and as they are (in the new one), inside the write transaction
/// that migrates the file. Throwing from the block leaves the file as it
/// was.
///
/// ```swift
/// config.migrationBlock = { migration, oldSchemaVersion in
///     if oldSchemaVersion < 1 {
///         migration.enumerateObjects(ofType: "Person") { oldObject, newObject in
///             let first = oldObject!["firstName"] as! String
///             let last = oldObject!["lastName"] as! String
///             newObject!["fullName"] = "\(first) \(last)"
///         }
///     }
/// }
/// ```
public final class Migration {
    /// The schema before the migration.
    public let oldSchema: Schema
    /// The schema after it.
    public var newSchema: Schema { newRealm.transaction.schema }

    let context: MigrationContext
    let oldRealm: Realm
    let newRealm: Realm

    /// The classes of the schema being migrated to, when the configuration
    /// names them.
    private let modelClassNames: Set<String>

    init(context: MigrationContext, configuration: Realm.Configuration, types: [Object.Type]) {
        modelClassNames = Set(types.map { ClassNames.name(of: $0) })
        self.context = context
        self.oldSchema = context.oldSchema
        oldRealm = Realm(state: RealmState(configuration: configuration, coordinator: context.transaction.coordinator,
                                           transaction: context.oldTransaction, registered: []))
        newRealm = Realm(state: RealmState(configuration: configuration, coordinator: context.transaction.coordinator,
                                           transaction: context.transaction, registered: []))
        applyModelDefaults(types)
    }

    /// Calls `block` for every object of a class that existed before the
    /// migration, as Realm does: `oldObject` reads the old values,
    /// `newObject` reads and writes the new ones. For a class the old file
    /// lacks, `block` gets each object of the new one with a nil
    /// `oldObject`; for a class the new schema removes, each old object with
    /// a nil `newObject`. Objects deleted earlier in the migration (by
    /// ``delete(_:)`` or ``deleteData(forType:)``) are skipped, and so are
    /// those it created.
    public func enumerateObjects(ofType typeName: String, _ block: (_ oldObject: DynamicObject?, _ newObject: DynamicObject?) throws -> Void) rethrows {
        let oldHandle = oldRealm.state.handleIfStored(typeName)
        let newHandle = isRemoved(typeName) ? nil : newRealm.state.handleIfStored(typeName)
        guard let oldHandle else {
            guard let newHandle else { return }
            for key in newRealm.perform("list '\(typeName)' objects", { try $0.objectKeys(in: newHandle) }) {
                try block(nil, newRealm.makeObject(DynamicObject.self, key: key, className: typeName))
            }
            return
        }
        for key in oldRealm.perform("list '\(typeName)' objects", { try $0.objectKeys(in: oldHandle) }) {
            let old = oldRealm.makeObject(DynamicObject.self, key: key, className: typeName)
            guard let newHandle else {
                try block(old, nil)
                continue
            }
            guard newRealm.objectExists(key: key, handle: newHandle) else { continue }
            try block(old, newRealm.makeObject(DynamicObject.self, key: key, className: typeName))
        }
    }

    /// Creates an object of a class in the new schema from a dictionary or
    /// array of values.
    @discardableResult
    public func create(_ typeName: String, value: Any = [String: Any]()) -> DynamicObject {
        guard let handle = newRealm.state.handleIfStored(typeName) else {
            preconditionFailure("The migrated Realm has no class named '\(typeName)'.")
        }
        let key = newRealm.perform("create a '\(typeName)' object") { try $0.createObject(in: handle) }
        let object = newRealm.makeObject(DynamicObject.self, key: key, className: typeName)
        let properties = newRealm.transaction.schema[typeName]!.properties
        let entries: [(String, Any)]
        switch value {
        case let dictionary as [String: Any]: entries = dictionary.map { ($0.key, $0.value) }
        case let array as [Any]: entries = zip(properties.filter { $0.type != .linkingObjects }.map(\.name), array).map { ($0, $1) }
        default: preconditionFailure("Invalid value '\(value)' to create a '\(typeName)': expected a dictionary or an array.")
        }
        for (name, entry) in entries { object[name] = entry }
        return object
    }

    /// Deletes an object of the new schema.
    public func delete(_ object: DynamicObject) {
        newRealm.delete(object)
    }

    /// Deletes every object of a class, and the class itself when the new
    /// schema no longer has it (a later version may add it again, empty).
    /// Returns whether there was such a class.
    @discardableResult
    public func deleteData(forType typeName: String) -> Bool {
        guard let handle = newRealm.state.handleIfStored(typeName) else { return false }
        if isRemoved(typeName) {
            newRealm.perform("remove the class '\(typeName)'") { try $0.removeClass(named: typeName) }
            newRealm.state.forgetSchemaChanges()
        } else {
            newRealm.perform("delete the data of '\(typeName)'") { try $0.deleteAllObjects(in: handle) }
        }
        return true
    }

    /// Whether the class is gone from the schema being migrated to: the
    /// configuration names its classes, and not this one. Without a list
    /// of classes, every class of the file stays.
    private func isRemoved(_ typeName: String) -> Bool {
        !modelClassNames.isEmpty && !modelClassNames.contains(typeName)
    }

    /// Carries a property's values over to its new name: the old property
    /// must be gone from the new schema and the new one must be new, of the
    /// same type.
    public func renameProperty(onType typeName: String, from oldName: String, to newName: String) {
        guard let old = oldSchema[typeName]?[propertyNamed: oldName] else {
            preconditionFailure("Cannot rename property '\(typeName).\(oldName)': it does not exist in the old schema.")
        }
        guard let new = newSchema[typeName]?[propertyNamed: newName] else {
            preconditionFailure("Cannot rename property '\(typeName).\(oldName)' to '\(newName)': the new schema has no such property.")
        }
        precondition(old.type == new.type && old.isList == new.isList && old.isSet == new.isSet && old.isMap == new.isMap
                     && old.objectClassName == new.objectClassName,
                     "Cannot rename property '\(typeName).\(oldName)' to '\(newName)': their types differ ('\(old.typeDescription)' and '\(new.typeDescription)').")
        let oldTransaction = context.oldTransaction
        let newTransaction = context.transaction
        newRealm.perform("rename '\(typeName).\(oldName)' to '\(newName)'") { _ in
            let oldHandle = try oldTransaction.classHandle(named: typeName)
            let newHandle = try newTransaction.classHandle(named: typeName)
            let oldIndex = try oldTransaction.propertyIndex(named: oldName, in: oldHandle)
            let newIndex = try newTransaction.propertyIndex(named: newName, in: newHandle)
            for key in try oldTransaction.objectKeys(in: oldHandle) where try newTransaction.objectExists(key, in: newHandle) {
                if old.isSet || old.isMap {
                    let source = ListHandle(owningClass: oldHandle, owner: key, property: oldIndex)
                    let target = ListHandle(owningClass: newHandle, owner: key, property: newIndex)
                    if old.isSet {
                        try newTransaction.removeAll(fromSet: target)
                        for value in try oldTransaction.setValues(of: source) { try newTransaction.insert(value, intoSet: target) }
                    } else {
                        try newTransaction.removeAll(fromMap: target)
                        for entry in try oldTransaction.entries(of: source) {
                            // Mixed values: a nested collection is made again.
                            try newTransaction.copyMixed(entry.value, from: oldTransaction, to: .entry(target, entry.key))
                        }
                    }
                } else if old.isList {
                    let target = try newTransaction.list(newIndex, of: key, in: newHandle)
                    try newTransaction.removeAll(from: target)
                    for value in try oldTransaction.values(of: oldTransaction.list(oldIndex, of: key, in: oldHandle)) {
                        try newTransaction.copyMixed(value, from: oldTransaction, to: .append(target))
                    }
                } else {
                    try newTransaction.copyMixed(try oldTransaction.value(of: key, property: oldIndex, in: oldHandle),
                                                 from: oldTransaction, to: .property(newHandle, key, newIndex))
                }
            }
        }
    }

    /// Checks what must hold after the block: nothing for now beyond what
    /// the schema enforces; kept as the place for end-of-migration checks.
    func finish() throws {}

    /// Gives properties that the migration added the default values of
    /// their Swift models (the file stores zero values until then).
    private func applyModelDefaults(_ types: [Object.Type]) {
        let byName = Dictionary(types.map { ($0.className(), $0) }, uniquingKeysWith: { first, _ in first })
        for change in context.changes {
            let className: String
            let property: Property
            switch change {
            case .addedProperty(let name, let added): (className, property) = (name, added)
            case .changedPropertyType(let name, _, let changed): (className, property) = (name, changed)
            default: continue
            }
            guard property.isColumn, let type = byName[className], let handle = newRealm.state.handleIfStored(className) else { continue }
            let model = type.init()
            guard let value = model[property.name] as? _Persistable, let stored = try? value._toValue(in: nil),
                  stored != .null else { continue }
            newRealm.perform("set defaults of '\(className).\(property.name)'") { transaction in
                let index = try transaction.propertyIndex(named: property.name, in: handle)
                for key in try transaction.objectKeys(in: handle) {
                    try transaction.setValue(stored, of: key, property: index, in: handle)
                }
            }
        }
    }
}

extension Realm {
    /// Runs the configuration's migration on its file now, if one is
    /// needed, without keeping the Realm open.
    ///
    /// - Throws: ``Realm/Error`` when the file cannot be opened or the
    ///   migration fails; the file is then unchanged.
    public static func performMigration(for configuration: Configuration = .defaultConfiguration) throws {
        _ = try RealmOpener.open(configuration)
    }
}
