import Foundation
import RealmCore
import Synchronization

/// The notification registrations of one Realm (one thread), and their
/// delivery.
///
/// Notifications are delivered on the Realm's thread when it advances to a
/// newer version: through its run loop after each commit (when the thread
/// runs one and `autorefresh` is on), and otherwise when the thread calls
/// `refresh()` or `beginWrite()`. Changes of several commits are coalesced
/// into one notification.
final class NotifierSet {
    unowned let state: RealmState
    /// `state` again, weakly, for deliveries scheduled on the Realm's queue
    /// or run loop: the Realm's last reference may go away on another
    /// thread meanwhile, and such a delivery must then find it gone rather
    /// than read `state`.
    private weak var liveState: RealmState?
    /// The Realm's thread or queue, kept here for tokens released on other
    /// threads: such a release may race with the Realm's own end, so it
    /// must not read `state`.
    private let confinement: RealmState.Confinement
    /// Kept for unsubscribing when the Realm (and this set) goes away.
    private let coordinator: Coordinator
    private var realmObservers: [Int: (Realm.Notification, Realm) -> Void] = [:]
    /// The token of each Realm observer, by registration.
    private var realmObserverTokens: [Int: ObjectIdentifier] = [:]
    /// The tokens of Realm observers the commit being made is not told to
    /// (`commitWrite(withoutNotifying:)`).
    private var skippedRealmObservers: Set<ObjectIdentifier> = []
    private var collectionNotifiers: [Int: CollectionNotifier] = [:]
    private var objectNotifiers: [Int: ObjectNotifier] = [:]
    private var nextID = 0
    private var listenerID: Int?
    private var scheduler: DeliveryScheduler?
    /// Computes collection changes off this thread. None for a Realm
    /// confined to a queue: it already computes there, away from the thread
    /// that registered, and a second hop would only add latency.
    private let worker: NotificationWorker?
    /// Set while handlers run from `refresh()` or `beginWrite()`.
    private(set) var isDelivering = false
    /// The version Realm observers last heard of.
    private var observedVersion: UInt64 = 0

    init(state: RealmState) {
        self.state = state
        self.liveState = state
        self.confinement = state.confinement
        self.coordinator = state.coordinator
        switch state.confinement {
        case .queue, .actor:
            worker = nil
        case .thread, .frozen:
            worker = NotificationWorker(coordinator: state.coordinator)
        }
    }

    deinit {
        if let listenerID { coordinator.removeCommitListener(listenerID) }
    }

    var isEmpty: Bool {
        realmObservers.isEmpty && collectionNotifiers.isEmpty && objectNotifiers.isEmpty
    }

    // MARK: Registering

    func addRealmObserver(_ block: @escaping (Realm.Notification, Realm) -> Void) -> NotificationToken {
        let id = register()
        observedVersion = (try? state.transaction.version) ?? 0
        realmObservers[id] = block
        let token = token(id)
        realmObserverTokens[id] = ObjectIdentifier(token)
        return token
    }

    func addCollectionNotifier(_ notifier: CollectionNotifier) -> NotificationToken {
        let id = register()
        collectionNotifiers[id] = notifier
        notifier.start(in: state)
        // `.initial` arrives after `observe` returns: at the next turn of
        // the thread's run loop (or on the queue), or at the next refresh.
        scheduler?.schedule()
        worker?.add(notifier)
        return token(id)
    }

    func addObjectNotifier(_ notifier: ObjectNotifier) -> NotificationToken {
        let id = register()
        objectNotifiers[id] = notifier
        notifier.start(in: state)
        return token(id)
    }

    private func register() -> Int {
        startListening()
        nextID += 1
        return nextID
    }

    private func token(_ id: Int) -> NotificationToken {
        let box = UncheckedWeak(self)
        return NotificationToken {
            // Tokens may be released on any thread; registrations belong to
            // the Realm's thread (or queue), so only drop them there.
            guard let set = box.value, set.confinement.isCurrent else { return }
            set.realmObservers[id] = nil
            set.realmObserverTokens[id] = nil
            set.collectionNotifiers[id] = nil
            set.objectNotifiers[id] = nil
        }
    }

    /// Subscribes to the coordinator's commits, scheduling a delivery on
    /// this thread's run loop after each (which also autorefreshes the
    /// Realm when the thread runs its loop).
    func startListening() {
        guard listenerID == nil else { return }
        let scheduler: DeliveryScheduler
        switch state.confinement {
        case .queue(_, let queue):
            scheduler = DeliveryScheduler(queue: queue, target: UncheckedWeak(self))
        case .thread:
            scheduler = Thread.isMainThread
                ? DeliveryScheduler(queue: .main, target: UncheckedWeak(self))
                : DeliveryScheduler(runLoop: RunLoop.current, target: UncheckedWeak(self))
        case .actor(let confinement):
            scheduler = DeliveryScheduler(actor: confinement, target: UncheckedWeak(self))
        case .frozen:
            preconditionFailure("Frozen Realms do not change and do not have change notifications.")
        }
        self.scheduler = scheduler
        let worker = self.worker
        listenerID = state.coordinator.addCommitListener { _ in
            // Collection changes are computed first, off this thread; the
            // delivery then finds them ready.
            if let worker, !worker.isIdle {
                worker.computeChanges { scheduler.schedule() }
            } else {
                scheduler.schedule()
            }
        }
    }

    // MARK: Delivering

    /// Runs from the thread's run loop after a commit: moves to the newest
    /// version (with autorefresh) and delivers.
    func deliverFromRunLoop() {
        // Holding the state keeps it alive until the delivery ends.
        guard let liveState else { return }
        withExtendedLifetime(liveState) { deliverWhileAlive() }
    }

    private func deliverWhileAlive() {
        guard !state.transaction.isInWriteTransaction else { return }
        if state.autorefresh {
            let before = try? state.transaction.version
            _ = try? state.transaction.refresh()
            let after = try? state.transaction.version
            deliver(versionChanged: before != after)
        } else {
            notifyRealmObservers(.refreshRequired)
        }
    }

    /// Delivers what changed since each registration last heard, to the
    /// version the Realm now reads.
    func deliver(versionChanged: Bool, synchronous: Bool = false) {
        guard !isEmpty else { return }
        isDelivering = synchronous
        defer { isDelivering = false }
        if versionChanged { notifyRealmObservers(.didChange) }
        for id in collectionNotifiers.keys.sorted() {
            collectionNotifiers[id]?.deliver(in: state)
        }
        for id in objectNotifiers.keys.sorted() {
            guard let notifier = objectNotifiers[id] else { continue }
            if notifier.deliver(in: state) == .finished { objectNotifiers[id] = nil }
        }
    }

    func notifyRealmObservers(_ notification: Realm.Notification) {
        if case .didChange = notification {
            // Once per version, however the Realm got there.
            guard let version = try? state.transaction.version, version > observedVersion else { return }
            observedVersion = version
        }
        let realm = Realm(state: state)
        for id in realmObservers.keys.sorted() {
            if let token = realmObserverTokens[id], skippedRealmObservers.contains(token) { continue }
            realmObservers[id]?(notification, realm)
        }
    }

    /// Runs `commit` so that the Realm observers of `tokens` are not told of
    /// it (their other registrations are skipped by ``skip(_:)`` after it).
    func withoutNotifyingRealmObservers(of tokens: [NotificationToken], _ commit: () throws -> Void) rethrows {
        skippedRealmObservers = Set(tokens.map(ObjectIdentifier.init))
        defer { skippedRealmObservers = [] }
        try commit()
    }

    /// After a commit made with `withoutNotifying`: the given registrations
    /// take the new state as their baseline without being called.
    func skip(_ tokens: [NotificationToken]) {
        for notifier in collectionNotifiers.values where tokens.contains(where: { $0 === notifier.token }) {
            notifier.rebase(in: state)
        }
        for notifier in objectNotifiers.values where tokens.contains(where: { $0 === notifier.token }) {
            notifier.rebase(in: state)
        }
    }
}

/// Schedules deliveries on the registering thread from the committing
/// thread, one pending delivery at a time (a thread that never runs its
/// loop then holds one, not one per commit): through the main queue on the
/// main thread (served by `dispatchMain()` and by `RunLoop.main.run()`), and
/// as a timer on another thread's run loop (a timer is also what keeps a
/// Linux run loop running).
final class DeliveryScheduler: Sendable {
    // `runLoop` is only used to add timers, which CoreFoundation allows
    // from any thread; `target` is only dereferenced inside the timer's or
    // the main queue's block, on the registering thread.
    private let runLoop: UncheckedSendable<RunLoop>?
    private let queue: DispatchQueue?
    private let actor: ActorConfinement?
    private let target: UncheckedWeak<NotifierSet>
    private let pending = Mutex(false)

    init(runLoop: RunLoop, target: UncheckedWeak<NotifierSet>) {
        self.runLoop = UncheckedSendable(runLoop)
        self.queue = nil
        self.actor = nil
        self.target = target
    }

    init(queue: DispatchQueue, target: UncheckedWeak<NotifierSet>) {
        self.runLoop = nil
        self.queue = queue
        self.actor = nil
        self.target = target
    }

    init(actor: ActorConfinement, target: UncheckedWeak<NotifierSet>) {
        self.runLoop = nil
        self.queue = nil
        self.actor = actor
        self.target = target
    }

    func schedule() {
        let alreadyPending = pending.withLock { flag in
            defer { flag = true }
            return flag
        }
        guard !alreadyPending else { return }
        let target = self.target
        let deliver: @Sendable () -> Void = { [self] in
            pending.withLock { $0 = false }
            target.value?.deliverFromRunLoop()
        }
        if let runLoop {
            runLoop.value.add(Timer(timeInterval: 0, repeats: false) { _ in deliver() }, forMode: .default)
        } else if let queue {
            queue.async(execute: deliver)
        } else if let actor {
            actor.enqueue(deliver)
        }
    }
}

/// A weak reference that may cross threads; only dereferenced where the
/// referent lives.
final class UncheckedWeak<T: AnyObject>: @unchecked Sendable {
    weak var value: T?
    init(_ value: T) { self.value = value }
}

/// A value that may cross threads because it is only used in ways its API
/// allows from any thread (stated at each use).
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
