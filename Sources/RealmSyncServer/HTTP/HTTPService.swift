import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// The server's HTTP and WebSocket side as a service: Hummingbird's server,
/// answering each request with the router.
///
/// In place of Hummingbird's `Application`, whose `run()` adds a service
/// that refreshes the `Date` header every second: a timer merged with the
/// graceful shutdown by swift-async-algorithms' `merge`. Cancelling that
/// service as the server stops can deadlock when the server runs on a task
/// executor of its own: the merge holds its lock while it registers a
/// continuation, which under a task executor preference takes the task's
/// status lock, and the cancellation holds that status lock while its
/// handler waits for the merge's lock (swift-async-algorithms issue 430;
/// Swift up to 6.3.3). The sync tests run their servers so, and one hung
/// in CI. Here the header is made by the request that finds the second
/// changed: no timer, no merge.
struct HTTPService: Service {
    private let server: any Service

    init(router: Router<BasicRequestContext>, server builder: HTTPServerBuilder, address: BindAddress, serverName: String,
         onServerRunning: @escaping @Sendable (any Channel) async -> Void, logger: Logger) throws {
        let responder = router.buildResponder()
        let date = HTTPDate()
        server = try builder.buildServer(
            configuration: ServerConfiguration(address: address, serverName: serverName),
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            logger: logger,
            responder: { request, writer, channel in
                let context = BasicRequestContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
                var response: Response
                do {
                    response = try await responder.respond(to: request, context: context)
                } catch let error as HTTPParserError {
                    // The connection's to answer (a malformed request).
                    throw error
                } catch {
                    // `ProblemMiddleware` answers every failure it sees;
                    // one past it says nothing of the server's insides.
                    logger.debug("unanswered error", metadata: ["error.type": "\(error)"])
                    response = Response(status: .internalServerError)
                }
                response.headers[.date] = date.now
                response.headers[.server] = serverName
                try await writer.write(response: response.head, body: response.body)
            },
            onServerRunning: onServerRunning)
    }

    func run() async throws {
        try await server.run()
    }
}
