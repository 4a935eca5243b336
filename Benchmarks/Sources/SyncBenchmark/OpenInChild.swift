import BenchmarkSupport
import Foundation
import RealmObjects
import RealmSync

/// Async open measured in a process of its own: the kernel's high-water
/// mark of resident memory is per process, and the server (in the parent)
/// must not count. The child is this executable run as
/// `realm-sync-benchmark open-child SERVER REALM SCRATCH`: it logs a new
/// user in, resets the high-water mark (the baseline: code, libraries,
/// the user), opens the Realm with `Realm.asyncOpen`, and prints one JSON
/// line.
enum OpenInChild {
    struct Report: Codable {
        var seconds: Double
        var objects: Int
        /// The high-water mark of resident memory above the baseline.
        var peakBytes: Int
        var baselineBytes: Int
    }

    /// Runs a child opening `realm` and returns what it measured.
    static func measure(server: URL, realm: URL, scratch: URL) throws -> Report {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        if !FileManager.default.isExecutableFile(atPath: process.executableURL!.path) {
            process.executableURL = Bundle.main.executableURL
        }
        process.arguments = ["open-child", server.absoluteString, realm.absoluteString, scratch.path]
        // A profiler around the child (`REALM_SYNC_BENCH_CHILD_WRAPPER="valgrind --tool=massif"`).
        if let wrapper = ProcessInfo.processInfo.environment["REALM_SYNC_BENCH_CHILD_WRAPPER"] {
            let words = wrapper.split(separator: " ").map(String.init)
            process.arguments = Array(words.dropFirst()) + [process.executableURL!.path] + process.arguments!
            process.executableURL = URL(fileURLWithPath: words[0])
        }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // The last line that is a report (a profiler may print after it).
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").reversed()
        guard process.terminationStatus == 0,
              let report = lines.lazy.compactMap({ try? JSONDecoder().decode(Report.self, from: Data($0.utf8)) }).first else {
            throw ChildFailed(status: process.terminationStatus)
        }
        return report
    }

    struct ChildFailed: Error { var status: Int32 }

    /// The child's side.
    static func run(arguments: [String]) async throws {
        guard arguments.count == 3, let server = URL(string: arguments[0]), let realmURL = URL(string: arguments[1]) else {
            FileHandle.standardError.write(Data("usage: realm-sync-benchmark open-child SERVER REALM SCRATCH\n".utf8))
            exit(2)
        }
        SyncManager.shared.rootDirectory = URL(fileURLWithPath: arguments[2])
        SyncManager.shared.logLevel = .off
        let user = try await SyncUser.logIn(with: .usernamePassword(username: "newcomer-\(UUID().uuidString)", password: "password", register: true),
                                            server: server)
        let configuration = Realm.Configuration(syncConfiguration: SyncConfiguration(user: user, realmURL: realmURL),
                                                objectTypes: [BenchItem.self])
        let queue = DispatchQueue(label: "open")
        let resetWorked = ProcessMemory.resetHighWaterMark()
        let baseline = (resetWorked ? ProcessMemory.statusBytes("VmRSS") : ProcessMemory.statusBytes("VmHWM")) ?? 0
        let start = DispatchTime.now().uptimeNanoseconds
        let objects: Int = try await withCheckedThrowingContinuation { continuation in
            Realm.asyncOpen(configuration: configuration, callbackQueue: queue) { result in
                continuation.resume(with: result.map { $0.objects(BenchItem.self).count })
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let peak = ProcessMemory.statusBytes("VmHWM") ?? 0
        let report = Report(seconds: seconds, objects: objects, peakBytes: max(0, peak - baseline), baselineBytes: baseline)
        FileHandle.standardOutput.write(try JSONEncoder().encode(report) + Data("\n".utf8))
    }
}
