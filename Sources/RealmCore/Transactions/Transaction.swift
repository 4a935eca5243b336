import Foundation

/// One connection's view of a Realm file: it reads at one version (a
/// snapshot that other writers do not disturb), moves to the newest version
/// on `refresh()`, and becomes the file's single writer between
/// `beginWrite()` and `commitWrite()`.
///
/// This is the MVCC model of Realm mapped onto SQLite's WAL mode: a reading
/// transaction holds a SQLite read transaction open, which pins the WAL
/// snapshot it started on; a write first advances to the newest version,
/// then takes SQLite's write lock (`BEGIN IMMEDIATE`). Every commit
/// increments the version stored in the file. A transaction pinned at an old
/// version keeps SQLite from checkpointing past it, so the WAL grows while it
/// lives: call ``invalidate()`` (or ``refresh()``) on long-idle transactions.
///
/// A transaction is not thread-safe: use it from one thread at a time (the
/// SDK confines each Realm to its thread). Any number of transactions, in
/// any number of threads and processes, can use one file.
public final class Transaction {
    /// Where a transaction stands.
    public enum State: Equatable, Sendable {
        /// Not reading: the next access begins a read at the newest version.
        case idle
        /// Reading a snapshot at `version`.
        case reading(version: UInt64)
        /// In a write transaction that began at `version`.
        case writing(version: UInt64)

        /// The version read, unless idle.
        public var version: UInt64? {
            switch self {
            case .idle: nil
            case .reading(let version), .writing(let version): version
            }
        }
    }

    /// The coordinator of the file.
    public let coordinator: Coordinator
    /// The connection whose SQLite transaction holds the version read. A
    /// transaction that freezes while behind the newest version hands its
    /// connection to the frozen one and takes another
    /// (`Transaction+Freezing.swift`).
    @exclusivity(unchecked) var connection: Connection
    /// For a frozen transaction, the lock every use of it takes: it reads
    /// one version for its whole life, from any thread (see
    /// ``freeze()``); nil for the others, which belong to one thread.
    public let frozenLock: NSRecursiveLock?
    // A transaction belongs to one thread, and what an operation on an
    // object reads or records in it (the catalog, the state, the change
    // records, the cursors) is reached several times per object: access
    // tracking, a runtime call per access, is left off for those fields,
    // as for `counter` below.
    @exclusivity(unchecked) var catalog: Catalog
    /// Where the transaction stands.
    @exclusivity(unchecked) public internal(set) var state: State = .idle {
        didSet {
            // Keep the coordinator's list of live versions current.
            if let old = oldValue.version, old != state.version { coordinator.unpin(old) }
            if let new = state.version, new != oldValue.version { coordinator.pin(new) }
        }
    }
    /// Incremented by every change this transaction makes and by every
    /// version change, so that caches above can tell when to reload.
    public var changeCounter: UInt64 { counter }
    /// ``changeCounter``. Every property read of an object compares it
    /// (``isCurrent(_:)``); a transaction belongs to one thread, so access
    /// tracking is left off. (The attribute only applies to accesses
    /// compiled in this module, hence the accessors.)
    @exclusivity(unchecked) var counter: UInt64 = 0
    /// Whether the write under way was begun by
    /// ``beginWriteWithoutSyncingTheDisk()``.
    private var syncIsRelaxed = false

    /// Whether values read when ``changeCounter`` was `stamp` are still
    /// current.
    public func isCurrent(_ stamp: UInt64) -> Bool {
        counter == stamp
    }

    /// Damage found while reading rows, where nothing could be thrown (a
    /// value of the wrong storage class), since the last call; the caller
    /// reports it at its next throwing call.
    package func takeDamage() -> RealmError? {
        connection.takeDamage()
    }

    @exclusivity(unchecked) var recorder = ChangeRecorder()
    /// While a multi-statement operation runs under a savepoint, its change
    /// records wait here and reach `recorder` only if it succeeds.
    @exclusivity(unchecked) var pendingChanges: [PendingChange]?
    /// Moves with every change that can change a list's length or remove an
    /// object (everything but adding an object or setting a column), with
    /// every rollback and with every version change: while it stands still,
    /// ``lastAppend`` holds.
    @exclusivity(unchecked) var listEpoch: UInt64 = 0
    /// The list appended to last, its length after the append, and
    /// ``listEpoch`` then: a loop of appends to one list (each adding its
    /// element first) then needs neither the owner check nor the length.
    @exclusivity(unchecked) var lastAppend: (list: ListHandle, epoch: UInt64, length: Int)?
    /// The nested collection being created, which may be written as a
    /// mixed value while it is (see `Transaction+NestedCollections`).
    @exclusivity(unchecked) var admittedNestedCollection: NestedCollection?
    /// The owner of the set or map written last, found to exist at
    /// ``listEpoch`` then: a loop of inserts into one object's set or map
    /// checks the owner once.
    @exclusivity(unchecked) var lastCollectionOwner: (owner: ObjectKey, owningClass: ClassHandle, epoch: UInt64)?
    /// The next object key per class, read on first insert in a write.
    @exclusivity(unchecked) var nextKeys: [Int: Int64] = [:]
    /// The file's replication observer, for the write under way.
    @exclusivity(unchecked) var replication: (any ReplicationObserver)?

    /// The replication observer of the write under way, for the layer that
    /// installed it (nil outside a write).
    package var replicationObserver: (any ReplicationObserver)? { replication }
    /// The classes that lost objects in this write. Their next keys are
    /// stored at commit, so that a deleted newest key is never handed out
    /// again; for the others the largest key in the table says enough.
    @exclusivity(unchecked) var classesWithDeletions: Set<Int> = []
    /// Set during a migration, the only time a primary key may change.
    @exclusivity(unchecked) var allowsPrimaryKeyChanges = false
    /// The unique indexes of primary keys that a schema change gave to
    /// classes holding objects, made at commit: a migration first fills in
    /// the new primary key's values, which start equal.
    @exclusivity(unchecked) var pendingPrimaryKeyIndexes: [PropertyName] = []
    // Asked for once per row a write touches, on the transaction's thread.
    @exclusivity(unchecked) var statements = StatementCache()
    /// Statements of finished cursors, for the next cursor to reuse.
    @exclusivity(unchecked) var idleCursorStatements = IdleStatements()
    /// The cursors still reading from a statement, to detach before a change.
    @exclusivity(unchecked) var streamingCursors: [WeakCursor] = []

    init(coordinator: Coordinator, connection: Connection, frozenLock: NSRecursiveLock? = nil) {
        self.coordinator = coordinator
        self.connection = connection
        self.frozenLock = frozenLock
        // The first read compares the stored catalog generation with this one
        // and reloads when they differ.
        self.catalog = coordinator.currentCatalog
    }

    deinit {
        if let version = state.version { coordinator.unpin(version) }
        switch state {
        case .idle:
            break
        case .reading:
            try? connection.execute("COMMIT")
        case .writing:
            try? connection.execute("ROLLBACK")
            restoreTheSync()
            coordinator.writeLock.unlock()
        }
        statements.removeAll()
        coordinator.returnConnection(connection)
    }

    // MARK: Versions

    /// The version being read (beginning a read at the newest version when
    /// idle).
    public var version: UInt64 {
        get throws(RealmError) {
            try ensureReading()
            return state.version ?? 0
        }
    }

    /// Whether a write transaction is open.
    public var isInWriteTransaction: Bool {
        if case .writing = state { return true }
        return false
    }

    /// The schema stored in the file at the version being read.
    public var schema: Schema { catalog.schema }

    /// The schema version stored in the file at the version being read.
    public var schemaVersion: UInt64 { catalog.schemaVersion }

    /// The catalog generation at the version being read: how many times a
    /// schema was applied to the file, plus one.
    var catalogGeneration: Int64 { catalog.generation }

    /// Moves to the newest version. Returns whether the version changed.
    /// Cheap when nothing was committed since.
    ///
    /// - Throws: `invalidTransactionState` inside a write transaction.
    @discardableResult
    public func refresh() throws(RealmError) -> Bool {
        // A frozen transaction stays at its version (as a frozen Realm's
        // `refresh()` answers false).
        guard frozenLock == nil else { return false }
        switch state {
        case .idle:
            try beginRead()
            return true
        case .reading(let old):
            detachCursors()
            try connection.cachedStatement("COMMIT").run()
            state = .idle
            try beginRead()
            return try version != old
        case .writing:
            throw RealmError(.invalidTransactionState, "Cannot refresh '\(coordinator.path)' inside a write transaction; commit or cancel it first.")
        }
    }

    /// Ends the read transaction, releasing the version it pinned; the next
    /// access reads the newest version. Inside a write transaction, cancels
    /// it first.
    public func invalidate() {
        // A frozen transaction's version is all it is: the Realm above
        // refuses reads after invalidating it instead.
        guard frozenLock == nil else { return }
        detachCursors()
        switch state {
        case .idle:
            return
        case .reading:
            try? connection.cachedStatement("COMMIT").run()
        case .writing:
            cancelWrite()
            try? connection.cachedStatement("COMMIT").run()
        }
        state = .idle
        counter &+= 1
        listEpoch &+= 1
    }

    func ensureReading() throws(RealmError) {
        if case .idle = state { try beginRead() }
    }

    func beginRead() throws(RealmError) {
        try connection.cachedStatement("BEGIN").run()
        do {
            let version = try readMetadata()
            state = .reading(version: version)
            counter &+= 1
            listEpoch &+= 1
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Reads the version and catalog generation of the snapshot just begun
    /// (the first read is what fixes SQLite's snapshot), reloading the
    /// catalog when the schema changed.
    private func readMetadata() throws(RealmError) -> UInt64 {
        let statement = try connection.cachedStatement(Self.selectMetadata)
        defer { statement.reset() }
        guard try statement.step() else {
            throw RealmError(.corruptFile, "The Realm file at '\(coordinator.path)' has no metadata row.")
        }
        let version = UInt64(bitPattern: statement.int64(at: 0))
        let generation = statement.int64(at: 1)
        statement.reset()
        if generation != catalog.generation {
            catalog = try coordinator.catalog(generation: generation, connection: connection)
            statements.removeAll()
            idleCursorStatements.removeAll()
            connection.clearStatementCache()
        }
        return version
    }

    private static let selectMetadata = "SELECT \(FileLayout.versionExpression), catalog_generation FROM realm_metadata WHERE id = 1"

    // MARK: Writing

    /// Begins a write transaction: advances to the newest version, then
    /// waits until no other transaction, in this process or another, is
    /// writing.
    ///
    /// - Throws: `invalidTransactionState` when already writing, when the
    ///   Realm is read-only, or when this thread already writes to the file
    ///   through another transaction.
    public func beginWrite() throws(RealmError) {
        try beginWrite(relaxingTheSync: false)
    }

    /// Begins a write transaction with the write lock `reservation` took
    /// (see ``Coordinator/reserveWriteLock()``), as ``beginWrite()`` does
    /// otherwise. When it throws, the lock is released.
    public func beginWrite(using reservation: WriteLockReservation) throws(RealmError) {
        reservation.handOver()
        try beginWrite(relaxingTheSync: false, lockHeld: true)
    }

    /// Begins a write like ``beginWrite()`` whose commit does not wait for
    /// the disk, for content that can be had again (a download, which its
    /// server keeps): a loss of power before the next commit that syncs
    /// the disk loses this commit, and only it, since syncing the
    /// write-ahead log makes every earlier commit durable too. A crash of
    /// the process loses nothing.
    ///
    /// An encrypted file's commits always sync the disk: its recovery
    /// tells a damaged log frame from a torn one by that.
    package func beginWriteWithoutSyncingTheDisk() throws(RealmError) {
        let configuration = coordinator.configuration
        // Other files' commits do not sync the disk anyway.
        try beginWrite(relaxingTheSync: configuration.durability == .full && configuration.encryptionKey == nil && !coordinator.isInMemory)
    }

    /// - Parameter relaxingTheSync: write with `synchronous = NORMAL`
    ///   (which SQLite lets change only outside a transaction), and put
    ///   `FULL` back when the write ends.
    /// - Parameter lockHeld: the caller holds this process's write lock
    ///   (a reservation), which the write takes over, and releases on
    ///   failure.
    private func beginWrite(relaxingTheSync: Bool, lockHeld: Bool = false) throws(RealmError) {
        var refusal: RealmError?
        if frozenLock != nil {
            refusal = RealmError(.invalidTransactionState, "Can't perform transactions on a frozen Realm (at '\(coordinator.path)').")
        } else if case .writing = state {
            refusal = RealmError(.invalidTransactionState, "The Realm at '\(coordinator.path)' is already in a write transaction; write transactions cannot be nested.")
        } else if coordinator.configuration.isReadOnly {
            refusal = RealmError(.invalidTransactionState, "Cannot write to the Realm at '\(coordinator.path)': it was opened read-only.")
        }
        if let refusal {
            if lockHeld { coordinator.writeLock.unlock() }
            throw refusal
        }
        detachCursors()
        if !lockHeld { try coordinator.writeLock.lock(path: coordinator.path) }
        do {
            if case .reading = state {
                try connection.cachedStatement("COMMIT").run()
                state = .idle
            }
            if relaxingTheSync {
                try connection.cachedStatement("PRAGMA synchronous = NORMAL").run()
                syncIsRelaxed = true
            }
            try connection.cachedStatement("BEGIN IMMEDIATE").run()
        } catch {
            restoreTheSync()
            coordinator.writeLock.unlock()
            throw error
        }
        do {
            let version = try readMetadata()
            state = .writing(version: version)
            replication = coordinator.replication
            replication?.didBeginWrite(self)
            recorder = ChangeRecorder()
            nextKeys.removeAll(keepingCapacity: true)
            counter &+= 1
            listEpoch &+= 1
        } catch {
            try? connection.execute("ROLLBACK")
            restoreTheSync()
            coordinator.writeLock.unlock()
            throw error
        }
    }

    /// Puts back the file's `synchronous = FULL` after a write begun by
    /// ``beginWriteWithoutSyncingTheDisk()``; outside any transaction.
    private func restoreTheSync() {
        guard syncIsRelaxed else { return }
        syncIsRelaxed = false
        try? connection.execute("PRAGMA synchronous = FULL")
    }

    /// Commits the write transaction as a new version, records its change
    /// set, and continues reading at the new version.
    ///
    /// Once this returns, the commit is durable as the configuration's
    /// `durability` says. If committing fails (a full disk), nothing of the
    /// transaction is kept and the error is thrown. A primary key that a
    /// schema change in this write gave to a class with objects is checked
    /// first: duplicates throw `duplicatePrimaryKey` and leave the write
    /// open, to fix or cancel.
    @discardableResult
    public func commitWrite() throws(RealmError) -> ChangeSet {
        guard case .writing(let version) = state else {
            throw RealmError(.invalidTransactionState, "Cannot commit: the Realm at '\(coordinator.path)' is not in a write transaction.")
        }
        detachCursors()
        // Before anything is committed, so that duplicates leave the write
        // open for the caller to fix or cancel.
        try createPendingPrimaryKeyIndexes()
        let newVersion = version + 1
        // Before anything is committed: a failure leaves the write open, as
        // it was (what replication wrote rolls back with it). And before
        // the changes are gathered: replication may change objects too.
        if let replication { try atomically { () throws(RealmError) in try replication.willCommit(self) } }
        let changeSet = recorder.changeSet(version: newVersion, catalog: catalog)
        do {
            for classIndex in classesWithDeletions {
                guard let nextKey = nextKeys[classIndex], classIndex < catalog.tables.count else { continue }
                let statement = try connection.cachedStatement("UPDATE realm_classes SET next_key = ? WHERE name = ?")
                statement.bind(nextKey, at: 1)
                statement.bind(catalog.tables[classIndex].name, at: 2)
                try statement.run()
            }
            // Since format 3 the history's row is the version
            // (`FileLayout.versionExpression`).
            if catalog.formatVersion < 3 {
                let metadata = try connection.cachedStatement("UPDATE realm_metadata SET version = ? WHERE id = 1")
                metadata.bind(Int64(bitPattern: newVersion), at: 1)
                try metadata.run()
            }
            let history = try connection.cachedStatement("INSERT INTO realm_history (version, changes) VALUES (?, ?)")
            history.bind(Int64(bitPattern: newVersion), at: 1)
            let encoded = ChangeSetEncoding.encode(changeSet)
            encoded.withUnsafeBytes { history.bind(bytes: $0, at: 2) }
            try history.run()
            // Trimming now and then rather than at every commit spares
            // most commits a write to the history's oldest page.
            if newVersion % FileLayout.historyTrimInterval == 0 {
                let trim = try connection.cachedStatement("DELETE FROM realm_history WHERE version <= ?")
                trim.bind(Int64(bitPattern: newVersion) - FileLayout.historyLength, at: 1)
                try trim.run()
            }
            try connection.cachedStatement("COMMIT").run()
        } catch {
            try? connection.execute("ROLLBACK")
            finishWrite()
            throw error
        }
        let committedReplication = replication
        finishWrite()
        coordinator.didCommit(changeSet, catalog: catalog)
        committedReplication?.didCommit(self)
        try beginRead()
        return changeSet
    }

    /// Discards every change of the write transaction and continues reading
    /// at the newest version. Does nothing outside a write transaction.
    public func cancelWrite() {
        guard case .writing = state else { return }
        detachCursors()
        try? connection.execute("ROLLBACK")
        finishWrite()
        try? beginRead()
    }

    private func finishWrite() {
        restoreTheSync()
        replication = nil
        coordinator.noteKeysHandedOut(Dictionary(uniqueKeysWithValues: nextKeys.compactMap { index, next in
            index < catalog.tables.count ? (catalog.tables[index].name, next) : nil
        }))
        state = .idle
        recorder = ChangeRecorder()
        classesWithDeletions = []
        pendingChanges = nil
        allowsPrimaryKeyChanges = false
        pendingPrimaryKeyIndexes = []
        counter &+= 1
        listEpoch &+= 1
        coordinator.writeLock.unlock()
    }

    /// Runs `body` in a write transaction and commits it; if `body` throws,
    /// cancels the transaction and rethrows.
    @discardableResult
    public func write<Result>(_ body: () throws -> Result) throws -> Result {
        try beginWrite()
        do {
            let result = try body()
            try commitWrite()
            return result
        } catch {
            cancelWrite()
            throw error
        }
    }

    func changeCounterDidChange() {
        // `listEpoch` is `record`'s to move: most changes touch no list.
        counter &+= 1
    }

    func requireWrite(_ action: @autoclosure () -> String) throws(RealmError) {
        guard case .writing = state else {
            throw RealmError(
                .invalidTransactionState,
                "Cannot \(action()) outside of a write transaction on '\(coordinator.path)'; call beginWrite() first.")
        }
        detachCursors()
    }

    /// Runs a multi-statement change atomically: if any statement fails, the
    /// ones before it are undone and none of its changes are recorded.
    /// Operations inside take no savepoint of their own.
    package func atomically<Result>(_ body: () throws(RealmError) -> Result) throws(RealmError) -> Result {
        if pendingChanges != nil { return try body() }
        try connection.cachedStatement("SAVEPOINT realm_operation").run()
        replication?.willBeginOperation(self)
        pendingChanges = []
        let catalogBefore = catalog
        do {
            let result = try body()
            try connection.cachedStatement("RELEASE realm_operation").run()
            let changes = pendingChanges ?? []
            pendingChanges = nil
            for change in changes { apply(change) }
            return result
        } catch {
            pendingChanges = nil
            try? connection.execute("ROLLBACK TO realm_operation; RELEASE realm_operation")
            replication?.didRollBackOperation(self)
            // The rollback changed data back: nothing read since is current.
            changeCounterDidChange()
            listEpoch &+= 1
            if catalog !== catalogBefore {
                // The rollback undid a schema change made inside.
                catalog = catalogBefore
                statements.removeAll()
                idleCursorStatements.removeAll()
                connection.clearStatementCache()
            }
            throw error
        }
    }

    // MARK: Catalog access

    /// Resolves a class by name.
    public func classHandle(named name: String) throws(RealmError) -> ClassHandle {
        try ensureReading()
        guard let index = catalog.tableIndex(named: name) else {
            throw RealmError(.unknownName, "The Realm at '\(coordinator.path)' has no class named '\(name)'.")
        }
        return ClassHandle(index: index, generation: catalog.generation, className: name)
    }

    /// The index of the property named `name` in the class's schema.
    public func propertyIndex(named name: String, in handle: ClassHandle) throws(RealmError) -> Int {
        let layout = try layout(handle)
        guard let index = layout.objectSchema.propertyIndex(named: name) else {
            throw RealmError(.unknownName, "Class '\(layout.name)' has no property named '\(name)'.")
        }
        return index
    }

    /// The schema of the class behind `handle`.
    public func objectSchema(_ handle: ClassHandle) throws(RealmError) -> ObjectSchema {
        try layout(handle).objectSchema
    }

    @inline(__always)
    func layout(_ handle: ClassHandle) throws(RealmError) -> TableLayout {
        try ensureReading()
        if handle.generation == catalog.generation { return catalog.tables[handle.index] }
        guard let index = catalog.tableIndex(named: handle.className) else {
            throw RealmError(.unknownName, "Class '\(handle.className)' no longer exists in the Realm at '\(coordinator.path)'.")
        }
        return catalog.tables[index]
    }

    func statement(_ layout: TableLayout, _ kind: StatementKind) throws(RealmError) -> Statement {
        let key = StatementCache.key(table: layout.index, kind: kind)
        if let statement = statements.statement(for: key) {
            statement.reset()
            return statement
        }
        let statement = try connection.prepare(kind.sql(for: layout), persistent: true)
        statements.insert(statement, for: key)
        return statement
    }

    /// Replaces the catalog after a schema change inside this write.
    func replaceCatalog(_ newCatalog: Catalog) {
        listEpoch &+= 1
        // Records made so far name classes by their old positions.
        if let pending = pendingChanges {
            pending.forEach(apply)
            pendingChanges = []
        }
        recorder.remapClasses(from: catalog, to: newCatalog)
        nextKeys = Dictionary(uniqueKeysWithValues: nextKeys.compactMap { index, key in
            newCatalog.tableIndex(named: catalog.tables[index].name).map { ($0, key) }
        })
        classesWithDeletions = Set(classesWithDeletions.compactMap { newCatalog.tableIndex(named: catalog.tables[$0].name) })
        catalog = newCatalog
        statements.removeAll()
        connection.clearStatementCache()
        recorder.schemaChanged = true
    }
}


extension Transaction {
    /// Runs a change made of several object-store operations atomically: if
    /// `body` throws, every operation it made is undone and none of its
    /// changes are recorded, and the write transaction stays usable.
    public func atomicallyRethrowing(_ body: () throws -> Void) throws {
        try requireWrite("change objects")
        var failure: (any Error)?
        do {
            try atomically { () throws(RealmError) in
                do {
                    try body()
                } catch let error as RealmError {
                    throw error
                } catch {
                    failure = error
                    throw RealmError(.invalidValue, "\(error)")
                }
            }
        } catch {
            throw failure ?? error
        }
    }
}
