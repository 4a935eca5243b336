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
///   object this replica does not have reads as nil until the object
///   arrives (``PendingLinks``).
///
/// - list elements are placed by their position keys, moved and set by
///   last writer wins, erased for good; an element whose object is gone
///   is hidden (it keeps its place and stamps, and shows again when the
///   object arrives or a later write gives it an object this replica has),
///   except in a list of mixed values, where it shows nil meanwhile;
/// - a nested list or dictionary is a value of its own, made where the
///   value is applied, and found by its name (``NestedNames``);
/// - set members and map keys are registers (``MemberRegisters``), last
///   writer wins per member or key; what the set or map shows follows
///   from them and from the objects this replica has.
///
/// `addInteger` is not integrated yet: a changeset holding one is refused,
/// as a bad changeset, rather than applied in part.
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
        try apply([(serverVersion, changeset)], in: transaction, recorder: recorder)
    }

    /// Applies `changesets` in order, as ``apply(_:serverVersion:in:recorder:)``
    /// applies each, noting once that they are integrated (a state
    /// download brings many small ones).
    package static func apply(_ changesets: [(serverVersion: UInt64, changeset: Changeset)], in transaction: Transaction,
                              recorder: ChangesetRecorder) throws(RealmError) {
        guard !changesets.isEmpty else { return }
        // One atomic step for the batch, so that the operations inside take
        // no savepoint each: a failure fails the whole write anyway.
        try recorder.withoutRecording { () throws(RealmError) in try transaction.atomically { () throws(RealmError) in
            var applier = Applier(transaction: transaction)
            var newestTimestamp = Int64.min
            for (_, changeset) in changesets {
                applier.lastObject = nil
                for (index, instruction) in changeset.instructions.enumerated() {
                    try applier.apply(instruction, stamp: changeset.stamp(ofInstruction: index))
                }
                newestTimestamp = max(newestTimestamp, changeset.timestamp)
            }
            try applier.insertUnborn()
            let newestVersion = changesets.map(\.serverVersion).max() ?? 0
            try SyncTables.noteIntegrated(serverVersion: newestVersion, timestamp: newestTimestamp, transaction)
        } }
    }

    private struct Applier {
        let transaction: Transaction
        /// Classes made by this changeset's `addClass` whose primary key
        /// property its `addProperty` has not added yet.
        var pendingPrimaryKeys: [String: String] = [:]
        /// The object the last `create` or `set` resolved: a changeset sets
        /// an object's properties one after another, and a state download
        /// follows each creation with its values. Only `create` and `set`
        /// keep it; they neither delete objects nor end incarnations.
        var lastObject: (className: String, identity: ObjectIdentity, key: ObjectKey, isNew: Bool)?
        /// A top-level object a `create` found new, not inserted yet.
        var unborn: Unborn?
        let incarnations = Incarnations()
        /// Whether links wait for their targets (``PendingLinks``).
        let waiting = Existence { (transaction) throws(RealmError) in try PendingLinks.exist(transaction) }
        /// Whether set or map registers hold links (``MemberRegisters``).
        let memberLinks = Existence { (transaction) throws(RealmError) in try MemberRegisters.holdLinks(transaction) }

        /// The current incarnations of primary keys, asking the file only
        /// about classes where a key has ended one (most never have): a
        /// state download names every object by its primary key.
        final class Incarnations {
            private var classesWithout: Set<String> = []

            func current(className: String, primaryKey: SyncValue, _ transaction: Transaction) throws(RealmError) -> UInt32 {
                if classesWithout.contains(className) { return 0 }
                if try !SyncTables.hasIncarnations(className: className, transaction) {
                    classesWithout.insert(className)
                    return 0
                }
                return try SyncTables.incarnation(className: className, primaryKey: primaryKey, transaction)
            }

            /// A key of `className` has a new incarnation.
            func changed(className: String) {
                classesWithout.remove(className)
            }
        }

        /// Whether the file has rows of some kind, asked once (most files
        /// never have any) and kept true once this applier writes one.
        final class Existence {
            private var known: Bool?
            private let probe: (Transaction) throws(RealmError) -> Bool

            init(_ probe: @escaping (Transaction) throws(RealmError) -> Bool) {
                self.probe = probe
            }

            func mayExist(_ transaction: Transaction) throws(RealmError) -> Bool {
                if let known { return known }
                let found = try probe(transaction)
                known = found
                return found
            }

            func noted() {
                known = true
            }
        }

        /// A new top-level object and the values the `set`s after its
        /// `create` gave it: inserted once with them (``insertUnborn()``),
        /// rather than with defaults and then updated property by property.
        /// A state download follows every creation with its values, in
        /// changesets of their own (their stamps are others'), so an unborn
        /// object lives on from one changeset of a batch to the next.
        struct Unborn {
            let className: String
            let identity: ObjectIdentity
            let handle: ClassHandle
            /// The identity to note, for an object without a primary key.
            let global: GlobalKey?
            var values: [String: Value]
            var stamps: [String: Stamp] = [:]
        }

        mutating func apply(_ instruction: Instruction, stamp: Stamp) throws(RealmError) {
            if unborn != nil {
                switch instruction {
                case .set(let className, let identity, let property, let value):
                    if try gather(value, of: identity, className, property: property, stamp: stamp) { return }
                case .setDefault(let className, let identity, let property, let value):
                    if try gather(value, of: identity, className, property: property, stamp: stamp.asDefault) { return }
                default:
                    break
                }
                try insertUnborn()
            }
            switch instruction {
            case .create, .set, .setDefault: break
            default: lastObject = nil
            }
            switch instruction {
            case .addClass(let spec):
                try addClass(spec)
            case .addProperty(let className, let spec):
                try addProperty(spec, to: className)
            case .create(let className, let identity):
                try create(identity, className, stamp: stamp)
            case .erase(let className, let identity):
                try erase(identity, className, stamp: stamp)
            case .set(let className, let identity, let property, let value):
                try set(value, of: identity, className, property: property, stamp: stamp)
            case .setDefault(let className, let identity, let property, let value):
                try set(value, of: identity, className, property: property, stamp: stamp.asDefault)
            case .listInsert(let reference, let element, let position, let value):
                try listInsert(value, element: element, at: position, in: reference, stamp: stamp)
            case .listSet(let reference, let element, let value):
                try listSet(value, element: element, in: reference, stamp: stamp)
            case .listMove(let reference, let element, let position):
                try listMove(element, to: position, in: reference, stamp: stamp)
            case .listErase(let reference, let element):
                try listErase([element], in: reference)
            case .listClear(let reference, let elements):
                try listErase(elements, in: reference)
            case .addInteger:
                throw Self.badChangeset("integer additions are not integrated yet")
            case .setInsert(let reference, let value):
                try setWrite(value, present: true, in: reference, stamp: stamp)
            case .setErase(let reference, let value):
                try setWrite(value, present: false, in: reference, stamp: stamp)
            case .mapSet(let reference, let key, let value):
                try mapWrite(value, forKey: key, in: reference, stamp: stamp)
            case .mapErase(let reference, let key):
                try mapWrite(nil, forKey: key, in: reference, stamp: stamp)
            }
        }

        // MARK: Schema

        private mutating func addClass(_ spec: ClassSpec) throws(RealmError) {
            if let existing = transaction.schema[spec.name] {
                let primaryKey = existing.primaryKeyProperty?.name ?? pendingPrimaryKeys[spec.name]
                guard primaryKey == spec.primaryKey, existing.isEmbedded == spec.isEmbedded else {
                    throw Self.badChangeset("class '\(spec.name)' already exists with another primary key or kind")
                }
            } else {
                // The primary key property comes with the `addProperty`
                // instructions that follow.
                pendingPrimaryKeys[spec.name] = spec.primaryKey
                var schema = transaction.schema
                schema.upsert(ObjectSchema(name: spec.name, properties: [], isEmbedded: spec.isEmbedded))
                try transaction.applySchema(schema, schemaVersion: transaction.schemaVersion)
            }
            try SyncTables.noteReplicated(className: spec.name, property: "", transaction)
        }

        private mutating func addProperty(_ spec: PropertySpec, to className: String) throws(RealmError) {
            guard var objectSchema = transaction.schema[className] else {
                throw Self.badChangeset("property '\(spec.name)' of class '\(className)', which no addClass made")
            }
            guard let type = PropertyType(rawValue: spec.type) else {
                throw Self.badChangeset("property '\(className).\(spec.name)' has an unknown type '\(spec.type)'")
            }
            if let existing = objectSchema.properties.first(where: { $0.name == spec.name }) {
                guard existing.type == type, existing.isOptional == spec.isOptional, existing.isList == spec.isList,
                      existing.isSet == spec.isSet, existing.isMap == spec.isMap, existing.objectClassName == spec.target else {
                    throw Self.badChangeset("property '\(className).\(spec.name)' exists as \(existing.typeDescription); a changeset makes it '\(spec.type)'")
                }
            } else {
                let isPrimaryKey = pendingPrimaryKeys[className] == spec.name
                if isPrimaryKey { pendingPrimaryKeys[className] = nil }
                objectSchema.properties.append(Property(name: spec.name, type: type, isOptional: spec.isOptional, isList: spec.isList,
                                                        isSet: spec.isSet, isMap: spec.isMap, objectClassName: spec.target,
                                                        isPrimaryKey: isPrimaryKey))
                var schema = transaction.schema
                schema.upsert(objectSchema)
                try transaction.applySchema(schema, schemaVersion: transaction.schemaVersion)
            }
            try SyncTables.noteReplicated(className: className, property: spec.name, transaction)
        }

        // MARK: Objects

        private mutating func create(_ identity: ObjectIdentity, _ className: String, stamp: Stamp) throws(RealmError) {
            lastObject = nil
            let handle = try transaction.classHandle(named: className)
            switch identity {
            case .primaryKey(let value, let incarnation):
                let current = try incarnations.current(className: className, primaryKey: value, transaction)
                // An incarnation this replica saw erased: delete won.
                guard incarnation >= current else { return }
                if let existing = try transaction.object(withPrimaryKey: try value.coreValue(), in: handle) {
                    // The same object, made by two replicas: one object.
                    // One made here may be what a link waits for.
                    if incarnation == current { return try arrived(ObjectReference(className: className, identity: identity), as: existing) }
                    throw Self.badChangeset("object \(value) of '\(className)' exists as an older incarnation than a creation names")
                }
                try SyncTables.setIncarnation(incarnation, className: className, primaryKey: value, transaction)
                if incarnation > 0 { incarnations.changed(className: className) }
                guard let primaryKey = try transaction.objectSchema(handle).primaryKeyProperty else {
                    throw Self.badChangeset("class '\(className)' has no primary key, but a creation names one")
                }
                // The other properties take their defaults, or the values
                // the sets that follow give them.
                unborn = Unborn(className: className, identity: identity, handle: handle, global: nil,
                                values: [primaryKey.name: try value.coreValue()])
            case .global(let global):
                guard try SyncTables.localKey(of: global, className: className, transaction) == nil,
                      try !SyncTables.isTombstoned(identity, className: className, transaction) else { return }
                unborn = Unborn(className: className, identity: identity, handle: handle, global: global, values: [:])
            case .embedded(let ownerClass, let owner, let property, _):
                guard let ownerKey = try localKey(owner, ownerClass) else { return }
                let ownerHandle = try transaction.classHandle(named: ownerClass)
                let propertyIndex = try transaction.propertyIndex(named: property, in: ownerHandle)
                // An embedded object in a list was made by its `listInsert`,
                // which comes first.
                let ownerProperty = try transaction.objectSchema(ownerHandle).properties[propertyIndex]
                guard ownerProperty.objectClassName == className, transaction.schema[className]?.isEmbedded == true else {
                    throw Self.badChangeset("'\(ownerClass).\(property)' does not hold embedded '\(className)' objects")
                }
                // One in a map was made by its `mapSet`, which comes first,
                // if that write won.
                guard !ownerProperty.isList, !ownerProperty.isMap else { return }
                // One in a to-one property is a write of that property: the
                // later of it and the property's other writes (other
                // embedded objects, nil) wins.
                if let last = try SyncTables.stamp(of: ownerKey, className: ownerClass, property: property, transaction), last >= stamp { return }
                if case .object(let replaced) = try transaction.value(of: ownerKey, property: propertyIndex, in: ownerHandle) {
                    try SyncTables.forgetObject(replaced, className: className, transaction)
                }
                let key = try transaction.createEmbeddedObject(in: ownerHandle, owner: ownerKey, property: propertyIndex)
                try SyncTables.setEmbeddedIdentity(identity, of: key, className: className, transaction)
                try SyncTables.setStamp(stamp, of: ownerKey, className: ownerClass, property: property, transaction)
                lastObject = (className, identity, key, true)
            }
        }

        /// Gives the unborn object the value of a `set` naming it; false
        /// (nothing done) for a set it cannot take: of another object, of a
        /// primary key, a collection, linking objects, a link (a mixed
        /// value's too; it may name the unborn object itself) or a nested
        /// collection, all applied
        /// as sets of an object that exists.
        private mutating func gather(_ value: SyncValue, of identity: ObjectIdentity, _ className: String, property: String,
                                     stamp: Stamp) throws(RealmError) -> Bool {
            guard let unborn, unborn.identity == identity, unborn.className == className else { return false }
            if case .link = value { return false }
            if value.isNestedCollection { return false }
            let schema = try transaction.objectSchema(unborn.handle)
            let index = try transaction.propertyIndex(named: property, in: unborn.handle)
            let target = schema.properties[index]
            guard !target.isCollection, !target.isPrimaryKey, target.type != .object, target.type != .linkingObjects else { return false }
            // Last writer wins among the sets gathered, as among writes of
            // an object that exists.
            if let gathered = unborn.stamps[property], gathered >= stamp { return true }
            let coreValue = try value.coreValue()
            self.unborn?.values[property] = coreValue
            self.unborn?.stamps[property] = stamp
            return true
        }

        /// Inserts the unborn object, if any, with the values gathered.
        mutating func insertUnborn() throws(RealmError) {
            guard let unborn else { return }
            self.unborn = nil
            let key = try transaction.createObject(ofClass: unborn.className, values: unborn.values)
            if let global = unborn.global {
                try SyncTables.setGlobalKey(global, of: key, className: unborn.className, transaction)
            }
            for (property, stamp) in unborn.stamps {
                try SyncTables.setStamp(stamp, of: key, className: unborn.className, property: property, transaction)
            }
            try arrived(ObjectReference(className: unborn.className, identity: unborn.identity), as: key)
            lastObject = (unborn.className, unborn.identity, key, true)
        }

        private mutating func erase(_ identity: ObjectIdentity, _ className: String, stamp: Stamp) throws(RealmError) {
            let handle = try transaction.classHandle(named: className)
            if case .embedded(let ownerClass, let owner, let property, let element) = identity {
                // Taken from its owner, as the recorder records it: by the
                // rules of the owner's list or property.
                guard try localKey(owner, ownerClass) != nil else { return }
                let ownerHandle = try transaction.classHandle(named: ownerClass)
                let ownerProperty = try transaction.objectSchema(ownerHandle).properties[try transaction.propertyIndex(named: property, in: ownerHandle)]
                guard ownerProperty.objectClassName == className else {
                    throw Self.badChangeset("'\(ownerClass).\(property)' does not hold '\(className)' objects")
                }
                if ownerProperty.isList {
                    if let element { try listErase([element], in: ListReference(ownerClass: ownerClass, owner: owner, property: property)) }
                } else if ownerProperty.isMap {
                    // Its key's writes decide (the recorder records its
                    // deletion as the key's MapSet to nil); an erase naming
                    // the object would depend on which object the key holds
                    // when it arrives.
                    throw Self.badChangeset("an embedded object of map '\(ownerClass).\(property)' is erased as an object")
                } else if try localKey(identity, className) != nil {
                    try set(.null, of: owner, ownerClass, property: property, stamp: stamp)
                }
                return
            }
            if case .primaryKey(let value, let incarnation) = identity {
                let current = try incarnations.current(className: className, primaryKey: value, transaction)
                guard incarnation == current else { return }
                if let key = try transaction.object(withPrimaryKey: try value.coreValue(), in: handle) {
                    try transaction.deleteObject(key, in: handle)
                    try SyncTables.forgetObject(key, className: className, transaction)
                }
                try SyncTables.endIncarnation(incarnation, className: className, primaryKey: value, transaction)
                incarnations.changed(className: className)
                try stopWaiting(for: ObjectReference(className: className, identity: identity))
                return
            }
            if let key = try localKey(identity, className) {
                try transaction.deleteObject(key, in: handle)
                try SyncTables.forgetObject(key, className: className, transaction)
            }
            try SyncTables.addTombstone(identity, className: className, transaction)
            try stopWaiting(for: ObjectReference(className: className, identity: identity))
        }

        private mutating func set(_ value: SyncValue, of identity: ObjectIdentity, _ className: String, property: String,
                                  stamp: Stamp) throws(RealmError) {
            let key: ObjectKey
            // An object this changeset has just made has no stamps yet.
            var isNew = false
            if let last = lastObject, last.identity == identity, last.className == className {
                (key, isNew) = (last.key, last.isNew)
            } else {
                guard let found = try localKey(identity, className) else { return }
                key = found
                lastObject = (className, identity, key, false)
            }
            if !isNew, let last = try SyncTables.stamp(of: key, className: className, property: property, transaction), last >= stamp { return }
            let handle = try transaction.classHandle(named: className)
            let index = try transaction.propertyIndex(named: property, in: handle)
            let coreValue: Value
            let link = PendingLinks.Link(className: className, owner: key, property: property)
            switch value {
            case .link(let targetClass, let target):
                let isMixed = try transaction.objectSchema(handle).properties[index].type == .mixed
                if isMixed, transaction.schema[targetClass]?.isEmbedded != false || !target.isTopLevel {
                    throw Self.badChangeset("'\(className).\(property)' is given a link to '\(targetClass)', which is no top-level class")
                }
                // A link to an object this replica does not have is nil, as
                // links to deleted objects are, until the object arrives.
                if let found = try localKey(target, targetClass) {
                    coreValue = Value.link(to: found, of: targetClass, mixed: isMixed)
                    try stopWaiting(link)
                } else {
                    coreValue = .null
                    try wait(link, for: ObjectReference(className: targetClass, identity: target))
                }
            case .nestedList, .nestedDictionary:
                let schema = try transaction.objectSchema(handle).properties[index]
                guard schema.type == .mixed && !schema.isCollection, let (kind, name) = value.nestedCollection else {
                    throw Self.badChangeset("'\(className).\(property)' is given \(value), which only a mixed value holds")
                }
                try stopWaiting(link)
                try noteNested(try transaction.setNestedCollection(kind, of: key, property: index, in: handle), named: name)
                try SyncTables.setStamp(stamp, of: key, className: className, property: property, transaction)
                return
            case .null:
                coreValue = .null
                try stopWaiting(link)
            default:
                coreValue = try value.coreValue()
                // A mixed property that waited for a link takes a value.
                try stopWaiting(link)
            }
            try transaction.setValue(coreValue, of: key, property: index, in: handle)
            try SyncTables.setStamp(stamp, of: key, className: className, property: property, transaction)
        }

        // MARK: Lists

        /// A list of this replica named by `reference`: its handle, its
        /// property's name and whether it holds embedded objects (with
        /// their class); nil when the owner is gone or not here.
        private func resolve(_ reference: ListReference) throws(RealmError) -> ResolvedList? {
            guard let owner = try localKey(reference.owner, reference.ownerClass) else { return nil }
            let handle = try transaction.classHandle(named: reference.ownerClass)
            let index = try transaction.propertyIndex(named: reference.property, in: handle)
            let property = try transaction.objectSchema(handle).properties[index]
            let name = "\(reference.ownerClass).\(reference.property)"
            if let nested = reference.nested {
                guard let list = try nestedCollection(nested, kind: .list, of: owner, handle, index, property, name) else { return nil }
                return ResolvedList(list: list, name: name, targetClass: nil, isEmbedded: false, knownClasses: topLevelClasses())
            }
            guard property.isList else { throw Self.badChangeset("'\(name)' is not a list") }
            let isEmbedded = property.objectClassName.map { transaction.schema[$0]?.isEmbedded == true } ?? false
            return ResolvedList(list: ListHandle(owningClass: handle, owner: owner, property: index), name: name,
                                targetClass: property.objectClassName, isEmbedded: isEmbedded,
                                knownClasses: property.type == .mixed ? topLevelClasses() : nil)
        }

        /// The nested collection `name` names, of `kind`, in the mixed
        /// property `index` of `owner`; nil when this replica does not have
        /// it (the value that made it lost its place). A name of another
        /// kind, or of a collection elsewhere, is a bad changeset.
        private func nestedCollection(_ name: GlobalKey, kind: NestedCollection.Kind, of owner: ObjectKey, _ handle: ClassHandle, _ index: Int,
                                      _ property: Property, _ propertyName: String) throws(RealmError) -> ListHandle? {
            guard property.type == .mixed else { throw Self.badChangeset("'\(propertyName)' holds no nested collection") }
            guard let collection = try NestedNames.collection(named: name, transaction) else { return nil }
            guard collection.nested?.kind == kind, collection.owningClass.className == handle.className, collection.owner == owner,
                  collection.property == index else {
                throw Self.badChangeset("the nested collection \(name) is no \(kind == .list ? "list" : "dictionary") of '\(propertyName)' of this object")
            }
            return collection
        }

        /// The top-level classes of the file: what a mixed value may link to.
        private func topLevelClasses() -> Set<String> {
            Set(transaction.schema.objectSchemas.filter { !$0.isEmbedded }.map(\.name))
        }

        /// A list of this replica, and what its elements hold.
        private struct ResolvedList {
            let list: ListHandle
            let name: String
            /// The class of the objects it holds; nil for a list of values.
            let targetClass: String?
            let isEmbedded: Bool
            /// For a list of mixed values, the classes its links may name:
            /// the file's top-level classes.
            let knownClasses: Set<String>?
            var embeddedClass: String? { isEmbedded ? targetClass : nil }
            var isMixed: Bool { knownClasses != nil }

            /// Checks that `value` is what an element of this list can
            /// hold: a link to its class exactly when it holds objects; in a
            /// list of mixed values, anything, a link to a top-level object
            /// of the file's classes included.
            func check(_ value: SyncValue) throws(RealmError) {
                let fits = switch (value, targetClass) {
                case (.link(let linked, let identity), _) where knownClasses != nil: identity.isTopLevel && knownClasses!.contains(linked)
                case (.nestedList, _), (.nestedDictionary, _): knownClasses != nil
                case (.link(let linked, _), let target?): !isEmbedded && linked == target
                case (.null, _?): isEmbedded
                case (.link, nil), (_, _?): false
                default: true
                }
                guard fits else { throw ChangesetApplier.Applier.badChangeset("an element of list '\(name)' holds \(value)") }
            }

            /// Checks a position key from a changeset: one a replica can
            /// have made (not empty, not ending in a zero byte) and that no
            /// other element of `mirror` has.
            func check(_ position: PositionKey, for element: GlobalKey, in mirror: ListMirror) throws(RealmError) {
                guard let last = position.bytes.last, last != 0,
                      !mirror.elements.contains(where: { $0.position == position && $0.key != element }) else {
                    throw ChangesetApplier.Applier.badChangeset("list '\(name)' is given the position \(position), which is malformed or taken")
                }
            }
        }

        /// The list's mirror, in step with its rows.
        private func mirror(_ list: ListHandle, _ property: String) throws(RealmError) -> ListMirror {
            guard let mirror = try ListMirror.inStep(with: list, property: property, transaction) else {
                throw Self.badChangeset("list '\(list.owningClass.className).\(property)' holds elements that sync does not know")
            }
            return mirror
        }

        /// The local object a list element's value names, for a list of
        /// objects: nil when this replica does not have it (the element is
        /// hidden then).
        private func target(of value: SyncValue) throws(RealmError) -> ObjectKey?? {
            guard case .link(let targetClass, let targetIdentity) = value else { return .none }
            return .some(try localKey(targetIdentity, targetClass))
        }

        /// Notes the name of the nested collection `made` (its handle).
        /// A name already naming a collection that is still here is a bad
        /// changeset: every creation names a collection of its own (a
        /// changeset delivered again never gets this far, its stamps stop
        /// it), and taking the name from the other would leave that one
        /// unnamed.
        private func noteNested(_ made: ListHandle, named name: GlobalKey) throws(RealmError) {
            if let existing = try NestedNames.collection(named: name, transaction), existing.nested != made.nested {
                throw Self.badChangeset("the nested collection \(name) is made twice")
            }
            try NestedNames.note(name, for: made.nested!, in: made, transaction)
        }

        /// What an element of a list of mixed values shows for `value`: a
        /// link's object when this replica has it, else nil, `link`
        /// waiting for it; the value itself otherwise (`link` waits no
        /// more).
        private func shownMixed(_ value: SyncValue, waiting link: PendingLinks.Link) throws(RealmError) -> Value {
            guard case .link(let targetClass, let target) = value else {
                try stopWaiting(link)
                return try value.coreValue()
            }
            guard let key = try localKey(target, targetClass) else {
                try wait(link, for: value)
                return .null
            }
            try stopWaiting(link)
            return .link(className: targetClass, key: key)
        }

        private func listInsert(_ value: SyncValue, element: GlobalKey, at position: PositionKey, in reference: ListReference,
                                stamp: Stamp) throws(RealmError) {
            guard let resolved = try resolve(reference) else { return }
            let (list, embeddedClass) = (resolved.list, resolved.embeddedClass)
            try resolved.check(value)
            var mirror = try mirror(list, reference.storageProperty)
            // Inserted already (a changeset delivered again), or erased.
            guard mirror.index(of: element) == nil, !mirror.erased.contains(element) else { return }
            try resolved.check(position, for: element, in: mirror)
            let index = mirror.insertionIndex(for: position)
            let row = mirror.row(ofElementAt: index)
            var target: Int64?
            var isHidden = false
            if let embeddedClass {
                let key = try transaction.insertEmbeddedObject(at: row, in: list)
                let identity = ObjectIdentity.embedded(ownerClass: reference.ownerClass, owner: reference.owner, property: reference.property,
                                                       element: element)
                try SyncTables.setEmbeddedIdentity(identity, of: key, className: embeddedClass, transaction)
            } else if resolved.isMixed, let (kind, name) = value.nestedCollection {
                try noteNested(try transaction.insertNestedCollection(kind, at: row, in: list), named: name)
            } else if resolved.isMixed {
                // A mixed value's link to an object not here is nil, as
                // RealmCore leaves a link to a deleted object, and waits.
                try transaction.insert(try shownMixed(value, waiting: PendingLinks.Link(
                    className: reference.ownerClass, owner: list.owner, property: reference.storageProperty, element: element)), at: row, in: list)
            } else if let linked = try self.target(of: value) {
                // An object this replica does not have (deleted): the
                // element is hidden until a write gives it another.
                if let key = linked {
                    try transaction.insert(.object(key), at: row, in: list)
                    target = key.rawValue
                } else {
                    isHidden = true
                    try wait(PendingLinks.Link(className: reference.ownerClass, owner: list.owner, property: reference.storageProperty, element: element),
                             for: value)
                }
            } else {
                try transaction.insert(try value.coreValue(), at: row, in: list)
            }
            var inserted = ListMirror.Element(key: element, position: position, valueStamp: stamp, positionStamp: stamp, isHidden: isHidden)
            inserted.hold(target, value)
            mirror.elements.insert(inserted, at: index)
            try mirror.save(list, property: reference.storageProperty, transaction)
        }

        private func listSet(_ value: SyncValue, element: GlobalKey, in reference: ListReference, stamp: Stamp) throws(RealmError) {
            guard let resolved = try resolve(reference), !resolved.isEmbedded else { return }
            let list = resolved.list
            try resolved.check(value)
            var mirror = try mirror(list, reference.storageProperty)
            guard let index = mirror.index(of: element) else { return }
            if let last = mirror.elements[index].valueStamp, last >= stamp { return }
            let row = mirror.row(ofElementAt: index)
            if resolved.isMixed, let (kind, name) = value.nestedCollection {
                try stopWaiting(PendingLinks.Link(className: reference.ownerClass, owner: list.owner, property: reference.storageProperty, element: element))
                try noteNested(try transaction.replaceWithNestedCollection(kind, at: row, in: list), named: name)
            } else if resolved.isMixed {
                try transaction.replace(at: row, with: try shownMixed(value, waiting: PendingLinks.Link(
                    className: reference.ownerClass, owner: list.owner, property: reference.storageProperty, element: element)), in: list)
            } else if let linked = try target(of: value) {
                switch (linked, mirror.elements[index].isHidden) {
                case (let key?, false):
                    try transaction.replace(at: row, with: .object(key), in: list)
                case (let key?, true):
                    try transaction.insert(.object(key), at: row, in: list)
                case (nil, false):
                    try transaction.remove(at: row, from: list)
                case (nil, true):
                    break
                }
                mirror.elements[index].hold(linked?.rawValue, value)
                mirror.elements[index].isHidden = linked == nil
                let link = PendingLinks.Link(className: reference.ownerClass, owner: list.owner, property: reference.storageProperty, element: element)
                if linked == nil { try wait(link, for: value) } else { try stopWaiting(link) }
            } else {
                try transaction.replace(at: row, with: try value.coreValue(), in: list)
            }
            mirror.elements[index].valueStamp = stamp
            try mirror.save(list, property: reference.storageProperty, transaction)
        }

        private func listMove(_ element: GlobalKey, to position: PositionKey, in reference: ListReference, stamp: Stamp) throws(RealmError) {
            guard let resolved = try resolve(reference) else { return }
            let list = resolved.list
            var mirror = try mirror(list, reference.storageProperty)
            guard let from = mirror.index(of: element) else { return }
            try resolved.check(position, for: element, in: mirror)
            if let last = mirror.elements[from].positionStamp, last >= stamp { return }
            let fromRow = mirror.row(ofElementAt: from)
            var moved = mirror.elements.remove(at: from)
            moved.position = position
            moved.positionStamp = stamp
            let to = mirror.insertionIndex(for: position)
            mirror.elements.insert(moved, at: to)
            if !moved.isHidden {
                let toRow = mirror.row(ofElementAt: to)
                if fromRow != toRow { try transaction.move(from: fromRow, to: toRow, in: list) }
            }
            try mirror.save(list, property: reference.storageProperty, transaction)
        }

        private func listErase(_ elements: [GlobalKey], in reference: ListReference) throws(RealmError) {
            guard let resolved = try resolve(reference) else { return }
            let list = resolved.list
            var mirror = try mirror(list, reference.storageProperty)
            for element in elements {
                mirror.erased.insert(element)
                guard let index = mirror.index(of: element) else { continue }
                // A hidden element, or a mixed one showing nil, may wait.
                if mirror.elements[index].isHidden || resolved.isMixed {
                    try stopWaiting(PendingLinks.Link(className: reference.ownerClass, owner: list.owner, property: reference.storageProperty, element: element))
                }
                if !mirror.elements[index].isHidden {
                    try transaction.remove(at: mirror.row(ofElementAt: index), from: list)
                }
                mirror.elements.remove(at: index)
            }
            try mirror.save(list, property: reference.storageProperty, transaction)
        }

        // MARK: Links waiting for their targets

        /// Notes that `link` waits for `target`, unless the target can never
        /// come (erased, or an ended incarnation): then it is nil for good.
        private func wait(_ link: PendingLinks.Link, for target: ObjectReference) throws(RealmError) {
            let mayArrive: Bool
            switch target.identity {
            case .primaryKey(let value, let incarnation):
                mayArrive = incarnation >= (try incarnations.current(className: target.className, primaryKey: value, transaction))
            case .global:
                mayArrive = try !SyncTables.isTombstoned(target.identity, className: target.className, transaction)
            case .embedded:
                mayArrive = false
            }
            guard mayArrive else { return try stopWaiting(link) }
            try PendingLinks.note(link, waitsFor: target, transaction)
            waiting.noted()
        }

        /// As ``wait(_:for:)``, for a list element's value.
        private func wait(_ link: PendingLinks.Link, for value: SyncValue) throws(RealmError) {
            guard case .link(let targetClass, let target) = value else { return }
            try wait(link, for: ObjectReference(className: targetClass, identity: target))
        }

        /// `link` was written again, or its element erased.
        private func stopWaiting(_ link: PendingLinks.Link) throws(RealmError) {
            guard try waiting.mayExist(transaction) else { return }
            try PendingLinks.forget(link, transaction)
        }

        /// `target` is erased: what waited for it waits no more.
        private func stopWaiting(for target: ObjectReference) throws(RealmError) {
            guard try waiting.mayExist(transaction) else { return }
            _ = try PendingLinks.take(target: target, transaction)
        }

        /// The object `target` names is here now, as `key`: what waited for
        /// it shows it.
        private func arrived(_ target: ObjectReference, as key: ObjectKey) throws(RealmError) {
            try LinkArrival.show(target, as: key, linksMayWait: try waiting.mayExist(transaction),
                                 membersMayLink: try memberLinks.mayExist(transaction), transaction)
        }

        // MARK: Sets and maps

        /// A set or map of this replica named by `reference`, with where its
        /// registers are kept and what it holds; nil when the owner is not
        /// here.
        private func resolve(_ reference: ListReference, isSet: Bool) throws(RealmError) -> ResolvedCollection? {
            guard let owner = try localKey(reference.owner, reference.ownerClass) else { return nil }
            let handle = try transaction.classHandle(named: reference.ownerClass)
            let index = try transaction.propertyIndex(named: reference.property, in: handle)
            let property = try transaction.objectSchema(handle).properties[index]
            let name = "\(reference.ownerClass).\(reference.property)"
            var collection = ListHandle(owningClass: handle, owner: owner, property: index)
            if let nested = reference.nested {
                // A nested dictionary: a map of mixed values. (Sets do not nest.)
                guard !isSet else { throw Self.badChangeset("a set in '\(name)' is named as nested") }
                guard let dictionary = try nestedCollection(nested, kind: .dictionary, of: owner, handle, index, property, name) else { return nil }
                collection = dictionary
            } else if !(isSet ? property.isSet : property.isMap) {
                throw Self.badChangeset("'\(name)' is not a \(isSet ? "set" : "map")")
            }
            return ResolvedCollection(handle: collection,
                                      registers: MemberRegisters.Collection(className: reference.ownerClass, owner: owner,
                                                                            property: reference.storageProperty),
                                      property: property,
                                      embeddedClass: property.objectClassName.flatMap { transaction.schema[$0]?.isEmbedded == true ? $0 : nil },
                                      knownClasses: property.type == .mixed ? topLevelClasses() : [],
                                      reference: reference)
        }

        private struct ResolvedCollection {
            let handle: ListHandle
            let registers: MemberRegisters.Collection
            let property: Property
            /// The class of the embedded objects it holds, if it does.
            let embeddedClass: String?
            /// The top-level classes of the file, for a mixed value's link.
            let knownClasses: Set<String>
            let reference: ListReference

            /// Checks that `value` is what the collection holds: a link to
            /// its class when it holds objects (a map's value may also be
            /// nil; a map of embedded objects names a new one of its own),
            /// a value of its type otherwise.
            func check(_ value: SyncValue) throws(RealmError) {
                let fits = switch (value, property.objectClassName) {
                case (.link(let linked, let identity), let target?) where embeddedClass != nil:
                    // A new embedded object of its own, for this map.
                    if case .embedded(reference.ownerClass, reference.owner, reference.property, _?) = identity { linked == target } else { false }
                case (.link(let linked, let identity), let target?):
                    if case .embedded = identity { false } else { linked == target }
                case (.null, _?): property.isMap
                case (.link(let linked, let identity), nil) where property.type == .mixed:
                    // A mixed value links to a top-level object of a class the
                    // file has.
                    if case .embedded = identity { false } else { knownClasses.contains(linked) }
                case (.nestedList, nil), (.nestedDictionary, nil):
                    // In a map of mixed values, or a nested dictionary.
                    property.type == .mixed && (handle.nested != nil || property.isMap)
                case (_, _?), (.link, nil): false
                case (.null, nil): property.isOptional
                default: property.type == .mixed || (try? value.coreValue())?.type == property.type
                }
                guard fits else {
                    throw ChangesetApplier.Applier.badChangeset("'\(registers.className).\(registers.property)' is given \(value)")
                }
            }
        }

        /// The value RealmCore shows for `value`: a link's object when this
        /// replica has it (nil when it does not, the link waiting in its
        /// register for ``showMembers(linkingTo:as:)``).
        private func shown(_ value: SyncValue, in collection: ResolvedCollection) throws(RealmError) -> Value? {
            guard case .link(let targetClass, let target) = value else { return try value.coreValue() }
            return try localKey(target, targetClass).map { Value.link(to: $0, of: targetClass, mixed: collection.property.type == .mixed) }
        }

        /// A `setInsert` (`present`) or `setErase` of `value`: applied if
        /// its stamp is newer than the member's register.
        private func setWrite(_ value: SyncValue, present: Bool, in reference: ListReference, stamp: Stamp) throws(RealmError) {
            guard let resolved = try resolve(reference, isSet: true) else { return }
            try resolved.check(value)
            let member = MemberRegisters.member(of: value, mixed: resolved.property.type == .mixed)
            let old = try MemberRegisters.register(member, of: resolved.registers, transaction)
            if let old, old.stamp >= stamp { return }
            try MemberRegisters.write(MemberRegisters.Register(member: member, value: present ? value : nil, stamp: stamp),
                                      of: resolved.registers, transaction)
            if present, case .link = value { memberLinks.noted() }
            // Out goes the member as the set shows it: for an erase, and for
            // an insertion of another representation of it (`1.50` where
            // `1.5` was), so that every replica stores the winner's.
            let replaced = old?.value.map { $0 != value } ?? false
            if !present || replaced, let shownBefore = try shown(old?.value ?? value, in: resolved) {
                try transaction.remove(shownBefore, fromSet: resolved.handle)
            }
            if present, let shownNow = try shown(value, in: resolved) {
                try transaction.insert(shownNow, intoSet: resolved.handle)
            }
        }

        /// A `mapSet` (`value`) or `mapErase` (nil) of `key`: applied if its
        /// stamp is newer than the key's register.
        private func mapWrite(_ value: SyncValue?, forKey key: String, in reference: ListReference, stamp: Stamp) throws(RealmError) {
            guard let resolved = try resolve(reference, isSet: false) else { return }
            if let value { try resolved.check(value) }
            let member = MemberRegisters.member(ofKey: key)
            if let old = try MemberRegisters.register(member, of: resolved.registers, transaction), old.stamp >= stamp { return }
            try MemberRegisters.write(MemberRegisters.Register(member: member, value: value, stamp: stamp), of: resolved.registers, transaction)
            // An embedded object the key held goes, and what sync knew of it.
            if let embeddedClass = resolved.embeddedClass, case .object(let replaced)? = try transaction.value(forKey: key, in: resolved.handle) {
                try SyncTables.forgetObject(replaced, className: embeddedClass, transaction)
            }
            guard let value else {
                try transaction.removeValue(forKey: key, from: resolved.handle)
                return
            }
            if let (kind, name) = value.nestedCollection {
                return try noteNested(try transaction.setNestedCollection(kind, forKey: key, in: resolved.handle), named: name)
            }
            if case .link(let className, let identity) = value {
                memberLinks.noted()
                if resolved.embeddedClass != nil {
                    // A new, empty embedded object: its creation and values
                    // follow, naming its identity.
                    let child = try transaction.setEmbeddedObject(forKey: key, in: resolved.handle)
                    try SyncTables.setEmbeddedIdentity(identity, of: child, className: className, transaction)
                    return
                }
            }
            try transaction.setValue(try shown(value, in: resolved) ?? .null, forKey: key, in: resolved.handle)
        }

        /// The local key of an object named by `identity`, or nil when this
        /// replica does not have it (not yet, or no longer).
        private func localKey(_ identity: ObjectIdentity, _ className: String) throws(RealmError) -> ObjectKey? {
            switch identity {
            case .primaryKey(let value, let incarnation):
                let handle = try transaction.classHandle(named: className)
                guard incarnation == (try incarnations.current(className: className, primaryKey: value, transaction)) else { return nil }
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
