import Foundation
import RealmCore
import RealmQuery

extension Realm {
    /// What a Realm notification says.
    public enum Notification: Sendable {
        /// The Realm moved to a newer version (after a commit in this or
        /// another thread or process, once this Realm refreshed).
        case didChange
        /// Another commit happened but the Realm does not autorefresh; call
        /// `refresh()` to see it.
        case refreshRequired
    }

    /// Calls `block` on this thread after every commit this Realm sees:
    /// its own commits, and those of other threads and processes once it
    /// moves to them (on its run loop with autorefresh, or at `refresh()`).
    /// Keep the token: releasing or invalidating it stops delivery.
    public func observe(_ block: @escaping (_ notification: Notification, _ realm: Realm) -> Void) -> NotificationToken {
        verifyThread()
        return state.notifiers.addRealmObserver(block)
    }

    /// Commits the write transaction without notifying the given tokens of
    /// its changes (for changes the interface already shows): collection
    /// and object registrations take the new state as their baseline, and
    /// Realm observers are not called for this commit. Other registrations
    /// are notified as usual.
    public func commitWrite(withoutNotifying tokens: [NotificationToken]) throws {
        try state.notifiers.withoutNotifyingRealmObservers(of: tokens) { try commitWrite() }
        state.notifiers.skip(tokens)
    }
}

extension Results {
    /// Calls `block` with `.initial` now, then with the indices that changed
    /// after each commit that changed the results: objects entering or
    /// leaving them, moving in the sort order, or changing (directly, or an
    /// object they link to). `keyPaths` narrows which properties count as
    /// modifications (for example `["name", "owner.name"]`).
    public func observe(keyPaths: [String]? = nil, _ block: @escaping (RealmCollectionChange<Results<Element>>) -> Void) -> NotificationToken {
        guard let realm else { preconditionFailure("Cannot observe an invalidated Results.") }
        realm.verifyThread()
        if let selection = valueSelection {
            // Values change only by the collection's own changes.
            return realm.state.notifiers.observe(self, className: nil, model: nil, keyPaths: keyPaths,
                                                 elements: { try selection.values(in: $0) }, block)
        }
        let query = self.query
        return realm.state.notifiers.observe(self, className: query.className, model: Element._fetchedClass, keyPaths: keyPaths, query: query,
                                             elements: { transaction in
            // A class the file does not have yet has no objects.
            guard transaction.schema[query.className] != nil else { return [] }
            return try query.objectKeys(in: transaction).map { .object($0) }
        }, block)
    }
}

extension List {
    /// Calls `block` with `.initial` now, then after each commit that
    /// changed the list (or, for lists of objects, an object in it).
    public func observe(keyPaths: [String]? = nil, _ block: @escaping (RealmCollectionChange<List<Element>>) -> Void) -> NotificationToken {
        guard let (realm, handle) = _managedHandle else {
            preconditionFailure("Only lists of managed objects can be observed.")
        }
        realm.verifyThread()
        return realm.state.notifiers.observe(self, className: Element._objectType?.className(), model: Element._objectType, keyPaths: keyPaths,
                                             isListOfValues: Element._objectType == nil,
                                             recordedList: Element._objectType == nil && handle.nested == nil
                                                 ? ListIdentifier(className: handle.owningClass.className, propertyIndex: handle.property, owner: handle.owner)
                                                 : nil,
                                             elements: { try $0.values(of: handle) }, block)
    }
}

extension LinkingObjects {
    /// Calls `block` with `.initial` now, then after each commit that
    /// changed which objects link here (or changed one of them).
    public func observe(keyPaths: [String]? = nil, _ block: @escaping (RealmCollectionChange<LinkingObjects<Element>>) -> Void) -> NotificationToken {
        guard let realm else { preconditionFailure("Only linking objects of managed objects can be observed.") }
        realm.verifyThread()
        let className = Element.className()
        let propertyName = self.propertyName
        let target = owner!.key
        return realm.state.notifiers.observe(self, className: className, model: Element.self, keyPaths: keyPaths, elements: { transaction in
            let source = try transaction.classHandle(named: className)
            let property = try transaction.propertyIndex(named: propertyName, in: source)
            return try transaction.linkingObjects(to: target, from: source, property: property).map { .object($0) }
        }, block)
    }
}

/// Gives every model class an `observe` whose change carries the class's
/// own type.
public protocol ObjectObservable {}

extension Object: ObjectObservable {}

extension ObjectObservable where Self: Object {
    /// Calls `block` after each commit that changed the object's properties
    /// (narrowed to `keyPaths`), with each property's old and new value,
    /// and once with `.deleted` when it is deleted.
    public func observe(keyPaths: [String]? = nil, _ block: @escaping (ObjectChange<Self>) -> Void) -> NotificationToken {
        observe(keyPaths: keyPaths, baseline: nil, block)
    }

    func observe(keyPaths: [String]?, baseline: (values: [Value], version: UInt64)?,
                 _ block: @escaping (ObjectChange<Self>) -> Void) -> NotificationToken {
        guard let realm = _realm, let handle = _handle, !isInvalidated else {
            preconditionFailure("Only managed, valid objects can be observed.")
        }
        realm.verifyThread()
        let schema = objectSchema
        // A key path the class does not have stops here, as in Realm.
        _ = KeyPathFilter.make(keyPaths, className: handle.className, schema: realm.transaction.schema)
        let notifier = ObjectNotifier(className: handle.className, key: _key, keyPaths: keyPaths) { report in
            switch report {
            case .deleted:
                block(.deleted)
            case .error(let error):
                block(.error(error))
            case .change(let changes, let oldValuesKnown):
                let object = self
                let model: Object.Type? = object is DynamicObject ? nil : type(of: object)
                let described = changes.map { change in
                    let property = schema.properties[change.index]
                    let isCollection = property.isCollection || property.type == .linkingObjects
                    return PropertyChange(
                        name: property.name,
                        oldValue: isCollection || !oldValuesKnown ? nil : Self.changedValue(change.old, property: property, realm: realm, model: model),
                        newValue: isCollection ? object[property.name] : Self.changedValue(change.new, property: property, realm: realm, model: model))
                }
                block(.change(PropertyChanges(object: object, properties: described)))
            }
        }
        notifier.initialBaseline = baseline
        let token = realm.state.notifiers.addObjectNotifier(notifier)
        notifier.token = token
        return token
    }

    /// A changed property's value as Realm hands it out: a link as an
    /// object of the class the observed class declares it with (a
    /// `DynamicObject` for a dynamic observed object). The class comes
    /// from the declaration, not the class name: several model classes
    /// may share one name.
    private static func changedValue(_ value: Value, property: Property, realm: Realm, model: Object.Type?) -> Any? {
        if let model, case .object(let key) = value, let className = property.objectClassName,
           let type = ClassInfo.of(model).linkedTypes.first(where: { $0.className() == className }) {
            return realm.makeObject(type, key: key, className: className)
        }
        return DynamicAccess.swiftValue(value, property: property, realm: realm)
    }
}

extension NotifierSet {
    /// Registers a collection: `snapshot` gives its elements now (keys or
    /// values). The registration keeps the collection alive, as in Realm,
    /// so observing a temporary `realm.objects(…).observe { … }` works.
    func observe<C>(_ collection: C, className: String?, model: Object.Type?, keyPaths: [String]?, query: Query? = nil,
                    isListOfValues: Bool = false, recordedList: ListIdentifier? = nil, elements: @escaping CollectionNotifier.Elements,
                    objectKey: @escaping @Sendable (Value) -> ObjectKey? = CollectionNotifier.elementKey,
                    _ block: @escaping (RealmCollectionChange<C>) -> Void) -> NotificationToken {
        // A key path the class does not have stops here, as in Realm; for
        // a class the file does not have yet, the model's schema tells.
        if let className, keyPaths != nil {
            var schema = state.transaction.schema
            if schema[className] == nil, let model, let modelSchema = try? SchemaDiscovery.schema(of: SchemaDiscovery.closure(of: [model])) {
                schema = modelSchema
            }
            _ = KeyPathFilter.make(keyPaths, className: className, schema: schema)
        }
        let notifier = CollectionNotifier(className: className, keyPaths: keyPaths, query: query, isListOfValues: isListOfValues, recordedList: recordedList,
                                          elements: elements, objectKey: objectKey,
                                          deliver: { change in
            block(change.map(collection))
        })
        let token = addCollectionNotifier(notifier)
        notifier.token = token
        return token
    }
}

extension RealmCollectionChange where CollectionType == Void {
    /// The same change, carrying `collection`.
    func map<C>(_ collection: C) -> RealmCollectionChange<C> {
        switch self {
        case .initial: .initial(collection)
        case .update(_, let deletions, let insertions, let modifications):
            .update(collection, deletions: deletions, insertions: insertions, modifications: modifications)
        case .error(let error): .error(error)
        }
    }
}
