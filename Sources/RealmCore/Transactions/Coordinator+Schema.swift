extension Coordinator {
    /// Brings the file's schema to include `wanted` at `version`, as
    /// ``open(_:)`` describes.
    func prepareSchema(_ wanted: Schema, version: UInt64, migration: (@Sendable (MigrationContext) throws -> Void)?) throws(RealmError) {
        if configuration.isSchemaAdditive { return try prepareAdditiveSchema(wanted, version: version) }
        let transaction = try makeTransaction()
        try transaction.ensureReading()
        var stored = transaction.schema
        var storedVersion = transaction.schemaVersion
        var changes = stored.changes(to: wanted)
        // A file no schema was ever applied to (a new one) has nothing to
        // migrate; its first open records its schema and version, even an
        // empty one, so that later opens know it is not new.
        var isNew = transaction.catalogGeneration == Catalog.initialGeneration
        if changes.isEmpty && version == storedVersion && (!isNew || configuration.isReadOnly) { return }

        guard version >= storedVersion else {
            throw RealmError(.schemaMismatch, "Provided schema version \(version) is less than last set version \(storedVersion) of the Realm at '\(path)'.")
        }
        let needsMigration = changes.contains(where: \.requiresMigration)
        if needsMigration && version == storedVersion {
            throw migrationRequired(changes)
        }
        if configuration.isReadOnly {
            let missing = changes.compactMap { change -> String? in
                if case .addedClass(let schema) = change { schema.name } else { nil }
            }
            guard missing.isEmpty && !needsMigration && version == storedVersion else {
                throw RealmError(
                    .schemaMismatch,
                    "The read-only Realm at '\(path)' cannot be brought to the wanted schema:\n" + changes.map { "- \($0)" }.joined(separator: "\n"))
            }
            return
        }

        // The migration block runs whenever the version goes up, changes or
        // not: the seeds' example nils out a property removed and re-added
        // between the versions, which leaves no difference to detect. Also
        // for a file opened before that holds no classes, as in Realm; not
        // for a new file: the seeds call no block for a file that did not
        // exist.
        let runsBlock = migration != nil && version > storedVersion && !isNew
        // The old data stays readable through a transaction pinned before
        // the migration's write.
        let old = needsMigration || runsBlock ? try makeTransaction() : nil
        try old?.ensureReading()
        try transaction.beginWrite()
        do {
            // Another transaction may have changed the schema meanwhile.
            stored = transaction.schema
            storedVersion = transaction.schemaVersion
            changes = stored.changes(to: wanted)
            isNew = transaction.catalogGeneration == Catalog.initialGeneration
            if changes.isEmpty && version == storedVersion && !isNew {
                transaction.cancelWrite()
                return
            }
            if changes.contains(where: \.requiresMigration) && version <= storedVersion {
                throw migrationRequired(changes)
            }
            if let old, try old.version != transaction.version {
                // The pinned snapshot must be the one the migration starts
                // from; re-pin it now that the writer holds the lock.
                old.invalidate()
                try old.ensureReading()
            }
            try transaction.applySchema(wanted, schemaVersion: version)
            if let old, let migration, version > storedVersion, !isNew {
                try transaction.allowPrimaryKeyChanges()
                try migration(MigrationContext(
                    oldSchemaVersion: storedVersion, newSchemaVersion: version, oldSchema: stored,
                    changes: changes, transaction: transaction, oldTransaction: old))
            }
            try transaction.commitWrite()
        } catch let error as RealmError {
            transaction.cancelWrite()
            throw error
        } catch {
            transaction.cancelWrite()
            throw RealmError(.schemaMismatch, "The migration of the Realm at '\(path)' failed and was rolled back: \(error)")
        }
    }

    /// Records the first open of a new file opened without a schema (its
    /// classes are added as they are used), so that a later open with a
    /// higher version runs its migration, as for any file opened before.
    func recordFirstOpen(version: UInt64) throws(RealmError) {
        guard !configuration.isReadOnly, !configuration.isSchemaAdditive else { return }
        let transaction = try makeTransaction()
        try transaction.ensureReading()
        guard transaction.catalogGeneration == Catalog.initialGeneration else { return }
        try prepareSchema(Schema([]), version: version, migration: nil)
    }

    /// Adds what `wanted` has that the file lacks, keeping the rest (see
    /// ``Configuration/isSchemaAdditive``).
    private func prepareAdditiveSchema(_ wanted: Schema, version: UInt64) throws(RealmError) {
        let transaction = try makeTransaction()
        try transaction.ensureReading()
        let stored = transaction.schema
        if stored.changes(to: try stored.growing(to: wanted, path: path)).isEmpty { return }
        guard !configuration.isReadOnly else {
            throw RealmError(.schemaMismatch, "The read-only Realm at '\(path)' lacks classes or properties its models have.")
        }
        try transaction.beginWrite()
        do {
            // Another transaction (a sync session) may have grown it meanwhile.
            let current = transaction.schema
            let grown = try current.growing(to: wanted, path: path)
            if current.changes(to: grown).isEmpty {
                transaction.cancelWrite()
                return
            }
            try transaction.applySchema(grown, schemaVersion: max(version, transaction.schemaVersion))
            try transaction.commitWrite()
        } catch {
            transaction.cancelWrite()
            throw error
        }
    }

    private func migrationRequired(_ changes: [SchemaChange]) -> RealmError {
        RealmError(
            .schemaMismatch,
            "Migration is required for the Realm at '\(path)' due to the following errors:\n"
                + changes.filter(\.requiresMigration).map { "- \($0)" }.joined(separator: "\n"))
    }
}

extension Transaction {
    /// The change sets of the commits after `version` up to the version being
    /// read, oldest first, from this process's memory or the file's history;
    /// nil when some of them are no longer available (more than the history
    /// length behind), in which case the caller must compare states itself.
    public func changeSets(after version: UInt64) throws(RealmError) -> [ChangeSet]? {
        let current = try self.version
        guard version < current else { return [] }
        if let recent = coordinator.recentChangeSets(after: version), recent.last?.version == current {
            return recent
        }
        let statement = try connection.cachedStatement("SELECT version, changes FROM realm_history WHERE version > ? AND version <= ? ORDER BY version")
        statement.bind(Int64(bitPattern: version), at: 1)
        statement.bind(Int64(bitPattern: current), at: 2)
        defer { statement.reset() }
        var result: [ChangeSet] = []
        var expected = version + 1
        while try statement.step() {
            guard UInt64(bitPattern: statement.int64(at: 0)) == expected,
                  let changeSet = ChangeSetEncoding.decode(statement.withBlob(at: 1) { Array($0) }) else { return nil }
            result.append(changeSet)
            expected += 1
        }
        return expected == current + 1 ? result : nil
    }
}
