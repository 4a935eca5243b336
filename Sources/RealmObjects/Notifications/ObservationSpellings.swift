import Dispatch

// Realm Swift's spelling of observation, `observe(keyPaths:on:_:)`, with the
// queue after the key paths and optional: nil delivers on the registering
// thread, a queue there. These forward to `observe(keyPaths:_:)` and
// `observe(on:keyPaths:_:)`.

extension Results {
    /// Observes the results; see ``observe(keyPaths:_:)`` (on the thread) and
    /// ``observe(on:keyPaths:_:)`` (on a queue).
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue?,
                        _ block: @escaping (RealmCollectionChange<Results<Element>>) -> Void) -> NotificationToken {
        guard let queue else { return observe(keyPaths: keyPaths, block) }
        return observe(on: queue, keyPaths: keyPaths, block)
    }
}

extension List {
    /// Observes the list; see ``observe(keyPaths:_:)`` (on the thread) and
    /// ``observe(on:keyPaths:_:)`` (on a queue).
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue?,
                        _ block: @escaping (RealmCollectionChange<List<Element>>) -> Void) -> NotificationToken {
        guard let queue else { return observe(keyPaths: keyPaths, block) }
        return observe(on: queue, keyPaths: keyPaths, block)
    }
}

extension Object {
    /// Observes the object; see ``observe(keyPaths:_:)`` (on the thread)
    /// and ``observe(on:keyPaths:_:)`` (on a queue).
    public func observe<T: Object>(keyPaths: [String]? = nil, on queue: DispatchQueue?,
                                   _ block: @escaping (ObjectChange<T>) -> Void) -> NotificationToken {
        guard let object = self as? T else {
            preconditionFailure("Cannot observe an object of class '\(Swift.type(of: self).className())' as a '\(T.className())'.")
        }
        guard let queue else { return object.observe(keyPaths: keyPaths, block) }
        return object.observe(on: queue, keyPaths: keyPaths, block)
    }
}

/// A collection whose changes can be observed on its thread, whatever its
/// element type: what ``AnyRealmCollection`` forwards to.
protocol ObservableRealmCollection {
    func observeErased(keyPaths: [String]?, _ block: @escaping (RealmCollectionChange<Void>) -> Void) -> NotificationToken
}

extension Results: ObservableRealmCollection {
    func observeErased(keyPaths: [String]?, _ block: @escaping (RealmCollectionChange<Void>) -> Void) -> NotificationToken {
        observe(keyPaths: keyPaths) { block($0.erased) }
    }
}

extension List: ObservableRealmCollection {
    func observeErased(keyPaths: [String]?, _ block: @escaping (RealmCollectionChange<Void>) -> Void) -> NotificationToken {
        observe(keyPaths: keyPaths) { block($0.erased) }
    }
}

extension LinkingObjects: ObservableRealmCollection {
    func observeErased(keyPaths: [String]?, _ block: @escaping (RealmCollectionChange<Void>) -> Void) -> NotificationToken {
        observe(keyPaths: keyPaths) { block($0.erased) }
    }
}

extension MutableSet: ObservableRealmCollection {
    func observeErased(keyPaths: [String]?, _ block: @escaping (RealmCollectionChange<Void>) -> Void) -> NotificationToken {
        observe(keyPaths: keyPaths) { block($0.erased) }
    }
}

extension AnyRealmCollection: ObservableRealmCollection {
    func observeErased(keyPaths: [String]?, _ block: @escaping (RealmCollectionChange<Void>) -> Void) -> NotificationToken {
        observe(keyPaths: keyPaths) { block($0.erased) }
    }
}

extension AnyRealmCollection {
    /// Calls `block` with `.initial`, then after each commit that changed
    /// the wrapped collection, as the wrapped collection's `observe` does;
    /// the collection passed is this one.
    public func observe(keyPaths: [String]? = nil, _ block: @escaping (RealmCollectionChange<AnyRealmCollection<Element>>) -> Void) -> NotificationToken {
        guard let observable = base as? ObservableRealmCollection else {
            preconditionFailure("Cannot observe an AnyRealmCollection of \(type(of: base)).")
        }
        return observable.observeErased(keyPaths: keyPaths) { [self] change in block(change.map(self)) }
    }

    /// Observes the collection on the registering thread (`queue` nil), or
    /// on a serial queue, where the collection passed to `block` is the
    /// same collection of a Realm confined to the queue.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue?,
                        _ block: @escaping (RealmCollectionChange<AnyRealmCollection<Element>>) -> Void) -> NotificationToken {
        guard let queue else { return observe(keyPaths: keyPaths, block) }
        guard let realm else { preconditionFailure("Only collections of a Realm can be observed.") }
        realm.verifyThread()
        let context = AnyCollectionQueueContext(configuration: realm.configuration, payload: threadConfinedPayload,
                                                keyPaths: keyPaths, block: block)
        let registration = QueueRegistration()
        // Run on the queue only, after this hand-over.
        let register = UncheckedSendable({ context.register(on: queue, into: registration) })
        queue.async { register.value() }
        return NotificationToken { queue.async { registration.invalidate() } }
    }
}

/// What an `AnyRealmCollection`'s queue registration carries to its queue.
///
/// `@unchecked Sendable`: `register` runs once, on the target queue, after
/// this value was handed over; the block is only called there.
private struct AnyCollectionQueueContext<Element: RealmCollectionValue>: @unchecked Sendable {
    let configuration: Realm.Configuration
    let payload: ThreadConfinedPayload
    let keyPaths: [String]?
    let block: (RealmCollectionChange<AnyRealmCollection<Element>>) -> Void

    func register(on queue: DispatchQueue, into registration: QueueRegistration) {
        do {
            let queueRealm = try Realm(configuration: configuration, queue: queue)
            guard let collection = AnyRealmCollection<Element>.resolve(payload, in: queueRealm) else {
                block(.error(Realm.Error(.fail, "The observed collection's owner was deleted before observing began.")))
                return
            }
            registration.set(collection.observe(keyPaths: keyPaths, block))
        } catch {
            block(.error(error))
        }
    }
}

extension RealmCollectionChange {
    /// The same change without its collection.
    var erased: RealmCollectionChange<Void> {
        switch self {
        case .initial: .initial(())
        case .update(_, let deletions, let insertions, let modifications):
            .update((), deletions: deletions, insertions: insertions, modifications: modifications)
        case .error(let error): .error(error)
        }
    }
}
