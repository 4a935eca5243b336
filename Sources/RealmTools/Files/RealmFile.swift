import Foundation
import RealmCore
import RealmQuery

/// A Realm file opened with the schema it stores, for tools that have never
/// seen its model classes: what `realm schema`, `query`, `export`, `import`
/// and `browse` read and write.
///
/// It holds one read transaction, at the version the file had when it was
/// opened or last ``refresh()``ed. Not thread-safe: a caller that serves
/// several threads (the browser) serializes its use.
public final class RealmFile {
    /// The file's path, as given.
    public let path: String
    /// Whether writes are refused: the file was opened read-only, or it is
    /// a synced Realm (see ``isSynced``).
    public var isReadOnly: Bool { isOpenedReadOnly || isSynced }
    private let isOpenedReadOnly: Bool
    /// Whether the file is a synced Realm (a client's or the sync server's).
    /// A tool may read it but not change it: a change made here would not
    /// be recorded as a changeset, so the server and the other devices
    /// would never see it, and the replicas would no longer converge.
    public let isSynced: Bool
    let coordinator: Coordinator
    /// The transaction every read and write goes through.
    public let transaction: Transaction
    private var classes: [String: StoredClass] = [:]
    /// The schema `classes` were read from: another process may change it
    /// (a migration) while a browser keeps the file open.
    private var classesSchema: Schema?

    /// Opens the Realm file at `path`.
    ///
    /// - Throws: ``ToolError`` naming the file when it does not exist, is
    ///   not a Realm, is encrypted with another key (or none), or cannot be
    ///   read.
    public init(path: String, encryptionKey: Data? = nil, readOnly: Bool = false) throws(ToolError) {
        self.path = path
        self.isOpenedReadOnly = readOnly
        // The storage engine creates a missing file; a tool must not.
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ToolError("\(path): no such file")
        }
        guard !isDirectory.boolValue else { throw ToolError("\(path): is a directory, not a Realm file") }
        do {
            // The storage engine makes an empty file, or a SQLite database
            // without a catalog, into a Realm; a tool only reads what is
            // already one.
            let probe = try Connection(path: path, readOnly: true, encryptionKey: encryptionKey)
            guard try probe.scalarUncached("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'realm_metadata'") ?? 0 > 0 else {
                throw ToolError("\(path): not a Realm file (\(Self.isEmptyFile(path) ? "it is empty" : "a database without a Realm's catalog"))")
            }
            // The tables sync keeps beside the data: a client's
            // (RealmSyncEngine's SyncTables) or the server's (ServerRealm).
            isSynced = try probe.scalarUncached(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('sync_state', 'server_history')") ?? 0 > 0
        } catch let error as ToolError {
            throw error
        } catch let error as RealmError {
            throw ToolError(Self.explain(error, path: path, encrypted: encryptionKey != nil))
        } catch {
            throw ToolError("\(path): \(error)")
        }
        do {
            coordinator = try Coordinator.open(Coordinator.Configuration(
                location: .file(path), isReadOnly: readOnly, encryptionKey: encryptionKey))
            transaction = try coordinator.makeTransaction()
            _ = try transaction.refresh()
        } catch {
            throw ToolError(Self.explain(error, path: path, encrypted: encryptionKey != nil))
        }
    }

    private static func isEmptyFile(_ path: String) -> Bool {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int) == 0
    }

    private static func explain(_ error: RealmError, path: String, encrypted: Bool) -> String {
        switch error.kind {
        case .notARealm where !encrypted:
            "\(path): not a Realm file, or an encrypted one (give its key with --key-file): \(error.message)"
        case .notARealm, .corruptFile:
            "\(path): \(error.message) (with a key, a wrong key reads as a damaged file)"
        default:
            "\(path): \(error.message)"
        }
    }

    /// The classes and properties the file stores.
    public var schema: Schema { transaction.schema }

    /// The schema version the file's models last set.
    public var schemaVersion: UInt64 { transaction.schemaVersion }

    /// The version of the data this file's transaction reads.
    public var version: UInt64 { (try? transaction.version) ?? 0 }

    /// Moves to the newest version of the file; returns whether it changed.
    @discardableResult
    public func refresh() throws(ToolError) -> Bool {
        let changed: Bool
        do {
            changed = try transaction.refresh()
        } catch {
            throw ToolError(error, while: "\(path): reading the newest version")
        }
        if changed && schema != classesSchema {
            classes.removeAll()
        }
        return changed
    }

    /// Calls `listener` after every commit to the file, by this process or
    /// another, on a thread of the storage engine's; returns an identifier
    /// for ``removeCommitListener(_:)``.
    public func addCommitListener(_ listener: @escaping @Sendable (UInt64) -> Void) -> Int {
        coordinator.addCommitListener(listener)
    }

    /// Stops calling a listener.
    public func removeCommitListener(_ identifier: Int) {
        coordinator.removeCommitListener(identifier)
    }

    /// The stored class named `name`.
    ///
    /// - Throws: ``ToolError`` listing the classes there are when the file
    ///   has none of that name.
    public func storedClass(named name: String) throws(ToolError) -> StoredClass {
        if let known = classes[name] { return known }
        guard let objectSchema = schema[name] else {
            let names = schema.classNames.sorted()
            throw ToolError("\(path) has no class '\(name)'; its classes: \(names.isEmpty ? "none" : names.joined(separator: ", "))")
        }
        let handle: ClassHandle
        do {
            handle = try transaction.classHandle(named: name)
        } catch {
            throw ToolError(error, while: "\(path): class '\(name)'")
        }
        let stored = StoredClass(objectSchema: objectSchema, handle: handle)
        if classes.isEmpty { classesSchema = schema }
        classes[name] = stored
        return stored
    }

    /// The number of objects of a class.
    public func count(of storedClass: StoredClass) throws(ToolError) -> Int {
        do {
            return try transaction.count(of: storedClass.handle)
        } catch {
            throw ToolError(error, while: "\(path): counting '\(storedClass.name)'")
        }
    }

    /// Runs `body` in a write transaction and commits it; nothing of it is
    /// kept when it throws.
    public func write<Result>(_ body: () throws -> Result) throws -> Result {
        guard !isSynced else {
            throw ToolError("\(path) is a synced Realm: a change made here would not be recorded for sync and would never reach "
                            + "the server or other devices; change it through the sync client")
        }
        guard !isOpenedReadOnly else { throw ToolError("\(path) is open read-only") }
        return try transaction.write(body)
    }
}

/// A class as the file stores it: its schema, its handle, and which of its
/// properties hold values (all but linking objects).
public struct StoredClass {
    /// The class's stored schema.
    public let objectSchema: ObjectSchema
    /// The storage engine's handle of the class.
    public let handle: ClassHandle
    /// The indices of the properties that hold values, in schema order:
    /// every property but linking objects, which are computed.
    public let valueProperties: [Int]
    /// The index of the primary key property, if any.
    public let primaryKeyIndex: Int?

    init(objectSchema: ObjectSchema, handle: ClassHandle) {
        self.objectSchema = objectSchema
        self.handle = handle
        valueProperties = objectSchema.properties.indices.filter { objectSchema.properties[$0].type != .linkingObjects }
        primaryKeyIndex = objectSchema.properties.firstIndex(where: \.isPrimaryKey)
    }

    /// The class's name.
    public var name: String { objectSchema.name }

    /// Whether links to its objects name their object key (`"$key"` in an
    /// export): a top-level class without a primary key.
    var isKeyedByObjectKey: Bool { primaryKeyIndex == nil && !objectSchema.isEmbedded }

    /// The property named `name`.
    ///
    /// - Throws: ``ToolError`` naming the class and its properties.
    public func propertyIndex(named name: String) throws(ToolError) -> Int {
        guard let index = objectSchema.propertyIndex(named: name) else {
            let names = objectSchema.properties.map(\.name).joined(separator: ", ")
            throw ToolError("class '\(self.name)' has no property '\(name)'; its properties: \(names)")
        }
        return index
    }
}
