import AsyncHTTPClient
import Foundation
import NIOCore
import RealmSync
import RealmSyncServer
import RealmSyncWire
import Synchronization
import Testing

/// A real server on loopback (port 0) with its data in a temporary folder,
/// made for one test.
struct TestServer {
    let server: SyncServer
    let dataDirectory: URL

    var url: URL { server.url! }

    /// Starts a server; `configure` adjusts its configuration first.
    static func start(dataDirectory: URL? = nil,
                      _ configure: (inout SyncServer.Configuration) -> Void = { _ in }) async throws -> TestServer {
        let directory = dataDirectory ?? temporaryDirectory("server")
        var configuration = SyncServer.Configuration(dataDirectory: directory)
        configuration.port = 0
        configuration.passwordHashCost = 4
        configuration.logLevel = ProcessInfo.processInfo.environment["REALM_SYNC_TEST_LOG"] != nil ? .trace : .error
        configure(&configuration)
        if PostgresDatabases.isEnabled, configuration.databaseURL == nil,
           configuration.userStore == nil {
            configuration.databaseURL = try await PostgresDatabases.database(for: directory)
        }
        // A server started again on its port may find it taken for a
        // moment: another test's connection can be given it as its local
        // port once the first server let it go.
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let server = try await SyncServer(configuration: configuration)
            do {
                try await server.start()
                return TestServer(server: server, dataDirectory: directory)
            } catch SyncServer.Error.addressInUse where configuration.port != 0 && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    func stop() async {
        await server.stop()
    }
}

/// With `REALM_SYNC_TEST_STORE=postgres`, every test server keeps its users
/// and synced Realms in PostgreSQL: a database per data folder, so that a
/// server started again on its folder finds what it kept (the server's
/// suite run against both stores, issue 37).
enum PostgresDatabases {
    private static let byFolder = Mutex<[String: String]>([:])

    static var isEnabled: Bool { ProcessInfo.processInfo.environment["REALM_SYNC_TEST_STORE"] == "postgres" }

    static func database(for folder: URL) async throws -> String {
        if let known = byFolder.withLock({ $0[folder.path] }) { return known }
        let made = try await PostgresCluster.shared().makeDatabase()
        return byFolder.withLock { databases in
            if let known = databases[folder.path] { return known }
            databases[folder.path] = made
            return made
        }
    }

    /// Copies the database of the server folder `source` (if it has one)
    /// to be `destination`'s, as a backup of the folder, or its restore:
    /// the servers of both are stopped.
    static func copy(_ source: URL, to destination: URL) async throws {
        guard isEnabled, let from = byFolder.withLock({ $0[source.path] }) else { return }
        let to = try await database(for: destination)
        try await PostgresCluster.shared().copyDatabase(from: from, to: to)
    }
}

/// A new empty folder under the system's temporary folder.
func temporaryDirectory(_ purpose: String) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("realm-sync-tests-\(purpose)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The client side of the tests shares the process's `SyncManager`: its
/// folder is set once, and each test logs everyone out when done.
enum TestClient {
    static let root: URL = {
        let root = temporaryDirectory("client")
        SyncManager.shared.rootDirectory = root
        // Sessions opened from a dispatch thread (`offloaded`) have no task
        // to take a preference from: they run on the sync tests' threads
        // too, not behind the other suites' work on the global pool.
        SyncManager.shared.taskExecutor = SyncTestThreads.shared
        SyncManager.shared.logLevel = ProcessInfo.processInfo.environment["REALM_SYNC_TEST_LOG"] != nil ? .all : .off
        return root
    }()

    /// Runs `body` with the client set up, logging every user out after.
    static func run<T>(_ body: () async throws -> T) async throws -> T {
        _ = root
        defer { logOutEveryone() }
        return try await body()
    }

    static func logOutEveryone() {
        for user in SyncUser.all.values { user.logOut() }
    }
}

/// Expects `body` to throw a `SyncAuthError` with `code`, and returns it.
@discardableResult
func expectAuthError(_ code: SyncAuthError.Code, sourceLocation: SourceLocation = #_sourceLocation,
                     _ body: () async throws -> Void) async -> SyncAuthError? {
    do {
        try await body()
        Issue.record("expected SyncAuthError \(code), but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as SyncAuthError {
        #expect(error.code == code, "\(error.message)", sourceLocation: sourceLocation)
        #expect((error as NSError).domain == "io.realm.sync.auth", sourceLocation: sourceLocation)
        #expect((error as NSError).code == code.rawValue, sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected SyncAuthError \(code), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// A plain HTTP exchange with a server, for what the client API never
/// sends (malformed bodies, wrong methods, forged tokens).
struct HTTPExchange {
    let status: Int
    let headers: [(String, String)]
    let body: Data

    var problem: Problem? { try? JSONDecoder.wire().decode(Problem.self, from: body) }

    static func send(_ method: String, _ url: URL, body: Data? = nil, headers: [String: String] = [:]) async throws -> HTTPExchange {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .init(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let data = Data(try await response.body.collect(upTo: 1 << 20).readableBytesView)
        return HTTPExchange(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) }, body: data)
    }

    static func json(_ value: some Encodable) -> Data {
        try! JSONEncoder.wire().encode(value)
    }
}

/// The products directory's executable `name` (next to the test binary).
func productExecutable(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
    var binaries: [URL] = []
    if let url = Bundle.main.executableURL { binaries.append(url) }
    if let first = CommandLine.arguments.first { binaries.append(URL(fileURLWithPath: first)) }
    if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        binaries.append(URL(fileURLWithPath: exe))
    }
    for binary in binaries {
        var directory = binary.resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
    }
    return try #require(nil as URL?, "\(name) not found next to the test binary; build with `swift build --build-tests`.",
                        sourceLocation: sourceLocation)
}

/// Runs an executable to its end; returns its status and outputs.
///
/// The wait happens on a dispatch thread: a child talking to the server of
/// this process must not hold one of the few threads of Swift's
/// concurrency pool, which the server's handlers need.
///
/// A child still running after `timeout` seconds is killed (SIGKILL), and
/// its status is then 9.
func runProcess(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                timeout: Double? = nil) async throws -> (status: Int32, stdout: String, stderr: String) {
    try await offloaded { try runProcessBlocking(executable, arguments, environment: environment, timeout: timeout) }
}

/// Runs blocking work on a dispatch thread, off Swift's concurrency pool.
func offloaded<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}

private func runProcessBlocking(_ executable: URL, _ arguments: [String], environment: [String: String]?,
                                timeout: Double?) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    if let timeout {
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [process] in
            if process.isRunning { kill(pid, SIGKILL) }
        }
    }
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
}

/// Runs `body`, failing with `what` if it takes longer than `seconds`
/// (a sync that never completes fails the test rather than hang it; the
/// body is left running).
func withDeadline(_ what: @autoclosure () -> String, seconds: Double = 30, _ body: @escaping @Sendable () async throws -> Void) async throws {
    let outcome = Outcome()
    let result: Result<Bool, any Error> = await withCheckedContinuation { continuation in
        outcome.set(continuation)
        Task {
            do {
                try await body()
                outcome.finish(.success(true))
            } catch {
                outcome.finish(.failure(error))
            }
        }
        Task {
            try? await Task.sleep(for: .seconds(seconds))
            outcome.finish(.success(false))
        }
    }
    guard try result.get() else {
        let description = what()
        // Debugging aid: REALM_SYNC_DEADLINE_PAUSE=N holds a missed deadline
        // for N seconds, so a debugger can attach while the hang lasts.
        if let pause = ProcessInfo.processInfo.environment["REALM_SYNC_DEADLINE_PAUSE"].flatMap(Double.init) {
            FileHandle.standardError.write(Data("deadline missed in process \(getpid()): \(description)\n".utf8))
            try? await Task.sleep(for: .seconds(pause))
        }
        throw DeadlineExceeded(what: description, seconds: seconds)
    }
}

/// The first of two racing outcomes.
private final class Outcome: Sendable {
    private let state = Mutex<(CheckedContinuation<Result<Bool, any Error>, Never>?, Bool)>((nil, false))

    func set(_ continuation: CheckedContinuation<Result<Bool, any Error>, Never>) {
        state.withLock { $0.0 = continuation }
    }

    func finish(_ result: Result<Bool, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Result<Bool, any Error>, Never>? in
            guard !state.1 else { return nil }
            state.1 = true
            return state.0
        }
        continuation?.resume(returning: result)
    }
}

struct DeadlineExceeded: Error, CustomStringConvertible {
    let what: String
    let seconds: Double
    var description: String { "\(what) took over \(seconds) s" }
}

/// The seeds of a randomized test's runs: `REALM_SYNC_<NAME>_SEED` replays
/// one run; otherwise `REALM_SYNC_<NAME>_RUNS` (or `defaultRuns`)
/// consecutive seeds from a random start, each printed in a failure's
/// message so that it can be replayed.
func randomizedSeeds(_ name: String, defaultRuns: Int) -> [UInt64] {
    let environment = ProcessInfo.processInfo.environment
    if let replay = environment["REALM_SYNC_\(name)_SEED"].flatMap(UInt64.init) { return [replay] }
    let runs = environment["REALM_SYNC_\(name)_RUNS"].flatMap(Int.init) ?? defaultRuns
    let base = UInt64.random(in: 1...UInt64(1) << 40)
    return (0..<UInt64(runs)).map { base + $0 }
}

/// Asks `probe` every `interval` until it answers or `seconds` pass, and
/// returns the answer (nil when none came).
///
/// It always asks once more after the deadline: a test process stalled
/// past the deadline (a busy machine, a starved pool) must not read what
/// arrived meanwhile as a timeout.
func poll<T>(within seconds: Double, every interval: Duration = .milliseconds(20),
             _ probe: () async throws -> T?) async throws -> T? {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if let answer = try await probe() { return answer }
        try await Task.sleep(for: interval)
    }
    return try await probe()
}

/// What a child process wrote to `pipe` up to its first line's end (or
/// until it closed the pipe): a server's "Listening on <url>".
func firstLine(of pipe: Pipe) async throws -> String {
    let reader = pipe.fileHandleForReading
    return try await offloaded {
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        return String(decoding: line, as: UTF8.self)
    }
}
