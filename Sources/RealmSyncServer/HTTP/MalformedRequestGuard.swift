import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL

/// A server child channel that answers a request the HTTP parser cannot
/// read (bytes that are not HTTP, a method HTTP does not have) and closes
/// the connection, around another child channel that would leave it open
/// and unanswered until its idle timeout.
///
/// The WebSocket upgrade pipeline turns off NIO's own error handling
/// (Hummingbird answers errors of requests it has parsed), so a request
/// that never parses reaches no one who answers it. For the same pipeline,
/// the guard also adds a ``QuiesceRelay``, so that a graceful shutdown
/// closes connections whose first request is not read yet.
struct MalformedRequestGuard<Wrapped: ServerChildChannel>: ServerChildChannel {
    typealias Value = Wrapped.Value

    let wrapped: Wrapped

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        wrapped.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let writer = RawResponseWriter()
            // Below the HTTP codec, above TLS when there is TLS: the answer
            // is plain HTTP inside the connection's TLS.
            let operations = channel.pipeline.syncOperations
            if let tls = try? operations.handler(type: NIOSSLServerHandler.self) {
                try operations.addHandler(writer, position: .after(tls))
            } else {
                try operations.addHandler(writer, position: .first)
            }
            try channel.pipeline.syncOperations.addHandler(ParseFailureResponder(writer: writer, logger: logger), position: .last)
            try operations.addHandler(QuiesceRelay(), position: .first)
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await wrapped.handle(value: value, logger: logger)
    }
}

/// Writes bytes straight to the socket, below the HTTP encoder.
private final class RawResponseWriter: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
}

/// Answers the HTTP parser's errors: 501 for a method HTTP does not have,
/// 400 for anything else it cannot read; then closes.
private final class ParseFailureResponder: ChannelInboundHandler, RemovableChannelHandler {
    // Used on its channel's event loop only, as every handler is.
    typealias InboundIn = NIOAny

    let writer: RawResponseWriter
    let logger: Logger
    private var answered = false

    init(writer: RawResponseWriter, logger: Logger) {
        self.writer = writer
        self.logger = logger
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parseError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        guard !answered else { return }
        answered = true
        let status = parseError == .invalidMethod ? "501 Not Implemented" : "400 Bad Request"
        logger.debug("refused a request that is not HTTP: \(parseError)")
        let body = "HTTP/1.1 \(status)\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
        let channel = context.channel
        guard let writerContext = try? context.pipeline.syncOperations.context(handler: writer) else {
            channel.close(promise: nil)
            return
        }
        writerContext.writeAndFlush(NIOAny(channel.allocator.buffer(string: body))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}
