import Foundation
import Logging
import NIOCore
import RealmSync
import RealmSyncServer
import RealmSyncWire
import Synchronization
import Testing
import WSClient

/// A WebSocket client that sends raw bytes and records every message the
/// server answers with: what a hostile or broken client looks like.
struct RawSyncClient {
    /// Connects to `server`'s sync route, sends `frames` (a nil frame waits
    /// for the answer so far to arrive), and returns the server's messages
    /// in order once it closes the connection or `seconds` pass.
    static func exchange(_ server: TestServer, _ frames: [Frame], seconds: Double = 5) async throws -> [SyncMessage] {
        let received = Inbox()
        let url = "ws://127.0.0.1:\(server.server.port!)/sync"
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await WebSocketClient.connect(url: url, logger: Logger(label: "raw")) { inbound, outbound, _ in
                    let reader = Task {
                        for try await message in inbound.messages(maxSize: SyncMessageCoding.maximumMessageSize) {
                            if case .binary(let buffer) = message, let decoded = try? SyncMessageCoding.decode(Array(buffer: buffer)) {
                                received.append(decoded)
                            }
                        }
                    }
                    for frame in frames {
                        switch frame {
                        case .bytes(let bytes): try await outbound.write(.binary(ByteBuffer(bytes: bytes)))
                        case .message(let message): try await outbound.write(.binary(ByteBuffer(bytes: SyncMessageCoding.encode(message))))
                        case .text(let text): try await outbound.write(.text(text))
                        case .pause(let count):
                            while received.messages.count < count { try await Task.sleep(for: .milliseconds(10)) }
                        }
                    }
                    _ = try? await reader.value
                }
            }
            group.addTask { try await Task.sleep(for: .seconds(seconds)) }
            try await group.next()
            group.cancelAll()
        }
        return received.messages
    }

    final class Inbox: Sendable {
        private let storage = Mutex<[SyncMessage]>([])
        func append(_ message: SyncMessage) { storage.withLock { $0.append(message) } }
        var messages: [SyncMessage] { storage.withLock { $0 } }
    }

    enum Frame: Sendable {
        case bytes([UInt8])
        case message(SyncMessage)
        case text(String)
        /// Waits until the server has answered with this many messages.
        case pause(Int)
    }
}

extension SyncTests {
    /// Sync protocol messages no client of ours sends: the server answers
    /// each with the protocol's error, ends that session or connection
    /// only, and goes on serving everyone else.
    @Suite struct HostileSyncMessages {
        static func token(_ server: TestServer) async throws -> String {
            let user = try await SyncUser.logIn(with: .usernamePassword(username: "mallory-\(UUID().uuidString.prefix(8))", password: "password",
                                                                       register: true), server: server.url)
            return try await user.accessToken()
        }

        static func errorCode(_ messages: [SyncMessage]) -> Int? {
            for case .error(_, let code, _, _) in messages { return code }
            return nil
        }

        @Test func unreadableMessagesEndTheConnectionWithAnError() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let cases: [([RawSyncClient.Frame], SyncProtocolError)] = [
                    ([.bytes([0xde, 0xad, 0xbe, 0xef])], .badSyntax),
                    ([.bytes([UInt8(ascii: "R"), UInt8(ascii: "S"), 99, 1])], .wrongProtocolVersion),
                    ([.text("hello")], .badSyntax),
                    ([.message(.upload(session: 1, parts: []))], .badSessionIdent),
                    ([.message(.mark(session: 9, request: 1))], .badSessionIdent),
                    ([.message(.download(session: 1, serverVersion: 1, parts: [], acknowledgedClientVersion: 0,
                                         progress: TransferProgress(downloaded: 0, downloadable: 0, uploaded: 0, uploadable: 0)))],
                     .badMessageOrder),
                ]
                for (frames, expected) in cases {
                    let answers = try await RawSyncClient.exchange(server, frames)
                    #expect(Self.errorCode(answers) == expected.rawValue, "\(frames) → \(answers)")
                }
            }
        }

        @Test func aRefusedSessionLeavesTheOthersBound() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let token = try await Self.token(server)
                let answers = try await RawSyncClient.exchange(server, [
                    .message(.bind(session: 1, path: "/shared/ok", accessToken: token, clientFileIdent: 77, lastServerVersion: 0)),
                    .pause(1),
                    .message(.bind(session: 2, path: "/shared/ok", accessToken: "forged", clientFileIdent: 78, lastServerVersion: 0)),
                    .message(.bind(session: 3, path: "/../../etc/passwd", accessToken: token, clientFileIdent: 79, lastServerVersion: 0)),
                    .message(.bind(session: 4, path: "/shared/ok", accessToken: token, clientFileIdent: 0, lastServerVersion: 0)),
                    .message(.bind(session: 5, path: "/shared/ok", accessToken: token, clientFileIdent: 80, lastServerVersion: 99)),
                    .message(.bind(session: 6, path: "/shared/other", accessToken: token, clientFileIdent: 81, lastServerVersion: 0)),
                    .pause(6),
                    .message(.upload(session: 6, parts: [ChangesetPart(serverVersion: 0, totalSize: 4, offset: 0, bytes: [1, 2, 3, 4])])),
                    .pause(7),
                    .message(.mark(session: 1, request: 42)),
                ], seconds: 2)
                let errors = answers.compactMap { message -> (UInt64, Int)? in
                    if case .error(let session?, let code, _, _) = message { return (session, code) }
                    return nil
                }
                #expect(errors.contains { $0 == (2, SyncProtocolError.badAuthentication.rawValue) })
                #expect(errors.contains { $0 == (3, SyncProtocolError.illegalRealmPath.rawValue) })
                #expect(errors.contains { $0 == (4, SyncProtocolError.badClientFileIdent.rawValue) })
                #expect(errors.contains { $0 == (5, SyncProtocolError.badServerVersion.rawValue) })
                #expect(errors.contains { $0 == (6, SyncProtocolError.badChangeset.rawValue) })
                #expect(answers.contains(.mark(session: 1, request: 42)), "session 1 goes on: \(answers)")
                #expect(!FileManager.default.fileExists(atPath: server.dataDirectory.appendingPathComponent("etc").path))
            }
        }

        /// The uploader learns of the new version and of its
        /// acknowledgement in one download, not one for each: a second
        /// message cost its client a second commit per change.
        @Test func anUploaderHearsOfItsChangeOnce() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let token = try await Self.token(server)
                let uploads = 30
                var frames: [RawSyncClient.Frame] = [
                    .message(.bind(session: 1, path: "/shared/once", accessToken: token, clientFileIdent: 77, lastServerVersion: 0)),
                    // Its identity, and the (empty) download of version 0.
                    .pause(2),
                ]
                for version in 1...UInt64(uploads) {
                    let changeset = Changeset(clientFileIdent: 77, clientVersion: version, lastServerVersion: version - 1,
                                              timestamp: 1_000 + Int64(version), firstSequence: 0, instructions: [])
                    frames.append(.message(.upload(session: 1, parts: ChangesetPart.messages(of: [(0, ChangesetCoding.encode(changeset))])[0])))
                    // Its answer (a second one, had it come, arrives before
                    // the mark's).
                    frames.append(.pause(1 + 2 * Int(version)))
                    frames.append(.message(.mark(session: 1, request: version)))
                    frames.append(.pause(2 + 2 * Int(version)))
                }
                let answers = try await RawSyncClient.exchange(server, frames, seconds: 4)
                let downloads = answers.compactMap { message -> [UInt64]? in
                    if case .download(_, let serverVersion, _, _, let acknowledged, _, _) = message { return [serverVersion, acknowledged] }
                    return nil
                }
                #expect(downloads == (0...UInt64(uploads)).map { [$0, $0] }, "one download per upload, of its version and acknowledging it: \(downloads)")
                #expect(answers.contains(.mark(session: 1, request: UInt64(uploads))))
            }
        }

        @Test func anotherUsersClientIdentityIsRefused() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let first = try await Self.token(server)
                let second = try await Self.token(server)
                _ = try await RawSyncClient.exchange(server, [
                    .message(.bind(session: 1, path: "/shared/idents", accessToken: first, clientFileIdent: 500, lastServerVersion: 0)),
                    .pause(1),
                ], seconds: 1)
                let answers = try await RawSyncClient.exchange(server, [
                    .message(.bind(session: 1, path: "/shared/idents", accessToken: second, clientFileIdent: 500, lastServerVersion: 0)),
                    .pause(1),
                ], seconds: 2)
                #expect(Self.errorCode(answers) == SyncProtocolError.badClientFileIdent.rawValue)
            }
        }
    }
}
