import Foundation
import RealmCore

/// Frozen Realms: snapshots that never change, readable from any thread.
///
/// A frozen Realm reads a frozen transaction (``Transaction/freeze()``).
/// Its objects and collections are shared between threads, and reading
/// them fills caches (an object's row, a result's keys) and uses the
/// transaction's statements: every read therefore runs under the frozen
/// transaction's lock, taken by ``Realm/withAccess(_:)``. A live Realm's
/// reads take no lock: they stay on its thread.
extension Realm {
    /// Whether this Realm is frozen: a snapshot of one version that does
    /// not change, cannot be written, and may be read from any thread.
    public var isFrozen: Bool { state.isFrozen }

    /// A frozen snapshot of this Realm at the version it reads: it does
    /// not change, cannot be written, and may be read from any thread.
    ///
    /// Freezing again at the same version returns the same frozen Realm
    /// while it is in use; a frozen Realm returns itself. Inside a write
    /// transaction, the snapshot is of the version the write began at.
    ///
    /// One difference from Realm: a Realm that is behind the newest
    /// version (another thread or process committed since it last moved)
    /// moves to the newest version to freeze, as ``refresh()`` would, and
    /// delivers its notifications; the frozen Realm has the version it
    /// was at. SQLite can only begin reading at the newest version, so the
    /// frozen Realm takes over the live one's read.
    public func freeze() -> Realm {
        verifyThread()
        if isFrozen { return self }
        if let frozen = state.lastFrozen, frozen.transaction.state.version == (try? transaction.version) {
            return Realm(state: frozen)
        }
        let (frozenTransaction, moved) = perform("freeze the Realm at '\(configuration.identity)'") { try $0.freeze() }
        let frozen = RealmState(frozenFrom: state, transaction: frozenTransaction)
        state.lastFrozen = frozen
        if moved { state.deliverNotifications(versionChanged: true) }
        return Realm(state: frozen)
    }

    /// The live Realm of the calling thread for a frozen Realm's file
    /// (opening it when needed); a live Realm returns itself.
    public func thaw() -> Realm {
        guard isFrozen else { return self }
        do {
            return try Realm(configuration: configuration)
        } catch {
            preconditionFailure("Failed to thaw the frozen Realm at '\(configuration.identity)': \(error)")
        }
    }

    /// Runs `body` with the right to read the Realm's transaction and the
    /// caches of its objects and collections: on the Realm's thread for a
    /// live Realm (stopping on any other), and under the lock of a frozen
    /// one, which any thread may read. Calls nest.
    @inline(__always)
    func withAccess<Result, Failure: Swift.Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        guard let lock = state.frozenLock else {
            verifyThread()
            return try body()
        }
        lock.lock()
        defer { lock.unlock() }
        if state.frozenRealmInvalidated { readAfterInvalidatingFrozen() }
        return try body()
    }

    @inline(never)
    private func readAfterInvalidatingFrozen() -> Never {
        preconditionFailure("Cannot read from a frozen Realm which has been invalidated. (The Realm at '\(configuration.identity)'.)")
    }

    /// Stops with Realm's message when the Realm is frozen: it cannot be
    /// written.
    @inline(__always)
    func verifyNotFrozen() {
        if isFrozen { frozenWrite() }
    }

    @inline(never)
    private func frozenWrite() -> Never {
        preconditionFailure("Can't perform transactions on a frozen Realm (at '\(configuration.identity)').")
    }

    /// Stops with Realm's message when the Realm is frozen: its objects
    /// cannot be modified.
    @inline(__always)
    func verifyObjectWritable() {
        if isFrozen { frozenObjectWrite() }
    }

    @inline(never)
    private func frozenObjectWrite() -> Never {
        preconditionFailure("Attempting to modify a frozen object - call thaw on the Object instance first.")
    }

    /// Stops with Realm's message when the Realm is frozen: it has no
    /// change notifications.
    func verifyObservable() {
        precondition(!isFrozen, "Frozen Realms do not change and do not have change notifications.")
    }
}
