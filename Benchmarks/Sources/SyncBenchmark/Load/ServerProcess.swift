import Foundation
import RealmSyncServer

/// A sync server in a child process of the benchmark (`realm-sync-benchmark
/// serve …`), so that the load test measures it apart from its clients,
/// and runs several on one database as an operator would.
struct ServerProcess {
    let process: Process
    let port: Int

    /// Starts `realm-sync-benchmark serve` on a free port and waits until it
    /// listens.
    static func start(data: URL, database: String?, compactionInterval: UInt64? = nil) throws -> ServerProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var arguments = ["serve", "--data", data.path]
        if let database { arguments += ["--database", database] }
        if let compactionInterval { arguments += ["--compaction-interval", "\(compactionInterval)"] }
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let port = text.split(separator: " ").last.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else {
            process.terminate()
            throw LoadFailure(reason: "the server process printed '\(text)'")
        }
        return ServerProcess(process: process, port: port)
    }

    /// The process's resident memory, in bytes.
    var residentBytes: Int {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.count >= 2, let kilobytes = Int(fields[1]) { return kilobytes * 1024 }
        }
        return 0
    }

    /// Stops the server: SIGTERM, and SIGKILL after 10 s (a graceful stop
    /// waits for its connections, which a failed run may leave open).
    func stop() {
        process.terminate()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The child's side: runs a server until SIGTERM, after printing
    /// `listening <port>`.
    static func serve(arguments: [String]) async throws {
        func value(_ name: String) -> String? { arguments.firstIndex(of: name).map { arguments[$0 + 1] } }
        var configuration = SyncServer.Configuration(dataDirectory: URL(fileURLWithPath: value("--data")!))
        configuration.port = 0
        configuration.passwordHashCost = 4
        configuration.logLevel = .error
        configuration.databaseURL = value("--database")
        if let interval = value("--compaction-interval").flatMap(UInt64.init) { configuration.historyCompactionInterval = interval }
        let server = try await SyncServer(configuration: configuration)
        try await server.run { url in
            FileHandle.standardOutput.write(Data("listening \(url.port ?? 0)\n".utf8))
        }
    }
}
