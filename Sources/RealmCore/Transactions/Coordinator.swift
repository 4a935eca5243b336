import Foundation
import Synchronization

/// The one object per file per process that every transaction on the file
/// goes through: it opens and initialises the file, checks and migrates its
/// schema, caches the catalog, pools SQLite connections, serialises this
/// process's writers, and keeps the change sets of recent commits.
///
/// ```swift
/// let coordinator = try Coordinator.open(.file(path, schema: schema))
/// let transaction = try coordinator.makeTransaction()
/// try transaction.write {
///     let dogs = try transaction.classHandle(named: "Dog")
///     _ = try transaction.createObject(in: dogs, values: [.string("Rex"), .int(3)])
/// }
/// ```
///
/// Coordinators are shared: opening the same file (or in-memory identifier)
/// again while a coordinator for it is alive returns the same instance.
public final class Coordinator: Sendable {
    /// The configuration the coordinator was first opened with.
    public let configuration: Configuration
    /// The path of the SQLite file (for in-memory Realms, a private file in a
    /// temporary directory, deleted with the coordinator).
    public let path: String

    let writeLock = WriteLock()

    /// The observer told of every change of every write transaction of the
    /// file in this process (see ``ReplicationObserver``); a write that has
    /// begun keeps the one it began with.
    package var replication: (any ReplicationObserver)? {
        get { state.withLock { $0.replication } }
        set { state.withLock { $0.replication = newValue } }
    }
    private let state: Mutex<State>
    private let fileLock: FileLock
    let isInMemory: Bool

    private struct State {
        var catalog: Catalog
        var idleConnections: [PooledConnection] = []
        var latestVersion: UInt64
        var recentChanges: [ChangeSet] = []
        /// Per class, the next object key no transaction of this process has
        /// handed out, not even one that was rolled back.
        var keyHighWater: [String: Int64] = [:]
        /// Wakes other processes after our commits and us after theirs.
        var interprocess: InterprocessNotifier?
        /// Called after every commit this process learns of.
        var commitListeners: [Int: @Sendable (UInt64) -> Void] = [:]
        var nextListenerID = 0
        /// Told of every change of every write (sync's recorder).
        var replication: (any ReplicationObserver)?
        /// How many of this process's transactions read at each version.
        var pinnedVersions: [UInt64: Int] = [:]
    }

    /// How many recent change sets are kept in memory for this process's
    /// consumers; older ones are read from the file's history.
    static let recentChangeLimit = 64
    /// How many idle connections are kept for reuse.
    static let poolLimit = 8

    // MARK: Opening

    /// Opens (creating when needed) the Realm the configuration describes,
    /// checks the file, and brings its schema to `configuration.schema`:
    /// new classes and index changes are applied at once; any other
    /// difference needs a higher `schemaVersion` (and runs the configured
    /// migration), or the open fails with an error listing every difference.
    ///
    /// - Throws: ``RealmError`` of kind `fileAccess`, `notARealm`,
    ///   `corruptFile`, `incompatibleFormat`, `invalidSchema` or
    ///   `schemaMismatch`; the file is unchanged when it was not a Realm.
    public static func open(_ configuration: Configuration) throws(RealmError) -> Coordinator {
        if let schema = configuration.schema {
            try schema.validate()
        }
        let coordinator = try Registry.shared.coordinator(for: configuration)
        coordinator.startInterprocessNotifications()
        if let schema = configuration.schema {
            try coordinator.prepareSchema(schema, version: configuration.schemaVersion, migration: configuration.migration)
        } else {
            try coordinator.recordFirstOpen(version: configuration.schemaVersion)
        }
        return coordinator
    }

    init(configuration: Configuration, path: String, isInMemory: Bool) throws(RealmError) {
        self.configuration = configuration
        self.path = path
        self.isInMemory = isInMemory
        let finding = try FileProbe.inspect(path: path, encrypted: configuration.encryptionKey != nil)
        if finding == .missing && configuration.isReadOnly {
            throw RealmError(.fileNotFound, "Unable to open a Realm at path '\(path)' read-only: the file does not exist.")
        }
        let connection = try Self.openConnection(path: path, configuration: configuration, isInMemory: isInMemory)
        try Self.prepareFile(connection, readOnly: configuration.isReadOnly)
        let fileLock = try FileLock(path: path)
        self.fileLock = fileLock
        connection.fileLock = fileLock
        try Self.configure(connection, configuration: configuration, isInMemory: isInMemory)
        try connection.execute("BEGIN")
        defer { try? connection.execute("COMMIT") }
        let catalog = try Catalog.load(from: connection)
        let version = try connection.scalar(FileLayout.selectVersion) ?? 0
        self.state = Mutex(State(
            catalog: catalog,
            idleConnections: [PooledConnection(connection)],
            latestVersion: UInt64(version)))
    }

    deinit {
        state.withLock { $0.interprocess?.close() }
        state.withLock { $0.idleConnections.removeAll() }
        if isInMemory {
            for candidate in AuxiliaryFiles.paths(for: path) {
                try? FileManager.default.removeItem(atPath: candidate)
            }
        }
    }

    /// Refuses files that are not Realms before changing anything, and lays
    /// out a new (empty) file.
    private static func prepareFile(_ connection: Connection, readOnly: Bool) throws(RealmError) {
        let tables = try tableNames(connection)
        if tables.contains("realm_metadata") { return }
        guard tables.isEmpty else {
            throw RealmError(
                .notARealm,
                "The file at '\(connection.path)' is not a Realm file: it is a SQLite database with other tables (\(tables.sorted().prefix(5).joined(separator: ", "))).")
        }
        guard !readOnly else {
            throw RealmError(.notARealm, "The file at '\(connection.path)' is empty and cannot be initialised as a Realm read-only.")
        }
        try switchToWAL(connection)
        try connection.execute("BEGIN IMMEDIATE")
        do {
            // Another process may have laid the file out while we waited.
            if try tableNames(connection).isEmpty {
                try connection.execute(FileLayout.createFixedTables)
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Puts a new file in WAL mode. The switch needs the file to itself, and
    /// SQLite reports "busy" at once, without its busy handler, while
    /// another process opening the same new file holds it: wait as the busy
    /// handler would.
    private static func switchToWAL(_ connection: Connection) throws(RealmError) {
        let deadline = Date(timeIntervalSinceNow: 60)
        var pause: TimeInterval = 0.001
        while true {
            do {
                try connection.execute("PRAGMA journal_mode = WAL")
                return
            } catch {
                guard error.sqliteCode == Connection.busyCode, Date() < deadline else { throw error }
                Thread.sleep(forTimeInterval: pause)
                pause = min(pause * 2, 0.05)
            }
        }
    }

    private static func tableNames(_ connection: Connection) throws(RealmError) -> Set<String> {
        let statement = try connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        var names: Set<String> = []
        do {
            while try statement.step() { names.insert(statement.string(at: 0)) }
        } catch {
            // The encrypting VFS's refusals say what is wrong already.
            if (error.kind == .notARealm || error.kind == .storage) && !connection.isEncrypted {
                throw RealmError(.notARealm, "The file at '\(connection.path)' is not a Realm file: \(error.message)", sqliteCode: error.sqliteCode)
            }
            throw error
        }
        return names
    }

    /// A new connection to the file, through the encrypting VFS when the
    /// configuration has a key.
    private static func openConnection(path: String, configuration: Configuration, isInMemory: Bool) throws(RealmError) -> Connection {
        try Connection(path: path, readOnly: configuration.isReadOnly, encryptionKey: configuration.encryptionKey,
                       logSyncsEachCommit: !isInMemory && configuration.durability == .full,
                       busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds)
    }

    static func configure(_ connection: Connection, configuration: Configuration, isInMemory: Bool) throws(RealmError) {
        let synchronous = isInMemory ? "OFF" : (configuration.durability == .full ? "FULL" : "NORMAL")
        try connection.execute("PRAGMA synchronous = \(synchronous)")
        if !configuration.isReadOnly {
            // A copy written by VACUUM INTO comes in rollback-journal mode.
            let mode = try connection.prepare("PRAGMA journal_mode")
            let isWAL = try mode.step() && mode.string(at: 0).lowercased() == "wal"
            mode.reset()
            if !isWAL {
                try connection.execute("PRAGMA journal_mode = WAL")
            }
        }
    }

    // MARK: Transactions

    /// A new transaction on this file, not yet reading; it begins reading at
    /// the newest version on first use.
    public func makeTransaction() throws(RealmError) -> Transaction {
        Transaction(coordinator: self, connection: try checkoutConnection())
    }

    /// The newest version this process knows of.
    public var latestVersion: UInt64 {
        state.withLock { $0.latestVersion }
    }

    /// The versions this process's transactions are reading, oldest first.
    /// Each keeps SQLite from checkpointing the WAL past it.
    public var liveVersions: [UInt64] {
        state.withLock { $0.pinnedVersions.keys.sorted() }
    }

    func pin(_ version: UInt64) {
        state.withLock { $0.pinnedVersions[version, default: 0] += 1 }
    }

    func unpin(_ version: UInt64) {
        state.withLock { state in
            guard let count = state.pinnedVersions[version] else { return }
            state.pinnedVersions[version] = count > 1 ? count - 1 : nil
        }
    }

    /// Records the next keys a write handed out, committed or not, so that
    /// a rolled-back object's key is never given to another object.
    func noteKeysHandedOut(_ nextKeys: [String: Int64]) {
        guard !nextKeys.isEmpty else { return }
        state.withLock { state in
            state.keyHighWater.merge(nextKeys, uniquingKeysWith: max)
        }
    }

    func keyHighWater(forClass className: String) -> Int64 {
        state.withLock { $0.keyHighWater[className] ?? 0 }
    }

    /// The most recently loaded catalog's schema.
    public var schema: Schema {
        state.withLock { $0.catalog.schema }
    }

    var currentCatalog: Catalog {
        state.withLock { $0.catalog }
    }

    func checkoutConnection() throws(RealmError) -> Connection {
        if let pooled = state.withLock({ $0.idleConnections.popLast() }) {
            return pooled.connection
        }
        let connection = try Self.openConnection(path: path, configuration: configuration, isInMemory: isInMemory)
        connection.fileLock = fileLock
        try Self.configure(connection, configuration: configuration, isInMemory: isInMemory)
        return connection
    }

    func returnConnection(_ connection: Connection) {
        guard connection.isAutocommit else { return }
        let pooled = PooledConnection(connection)
        state.withLock { state in
            if state.idleConnections.count < Self.poolLimit {
                state.idleConnections.append(pooled)
            }
        }
    }

    /// The catalog for `generation`, loading it through `connection` (inside
    /// its open transaction) when the cached one is of another generation.
    func catalog(generation: Int64, connection: Connection) throws(RealmError) -> Catalog {
        if let cached = state.withLock({ $0.catalog.generation == generation ? $0.catalog : nil }) {
            return cached
        }
        let loaded = try Catalog.load(from: connection)
        state.withLock { state in
            if loaded.generation > state.catalog.generation { state.catalog = loaded }
        }
        return loaded
    }

    func didCommit(_ changeSet: ChangeSet, catalog: Catalog) {
        let listeners = state.withLock { state in
            state.latestVersion = max(state.latestVersion, changeSet.version)
            if catalog.generation > state.catalog.generation { state.catalog = catalog }
            state.recentChanges.append(changeSet)
            if state.recentChanges.count > Self.recentChangeLimit {
                state.recentChanges.removeFirst(state.recentChanges.count - Self.recentChangeLimit)
            }
            return Array(state.commitListeners.values)
        }
        for listener in listeners { listener(changeSet.version) }
        state.withLock { $0.interprocess }?.notifyOthers()
    }

    /// Starts listening for other processes' commits (once; file Realms
    /// only: an in-memory Realm belongs to one process).
    func startInterprocessNotifications() {
        guard !isInMemory else { return }
        let alreadyStarted = state.withLock { $0.interprocess != nil }
        guard !alreadyStarted else { return }
        let weakSelf = WeakCoordinator(self)
        guard let notifier = InterprocessNotifier(realmPath: path, onCommit: { weakSelf.value?.otherProcessCommitted() }) else { return }
        let redundant = state.withLock { state -> InterprocessNotifier? in
            if state.interprocess != nil { return notifier }
            state.interprocess = notifier
            return nil
        }
        redundant?.close()
    }

    /// Reads the file's version after another process woke us, and tells
    /// the listeners when it moved.
    ///
    /// The read can fail for a moment (the file busy with another process's
    /// checkpoint or recovery). The wake-up that led here may be the last
    /// one, so failing would leave the listeners behind until some later
    /// commit: the read is tried again, backing off from 1 ms to 100 ms,
    /// for about a second (a restart checkpoint waits 50 ms for readers;
    /// longer, and the retries would keep a closed coordinator alive).
    private func otherProcessCommitted() {
        var delay: useconds_t = 1_000
        for _ in 0..<17 {
            if let version = fileVersion() {
                notifyListeners(of: version)
                return
            }
            usleep(delay)
            delay = min(delay * 2, 100_000)
        }
    }

    /// The version the file holds now, or nil when it cannot be read.
    private func fileVersion() -> Int64? {
        guard let connection = try? checkoutConnection() else { return nil }
        defer { returnConnection(connection) }
        guard (try? connection.execute("BEGIN")) != nil else { return nil }
        let version = (try? connection.scalar(FileLayout.selectVersion)).flatMap { $0 }
        try? connection.execute("COMMIT")
        return version
    }

    private func notifyListeners(of version: Int64) {
        let listeners = state.withLock { state -> [@Sendable (UInt64) -> Void] in
            guard UInt64(version) > state.latestVersion else { return [] }
            state.latestVersion = UInt64(version)
            return Array(state.commitListeners.values)
        }
        for listener in listeners { listener(UInt64(version)) }
    }

    // MARK: Commit listeners

    /// Calls `listener` with the new version after every commit to the file
    /// by this process, on the committing thread; keep it short (schedule
    /// work elsewhere). Returns an identifier for
    /// ``removeCommitListener(_:)``.
    public func addCommitListener(_ listener: @escaping @Sendable (UInt64) -> Void) -> Int {
        state.withLock { state in
            state.nextListenerID += 1
            state.commitListeners[state.nextListenerID] = listener
            return state.nextListenerID
        }
    }

    /// Stops calling a listener.
    public func removeCommitListener(_ identifier: Int) {
        _ = state.withLock { $0.commitListeners.removeValue(forKey: identifier) }
    }

    /// The change sets of this process's commits after `version`, oldest
    /// first, when all of them are still in memory; otherwise nil (read the
    /// file's history with ``Transaction/changeSets(after:)``).
    public func recentChangeSets(after version: UInt64) -> [ChangeSet]? {
        state.withLock { state in
            let wanted = state.recentChanges.filter { $0.version > version }
            let expected = state.latestVersion > version ? Int(state.latestVersion - version) : 0
            return wanted.count == expected ? wanted : nil
        }
    }
}

/// A weak reference to a coordinator for the interprocess thread, which
/// must not keep it alive.
private final class WeakCoordinator: Sendable {
    // Safe: the weak reference is only read; Coordinator is Sendable.
    nonisolated(unsafe) weak var value: Coordinator?
    init(_ value: Coordinator) { self.value = value }
}

/// A connection waiting in the pool.
///
/// `@unchecked Sendable`: a pooled connection is used by no thread while it
/// waits, and is handed to exactly one transaction when checked out; SQLite
/// runs in multi-thread mode, which allows a connection to move between
/// threads as long as two never use it at once.
struct PooledConnection: @unchecked Sendable {
    let connection: Connection
    init(_ connection: Connection) { self.connection = connection }
}
