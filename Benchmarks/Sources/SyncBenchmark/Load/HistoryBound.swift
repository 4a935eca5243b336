import Foundation
import Logging
import NIOCore
import RealmSync
import RealmSyncWire
import Synchronization
import WSClient

/// The bounded-history measure (issue 37): one client owning `objects`
/// objects (100 by default) makes `updates` updates in all, 100 to a
/// changeset (the next objects in turn), against a server
/// process with the default compaction settings; then the server's history
/// is weighed against its data.
///
/// - history: the changesets the server keeps (its copy's `server_history`;
///   on PostgreSQL, `realm_history` and the snapshot too);
/// - data: the state a new client downloads at the end (the objects with
///   their stamps, as the protocol carries them; the same all along, as
///   only values change).
enum HistoryBound {
    static let updatesPerWrite = 100

    static func run(updates: Int, objects: Int, database: String?, scratch: URL) async throws {
        let data = scratch.appendingPathComponent("server")
        let server = try ServerProcess.start(data: data, database: database)
        defer { server.stop() }
        let user = try await SyncUser.logIn(with: .usernamePassword(username: "history", password: "password", register: true),
                                            server: URL(string: "http://127.0.0.1:\(server.port)")!)
        let token = try await user.accessToken()
        let client = LoadClient(number: 1, path: "/load/history", port: server.port, accessToken: token, objects: objects,
                                updatesPerWrite: updatesPerWrite)
        let running = Task { await client.run() }
        defer { running.cancel() }
        try await LoadTest.waitUntil("the client bound", seconds: 30, [client]) { $0.bound }
        let writes = updates / updatesPerWrite
        let start = ContinuousClock.now
        var samples: [(writes: Int, history: Int)] = []
        for write in 1...writes {
            client.write()
            // A window of writes in flight, and a sample every tenth.
            if write % 50 == 0 {
                try await LoadTest.waitUntil("acknowledgements", seconds: 60, [client]) { $0.acknowledged + 25 >= UInt64(write) }
            }
            if write % (writes / 10) == 0 {
                try await LoadTest.waitUntil("acknowledgements", seconds: 60, [client]) { $0.acknowledged >= UInt64(write) }
                samples.append((write, try historyBytes(data)))
            }
        }
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        // Weighed once, at the end: a client that downloads the state is a
        // client seen within the retention, and the history it has not
        // said it integrated is kept for it.
        let state = try await stateBytes(port: server.port, accessToken: token)
        report("# Bounded history: \(objects) objects updated \(updates) times (\(writes) changesets of \(updatesPerWrite) updates), "
               + "one server process on \(database == nil ? "the embedded store" : "PostgreSQL"), in \(String(format: "%.0f", seconds)) s\n")
        report("| updates so far | history | data | history ÷ data |")
        report("|---:|---:|---:|---:|")
        for sample in samples {
            report("| \(sample.writes * updatesPerWrite) | \(kilobytes(sample.history)) | \(kilobytes(state)) | "
                   + String(format: "%.2f", Double(sample.history) / Double(max(1, state))) + " |")
        }
        if let database {
            let (history, snapshot) = postgresBytes(database)
            report("\nIn PostgreSQL at the end: history \(kilobytes(history)), snapshot \(kilobytes(snapshot)).")
        }
    }

    private static func kilobytes(_ bytes: Int) -> String { String(format: "%.1f KB", Double(bytes) / 1024) }

    /// The copy's history bytes, read with Python's sqlite3 module (the
    /// server's tables are not RealmObjects').
    private static func historyBytes(_ data: URL) throws -> Int {
        let file = data.appendingPathComponent("realms/load/history.realm").path
        let script = """
            import sqlite3, sys
            c = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
            print(c.execute("SELECT COALESCE(SUM(LENGTH(changeset)), 0) FROM server_history").fetchone()[0])
            """
        return Int(try command("/usr/bin/env", ["python3", "-c", script, file])) ?? 0
    }

    /// The bytes of the state a new client downloads: the data, as the
    /// protocol carries it.
    private static func stateBytes(port: Int, accessToken: String) async throws -> Int {
        let bytes = Mutex(0)
        try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/sync", configuration: .init(maxFrameSize: 1 << 16),
                                          logger: Logger(label: "weigh")) { inbound, outbound, _ in
            let bind = SyncMessage.bind(session: 1, path: "/load/history", accessToken: accessToken,
                                        clientFileIdent: UInt64.random(in: 1 << 40..<1 << 50), lastServerVersion: 0)
            try await outbound.write(.binary(ByteBuffer(bytes: SyncMessageCoding.encode(bind))))
            for try await message in inbound.messages(maxSize: SyncMessageCoding.maximumMessageSize) {
                guard case .binary(let buffer) = message else { continue }
                switch try SyncMessageCoding.decode(Array(buffer: buffer)) {
                case .download(_, let serverVersion, _, let parts, _, _, _):
                    bytes.withLock { $0 += parts.reduce(0) { $0 + $1.bytes.count } }
                    // The state's last message names its version.
                    if serverVersion > 0 { return }
                case .error(_, _, let message, _):
                    throw LoadFailure(reason: message)
                default:
                    break
                }
            }
        }
        return bytes.withLock { $0 }
    }

    private static func command(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func postgresBytes(_ database: String) -> (history: Int, snapshot: Int) {
        func number(_ sql: String) -> Int {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["psql", database, "-Atc", sql]
            let output = Pipe()
            process.standardOutput = output
            guard (try? process.run()) != nil else { return 0 }
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        return (number("SELECT COALESCE(SUM(octet_length(changeset)), 0) FROM realm_history WHERE path = '/load/history'"),
                number("SELECT COALESCE(SUM(octet_length(changesets)), 0) FROM realm_snapshots WHERE path = '/load/history'"))
    }
}
