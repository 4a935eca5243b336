import HummingbirdCore
import NIOCore

/// Passes a graceful shutdown's quiesce event on to the HTTP handlers that
/// a connection gets only once its first request is read, and closes a
/// connection that has sent nothing yet.
///
/// A connection that may become a WebSocket has no HTTP connection state
/// handler until its first request says it does not upgrade; a quiesce
/// event arriving before then finds nothing to close the connection:
/// - one that has sent nothing would keep the server from stopping for
///   ever (what waits for its first request is not cancellable), so it is
///   closed: no request of it is in flight;
/// - one whose first request is being read stays open after its response,
///   idle, until the shutdown's deadline. Once the state handler is there
///   (this handler looks every few milliseconds), it gets the event again:
///   it closes the connection after the response in flight, or at once
///   when idle. A second event is harmless to a handler that had the
///   first.
final class QuiesceRelay: ChannelInboundHandler, RemovableChannelHandler {
    // Used on its channel's event loop only, as every handler is.
    typealias InboundIn = NIOAny

    /// How often, and how many times, the relay looks for the state
    /// handler: about two seconds in all, longer than a request takes to
    /// arrive on a connection just opened.
    private static let interval = TimeAmount.milliseconds(20)
    private static let attempts = 100

    private var relayed = false
    private var hasRead = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        hasRead = true
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent, !relayed else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        relayed = true
        guard hasRead else {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
        relay(context, attemptsLeft: Self.attempts)
    }

    private func relay(_ context: ChannelHandlerContext, attemptsLeft: Int) {
        guard context.channel.isActive, attemptsLeft > 0 else { return }
        if (try? context.pipeline.syncOperations.handler(type: HTTPConnectionStateHandler.self)) != nil {
            context.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
            return
        }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: Self.interval) {
            let (relay, context) = loopBound.value
            relay.relay(context, attemptsLeft: attemptsLeft - 1)
        }
    }
}
