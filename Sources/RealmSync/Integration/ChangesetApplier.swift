import Foundation
import RealmCore
import RealmSyncWire

/// Applies other replicas' changesets to a synced file with the rules of
/// Docs/SyncDesign.md, so that a replica's state depends only on the set of
/// changesets it has applied, not their order:
///
/// - `create` makes an object unless it exists (two creations merge) or was
///   erased (an older incarnation of a primary key, a tombstoned global or
///   embedded identity);
/// - `erase` deletes it and leaves a tombstone: delete wins over changes
///   that arrive after;
/// - `set` is applied if its stamp is newer than the property's last write
///   (last writer wins, ties broken by client file identity); a link to an
///   object this replica does not have reads as nil.
///
/// List instructions and `addInteger` come with the next step of the design
/// (the list rules); a changeset holding them is refused for now, as a bad
/// changeset, rather than applied in part.
package enum ChangesetApplier {
    /// Applies `changeset` (whose server version is `serverVersion`) inside
    /// the write transaction `transaction` of a file whose recorder is
    /// `recorder`, without recording it as this client's change.
    ///
    /// - Throws: `invalidValue` ("bad changeset") for an instruction that
    ///   contradicts the file's schema or that this version cannot apply;
    ///   the caller cancels the write then.
    package static func apply(_ changeset: Changeset, serverVersion: UInt64, in transaction: Transaction,
                              recorder: ChangesetRecorder) throws(RealmError) {
        try recorder.withoutRecording { () throws(RealmError) in
            var applier = Applier(transaction: transaction)
            for (index, instruction) in changeset.instructions.enumerated() {
                try applier.apply(instruction, stamp: changeset.stamp(ofInstruction: index))
            }
            try SyncTables.noteServerVersion(serverVersion, transaction)
        }
    }

    private struct Applier {
        let transaction: Transaction

        mutating func apply(_ instruction: Instruction, stamp: Stamp) throws(RealmError) {
            switch instruction {
            case .addClass(let spec):
                try addClass(spec)
            case .addProperty(let className, let spec):
                try addProperty(spec, to: className)
            case .create(let className, let identity):
                try create(identity, className)
            case .erase(let className, let identity):
                try erase(identity, className)
            case .set(let className, let identity, let property, let value):
                try set(value, of: identity, className, property: property, stamp: stamp)
            case .addInteger, .listInsert, .listSet, .listMove, .listErase, .listClear:
                throw Self.badChangeset("list and integer-addition instructions are not integrated yet")
            }
        }

        // MARK: Schema

        private func addClass(_ spec: ClassSpec) throws(RealmError) {
            if let existing = transaction.schema[spec.name] {
                guard existing.primaryKeyProperty?.name == spec.primaryKey, existing.isEmbedded == spec.isEmbedded else {
                    throw Self.badChangeset("class '\(spec.name)' already exists with another primary key or kind")
                }
            } else {
                var schema = transaction.schema
                schema.upsert(ObjectSchema(name: spec.name, properties: [], isEmbedded: spec.isEmbedded))
                try transaction.applySchema(schema, schemaVersion: transaction.schemaVersion)
            }
            try SyncTables.noteReplicated(className: spec.name, property: "", transaction)
        }

        private func addProperty(_ spec: PropertySpec, to className: String) throws(RealmError) {
            guard var objectSchema = transaction.schema[className] else {
                throw Self.badChangeset("property '\(spec.name)' of class '\(className)', which no addClass made")
            }
            guard let type = PropertyType(rawValue: spec.type) else {
                throw Self.badChangeset("property '\(className).\(spec.name)' has an unknown type '\(spec.type)'")
            }
            if let existing = objectSchema.properties.first(where: { $0.name == spec.name }) {
                guard existing.type == type, existing.isOptional == spec.isOptional, existing.isList == spec.isList,
                      existing.objectClassName == spec.target else {
                    throw Self.badChangeset("property '\(className).\(spec.name)' exists as \(existing.typeDescription); a changeset makes it '\(spec.type)'")
                }
            } else {
                objectSchema.properties.append(Property(name: spec.name, type: type, isOptional: spec.isOptional, isList: spec.isList,
                                                        objectClassName: spec.target))
                var schema = transaction.schema
                schema.upsert(objectSchema)
                try transaction.applySchema(schema, schemaVersion: transaction.schemaVersion)
            }
            try SyncTables.noteReplicated(className: className, property: spec.name, transaction)
        }

        // MARK: Objects

        private func create(_ identity: ObjectIdentity, _ className: String) throws(RealmError) {
            let handle = try transaction.classHandle(named: className)
            switch identity {
            case .primaryKey(let value, let incarnation):
                let current = try SyncTables.incarnation(className: className, primaryKey: value, transaction)
                // An incarnation this replica saw erased: delete won.
                guard incarnation >= current else { return }
                if try transaction.object(withPrimaryKey: try value.coreValue(), in: handle) != nil {
                    // The same object, made by two replicas: one object.
                    if incarnation == current { return }
                    throw Self.badChangeset("object \(value) of '\(className)' exists as an older incarnation than a creation names")
                }
                try SyncTables.setIncarnation(incarnation, className: className, primaryKey: value, transaction)
                guard let primaryKey = try transaction.objectSchema(handle).primaryKeyProperty else {
                    throw Self.badChangeset("class '\(className)' has no primary key, but a creation names one")
                }
                // The other properties take their defaults; the sets that
                // follow give them their values.
                _ = try transaction.createObject(ofClass: className, values: [primaryKey.name: try value.coreValue()])
            case .global(let global):
                guard try SyncTables.localKey(of: global, className: className, transaction) == nil,
                      try !SyncTables.isTombstoned(identity, className: className, transaction) else { return }
                let key = try transaction.createObject(ofClass: className, values: [:])
                try SyncTables.setGlobalKey(global, of: key, className: className, transaction)
            case .embedded(let ownerClass, let owner, let property, let element):
                guard element == nil else {
                    throw Self.badChangeset("embedded objects in lists are not integrated yet")
                }
                guard try SyncTables.localKey(ofEmbedded: identity, className: className, transaction) == nil,
                      try !SyncTables.isTombstoned(identity, className: className, transaction),
                      let ownerKey = try localKey(owner, ownerClass) else { return }
                let ownerHandle = try transaction.classHandle(named: ownerClass)
                let propertyIndex = try transaction.propertyIndex(named: property, in: ownerHandle)
                let key = try transaction.createEmbeddedObject(in: ownerHandle, owner: ownerKey, property: propertyIndex)
                try SyncTables.setEmbeddedIdentity(identity, of: key, className: className, transaction)
            }
        }

        private func erase(_ identity: ObjectIdentity, _ className: String) throws(RealmError) {
            let handle = try transaction.classHandle(named: className)
            if case .primaryKey(let value, let incarnation) = identity {
                let current = try SyncTables.incarnation(className: className, primaryKey: value, transaction)
                guard incarnation == current else { return }
                if let key = try transaction.object(withPrimaryKey: try value.coreValue(), in: handle) {
                    try transaction.deleteObject(key, in: handle)
                    try SyncTables.forgetObject(key, className: className, transaction)
                }
                try SyncTables.endIncarnation(incarnation, className: className, primaryKey: value, transaction)
                return
            }
            if let key = try localKey(identity, className) {
                try transaction.deleteObject(key, in: handle)
                try SyncTables.forgetObject(key, className: className, transaction)
            }
            try SyncTables.addTombstone(identity, className: className, transaction)
        }

        private func set(_ value: SyncValue, of identity: ObjectIdentity, _ className: String, property: String,
                         stamp: Stamp) throws(RealmError) {
            guard let key = try localKey(identity, className) else { return }
            if let last = try SyncTables.stamp(of: key, className: className, property: property, transaction), last >= stamp { return }
            let handle = try transaction.classHandle(named: className)
            let index = try transaction.propertyIndex(named: property, in: handle)
            let coreValue: Value
            if case .link(let targetClass, let target) = value {
                // A link to an object this replica does not have (erased, or
                // never made) is nil, as links to deleted objects are.
                coreValue = try localKey(target, targetClass).map { Value.object($0) } ?? .null
            } else {
                coreValue = try value.coreValue()
            }
            try transaction.setValue(coreValue, of: key, property: index, in: handle)
            try SyncTables.setStamp(stamp, of: key, className: className, property: property, transaction)
        }

        /// The local key of an object named by `identity`, or nil when this
        /// replica does not have it (not yet, or no longer).
        private func localKey(_ identity: ObjectIdentity, _ className: String) throws(RealmError) -> ObjectKey? {
            switch identity {
            case .primaryKey(let value, let incarnation):
                let handle = try transaction.classHandle(named: className)
                guard incarnation == (try SyncTables.incarnation(className: className, primaryKey: value, transaction)) else { return nil }
                return try transaction.object(withPrimaryKey: try value.coreValue(), in: handle)
            case .global(let global):
                return try SyncTables.localKey(of: global, className: className, transaction)
            case .embedded:
                return try SyncTables.localKey(ofEmbedded: identity, className: className, transaction)
            }
        }

        static func badChangeset(_ reason: String) -> RealmError {
            RealmError(.invalidValue, "Bad changeset: \(reason).")
        }
    }
}
