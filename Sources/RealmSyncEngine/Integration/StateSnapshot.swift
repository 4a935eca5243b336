import Foundation
import RealmCore
import RealmSyncWire

/// A synced file's whole state as changesets, for a client that has not
/// integrated the history that made it (a new client, or one offline past
/// compaction): applied on any replica, they leave it as if it had
/// integrated that history (Docs/SyncDesign.md, "Catching up from the
/// state").
///
/// The instructions carry the stamps the state holds, so that later
/// changes resolve against them exactly as on the server: a value's stamp
/// is the stamp of the write that set it, a list element's value and
/// position keep theirs. A changeset's stamps are consecutive (its
/// timestamp and client, then one sequence number per instruction), so
/// the state is cut into a changeset per run of consecutive stamps; the
/// instructions no stamp governs (creations, erasures, schema) travel in
/// changesets of their own. What was erased travels too: incarnations of
/// primary keys, tombstones of objects and list elements, so that a
/// change to them arriving later is dropped here as there.
package enum StateSnapshot {
    /// The state of the file at the version `transaction` reads, whole.
    package static func changesets(_ transaction: Transaction) throws(RealmError) -> [Changeset] {
        var stream = Stream(transaction)
        var changesets: [Changeset] = []
        while let chunk = try stream.next() { changesets += chunk }
        return changesets
    }

    /// The state of a file in chunks, read as they are asked for: a server
    /// sends the first while it reads the next, and never holds the whole
    /// state of a large Realm. The transaction must stay at one version
    /// (a read transaction, or a write) until the last chunk is read.
    package struct Stream {
        private var builder: Builder
        private var phase = Phase.start
        private var classes: [ClassHandle] = []
        private var classIndex = 0
        private var keys: [ObjectKey] = []
        private var keyIndex = 0
        /// Top-level objects read so far, each twice (its values, then its
        /// references): what is left is for an estimate of the bytes to come.
        package private(set) var objectVisits = 0

        private enum Phase {
            /// Schema and erasures are next.
            case start
            /// Each object's creation and the values that name no object.
            case scalars
            /// Each object's links, lists and embedded objects.
            case references
            case done
        }

        /// Only these objects, per class, when not nil.
        private let only: [String: [ObjectKey]]?
        /// Whether every erasure comes after the schema.
        private let includesErasures: Bool

        package init(_ transaction: Transaction) {
            builder = Builder(transaction: transaction)
            only = nil
            includesErasures = true
        }

        /// The schema, then the top-level objects `objects` (keys per
        /// class) alone, each with what it embeds: what a query-based
        /// client's view holds (with every erasure first), or the objects
        /// that enter it (without: the client has those; the schema still
        /// comes first, because the history that follows may be what adds
        /// it there). Without the erasures, an object of a primary key made
        /// again after deletions travels after the erasure of its ended
        /// incarnations, so that the client names it as the server does.
        package init(_ transaction: Transaction, objects: [String: [ObjectKey]], includingErasures: Bool) {
            builder = Builder(transaction: transaction)
            builder.erasesEndedIncarnationsOnCreation = !includingErasures
            only = objects
            includesErasures = includingErasures
        }

        /// The next changesets, about `instructions` instructions of them
        /// (an object's are never cut), or nil once the state is all read.
        package mutating func next(instructions limit: Int = 20_000) throws(RealmError) -> [Changeset]? {
            if phase == .start {
                try builder.schema()
                if includesErasures {
                    try builder.erasures()
                } else {
                    try builder.readIncarnations()
                }
                classes = try builder.transaction.schema.objectSchemas.filter { schema in
                    !schema.isEmbedded && only.map { $0[schema.name]?.isEmpty == false } ?? true
                }.map { (schema) throws(RealmError) in try builder.transaction.classHandle(named: schema.name) }
                phase = .scalars
                try startClass(0)
            }
            while phase != .done && builder.instructionCount < limit {
                guard keyIndex < keys.count else {
                    if classIndex + 1 < classes.count {
                        try startClass(classIndex + 1)
                    } else if phase == .scalars {
                        // Every object is made: links find their targets.
                        phase = .references
                        try startClass(0)
                    } else {
                        phase = .done
                    }
                    continue
                }
                let key = keys[keyIndex]
                keyIndex += 1
                objectVisits += 1
                let handle = classes[classIndex]
                guard let identity = try builder.identity(of: key, handle) else { continue }
                if phase == .scalars {
                    try builder.create(key, handle, identity)
                } else {
                    try builder.content(of: key, handle, identity, part: .references)
                }
            }
            let chunk = builder.take()
            return chunk.isEmpty && phase == .done ? nil : chunk
        }

        private mutating func startClass(_ index: Int) throws(RealmError) {
            classIndex = index
            keyIndex = 0
            guard index < classes.count else {
                keys = []
                return
            }
            let handle = classes[index]
            if phase == .references, try !builder.hasReferences(handle) {
                // Nothing of its objects is left to send: a pass over them
                // would read each one again for nothing (two seconds of a
                // million objects' catch-up).
                keys = []
                if let only {
                    objectVisits += only[handle.className]?.count ?? 0
                } else {
                    objectVisits += try builder.transaction.count(of: handle)
                }
                return
            }
            if let only {
                keys = only[handle.className] ?? []
            } else {
                keys = try builder.transaction.objectKeys(in: handle)
            }
        }
    }

    /// The identity a hidden list element's value names: of client 0,
    /// which no client file is, so no replica has it.
    static let vanishedObject = GlobalKey(client: 0, counter: 0)

    private struct Builder {
        let transaction: Transaction
        private(set) var changesets: [Changeset] = []
        /// The instructions in ``changesets``.
        private(set) var instructionCount = 0
        /// The current incarnation of each primary key that has ended one
        /// (read once by ``erasures()``; every other key is at 0).
        private var currentIncarnations: [String: [SyncValue: UInt32]] = [:]

        init(transaction: Transaction) {
            self.transaction = transaction
        }

        // MARK: Packing

        /// Appends an instruction to the changeset under way when its stamp
        /// continues that changeset's, else to a new one.
        mutating func append(_ instruction: Instruction, stamp: Stamp?) {
            instructionCount += 1
            if let last = changesets.indices.last {
                let next = changesets[last].stamp(ofInstruction: changesets[last].instructions.count)
                let continues = if let stamp { changesets[last].clientFileIdent != 0 && stamp == next } else { changesets[last].clientFileIdent == 0 }
                if continues {
                    // In place: a copy of the changeset would copy its
                    // instructions, once per instruction.
                    changesets[last].instructions.append(instruction)
                    return
                }
            }
            changesets.append(Changeset(clientFileIdent: stamp?.client ?? 0, clientVersion: 0, lastServerVersion: 0,
                                        timestamp: stamp?.timestamp ?? 0, firstSequence: stamp?.sequence ?? 0,
                                        instructions: [instruction]))
        }

        // MARK: Schema and erasures

        mutating func schema() throws(RealmError) {
            // Classes first: a property may link to any of them.
            for objectSchema in transaction.schema.objectSchemas {
                append(.addClass(ClassSpec(name: objectSchema.name, primaryKey: objectSchema.primaryKeyProperty?.name,
                                           isEmbedded: objectSchema.isEmbedded)), stamp: nil)
            }
            for objectSchema in transaction.schema.objectSchemas {
                for property in objectSchema.properties where property.type != .linkingObjects {
                    append(.addProperty(class: objectSchema.name, PropertySpec(property)), stamp: nil)
                }
            }
        }

        /// Whether a creation of a primary key's later incarnation comes
        /// after the erasure of the ended ones (when ``erasures()`` did not
        /// send them all).
        var erasesEndedIncarnationsOnCreation = false

        /// Ended incarnations of primary keys, then tombstones.
        mutating func erasures() throws(RealmError) {
            for (className, value, next) in try endedIncarnations() {
                for incarnation in 0..<next { append(.erase(class: className, .primaryKey(value, incarnation: incarnation)), stamp: nil) }
            }
            let tombstones = try transaction.queryStatement("SELECT class, identity FROM sync_tombstones ORDER BY class, identity")
            var erased: [(String, ObjectIdentity)] = []
            do {
                defer { tombstones.reset() }
                while try tombstones.step() {
                    erased.append((tombstones.string(at: 0), try Self.identity(Array(tombstones.data(at: 1)), "sync_tombstones")))
                }
            }
            for (className, identity) in erased { append(.erase(class: className, identity), stamp: nil) }
        }

        /// Reads the current incarnations, sending nothing.
        mutating func readIncarnations() throws(RealmError) {
            _ = try endedIncarnations()
        }

        /// The primary keys with ended incarnations, each with the number
        /// of its current one, noted in ``currentIncarnations``.
        private mutating func endedIncarnations() throws(RealmError) -> [(String, SyncValue, UInt32)] {
            let incarnations = try transaction.queryStatement("SELECT class, primary_key, next FROM sync_incarnations ORDER BY class, primary_key")
            var ended: [(String, SyncValue, UInt32)] = []
            do {
                defer { incarnations.reset() }
                while try incarnations.step() {
                    guard case .primaryKey(let value, _) = try Self.identity(Array(incarnations.data(at: 1)), "sync_incarnations") else {
                        throw RealmError(.corruptFile, "An ended incarnation of the sync tables names no primary key.")
                    }
                    ended.append((incarnations.string(at: 0), value, UInt32(truncatingIfNeeded: incarnations.int64(at: 2))))
                }
            }
            for (className, value, next) in ended { currentIncarnations[className, default: [:]][value] = next }
            return ended
        }

        // MARK: Objects

        /// The changesets built so far, handed over and forgotten.
        mutating func take() -> [Changeset] {
            defer {
                changesets = []
                instructionCount = 0
            }
            return changesets
        }

        /// Which of an object's properties ``content(of:_:_:part:)`` gives:
        /// the state sends every object's creation with the values that
        /// name no object (an applier inserts the object once, with them),
        /// then, once every object is there for links to find, each one's
        /// links, lists and embedded objects.
        enum Part {
            /// Values that name no object.
            case scalars
            /// Links, lists and embedded objects.
            case references
            case all
        }

        /// Whether objects of the class have links, lists or embedded
        /// objects: what the references pass sends.
        func hasReferences(_ handle: ClassHandle) throws(RealmError) -> Bool {
            try transaction.objectSchema(handle).properties.contains {
                $0.type != .linkingObjects && !$0.isPrimaryKey && !$0.namesNoObject
            }
        }

        /// An object's stamped values, its lists, and its embedded objects
        /// (made, then filled the same way), or the `part` of them asked.
        mutating func content(of key: ObjectKey, _ handle: ClassHandle, _ identity: ObjectIdentity, part: Part = .all) throws(RealmError) {
            try content(of: key, handle, identity, part: part, values: try transaction.values(of: key, in: handle),
                        stamps: try stamps(of: key, handle.className))
        }

        /// A top-level object's creation and the values that name no
        /// object. No stamp governs the creation of a top-level object, so
        /// it borrows the one before its first value's: the creation and
        /// values of objects written together (an object's creation came
        /// just before its values) then travel in one changeset, not one
        /// unstamped changeset and one stamped per object.
        mutating func create(_ key: ObjectKey, _ handle: ClassHandle, _ identity: ObjectIdentity) throws(RealmError) {
            let schema = try transaction.objectSchema(handle)
            let values = try transaction.values(of: key, in: handle)
            let stamps = try stamps(of: key, handle.className)
            let first = schema.properties.lazy
                .filter { $0.type != .linkingObjects && !$0.isPrimaryKey && $0.namesNoObject }
                .compactMap { stamps[$0.name] }.first
            let borrowed = first.flatMap { first in
                !first.isDefault && first.sequence > 0 ? Stamp(timestamp: first.timestamp, client: first.client, sequence: first.sequence - 1) : nil
            }
            if erasesEndedIncarnationsOnCreation, case .primaryKey(let value, let current) = identity {
                for incarnation in 0..<current { append(.erase(class: handle.className, .primaryKey(value, incarnation: incarnation)), stamp: nil) }
            }
            append(.create(class: handle.className, identity), stamp: borrowed)
            try content(of: key, handle, identity, part: .scalars, values: values, stamps: stamps)
        }

        private mutating func content(of key: ObjectKey, _ handle: ClassHandle, _ identity: ObjectIdentity, part: Part,
                                      values: [Value], stamps: [String: Stamp]) throws(RealmError) {
            let schema = try transaction.objectSchema(handle)
            for (index, property) in schema.properties.enumerated() where property.type != .linkingObjects && !property.isPrimaryKey {
                let isScalar = property.namesNoObject
                if part == .scalars && !isScalar || part == .references && isScalar { continue }
                if property.isSet || property.isMap {
                    try members(of: ListHandle(owningClass: handle, owner: key, property: index),
                                ListReference(ownerClass: handle.className, owner: identity, property: property.name), property)
                    continue
                }
                let embedded = try embeddedClass(of: property)
                if property.isList {
                    try list(ListHandle(owningClass: handle, owner: key, property: index),
                             ListReference(ownerClass: handle.className, owner: identity, property: property.name),
                             target: property.objectClassName, embedded: embedded)
                } else if let embedded {
                    let stamp = stamps[property.name]
                    guard case .object(let child) = values[index] else {
                        // Emptied: the nil wins over embedded objects made
                        // before it, as it did here.
                        if let stamp { append(.set(class: handle.className, identity, property: property.name, .null), stamp: stamp) }
                        continue
                    }
                    let childHandle = try transaction.classHandle(named: embedded)
                    // Its creation is the write of the owner's property that
                    // made it, with that write's stamp.
                    let childIdentity = try SyncTables.embeddedIdentity(of: child, className: embedded, transaction)
                        ?? .embedded(ownerClass: handle.className, owner: identity, property: property.name, element: nil)
                    append(.create(class: embedded, childIdentity), stamp: stamp)
                    try content(of: child, childHandle, childIdentity)
                } else if let stamp = stamps[property.name] {
                    let value = try syncValue(values[index], target: property.objectClassName)
                    if stamp.isDefault {
                        append(.setDefault(class: handle.className, identity, property: property.name, value), stamp: stamp)
                    } else {
                        append(.set(class: handle.className, identity, property: property.name, value), stamp: stamp)
                    }
                    try nestedContent(values[index], in: ListHandle(owningClass: handle, owner: key, property: index),
                                      ListReference(ownerClass: handle.className, owner: identity, property: property.name))
                }
            }
        }

        /// A list's elements, each as the insertion that made it (then the
        /// move or set that won its position or value), and its erased
        /// elements. `list` and `reference` name a property's list or a
        /// nested one; `target` is the class its links name, when that is
        /// the list's, and `embedded` the class of its embedded objects.
        mutating func list(_ list: ListHandle, _ reference: ListReference, target: String?, embedded: String?) throws(RealmError) {
            let name = "\(reference.ownerClass).\(reference.property)"
            guard let mirror = try ListMirror.inStep(with: list, property: reference.storageProperty, transaction) else {
                throw RealmError(.corruptFile, "The list '\(name)' holds elements that sync does not know.")
            }
            var rows = try transaction.values(of: list).makeIterator()
            for element in mirror.elements {
                // A hidden element holds an object that is gone: it travels
                // holding one that never exists, so that it is hidden there
                // too, and shown again by the same later writes.
                let value = element.isHidden ? nil : rows.next()
                let syncValue: SyncValue = if let value, embedded == nil {
                    try self.syncValue(value, target: target)
                } else if value == nil, let target {
                    .link(class: target, .global(StateSnapshot.vanishedObject))
                } else {
                    .null
                }
                // The insertion takes the older stamp; the newer one comes
                // after, as the write that made it (a move in place, or a
                // set), so that both stamps end as they are here.
                let valueStamp = element.valueStamp ?? element.positionStamp
                let positionStamp = element.positionStamp ?? element.valueStamp
                guard let valueStamp, let positionStamp else {
                    throw RealmError(.corruptFile, "An element of the list '\(name)' has no stamp.")
                }
                append(.listInsert(reference, element: element.key, position: element.position, syncValue), stamp: min(valueStamp, positionStamp))
                if positionStamp > valueStamp {
                    append(.listMove(reference, element: element.key, position: element.position), stamp: positionStamp)
                } else if valueStamp > positionStamp, embedded == nil {
                    append(.listSet(reference, element: element.key, syncValue), stamp: valueStamp)
                }
                if let embedded, case .object(let child)? = value {
                    let childIdentity = ObjectIdentity.embedded(ownerClass: reference.ownerClass, owner: reference.owner, property: reference.property,
                                                                element: element.key)
                    try content(of: child, try transaction.classHandle(named: embedded), childIdentity)
                }
                if let value { try nestedContent(value, in: list, reference) }
            }
            for element in mirror.erased.sorted(by: { ($0.client, $0.counter) < ($1.client, $1.counter) }) {
                append(.listErase(reference, element: element), stamp: nil)
            }
        }

        /// A set's or map's registers, each as the write that won it, with
        /// its stamp: erased members and keys too, so that an older
        /// insertion arriving later loses there as here. What the set or
        /// map shows follows from them on the receiving replica. For a
        /// property's set or map, or a nested dictionary of mixed property
        /// `property`.
        private mutating func members(of collection: ListHandle, _ reference: ListReference, _ property: Property) throws(RealmError) {
            let registers = MemberRegisters.Collection(className: reference.ownerClass, owner: collection.owner, property: reference.storageProperty)
            let embedded = try embeddedClass(of: property)
            for register in try MemberRegisters.registers(of: registers, transaction) {
                if property.isMap || collection.nested != nil {
                    let key = String(decoding: register.member, as: UTF8.self)
                    append(register.value.map { .mapSet(reference, key: key, $0) } ?? .mapErase(reference, key: key), stamp: register.stamp)
                    // An embedded object: its creation, then its content.
                    if let embedded, case .link(_, let childIdentity)? = register.value,
                       case .object(let child)? = try transaction.value(forKey: key, in: collection) {
                        append(.create(class: embedded, childIdentity), stamp: nil)
                        try content(of: child, try transaction.classHandle(named: embedded), childIdentity)
                    }
                    // A nested collection: its content.
                    if register.value?.isNestedCollection == true, let value = try transaction.value(forKey: key, in: collection) {
                        try nestedContent(value, in: collection, reference)
                    }
                } else if let value = register.value {
                    append(.setInsert(reference, value), stamp: register.stamp)
                } else {
                    append(.setErase(reference, try MemberRegisters.setMember(of: register, in: registers)), stamp: register.stamp)
                }
            }
        }

        /// The content of the nested collection `value` holds, if it holds
        /// one: `value` is in `container` (a property's value, list or map,
        /// or a nested collection), named by `reference`.
        private mutating func nestedContent(_ value: Value, in container: ListHandle, _ reference: ListReference) throws(RealmError) {
            guard case .collection(let collection) = value else { return }
            guard let name = try NestedNames.name(of: collection, transaction) else {
                throw RealmError(.corruptFile, "A collection nested in '\(reference.ownerClass).\(reference.property)' has no sync name.")
            }
            let nested = ListHandle(owningClass: container.owningClass, owner: container.owner, property: container.property, nested: collection)
            let nestedReference = ListReference(ownerClass: reference.ownerClass, owner: reference.owner, property: reference.property, nested: name)
            switch collection.kind {
            case .list: try list(nested, nestedReference, target: nil, embedded: nil)
            case .dictionary: try members(of: nested, nestedReference, try transaction.objectSchema(container.owningClass).properties[container.property])
            }
        }

        // MARK: Reading

        /// How replicas name a top-level object: its primary key and
        /// current incarnation, or its global key (nil for an object sync
        /// does not know, which the server never has).
        func identity(of key: ObjectKey, _ handle: ClassHandle) throws(RealmError) -> ObjectIdentity? {
            let schema = try transaction.objectSchema(handle)
            if let primaryKey = schema.primaryKeyProperty, let index = schema.properties.firstIndex(of: primaryKey) {
                let value = try SyncValue(scalar: try transaction.value(of: key, property: index, in: handle))
                return .primaryKey(value, incarnation: currentIncarnations[handle.className]?[value] ?? 0)
            }
            return try SyncTables.globalKey(of: key, className: handle.className, transaction).map { .global($0) }
        }

        func embeddedClass(of property: Property) throws(RealmError) -> String? {
            guard let target = property.objectClassName, transaction.schema[target]?.isEmbedded == true else { return nil }
            return target
        }

        func syncValue(_ value: Value, target: String?) throws(RealmError) -> SyncValue {
            let (key, className): (ObjectKey, String)
            switch value {
            case .object(let object) where target != nil: (key, className) = (object, target!)
            case .link(let linkedClass, let object): (key, className) = (object, linkedClass)
            case .collection(let collection):
                guard let name = try NestedNames.name(of: collection, transaction) else {
                    throw RealmError(.corruptFile, "\(collection) has no sync name.")
                }
                return NestedNames.value(collection.kind, named: name)
            default: return try SyncValue(scalar: value)
            }
            guard let identity = try identity(of: key, try transaction.classHandle(named: className)) else { return .null }
            return .link(class: className, identity)
        }

        func stamps(of key: ObjectKey, _ className: String) throws(RealmError) -> [String: Stamp] {
            let select = try transaction.queryStatement("SELECT property, timestamp, client, sequence FROM sync_stamps WHERE class = ? AND object_key = ?")
            defer { select.reset() }
            select.bind(className, at: 1)
            select.bind(key.rawValue, at: 2)
            var stamps: [String: Stamp] = [:]
            while try select.step() {
                stamps[select.string(at: 0)] = Stamp(timestamp: select.int64(at: 1), client: UInt64(bitPattern: select.int64(at: 2)),
                                                     sequence: UInt64(bitPattern: select.int64(at: 3)))
            }
            return stamps
        }

        static func identity(_ bytes: [UInt8], _ table: String) throws(RealmError) -> ObjectIdentity {
            do {
                return try ChangesetCoding.decodeIdentity(bytes)
            } catch {
                throw RealmError(.corruptFile, "An identity in \(table) cannot be read: \(error)")
            }
        }
    }
}

private extension Property {
    /// Whether the property holds a value that names no object (not a
    /// link, a mixed value, a collection or an embedded object): the
    /// state's scalars pass sends it, and the references pass the others.
    var namesNoObject: Bool { !isCollection && objectClassName == nil && type != .mixed }
}
