import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import RealmSyncWire
import Synchronization

/// The client's WebSocket connection to the sync server, on SwiftNIO:
/// connecting within ``SyncTimeoutOptions/connectTimeout``, then carrying
/// binary messages while pinging the server, and closing the connection
/// when the server stops answering (Docs/Sync.md, "Connections").
///
/// A client of our own rather than a general one because a sync session
/// must bound every phase of a connection: a network that accepts a
/// connection and then carries nothing (a black hole) otherwise holds a
/// session in the upgrade for ever.
enum SyncWebSocket {
    typealias Channel = NIOAsyncChannel<WebSocketFrame, WebSocketFrame>

    /// Why a connection failed or ended.
    enum Failure: Error, CustomStringConvertible {
        case invalidURL(String)
        case timedOut(UInt)
        case notUpgraded
        case unresponsive(UInt)
        case textMessage
        case closedByServer(WebSocketErrorCode?)

        var description: String {
            switch self {
            case .invalidURL(let url): "'\(url)' is not a WebSocket URL"
            case .timedOut(let milliseconds): "no connection within \(milliseconds) ms"
            case .notUpgraded: "the server refused the WebSocket upgrade"
            case .unresponsive(let milliseconds): "the server answered no ping within \(milliseconds) ms"
            case .textMessage: "a text message from the server"
            case .closedByServer(let code): "the server closed the connection (\(code.map { "\($0)" } ?? "no code"))"
            }
        }
    }

    private enum Upgrade: Sendable {
        case websocket(Channel)
        case notUpgraded
    }

    /// Connects to `url` (`ws://` or `wss://`) on `eventLoop` and upgrades
    /// to WebSocket, giving up when the TCP connection, TLS and the upgrade
    /// are not all done within `timeouts.connectTimeout`.
    static func connect(to url: String, on eventLoop: any EventLoop, tls: TLSConfiguration?,
                        timeouts: SyncTimeoutOptions) async throws -> Channel {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else {
            throw Failure.invalidURL(url)
        }
        let secure = components.scheme == "wss"
        let port = components.port ?? (secure ? 443 : 80)
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        let sslContext = try secure ? NIOSSLContext(configuration: tls ?? .makeClientConfiguration()) : nil
        let timeout = TimeAmount.milliseconds(Int64(timeouts.connectTimeout))

        let started = ContinuousClock.now
        let upgrade = try await ClientBootstrap(group: eventLoop)
            .connectTimeout(timeout)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let sslContext {
                        // Names, not addresses, go in SNI.
                        let name = host.contains(":") || host.allSatisfy({ $0.isNumber || $0 == "." }) ? nil : host
                        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: sslContext, serverHostname: name))
                    }
                    let negotiated = try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                        configuration: NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: upgradeConfiguration(host: host, port: port, path: path)))
                    // A handshake the server never finishes ends here; so
                    // does a connection that will not become a WebSocket.
                    let deadline = channel.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
                    negotiated.whenComplete { result in
                        deadline.cancel()
                        if case .success(.websocket) = result { return }
                        channel.close(promise: nil)
                    }
                    return negotiated
                }
            }
        let result: Upgrade
        do {
            result = try await upgrade.get()
        } catch {
            // Closed by the deadline: say so, rather than "channel closed".
            if ContinuousClock.now - started >= .milliseconds(Int64(timeouts.connectTimeout)) { throw Failure.timedOut(timeouts.connectTimeout) }
            throw error
        }
        switch result {
        case .websocket(let channel): return channel
        case .notUpgraded: throw Failure.notUpgraded
        }
    }

    private static func upgradeConfiguration(host: String, port: Int, path: String) -> NIOTypedHTTPClientUpgradeConfiguration<Upgrade> {
        let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(maxFrameSize: SyncMessageCoding.maximumMessageSize + 64) { channel, _ in
            channel.eventLoop.makeCompletedFuture {
                // Messages the server sends in several frames arrive whole.
                try channel.pipeline.syncOperations.addHandler(NIOWebSocketFrameAggregator(
                    minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1 << 14,
                    maxAccumulatedFrameSize: SyncMessageCoding.maximumMessageSize))
                return .websocket(try Channel(wrappingChannelSynchronously: channel))
            }
        }
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")
        headers.add(name: "Content-Length", value: "0")
        return NIOTypedHTTPClientUpgradeConfiguration(
            upgradeRequestHead: HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers),
            upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in channel.eventLoop.makeCompletedFuture { .notUpgraded } })
    }

    /// How many received messages wait for the session at most (each up to
    /// 1 MiB) before the connection stops reading.
    static let bufferedMessages = 4

    /// Runs `body` over `channel` with the server's binary messages and a
    /// sender, answering the server's pings and pinging it every
    /// `pingKeepalivePeriod`; a ping with nothing heard from the server
    /// within `pongKeepaliveTimeout` closes the connection, which ends the
    /// messages with ``Failure/unresponsive(_:)``. The connection is closed
    /// when `body` returns.
    ///
    /// Pings and pongs are written to the channel directly, past the
    /// writer's backpressure, so that a connection whose uploads a dead
    /// network stopped taking is still found dead.
    static func run<Result: Sendable>(_ channel: Channel, timeouts: SyncTimeoutOptions,
                                      _ body: @escaping @Sendable (MessageQueue, SerialMessageSender) async -> Result)
        async throws -> Result {
        let connection = channel.channel
        return try await channel.executeThenClose { inbound, outbound in
            let liveness = Liveness()
            // The session taking a message is progress too: while it is
            // behind, the reader waits and hears nothing.
            let messages = MessageQueue(capacity: bufferedMessages, onTake: { liveness.heard() })
            let sender = SerialMessageSender { bytes in try await outbound.write(contentsOf: frames(of: bytes)) }
            return await withTaskGroup(of: Result?.self) { group in
                group.addTask {
                    await keepAlive(connection, liveness, messages, timeouts)
                    return nil
                }
                group.addTask {
                    let result = await body(messages, sender)
                    // A reader waiting for room in the queue stops waiting.
                    messages.finish()
                    connection.writeAndFlush(closeFrame(), promise: nil)
                    connection.close(promise: nil)
                    return result
                }
                // The reader, in this task: the inbound frames have one
                // consumer. It ends when the connection closes, whoever
                // closes it.
                do {
                    reading: for try await frame in inbound {
                        liveness.heard()
                        switch frame.opcode {
                        case .binary:
                            await messages.push(Array(buffer: frame.unmaskedData))
                        case .ping:
                            connection.writeAndFlush(WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData), promise: nil)
                        case .connectionClose:
                            var data = frame.unmaskedData
                            messages.finish(throwing: Failure.closedByServer(data.readWebSocketErrorCode()))
                            connection.writeAndFlush(closeFrame(), promise: nil)
                            break reading
                        case .text:
                            messages.finish(throwing: Failure.textMessage)
                            break reading
                        default:
                            break
                        }
                    }
                    messages.finish()
                } catch {
                    messages.finish(throwing: error)
                }
                connection.close(promise: nil)
                var result: Result?
                while let next = await group.next() {
                    guard let next else { continue }
                    result = next
                    group.cancelAll()
                }
                guard let result else { preconditionFailure("SyncWebSocket.run: the body returned nothing") }
                return result
            }
        }
    }

    /// A masked close frame with the normal closure code.
    private static func closeFrame() -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: ByteBuffer(webSocketErrorCode: .normalClosure))
    }

    /// The largest frame the client sends: servers commonly refuse larger
    /// ones (this project's takes 64 KiB).
    static let maximumFrameSize = 1 << 16

    /// A binary message as masked frames of at most ``maximumFrameSize``.
    static func frames(of message: [UInt8]) -> [WebSocketFrame] {
        var frames: [WebSocketFrame] = []
        var start = 0
        repeat {
            let end = min(start + maximumFrameSize, message.count)
            frames.append(WebSocketFrame(fin: end == message.count, opcode: start == 0 ? .binary : .continuation, maskKey: .random(),
                                         data: ByteBuffer(bytes: message[start..<end])))
            start = end
        } while start < message.count
        return frames
    }

    /// Pings every `pingKeepalivePeriod`; when nothing was heard within
    /// `pongKeepaliveTimeout` of a ping (and the reader was not waiting for
    /// the session), ends `messages` as unresponsive and closes the
    /// connection. Returns then, or when cancelled.
    private static func keepAlive(_ connection: any NIOCore.Channel, _ liveness: Liveness, _ messages: MessageQueue,
                                  _ timeouts: SyncTimeoutOptions) async {
        let period = Duration.milliseconds(Int64(timeouts.pingKeepalivePeriod))
        let patience = Duration.milliseconds(Int64(timeouts.pongKeepaliveTimeout))
        while !Task.isCancelled {
            let sent: Int64
            do {
                try await Task.sleep(for: period)
                sent = Liveness.now()
                connection.writeAndFlush(WebSocketFrame(fin: true, opcode: .ping, maskKey: .random(), data: ByteBuffer()), promise: nil)
                try await Task.sleep(for: patience)
            } catch {
                return
            }
            if liveness.lastHeard < sent, !messages.isFull {
                messages.finish(throwing: Failure.unresponsive(timeouts.pongKeepaliveTimeout))
                connection.close(promise: nil)
                return
            }
        }
    }

    /// When the server was last heard from.
    private final class Liveness: Sendable {
        private let last = Atomic<Int64>(Liveness.now())

        var lastHeard: Int64 { last.load(ordering: .relaxed) }

        func heard() {
            last.store(Self.now(), ordering: .relaxed)
        }

        /// Monotonic nanoseconds.
        static func now() -> Int64 {
            Int64(DispatchTime.now().uptimeNanoseconds)
        }
    }
}

extension ByteBuffer {
    /// A close frame's payload: the code alone.
    fileprivate init(webSocketErrorCode code: WebSocketErrorCode) {
        self.init()
        write(webSocketErrorCode: code)
    }
}
