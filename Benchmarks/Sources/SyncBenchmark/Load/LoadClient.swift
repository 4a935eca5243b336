import Foundation
import Logging
import NIOCore
import RealmSyncWire
import Synchronization
import WSClient

/// A simulated client of the load test: one WebSocket connection and one
/// session bound to a Realm, speaking the sync protocol directly (no
/// Realm file: a thousand of them fit in one process). It owns one object
/// of `LoadItem` (its number is the primary key) and, when told to write,
/// sets its `sentAt` to the monotonic clock; every other client of the
/// Realm reads that value from its downloads, and the difference is a
/// change's latency from one client to another through the server.
///
/// Everything a client holds is used by its connection's task alone,
/// except the figures, which the load test reads: they are locked.
final class LoadClient: Sendable {
    let number: Int
    let path: String
    /// The objects the client owns, and how many of them each write sets
    /// (the next ones in turn).
    private let objects: Int
    private let updatesPerWrite: Int
    private let port: Int
    private let accessToken: String
    private let clientFileIdent: UInt64
    let figures = Mutex(Figures())
    /// Writes requested and not yet sent: the connection's task sends them.
    private let requests: AsyncStream<Void>.Continuation
    private let requested: AsyncStream<Void>

    struct Figures {
        var bound = false
        /// From a client's write to the download that brings it here, ns:
        /// written through this client's server process, and through
        /// another.
        var latencies: [Int] = []
        var latenciesFromOtherProcesses: [Int] = []
        /// From an upload to its acknowledgement, ns.
        var acknowledgements: [Int] = []
        var acknowledged: UInt64 = 0
        /// Writes asked for: each one a client version.
        var written: UInt64 = 0
        var failure: String?
    }

    static let className = "LoadItem"

    /// The server process of the client numbered so (as the load test
    /// spreads them), to tell changes through this client's process from
    /// the others'.
    private let processOf: @Sendable (Int) -> Int

    init(number: Int, path: String, port: Int, accessToken: String, objects: Int = 1, updatesPerWrite: Int? = nil,
         processOf: @escaping @Sendable (Int) -> Int = { _ in 0 }) {
        self.number = number
        self.updatesPerWrite = min(objects, updatesPerWrite ?? objects)
        self.processOf = processOf
        self.objects = objects
        self.path = path
        self.port = port
        self.accessToken = accessToken
        clientFileIdent = UInt64(number + 1) << 24 | UInt64.random(in: 1..<(1 << 24))
        (requested, requests) = AsyncStream<Void>.makeStream(bufferingPolicy: .unbounded)
    }

    /// Asks the client to write once more (sent when the connection can).
    func write() {
        figures.withLock { $0.written += 1 }
        requests.yield()
    }

    /// Runs the client until cancelled.
    func run() async {
        do {
            try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/sync", configuration: .init(maxFrameSize: 1 << 16),
                                              logger: Logger(label: "load")) { inbound, outbound, _ in
                try await self.speak(inbound, outbound)
            }
        } catch is CancellationError {
        } catch {
            figures.withLock { if $0.failure == nil { $0.failure = "\(error)" } }
        }
    }

    private func speak(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter) async throws {
        let bind = SyncMessage.bind(session: 1, path: path, accessToken: accessToken, clientFileIdent: clientFileIdent, lastServerVersion: 0)
        try await outbound.write(.binary(ByteBuffer(bytes: SyncMessageCoding.encode(bind))))
        // The server version this client has (for its changesets), and
        // when each of its client versions went.
        let state = SessionState()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                var clientVersion: UInt64 = 0
                for await _ in self.requested {
                    clientVersion += 1
                    let sentAt = now()
                    let serverVersion = state.progress.withLock { progress -> UInt64 in
                        progress.sent[clientVersion] = sentAt
                        return progress.serverVersion
                    }
                    let changeset = self.changeset(clientVersion, serverVersion: serverVersion, sentAt: sentAt)
                    for parts in ChangesetPart.messages(of: [(0, ChangesetCoding.encode(changeset))]) {
                        // In frames the server takes (a message may be larger).
                        try await outbound.writeBinaryMessage(ByteBuffer(bytes: SyncMessageCoding.encode(.upload(session: 1, parts: parts))))
                    }
                }
            }
            var reassembler = ChangesetReassembler()
            for try await message in inbound.messages(maxSize: SyncMessageCoding.maximumMessageSize) {
                guard case .binary(let buffer) = message else { continue }
                let arrived = now()
                switch try SyncMessageCoding.decode(Array(buffer: buffer)) {
                case .ident:
                    figures.withLock { $0.bound = true }
                case .download(_, let serverVersion, _, let parts, let acknowledged, _, _):
                    var latencies: [Int] = []
                    var fromOthers: [Int] = []
                    for part in parts {
                        // A state catch-up's parts carry version 0: old values.
                        guard let (version, changeset) = try reassembler.add(part), version > 0 else { continue }
                        let writer = Int(changeset.clientFileIdent >> 24) - 1
                        let sameProcess = processOf(writer) == processOf(number)
                        for case .set(_, _, "sentAt", .int(let sentAt)) in changeset.instructions {
                            if sameProcess { latencies.append(arrived - Int(sentAt)) } else { fromOthers.append(arrived - Int(sentAt)) }
                        }
                    }
                    let acknowledgements = state.progress.withLock { progress -> [Int] in
                        if serverVersion > 0 { progress.serverVersion = max(progress.serverVersion, serverVersion) }
                        let done = progress.sent.filter { $0.key <= acknowledged }
                        for version in done.keys { progress.sent.removeValue(forKey: version) }
                        return done.values.map { arrived - $0 }
                    }
                    figures.withLock { figures in
                        figures.latencies += latencies
                        figures.latenciesFromOtherProcesses += fromOthers
                        figures.acknowledgements += acknowledgements
                        figures.acknowledged = max(figures.acknowledged, acknowledged)
                    }
                case .error(_, _, let message, _):
                    throw LoadFailure(reason: "client \(number): \(message)")
                default:
                    break
                }
            }
            group.cancelAll()
        }
    }

    /// What the sender and the reader of a connection share.
    private final class SessionState: Sendable {
        let progress = Mutex((serverVersion: UInt64(0), sent: [UInt64: Int]()))
    }

    /// The client's changeset `clientVersion`: the first declares the
    /// class and makes the client's objects.
    private func changeset(_ clientVersion: UInt64, serverVersion: UInt64, sentAt: Int) -> Changeset {
        func identity(_ index: Int) -> ObjectIdentity { .primaryKey(.int(Int64(number * 1_000_000 + index)), incarnation: 0) }
        var instructions: [Instruction] = []
        if clientVersion == 1 {
            instructions = [
                .addClass(ClassSpec(name: Self.className, primaryKey: "id", isEmbedded: false)),
                .addProperty(class: Self.className, PropertySpec(name: "id", type: "int", isOptional: false, isList: false, target: nil)),
                .addProperty(class: Self.className, PropertySpec(name: "sentAt", type: "int", isOptional: false, isList: false, target: nil)),
            ] + (0..<objects).map { .create(class: Self.className, identity($0)) }
        }
        let first = Int(clientVersion - 1) * updatesPerWrite
        for offset in 0..<updatesPerWrite {
            instructions.append(.set(class: Self.className, identity((first + offset) % objects), property: "sentAt", .int(Int64(sentAt))))
        }
        return Changeset(clientFileIdent: clientFileIdent, clientVersion: clientVersion, lastServerVersion: serverVersion,
                         timestamp: Int64(Date().timeIntervalSince1970 * 1000), firstSequence: clientVersion << 8,
                         instructions: instructions)
    }
}

struct LoadFailure: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
