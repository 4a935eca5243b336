import RealmCore
import RealmQuery

/// How a Realm finds the classes of its file, and checks a model class
/// against the file the first time it is used.
///
/// A Realm opened without `objectTypes` learns its model classes as they
/// are used (`objects(Dog.self)`, `add`). A class whose stored schema
/// differs from the model cannot be read or written through the model; the
/// call that used it cannot throw, so the class reads as having no objects,
/// and the mismatch is kept for the next throwing call (`write`,
/// `commitWrite()`, `Realm(configuration:)`) as `schemaMismatch`, as damage
/// is (see `Realm+Damage.swift`).
extension RealmState {
    /// After a cancelled write or a failed commit: classes added to the file
    /// inside it are gone again, so forget what was learned since opening.
    func forgetSchemaChanges() {
        schemaCache = schemaCache.reset
    }

    /// The info of a stored class for dynamic access.
    func dynamicInfo(_ className: String) -> ClassInfo {
        if let info = schemaCache.dynamicInfos[className] { return info }
        guard let objectSchema = transaction.schema[className] else {
            preconditionFailure("The Realm at '\(configuration.identity)' has no class named '\(className)'.")
        }
        let info = ClassInfo.dynamic(objectSchema)
        schemaCache.dynamicInfos[className] = info
        return info
    }

    /// The model class to make for an object of `className` that no
    /// declared property types (a mixed value's link): the class of that
    /// name among the configuration's `objectTypes`, else one this Realm
    /// has used, else one reflected over anywhere in the process. Test
    /// suites and apps may declare several classes of one name, so the
    /// Realm's own classes come first; nil makes a `DynamicObject`.
    func modelType(named className: String) -> Object.Type? {
        if let types = configuration.objectTypes {
            return SchemaDiscovery.closure(of: types).first { $0.className() == className }
        }
        if let used = schemaCache.storedClasses.values.first(where: { $0.className == className && !$0.isDynamic }) {
            return used.type
        }
        return ClassInfo.registeredType(named: className)
    }

    /// The handle of a stored class, or nil when the file does not have it.
    func handleIfStored(_ className: String) -> ClassHandle? {
        if let recent = schemaCache.recentHandle, recent.className == className { return recent }
        let handle: ClassHandle
        if let known = schemaCache.handles[className] {
            handle = known
        } else {
            guard let stored = try? transaction.classHandle(named: className) else { return nil }
            schemaCache.handles[className] = stored
            handle = stored
        }
        schemaCache.recentHandle = handle
        return handle
    }

    /// What object factories need of the model class `type`, stored as
    /// `className`; nil when the file does not have the class yet.
    func storedClass(_ type: Object.Type, named className: String) -> ObjectFactory.StoredClass? {
        let identifier = ObjectIdentifier(type)
        if let stored = schemaCache.storedClasses[identifier], stored.className == className { return stored }
        guard let handle = handleIfStored(className) else { return nil }
        let isDynamic = type is DynamicObject.Type
        let stored = ObjectFactory.StoredClass(
            type: type, handle: handle, info: isDynamic ? dynamicInfo(className) : ClassInfo.of(type),
            className: className, isDynamic: isDynamic)
        // A dynamic class's info is per stored class, not per type.
        if !isDynamic { schemaCache.storedClasses[identifier] = stored }
        return stored
    }

    /// Registers the model class `type` (see ``register(_:)``) and returns
    /// its stored name; nil when the file's schema of the class differs
    /// from the model, after keeping that error for the next throwing call.
    func registeredName(of type: Object.Type) -> String? {
        let identifier = ObjectIdentifier(type)
        if let recent = schemaCache.recentModel, recent.type == identifier { return recent.name }
        do {
            try register(type)
        } catch {
            notePendingError(error)
            return nil
        }
        let name = ClassNames.name(of: type)
        // Registration waits for a write when the file lacks the class.
        if schemaCache.registered.contains(identifier) {
            schemaCache.recentModel = (identifier, name, Query(className: name))
        }
        return name
    }

    /// The query for all objects of the model class `type` (registering
    /// it, see ``registeredName(of:)``). While the class is the one used
    /// last, every call returns copies of one query, which share its plan:
    /// `objects(Dog.self)` in a loop plans once and allocates no plan cache.
    /// A class the file's schema refuses has no objects.
    func allObjectsQuery(of type: Object.Type) -> Query {
        guard let name = registeredName(of: type) else {
            var none = Query(className: ClassNames.name(of: type))
            none.predicate = .falsePredicate
            return none
        }
        if let recent = schemaCache.recentModel, recent.type == ObjectIdentifier(type) { return recent.allObjects }
        return Query(className: name)
    }

    /// Makes sure a class used for the first time is known to the file:
    /// checks a stored class against the model, and adds a missing one
    /// (inside the current write transaction; outside one, a class the
    /// file lacks simply has no objects yet, and registration is retried).
    ///
    /// - Throws: ``Realm/Error/Code/schemaMismatch`` when the file's schema
    ///   of the class, or of a class it links to, differs from the model;
    ///   the error of adding the class to the file.
    /// - Precondition: the class is of the configuration's `objectTypes`,
    ///   when it lists them.
    func register(_ type: Object.Type) throws(Realm.Error) {
        let identifier = ObjectIdentifier(type)
        if schemaCache.recentlyRegistered == identifier { return }
        guard !schemaCache.registered.contains(identifier) else {
            schemaCache.recentlyRegistered = identifier
            return
        }
        if configuration.objectTypes != nil {
            // A class subset is fixed when the Realm opens.
            preconditionFailure("Object type '\(type.className())' is not managed by the Realm at '\(configuration.identity)'; add it to Realm.Configuration.objectTypes.")
        }
        let types = SchemaDiscovery.closure(of: [type])
        do {
            let wanted = try SchemaDiscovery.schema(of: types)
            let stored = transaction.schema
            let changes = stored.changes(to: wanted).filter(\.requiresMigration)
            guard changes.isEmpty else {
                throw Realm.Error(.schemaMismatch, "Cannot use class '\(type.className())' in the Realm at '\(configuration.identity)': migration is required due to the following errors:\n"
                    + changes.map { "- \($0)" }.joined(separator: "\n")
                    + "\nList the model classes in Realm.Configuration.objectTypes, with a higher schemaVersion and a migrationBlock, so that the migration runs when the Realm opens.",
                    fileURL: configuration.fileURL)
            }
            let missing = wanted.objectSchemas.filter { stored[$0.name] == nil }
            if !missing.isEmpty {
                // Reads must never wait for a writer.
                guard transaction.isInWriteTransaction else { return }
                precondition(!configuration.readOnly, "The read-only Realm at '\(configuration.identity)' has no class '\(missing[0].name)'.")
                try transaction.applySchema(Schema(missing), schemaVersion: transaction.schemaVersion)
            }
        } catch {
            throw Realm.Error(wrapping: error)
        }
        for type in types { schemaCache.registered.insert(ObjectIdentifier(type)) }
    }

    /// Keeps `error`, found by a call that cannot throw, for the commit
    /// when a write transaction is open, otherwise for the next throwing
    /// call; an earlier error is the one kept.
    func notePendingError(_ error: Realm.Error) {
        if transaction.isInWriteTransaction || writeNeverBegan {
            if writeFailure == nil { writeFailure = error }
        } else if pendingError == nil {
            pendingError = error
        }
    }
}
