import Dispatch
import Foundation
import RealmCore
import RealmQuery

/// Observing on a dispatch queue, and change streams for Swift
/// concurrency.
extension Results {
    /// Delivers this collection's changes on `queue` (a serial queue),
    /// where the collection passed to `block` is confined to the queue: a
    /// Realm for the same file is opened on it, and the query is resolved
    /// there (for results of values, their collection is found there by
    /// its owner). Use this where the registering thread runs no run loop.
    public func observe(on queue: DispatchQueue, keyPaths: [String]? = nil,
                        _ block: @escaping (RealmCollectionChange<Results<Element>>) -> Void) -> NotificationToken {
        guard let realm else { preconditionFailure("Cannot observe an invalidated Results.") }
        realm.verifyThread()
        let context = QueueContext(configuration: realm.configuration, payload: threadConfinedPayload, keyPaths: keyPaths, block: block)
        let registration = QueueRegistration()
        // Run on the queue only, after this hand-over.
        let register = UncheckedSendable({ context.register(on: queue, into: registration) })
        queue.async { register.value() }
        return NotificationToken { queue.async { registration.invalidate() } }
    }

    /// The changes of this collection as an asynchronous sequence, for
    /// `for await change in results.changes { … }`: first the initial
    /// state, then one element per delivered change. Elements describe the
    /// change (indices and count); re-read the collection where it lives to
    /// get the objects. The sequence ends when the task iterating it is
    /// cancelled or the iteration stops.
    public var changes: AsyncStream<CollectionChangeSummary> {
        changeStream { queue, yield in observe(on: queue) { yield(CollectionChangeSummary($0)) } }
    }
}

extension List {
    /// Delivers this list's changes on `queue` (a serial queue), where the
    /// list passed to `block` is confined to the queue: a Realm for the
    /// same file is opened on it, and the list is found there by its
    /// owner. Use this where the registering thread runs no run loop.
    public func observe(on queue: DispatchQueue, keyPaths: [String]? = nil,
                        _ block: @escaping (RealmCollectionChange<List<Element>>) -> Void) -> NotificationToken {
        guard let (realm, handle) = _managedHandle else {
            preconditionFailure("Only lists of managed objects can be observed.")
        }
        realm.verifyThread()
        let context = ListQueueContext(configuration: realm.configuration, handle: handle, keyPaths: keyPaths, block: block)
        let registration = QueueRegistration()
        // Run on the queue only, after this hand-over.
        let register = UncheckedSendable({ context.register(on: queue, into: registration) })
        queue.async { register.value() }
        return NotificationToken { queue.async { registration.invalidate() } }
    }

    /// The changes of this list as an asynchronous sequence, as
    /// `Results.changes` describes.
    public var changes: AsyncStream<CollectionChangeSummary> {
        changeStream { queue, yield in observe(on: queue) { yield(CollectionChangeSummary($0)) } }
    }
}

extension ObjectObservable where Self: Object {
    /// Delivers this object's changes on `queue` (a serial queue), where
    /// the object passed to `block` is confined to the queue (found there,
    /// in a Realm for the same file, by its key). Changes made after this
    /// call are reported, even those committed before the queue registers.
    public func observe(on queue: DispatchQueue, keyPaths: [String]? = nil,
                        _ block: @escaping (ObjectChange<Self>) -> Void) -> NotificationToken {
        guard let realm = _realm, let handle = _handle, !isInvalidated else {
            preconditionFailure("Only managed, valid objects can be observed.")
        }
        realm.verifyThread()
        let baseline = realm.perform("observe an object") { transaction in
            (values: try transaction.values(of: _key, in: handle), version: try transaction.version)
        }
        let key = _key
        let context = UncheckedSendable((configuration: realm.configuration, block: block, baseline: baseline))
        let registration = QueueRegistration()
        queue.async {
            // `context` is only used here, on the registration's queue.
            let (configuration, block, baseline) = context.value
            do {
                let queueRealm = try Realm(configuration: configuration, queue: queue)
                guard queueRealm.objectExists(key: key, className: handle.className) else {
                    block(.deleted)
                    return
                }
                let object = queueRealm.makeObject(Self.self, key: key, className: handle.className)
                registration.set(object.observe(keyPaths: keyPaths, baseline: baseline, block))
                // Reports what was committed between the call and now.
                queueRealm.state.notifiers.deliver(versionChanged: false)
            } catch {
                block(.error(error))
            }
        }
        return NotificationToken { queue.async { registration.invalidate() } }
    }
}

/// Registers `observe` for `value`, found again in a Realm confined to
/// `queue` (a serial queue), where `block` is then called; a value that
/// cannot be found there (its owner deleted meanwhile) or a Realm that
/// cannot open there is reported through `failed`.
func observeOnQueue<Value: ThreadConfined, Change>(
    _ value: Value, queue: DispatchQueue, failed: @escaping (Swift.Error) -> Change,
    _ block: @escaping (Change) -> Void,
    observe: @escaping (Value, @escaping (Change) -> Void) -> NotificationToken
) -> NotificationToken {
    guard let realm = value.realm else { preconditionFailure("Only managed objects and collections can be observed.") }
    realm.verifyThread()
    let version = (try? realm.transaction.version) ?? 0
    let (configuration, payload) = (realm.configuration, value.threadConfinedPayload)
    let registration = QueueRegistration()
    // Run on the queue only, after this hand-over.
    let register = UncheckedSendable({
        do {
            let queueRealm = try Realm(configuration: configuration, queue: queue)
            if let current = try? queueRealm.transaction.version, current < version { queueRealm.refresh() }
            guard let found = Value.resolve(payload, in: queueRealm) else {
                block(failed(Realm.Error(.fail, "The observed \(Value.self) was deleted before observing began on the queue.")))
                return
            }
            registration.set(observe(found, block))
        } catch {
            block(failed(error))
        }
    })
    queue.async { register.value() }
    return NotificationToken { queue.async { registration.invalidate() } }
}

/// The changes of a collection as an asynchronous sequence: `observe`
/// registers on a queue of its own, handing each change summary to
/// `yield`; ending the sequence invalidates the registration.
private func changeStream(
    _ observe: (DispatchQueue, @escaping (CollectionChangeSummary) -> Void) -> NotificationToken
) -> AsyncStream<CollectionChangeSummary> {
    let (stream, continuation) = AsyncStream<CollectionChangeSummary>.makeStream(bufferingPolicy: .unbounded)
    let token = observe(DispatchQueue(label: "realm.changes")) { continuation.yield($0) }
    let box = UncheckedSendable(token)
    continuation.onTermination = { _ in box.value.invalidate() }
    return stream
}

/// A collection change reduced to what can cross threads.
public struct CollectionChangeSummary: Sendable, Equatable {
    /// Which delivery this is.
    public enum Kind: Sendable, Equatable {
        case initial
        case update
        case error(String)
    }

    /// Which delivery this is.
    public var kind: Kind
    /// The number of elements after the change.
    public var count: Int
    /// Indices removed, in the previous state.
    public var deletions: [Int]
    /// Indices added, in the new state.
    public var insertions: [Int]
    /// Indices of elements that changed, in the new state.
    public var modifications: [Int]

    init<C: RealmCollection>(_ change: RealmCollectionChange<C>) {
        switch change {
        case .initial(let collection):
            self.init(kind: .initial, count: collection.count, deletions: [], insertions: [], modifications: [])
        case .update(let collection, let deletions, let insertions, let modifications):
            self.init(kind: .update, count: collection.count, deletions: deletions, insertions: insertions, modifications: modifications)
        case .error(let error):
            self.init(kind: .error("\(error)"), count: 0, deletions: [], insertions: [], modifications: [])
        }
    }

    init(kind: Kind, count: Int, deletions: [Int], insertions: [Int], modifications: [Int]) {
        self.kind = kind
        self.count = count
        self.deletions = deletions
        self.insertions = insertions
        self.modifications = modifications
    }
}

/// What a queue registration carries to its queue.
///
/// `@unchecked Sendable`: `register` runs once, on the target queue, after
/// this value was handed over; the block is only ever called there,
/// serially; the configuration's closures are not called there.
private struct QueueContext<Element: RealmCollectionValue>: @unchecked Sendable {
    let configuration: Realm.Configuration
    let payload: ThreadConfinedPayload
    let keyPaths: [String]?
    let block: (RealmCollectionChange<Results<Element>>) -> Void

    func register(on queue: DispatchQueue, into registration: QueueRegistration) {
        do {
            let queueRealm = try Realm(configuration: configuration, queue: queue)
            guard let results = Results<Element>.resolve(payload, in: queueRealm) else {
                block(.error(Realm.Error(.fail, "The object owning the collection of the observed results was deleted before observing began.")))
                return
            }
            registration.set(results.observe(keyPaths: keyPaths, block))
        } catch {
            block(.error(error))
        }
    }
}

/// What a list's queue registration carries to its queue.
///
/// `@unchecked Sendable`: `register` runs once, on the target queue, after
/// this value was handed over; the block is only called there.
private struct ListQueueContext<Element: RealmCollectionValue>: @unchecked Sendable {
    let configuration: Realm.Configuration
    let handle: ListHandle
    let keyPaths: [String]?
    let block: (RealmCollectionChange<List<Element>>) -> Void

    func register(on queue: DispatchQueue, into registration: QueueRegistration) {
        do {
            let queueRealm = try Realm(configuration: configuration, queue: queue)
            guard queueRealm.objectExists(key: handle.owner, className: handle.owningClass.className) else {
                block(.error(Realm.Error(.fail, "The '\(handle.owningClass.className)' object owning the observed list '\(queueRealm.propertyName(handle.property, of: handle.owningClass))' was deleted before observing began.")))
                return
            }
            let list = List<Element>()
            list.bind(to: queueRealm, owner: handle.owner, ownerHandle: handle.owningClass, property: handle.property)
            registration.set(list.observe(keyPaths: keyPaths, block))
        } catch {
            block(.error(error))
        }
    }
}

extension LinkingObjects {
    /// Delivers the changes of these linking objects on `queue` (a serial
    /// queue), where the collection passed to `block` is confined to the
    /// queue: a Realm for the same file is opened on it, and the owner is
    /// found there by its key.
    public func observe(on queue: DispatchQueue, keyPaths: [String]? = nil,
                        _ block: @escaping (RealmCollectionChange<LinkingObjects<Element>>) -> Void) -> NotificationToken {
        guard let owner else { preconditionFailure("Only the linking objects of a managed object can be observed.") }
        owner.realm.verifyThread()
        let context = LinkingObjectsQueueContext(configuration: owner.realm.configuration, owner: owner.key, ownerClass: owner.className,
                                                 propertyName: propertyName, keyPaths: keyPaths, block: block)
        let registration = QueueRegistration()
        queue.async { context.register(on: queue, into: registration) }
        return NotificationToken { queue.async { registration.invalidate() } }
    }

    /// Realm Swift's spelling: the key paths first, and nil for the
    /// registering thread.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue?,
                        _ block: @escaping (RealmCollectionChange<LinkingObjects<Element>>) -> Void) -> NotificationToken {
        guard let queue else { return observe(keyPaths: keyPaths, block) }
        return observe(on: queue, keyPaths: keyPaths, block)
    }
}

/// What a linking-objects queue registration carries to its queue.
///
/// `@unchecked Sendable`: `register` runs once, on the target queue, after
/// this value was handed over; the block is only called there.
private struct LinkingObjectsQueueContext<Element: Object>: @unchecked Sendable {
    let configuration: Realm.Configuration
    let owner: ObjectKey
    let ownerClass: String
    let propertyName: String
    let keyPaths: [String]?
    let block: (RealmCollectionChange<LinkingObjects<Element>>) -> Void

    func register(on queue: DispatchQueue, into registration: QueueRegistration) {
        do {
            let queueRealm = try Realm(configuration: configuration, queue: queue)
            guard let handle = queueRealm.state.handleIfStored(ownerClass), queueRealm.objectExists(key: owner, handle: handle) else {
                block(.error(Realm.Error(.fail, "The '\(ownerClass)' object whose linking objects were observed was deleted before observing began.")))
                return
            }
            let linking = LinkingObjects(fromType: Element.self, property: propertyName)
            linking.bind(to: queueRealm, owner: owner, ownerHandle: handle, property: 0)
            registration.set(linking.observe(keyPaths: keyPaths, block))
        } catch {
            block(.error(error))
        }
    }
}

/// The token of a registration made on a queue, touched only on that
/// queue.
final class QueueRegistration: @unchecked Sendable {
    // @unchecked: `set` and `invalidate` both run on the registration's
    // queue, which is serial.
    private var token: NotificationToken?
    private var invalidated = false

    func set(_ token: NotificationToken) {
        if invalidated { token.invalidate() } else { self.token = token }
    }

    func invalidate() {
        invalidated = true
        token?.invalidate()
        token = nil
    }
}
