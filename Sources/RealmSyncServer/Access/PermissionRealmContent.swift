import Foundation
import RealmCore
import RealmSyncEngine
import RealmSyncWire

/// What the server writes into a user's permission Realm
/// (``PermissionRealm``, `/<identity>/__permission`) so that it lists the
/// permissions that concern them: the instructions that take the Realm
/// from what it holds to what it should.
///
/// The class is declared in the first changeset, even with no permission
/// to list, so that a client opening the Realm asynchronously finds its
/// schema there and records none of its own (it may not write here).
enum PermissionRealmContent {
    private static let className = PermissionRealm.className

    /// One object of the class, as the fields it holds.
    private struct Entry: Equatable {
        var path: String
        var userId: String
        var level: AccessLevel
        var updatedAt: Date
    }

    /// The instructions that make the Realm `transaction` reads list
    /// exactly `permissions`.
    static func instructions(listing permissions: [PermissionRecord], in transaction: Transaction) throws(RealmError) -> [Instruction] {
        var instructions: [Instruction] = []
        var current: [String: Entry] = [:]
        if transaction.schema[className] == nil {
            instructions += schema()
        } else {
            current = try entries(transaction)
        }
        var wanted: [String: Entry] = [:]
        for permission in permissions {
            wanted[PermissionRealm.key(path: permission.realmPath, userId: permission.userIdentity)] =
                Entry(path: permission.realmPath, userId: permission.userIdentity, level: permission.accessLevel, updatedAt: permission.updated)
        }
        for (key, entry) in wanted.sorted(by: { $0.key < $1.key }) {
            let old = current[key]
            guard old != entry else { continue }
            let identity = ObjectIdentity.primaryKey(.string(key), incarnation: try incarnation(of: key, transaction))
            if old == nil { instructions.append(.create(class: className, identity)) }
            func set(_ property: String, _ value: SyncValue, changed: Bool) {
                if changed { instructions.append(.set(class: className, identity, property: property, value)) }
            }
            set(PermissionRealm.path, .string(entry.path), changed: old?.path != entry.path)
            set(PermissionRealm.userId, .string(entry.userId), changed: old?.userId != entry.userId)
            set(PermissionRealm.mayRead, .bool(entry.level >= .read), changed: old.map { ($0.level >= .read) != (entry.level >= .read) } ?? true)
            set(PermissionRealm.mayWrite, .bool(entry.level >= .write), changed: old.map { ($0.level >= .write) != (entry.level >= .write) } ?? true)
            set(PermissionRealm.mayManage, .bool(entry.level >= .admin), changed: old.map { ($0.level >= .admin) != (entry.level >= .admin) } ?? true)
            set(PermissionRealm.updatedAt, .date(entry.updatedAt), changed: old?.updatedAt != entry.updatedAt)
        }
        for key in current.keys.sorted() where wanted[key] == nil {
            instructions.append(.erase(class: className, .primaryKey(.string(key), incarnation: try incarnation(of: key, transaction))))
        }
        return instructions
    }

    private static func schema() -> [Instruction] {
        func property(_ name: String, _ type: PropertyType) -> Instruction {
            .addProperty(class: className, PropertySpec(name: name, type: type.rawValue, isOptional: false, isList: false, target: nil))
        }
        return [
            .addClass(ClassSpec(name: className, primaryKey: PermissionRealm.id, isEmbedded: false)),
            property(PermissionRealm.id, .string),
            property(PermissionRealm.path, .string),
            property(PermissionRealm.userId, .string),
            property(PermissionRealm.mayRead, .bool),
            property(PermissionRealm.mayWrite, .bool),
            property(PermissionRealm.mayManage, .bool),
            property(PermissionRealm.updatedAt, .date),
        ]
    }

    private static func entries(_ transaction: Transaction) throws(RealmError) -> [String: Entry] {
        let handle = try transaction.classHandle(named: className)
        let schema = try transaction.objectSchema(handle)
        func index(_ name: String) throws(RealmError) -> Int {
            guard let index = schema.propertyIndex(named: name) else {
                throw RealmError(.schemaMismatch, "The permission Realm's class has no property '\(name)'.")
            }
            return index
        }
        let columns = (id: try index(PermissionRealm.id), path: try index(PermissionRealm.path), userId: try index(PermissionRealm.userId),
                       mayRead: try index(PermissionRealm.mayRead), mayWrite: try index(PermissionRealm.mayWrite),
                       mayManage: try index(PermissionRealm.mayManage), updatedAt: try index(PermissionRealm.updatedAt))
        var entries: [String: Entry] = [:]
        for key in try transaction.objectKeys(in: handle) {
            func string(_ column: Int) throws(RealmError) -> String {
                if case .string(let value) = try transaction.value(of: key, property: column, in: handle) { return value }
                return ""
            }
            func bool(_ column: Int) throws(RealmError) -> Bool {
                if case .bool(let value) = try transaction.value(of: key, property: column, in: handle) { return value }
                return false
            }
            let level: AccessLevel = try bool(columns.mayManage) ? .admin : try bool(columns.mayWrite) ? .write : try bool(columns.mayRead) ? .read : .none
            var updatedAt = Date(timeIntervalSince1970: 0)
            if case .date(let date) = try transaction.value(of: key, property: columns.updatedAt, in: handle) { updatedAt = date }
            entries[try string(columns.id)] = Entry(path: try string(columns.path), userId: try string(columns.userId), level: level,
                                                    updatedAt: updatedAt)
        }
        return entries
    }

    private static func incarnation(of key: String, _ transaction: Transaction) throws(RealmError) -> UInt32 {
        try SyncTables.incarnation(className: className, primaryKey: .string(key), transaction)
    }
}
