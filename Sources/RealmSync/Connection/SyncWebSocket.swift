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

    /// Connects to `url` (`ws://` or `wss://`) and upgrades to WebSocket,
    /// giving up after `timeouts.connectTimeout` for the TCP connection and
    /// again for TLS and the upgrade.
    static func connect(to url: String, tls: TLSConfiguration?, timeouts: SyncTimeoutOptions) async throws -> Channel {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else {
            throw Failure.invalidURL(url)
        }
        let secure = components.scheme == "wss"
        let port = components.port ?? (secure ? 443 : 80)
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        let sslContext = try secure ? NIOSSLContext(configuration: tls ?? .makeClientConfiguration()) : nil
        let timeout = TimeAmount.milliseconds(Int64(timeouts.connectTimeout))

        let upgrade = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
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
                    // A handshake the server never finishes ends here.
                    let deadline = channel.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
                    negotiated.whenComplete { _ in deadline.cancel() }
                    return negotiated
                }
            }
        switch try await upgrade.get() {
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
        headers.add(name: "Host", value: "\(host):\(port)")
        headers.add(name: "Content-Length", value: "0")
        return NIOTypedHTTPClientUpgradeConfiguration(
            upgradeRequestHead: HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers),
            upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in channel.eventLoop.makeCompletedFuture { .notUpgraded } })
    }

    /// Runs `body` over `channel` with the server's binary messages and a
    /// sender, answering the server's pings and pinging it every
    /// `pingKeepalivePeriod`; a ping unanswered for `pongKeepaliveTimeout`
    /// closes the connection, which ends the messages with
    /// ``Failure/unresponsive(_:)``. The connection is closed when `body`
    /// returns.
    static func run<Result: Sendable>(_ channel: Channel, timeouts: SyncTimeoutOptions,
                                      _ body: @escaping @Sendable (AsyncThrowingStream<[UInt8], any Error>, SerialMessageSender) async -> Result)
        async throws -> Result {
        let connection = channel.channel
        return try await channel.executeThenClose { inbound, outbound in
            let (messages, delivery) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
            let liveness = Liveness()
            let sender = SerialMessageSender { bytes in try await outbound.write(contentsOf: frames(of: bytes)) }
            return await withTaskGroup(of: Result?.self) { group in
                group.addTask {
                    await keepAlive(outbound, liveness, timeouts, onDeath: {
                        delivery.finish(throwing: Failure.unresponsive(timeouts.pongKeepaliveTimeout))
                        connection.close(promise: nil)
                    })
                    return nil
                }
                group.addTask {
                    let result = await body(messages, sender)
                    try? await outbound.write(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(),
                                                             data: ByteBuffer(webSocketErrorCode: .normalClosure)))
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
                            delivery.yield(Array(buffer: frame.unmaskedData))
                        case .ping:
                            try await outbound.write(WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData))
                        case .connectionClose:
                            var data = frame.unmaskedData
                            delivery.finish(throwing: Failure.closedByServer(data.readWebSocketErrorCode()))
                            break reading
                        case .text:
                            delivery.finish(throwing: Failure.textMessage)
                            break reading
                        default:
                            break
                        }
                    }
                    delivery.finish()
                } catch {
                    delivery.finish(throwing: error)
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

    /// Pings every `pingKeepalivePeriod`; calls `onDeath` when a ping goes
    /// unanswered (nothing heard from the server) for
    /// `pongKeepaliveTimeout`, and returns then or when cancelled.
    private static func keepAlive(_ outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>, _ liveness: Liveness,
                                  _ timeouts: SyncTimeoutOptions, onDeath: @Sendable () -> Void) async {
        let period = Duration.milliseconds(Int64(timeouts.pingKeepalivePeriod))
        let patience = Duration.milliseconds(Int64(timeouts.pongKeepaliveTimeout))
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: period)
                let sent = Liveness.now()
                try await outbound.write(WebSocketFrame(fin: true, opcode: .ping, maskKey: .random(), data: ByteBuffer()))
                try await Task.sleep(for: patience)
                if liveness.lastHeard < sent {
                    onDeath()
                    return
                }
            } catch {
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
