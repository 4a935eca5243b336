import Foundation
import RealmCore
import RealmQuery
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A Realm: the database, as seen by one thread.
///
/// ```swift
/// let realm = try Realm()
/// try realm.write {
///     realm.add(myDog)
/// }
/// let puppies = realm.objects(Dog.self).filter("age < 2")
/// ```
///
/// A Realm reads a consistent snapshot of the file (a version) and moves to
/// the newest version on `refresh()`, at the start of each write, and on its
/// own when `autorefresh` is on and its thread runs a run loop. Realms, and
/// the objects and collections they produce, are confined to the thread
/// that opened them: `Realm(configuration:)` on the same thread returns the
/// same Realm, and using one from another thread stops with a message; pass
/// objects between threads with ``ThreadSafeReference``.
public struct Realm: Equatable {
    let state: RealmState

    /// Opens the default Realm (``Configuration/defaultConfiguration``).
    ///
    /// - Throws: ``Realm/Error`` when the file cannot be opened, is not a
    ///   Realm, or needs a migration.
    public init() throws {
        try self.init(configuration: .defaultConfiguration)
    }

    /// Opens the Realm at `fileURL` with the default configuration's other
    /// settings.
    public init(fileURL: URL) throws {
        var configuration = Configuration.defaultConfiguration
        configuration.fileURL = fileURL
        try self.init(configuration: configuration)
    }

    /// Opens a Realm, or returns this thread's open instance for the same
    /// file.
    ///
    /// - Throws: ``Realm/Error`` when the file cannot be opened, or when
    ///   reads of this thread's open instance found the file damaged since
    ///   its last throwing call (see ``Realm/Error/Code/fileCorrupt``).
    public init(configuration: Configuration) throws {
        state = try RealmCache.realm(for: configuration)
        try throwPendingError()
    }

    /// Opens a Realm confined to a serial dispatch queue instead of a
    /// thread: it may be used from any block running on `queue` (whatever
    /// thread runs it), and its notifications arrive on `queue`.
    ///
    /// - Precondition: called from a block running on `queue`.
    public init(configuration: Configuration, queue: DispatchQueue) throws {
        dispatchPrecondition(condition: .onQueue(queue))
        let marker = queue.getSpecific(key: QueueMarker.key) ?? {
            let marker = QueueMarker()
            queue.setSpecific(key: QueueMarker.key, value: marker)
            return marker
        }()
        state = try RealmOpener.open(configuration, confinement: .queue(marker, queue))
    }

    init(state: RealmState) {
        self.state = state
    }

    public static func == (lhs: Realm, rhs: Realm) -> Bool {
        lhs.state === rhs.state
    }

    // MARK: Properties

    /// The configuration the Realm was opened with.
    public var configuration: Configuration { state.configuration }

    /// The schema of the classes this Realm holds: with
    /// ``Configuration/objectTypes``, of those classes (and the classes
    /// they link to) only, whatever else the file holds.
    public var schema: Schema {
        withAccess {
            let stored = transaction.schema
            guard configuration.objectTypes != nil else { return stored }
            let names = state.subsetClassNames
            return Schema(stored.objectSchemas.filter { names.contains($0.name) })
        }
    }

    /// Whether the Realm moves to the newest version on its own, at the
    /// start of each run-loop iteration of its thread. Without a run loop,
    /// call ``refresh()``. Always false for a frozen Realm.
    ///
    /// - Precondition: not set to true on a frozen Realm.
    public var autorefresh: Bool {
        get { state.autorefresh }
        nonmutating set {
            precondition(!(newValue && isFrozen), "Auto-refresh cannot be enabled for frozen Realms.")
            guard !isFrozen else { return }
            state.autorefresh = newValue
        }
    }

    /// Whether the Realm is read-only.
    public var isReadOnly: Bool { configuration.readOnly }

    var transaction: Transaction { state.transaction }

    /// The Realm's transaction, for the sync client above this module
    /// (its tables beside the data), on the Realm's thread.
    package var storageTransaction: Transaction {
        verifyThread()
        return state.transaction
    }

    // MARK: Versions

    /// Moves to the newest version. Returns whether there was anything new
    /// (never, for a frozen Realm).
    @discardableResult
    public func refresh() -> Bool {
        verifyThread()
        guard !isInWriteTransaction, !isFrozen else { return false }
        let changed = perform("refresh", ifDamaged: false) { try $0.refresh() }
        // Pending notifications arrive now, on this thread.
        state.deliverNotifications(versionChanged: changed)
        return changed
    }

    /// Releases the version being read: every object and collection of
    /// this Realm reads the newest version on next access. Inside a write
    /// transaction, cancels it.
    ///
    /// A frozen Realm may not be read after this.
    public func invalidate() {
        verifyThread()
        if let lock = state.frozenLock {
            lock.withLock { state.frozenRealmInvalidated = true }
            return
        }
        state.invalidations &+= 1
        state.writeNeverBegan = false
        state.writeFailure = nil
        state.keptAliveByWrite = nil
        transaction.invalidate()
    }

    /// Stops with Realm's message when `object` was read before the last
    /// ``invalidate()``.
    @inline(__always)
    func verifyNotInvalidated(_ object: Object) {
        if object._invalidations != state.invalidations {
            preconditionFailure("Object of class '\(Swift.type(of: object).className())' has been deleted or invalidated.")
        }
    }

    // MARK: Write transactions

    /// Whether a write transaction is open (also one that ``beginWrite()``
    /// could not begin, until it is committed or cancelled).
    public var isInWriteTransaction: Bool {
        transaction.isInWriteTransaction || state.writeNeverBegan
    }

    /// Runs `block` in a write transaction and commits it. If `block`
    /// throws, the transaction is cancelled and the error rethrown.
    ///
    /// When a call of the block that does not throw (`add`, `create`, a
    /// property setter, a list mutation) failed on bad input, the block
    /// still runs to its end; then nothing of it is committed, and its
    /// first such error is thrown (see ``commitWrite()``).
    ///
    /// The commit notifies every registration but those of `tokens`, as
    /// ``commitWrite(withoutNotifying:)`` does: changes the interface shows
    /// already (a row the user just moved) are not reported back to it.
    ///
    /// - Throws: the block's error; the first error recorded by a call of
    ///   the block; ``Realm/Error`` when the write cannot begin (another
    ///   process held the file's write lock for a minute, a failing disk,
    ///   damage found reading the file) or the commit fails (a full disk).
    @discardableResult
    public func write<Result>(withoutNotifying tokens: [NotificationToken] = [], _ block: () throws -> Result) throws -> Result {
        try throwPendingError()
        try beginWriteOrThrow()
        return try finishWrite(withoutNotifying: tokens, block)
    }

    /// Runs `block` in the write transaction just begun and commits it
    /// (unless the block ended it), notifying all but `tokens`; cancels it
    /// when `block` throws.
    func finishWrite<Result>(withoutNotifying tokens: [NotificationToken] = [], _ block: () throws -> Result) throws -> Result {
        let result: Result
        do {
            result = try block()
        } catch {
            if isInWriteTransaction { cancelWrite() }
            throw error
        }
        if isInWriteTransaction {
            if tokens.isEmpty { try commitWrite() } else { try commitWrite(withoutNotifying: tokens) }
        }
        return result
    }

    /// Begins a write transaction, first moving to the newest version; waits
    /// while another thread or process writes, however long that takes, as
    /// Realm does.
    ///
    /// It cannot throw. A write that cannot begin for a reason of the file
    /// (a failing disk, damage found reading it) fails as bad input does:
    /// the Realm is in a write transaction whose calls change nothing, and
    /// ``commitWrite()`` throws the error. ``write(_:)`` throws it at once.
    ///
    /// - Precondition: not already in a write transaction, and not a
    ///   read-only Realm.
    public func beginWrite() {
        while true {
            do {
                try beginTransaction()
                return
            } catch where error.sqliteCode == Connection.busyCode {
                // Another process held the write lock past the busy
                // timeout: go on waiting.
                continue
            } catch {
                state.writeNeverBegan = true
                state.writeFailure = Realm.Error(error, fileURL: configuration.fileURL)
                state.keptAliveByWrite = state
                return
            }
        }
    }

    /// Begins a write transaction, or throws why it cannot.
    ///
    /// - Throws: ``Realm/Error`` when another process held the write lock
    ///   past the busy timeout, or the file cannot be read or written.
    ///
    /// - Parameter reservation: the write lock, taken already without
    ///   blocking (`asyncWrite`).
    func beginWriteOrThrow(using reservation: WriteLockReservation? = nil) throws(Realm.Error) {
        do {
            try beginTransaction(using: reservation)
        } catch {
            throw Realm.Error(error, fileURL: configuration.fileURL)
        }
    }

    /// Begins the write; a failure that is the caller's (a nested write,
    /// a read-only Realm) stops, one of the file is thrown.
    private func beginTransaction(using reservation: WriteLockReservation? = nil) throws(RealmError) {
        verifyThread()
        verifyNotFrozen()
        precondition(!isReadOnly, "Can't perform transactions on read-only Realms (at '\(configuration.identity)').")
        precondition(!isInWriteTransaction, "The Realm is already in a write transaction; write transactions cannot be nested.")
        // The lock such a write may already hold waits for this actor,
        // which would wait for the lock: a deadlock, refused instead.
        precondition(reservation != nil || state.asyncWritesWaitingForTheLock == 0,
                     "Cannot begin a synchronous write on the Realm at '\(configuration.identity)' while one of its asyncWrite calls waits for the write lock: await it first.")
        precondition(!(state.notifiersIfAny?.isDelivering ?? false),
                     "Cannot begin a write transaction from inside a notification handler that refresh() or beginWrite() is delivering; write after it returns, or deliver on a run loop.")
        if let notifiers = state.notifiersIfAny, !notifiers.isEmpty {
            // Advancing to the newest version delivers what it brings first,
            // as the seeds describe.
            let changed = perform("refresh", ifDamaged: false) { try $0.refresh() }
            state.deliverNotifications(versionChanged: changed)
        }
        do {
            if let reservation {
                try transaction.beginWrite(using: reservation)
            } else {
                try transaction.beginWrite()
            }
        } catch {
            // This thread writing to the file through another Realm.
            guard error.kind != .invalidTransactionState else { preconditionFailure("Failed to begin a write transaction: \(error)") }
            throw error
        }
        state.writeFailure = nil
        // The thread's cache holds Realms weakly; an open write keeps this
        // one alive, so that `Realm()` on this thread finds the same
        // transaction even when every other reference to it was dropped.
        state.keptAliveByWrite = state
    }

    /// Commits the write transaction.
    ///
    /// - Throws: ``Realm/Error`` when a call of the transaction that does not
    ///   throw (`add`, `create`, a property setter, a list mutation) failed
    ///   on bad input: the first such error, after the whole transaction was
    ///   rolled back. Also when the changes could not be written; they are
    ///   then discarded too.
    public func commitWrite() throws {
        verifyThread()
        precondition(isInWriteTransaction, "Can't commit a non-existing write transaction.")
        if let damage = transaction.takeDamage() { noteDamage(damage, while: "read a value") }
        if let failure = state.writeFailure {
            cancelWrite()
            throw failure
        }
        do {
            try transaction.commitWrite()
        } catch {
            state.forgetSchemaChanges()
            if !transaction.isInWriteTransaction { state.keptAliveByWrite = nil }
            throw Realm.Error(error)
        }
        state.keptAliveByWrite = nil
        if let version = try? transaction.version { state.recordOwnCommit(version) }
        state.notifiersIfAny?.notifyRealmObservers(.didChange)
    }

    /// Discards every change of the write transaction. Objects added in it
    /// become invalidated; deleted objects' data is restored.
    public func cancelWrite() {
        verifyThread()
        precondition(isInWriteTransaction, "Can't cancel a non-existing write transaction.")
        transaction.cancelWrite()
        state.writeNeverBegan = false
        state.writeFailure = nil
        state.keptAliveByWrite = nil
        state.forgetSchemaChanges()
    }

    // MARK: Reading objects

    /// Every object of a class, as a live ``Results``; for a ``Projection``
    /// type, a projection of every object of its root class.
    public func objects<Element: RealmFetchable>(_ type: Element.Type) -> Results<Element> {
        withAccess {
            let type = Element.modelClass
            precondition(type != Object.self && type != EmbeddedObject.self && type != DynamicObject.self,
                         "Object type '\(type.className())' is not managed by the Realm: query a model class (a subclass of Object), or a class by name with dynamicObjects(_:).")
            precondition(!type.isEmbedded, "Embedded objects of class '\(type.className())' cannot be queried directly; reach them through their parent.")
            return Results(realm: self, query: state.allObjectsQuery(of: type))
        }
    }

    /// The object of a class with the given primary key, or nil.
    ///
    /// - Precondition: the class has a primary key of the key's type.
    public func object<Element: Object, Key>(ofType type: Element.Type, forPrimaryKey key: Key) -> Element? {
        withAccess { findObject(ofType: type, forPrimaryKey: key) }
    }

    private func findObject<Element: Object, Key>(ofType type: Element.Type, forPrimaryKey key: Key) -> Element? {
        guard let className = state.registeredName(of: type), let handle = state.handleIfStored(className) else { return nil }
        let value = ValueImporter.primaryKeyValue(key, className: className)
        // One statement finds the object and reads its row, from which its
        // properties are then read.
        let found = perform("find '\(className)' by primary key", ifDamaged: nil) { try $0.objectRow(withPrimaryKey: value, in: handle) }
        return found.map { element in
            let object = makeObject(type, key: element.key, className: className, handle: handle)
            object._rowBatch = element.batch
            object._row = element.row
            return object
        }
    }

    // MARK: Thread confinement

    /// Stops unless called on the Realm's thread; a frozen Realm may be
    /// used on any thread.
    @inline(__always)
    func verifyThread() {
        if !state.isOnOwningThread() && !state.isFrozen { wrongThread() }
    }

    /// Stops unless called on the Realm's thread, naming the property of
    /// `object` that was being read or written; a frozen Realm may be used
    /// on any thread.
    @inline(__always)
    func verifyThread(accessing property: Int, of object: Object) {
        if !state.isOnOwningThread() && !state.isFrozen {
            wrongThread("accessing '\(Swift.type(of: object).className()).\(object.objectSchema.properties[property].name)'")
        }
    }

    @inline(never)
    private func wrongThread(_ access: @autoclosure () -> String = "") -> Never {
        let what = access()
        preconditionFailure("Realm accessed from incorrect thread\(what.isEmpty ? "" : " (" + what + ")"): the Realm at '\(configuration.identity)' belongs to \(state.confinement.description), and this is \(RealmState.Confinement.currentThreadDescription). A Realm, its objects and collections can only be used on the thread that opened it; pass objects to another thread with ThreadSafeReference.")
    }

    /// Runs a RealmCore operation; errors here are programming errors or
    /// broken files, which stop with the error's message, as in Realm.
    @discardableResult
    func perform<Result>(_ action: @autoclosure () -> String, _ body: (Transaction) throws -> Result) -> Result {
        withAccess {
            do {
                return try body(transaction)
            } catch {
                preconditionFailure("Failed to \(action()): \(error)")
            }
        }
    }
}

/// Marks a queue as the one a queue-confined Realm belongs to.
final class QueueMarker: Sendable {
    static let key = DispatchSpecificKey<QueueMarker>()
}

/// The state behind every `Realm` value of one thread and configuration.
final class RealmState {
    let configuration: Realm.Configuration
    let coordinator: Coordinator
    let transaction: Transaction
    var autorefresh = true
    let confinement: Confinement

    /// What a Realm belongs to: the thread that opened it, or a serial
    /// queue (identified by a marker set as the queue's specific value).
    enum Confinement: CustomStringConvertible {
        case thread(pthread_t)
        case queue(QueueMarker, DispatchQueue)
        /// An actor: code isolated to it, on whatever thread.
        case actor(ActorConfinement)
        /// No thread: a frozen Realm, which any thread reads under its
        /// lock (``Realm/withAccess(_:)``).
        case frozen

        /// Whether the calling code runs on this thread or queue, and so
        /// may read without a lock; never for a frozen Realm.
        var isCurrent: Bool {
            switch self {
            case .thread(let thread): pthread_equal(thread, pthread_self()) != 0
            case .queue(let marker, _): DispatchQueue.getSpecific(key: QueueMarker.key) === marker
            case .actor(let confinement): confinement.isCurrent
            case .frozen: false
            }
        }

        var description: String {
            switch self {
            case .thread(let thread): "thread \(thread)"
            case .queue(_, let queue): "the queue '\(queue.label)'"
            case .actor(let confinement): confinement.description
            case .frozen: "no thread (it is frozen)"
            }
        }

        /// The calling thread, by number and by name when it has one.
        static var currentThreadDescription: String {
            let number = "thread \(pthread_self())"
            if Thread.isMainThread { return number + " (the main thread)" }
            if let name = Thread.current.name, !name.isEmpty { return number + " ('\(name)')" }
            return number
        }
    }
    /// The filters this Realm's thread wrote lately, parsed and planned.
    let filters = FilterMemo()
    /// How often ``Realm/invalidate()`` was called: objects and lists
    /// obtained before the last call are invalidated.
    /// Read by every property read of an object (on the state's thread
    /// only, so access tracking is left off).
    @exclusivity(unchecked) var invalidations = 0
    /// The array `add` fills with a flat object's values, kept between
    /// calls (see ``takeRowBuffer()``).
    private var rowBuffer: [Value] = []

    /// An empty array with the capacity of the last row, to fill and give
    /// back with ``returnRowBuffer(_:)``; taking it leaves the state's copy
    /// empty, so that appending to it copies nothing.
    func takeRowBuffer() -> [Value] {
        var row: [Value] = []
        swap(&row, &rowBuffer)
        row.removeAll(keepingCapacity: true)
        return row
    }

    func returnRowBuffer(_ row: [Value]) {
        rowBuffer = row
    }

    // Every write transaction reads or sets `writeFailure`,
    // `keptAliveByWrite`, `ownCommits` and `notifiersIfAny`, on the state's
    // thread only: access tracking is left off for them, as for
    // `invalidations`.

    /// The first error of the open write transaction's calls that do not
    /// throw; its commit throws it instead of committing.
    @exclusivity(unchecked) var writeFailure: Realm.Error?
    /// Whether the open write transaction is one that `beginWrite()` could
    /// not begin: its calls fail (with `writeFailure` kept as the first
    /// error), and its commit throws.
    @exclusivity(unchecked) var writeNeverBegan = false
    /// The first error that calls unable to throw found since the last
    /// throwing call, which throws it: damage (see `Realm+Damage.swift`),
    /// a model class the file's schema refuses (`RealmState+Schema.swift`).
    var pendingError: Realm.Error?
    /// The asynchronous writes waiting, running, or waiting for their
    /// completion callback (see `Realm+AsyncWrites.swift`).
    @exclusivity(unchecked) var asyncWrites = AsyncWriteQueue()
    /// How many `asyncWrite` calls wait for the write lock, off the actor.
    @exclusivity(unchecked) var asyncWritesWaitingForTheLock = 0
    /// How many `asyncWrite` calls have begun and not returned: waiting for
    /// the lock or running their block.
    @exclusivity(unchecked) var asyncWriteCallsInFlight = 0
    /// Itself while a write transaction is open: a cycle, broken when the
    /// write ends, that keeps the Realm (and its transaction) alive.
    @exclusivity(unchecked) var keptAliveByWrite: RealmState?
    /// The versions this Realm's own commits made, the latest few: object
    /// notifications of local changes carry no old values, as in Realm.
    @exclusivity(unchecked) private var ownCommits: [UInt64] = []

    func recordOwnCommit(_ version: UInt64) {
        if ownCommits.count == 64 { ownCommits.removeFirst(32) }
        ownCommits.append(version)
    }

    /// Whether every version after `start` up to `end` is one of this
    /// Realm's own commits.
    func madeAllCommits(after start: UInt64, through end: UInt64) -> Bool {
        guard end > start, end - start <= UInt64(ownCommits.count) else { return false }
        return (start + 1...end).allSatisfy(ownCommits.contains)
    }
    /// The names of the classes of the configuration's subset, with the
    /// classes they link to.
    let subsetClassNames: Set<String>
    /// What this Realm learned of the file's schema and its model classes
    /// (see `SchemaCache`); replaced whole when that may no longer hold.
    @exclusivity(unchecked) var schemaCache: SchemaCache

    init(configuration: Realm.Configuration, coordinator: Coordinator, transaction: Transaction, registered types: [Object.Type],
         confinement: Confinement = .thread(pthread_self())) {
        self.configuration = configuration
        self.coordinator = coordinator
        self.transaction = transaction
        self.confinement = confinement
        frozenLock = nil
        schemaCache = SchemaCache(registered: Set(types.map(ObjectIdentifier.init)))
        subsetClassNames = Set(types.map { ClassNames.name(of: $0) })
    }

    /// The state of a frozen Realm reading `transaction`, a frozen
    /// transaction made from `live`'s, with what `live` learned of the
    /// schema.
    init(frozenFrom live: RealmState, transaction: Transaction) {
        precondition(transaction.isFrozen, "A frozen Realm reads a frozen transaction.")
        configuration = live.configuration
        coordinator = live.coordinator
        self.transaction = transaction
        confinement = .frozen
        frozenLock = transaction.frozenLock
        autorefresh = false
        schemaCache = live.schemaCache
        subsetClassNames = live.subsetClassNames
    }

    /// Whether the calling code may read the Realm without a lock: it is
    /// live and this is its thread (or queue).
    @inline(__always)
    func isOnOwningThread() -> Bool {
        confinement.isCurrent
    }

    /// For a frozen Realm, the lock of its transaction, which every read
    /// takes; nil for a live one.
    let frozenLock: NSRecursiveLock?

    /// Whether the Realm is frozen.
    @inline(__always)
    var isFrozen: Bool { frozenLock != nil }

    /// For a frozen Realm, whether ``Realm/invalidate()`` was called: it
    /// may not be read any more. Read and written under `frozenLock`.
    @exclusivity(unchecked) var frozenRealmInvalidated = false

    /// For a live Realm, the frozen Realm last made from it, while alive:
    /// freezing again at its version returns it.
    weak var lastFrozen: RealmState?

    /// Notification registrations, made on first use.
    @exclusivity(unchecked) private(set) var notifiersIfAny: NotifierSet?

    var notifiers: NotifierSet {
        if let notifiers = notifiersIfAny { return notifiers }
        // Every registration makes the set: the one place to refuse them.
        precondition(!isFrozen, "Frozen Realms do not change and do not have change notifications.")
        let notifiers = NotifierSet(state: self)
        notifiersIfAny = notifiers
        return notifiers
    }

    /// Delivers collection and object notifications for the version the
    /// Realm reads now (Realm observers hear `didChange` when it moved).
    func deliverNotifications(versionChanged: Bool) {
        notifiersIfAny?.deliver(versionChanged: versionChanged, synchronous: true)
    }
}
