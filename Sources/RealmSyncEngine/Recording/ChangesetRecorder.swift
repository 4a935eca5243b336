import Foundation
import RealmCore
import RealmSyncWire
import Synchronization

/// Turns the changes of a synced Realm's write transactions into
/// changesets, stored with the data in the same SQLite transaction
/// (Docs/SyncDesign.md): a crash can never keep one without the other.
///
/// Each change becomes instructions as it is made, kept in memory for the
/// write under way and cut back when RealmCore rolls an operation back to
/// its savepoint; before the commit they become one changeset in
/// `sync_history`, numbered with the next client version and stamped.
/// (What else recording learns, such as identities, goes into the file's
/// sync tables at once, and rolls back with the change.)
package final class ChangesetRecorder: ReplicationObserver, Sendable {
    // Every recording call runs on the writing thread, under the file's
    // write lock, and keeps what it records in the file; the few values
    // kept here are atomic or locked.

    /// The clock, in milliseconds since 1970 (a test may fix it).
    let now: @Sendable () -> Int64
    /// Set while changes of other replicas are applied: they are not this
    /// client's to upload.
    private let suppressed = Atomic<Bool>(false)
    /// The transactions whose commit recorded a changeset not yet
    /// announced. Each is announced by its own commit's `didCommit`, once
    /// the new version is visible to the other transactions: announced by
    /// another write's, it could send a session to read before it is.
    private let unannounced = Mutex<Set<ObjectIdentifier>>([])
    private let changesetObserver = Mutex<(owner: ObjectIdentifier, notify: @Sendable () -> Void)?>(nil)
    /// The instructions of the write under way (one at a time per file),
    /// and how many there were when its current operation began.
    private let pending = Mutex<(instructions: [Instruction], operationStart: Int)>(([], 0))
    /// Classes none of whose primary keys has ended an incarnation, as
    /// learned during the write under way (most classes: every key is then
    /// at incarnation 0, without a lookup per object).
    private let classesWithoutIncarnations = Mutex<Set<String>>([])

    private init(now: @escaping @Sendable () -> Int64) {
        self.now = now
    }

    /// Makes the file's sync tables (in a write of their own, committed),
    /// then records every later write of the file in this process.
    @discardableResult
    package static func install(on coordinator: Coordinator,
                                now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }) throws(RealmError) -> ChangesetRecorder {
        let transaction = try coordinator.makeTransaction()
        try transaction.beginWrite()
        do {
            try SyncTables.prepare(transaction)
            try transaction.commitWrite()
        } catch {
            transaction.cancelWrite()
            throw error
        }
        let recorder = ChangesetRecorder(now: now)
        coordinator.replication = recorder
        return recorder
    }

    /// Makes `notify` the call after each commit that recorded a changeset
    /// or changed the file's subscriptions (on the writing thread, after
    /// the commit): a sync session uploads, or sends its subscriptions,
    /// then. `owner` (the session) is the only one that can remove it.
    package func observeChangesets(owner: AnyObject, _ notify: @escaping @Sendable () -> Void) {
        changesetObserver.withLock { $0 = (ObjectIdentifier(owner), notify) }
    }

    /// Removes `owner`'s observer, unless another has replaced it since
    /// (a new session of the same file).
    package func stopObservingChangesets(owner: AnyObject) {
        changesetObserver.withLock { if $0?.owner == ObjectIdentifier(owner) { $0 = nil } }
    }

    /// Makes the commit of `transaction`'s write call the changeset
    /// observer even if it records no changeset: it changed what the
    /// session sends otherwise (the file's subscriptions).
    package func announceCommit(of transaction: Transaction) {
        unannounced.withLock { _ = $0.insert(ObjectIdentifier(transaction)) }
    }

    package func didCommit(_ transaction: Transaction) {
        guard unannounced.withLock({ $0.remove(ObjectIdentifier(transaction)) }) != nil else { return }
        changesetObserver.withLock { $0?.notify }?()
    }

    /// The recorder of `coordinator`'s file, installed now if it has none
    /// (several Realms of one synced file share it).
    package static func installedRecorder(on coordinator: Coordinator) throws(RealmError) -> ChangesetRecorder {
        try installation.withLock { _ throws(RealmError) -> ChangesetRecorder in
            if let existing = coordinator.replication as? ChangesetRecorder { return existing }
            return try install(on: coordinator)
        }
    }

    /// Serializes installations, so that two threads opening one synced
    /// file install one recorder.
    private static let installation = Mutex(())

    /// Runs `body` (applying other replicas' changes) without recording
    /// what it changes.
    package func withoutRecording<T>(_ body: () throws(RealmError) -> T) throws(RealmError) -> T {
        suppressed.store(true, ordering: .sequentiallyConsistent)
        defer {
            suppressed.store(false, ordering: .sequentiallyConsistent)
            // What was applied may have ended incarnations.
            classesWithoutIncarnations.withLock { $0.removeAll() }
        }
        return try body()
    }

    package func didBeginWrite(_ transaction: Transaction) {
        pending.withLock { $0 = ([], 0) }
        classesWithoutIncarnations.withLock { $0.removeAll() }
    }

    package func willBeginOperation(_ transaction: Transaction) {
        pending.withLock { $0.operationStart = $0.instructions.count }
    }

    package func didRollBackOperation(_ transaction: Transaction) {
        pending.withLock { $0.instructions.removeSubrange($0.operationStart...) }
        classesWithoutIncarnations.withLock { $0.removeAll() }
    }

    /// Forgets what sync kept of the nested collections RealmCore deleted,
    /// whoever's change deleted them: this replica's, another's being
    /// applied, an eviction.
    package func didDeleteNestedCollections(_ keys: [Int64]?, in transaction: Transaction) throws(RealmError) {
        try NestedNames.forget(keys, transaction)
    }

    /// The current incarnation of a primary key of `className`.
    private func incarnation(className: String, primaryKey: SyncValue, _ transaction: Transaction) throws(RealmError) -> UInt32 {
        if classesWithoutIncarnations.withLock({ $0.contains(className) }) { return 0 }
        if try !SyncTables.hasIncarnations(className: className, transaction) {
            classesWithoutIncarnations.withLock { _ = $0.insert(className) }
            return 0
        }
        return try SyncTables.incarnation(className: className, primaryKey: primaryKey, transaction)
    }

    package func record(_ change: ReplicatedChange, in transaction: Transaction) throws(RealmError) {
        guard !suppressed.load(ordering: .sequentiallyConsistent) else { return }
        let state = try SyncTables.state(transaction)
        var context = Context(transaction: transaction, state: state)
        let instructions = try instructions(for: change, &context)
        if context.state != state { try SyncTables.save(context.state, transaction) }
        pending.withLock { $0.instructions += instructions }
    }

    package func willCommit(_ transaction: Transaction) throws(RealmError) {
        // Kept until the commit is certain: an error below rolls back what
        // this wrote and leaves the write open, and a retried commit
        // records them again.
        let recorded = pending.withLock { $0.instructions }
        // Classes and properties new to replication come first: the data
        // instructions after them may use them.
        let instructions = try schemaAdditions(transaction) + recorded
        guard !instructions.isEmpty else { return }
        var state = try SyncTables.state(transaction)
        // After every stamp this replica has seen, its own and others': a
        // write made after seeing another is newer than it on every replica
        // (otherwise a slow clock would keep its write here and lose it
        // everywhere else), and one device's changes stay in order when its
        // clock goes back.
        // (Saturating: a stamp at the end of time is not a crash.)
        let timestamp = max(now(), state.lastTimestamp == .max ? .max : state.lastTimestamp + 1)
        state.lastClientVersion += 1
        let changeset = Changeset(clientFileIdent: state.clientFileIdent, clientVersion: state.lastClientVersion,
                                  lastServerVersion: state.lastServerVersion, timestamp: timestamp,
                                  firstSequence: state.nextSequence, instructions: instructions)
        state.lastTimestamp = timestamp
        state.nextSequence += UInt64(instructions.count)
        try SyncTables.appendHistory(changeset, transaction)
        try noteStamps(of: changeset, transaction)
        // After the stamps: a link or register this write wrote waits no
        // more, and keeps what the write gave it.
        try showArrivals(of: recorded, transaction)
        try SyncTables.save(state, transaction)
        pending.withLock { $0 = ([], 0) }
        // Noted a little early: a commit that then fails leaves a note
        // that the transaction's next commit announces, which costs a
        // session one look.
        unannounced.withLock { _ = $0.insert(ObjectIdentifier(transaction)) }
    }

    /// Shows the links that wait for an object this write created: one of
    /// a primary key, which is the object another replica's link named
    /// (Docs/SyncDesign.md, "Links to objects not here"). Not recorded:
    /// the links keep the stamps of the writes that named the object.
    private func showArrivals(of instructions: [Instruction], _ transaction: Transaction) throws(RealmError) {
        var created: [ObjectReference] = []
        for case .create(let className, let identity) in instructions {
            if case .primaryKey = identity { created.append(ObjectReference(className: className, identity: identity)) }
        }
        guard !created.isEmpty else { return }
        let (linksMayWait, membersMayLink) = (try PendingLinks.exist(transaction), try MemberRegisters.holdLinks(transaction))
        guard linksMayWait || membersMayLink else { return }
        try withoutRecording { () throws(RealmError) in
            for object in created {
                guard let key = try localKey(object.identity, object.className, transaction) else { continue }
                try LinkArrival.show(object, as: key, linksMayWait: linksMayWait, membersMayLink: membersMayLink, transaction)
            }
        }
    }

    /// Stores the stamps of the changeset's writes, against which other
    /// replicas' writes of the same property or element are compared later.
    private func noteStamps(of changeset: Changeset, _ transaction: Transaction) throws(RealmError) {
        var mirrors: [ListHandle: (ListMirror, String)] = [:]
        var linksMayWait: Bool?
        // A property or list element written here no longer waits for the
        // target another write named (a mixed value may take any value,
        // and an element of a list of them shows nil while it waits).
        func stopWaiting(_ link: PendingLinks.Link) throws(RealmError) {
            if linksMayWait == nil { linksMayWait = try PendingLinks.exist(transaction) }
            if linksMayWait == true { try PendingLinks.forget(link, transaction) }
        }
        for (index, instruction) in changeset.instructions.enumerated() {
            let stamp = changeset.stamp(ofInstruction: index)
            switch instruction {
            case .set(let className, let identity, let property, _):
                if let key = try localKey(identity, className, transaction) {
                    try SyncTables.setStamp(stamp, of: key, className: className, property: property, transaction)
                    try stopWaiting(PendingLinks.Link(className: className, owner: key, property: property))
                }
            case .setDefault(let className, let identity, let property, _):
                if let key = try localKey(identity, className, transaction) {
                    try SyncTables.setStamp(stamp.asDefault, of: key, className: className, property: property, transaction)
                }
            case .create(_, .embedded(let ownerClass, let owner, let property, _)):
                // Making an embedded object writes its owner's property, as
                // setting it to nil does (Docs/SyncDesign.md, "Embedded
                // objects"); an element of a list is stamped as the list's,
                // and a map's value is its key's register.
                guard let ownerKey = try localKey(owner, ownerClass, transaction) else { continue }
                let ownerHandle = try transaction.classHandle(named: ownerClass)
                let index = try transaction.propertyIndex(named: property, in: ownerHandle)
                guard try !transaction.objectSchema(ownerHandle).properties[index].isCollection else { continue }
                try SyncTables.setStamp(stamp, of: ownerKey, className: ownerClass, property: property, transaction)
            case .listInsert(let reference, let element, _, _), .listSet(let reference, let element, _), .listMove(let reference, let element, _):
                guard let ownerKey = try localKey(reference.owner, reference.ownerClass, transaction),
                      let (list, _) = try NestedNames.collection(storageProperty: reference.storageProperty, of: ownerKey,
                                                                 in: try transaction.classHandle(named: reference.ownerClass), transaction) else { continue }
                if mirrors[list] == nil, let stored = try ListMirror.stored(list, property: reference.storageProperty, transaction) {
                    mirrors[list] = (stored, reference.storageProperty)
                }
                guard case (var mirror, let property)? = mirrors[list], let position = mirror.index(of: element) else { continue }
                switch instruction {
                case .listInsert:
                    mirror.elements[position].valueStamp = stamp
                    mirror.elements[position].positionStamp = stamp
                case .listSet:
                    mirror.elements[position].valueStamp = stamp
                    try stopWaiting(PendingLinks.Link(className: reference.ownerClass, owner: ownerKey, property: property, element: element))
                default: mirror.elements[position].positionStamp = stamp
                }
                mirrors[list] = (mirror, property)
            case .listErase(let reference, let element):
                guard let ownerKey = try localKey(reference.owner, reference.ownerClass, transaction) else { continue }
                try stopWaiting(PendingLinks.Link(className: reference.ownerClass, owner: ownerKey, property: reference.storageProperty, element: element))
            case .listClear(let reference, let elements):
                guard let ownerKey = try localKey(reference.owner, reference.ownerClass, transaction) else { continue }
                for element in elements {
                    try stopWaiting(PendingLinks.Link(className: reference.ownerClass, owner: ownerKey, property: reference.storageProperty, element: element))
                }
            case .setInsert, .setErase, .mapSet, .mapErase:
                guard let write = MemberRegisters.Write(instruction, transaction.schema),
                      let owner = try localKey(write.reference.owner, write.reference.ownerClass, transaction) else { continue }
                try MemberRegisters.write(MemberRegisters.Register(member: write.member, value: write.value, stamp: stamp),
                                          of: MemberRegisters.Collection(className: write.reference.ownerClass, owner: owner,
                                                                         property: write.reference.storageProperty), transaction)
            default:
                break
            }
        }
        for (list, (mirror, property)) in mirrors { try mirror.save(list, property: property, transaction) }
    }

    /// `addClass` and `addProperty` for what the file's schema has and
    /// replication has not seen yet (all of it, the first time), noted as
    /// replicated.
    func schemaAdditions(_ transaction: Transaction) throws(RealmError) -> [Instruction] {
        let replicated = try SyncTables.replicatedSchema(transaction)
        var instructions: [Instruction] = []
        // Classes first: a property may link to a class added with it.
        for objectSchema in transaction.schema.objectSchemas where replicated[objectSchema.name] == nil {
            instructions.append(.addClass(ClassSpec(name: objectSchema.name, primaryKey: objectSchema.primaryKeyProperty?.name,
                                                    isEmbedded: objectSchema.isEmbedded)))
            try SyncTables.noteReplicated(className: objectSchema.name, property: "", transaction)
        }
        for objectSchema in transaction.schema.objectSchemas {
            let known = replicated[objectSchema.name]
            // Linking objects are computed on each replica, not replicated.
            for property in objectSchema.properties where property.type != .linkingObjects && known?.contains(property.name) != true {
                instructions.append(.addProperty(class: objectSchema.name, PropertySpec(property)))
                try SyncTables.noteReplicated(className: objectSchema.name, property: property.name, transaction)
            }
        }
        return instructions
    }

    // MARK: Changes to instructions

    /// What recording one change works with: the transaction, the file's
    /// sync state (saved once at the end), and the schemas read, so that
    /// one change reads each once.
    private struct Context {
        let transaction: Transaction
        var state: SyncState
        var schemas: [String: ObjectSchema] = [:]

        /// A new global key of this client file.
        mutating func newKey() -> GlobalKey {
            defer { state.nextCounter += 1 }
            return GlobalKey(client: state.clientFileIdent, counter: state.nextCounter)
        }

        mutating func schema(_ handle: ClassHandle) throws(RealmError) -> ObjectSchema {
            if let schema = schemas[handle.className] { return schema }
            let schema = try transaction.objectSchema(handle)
            schemas[handle.className] = schema
            return schema
        }
    }

    private func instructions(for change: ReplicatedChange, _ context: inout Context) throws(RealmError) -> [Instruction] {
        let transaction = context.transaction
        switch change {
        case .created(let handle, let key):
            let schema = try context.schema(handle)
            let identity: ObjectIdentity
            if let primaryKey = schema.primaryKeyProperty, let index = schema.properties.firstIndex(of: primaryKey) {
                let value = try SyncValue(scalar: try transaction.value(of: key, property: index, in: handle))
                // Made again after a deletion: a new incarnation, which the
                // deletion (replicated before) does not erase.
                identity = .primaryKey(value, incarnation: try incarnation(className: handle.className, primaryKey: value, transaction))
            } else {
                let global = context.newKey()
                try SyncTables.setGlobalKey(global, of: key, className: handle.className, transaction)
                identity = .global(global)
            }
            return [.create(class: handle.className, identity)] + (try initialValues(of: key, handle, identity, &context))
        case .createdEmbedded(let handle, let key, let owner, let ownerClass, let property, let listIndex):
            let ownerSchema = try context.schema(ownerClass)
            let propertyName = ownerSchema.properties[property].name
            var element: GlobalKey?
            var listInstructions: [Instruction] = []
            let ownerIdentity = try identity(of: owner, ownerClass, &context)
            if let listIndex {
                let list = ListHandle(owningClass: ownerClass, owner: owner, property: property)
                var mirror = try mirror(of: list, property: propertyName, count: try transaction.count(of: list) - 1, &context)
                let key = context.newKey()
                let (index, position) = mirror.insertion(atRow: listIndex, of: key)
                mirror.elements.insert(ListMirror.Element(key: key, position: position), at: index)
                try mirror.save(list, property: propertyName, transaction)
                element = key
                let reference = ListReference(ownerClass: ownerClass.className, owner: ownerIdentity, property: propertyName)
                listInstructions = [.listInsert(reference, element: key, position: position, .null)]
            } else {
                // Each embedded object made in a to-one property is one of its
                // own, never the one it replaces: a replica that missed the
                // replacement must not merge the two.
                element = context.newKey()
            }
            let identity = ObjectIdentity.embedded(ownerClass: ownerClass.className, owner: ownerIdentity, property: propertyName, element: element)
            try SyncTables.setEmbeddedIdentity(identity, of: key, className: handle.className, transaction)
            return listInstructions + [.create(class: handle.className, identity)] + (try initialValues(of: key, handle, identity, &context))
        case .set(let handle, let key, let property, let value):
            let schema = try context.schema(handle)
            let target = schema.properties[property].objectClassName
            return [.set(class: handle.className, try identity(of: key, handle, &context), property: schema.properties[property].name,
                         try syncValue(value, target: target, &context))]
        case .erased(let handle, let key):
            return try erase(key, handle, &context)
        case .erasedAll(let handle, let keys):
            var instructions: [Instruction] = []
            for key in keys { instructions += try erase(key, handle, &context) }
            return instructions
        case .listInserted(let list, let index, let value):
            var (mirror, reference, target) = try listState(list, countChange: -1, &context)
            let key = context.newKey()
            let (elementIndex, position) = mirror.insertion(atRow: index, of: key)
            let synced = try syncValue(value, target: target, &context)
            var element = ListMirror.Element(key: key, position: position)
            element.hold(value.objectKey, synced)
            mirror.elements.insert(element, at: elementIndex)
            try mirror.save(list, property: reference.storageProperty, transaction)
            return [.listInsert(reference, element: key, position: position, synced)]
        case .listSet(let list, let index, let value):
            var (mirror, reference, target) = try listState(list, countChange: 0, &context)
            let elementIndex = mirror.elementIndex(ofRow: index)
            let synced = try syncValue(value, target: target, &context)
            mirror.elements[elementIndex].hold(value.objectKey, synced)
            try mirror.save(list, property: reference.storageProperty, transaction)
            return [.listSet(reference, element: mirror.elements[elementIndex].key, synced)]
        case .listMoved(let list, let from, let to):
            var (mirror, reference, _) = try listState(list, countChange: 0, &context)
            let move = Self.move(&mirror, from: from, to: to, in: reference)
            try mirror.save(list, property: reference.storageProperty, transaction)
            return [move]
        case .listSwapped(let list, let first, let second):
            // Two moves, each to a new position key of its own: taking the
            // other element's key would give two elements one key, and
            // keys that end in another element's identity.
            let (low, high) = (min(first, second), max(first, second))
            guard low != high else { return [] }
            var (mirror, reference, _) = try listState(list, countChange: 0, &context)
            var moves = [Self.move(&mirror, from: high, to: low, in: reference)]
            if high - low > 1 { moves.append(Self.move(&mirror, from: low + 1, to: high, in: reference)) }
            try mirror.save(list, property: reference.storageProperty, transaction)
            return moves
        case .listErased(let list, let index):
            var (mirror, reference, _) = try listState(list, countChange: 1, &context)
            let element = mirror.elements.remove(at: mirror.elementIndex(ofRow: index))
            mirror.erased.insert(element.key)
            try mirror.save(list, property: reference.storageProperty, transaction)
            return [.listErase(reference, element: element.key)]
        case .listCleared(let list):
            let (mirror, reference, _) = try listState(list, countChange: nil, &context)
            try ListMirror(elements: [], erased: mirror.erased.union(mirror.elements.map(\.key)))
                .save(list, property: reference.storageProperty, transaction)
            return [.listClear(reference, elements: mirror.elements.map(\.key))]
        case .setInserted(let set, let value):
            let (reference, target) = try collectionState(set, &context)
            return [.setInsert(reference, try syncValue(value, target: target, &context))]
        case .setErased(let set, let value):
            let (reference, target) = try collectionState(set, &context)
            return [.setErase(reference, try syncValue(value, target: target, &context))]
        case .setCleared(let set):
            // The erase of each member this replica holds: what the
            // registers hold (links to objects not here among them) and
            // what the set shows. A member inserted elsewhere and not seen
            // here survives (Docs/SyncDesign.md, "Sets and maps").
            let (reference, target) = try collectionState(set, &context)
            var members: [[UInt8]: SyncValue] = [:]
            for register in try MemberRegisters.registers(of: try registers(of: set, &context), transaction) {
                if let value = register.value { members[register.member] = value }
            }
            let isMixed = try context.schema(set.owningClass).properties[set.property].type == .mixed
            for value in try transaction.setValues(of: set) {
                let synced = try syncValue(value, target: target, &context)
                members[MemberRegisters.member(of: synced, mixed: isMixed)] = synced
            }
            return members.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { .setErase(reference, $0.value) }
        case .mapSet(let map, let key, let value):
            let (reference, target) = try collectionState(map, &context)
            return [.mapSet(reference, key: key, try syncValue(value, target: target, &context))]
        case .mapErased(let map, let key):
            let (reference, _) = try collectionState(map, &context)
            return [.mapErase(reference, key: key)]
        case .mapCleared(let map):
            let (reference, _) = try collectionState(map, &context)
            // Keys by their bytes, as RealmCore and the registers tell them
            // apart (Swift's equality takes "é" and "e\u{301}" for one).
            var keys = Set(try transaction.entries(of: map).map { MemberRegisters.member(ofKey: $0.key) })
            for register in try MemberRegisters.registers(of: try registers(of: map, &context), transaction) where register.value != nil {
                keys.insert(register.member)
            }
            return keys.sorted { $0.lexicographicallyPrecedes($1) }.map { .mapErase(reference, key: String(decoding: $0, as: UTF8.self)) }
        case .createdEmbeddedInMap(let handle, let key, let map, let mapKey):
            // A write of the key's register naming a new embedded object of
            // its own, which its creation and values then fill
            // (Docs/SyncDesign.md, "Sets and maps").
            let (reference, _) = try collectionState(map, &context)
            let identity = ObjectIdentity.embedded(ownerClass: reference.ownerClass, owner: reference.owner, property: reference.property,
                                                   element: context.newKey())
            try SyncTables.setEmbeddedIdentity(identity, of: key, className: handle.className, transaction)
            return [.mapSet(reference, key: mapKey, .link(class: handle.className, identity)), .create(class: handle.className, identity)]
                + (try initialValues(of: key, handle, identity, &context))
        }
    }

    /// The `erase` of an object, forgetting what sync kept about it (and,
    /// for a primary key, ending its incarnation). An embedded object is
    /// not erased but taken from its owner: its owner's property set to
    /// nil, or its element erased from its owner's list, so that the rules
    /// of the owner's property or list decide (Docs/SyncDesign.md,
    /// "Embedded objects").
    private func erase(_ key: ObjectKey, _ handle: ClassHandle, _ context: inout Context) throws(RealmError) -> [Instruction] {
        if case .embedded(let ownerClass, let owner, let property, let element)? = try SyncTables.embeddedIdentity(
            of: key, className: handle.className, context.transaction),
            let ownerKey = try localKey(owner, ownerClass, context.transaction) {
            let transaction = context.transaction
            let ownerHandle = try transaction.classHandle(named: ownerClass)
            let index = try transaction.propertyIndex(named: property, in: ownerHandle)
            try SyncTables.forgetObject(key, className: handle.className, transaction)
            let ownerProperty = try context.schema(ownerHandle).properties[index]
            if ownerProperty.isMap {
                // Its key keeps nil, as RealmCore leaves it.
                let map = ListHandle(owningClass: ownerHandle, owner: ownerKey, property: index)
                let reference = ListReference(ownerClass: ownerClass, owner: owner, property: property)
                return try transaction.entries(of: map).filter { $0.value == .object(key) }.map { .mapSet(reference, key: $0.key, .null) }
            }
            guard ownerProperty.isList else {
                return [.set(class: ownerClass, owner, property: property, .null)]
            }
            let list = ListHandle(owningClass: ownerHandle, owner: ownerKey, property: index)
            var (mirror, reference, _) = try listState(list, countChange: 0, &context)
            // Still in the list: RealmCore drops it after this call.
            var position = element.flatMap { mirror.index(of: $0) }
            if position == nil, let row = try transaction.values(of: list).firstIndex(of: .object(key)) { position = mirror.elementIndex(ofRow: row) }
            guard let position else { return [] }
            let removed = mirror.elements.remove(at: position)
            mirror.erased.insert(removed.key)
            try mirror.save(list, property: reference.property, transaction)
            return [.listErase(reference, element: removed.key)]
        }
        let identity = try identity(of: key, handle, &context)
        if case .primaryKey(let value, let incarnation) = identity {
            classesWithoutIncarnations.withLock { _ = $0.remove(handle.className) }
            try SyncTables.endIncarnation(incarnation, className: handle.className, primaryKey: value, context.transaction)
        } else {
            // So that a creation of it arriving again is not applied again.
            try SyncTables.addTombstone(identity, className: handle.className, context.transaction)
        }
        try SyncTables.forgetObject(key, className: handle.className, context.transaction)
        return [.erase(class: handle.className, identity)]
    }

    /// Moves the element of row `from` to row `to` of the list without it,
    /// with a new position key there.
    private static func move(_ mirror: inout ListMirror, from: Int, to: Int, in reference: ListReference) -> Instruction {
        var element = mirror.elements.remove(at: mirror.elementIndex(ofRow: from))
        let (index, position) = mirror.insertion(atRow: to, of: element.key)
        element.position = position
        element.positionStamp = nil
        mirror.elements.insert(element, at: index)
        return .listMove(reference, element: element.key, position: element.position)
    }

    /// A `set` for each column property of a new object but its primary
    /// key, so that a replica makes the same object: a `setDefault` for a
    /// value that is the property's default (nil, zero, empty), which
    /// loses to every `set` of another replica creating the same primary
    /// key (Docs/SyncDesign.md, "Defaults").
    private func initialValues(of key: ObjectKey, _ handle: ClassHandle, _ identity: ObjectIdentity,
                               _ context: inout Context) throws(RealmError) -> [Instruction] {
        let schema = try context.schema(handle)
        let values = try context.transaction.values(of: key, in: handle)
        var instructions: [Instruction] = []
        for (index, property) in schema.properties.enumerated() where property.isColumn && !property.isPrimaryKey {
            // An embedded object's link is its own `create`.
            if let target = property.objectClassName, try context.schema(try context.transaction.classHandle(named: target)).isEmbedded { continue }
            let value = try syncValue(values[index], target: property.objectClassName, &context)
            if values[index] == property.defaultValue {
                instructions.append(.setDefault(class: handle.className, identity, property: property.name, value))
            } else {
                instructions.append(.set(class: handle.className, identity, property: property.name, value))
            }
        }
        return instructions
    }

    /// The list's mirror before the change, its reference, and its link
    /// target. `countChange` is the list's length before the change less
    /// its length now; nil for a clear, whose mirror is what was stored.
    private func listState(_ list: ListHandle, countChange: Int?,
                           _ context: inout Context) throws(RealmError) -> (ListMirror, ListReference, String?) {
        let (reference, target) = try collectionState(list, &context)
        let mirror: ListMirror
        if let countChange {
            mirror = try self.mirror(of: list, property: reference.storageProperty, count: try context.transaction.count(of: list) + countChange,
                                     &context)
        } else {
            mirror = try ListMirror.stored(list, property: reference.storageProperty, context.transaction) ?? ListMirror(elements: [])
        }
        return (mirror, reference, target)
    }

    /// A collection's reference (naming a nested one), and its link target.
    private func collectionState(_ collection: ListHandle, _ context: inout Context) throws(RealmError) -> (ListReference, String?) {
        let property = try context.schema(collection.owningClass).properties[collection.property]
        let reference = ListReference(ownerClass: collection.owningClass.className,
                                      owner: try identity(of: collection.owner, collection.owningClass, &context), property: property.name,
                                      nested: try collection.nested.map { (nested) throws(RealmError) in try name(of: nested, &context) })
        // A nested collection holds mixed values, which name their class.
        return (reference, collection.nested == nil ? property.objectClassName : nil)
    }

    /// Where the registers of a set or map are kept.
    private func registers(of collection: ListHandle, _ context: inout Context) throws(RealmError) -> MemberRegisters.Collection {
        MemberRegisters.Collection(className: collection.owningClass.className, owner: collection.owner,
                                   property: try collectionState(collection, &context).0.storageProperty)
    }

    /// The name of a nested collection: the one sync gave it, or a new one
    /// for a collection it has not named, made by the change being
    /// recorded (Docs/SyncDesign.md, "Nested collections").
    private func name(of collection: NestedCollection, _ context: inout Context) throws(RealmError) -> GlobalKey {
        let transaction = context.transaction
        if let name = try NestedNames.name(of: collection, transaction) { return name }
        guard let root = try transaction.handle(of: collection) else {
            throw RealmError(.objectNotFound, "\(collection) no longer exists, so sync cannot name it.")
        }
        let name = context.newKey()
        try NestedNames.note(name, for: collection, in: root, transaction)
        return name
    }

    /// The stored mirror of a list of `count` elements, or a new one naming
    /// them (a list filled before the file was synced).
    private func mirror(of list: ListHandle, property: String, count: Int, _ context: inout Context) throws(RealmError) -> ListMirror {
        if let stored = try ListMirror.stored(list, property: property, context.transaction) {
            let transaction = context.transaction
            let reconciled = try stored.reconciled(withCount: count) { (key: Int64, incarnation: UInt32?) throws(RealmError) -> Bool in
                try ListMirror.objectExists(key, incarnation: incarnation, in: list, transaction)
            }
            if reconciled.rowCount == count { return reconciled }
        }
        var mirror = ListMirror(elements: [])
        for _ in 0..<max(0, count) {
            let key = context.newKey()
            mirror.elements.append(ListMirror.Element(key: key, position: PositionKey.between(mirror.elements.last?.position, and: nil, for: key)))
        }
        return mirror
    }

    private func syncValue(_ value: Value, target: String?, _ context: inout Context) throws(RealmError) -> SyncValue {
        switch value {
        case .object(let key) where target != nil:
            return .link(class: target!, try identity(of: key, try context.transaction.classHandle(named: target!), &context))
        case .link(let className, let key):
            // A mixed value's link.
            return .link(class: className, try identity(of: key, try context.transaction.classHandle(named: className), &context))
        case .collection(let collection):
            // A new nested collection, named now.
            return NestedNames.value(collection.kind, named: try name(of: collection, &context))
        default:
            return try SyncValue(scalar: value)
        }
    }

    /// How replicas name a local object.
    private func identity(of key: ObjectKey, _ handle: ClassHandle, _ context: inout Context) throws(RealmError) -> ObjectIdentity {
        let schema = try context.schema(handle)
        if let primaryKey = schema.primaryKeyProperty, let index = schema.properties.firstIndex(of: primaryKey) {
            let value = try SyncValue(scalar: try context.transaction.value(of: key, property: index, in: handle))
            return .primaryKey(value, incarnation: try incarnation(className: handle.className, primaryKey: value, context.transaction))
        }
        if let identity = try SyncTables.embeddedIdentity(of: key, className: handle.className, context.transaction) {
            return identity
        }
        if let global = try SyncTables.globalKey(of: key, className: handle.className, context.transaction) {
            return .global(global)
        }
        // An object made before the file was synced: named now.
        let global = context.newKey()
        try SyncTables.setGlobalKey(global, of: key, className: handle.className, context.transaction)
        return .global(global)
    }

    /// The local key of an object named by `identity`, if this replica has
    /// it (for stamps).
    private func localKey(_ identity: ObjectIdentity, _ className: String, _ transaction: Transaction) throws(RealmError) -> ObjectKey? {
        switch identity {
        case .global(let global): try SyncTables.localKey(of: global, className: className, transaction)
        case .primaryKey(let value, let incarnation):
            // Not an ended incarnation's (deleted and made again in the
            // same write): the new object has stamps of its own.
            try incarnation == self.incarnation(className: className, primaryKey: value, transaction)
                ? transaction.object(withPrimaryKey: value.coreValue(), in: transaction.classHandle(named: className)) : nil
        case .embedded: try SyncTables.localKey(ofEmbedded: identity, className: className, transaction)
        }
    }
}
