import Foundation
import RealmCore
#if canImport(Glibc)
import Glibc
#endif

/// Opens a Realm file for a configuration: resolves the models' schema,
/// compacts when asked, and migrates (or deletes, when allowed) a file whose
/// schema is older.
enum RealmOpener {
    static func open(_ configuration: Realm.Configuration, confinement: RealmState.Confinement = .thread(pthread_self())) throws -> RealmState {
        try configuration.validateEncryptionKey()
        if let synchronizer = configuration.synchronizer {
            guard configuration.migrationBlock == nil else {
                throw Realm.Error(.fail, "A synced Realm takes no migration block: its schema changes are additive and merge with every client's.",
                                  fileURL: configuration.fileURL)
            }
            // Deleting the file would lose the changes it has not uploaded.
            guard !configuration.deleteRealmIfMigrationNeeded else {
                throw Realm.Error(.fail, "A synced Realm cannot be deleted when a migration is needed: set deleteRealmIfMigrationNeeded to false.",
                                  fileURL: configuration.fileURL)
            }
            try synchronizer.prepare()
        }
        let types = SchemaDiscovery.closure(of: configuration.objectTypes ?? storedModelClassesToMigrate(configuration))
        // A file without classes opened with a migration block still runs
        // it (when opened before, and its version is lower), as in Realm.
        let schema = types.isEmpty
            ? (configuration.migrationBlock == nil ? nil : Schema([]))
            : try SchemaDiscovery.schema(of: types)
        if let block = configuration.shouldCompactOnLaunch, configuration.inMemoryIdentifier == nil, !configuration.readOnly {
            try Compaction.compactIfNeeded(configuration, block)
        }
        let fileURL = configuration.inMemoryIdentifier == nil ? configuration.fileURL ?? Realm.Configuration.defaultFileURL : nil
        let coordinator: Coordinator
        do {
            coordinator = try openCoordinator(configuration, schema: schema, types: types)
        } catch {
            throw Realm.Error(error, fileURL: fileURL)
        }
        // Before the Realm is handed out, so that its first write is
        // recorded. The sync client's errors are its own (SyncError).
        try configuration.synchronizer?.attach(to: coordinator)
        do {
            let transaction = try coordinator.makeTransaction()
            let state = RealmState(configuration: configuration, coordinator: coordinator, transaction: transaction,
                                   registered: types, confinement: confinement)
            // Autorefresh: a thread that runs a run loop moves to each new
            // version on its own.
            state.notifiers.startListening()
            return state
        } catch {
            throw Realm.Error(error, fileURL: fileURL)
        }
    }

    /// Without `objectTypes`, classes are registered when first used, which
    /// is too late for a migration: it must run when the file opens. When
    /// the file's schema version is lower than the configuration's and it
    /// has a migration block (or may be deleted instead), the model classes
    /// of the file's classes are found by the Swift type names the file
    /// stores, so that they migrate at once, as on Apple platforms. A class
    /// whose type cannot be found (renamed, nested in another type, or gone)
    /// is left to be registered when used.
    private static func storedModelClassesToMigrate(_ configuration: Realm.Configuration) -> [Object.Type] {
        guard configuration.inMemoryIdentifier == nil, !configuration.readOnly,
              configuration.migrationBlock != nil || configuration.deleteRealmIfMigrationNeeded,
              let fileURL = configuration.fileURL ?? Optional(Realm.Configuration.defaultFileURL),
              let version = try? Coordinator.schemaVersion(atPath: fileURL.path, encryptionKey: configuration.encryptionKey), version < configuration.schemaVersion,
              let coordinator = try? Coordinator.open(coreConfiguration(configuration, schema: nil)),
              let stored = try? coordinator.makeTransaction().schema else { return [] }
        return stored.objectSchemas.compactMap { objectSchema -> Object.Type? in
            guard let typeName = objectSchema.swiftTypeName, let type = _typeByName(typeName) as? Object.Type,
                  ClassNames.name(of: type) == objectSchema.name else { return nil }
            return type
        }
    }

    /// Opens the file; when a migration is needed and the configuration
    /// allows it, deletes the file and opens a new one instead.
    private static func openCoordinator(_ configuration: Realm.Configuration, schema: Schema?, types: [Object.Type]) throws(RealmError) -> Coordinator {
        do {
            return try Coordinator.open(coreConfiguration(configuration, schema: schema, types: types))
        } catch {
            guard error.kind == .schemaMismatch, configuration.deleteRealmIfMigrationNeeded,
                  configuration.inMemoryIdentifier == nil else { throw error }
            try AuxiliaryFiles.deleteFiles(for: (configuration.fileURL ?? Realm.Configuration.defaultFileURL).path)
            return try Coordinator.open(coreConfiguration(configuration, schema: schema, types: types))
        }
    }

    /// The storage engine's configuration; `types` are the model classes
    /// the migration block's new objects take their defaults from.
    private static func coreConfiguration(_ configuration: Realm.Configuration, schema: Schema?,
                                          types: [Object.Type] = []) -> Coordinator.Configuration {
        var core = Coordinator.Configuration(
            location: configuration.location,
            isReadOnly: configuration.readOnly,
            encryptionKey: configuration.encryptionKey,
            schema: schema,
            schemaVersion: configuration.schemaVersion)
        if let block = configuration.migrationBlock {
            let box = MigrationBlockBox(block: block, configuration: configuration, types: types)
            core.migration = { context in try box.run(context) }
        }
        // A synced Realm's schema only grows: other clients' classes and
        // properties stay in the file, unseen by models that lack them.
        core.isSchemaAdditive = configuration.synchronizer != nil
        core.busyTimeoutMilliseconds = configuration.busyTimeoutMilliseconds
        return core
    }
}

/// Carries the user's migration block into the coordinator.
///
/// `@unchecked Sendable`: the block runs synchronously on the thread that
/// opens the Realm, inside `Coordinator.open`, and is not kept afterwards.
private struct MigrationBlockBox: @unchecked Sendable {
    let block: MigrationBlock
    let configuration: Realm.Configuration
    let types: [Object.Type]

    func run(_ context: MigrationContext) throws {
        let migration = Migration(context: context, configuration: configuration, types: types)
        try block(migration, context.oldSchemaVersion)
        // A value the block set that its property could not take fails the
        // migration, as it fails any write transaction.
        if let failure = migration.newRealm.state.writeFailure { throw failure.storageError }
        try migration.finish()
    }
}
