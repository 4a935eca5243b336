import Foundation
import RealmCore

/// Observing on an actor: the value is found again in a Realm isolated to
/// the actor (as a ``ThreadSafeReference`` finds it), observed there, and
/// `block` runs isolated to the actor with the actor's own collection or
/// object. The registration is complete when the `await` returns: the
/// first call (`.initial` for a collection) follows on the actor.
extension Results {
    /// Calls `block` on `actor` with `.initial`, then after each commit
    /// that changed the results (narrowed to `keyPaths`); the results
    /// passed belong to a Realm isolated to `actor`.
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A,
                                  _isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, RealmCollectionChange<Results<Element>>) -> Void) async -> NotificationToken {
        await observeOnActor(self, actor: actor, isolation: _isolation, block) { $0.observe(keyPaths: keyPaths, $1) }
    }
}

extension List {
    /// Calls `block` on `actor` with `.initial`, then after each commit
    /// that changed the list (narrowed to `keyPaths`); the list passed
    /// belongs to a Realm isolated to `actor`.
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A,
                                  _isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, RealmCollectionChange<List<Element>>) -> Void) async -> NotificationToken {
        await observeOnActor(self, actor: actor, isolation: _isolation, block) { $0.observe(keyPaths: keyPaths, $1) }
    }
}

extension LinkingObjects {
    /// Calls `block` on `actor` with `.initial`, then after each commit
    /// that changed these linking objects (narrowed to `keyPaths`).
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A,
                                  _isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, RealmCollectionChange<LinkingObjects<Element>>) -> Void) async -> NotificationToken {
        await observeOnActor(self, actor: actor, isolation: _isolation, block) { $0.observe(keyPaths: keyPaths, $1) }
    }
}

extension MutableSet {
    /// Calls `block` on `actor` with `.initial`, then after each commit
    /// that changed the set (narrowed to `keyPaths`).
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A,
                                  _isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, RealmCollectionChange<MutableSet<Element>>) -> Void) async -> NotificationToken {
        await observeOnActor(self, actor: actor, isolation: _isolation, block) { $0.observe(keyPaths: keyPaths, $1) }
    }
}

extension Map {
    /// Calls `block` on `actor` with `.initial`, then after each commit
    /// that changed the map, with the keys deleted, inserted and modified
    /// (in a map of objects, narrowed to `keyPaths` of the objects).
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A, _isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, RealmMapChange<Map<Key, Value>>) -> Void) async -> NotificationToken {
        await observeOnActor(self, actor: actor, isolation: _isolation, block) { $0.observe(keyPaths: keyPaths, $1) }
    }
}

extension AnyRealmCollection {
    /// Calls `block` on `actor` with `.initial`, then after each commit
    /// that changed the wrapped collection (narrowed to `keyPaths`).
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A,
                                  _isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, RealmCollectionChange<AnyRealmCollection<Element>>) -> Void) async -> NotificationToken {
        await observeOnActor(self, actor: actor, isolation: _isolation, block) { $0.observe(keyPaths: keyPaths, $1) }
    }
}

extension ObjectObservable where Self: Object {
    /// Calls `block` on `actor` after each commit that changed the object's
    /// properties (narrowed to `keyPaths`), and once with `.deleted`; the
    /// object passed belongs to a Realm isolated to `actor`.
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A,
                                  _isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, ObjectChange<Self>) -> Void) async -> NotificationToken {
        await observeOnActor(self, actor: actor, isolation: _isolation, block) { $0.observe(keyPaths: keyPaths, $1) }
    }
}

/// Registers `observe` for `value`, found again in `actor`'s Realm, with
/// `block` called isolated to `actor`; the token it returns may be
/// released anywhere, and ends the registration on the actor.
private func observeOnActor<Value: ThreadConfined, A: Actor, Change>(
    _ value: Value, actor: A, isolation: isolated (any Actor)?,
    _ block: @Sendable @escaping (isolated A, Change) -> Void,
    observe: @escaping (Value, @escaping (Change) -> Void) -> NotificationToken
) async -> NotificationToken {
    guard let realm = value.realm else {
        preconditionFailure("Only managed objects and collections can be observed on an actor.")
    }
    realm.verifyThread()
    realm.verifyObservable()
    let source = ActorObservationSource(
        configuration: realm.configuration, payload: value.threadConfinedPayload,
        version: (try? realm.transaction.version) ?? 0, observe: observe)
    let registration = QueueRegistration()
    await source.register(on: actor, into: registration, block)
    return NotificationToken {
        Task { await registration.invalidate(on: actor) }
    }
}

/// What an actor registration carries to the actor.
///
/// `@unchecked Sendable`: `observe` is called once, isolated to the actor,
/// after this value was handed over.
private struct ActorObservationSource<Value: ThreadConfined, Change>: @unchecked Sendable {
    let configuration: Realm.Configuration
    let payload: ThreadConfinedPayload
    /// The version the value was read at: the actor's Realm sees at least
    /// that much before the value is found there.
    let version: UInt64
    let observe: (Value, @escaping (Change) -> Void) -> NotificationToken

    func register<A: Actor>(on actor: isolated A, into registration: QueueRegistration,
                            _ block: @Sendable @escaping (isolated A, Change) -> Void) async {
        let realm: Realm
        do {
            realm = try await Realm(configuration: configuration, actor: actor)
        } catch {
            preconditionFailure("Failed to open the Realm at '\(configuration.identity)' for the actor \(type(of: actor)) to observe on: \(error)")
        }
        if let current = try? realm.transaction.version, current < version { realm.refresh() }
        guard let value = Value.resolve(payload, in: realm) else {
            preconditionFailure("The observed \(Value.self) was deleted before observing began on the actor \(type(of: actor)).")
        }
        let token = observe(value) { change in
            // Delivered on the actor (its Realm's notifications run there);
            // the change stays there.
            let change = UncheckedSendable(change)
            actor.assumeIsolated { block($0, change.value) }
        }
        registration.set(token)
    }
}

extension QueueRegistration {
    /// Ends the registration, isolated to the actor it was made on.
    fileprivate func invalidate(on actor: isolated any Actor) {
        invalidate()
    }
}
