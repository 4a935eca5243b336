import Foundation
import RealmCore
import RealmSyncEngine
import RealmSyncWire

/// One replica of the model checker: an in-memory synced Realm with its
/// recorder and its own clock, and a dump of its data that names objects by
/// content, so that two replicas compare whatever their local keys.
final class ModelReplica {
    static let schema = Schema([
        ObjectSchema(name: "Person", properties: [
            Property(name: "id", type: .int, isPrimaryKey: true),
            Property(name: "name", type: .string),
            Property(name: "nickname", type: .string, isOptional: true),
            Property(name: "home", type: .object, isOptional: true, objectClassName: "Address"),
            Property(name: "dogs", type: .object, isList: true, objectClassName: "Dog"),
            Property(name: "tags", type: .string, isList: true),
            Property(name: "past", type: .object, isList: true, objectClassName: "Address"),
            Property(name: "best", type: .object, isOptional: true, objectClassName: "Dog"),
            Property(name: "friends", type: .object, isList: true, objectClassName: "Person"),
            Property(name: "pets", type: .object, isSet: true, objectClassName: "Dog"),
            Property(name: "labels", type: .string, isSet: true),
            Property(name: "scores", type: .int, isMap: true),
            Property(name: "walkers", type: .object, isOptional: true, isMap: true, objectClassName: "Dog"),
            Property(name: "homes", type: .object, isOptional: true, isMap: true, objectClassName: "Address"),
            Property(name: "any", type: .mixed, isOptional: true),
            Property(name: "bag", type: .mixed, isOptional: true, isSet: true),
            Property(name: "anyMap", type: .mixed, isOptional: true, isMap: true),
            Property(name: "anyList", type: .mixed, isOptional: true, isList: true),
            Property(name: "nest", type: .mixed, isOptional: true),
        ]),
        ObjectSchema(name: "Dog", properties: [
            Property(name: "name", type: .string),
            Property(name: "age", type: .int),
            Property(name: "owner", type: .object, isOptional: true, objectClassName: "Person"),
        ]),
        ObjectSchema(name: "Address", properties: [
            Property(name: "street", type: .string),
            Property(name: "detail", type: .object, isOptional: true, objectClassName: "Detail"),
        ], isEmbedded: true),
        ObjectSchema(name: "Detail", properties: [Property(name: "note", type: .string)], isEmbedded: true),
    ])

    /// Person's properties, by index.
    enum PersonProperty {
        static let id = 0, name = 1, nickname = 2, home = 3, dogs = 4, tags = 5, past = 6, best = 7, friends = 8
        static let pets = 9, labels = 10, scores = 11, walkers = 12, homes = 13, any = 14, bag = 15, anyMap = 16, anyList = 17, nest = 18
    }
    /// Dog's properties, by index.
    enum DogProperty { static let name = 0, age = 1, owner = 2 }

    final class Clock: @unchecked Sendable {
        // @unchecked: set by the checker between writes, on its one thread.
        var milliseconds: Int64 = 1_000
    }

    let transaction: Transaction
    let recorder: ChangesetRecorder
    let clock = Clock()
    /// The server log's entries this replica has integrated.
    var integrated = 0
    /// The last of this replica's client versions given to the server.
    var uploaded: UInt64 = 0

    init() throws {
        let coordinator = try Coordinator.open(.inMemory("model-\(UUID().uuidString)", schema: Self.schema))
        let clock = clock
        recorder = try ChangesetRecorder.install(on: coordinator, now: { clock.milliseconds })
        transaction = try coordinator.makeTransaction()
    }

    /// This replica's changesets not given to the server yet.
    func takeUnuploaded() throws -> [Changeset] {
        try transaction.refresh()
        let statement = try transaction.queryStatement("SELECT changeset FROM sync_history WHERE client_version > ? ORDER BY client_version")
        defer { statement.reset() }
        statement.bind(Int64(uploaded), at: 1)
        var changesets: [Changeset] = []
        while try statement.step() { changesets.append(try ChangesetCoding.decode(Array(statement.data(at: 0)))) }
        if let last = changesets.last { uploaded = last.clientVersion }
        return changesets
    }

    /// Applies `changesets` (the server's, from server version
    /// `firstVersion` on) in one write, as a session does with a download.
    func apply(_ changesets: [Changeset], firstVersion: UInt64) throws {
        guard !changesets.isEmpty else { return }
        try transaction.write {
            let numbered = changesets.enumerated().map { (serverVersion: firstVersion + UInt64($0.offset), changeset: $0.element) }
            try ChangesetApplier.apply(numbered, in: transaction, recorder: recorder)
        }
    }

    /// Evicts the object `key` of `handle`, as a query-based view that
    /// loses it does: in a write of its own, unrecorded.
    func evict(_ key: ObjectKey, in handle: ClassHandle) throws {
        try transaction.write {
            try recorder.withoutRecording { () throws(RealmError) in try TopLevelObjects.evict(key, in: handle, transaction) }
        }
    }

    // MARK: Finding objects by content

    var people: ClassHandle { get throws { try transaction.classHandle(named: "Person") } }
    var dogs: ClassHandle { get throws { try transaction.classHandle(named: "Dog") } }
    var addresses: ClassHandle { get throws { try transaction.classHandle(named: "Address") } }
    var details: ClassHandle { get throws { try transaction.classHandle(named: "Detail") } }

    func person(_ id: Int64) throws -> ObjectKey? {
        try transaction.object(withPrimaryKey: .int(id), in: people)
    }

    func dog(_ name: String) throws -> ObjectKey? {
        let handle = try dogs
        return try transaction.objectKeys(in: handle).first { key in
            try transaction.value(of: key, property: DogProperty.name, in: handle) == .string(name)
        }
    }

    func list(_ property: Int, of id: Int64) throws -> ListHandle? {
        guard let owner = try person(id) else { return nil }
        return try transaction.list(property, of: owner, in: people)
    }

    // MARK: Dump

    /// Every object, by content: people by primary key, dogs by name,
    /// embedded objects inside their owners, links by their target's name.
    func dump() throws -> [String] {
        try transaction.refresh()
        var lines: [String] = []
        for className in ["Person", "Dog"] {
            let handle = try transaction.classHandle(named: className)
            var rows: [String] = []
            for key in try transaction.objectKeys(in: handle) { rows.append(try describe(key, handle)) }
            lines += rows.sorted()
        }
        // Embedded objects no owner holds would be a leak: counted.
        lines.append("Address count \(try transaction.count(of: addresses))")
        lines.append("Detail count \(try transaction.count(of: details))")
        return lines
    }

    private func describe(_ key: ObjectKey, _ handle: ClassHandle) throws -> String {
        let schema = try transaction.objectSchema(handle)
        let values = try transaction.values(of: key, in: handle)
        var fields: [String] = []
        for (index, property) in schema.properties.enumerated() where property.type != .linkingObjects {
            if property.isList {
                let elements = try transaction.values(of: try transaction.list(index, of: key, in: handle))
                fields.append("\(property.name)=[\(try elements.map { try describe($0, property) }.joined(separator: ","))]")
            } else if property.isSet {
                let members = try transaction.setValues(of: ListHandle(owningClass: handle, owner: key, property: index))
                fields.append("\(property.name)={\(try members.map { try describe($0, property) }.sorted().joined(separator: ","))}")
            } else if property.isMap {
                let entries = try transaction.entries(of: ListHandle(owningClass: handle, owner: key, property: index))
                let described = try entries.map { "\($0.key):\(try describe($0.value, property))" }.sorted()
                fields.append("\(property.name)={\(described.joined(separator: ","))}")
            } else {
                fields.append("\(property.name)=\(try describe(values[index], property))")
            }
        }
        return "\(handle.className)(\(fields.joined(separator: " ")))"
    }

    private func describe(_ value: Value, _ property: Property) throws -> String {
        if case .collection(let nested) = value {
            // By content: a nested list's elements in order, a nested
            // dictionary's entries by key.
            guard let collection = try transaction.handle(of: nested) else { return "a vanished \(nested.kind)" }
            if nested.kind == .list { return "[\(try transaction.values(of: collection).map { try describe($0, property) }.joined(separator: ","))]" }
            let entries = try transaction.entries(of: collection).map { "\($0.key):\(try describe($0.value, property))" }.sorted()
            return "{\(entries.joined(separator: ","))}"
        }
        if case .link(let targetClass, let target) = value {
            let targetHandle = try transaction.classHandle(named: targetClass)
            let name = try transaction.value(of: target, property: targetClass == "Person" ? PersonProperty.id : DogProperty.name, in: targetHandle)
            return "→\(targetClass)(\(name))"
        }
        guard case .object(let target) = value, let targetClass = property.objectClassName else { return "\(value)" }
        let targetHandle = try transaction.classHandle(named: targetClass)
        if try transaction.objectSchema(targetHandle).isEmbedded { return try describe(target, targetHandle) }
        let name = try transaction.value(of: target, property: targetClass == "Person" ? PersonProperty.id : DogProperty.name, in: targetHandle)
        return "→\(targetClass)(\(name))"
    }
}
