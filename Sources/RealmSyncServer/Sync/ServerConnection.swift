import Foundation
import Logging
import NIOCore
import NIOWebSocket
import RealmSyncEngine
import RealmSyncWire
import Synchronization
import WSCore

/// One client's WebSocket, speaking the sync protocol (Docs/SyncDesign.md,
/// "The wire"): it reads messages in order and gives each to its session.
///
/// Nothing a client sends stops the server: a message that cannot be read
/// ends this connection with an `error` message, a refused bind or upload
/// ends that session with one, and the other sessions go on.
final class ServerConnection: Sendable {
    private let service: SyncService
    private let writer: SerialMessageSender
    private let outbound: WebSocketOutboundWriter
    private let logger: Logger
    private let sessions = Mutex<[UInt64: (session: ServerSession, sender: Task<Void, Never>)]>([:])

    /// The most sessions one connection may bind.
    static let maximumSessions = 256

    init(service: SyncService, outbound: WebSocketOutboundWriter, logger: Logger) {
        self.service = service
        writer = SerialMessageSender { bytes in try await outbound.writeBinaryMessage(ByteBuffer(bytes: bytes)) }
        self.outbound = outbound
        self.logger = logger
    }

    /// Reads the connection's messages until it closes.
    func run(_ inbound: WebSocketInboundStream) async {
        defer { closeAllSessions() }
        do {
            for try await message in inbound.messages(maxSize: SyncMessageCoding.maximumMessageSize) {
                guard case .binary(let buffer) = message else {
                    await fail(SessionError(.badSyntax, "A text message; the sync protocol's messages are binary."))
                    return
                }
                let decoded: SyncMessage
                do {
                    decoded = try SyncMessageCoding.decode(Array(buffer: buffer))
                } catch {
                    await fail(SessionError(error.unsupportedProtocolVersion != nil ? .wrongProtocolVersion : .badSyntax,
                                            "A message that cannot be read: \(error)"))
                    return
                }
                if let refusal = await handle(decoded) {
                    await fail(refusal)
                    return
                }
            }
        } catch {
            // A frame over the size limit, or a connection that broke.
            logger.debug("sync connection ended: \(error)")
            await fail(SessionError(.limitsExceeded, "The connection failed: \(error)"))
        }
    }

    /// Handles one message; returns an error that ends the connection.
    private func handle(_ message: SyncMessage) async -> SessionError? {
        switch message {
        case .bind(let number, let path, let token, let ident, let lastServerVersion, let salt, let subscriptions):
            guard session(number) == nil else {
                return SessionError(.badSessionIdent, "Session \(number) is bound already.")
            }
            guard sessions.withLock({ $0.count }) < Self.maximumSessions else {
                return SessionError(.limitsExceeded, "A connection binds at most \(Self.maximumSessions) sessions.")
            }
            do {
                try await bind(number, path: path, token: token, ident: ident, lastServerVersion: lastServerVersion, salt: salt,
                               subscriptions: subscriptions)
            } catch {
                await end(number, error)
            }
        case .upload(let number, let parts):
            guard let session = session(number) else { return SessionError(.badSessionIdent, "Session \(number) is not bound.") }
            do {
                try await session.upload(parts)
            } catch {
                await end(number, error)
            }
        case .mark(let number, let request):
            guard let session = session(number) else { return SessionError(.badSessionIdent, "Session \(number) is not bound.") }
            do {
                try await session.mark(request)
            } catch {
                await end(number, error)
            }
        case .subscribe(let number, let subscriptions):
            guard let session = session(number) else { return SessionError(.badSessionIdent, "Session \(number) is not bound.") }
            do {
                try session.subscribe(subscriptions)
            } catch {
                await end(number, error)
            }
        case .refresh(let number, let token):
            guard session(number) != nil else { return SessionError(.badSessionIdent, "Session \(number) is not bound.") }
            do {
                _ = try await service.user(ofAccessToken: token)
            } catch {
                await end(number, error)
            }
        case .unbind(let number):
            close(number)
        case .ident, .download, .error, .subscriptionStatus:
            return SessionError(.badMessageOrder, "A message only the server sends.")
        }
        return nil
    }

    private func bind(_ number: UInt64, path: String, token: String, ident: UInt64, lastServerVersion: UInt64,
                      salt: UInt64, subscriptions: [SubscriptionQuery]?) async throws(SessionError) {
        let user = try await service.user(ofAccessToken: token)
        let generation = service.access.generation
        let (realm, level) = try await service.realm(at: path, for: user.identity, isAdmin: user.isAdmin)
        guard ident != 0, ident <= 1 << 62 else {
            throw SessionError(.badClientFileIdent, "A client file identity of \(ident): the client chooses its own, from 1 to 2^62.")
        }
        let (acknowledged, catchUp) = try await realm.register(client: ident, owner: user.identity, lastServerVersion: lastServerVersion,
                                                               salt: salt, queryBased: subscriptions != nil)
        let session = try ServerSession(number: number, clientFileIdent: ident, realm: realm, acknowledged: acknowledged, writer: writer,
                                    user: ServerSession.User(identity: user.identity, isAdmin: user.isAdmin, path: realm.path),
                                    access: service.access, level: (generation, level), subscriptions: subscriptions,
                                    compaction: service.compaction, logger: logger)
        do {
            try await writer.send(.ident(session: number, clientFileIdent: ident, lastIntegratedClientVersion: acknowledged))
        } catch {
            session.close()
            throw SessionError(.connectionClosed, "The connection closed.")
        }
        let logger = logger
        // Registered before the sender can run: a sender that ends the
        // session at once (its user may no longer read) must find it.
        sessions.withLock { sessions in
            sessions[number] = (session, Task.preferringCurrentExecutor {
                do throws(SessionError) {
                    try await session.runSender(from: lastServerVersion, catchUp: catchUp)
                } catch {
                    await self.end(number, error)
                }
            })
        }
        logger.debug("bound session \(number): \(realm.path) for client \(ident) of user \(user.identity)")
    }

    private func session(_ number: UInt64) -> ServerSession? {
        sessions.withLock { $0[number]?.session }
    }

    /// Ends session `number` with `error`, telling the client.
    ///
    /// The session's sender task is cancelled only once the error is sent:
    /// the sender itself may be ending the session (the user may no longer
    /// read), and a cancelled task's send would not go out.
    private func end(_ number: UInt64, _ error: SessionError) async {
        let bound = sessions.withLock { $0.removeValue(forKey: number) }
        bound?.session.close()
        defer { bound?.sender.cancel() }
        guard error.code != .connectionClosed else { return }
        logger.info("session \(number) ended: \(error)")
        try? await writer.send(.error(session: number, code: error.code.rawValue, message: error.message, tryAgain: error.tryAgain))
    }

    private func close(_ number: UInt64) {
        guard let (session, sender) = sessions.withLock({ $0.removeValue(forKey: number) }) else { return }
        session.close()
        sender.cancel()
    }

    private func closeAllSessions() {
        let open = sessions.withLock { sessions in
            let open = Array(sessions.values)
            sessions.removeAll()
            return open
        }
        for (session, sender) in open {
            session.close()
            sender.cancel()
        }
    }

    /// Ends the connection with `error`.
    private func fail(_ error: SessionError) async {
        logger.info("sync connection refused: \(error)")
        try? await writer.send(.error(session: nil, code: error.code.rawValue, message: error.message, tryAgain: error.tryAgain))
        try? await outbound.close(.protocolError, reason: error.code == .limitsExceeded ? "limits exceeded" : "protocol error")
    }
}
