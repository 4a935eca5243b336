import Foundation

extension SyncSession {
    /// Which transfers a progress notification reports.
    public enum ProgressDirection: Sendable {
        /// This device's changes going to the server.
        case upload
        /// Other devices' changes coming from the server.
        case download
    }

    /// How long a progress notification reports (seed 001, "Progress
    /// notifications").
    public enum ProgressMode: Sendable {
        /// Until invalidated, always with the newest number of transferrable
        /// bytes.
        case reportIndefinitely
        /// Relative to the bytes transferrable at registration; the block
        /// is unregistered once they are transferred.
        case forCurrentlyOutstandingWork
    }

    /// Transferred and transferrable bytes of encoded changesets.
    ///
    /// Uploads count this device's changesets since the session began
    /// (transferred once the server has made them durable); downloads count
    /// the other devices' changesets the server has for this device on the
    /// current connection (transferred once applied to the Realm, so that
    /// 100 % means the data is there).
    public struct Progress: Sendable, Equatable, CustomStringConvertible {
        /// The bytes transferred.
        public let transferredBytes: Int
        /// The bytes there are to transfer, transferred ones included.
        public let transferrableBytes: Int

        /// Progress as described.
        public init(transferredBytes: Int, transferrableBytes: Int) {
            self.transferredBytes = transferredBytes
            self.transferrableBytes = transferrableBytes
        }

        /// The fraction transferred, from 0 to 1 (1 when there is nothing
        /// to transfer).
        public var fractionTransferred: Double {
            transferrableBytes == 0 ? 1 : min(1, Double(transferredBytes) / Double(transferrableBytes))
        }

        /// Whether everything there is has been transferred.
        public var isTransferComplete: Bool { transferredBytes >= transferrableBytes }

        public var description: String { "\(transferredBytes)/\(transferrableBytes) bytes" }
    }

    /// Stops a progress notification: ``invalidate()``.
    public final class ProgressNotificationToken: Sendable {
        private let engine: SessionEngine
        private let id: UInt64

        init(engine: SessionEngine, id: UInt64) {
            self.engine = engine
            self.id = id
        }

        /// Stops the notifications; does nothing when they have stopped.
        public func invalidate() {
            engine.removeProgressObserver(id)
        }
    }

    /// Calls `block` with the progress of uploads or downloads: once now,
    /// then as it changes. Blocks registered on the main thread are called
    /// on the main queue; others on `queue` when given, or else on a serial
    /// queue of their own, in order.
    ///
    /// - Returns: a token to stop the notifications, or nil when there will
    ///   be none (the session is invalid).
    public func addProgressNotification(for direction: ProgressDirection, mode: ProgressMode = .reportIndefinitely,
                                        queue: DispatchQueue? = nil,
                                        block: @escaping @Sendable (Progress) -> Void) -> ProgressNotificationToken? {
        let target = queue ?? (Thread.isMainThread ? DispatchQueue.main : DispatchQueue(label: "io.realm.sync.progress"))
        let observer = ProgressObserver(direction: direction, mode: mode, queue: target, block: block)
        guard let id = engine.addProgressObserver(observer) else { return nil }
        return ProgressNotificationToken(engine: engine, id: id)
    }
}

/// A registered progress block.
struct ProgressObserver: Sendable {
    let direction: SyncSession.ProgressDirection
    let mode: SyncSession.ProgressMode
    let queue: DispatchQueue
    let block: @Sendable (SyncSession.Progress) -> Void
    /// For `forCurrentlyOutstandingWork`: the bytes transferrable at
    /// registration.
    var outstanding: Int?

    init(direction: SyncSession.ProgressDirection, mode: SyncSession.ProgressMode, queue: DispatchQueue,
         block: @escaping @Sendable (SyncSession.Progress) -> Void) {
        self.direction = direction
        self.mode = mode
        self.queue = queue
        self.block = block
    }

    func deliver(_ progress: SyncSession.Progress) {
        let block = block
        queue.async { block(progress) }
    }
}

/// A session's byte counts.
struct ProgressCounters {
    /// Bytes of this device's changesets the server has acknowledged since
    /// the session began.
    var uploadedBytes: UInt64 = 0
    /// Bytes of changesets not yet acknowledged.
    var unacknowledgedBytes: UInt64 = 0
    /// The server's figures for the current connection.
    var downloaded: UInt64 = 0
    var downloadable: UInt64 = 0

    func progress(_ direction: SyncSession.ProgressDirection) -> SyncSession.Progress {
        switch direction {
        case .upload:
            SyncSession.Progress(transferredBytes: Int(clamping: uploadedBytes),
                                 transferrableBytes: Int(clamping: uploadedBytes + unacknowledgedBytes))
        case .download:
            SyncSession.Progress(transferredBytes: Int(clamping: downloaded), transferrableBytes: Int(clamping: max(downloadable, downloaded)))
        }
    }
}
