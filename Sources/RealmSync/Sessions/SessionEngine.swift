import Foundation
import Logging
import NIOCore
import NIOSSL
import RealmCore
import RealmSyncEngine
import RealmSyncWire
import Synchronization

/// What a ``SyncSession`` does: connects, binds, uploads, downloads and
/// reconnects, and answers the waits and progress notifications.
///
/// One owner: the actor, whose executor is the sync worker's event loop
/// (``SyncWorker``). The synced file (which holds a transaction, used by one
/// thread at a time), the bound connection, the waiters and the progress
/// counters are touched only there. The lifecycle (``SessionLifecycle``)
/// is a small state machine of its own that callers on any thread move
/// synchronously; the actor follows it (``reconcile()``). Calls from other
/// threads reach the actor through the loop, in the order they were made.
actor SessionEngine {
    /// The session number on the connection: a connection per session.
    static let sessionNumber: UInt64 = 1
    static let firstRetryDelay: Duration = .milliseconds(250)
    static let longestRetryDelay: Duration = .seconds(30)

    nonisolated let configuration: SyncConfiguration
    nonisolated let environment: SessionEnvironment
    nonisolated let eventLoop: any EventLoop
    private nonisolated let lifecycle = Mutex(SessionLifecycle())
    private nonisolated let nextObserverID = Atomic<UInt64>(1)
    private nonisolated let reported = Mutex(WeakSession())

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        eventLoop.executor.asUnownedSerialExecutor()
    }

    /// The synced file, released when the session ends, so that the file
    /// closes with its last Realm.
    private var file: SyncedFile?
    /// The run of ``runLoop(_:)`` going, if any.
    private var running: (number: UInt64, task: Task<Void, Never>)?
    /// When a connection was last bound.
    private var lastBound: ContinuousClock.Instant?
    /// The bound connection, while there is one.
    private var connection: BoundConnection?
    /// The last client version the server has acknowledged.
    var acknowledged: UInt64 = 0
    private var uploadWaiters: [(target: UInt64, callback: @Sendable ((any Error)?) -> Void)] = []
    private var downloadWaiters: [(request: UInt64, callback: @Sendable ((any Error)?) -> Void)] = []
    private var nextRequest: UInt64 = 1
    private var progress = ProgressCounters()
    private var observers: [UInt64: ProgressObserver] = [:]
    /// During an automatic client reset, the file the server's fresh state
    /// downloads into (``SessionEngine/resetAutomatically(after:)``).
    var resetScratch: SyncedFile?
    /// Automatic resets since a bind was last accepted.
    var resetsInARow = 0
    /// For a query-based Realm, the top-level objects the download under
    /// way created: what a download completing the whole view keeps
    /// (``Eviction/allNotSent``).
    private var receivedInDownload = Set<ObjectReference>()
    /// For a query-based Realm, the sets of subscriptions sent on the
    /// connection, less one (the bind's is 0): the server's answers name
    /// the set they are for.
    private var subscriptionGeneration: UInt64 = 0
    /// Whether the server has answered the newest set sent.
    private var subscriptionsAnswered = false

    private struct BoundConnection {
        /// Which run of ``runLoop(_:)`` bound it: a run that ends after the
        /// next one began must not clear the next one's connection.
        let run: UInt64
        let sender: SerialMessageSender
        let uploads: AsyncStream<Void>.Continuation
        /// For a query-based Realm: wakes the sender of subscriptions.
        let subscriptionsChanged: AsyncStream<Void>.Continuation?
    }

    /// The session errors are reported with (held weakly: the session
    /// holds the engine).
    private struct WeakSession {
        weak var session: SyncSession?
    }

    init(configuration: SyncConfiguration, coordinator: Coordinator, environment: SessionEnvironment) throws {
        self.configuration = configuration
        self.environment = environment
        eventLoop = SyncWorker.eventLoop
        let file: SyncedFile
        do {
            file = try SyncedFile(coordinator: coordinator)
        } catch {
            throw SyncError(.clientInternalError, "The synced Realm at '\(coordinator.path)' cannot record its changes: \(error.message)")
        }
        let recorder = file.recorder
        self.file = file
        recorder.observeChangesets(owner: self) { [weak self] in self?.localChangesCommitted() }
    }

    /// The session reported to the error handler.
    nonisolated var owner: SyncSession? {
        get { reported.withLock { $0.session } }
        set { reported.withLock { $0.session = newValue } }
    }

    nonisolated var state: SyncSession.State { lifecycle.withLock { $0.state } }

    var logger: Logger { environment.logger }

    /// Runs `body` on the actor, after every call made before this one.
    private nonisolated func perform(_ body: @escaping @Sendable (isolated SessionEngine) -> Void) {
        eventLoop.execute { self.assumeIsolated(body) }
    }

    // MARK: Lifecycle

    /// Starts connecting, unless suspended, ended or started.
    nonisolated func start() {
        lifecycle.withLock { $0.start() }
        perform { $0.reconcile() }
    }

    nonisolated func suspend() {
        lifecycle.withLock { $0.suspend() }
        perform { $0.reconcile() }
    }

    nonisolated func resume() {
        lifecycle.withLock { $0.resume() }
        perform { $0.reconcile() }
    }

    /// Ends the session for good (the user logged out, or the server
    /// refused it); waiters get `error`.
    nonisolated func invalidate(_ error: any Error) {
        guard lifecycle.withLock({ $0.end(error) }) else { return }
        perform { $0.reconcile() }
    }

    /// The user logged out: uploads what is still to upload, with
    /// `accessToken` (the user can get no other), then ends with `error`.
    /// The session is ``SyncSession/State/dying`` meanwhile; it ends at
    /// once when nothing is left to upload.
    ///
    /// A dying session that cannot finish before `accessToken` expires
    /// (offline, or suspended) ends then, its changes kept in the file.
    nonisolated func logOut(_ error: SyncError, accessToken: (token: String, expires: Date)?) {
        guard lifecycle.withLock({ $0.logOut(error, accessToken: accessToken?.token) }) else { return }
        let lifetime = max(0, accessToken?.expires.timeIntervalSinceNow ?? 0)
        perform { engine in
            engine.addUploadWaiter { [weak engine] _ in engine?.invalidate(error) }
            engine.eventLoop.scheduleTask(in: .milliseconds(Int64(lifetime * 1000))) { [weak engine] in engine?.invalidate(error) }
        }
    }

    /// Makes the actor's work follow the lifecycle: the wanted run going
    /// and no other, and everything let go once the session has ended.
    private func reconcile() {
        let (wanted, ending) = lifecycle.withLock { ($0.wantedRun, $0.ending) }
        if let current = running, current.number != wanted {
            current.task.cancel()
            running = nil
            dropConnection(ofRun: current.number)
        }
        if running == nil, let wanted {
            let task = if let executor = SyncManager.shared.taskExecutor {
                Task(executorPreference: executor) { await self.runLoop(wanted) }
            } else {
                Task.preferringCurrentExecutor { await self.runLoop(wanted) }
            }
            running = (wanted, task)
        }
        if let ending, let file {
            file.recorder.stopObservingChangesets(owner: self)
            self.file = nil
            let waiters = uploadWaiters.map(\.callback) + downloadWaiters.map(\.callback)
            uploadWaiters.removeAll()
            downloadWaiters.removeAll()
            observers.removeAll()
            for waiter in waiters { waiter(ending) }
        }
    }

    /// Forgets run `run`'s connection, if it is the bound one.
    private func dropConnection(ofRun run: UInt64) {
        lifecycle.withLock { $0.unbind(run: run) }
        guard connection?.run == run else { return }
        connection?.uploads.finish()
        connection?.subscriptionsChanged?.finish()
        connection = nil
    }

    /// What the session is doing, for a test that waited too long.
    package nonisolated var diagnostics: String {
        let summary = lifecycle.withLock { $0.description }
        let details = Mutex<String?>(nil)
        let answered = DispatchSemaphore(value: 0)
        perform { engine in
            details.withLock {
                $0 = "acknowledged \(engine.acknowledged), waiting for uploads \(engine.uploadWaiters.map(\.target)), "
                    + "for downloads \(engine.downloadWaiters.map(\.request))"
            }
            answered.signal()
        }
        _ = answered.wait(timeout: .now() + 1)
        return summary + ", " + (details.withLock { $0 } ?? "the sync worker is busy")
    }

    // MARK: Connecting

    private func runLoop(_ run: UInt64) async {
        var delay = Self.firstRetryDelay
        while !Task.isCancelled {
            let started = ContinuousClock.now
            let ending = await connectOnce(run)
            dropConnection(ofRun: run)
            switch ending {
            case .cancelled:
                return
            case .dropped(let reason):
                logger.debug("sync connection to \(configuration.webSocketURL) ended: \(reason)")
            case .refused(let code, let message, let tryAgain):
                let error = Self.error(code: code, message: message, path: configuration.resolvedPath)
                let authentication = code == SyncProtocolError.badAuthentication.rawValue || code == SyncProtocolError.tokenExpired.rawValue
                if authentication, let dying = lifecycle.withLock({ $0.dying }) {
                    // A logged-out user's last token no longer does: what
                    // was not uploaded stays in the file.
                    invalidate(dying.error)
                    return
                } else if authentication {
                    // The access token: get a new one, then bind again. A
                    // refresh token refused logs the user out (reported
                    // by the user), which ends the session; a server out
                    // of reach is tried again.
                    do {
                        try await configuration.user.refresh()
                    } catch {
                        if configuration.user.state != .active {
                            invalidate(SyncError(.clientUserError, "The user \(configuration.user.identity ?? "") is logged out."))
                            return
                        }
                        logger.debug("the access token of \(configuration.user.identity ?? "") could not be refreshed: \(error)")
                    }
                } else if !tryAgain {
                    switch SyncProtocolError(rawValue: code)?.requiresClientReset == true ? await resetAutomatically() : .manual {
                    case .done:
                        // Reset in place: bind again at once, as the
                        // fresh copy's client.
                        delay = Self.firstRetryDelay
                        continue
                    case .retryLater:
                        break
                    case .manual:
                        fail(withFileAction(error))
                        return
                    }
                } else {
                    report(error)
                }
            case .failed(let error):
                fail(error)
                return
            case .loggedOut:
                invalidate(SyncError(.clientUserError, "The user \(configuration.user.identity ?? "") is logged out."))
                return
            }
            // A connection that got as far as binding made progress: the
            // next attempt starts from the shortest wait again.
            if let lastBound, lastBound > started { delay = Self.firstRetryDelay }
            // Jitter, so that clients a server restart dropped together do
            // not come back together.
            let jittered = delay * Double.random(in: 0.75...1.25)
            do {
                try await Task.sleep(for: jittered)
            } catch {
                return
            }
            delay = min(delay * 2, Self.longestRetryDelay)
        }
    }

    /// How one connection ended.
    private enum Ending: Sendable {
        /// Suspended or invalidated.
        case cancelled
        /// Closed or broken: connect again.
        case dropped(String)
        /// The server sent an error.
        case refused(code: Int, message: String, tryAgain: Bool)
        /// The session cannot go on.
        case failed(any Error)
        /// The user logged out.
        case loggedOut
    }

    private func connectOnce(_ run: UInt64) async -> Ending {
        let token: String
        do {
            if let dying = lifecycle.withLock({ $0.dying }) {
                guard let last = dying.accessToken else { return .loggedOut }
                token = last
            } else {
                token = try await configuration.user.accessToken()
            }
        } catch {
            if Task.isCancelled { return .cancelled }
            // Logged out, or the refresh token refused (which the user
            // reports): nothing to retry.
            if configuration.user.state != .active { return .loggedOut }
            return .dropped("no access token: \(error)")
        }
        let fileState: SyncFileState
        do {
            fileState = try withFile { file throws(RealmError) in try file.state() }
        } catch {
            return .failed(SyncError(.clientInternalError, "The synced Realm of \(configuration.realmURL.absoluteString) cannot be read: \(error.message)"))
        }
        let timeouts = connectionTimeouts
        let channel: SyncWebSocket.Channel
        do {
            channel = try await connect()
        } catch {
            return Task.isCancelled ? .cancelled : .dropped("\(error)")
        }
        if Task.isCancelled {
            channel.channel.close(promise: nil)
            return .cancelled
        }
        do {
            let ending = try await SyncWebSocket.run(channel, timeouts: timeouts) { messages, sender in
                await self.speak(messages, sender, run: run, token: token, fileState: fileState)
            }
            return Task.isCancelled ? .cancelled : ending
        } catch {
            return Task.isCancelled ? .cancelled : .dropped("\(error)")
        }
    }

    /// The timeouts of a new connection.
    var connectionTimeouts: SyncTimeoutOptions {
        configuration.timeoutOptions ?? environment.timeouts()
    }

    /// A WebSocket connection to the Realm's server.
    func connect() async throws -> SyncWebSocket.Channel {
        var tls: TLSConfiguration?
        if configuration.webSocketURL.hasPrefix("wss:") {
            var client = TLSConfiguration.makeClientConfiguration()
            if !configuration.enableSSLValidation { client.certificateVerification = .none }
            tls = client
        }
        return try await SyncWebSocket.connect(to: configuration.webSocketURL, on: eventLoop, tls: tls, timeouts: connectionTimeouts)
    }

    /// Binds, then reads the server's messages until the connection ends,
    /// uploading alongside.
    private func speak(_ inbound: MessageQueue, _ sender: SerialMessageSender, run: UInt64, token: String,
                       fileState: SyncFileState) async -> Ending {
        let number = Self.sessionNumber
        receivedInDownload = []
        subscriptionGeneration = 0
        subscriptionsAnswered = false
        let subscriptions: [SubscriptionQuery]?
        do {
            subscriptions = configuration.isPartial ? try withFile { file throws(RealmError) in try file.subscriptionQueries() } : nil
            try await sender.send(.bind(session: number, path: configuration.resolvedPath, accessToken: token,
                                        clientFileIdent: fileState.clientFileIdent, lastServerVersion: fileState.lastServerVersion,
                                        lastServerVersionSalt: fileState.lastServerSalt, subscriptions: subscriptions))
        } catch {
            return .dropped("\(error)")
        }
        return await withTaskGroup(of: Void.self) { group -> Ending in
            defer { group.cancelAll() }
            var reassembler = ChangesetReassembler()
            do {
                for try await message in inbound {
                    let decoded: SyncMessage
                    do {
                        decoded = try SyncMessageCoding.decode(message)
                    } catch {
                        return .dropped("a message from the server that cannot be read: \(error)")
                    }
                    switch decoded {
                    case .ident(_, _, let acknowledged):
                        // A suspension (or a newer run) came first.
                        guard lifecycle.withLock({ $0.bind(run: run) }) else { return .cancelled }
                        // Changesets the server acknowledged and no longer
                        // has: it was restored from a backup (and has since
                        // been written past this file's server version, or
                        // the bind would have said so). Uploading on would
                        // leave a gap; the file must reset.
                        if let forgotten = try? withFile({ file throws(RealmError) in try file.acknowledgedThrough() }), acknowledged < forgotten {
                            return .refused(code: SyncProtocolError.divergingHistories.rawValue,
                                            message: "The server has client versions to \(acknowledged) of this file, which it acknowledged to \(forgotten): it was restored from a backup.",
                                            tryAgain: false)
                        }
                        resetsInARow = 0
                        let (uploads, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
                        var subscriptionChanges: AsyncStream<Void>?
                        var subscriptionsChanged: AsyncStream<Void>.Continuation?
                        if configuration.isPartial {
                            let (changes, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
                            (subscriptionChanges, subscriptionsChanged) = (changes, continuation)
                        }
                        lastBound = .now
                        connection = BoundConnection(run: run, sender: sender, uploads: continuation, subscriptionsChanged: subscriptionsChanged)
                        let marks = Set(downloadWaiters.map(\.request)).sorted()
                        guard noteAcknowledged(acknowledged) else { return unmadeVersionAcknowledged(acknowledged) }
                        group.addTask { await self.upload(from: acknowledged, sender, wakes: uploads) }
                        if let subscriptions, let changes = subscriptionChanges {
                            group.addTask { await self.sendSubscriptions(after: subscriptions, sender, wakes: changes) }
                        }
                        for request in marks { try await sender.send(.mark(session: number, request: request)) }
                    case .download(_, let serverVersion, let salt, let parts, let acknowledged, let progress, let eviction):
                        logger.trace("download of \(configuration.resolvedPath): \(parts.count) parts to server version \(serverVersion), client versions to \(acknowledged) acknowledged")
                        var complete: [(serverVersion: UInt64, changeset: Changeset)] = []
                        for part in parts {
                            if let changeset = try reassembler.add(part) { complete.append(changeset) }
                        }
                        if configuration.isPartial {
                            for (_, changeset) in complete {
                                for case .create(let className, let identity) in changeset.instructions where identity.isTopLevel {
                                    receivedInDownload.insert(ObjectReference(className: className, identity: identity))
                                }
                            }
                        }
                        do throws(RealmError) {
                            let received = eviction == .allNotSent ? receivedInDownload : []
                            try withFile { file throws(RealmError) in
                                try file.integrate(complete, reaching: serverVersion, salt: salt, evicting: eviction, received: received,
                                                   acknowledged: acknowledged)
                            }
                            // A download ends with the message that names
                            // its version (or completes a whole view): the
                            // next whole view counts from there.
                            if serverVersion != 0 || eviction == .allNotSent { receivedInDownload = [] }
                        } catch {
                            return .failed(SyncError(.clientSessionError, "A change from the server cannot be applied to \(configuration.realmURL.absoluteString): \(error.message)",
                                                     serverCode: SyncProtocolError.badChangeset.rawValue))
                        }
                        noteDownloadProgress(progress)
                        guard noteAcknowledged(acknowledged) else { return unmadeVersionAcknowledged(acknowledged) }
                    case .mark(_, let request):
                        answerMarks(through: request)
                    case .subscriptionStatus(_, let generation, let statuses):
                        // The answer to a set since replaced: the newer
                        // one's comes.
                        guard generation == subscriptionGeneration else { break }
                        subscriptionsAnswered = true
                        do throws(RealmError) {
                            try withFile { file throws(RealmError) in try file.note(statuses) }
                        } catch {
                            return .failed(SyncError(.clientInternalError, "The subscriptions of \(configuration.realmURL.absoluteString) cannot be noted: \(error.message)"))
                        }
                    case .error(_, let code, let text, let tryAgain):
                        return .refused(code: code, message: text, tryAgain: tryAgain)
                    case .bind, .upload, .refresh, .unbind, .subscribe:
                        return .dropped("a message only clients send, from the server")
                    }
                }
            } catch {
                return Task.isCancelled ? .cancelled : .dropped("\(error)")
            }
            return Task.isCancelled ? .cancelled : .dropped("the server closed the connection")
        }
    }

    /// Uploads the changesets after client version `start`, then each new
    /// one as it is committed, until the connection ends.
    private func upload(from start: UInt64, _ sender: SerialMessageSender, wakes: AsyncStream<Void>) async {
        var sentThrough = start
        var iterator = wakes.makeAsyncIterator()
        repeat {
            do {
                let after = sentThrough
                let pending = try withFile { file throws(RealmError) in try file.unacknowledged(after: after) }
                refreshUploadProgress()
                for parts in ChangesetPart.messages(of: pending.map { (0, $0.bytes) }) where !parts.isEmpty {
                    try await sender.send(.upload(session: Self.sessionNumber, parts: parts))
                }
                if let last = pending.last {
                    sentThrough = last.clientVersion
                    logger.trace("uploaded client versions \(pending[0].clientVersion)…\(last.clientVersion) of \(configuration.resolvedPath)")
                }
            } catch {
                logger.debug("upload to \(configuration.webSocketURL) stopped: \(error)")
                return
            }
        } while await iterator.next() != nil
    }

    /// Tells the server the file's subscriptions whenever they differ from
    /// the last set it was told (`bound`, at the bind), until the
    /// connection ends: one task, so that the sets go in order. A change
    /// made between the bind and its acceptance is sent at once.
    private func sendSubscriptions(after bound: [SubscriptionQuery], _ sender: SerialMessageSender, wakes: AsyncStream<Void>) async {
        var sent = bound
        var iterator = wakes.makeAsyncIterator()
        repeat {
            do {
                let (current, pending) = try withFile { file throws(RealmError) in
                    (try file.subscriptionQueries(), try file.hasPendingSubscriptions())
                }
                // The same set again, but a subscription removed and made
                // again since the server answered is pending with no answer
                // to come: asked again, the server answers again.
                guard current != sent || subscriptionsAnswered && pending else { continue }
                subscriptionGeneration += 1
                subscriptionsAnswered = false
                try await sender.send(.subscribe(session: Self.sessionNumber, subscriptions: current))
                sent = current
            } catch {
                logger.debug("subscriptions to \(configuration.webSocketURL) stopped: \(error)")
                return
            }
        } while await iterator.next() != nil
    }

    /// A local write recorded a changeset or changed the subscriptions
    /// (called on the writing thread, after the commit): upload it, count
    /// it, and tell the server the subscriptions if they changed.
    private nonisolated func localChangesCommitted() {
        perform { engine in
            engine.connection?.uploads.yield()
            engine.connection?.subscriptionsChanged?.yield()
            engine.refreshUploadProgress()
        }
    }

    // MARK: Waiting

    /// Calls `callback` once every change written before this call is on
    /// the server; false (and no call) when the session has ended.
    nonisolated func waitForUpload(_ callback: @escaping @Sendable ((any Error)?) -> Void) -> Bool {
        guard !lifecycle.withLock({ $0.isEnded }) else { return false }
        perform { $0.addUploadWaiter(callback) }
        return true
    }

    private func addUploadWaiter(_ callback: @escaping @Sendable ((any Error)?) -> Void) {
        if let ending = lifecycle.withLock({ $0.ending }) {
            callback(ending)
            return
        }
        guard let target = try? withFile({ file throws(RealmError) in try file.newestUnacknowledged() }), target > acknowledged else {
            callback(nil)
            return
        }
        uploadWaiters.append((target, callback))
    }

    /// Calls `callback` once the Realm holds every change the server had
    /// when this was called; false (and no call) when the session has
    /// ended.
    nonisolated func waitForDownload(_ callback: @escaping @Sendable ((any Error)?) -> Void) -> Bool {
        guard !lifecycle.withLock({ $0.isEnded }) else { return false }
        perform { $0.addDownloadWaiter(callback) }
        return true
    }

    private func addDownloadWaiter(_ callback: @escaping @Sendable ((any Error)?) -> Void) {
        if let ending = lifecycle.withLock({ $0.ending }) {
            callback(ending)
            return
        }
        let request = nextRequest
        nextRequest += 1
        downloadWaiters.append((request, callback))
        if let connection {
            Task { try? await connection.sender.send(.mark(session: Self.sessionNumber, request: request)) }
        }
    }

    /// After a client reset renumbered the file's changesets: each upload
    /// wait now waits for the newest changeset to upload, or is answered
    /// when there is none (what was written before it is on the server, or
    /// was discarded with the reset).
    func retargetUploadWaiters() {
        let newest = (try? withFile { file throws(RealmError) in try file.newestUnacknowledged() }) ?? nil
        guard let newest else {
            let answered = uploadWaiters.map(\.callback)
            uploadWaiters.removeAll()
            for callback in answered { callback(nil) }
            return
        }
        uploadWaiters = uploadWaiters.map { (newest, $0.callback) }
    }

    private func answerMarks(through request: UInt64) {
        let answered = downloadWaiters.filter { $0.request <= request }.map(\.callback)
        downloadWaiters.removeAll { $0.request <= request }
        for callback in answered { callback(nil) }
    }

    /// The server has made client versions up to `acknowledged` durable:
    /// forget them here, and answer the waits they complete. False, and
    /// nothing forgotten, when `acknowledged` is a version this file has
    /// not made: the message was not meant for it (Realm's "bad progress").
    private func noteAcknowledged(_ acknowledged: UInt64) -> Bool {
        guard acknowledged > self.acknowledged || uploadWaiters.contains(where: { $0.target <= acknowledged }) else { return true }
        if acknowledged > self.acknowledged,
           let made = try? withFile({ file throws(RealmError) in try file.state().lastClientVersion }), acknowledged > made {
            return false
        }
        self.acknowledged = max(self.acknowledged, acknowledged)
        let answered = uploadWaiters.filter { $0.target <= acknowledged }.map(\.callback)
        uploadWaiters.removeAll { $0.target <= acknowledged }
        let bytes = (try? withFile { file throws(RealmError) in try file.acknowledge(through: acknowledged) }) ?? 0
        progress.uploadedBytes += bytes
        refreshUploadProgress()
        for callback in answered { callback(nil) }
        return true
    }

    /// Ends the session on an acknowledgement of a client version this file
    /// never made: believing it would forget changes the server has not got.
    private func unmadeVersionAcknowledged(_ acknowledged: UInt64) -> Ending {
        .failed(SyncError(.clientSessionError, "The server acknowledged client version \(acknowledged) of \(configuration.realmURL.absoluteString), "
                                                + "which this client has not made; nothing was forgotten."))
    }

    // MARK: Progress

    private func refreshUploadProgress() {
        guard let unacknowledged = try? withFile({ file throws(RealmError) in try file.unacknowledgedBytes() }),
              progress.unacknowledgedBytes != unacknowledged else { return }
        progress.unacknowledgedBytes = unacknowledged
        deliverProgress(.upload)
    }

    private func noteDownloadProgress(_ progress: TransferProgress) {
        self.progress.downloaded = progress.downloaded
        self.progress.downloadable = progress.downloadable
        deliverProgress(.download)
    }

    /// Registers `observer` and calls it with the progress now; nil when the
    /// session has ended.
    nonisolated func addProgressObserver(_ observer: ProgressObserver) -> UInt64? {
        guard !lifecycle.withLock({ $0.isEnded }) else { return nil }
        let id = nextObserverID.wrappingAdd(1, ordering: .relaxed).oldValue
        perform { $0.register(observer, id: id) }
        return id
    }

    private func register(_ observer: ProgressObserver, id: UInt64) {
        guard file != nil else { return }
        if observer.direction == .upload, let unacknowledged = try? withFile({ file throws(RealmError) in try file.unacknowledgedBytes() }) {
            // Counted now: the work outstanding at registration includes
            // the write made just before it.
            progress.unacknowledgedBytes = unacknowledged
        }
        var observer = observer
        if observer.mode == .forCurrentlyOutstandingWork {
            observer.outstanding = progress.progress(observer.direction).transferrableBytes
        }
        observers[id] = observer
        deliverProgress(observer.direction)
    }

    nonisolated func removeProgressObserver(_ id: UInt64) {
        perform { _ = $0.observers.removeValue(forKey: id) }
    }

    private func deliverProgress(_ direction: SyncSession.ProgressDirection) {
        let progress = progress.progress(direction)
        for (id, observer) in observers where observer.direction == direction {
            guard let outstanding = observer.outstanding else {
                observer.deliver(progress)
                continue
            }
            let relative = SyncSession.Progress(transferredBytes: min(progress.transferredBytes, outstanding), transferrableBytes: outstanding)
            observer.deliver(relative)
            if relative.isTransferComplete { observers.removeValue(forKey: id) }
        }
    }

    // MARK: Errors

    /// Ends the session and reports `error`: ended first, so that the file
    /// is no longer held by the session when the error handler runs (it may
    /// back the file up: ``SyncSession/immediatelyHandleError(_:)``).
    private func fail(_ error: any Error) {
        if lifecycle.withLock({ $0.end(error) }) { reconcile() }
        // A manual reset's own handler takes its error (Realm 10).
        if let error = error as? SyncError, error.code == .clientResetError,
           case .manual(let handler?) = configuration.clientResetMode {
            logger.error("\(error)")
            handler(error, owner)
            return
        }
        report(error)
    }

    /// `error` with the token that backs up and deletes the file, for the
    /// errors after which the server will not sync with this file again
    /// (seed 001: a client reset, a permission denied); the action is
    /// recorded first, so that the next launch performs it if the app does
    /// not.
    private func withFileAction(_ error: SyncError) -> SyncError {
        guard error.code == .clientResetError || error.code == .permissionDeniedError else { return error }
        do {
            let token = try environment.scheduleFileAction(configuration.localFileURL.path)
            return SyncError(error.code, error.message, serverCode: error.serverCode, actionToken: token)
        } catch let failure {
            logger.error("the backup of \(configuration.localFileURL.path) could not be recorded: \(failure)")
            return error
        }
    }

    private func report(_ error: any Error) {
        environment.report(error, owner)
    }

    /// The client's error for a server's `error` message.
    static func error(code: Int, message: String, path: String) -> SyncError {
        let known = SyncProtocolError(rawValue: code)
        let kind: SyncError.Code
        if known?.requiresClientReset == true {
            kind = .clientResetError
        } else if known == .permissionDenied {
            kind = .permissionDeniedError
        } else {
            kind = .clientSessionError
        }
        return SyncError(kind, "The server refused the session of '\(path)': \(message)", serverCode: code)
    }

    // MARK: The file

    func withFile<T>(_ body: (SyncedFile) throws(RealmError) -> T) throws(RealmError) -> T {
        guard let file else { throw RealmError(.invalidTransactionState, "The session has ended.") }
        return try body(file)
    }
}
