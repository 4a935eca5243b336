import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `realm browse` running in a child process, with the URL it printed.
final class BrowseProcess: @unchecked Sendable {
    // @unchecked: set once in `start`, then only read.
    let process = Process()
    private(set) var url = ""

    /// The URL without its token: what an attacker knows.
    var origin: String {
        guard let parsed = URL(string: url), let host = parsed.host, let port = parsed.port else { return url }
        return "http://\(host):\(port)"
    }
    var token: String { String(url.split(separator: "token=").last ?? "") }

    static func start(_ arguments: [String]) async throws -> BrowseProcess {
        let browse = BrowseProcess()
        browse.process.executableURL = try realmExecutable()
        browse.process.arguments = ["browse"] + arguments
        let output = Pipe()
        browse.process.standardOutput = output
        browse.process.standardError = FileHandle.nullDevice
        try browse.process.run()
        // The first line says where it listens.
        let line: String = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                var bytes: [UInt8] = []
                let handle = output.fileHandleForReading
                while true {
                    let byte = handle.readData(ofLength: 1)
                    if byte.isEmpty || byte.first == 0x0A { break }
                    bytes.append(byte.first!)
                }
                continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            }
        }
        guard let range = line.range(of: "http://") else {
            browse.stop()
            throw BrowseError(message: "realm browse printed '\(line)'")
        }
        browse.url = String(line[range.lowerBound...]).trimmingCharacters(in: .whitespaces)
        return browse
    }

    func stop() {
        guard process.isRunning else { return }
        process.interrupt()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// A plain HTTP request, outside the browser: status and body.
    func request(_ path: String, method: String = "GET", body: String? = nil, headers: [String: String] = [:]) async throws -> (Int, String) {
        var request = URLRequest(url: URL(string: origin + path)!)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }
}

struct BrowseError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
