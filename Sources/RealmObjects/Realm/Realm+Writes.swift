import Foundation
import RealmCore

extension Realm {
    // MARK: Adding

    /// Adds an unmanaged object, and every object it links to, to the Realm
    /// (inside a write transaction). With `update: true`, an existing object
    /// with the same primary key is updated instead.
    ///
    /// When the object cannot be added (a duplicate primary key, a value
    /// over a limit, an object of another Realm), nothing of it is added
    /// and the error is recorded: the enclosing ``write(_:)`` or
    /// ``commitWrite()`` throws it and rolls the whole transaction back. Use
    /// the throwing ``add(_:update:)-(_,UpdatePolicy)`` to handle the error
    /// at once and go on with the transaction.
    ///
    /// - Precondition: in a write transaction; `update` only for classes
    ///   with a primary key.
    public func add(_ object: Object, update: Bool = false) {
        recordingFailure(of: "add an object of class '\(Swift.type(of: object).className())'") {
            try add(object, update: update ? .all : .error)
        }
    }

    /// Adds or updates an object with an explicit ``UpdatePolicy``.
    ///
    /// - Throws: ``Realm/Error`` with code `duplicatePrimaryKey` when the
    ///   key is taken and the policy is `.error`, `valueTooLarge` for a
    ///   string or data over 16 MB, `fail` for an object of another Realm.
    ///   Nothing is added then, and the write transaction goes on.
    public func add(_ object: Object, update: UpdatePolicy) throws {
        verifyThread()
        precondition(isInWriteTransaction, "Cannot add objects to a Realm outside of a write transaction; call beginWrite() or write(_:) first.")
        if update != .error {
            precondition(Swift.type(of: object).primaryKey() != nil || object.objectSchema.primaryKeyProperty != nil,
                         "'\(Swift.type(of: object).className())' does not have a primary key and can not be updated.")
        }
        // Registering may add the class to the file; it must not be undone
        // with the add if the add fails.
        try state.register(Swift.type(of: object))
        if update == .error, try addIfFlat(object) { return }
        try atomically { try ObjectWriter(realm: self, policy: update).adding { try $0.add(object, update: update) } }
    }

    /// Adds a new object of a flat class (see ``addFlat(_:info:handle:)``)
    /// and returns true; returns false, having done nothing, for any other
    /// object: managed, set by name (which includes an `init(value:)` that
    /// failed), or of a class with links, lists or embedded objects.
    ///
    /// - Precondition: the object's class is registered.
    func addIfFlat(_ object: Object) throws -> Bool {
        guard object._realm == nil, object._unmanagedOverrides == nil else { return false }
        let info = object._classInfo
        guard info.isFlat, let handle = state.handleIfStored(info.className) else { return false }
        try addFlat(object, info: info, handle: handle)
        return true
    }

    /// Adds an unmanaged object whose properties are all plain values: one
    /// INSERT, which is atomic on its own, with the values read straight
    /// from the object's storage.
    private func addFlat(_ object: Object, info: ClassInfo, handle: ClassHandle) throws {
        // A flat class's persisted fields are its properties in schema
        // order. The row array is borrowed from the state and given back,
        // so that a loop of adds allocates none.
        var row = state.takeRowBuffer()
        defer { state.returnRowBuffer(row) }
        try info.layout.appendStoredValues(of: object, to: &row)
        let key: ObjectKey
        do {
            key = try transaction.createObject(in: handle, values: row)
        } catch {
            throw Realm.Error(error)
        }
        object._realm = self
        object._key = key
        object._handle = handle
        object._providedProperties = nil
    }

    /// Adds every object of a sequence; see ``add(_:update:)-(_,Bool)``. An
    /// object that cannot be added records its error, and the others are
    /// still added (to be rolled back with the transaction).
    public func add<S: Sequence>(_ objects: S, update: Bool = false) where S.Element: Object {
        for object in objects { add(object, update: update) }
    }

    /// Adds every object of a sequence with an explicit policy.
    public func add<S: Sequence>(_ objects: S, update: UpdatePolicy) throws where S.Element: Object {
        for object in objects { try add(object, update: update) }
    }

    // MARK: Creating

    /// Creates an object from a dictionary of values by name, an array of
    /// values in property order, another object of the same class (copying
    /// it, even from another Realm), or nested mixes of them, including the
    /// output of `JSONSerialization`. With `update: true`, an existing
    /// object with the same primary key gets only the given values (nil
    /// included).
    ///
    /// As in the seeds, this variant does not throw. A value of the wrong
    /// type, `null` for a required property, too few values in an array, a
    /// value over a limit or a taken primary key creates nothing and records
    /// an error naming the class, property and value: the enclosing
    /// ``write(_:)`` or ``commitWrite()`` throws it and rolls the whole
    /// transaction back. The object returned then is unmanaged and stored
    /// nowhere. Use ``create(_:value:update:)-(_,_,UpdatePolicy)`` to handle
    /// the error at once and go on with the transaction.
    @discardableResult
    public func create<T: Object>(_ type: T.Type, value: Any = [String: Any](), update: Bool = false) -> T {
        var created: T?
        recordingFailure(of: "create an object of class '\(type.className())'") {
            created = try create(type, value: value, update: update ? UpdatePolicy.all : .error)
        }
        return created ?? type.init()
    }

    /// Creates or updates an object with an explicit ``UpdatePolicy``.
    ///
    /// - Throws: ``Realm/Error`` naming the class, property and value: code
    ///   `wrongType` for a value of the wrong type, `missingValue` for `null`
    ///   for a required property or too few values in an array,
    ///   `valueTooLarge` for a string or data over 16 MB,
    ///   `duplicatePrimaryKey` for a taken key. Nothing is created then, and
    ///   the write transaction goes on.
    @discardableResult
    public func create<T: Object>(_ type: T.Type, value: Any = [String: Any](), update: UpdatePolicy) throws -> T {
        verifyThread()
        precondition(isInWriteTransaction, "Cannot create objects in a Realm outside of a write transaction; call beginWrite() or write(_:) first.")
        precondition(!type.isEmbedded, "Embedded objects of type '\(type.className())' cannot be created on their own.")
        if update != .error {
            precondition(type.primaryKey() != nil || ClassInfo.of(type).objectSchema.primaryKeyProperty != nil,
                         "'\(type.className())' does not have a primary key and can not be updated.")
        }
        try state.register(type)
        let object = type.init()
        // Nested unmanaged objects are copied: the caller's stay unmanaged.
        let copies = UnmanagedCopies()
        if let source = value as? Object, source._realm == nil { copies.record(object, asCopyOf: source) }
        try ValueImporter.fill(object, from: value, copies: copies)
        let partial = object._providedProperties
        try atomically { try ObjectWriter(realm: self, policy: update).adding { try $0.add(object, update: update, partial: partial) } }
        return object
    }

    // MARK: Deleting

    /// Deletes an object: links to it become nil, lists drop it, and its
    /// embedded objects are deleted too.
    ///
    /// - Precondition: in a write transaction; the object is managed by this
    ///   Realm and not already deleted.
    public func delete(_ object: Object) {
        verifyThread()
        precondition(isInWriteTransaction, "Cannot delete objects from a Realm outside of a write transaction; call beginWrite() or write(_:) first.")
        precondition(object._realm?.configuration.identity == configuration.identity,
                     "Can only delete an object from the Realm it belongs to.")
        // The file that kept the write from beginning cannot tell whether
        // the object still exists; the commit throws why.
        if state.writeNeverBegan { return }
        precondition(!object.isInvalidated, "Object of class '\(Swift.type(of: object).className())' has been deleted or invalidated.")
        perform("delete an object of '\(Swift.type(of: object).className())'", ifDamaged: ()) { try $0.deleteObject(object._key, in: object._handle!) }
        object._deletedThroughThisInstance = true
    }

    /// Deletes every object of a sequence (a `Results`, a `List`, an array).
    public func delete<S: Sequence>(_ objects: S) where S.Element: Object {
        verifyThread()
        // A snapshot first: deleting changes live collections.
        let snapshot = Array(objects)
        var byClass: [String: (ClassHandle, [ObjectKey])] = [:]
        for object in snapshot {
            precondition(object._realm?.configuration.identity == configuration.identity,
                         "Can only delete an object from the Realm it belongs to.")
            guard let handle = object._handle, !object.isInvalidated else { continue }
            byClass[handle.className, default: (handle, [])].1.append(object._key)
        }
        precondition(isInWriteTransaction, "Cannot delete objects from a Realm outside of a write transaction; call beginWrite() or write(_:) first.")
        perform("delete objects", ifDamaged: ()) { transaction in
            for (handle, keys) in byClass.values {
                try transaction.deleteObjects(Array(Set(keys)).sorted(), in: handle)
            }
        }
        for object in snapshot { object._deletedThroughThisInstance = true }
    }

    /// Deletes the objects of a `Results`: without making them, and, when
    /// it holds every object of its class, as one "every object of the
    /// class was deleted" fact rather than one record per object.
    public func delete<Element: Object>(_ results: Results<Element>) {
        verifyThread()
        precondition(isInWriteTransaction, "Cannot delete objects from a Realm outside of a write transaction; call beginWrite() or write(_:) first.")
        precondition(results.realm?.configuration.identity == configuration.identity,
                     "Can only delete objects from the Realm they belong to.")
        guard let handle = state.handleIfStored(results.query.className) else { return }
        let query = results.query
        if case .table = query.source, query.predicate == .truePredicate, query.distinct.isEmpty {
            perform("delete the objects of '\(query.className)'", ifDamaged: ()) { try $0.deleteAllObjects(in: handle) }
            return
        }
        perform("delete the objects of '\(query.className)'", ifDamaged: ()) { transaction in
            // One DELETE when nothing depends on the objects; otherwise by key.
            if try !query.deleteMatches(in: transaction) {
                try transaction.deleteObjects(results.keys(), in: handle)
            }
        }
    }

    /// Deletes every object of the Realm.
    public func deleteAll() {
        verifyThread()
        precondition(isInWriteTransaction, "Cannot delete objects from a Realm outside of a write transaction; call beginWrite() or write(_:) first.")
        perform("delete all objects", ifDamaged: ()) { try $0.deleteAll() }
    }

    /// Runs a multi-step change so that a failure leaves nothing of it.
    func atomically(_ body: () throws -> Void) throws {
        do {
            try transaction.atomicallyRethrowing(body)
        } catch let error as RealmError {
            throw Realm.Error(error)
        }
    }
}
