import Foundation
import RealmCore
import Synchronization

/// Realms for Swift concurrency: opened for an actor (or the main actor)
/// without blocking it, and written and refreshed with `await`.
extension Realm {
    /// When opening a Realm should first download everything the server has
    /// (for a synchronized Realm; a local Realm opens the same way for all
    /// three).
    @frozen public enum OpenBehavior: Sendable {
        /// Open at once, with what the file holds; a synchronized Realm
        /// downloads in the background.
        case never
        /// Download everything before returning the Realm; fails offline.
        case always
        /// Download before returning the first time the Realm is opened on
        /// this device (its file does not exist yet), open at once after.
        case once
    }

    /// Opens a Realm for the main actor, doing the slow work of opening (a
    /// migration, compaction, a download `downloadBeforeOpen` asks for) on
    /// a background thread. It is the main thread's Realm, the one
    /// `Realm(configuration:)` returns there.
    ///
    /// - Throws: ``Realm/Error`` when the Realm cannot be opened;
    ///   `CancellationError` when the task was cancelled.
    @MainActor
    public init(configuration: Realm.Configuration = .defaultConfiguration,
                downloadBeforeOpen: OpenBehavior = .never) async throws {
        try await Self.prepareOffThread(configuration, downloadBeforeOpen)
        self.init(state: try Self.threadRealm(configuration))
    }

    /// This thread's Realm for `configuration`, as ``init(configuration:)``
    /// gives it (which an asynchronous context cannot call by that name:
    /// the asynchronous initializer is preferred there).
    static func threadRealm(_ configuration: Configuration) throws -> RealmState {
        let realm = Realm(state: try RealmCache.realm(for: configuration))
        try realm.throwPendingError()
        return realm.state
    }

    /// Opens a Realm isolated to `actor`: it may be used from code isolated
    /// to the actor (whatever thread runs it) and from nowhere else, its
    /// notifications run on the actor, and it can ``asyncWrite(_isolation:_:)``
    /// and ``asyncRefresh(_isolation:)``. Opening again for the same actor
    /// returns the same Realm while it is in use.
    ///
    /// The slow work of opening (a migration, compaction, a download
    /// `downloadBeforeOpen` asks for) runs on a background thread, not on
    /// the actor. The caller need not be isolated to the actor, but only
    /// code isolated to it can use the Realm.
    ///
    /// - Throws: ``Realm/Error`` when the Realm cannot be opened;
    ///   `CancellationError` when the task was cancelled.
    public init<A: Actor>(configuration: Realm.Configuration = .defaultConfiguration, actor: A,
                          downloadBeforeOpen: OpenBehavior = .never) async throws {
        try await Self.prepareOffThread(configuration, downloadBeforeOpen)
        let state = try await Self.confine(configuration, to: actor)
        self.init(state: state.value)
    }

    /// Opens a Realm isolated to the calling actor (see
    /// ``init(configuration:actor:downloadBeforeOpen:)``).
    public static func open(configuration: Realm.Configuration = .defaultConfiguration,
                            _isolation actor: isolated any Actor = #isolation,
                            downloadBeforeOpen: OpenBehavior = .never) async throws -> Realm {
        try await prepareOffThread(configuration, downloadBeforeOpen)
        return Realm(state: try confineHere(configuration, actor: actor))
    }

    /// Runs `block` in a write transaction and commits it, as ``write(_:)``
    /// does, but waits for its turn to write with the calling task
    /// suspended rather than its thread blocked: while another thread or
    /// actor of this process writes, the actor runs its other work.
    ///
    /// The Realm first moves to the newest version and delivers what that
    /// brings, as ``beginWrite()`` does. If `block` throws, the write is
    /// cancelled and the error rethrown.
    ///
    /// - Throws: the block's error; the errors of ``write(_:)``;
    ///   `CancellationError` when the task was cancelled while waiting (then
    ///   nothing was written).
    /// - Precondition: the Realm is isolated to an actor (or the main
    ///   thread's), and not in a write transaction.
    @discardableResult
    public func asyncWrite<Result>(_isolation actor: isolated any Actor = #isolation,
                                   _ block: () throws -> Result) async throws -> Result {
        verifyConcurrencyIsolation("asyncWrite()")
        verifyNotFrozen()
        precondition(!isInWriteTransaction, "The Realm is already in a write transaction; write transactions cannot be nested.")
        try throwPendingError()
        state.asyncWriteCallsInFlight += 1
        defer { state.asyncWriteCallsInFlight -= 1 }
        state.asyncWritesWaitingForTheLock += 1
        let reserved = await state.coordinator.reserveWriteLock()
        state.asyncWritesWaitingForTheLock -= 1
        guard let reservation = reserved, !Task.isCancelled else {
            reserved?.release()
            throw CancellationError()
        }
        try beginWriteOrThrow(using: reservation)
        return try finishWrite(block)
    }

    /// Moves to the newest version and delivers what it brings, as
    /// ``refresh()`` does, from an asynchronous context. Returns whether
    /// there was anything new.
    ///
    /// In a cancelled task it returns false and leaves the Realm where it
    /// is, as Realm's does when the task is cancelled while it waits.
    ///
    /// - Precondition: the Realm is isolated to an actor (or the main
    ///   thread's).
    @discardableResult
    public func asyncRefresh(_isolation actor: isolated any Actor = #isolation) async -> Bool {
        verifyConcurrencyIsolation("asyncRefresh()")
        guard !Task.isCancelled else { return false }
        return refresh()
    }

    /// Stops with Realm's message unless the Realm is isolated to an actor
    /// or is the main thread's, and this is where it may be used.
    private func verifyConcurrencyIsolation(_ function: String) {
        // The kind of Realm first, as Realm checks: a queue's Realm gets
        // this message wherever it is called from.
        switch state.confinement {
        case .actor:
            break
        case .thread where Thread.isMainThread:
            break
        case .thread, .queue, .frozen:
            preconditionFailure("\(function) can only be called on main thread or actor-isolated Realms (this Realm belongs to \(state.confinement.description)).")
        }
        verifyThread()
    }

    // MARK: Opening

    /// The slow work of opening, on a background thread: the schema, a
    /// migration, compaction, and the download `behavior` asks for.
    private static func prepareOffThread(_ configuration: Configuration, _ behavior: OpenBehavior) async throws {
        let download: Bool
        switch behavior {
        case .never: download = false
        case .always: download = true
        case .once: download = !Realm.fileExists(for: configuration)
        }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Swift.Error>) in
            prepare(configuration, download: download) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
        try Task.checkCancellation()
    }

    /// The Realm of `actor` for `configuration`, opened on the actor.
    private static func confine<A: Actor>(_ configuration: Configuration, to actor: isolated A) throws -> UncheckedSendable<RealmState> {
        UncheckedSendable(try confineHere(configuration, actor: actor))
    }

    /// The Realm of `actor` for `configuration`: the one it has open, or a
    /// new one.
    private static func confineHere(_ configuration: Configuration, actor: isolated any Actor) throws -> RealmState {
        try ActorRealms.shared.state(for: configuration, actor: actor) {
            try RealmOpener.open(configuration, confinement: .actor(ActorConfinement(actor)))
        }
    }
}

/// The Realms open for each actor, held weakly, so that opening a Realm
/// again for the same actor returns the same one while it is in use.
final class ActorRealms: Sendable {
    static let shared = ActorRealms()

    private struct Key: Hashable {
        let actor: ObjectIdentifier
        let identity: String
    }

    // Each entry is created and used by code isolated to its actor only.
    private let entries = Mutex<[Key: UncheckedWeak<RealmState>]>([:])

    /// The actor's open Realm for `configuration`, or the one `open` makes.
    func state(for configuration: Realm.Configuration, actor: isolated any Actor,
               open: () throws -> RealmState) throws -> RealmState {
        let key = Key(actor: ObjectIdentifier(actor), identity: configuration.identity)
        if let state = entries.withLock({ $0[key]?.value }) {
            guard state.configuration.encryptionKey == configuration.encryptionKey,
                  state.configuration.readOnly == configuration.readOnly,
                  state.configuration.schemaVersion == configuration.schemaVersion else {
                throw Realm.Error(.fail, "Realm at path '\(configuration.identity)' already opened for this actor with a different configuration (encryption key, read-only or schema version).")
            }
            return state
        }
        let state = try open()
        entries.withLock { entries in
            entries = entries.filter { $0.value.value != nil }
            entries[key] = UncheckedWeak(state)
        }
        return state
    }
}
