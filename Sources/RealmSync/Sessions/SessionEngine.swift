import Foundation
import Logging
import NIOCore
import NIOSSL
import NIOWebSocket
import RealmCore
import RealmSyncEngine
import RealmSyncWire
import Synchronization

/// What a ``SyncSession`` does: connects, binds, uploads, downloads and
/// reconnects, and answers the waits and progress notifications.
///
/// The file work runs on the session's serial queue (``SyncedFile`` holds
/// a transaction, used by one thread); the connection runs in a task that
/// lives from one (re)connection to the next until the session is
/// suspended or invalid.
final class SessionEngine: Sendable {
    /// The session number on the connection: a connection per session.
    static let sessionNumber: UInt64 = 1
    static let firstRetryDelay: Duration = .milliseconds(250)
    static let longestRetryDelay: Duration = .seconds(30)

    let configuration: SyncConfiguration
    private let queue: DispatchQueue
    private let file: FileBox
    private let shared = Mutex(Shared())

    private struct Shared {
        var state: SyncSession.State = .inactive
        var suspended = false
        var invalid = false
        var run: Task<Void, Never>?
        var runNumber: UInt64 = 0
        /// When a connection was last bound.
        var lastBound: ContinuousClock.Instant?
        /// The bound connection, while there is one.
        var connection: BoundConnection?
        /// The last client version the server has acknowledged.
        var acknowledged: UInt64 = 0
        var uploadWaiters: [(target: UInt64, callback: @Sendable ((any Error)?) -> Void)] = []
        var downloadWaiters: [(request: UInt64, callback: @Sendable ((any Error)?) -> Void)] = []
        var nextRequest: UInt64 = 1
        var progress = ProgressCounters()
        var observers: [UInt64: ProgressObserver] = [:]
        var nextObserver: UInt64 = 1
        weak var owner: SyncSession?
        /// Set when the user logged out with changes not yet uploaded: the
        /// session uploads them with the last access token it had, then
        /// ends with this error (seed 001, "Logging out").
        var dying: (error: SyncError, accessToken: String?)?
    }

    private struct BoundConnection {
        /// Which run of ``runLoop()`` bound it: a run that ends after the
        /// next one began must not clear the next one's connection.
        let run: UInt64
        let sender: SerialMessageSender
        let uploads: AsyncStream<Void>.Continuation
    }

    /// The synced file, used only on `queue`; released when the session
    /// ends, so that the file closes with its last Realm.
    private final class FileBox: @unchecked Sendable {
        var file: SyncedFile?
        init(_ file: SyncedFile) { self.file = file }
    }

    init(configuration: SyncConfiguration, coordinator: Coordinator) throws {
        SyncManager.shared.fixLogLevel()
        self.configuration = configuration
        queue = DispatchQueue(label: "io.realm.sync.session")
        do {
            file = FileBox(try SyncedFile(coordinator: coordinator))
        } catch {
            throw SyncError(.clientInternalError, "The synced Realm at '\(coordinator.path)' cannot record its changes: \(error.message)")
        }
        file.file?.recorder.observeChangesets(owner: self) { [weak self] in self?.localChangesCommitted() }
    }

    /// The session reported to the error handler.
    var owner: SyncSession? {
        get { shared.withLock { $0.owner } }
        set { shared.withLock { $0.owner = newValue } }
    }

    var state: SyncSession.State { shared.withLock { $0.state } }

    private var logger: Logger { SyncManager.shared.logger }

    // MARK: Running

    /// Starts connecting, unless suspended, invalid or running.
    func start() {
        shared.withLock { shared in
            guard shared.run == nil, !shared.suspended, !shared.invalid else { return }
            shared.runNumber += 1
            let number = shared.runNumber
            shared.run = Task { [weak self] in await self?.runLoop(number) }
        }
    }

    func suspend() {
        let run = shared.withLock { shared -> Task<Void, Never>? in
            guard !shared.invalid else { return nil }
            shared.suspended = true
            shared.state = shared.dying == nil ? .inactive : .dying
            shared.connection?.uploads.finish()
            shared.connection = nil
            defer { shared.run = nil }
            return shared.run
        }
        run?.cancel()
    }

    func resume() {
        shared.withLock { $0.suspended = false }
        start()
    }

    /// Ends the session for good (the user logged out, or the server
    /// refused it); waiters get `error`.
    func invalidate(_ error: any Error) {
        let (run, waiters) = shared.withLock { shared -> (Task<Void, Never>?, [@Sendable ((any Error)?) -> Void]) in
            guard !shared.invalid else { return (nil, []) }
            shared.invalid = true
            shared.state = .invalid
            let waiters = shared.uploadWaiters.map(\.callback) + shared.downloadWaiters.map(\.callback)
            shared.uploadWaiters.removeAll()
            shared.downloadWaiters.removeAll()
            shared.observers.removeAll()
            defer { shared.run = nil }
            return (shared.run, waiters)
        }
        run?.cancel()
        queue.async { [file, self] in
            file.file?.recorder.stopObservingChangesets(owner: self)
            file.file = nil
        }
        for waiter in waiters { waiter(error) }
    }

    /// The user logged out: uploads what is still to upload, with
    /// `accessToken` (the user can get no other), then ends with `error`.
    /// The session is ``SyncSession/State/dying`` meanwhile; it ends at
    /// once when nothing is left to upload.
    ///
    /// A dying session that cannot finish before `accessToken` expires
    /// (offline, or suspended) ends then, its changes kept in the file.
    func logOut(_ error: SyncError, accessToken: (token: String, expires: Date)?) {
        let proceed = shared.withLock { shared -> Bool in
            guard !shared.invalid, shared.dying == nil else { return false }
            shared.dying = (error, accessToken?.token)
            shared.state = .dying
            return true
        }
        guard proceed else { return }
        if !waitForUpload({ [weak self] _ in self?.invalidate(error) }) { invalidate(error) }
        let lifetime = max(0, accessToken?.expires.timeIntervalSinceNow ?? 0)
        Task { [weak self] in
            try? await Task.sleep(for: .seconds(lifetime))
            self?.invalidate(error)
        }
    }

    /// What the session is doing, for a test that waited too long.
    package var diagnostics: String {
        shared.withLock { shared in
            "state \(shared.state), suspended \(shared.suspended), run \(shared.runNumber) \(shared.run == nil ? "stopped" : "running"), "
                + "bound \(shared.connection.map { "by run \($0.run)" } ?? "no"), acknowledged \(shared.acknowledged), "
                + "waiting for uploads \(shared.uploadWaiters.map(\.target)), for downloads \(shared.downloadWaiters.map(\.request))"
        }
    }

    private func runLoop(_ run: UInt64) async {
        var delay = Self.firstRetryDelay
        while !Task.isCancelled {
            let started = ContinuousClock.now
            let ending = await connectOnce(run)
            shared.withLock { shared in
                guard shared.connection?.run == run || shared.connection == nil else { return }
                shared.connection?.uploads.finish()
                shared.connection = nil
                if !shared.invalid, shared.dying == nil, shared.runNumber == run { shared.state = .inactive }
            }
            switch ending {
            case .cancelled:
                return
            case .dropped(let reason):
                logger.debug("sync connection to \(configuration.webSocketURL) ended: \(reason)")
            case .refused(let code, let message, let tryAgain):
                let error = Self.error(code: code, message: message, path: configuration.resolvedPath)
                if let dying = shared.withLock({ $0.dying }),
                   code == SyncProtocolError.badAuthentication.rawValue || code == SyncProtocolError.tokenExpired.rawValue {
                    // A logged-out user's last token no longer does: what
                    // was not uploaded stays in the file.
                    invalidate(dying.error)
                    return
                } else if code == SyncProtocolError.badAuthentication.rawValue || code == SyncProtocolError.tokenExpired.rawValue {
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
                    fail(error)
                    return
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
            if let bound = shared.withLock({ $0.lastBound }), bound > started { delay = Self.firstRetryDelay }
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
            if let dying = shared.withLock({ $0.dying }) {
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
            fileState = try await onQueue { file throws(RealmError) in try file.state() }
        } catch {
            return .failed(SyncError(.clientInternalError, "The synced Realm of \(configuration.realmURL.absoluteString) cannot be read: \(error.message)"))
        }
        var tls: TLSConfiguration?
        if configuration.webSocketURL.hasPrefix("wss:") {
            var client = TLSConfiguration.makeClientConfiguration()
            if !configuration.enableSSLValidation { client.certificateVerification = .none }
            tls = client
        }
        let timeouts = configuration.timeoutOptions ?? SyncManager.shared.timeoutOptions
        let channel: SyncWebSocket.Channel
        do {
            channel = try await SyncWebSocket.connect(to: configuration.webSocketURL, tls: tls, timeouts: timeouts)
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

    /// Binds, then reads the server's messages until the connection ends,
    /// uploading alongside.
    private func speak(_ inbound: MessageQueue, _ sender: SerialMessageSender, run: UInt64, token: String,
                       fileState: SyncFileState) async -> Ending {
        let number = Self.sessionNumber
        do {
            try await sender.send(.bind(session: number, path: configuration.resolvedPath, accessToken: token,
                                        clientFileIdent: fileState.clientFileIdent, lastServerVersion: fileState.lastServerVersion))
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
                        let (uploads, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
                        let marks = shared.withLock { shared -> [UInt64]? in
                            // A suspension (or a newer run) came first.
                            guard shared.runNumber == run, !shared.suspended, !shared.invalid else { return nil }
                            if shared.dying == nil { shared.state = .active }
                            shared.lastBound = .now
                            shared.connection = BoundConnection(run: run, sender: sender, uploads: continuation)
                            return shared.downloadWaiters.map(\.request)
                        }
                        guard let marks else { return .cancelled }
                        await noteAcknowledged(acknowledged)
                        group.addTask { await self.upload(from: acknowledged, sender, wakes: uploads) }
                        for request in Set(marks).sorted() { try await sender.send(.mark(session: number, request: request)) }
                    case .download(_, let serverVersion, let parts, let acknowledged, let progress):
                        logger.trace("download of \(configuration.resolvedPath): \(parts.count) parts to server version \(serverVersion), client versions to \(acknowledged) acknowledged")
                        var complete: [(serverVersion: UInt64, changeset: Changeset)] = []
                        for part in parts {
                            if let changeset = try reassembler.add(part) { complete.append(changeset) }
                        }
                        let toIntegrate = complete
                        do throws(RealmError) {
                            try await onQueue { file throws(RealmError) in try file.integrate(toIntegrate, reaching: serverVersion) }
                        } catch {
                            return .failed(SyncError(.clientSessionError, "A change from the server cannot be applied to \(configuration.realmURL.absoluteString): \(error.message)",
                                                     serverCode: SyncProtocolError.badChangeset.rawValue))
                        }
                        noteDownloadProgress(progress)
                        await noteAcknowledged(acknowledged)
                    case .mark(_, let request):
                        answerMarks(through: request)
                    case .error(_, let code, let text, let tryAgain):
                        return .refused(code: code, message: text, tryAgain: tryAgain)
                    case .bind, .upload, .refresh, .unbind:
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
                let pending = try await onQueue { file throws(RealmError) in try file.unacknowledged(after: after) }
                await refreshUploadProgress()
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

    /// A local write recorded a changeset: upload it, and count it.
    private func localChangesCommitted() {
        shared.withLock { $0.connection }?.uploads.yield()
        Task { await refreshUploadProgress() }
    }

    // MARK: Waiting

    func waitForUpload(_ callback: @escaping @Sendable ((any Error)?) -> Void) -> Bool {
        guard !shared.withLock({ $0.invalid }) else { return false }
        queue.async { [file] in
            let target = try? file.file?.newestUnacknowledged()
            let done = self.shared.withLock { shared -> Bool in
                guard let target, target > shared.acknowledged else { return true }
                shared.uploadWaiters.append((target, callback))
                return false
            }
            if done { callback(nil) }
        }
        return true
    }

    func waitForDownload(_ callback: @escaping @Sendable ((any Error)?) -> Void) -> Bool {
        let (request, connection) = shared.withLock { shared -> (UInt64?, BoundConnection?) in
            guard !shared.invalid else { return (nil, nil) }
            let request = shared.nextRequest
            shared.nextRequest += 1
            shared.downloadWaiters.append((request, callback))
            return (request, shared.connection)
        }
        guard let request else { return false }
        if let connection {
            Task { try? await connection.sender.send(.mark(session: Self.sessionNumber, request: request)) }
        }
        return true
    }

    private func answerMarks(through request: UInt64) {
        let answered = shared.withLock { shared in
            let answered = shared.downloadWaiters.filter { $0.request <= request }.map(\.callback)
            shared.downloadWaiters.removeAll { $0.request <= request }
            return answered
        }
        for callback in answered { callback(nil) }
    }

    /// The server has made client versions up to `acknowledged` durable:
    /// forget them here, and answer the waits they complete.
    private func noteAcknowledged(_ acknowledged: UInt64) async {
        let answered = shared.withLock { shared -> [@Sendable ((any Error)?) -> Void] in
            guard acknowledged > shared.acknowledged || shared.uploadWaiters.contains(where: { $0.target <= acknowledged }) else { return [] }
            shared.acknowledged = max(shared.acknowledged, acknowledged)
            let answered = shared.uploadWaiters.filter { $0.target <= acknowledged }.map(\.callback)
            shared.uploadWaiters.removeAll { $0.target <= acknowledged }
            return answered
        }
        let bytes = (try? await onQueue { file throws(RealmError) in try file.acknowledge(through: acknowledged) }) ?? 0
        if bytes > 0 {
            shared.withLock { $0.progress.uploadedBytes += bytes }
        }
        await refreshUploadProgress()
        for callback in answered { callback(nil) }
    }

    // MARK: Progress

    private func refreshUploadProgress() async {
        guard let unacknowledged = try? await onQueue({ file throws(RealmError) in try file.unacknowledgedBytes() }) else { return }
        let changed = shared.withLock { shared -> Bool in
            guard shared.progress.unacknowledgedBytes != unacknowledged else { return false }
            shared.progress.unacknowledgedBytes = unacknowledged
            return true
        }
        if changed { deliverProgress(.upload) }
    }

    private func noteDownloadProgress(_ progress: TransferProgress) {
        shared.withLock { shared in
            shared.progress.downloaded = progress.downloaded
            shared.progress.downloadable = progress.downloadable
        }
        deliverProgress(.download)
    }

    func addProgressObserver(_ observer: ProgressObserver) -> UInt64? {
        if observer.direction == .upload, let unacknowledged = queue.sync(execute: { [file] in try? file.file?.unacknowledgedBytes() }) {
            // Counted now: the work outstanding at registration includes
            // the write just made.
            shared.withLock { $0.progress.unacknowledgedBytes = unacknowledged }
        }
        let registered = shared.withLock { shared -> (UInt64, SyncSession.Progress)? in
            guard !shared.invalid else { return nil }
            var observer = observer
            let now = shared.progress.progress(observer.direction)
            if observer.mode == .forCurrentlyOutstandingWork {
                observer.outstanding = now.transferrableBytes
            }
            let id = shared.nextObserver
            shared.nextObserver += 1
            shared.observers[id] = observer
            return (id, now)
        }
        guard let (id, _) = registered else { return nil }
        deliverProgress(observer.direction)
        return id
    }

    func removeProgressObserver(_ id: UInt64) {
        shared.withLock { _ = $0.observers.removeValue(forKey: id) }
    }

    private func deliverProgress(_ direction: SyncSession.ProgressDirection) {
        let deliveries = shared.withLock { shared -> [(ProgressObserver, SyncSession.Progress)] in
            let progress = shared.progress.progress(direction)
            var deliveries: [(ProgressObserver, SyncSession.Progress)] = []
            for (id, observer) in shared.observers where observer.direction == direction {
                guard let outstanding = observer.outstanding else {
                    deliveries.append((observer, progress))
                    continue
                }
                let relative = SyncSession.Progress(transferredBytes: min(progress.transferredBytes, outstanding), transferrableBytes: outstanding)
                deliveries.append((observer, relative))
                if relative.isTransferComplete { shared.observers.removeValue(forKey: id) }
            }
            return deliveries
        }
        for (observer, progress) in deliveries { observer.deliver(progress) }
    }

    // MARK: Errors

    /// Reports `error` and ends the session.
    private func fail(_ error: any Error) {
        report(error)
        invalidate(error)
    }

    private func report(_ error: any Error) {
        SyncManager.shared.report(error, session: owner)
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

    // MARK: Plumbing

    private func onQueue<T: Sendable>(_ body: @escaping @Sendable (SyncedFile) throws(RealmError) -> T) async throws(RealmError) -> T {
        let result: Result<T, RealmError> = await withCheckedContinuation { continuation in
            queue.async { [file] in
                continuation.resume(returning: Result { () throws(RealmError) in
                    guard let file = file.file else { throw RealmError(.invalidTransactionState, "The session has ended.") }
                    return try body(file)
                })
            }
        }
        return try result.get()
    }
}
