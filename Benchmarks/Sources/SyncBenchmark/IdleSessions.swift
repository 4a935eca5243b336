import BenchmarkSupport
import Foundation
import Logging
import NIOCore
import RealmSyncWire
import Synchronization
import WSClient

/// Many mostly idle sessions held by one server: raw protocol clients
/// bind `count` sessions, `perConnection` to a WebSocket connection (one
/// connection carries many sessions, as in Realm's protocol), spread over
/// `realms` Realms, and hold them; the server's growth in resident memory,
/// divided by the sessions, is what a session costs it.
///
/// The clients run in this process too, but hold nothing per session
/// beyond a count: their share of the growth is their connections'.
enum IdleSessions {
    struct Outcome {
        var sessions: Int
        var connections: Int
        var bytesPerSession: Double
        var secondsToBind: Double
    }

    static func measure(port: Int, accessToken: String, count: Int, perConnection: Int, realms: Int) async throws -> Outcome {
        let connections = (count + perConnection - 1) / perConnection
        let bound = Tally()
        let baseline = ProcessMemory.statusBytes("VmRSS") ?? 0
        let start = ContinuousClock.now
        return try await withThrowingTaskGroup(of: Void.self) { group in
            for connection in 0..<connections {
                let sessions = connection * perConnection..<min(count, (connection + 1) * perConnection)
                group.addTask {
                    do {
                        try await hold(sessions, port: port, accessToken: accessToken, realms: realms, bound: bound)
                    } catch is CancellationError {
                    } catch {
                        bound.failures.withLock { $0.append("\(error)") }
                    }
                }
            }
            while bound.count.load(ordering: .relaxed) < count {
                if let failure = bound.failures.withLock({ $0.first }) { throw IdleSessionsFailed(reason: failure) }
                try await Task.sleep(for: .milliseconds(20))
            }
            let secondsToBind = (ContinuousClock.now - start) / .seconds(1)
            // Settled: what binding allocated and let go is freed.
            try await Task.sleep(for: .seconds(1))
            let grown = (ProcessMemory.statusBytes("VmRSS") ?? 0) - baseline
            group.cancelAll()
            return Outcome(sessions: count, connections: connections, bytesPerSession: Double(grown) / Double(count),
                           secondsToBind: secondsToBind)
        }
    }

    struct IdleSessionsFailed: Error { var reason: String }

    /// The sessions bound so far, counted by every connection, and the
    /// connections' failures.
    final class Tally: Sendable {
        let count = Atomic<Int>(0)
        let failures = Mutex<[String]>([])
    }

    /// One connection binding `sessions`, holding them until cancelled.
    private static func hold(_ sessions: Range<Int>, port: Int, accessToken: String, realms: Int, bound: Tally) async throws {
        try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/sync", logger: Logger(label: "idle")) { inbound, outbound, _ in
            for (number, session) in sessions.enumerated() {
                let bind = SyncMessage.bind(session: UInt64(number + 1), path: "/idle/realm-\(session % realms)", accessToken: accessToken,
                                            clientFileIdent: UInt64(session + 1) << 20 | UInt64.random(in: 1..<(1 << 20)), lastServerVersion: 0)
                try await outbound.write(.binary(ByteBuffer(bytes: SyncMessageCoding.encode(bind))))
            }
            for try await message in inbound.messages(maxSize: SyncMessageCoding.maximumMessageSize) {
                guard case .binary(let buffer) = message else { continue }
                switch try SyncMessageCoding.decode(Array(buffer: buffer)) {
                case .ident: bound.count.add(1, ordering: .relaxed)
                case .error(_, _, let message, _): throw IdleSessionsFailed(reason: message)
                default: break
                }
            }
        }
    }
}
