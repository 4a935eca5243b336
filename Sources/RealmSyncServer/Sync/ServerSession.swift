import Foundation
import Logging
import RealmSyncEngine
import RealmSyncWire
import Synchronization

/// One bound session of a connection: a client file in step with one
/// synced Realm.
///
/// The connection's reader integrates the session's uploads (in order,
/// before it reads the next message) and notes its marks; the session's
/// sender task sends the client what it lacks: other clients' changesets
/// in server order, acknowledgements of its own, and answers to its marks
/// once everything before them has been sent.
///
/// The user's level for the Realm is decided again whenever permissions
/// change, so that a change takes effect on open sessions: an upload
/// without write access is refused, and the session ends once the user
/// may no longer read.
final class ServerSession: Sendable {
    let number: UInt64
    let clientFileIdent: UInt64
    let realm: ServerRealm
    private let writer: SerialMessageSender
    private let state: Mutex<State>
    private let wake: AsyncStream<Void>.Continuation
    private let wakes: AsyncStream<Void>
    private let watcher: UInt64
    private let user: User
    private let access: AccessControl
    private let accessWatcher: UInt64
    private let level: Mutex<(generation: UInt64, level: AccessLevel)>
    private let compaction: SyncService.Compaction
    private let logger: Logger

    /// The user a session is bound for.
    struct User: Sendable {
        var identity: String
        var isAdmin: Bool
        var path: RealmPath
    }

    /// The largest batch of changesets read for one round of downloads.
    static let downloadBatchBytes = 512 << 10

    private struct State {
        var reassembler = ChangesetReassembler()
        /// The last client version integrated from the client.
        var acknowledged: UInt64
        /// Marks to answer once downloads reach their server version.
        var marks: [(request: UInt64, serverVersion: UInt64)] = []
        /// A query-based client's subscriptions, and how many times they
        /// changed (nil for a client of the whole Realm).
        var subscriptions: (queries: [SubscriptionQuery], generation: UInt64)?
    }

    /// The most subscriptions a client may have, and the longest
    /// predicate: each is evaluated after every change of the Realm.
    static let maximumSubscriptions = 1_000
    static let maximumPredicateLength = 16 << 10

    init(number: UInt64, clientFileIdent: UInt64, realm: ServerRealm, acknowledged: UInt64, writer: SerialMessageSender,
         user: User, access: AccessControl, level: (generation: UInt64, level: AccessLevel), subscriptions: [SubscriptionQuery]?,
         compaction: SyncService.Compaction, logger: Logger) throws(SessionError) {
        if let subscriptions { try Self.check(subscriptions) }
        self.number = number
        self.user = user
        self.access = access
        self.level = Mutex(level)
        self.compaction = compaction
        self.logger = logger
        self.clientFileIdent = clientFileIdent
        self.realm = realm
        self.writer = writer
        state = Mutex(State(acknowledged: acknowledged, subscriptions: subscriptions.map { ($0, 0) }))
        (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let (id, changes) = realm.watch()
        watcher = id
        // New versions of the Realm wake the sender as the session's own
        // events do.
        let wake = wake
        Task.preferringCurrentExecutor {
            for await _ in changes { wake.yield() }
        }
        // So do changes of the Realm's permissions: the sender checks the
        // level first.
        let (accessID, accessChanges) = access.watch()
        accessWatcher = accessID
        let path = user.path
        Task.preferringCurrentExecutor {
            for await pattern in accessChanges where AccessControl.pattern(pattern, covers: path) { wake.yield() }
        }
    }

    /// Ends the session's sender and watches.
    func close() {
        realm.unwatch(watcher)
        access.unwatch(accessWatcher)
        wake.finish()
    }

    /// The user's level for the Realm now: decided again when permissions
    /// changed since it was last decided.
    private func currentLevel() async throws(SessionError) -> AccessLevel {
        let generation = access.generation
        let known = level.withLock { $0 }
        if known.generation == generation { return known.level }
        if !access.mayHaveChanged(user.path, since: known.generation) {
            // Other Realms' permissions changed.
            level.withLock { if $0.generation < generation { $0.generation = generation } }
            return known.level
        }
        let decided = try await access.level(of: user.identity, isAdmin: user.isAdmin, at: user.path)
        level.withLock { if $0.generation < generation { $0 = (generation, decided) } }
        return decided
    }

    /// Ends the session (by throwing) when the user may no longer read.
    private func requireRead() async throws(SessionError) {
        guard try await currentLevel() >= .read else {
            throw SessionError(.permissionDenied, "The user \(user.identity) may no longer read the Realm '\(user.path)'.")
        }
    }

    // MARK: From the client

    /// Integrates the upload's complete changesets; a changeset cut into
    /// parts waits for its last part.
    func upload(_ parts: [ChangesetPart]) async throws(SessionError) {
        let changesets = try state.withLock { state throws(SessionError) -> [Changeset] in
            var complete: [Changeset] = []
            for part in parts {
                do {
                    if let (_, changeset) = try state.reassembler.add(part) { complete.append(changeset) }
                } catch {
                    throw SessionError(.badChangeset, "An uploaded changeset cannot be read: \(error)")
                }
            }
            return complete
        }
        guard !changesets.isEmpty else { return }
        // Changesets integrated before (their acknowledgement lost) were
        // allowed when they came; a new one needs write access now.
        let acknowledged = state.withLock { $0.acknowledged }
        if changesets.contains(where: { $0.clientVersion > acknowledged }), try await currentLevel() < .write {
            throw SessionError(.permissionDenied, "The user \(user.identity) may not write to the Realm '\(user.path)': client version \(changesets[0].clientVersion) is refused.")
        }
        try await realm.integrate(changesets, from: clientFileIdent) { acknowledged in
            state.withLock { $0.acknowledged = max($0.acknowledged, acknowledged) }
        }
        logger.trace("integrated client versions \(changesets[0].clientVersion)…\(changesets[changesets.count - 1].clientVersion) of client \(clientFileIdent) into \(realm.path)")
        // For an upload of changesets the server had (no new version).
        wake.yield()
        try await realm.compactIfNeeded(interval: compaction.interval, retention: compaction.retention)
    }

    /// A query-based client's subscriptions are now `subscriptions`: the
    /// sender sends the objects entering and leaving its view, then what
    /// became of each.
    ///
    /// - Throws: ``SessionError`` for a session of the whole Realm, or
    ///   subscriptions past the limits.
    func subscribe(_ subscriptions: [SubscriptionQuery]) throws(SessionError) {
        try Self.check(subscriptions)
        try state.withLock { state throws(SessionError) in
            guard let current = state.subscriptions else {
                throw SessionError(.badMessageOrder, "Subscriptions for a session that syncs the whole Realm '\(realm.path)'.")
            }
            state.subscriptions = (subscriptions, current.generation + 1)
        }
        wake.yield()
    }

    private static func check(_ subscriptions: [SubscriptionQuery]) throws(SessionError) {
        guard subscriptions.count <= maximumSubscriptions else {
            throw SessionError(.limitsExceeded, "\(subscriptions.count) subscriptions: a client has at most \(maximumSubscriptions).")
        }
        if let long = subscriptions.first(where: { $0.predicate.utf8.count > maximumPredicateLength }) {
            throw SessionError(.limitsExceeded, "The predicate of the subscription '\(long.name.prefix(100))' is over \(maximumPredicateLength) bytes.")
        }
    }

    /// Answers `request` once the client has been sent every version there
    /// is now (in the database, when the history is shared: a change
    /// another process committed counts).
    func mark(_ request: UInt64) async throws(SessionError) {
        let version = try await realm.currentVersion()
        state.withLock { $0.marks.append((request, version)) }
        wake.yield()
    }

    // MARK: To the client

    /// Sends downloads until the session closes: first the Realm's state
    /// when the client catches up from it, then the history after server
    /// version `start` (or after the state).
    func runSender(from start: UInt64, catchUp: ServerRealm.CatchUp) async throws(SessionError) {
        if state.withLock({ $0.subscriptions != nil }) {
            try await runQueryBasedSender()
            return
        }
        var sentThrough = start
        var sentAcknowledgement: UInt64 = .max
        var downloaded: UInt64 = 0
        try await requireRead()
        if catchUp == .state {
            (sentThrough, sentAcknowledgement) = try await sendState(downloaded: &downloaded)
        }
        var iterator = wakes.makeAsyncIterator()
        repeat {
            try await requireRead()
            while true {
                let acknowledged = state.withLock { $0.acknowledged }
                let batch = try await realm.downloads(after: sentThrough, for: clientFileIdent, maximumBytes: Self.downloadBatchBytes)
                if batch.isCompactedPast {
                    // The history the client lacks is gone (its client was
                    // not seen within the retention): it catches up from
                    // the state, as at a bind.
                    (sentThrough, sentAcknowledgement) = try await sendState(downloaded: &downloaded)
                    continue
                }
                guard batch.reached > sentThrough || acknowledged != sentAcknowledgement else { break }
                let batchBytes = batch.changesets.reduce(0) { $0 + UInt64($1.bytes.count) }
                let downloadable = downloaded + batchBytes + batch.bytesAfter
                let messages = ChangesetPart.messages(of: batch.changesets)
                for (index, parts) in messages.enumerated() {
                    let isLast = index == messages.count - 1
                    // A message that ends inside a changeset brings the
                    // client no further than the changesets it completes.
                    let reached = isLast ? batch.reached : (parts.last(where: \.isLast)?.serverVersion ?? sentThrough)
                    downloaded += parts.reduce(0) { $0 + UInt64($1.bytes.count) }
                    let progress = TransferProgress(downloaded: downloaded, downloadable: downloadable, uploaded: 0, uploadable: 0)
                    try await send(.download(session: number, serverVersion: reached, serverVersionSalt: batch.salts[reached] ?? 0,
                                             parts: parts, acknowledgedClientVersion: acknowledged,
                                             progress: progress))
                    sentThrough = max(sentThrough, reached)
                }
                sentAcknowledgement = acknowledged
            }
            try await answerMarks(through: sentThrough)
        } while await iterator.next() != nil
    }

    /// Answers the marks whose server version the client has been sent.
    private func answerMarks(through sentThrough: UInt64) async throws(SessionError) {
        let due = state.withLock { state -> [UInt64] in
            let due = state.marks.filter { $0.serverVersion <= sentThrough }.map(\.request)
            state.marks.removeAll { $0.serverVersion <= sentThrough }
            return due
        }
        for request in due { try await send(.mark(session: number, request: request)) }
    }

    /// Sends the Realm's state, read at its newest version; returns that
    /// version and the acknowledgement sent with it.
    private func sendState(downloaded: inout UInt64) async throws(SessionError) -> (version: UInt64, acknowledged: UInt64) {
        let reader = try await realm.stateReader()
        let version = reader.version
        let salt = try await realm.saltOfVersion(version)
        let acknowledged = state.withLock { $0.acknowledged }
        let history = try await realm.bytesToDownload(after: version, for: clientFileIdent)
        // Server version 0 on every part: the client reaches `version`
        // with the last message only, so that a connection lost midway
        // starts the state again rather than skip its rest. The last
        // message is known once the reader is done, so each waits for
        // the next to be read before it goes.
        var held: [ChangesetPart]?
        var read: UInt64 = 0
        var downloadable: UInt64 = 0
        func sendHeld(reaching serverVersion: UInt64) async throws(SessionError) {
            guard let parts = held else { return }
            held = nil
            downloaded += parts.reduce(0) { $0 + UInt64($1.bytes.count) }
            try await send(.download(session: number, serverVersion: serverVersion, serverVersionSalt: serverVersion == version ? salt : 0,
                                     parts: parts, acknowledgedClientVersion: acknowledged,
                                     progress: TransferProgress(downloaded: downloaded, downloadable: max(downloadable, downloaded),
                                                                uploaded: 0, uploadable: 0)))
        }
        while true {
            let chunk: (changesets: [[UInt8]], fractionRead: Double)?
            do {
                chunk = try await reader.next()
            } catch {
                throw SessionError(.otherSessionError, "The server could not read the synced Realm '\(realm.path)': \(error.message)", tryAgain: true)
            }
            guard let chunk else { break }
            read += chunk.changesets.reduce(0) { $0 + UInt64($1.count) }
            // The state's size is known once it is all read; until then
            // it is estimated from what was read, by objects.
            let stateBytes = chunk.fractionRead > 0 ? UInt64(Double(read) / chunk.fractionRead) : read
            downloadable = max(stateBytes, read) + history
            for parts in ChangesetPart.messages(of: chunk.changesets.map { (0, $0) }) {
                try await sendHeld(reaching: 0)
                held = parts
            }
        }
        downloadable = read + history
        try await sendHeld(reaching: version)
        return (version, acknowledged)
    }

    /// The sender of a query-based client: at the bind its whole view
    /// (it evicts what else it has), then at each new version or change
    /// of its subscriptions, the objects entering and leaving the view and
    /// the changes of those it keeps (Docs/SyncDesign.md, "Query-based
    /// sync"). What it holds is known from what was sent since the bind:
    /// a connection lost midway starts again from the whole view.
    private func runQueryBasedSender() async throws(SessionError) {
        var held: Set<ObjectReference>?
        var sentThrough: UInt64 = 0
        var sentAcknowledgement: UInt64 = 0
        var sentGeneration: UInt64?
        var sentStatuses: [SubscriptionStatus] = []
        var downloaded: UInt64 = 0
        var iterator = wakes.makeAsyncIterator()
        repeat {
            try await requireRead()
            let (acknowledged, subscriptions) = state.withLock { ($0.acknowledged, $0.subscriptions ?? ([], 0)) }
            if held == nil || realm.latestVersion > sentThrough || subscriptions.generation != sentGeneration
                || acknowledged > sentAcknowledgement {
                let batch = try await realm.queryBasedDownload(after: sentThrough, for: clientFileIdent, holding: held,
                                                               subscriptions: subscriptions.queries)
                // The acknowledgement the view accounts for, read with it:
                // the client keeps what its later changesets name.
                try await send(batch, downloaded: &downloaded)
                held = batch.view
                sentThrough = batch.reached
                sentAcknowledgement = batch.acknowledged
                // Statuses change with the subscriptions, and with the
                // Realm (a class added makes a refused query valid).
                if subscriptions.generation != sentGeneration || batch.statuses != sentStatuses {
                    try await send(.subscriptionStatus(session: number, generation: subscriptions.generation, statuses: batch.statuses))
                    sentGeneration = subscriptions.generation
                    sentStatuses = batch.statuses
                }
            }
            try await answerMarks(through: sentThrough)
        } while await iterator.next() != nil
    }

    /// Sends a query-based download: its changesets, then its evictions in
    /// messages of their own, each under a message's size; only the last
    /// message names the version reached, so that the client counts it
    /// reached once it has all of it.
    private func send(_ batch: ServerRealm.QueryBasedDownload, downloaded: inout UInt64) async throws(SessionError) {
        var messages = ChangesetPart.messages(of: batch.changesets).map { (parts: $0, eviction: Eviction.none) }
        switch batch.eviction {
        case .none:
            break
        case .allNotSent:
            messages[messages.count - 1].eviction = .allNotSent
        case .objects(let objects):
            var chunk: [ObjectReference] = []
            var bytes = 0
            for object in objects {
                let size = object.className.utf8.count + ChangesetCoding.encode(identity: object.identity).count
                if !chunk.isEmpty, bytes + size > Self.evictionBytesPerMessage {
                    messages.append(([], .objects(chunk)))
                    (chunk, bytes) = ([], 0)
                }
                chunk.append(object)
                bytes += size
            }
            messages.append(([], .objects(chunk)))
        }
        let downloadable = downloaded + batch.changesets.reduce(0) { $0 + UInt64($1.bytes.count) }
        for (index, message) in messages.enumerated() where index == messages.count - 1 || !message.parts.isEmpty || message.eviction != .none {
            let isLast = index == messages.count - 1
            downloaded += message.parts.reduce(0) { $0 + UInt64($1.bytes.count) }
            try await send(.download(session: number, serverVersion: isLast ? batch.reached : 0, serverVersionSalt: isLast ? batch.salt : 0,
                                     parts: message.parts, acknowledgedClientVersion: batch.acknowledged,
                                     progress: TransferProgress(downloaded: downloaded, downloadable: downloadable, uploaded: 0, uploadable: 0),
                                     eviction: message.eviction))
        }
    }

    /// The evictions of one message, in encoded bytes: well under a
    /// message's size, whatever the primary keys.
    static let evictionBytesPerMessage = 256 << 10

    private func send(_ message: SyncMessage) async throws(SessionError) {
        do {
            try await writer.send(message)
        } catch {
            throw SessionError(.connectionClosed, "The connection closed.", tryAgain: true)
        }
    }
}
