// Browser tests: a headless Chromium driven over the DevTools protocol.
//
// Self-contained on purpose: it needs only Foundation, swift-nio (NIOCore,
// NIOPosix) and swift-websocket (WSClient, which brings swift-log's Logging
// along), so a browser test costs no Node.js, no WebDriver and no
// chromedriver matching the browser's version. Linux only: it starts the
// browser with posix_spawn and uses Synchronization.Mutex.

import Foundation
import Logging
import NIOCore
import NIOPosix
import Synchronization
import WSClient

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What went wrong while driving the browser, worded so that a failed test's
/// log says what to fix without a debugger.
enum HeadlessChromiumError: Error, CustomStringConvertible {
    /// No browser on this machine; a test can catch this and record an issue
    /// (or skip) instead of failing on a missing dependency.
    case executableNotFound(searched: [String])
    /// The process or its DevTools endpoint did not come up.
    case launchFailed(String)
    /// A deadline passed; every wait has one, so a wedged browser fails a
    /// test instead of hanging the whole run.
    case timedOut(String)
    /// The page's script threw (or rejected); `message` is the exception's
    /// text as the browser describes it, stack included.
    case javaScriptException(expression: String, message: String)
    /// The navigation failed in the network layer (e.g. connection refused).
    case navigationFailed(url: String, reason: String)
    /// The browser answered a command with a protocol error.
    case protocolError(method: String, message: String)
    /// The DevTools socket is gone (browser crashed, or `close()` was called).
    case connectionClosed(String)

    var description: String {
        switch self {
        case .executableNotFound(let searched):
            return "No Chromium executable found (looked at: \(searched.joined(separator: ", "))). "
                + "Install chromium or set CHROMIUM to the browser's path."
        case .launchFailed(let reason):
            return "Chromium failed to launch: \(reason)"
        case .timedOut(let what):
            return "Timed out \(what)"
        case .javaScriptException(let expression, let message):
            return "JavaScript threw: \(message)\n  in: \(expression)"
        case .navigationFailed(let url, let reason):
            return "Navigation to \(url) failed: \(reason)"
        case .protocolError(let method, let message):
            return "DevTools command \(method) failed: \(message)"
        case .connectionClosed(let reason):
            return "The DevTools connection is closed: \(reason)"
        }
    }
}

/// A headless Chromium process with one page, driven over DevTools.
///
/// Each instance owns a browser process and a fresh profile directory, so
/// tests never share cookies, storage or caches. It is `Sendable` and every
/// method is `async`, so it can be used from any task or actor. Call
/// ``close()`` on every path, failures included: only `close()` waits for the
/// browser to exit and removes its profile (`deinit` only kills it).
///
/// ```swift
/// let browser = try await HeadlessChromium.launch()
/// do {
///     try await browser.navigate(to: "http://127.0.0.1:\(port)/")
///     #expect(try await browser.evaluate("document.title") as? String == "Realm")
/// } catch {
///     await browser.close()
///     throw error
/// }
/// await browser.close()
/// ```
final class HeadlessChromium: Sendable {
    /// The places looked at, in order, so a test can check availability up
    /// front (for example `@Test(.enabled(if: HeadlessChromium.executablePath != nil))`).
    /// `$CHROMIUM` comes first so a machine can point at another build.
    static var executablePath: String? {
        candidateExecutables.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The page's viewport in CSS pixels, which is also the size of a
    /// screenshot (the device scale factor is 1).
    static let viewportSize = (width: 1280, height: 900)

    /// The command line, less the profile directory; kept in one place so
    /// that a failure report can say exactly how the browser was started.
    static let defaultArguments = [
        "--headless=new",
        "--remote-debugging-port=0",  // the browser picks a free port and writes it to DevToolsActivePort
        "--no-sandbox",  // containers and CI usually lack the namespaces the sandbox needs
        "--disable-gpu",
        "--no-first-run",
        "--window-size=\(viewportSize.width),\(viewportSize.height)",
        // WSClient sends `Origin: ws://127.0.0.1`, which Chromium rejects
        // (HTTP 403) unless origins are allowed explicitly.
        "--remote-allow-origins=*",
    ]

    /// How long any one DevTools command may take before it fails the test.
    let commandTimeout: Duration

    private let process: BrowserProcess
    private let userDataDirectory: URL
    private let connection: DevToolsConnection
    private let isClosed = Mutex(false)

    private init(
        process: BrowserProcess,
        userDataDirectory: URL,
        connection: DevToolsConnection,
        commandTimeout: Duration
    ) {
        self.process = process
        self.userDataDirectory = userDataDirectory
        self.connection = connection
        self.commandTimeout = commandTimeout
    }

    /// A safety net for a test that forgot ``close()``: the browser must not
    /// outlive the test run, so its whole process group is killed at once.
    /// Removing the profile has to wait for the exit and so happens in a
    /// background task, which a test process that exits first never runs;
    /// `close()` is the clean way.
    deinit {
        let alreadyClosed = isClosed.withLock { $0 }
        if !alreadyClosed {
            connection.shutdown("the HeadlessChromium was deallocated without close()")
            process.signalGroup(SIGKILL)
            let process = process
            let directory = userDataDirectory
            Task.detached {
                _ = await process.waitForExit(timeout: .seconds(5))
                try? FileManager.default.removeItem(at: directory)
            }
        }
    }

    /// Starts Chromium on about:blank and connects to its page.
    ///
    /// Starts `chromium` with ``defaultArguments`` plus a fresh
    /// `--user-data-dir`, waits for `DevToolsActivePort` to learn the port,
    /// picks the page target from `/json/list` and connects a WebSocket to it.
    /// If any step fails, the browser is killed and its profile removed
    /// before the error is thrown, so a failed launch leaks nothing.
    ///
    /// - Parameters:
    ///   - extraArguments: more command-line switches, appended after the defaults.
    ///   - launchTimeout: seconds for the browser to come up and accept the connection.
    ///   - commandTimeout: seconds any single DevTools command may take.
    /// - Throws: ``HeadlessChromiumError/executableNotFound(searched:)`` when there is no
    ///   browser (tests can turn that into a recorded issue), otherwise launch errors.
    static func launch(
        extraArguments: [String] = [],
        launchTimeout: Double = 20,
        commandTimeout: Double = 30
    ) async throws -> HeadlessChromium {
        guard let executable = executablePath else {
            throw HeadlessChromiumError.executableNotFound(searched: candidateExecutables)
        }
        let deadline = ContinuousClock.now + .seconds(launchTimeout)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("headless-chromium-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)

        let process: BrowserProcess
        do {
            process = try BrowserProcess.spawn(
                executable,
                arguments: defaultArguments + ["--user-data-dir=\(directory.path)"] + extraArguments + ["about:blank"]
            )
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }

        var connection: DevToolsConnection?
        do {
            let port = try await waitForDevToolsPort(in: directory, process: process, deadline: deadline)
            let pageURL = try await findPageWebSocketURL(port: port, process: process, deadline: deadline)
            let opened = DevToolsConnection()
            connection = opened
            opened.start(url: pageURL)
            try await opened.waitUntilOpen(timeout: max(deadline - .now, .seconds(1)))
            let browser = HeadlessChromium(
                process: process,
                userDataDirectory: directory,
                connection: opened,
                commandTimeout: .seconds(commandTimeout)
            )
            // Without these the page's load events and console/exception
            // bookkeeping are not reported to us.
            _ = try await opened.send("Page.enable", timeout: browser.commandTimeout)
            _ = try await opened.send("Runtime.enable", timeout: browser.commandTimeout)
            _ = try await opened.send("Inspector.enable", timeout: browser.commandTimeout)
            // --window-size sizes the window, and headless Chromium still
            // subtracts room for its (invisible) toolbar: without this the
            // page would see 1280×757. Tests and screenshots want the full size.
            _ = try await opened.send(
                "Emulation.setDeviceMetricsOverride",
                [
                    "width": .int(viewportSize.width), "height": .int(viewportSize.height),
                    "deviceScaleFactor": .int(1), "mobile": .bool(false),
                ],
                timeout: browser.commandTimeout
            )
            return browser
        } catch {
            connection?.shutdown("the launch failed")
            await terminate(process)
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Loads `url` in the page and returns once its `load` event has fired,
    /// so scripts, styles and images referenced by the page are in place.
    ///
    /// A same-document navigation (only the fragment changes) fires no load
    /// event and returns as soon as the browser accepts it.
    /// - Throws: ``HeadlessChromiumError/navigationFailed(url:reason:)`` for network errors
    ///   (nothing listening, DNS), ``HeadlessChromiumError/timedOut(_:)`` when the page does
    ///   not finish loading within `timeout` seconds.
    func navigate(to url: String, timeout: Double = 120) async throws {
        let deadline = ContinuousClock.now + .seconds(timeout)
        // Registered before the command is sent: the event can arrive before
        // the command's response.
        let loaded = try connection.expectEvent("Page.loadEventFired")
        let result: DevToolsJSON
        do {
            result = try await connection.send("Page.navigate", ["url": .string(url)], timeout: commandTimeout)
        } catch {
            connection.forget(loaded)
            throw error
        }
        if let reason = result["errorText"]?.stringValue, !reason.isEmpty {
            connection.forget(loaded)
            throw HeadlessChromiumError.navigationFailed(url: url, reason: reason)
        }
        guard result["loaderId"] != nil else {
            connection.forget(loaded)
            return
        }
        do {
            _ = try await connection.wait(for: loaded, timeout: deadline - .now, what: "waiting for \(url) to load")
        } catch HeadlessChromiumError.timedOut(let what) {
            // The load event can be missed (e.g. a page that replaced itself
            // with document.write); the document's own state is the truth.
            let state = try? await evaluate("document.readyState")
            guard state as? String == "complete" else { throw HeadlessChromiumError.timedOut(what) }
        }
        // A late load event of the previous document could have woken us;
        // make sure it is the new one that is complete.
        let remaining = (deadline - .now).components
        try await waitUntil(
            "document.readyState === 'complete'",
            timeout: max(Double(remaining.seconds) + Double(remaining.attoseconds) / 1e18, 1)
        )
    }

    /// Runs `javaScript` in the page as an expression and returns its value.
    ///
    /// Promises are awaited, so `await fetch(...)` style code can be tested
    /// directly: wrap statements in `(async () => { ... })()`. The value comes
    /// back as JSON: `String`, `Int` (whole numbers), `Double`, `Bool`,
    /// `[Any]`, `[String: Any]`, and `nil` for `undefined` or `null` (a `null`
    /// inside an array or object is `NSNull()`). DOM nodes and other
    /// non-JSON values arrive as `[:]`; return the property you need instead.
    /// `NaN`, `Infinity` and `-0` are returned as `Double`, BigInts as their
    /// decimal `String` with an `n` suffix.
    /// - Throws: ``HeadlessChromiumError/javaScriptException(expression:message:)`` with the
    ///   exception's text when the script throws or the promise rejects.
    @discardableResult
    func evaluate(_ javaScript: String) async throws -> sending Any? {
        try await evaluateJSON(javaScript).anyValue
    }

    /// Polls `javaScriptCondition` until it is truthy, for UI that updates
    /// asynchronously (timers, fetches, animation frames).
    ///
    /// Errors thrown by the condition while polling (for example while a
    /// navigation replaces the document) count as "not yet"; the last one is
    /// reported if the deadline passes.
    /// - Throws: ``HeadlessChromiumError/timedOut(_:)`` naming the condition after `timeout` seconds.
    func waitUntil(_ javaScriptCondition: String, timeout: Double = 60) async throws {
        let deadline = ContinuousClock.now + .seconds(timeout)
        var lastValue = "nothing"
        while true {
            let remaining = deadline - .now
            do {
                let value = try await evaluateJSON(
                    javaScriptCondition,
                    timeout: min(commandTimeout, max(remaining, .milliseconds(500)))
                )
                if value.isTruthy { return }
                lastValue = value.debugText
            } catch let error as HeadlessChromiumError {
                if case .connectionClosed = error { throw error }
                lastValue = "error: \(error)"
            }
            if ContinuousClock.now >= deadline {
                throw HeadlessChromiumError.timedOut(
                    "after \(timeout) s waiting until `\(javaScriptCondition)` (last result: \(lastValue))"
                )
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Saves what the page shows now (the ``viewportSize`` viewport) as a PNG, so a
    /// failing test can leave evidence behind. Parent folders are created.
    func screenshot(to url: URL) async throws {
        let result = try await connection.send(
            "Page.captureScreenshot",
            ["format": .string("png")],
            timeout: commandTimeout
        )
        guard let base64 = result["data"]?.stringValue, let png = Data(base64Encoded: base64) else {
            throw HeadlessChromiumError.protocolError(
                method: "Page.captureScreenshot",
                message: "the reply carried no base64 image data"
            )
        }
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try png.write(to: url, options: .atomic)
    }

    /// Sends any DevTools command (see the protocol reference at
    /// https://chromedevtools.github.io/devtools-protocol/) for what the
    /// methods above do not cover, e.g. `Input.dispatchKeyEvent` or
    /// `Emulation.setDeviceMetricsOverride`. `params` must be JSON
    /// (strings, numbers, booleans, arrays, dictionaries, `NSNull`).
    /// - Returns: the command's `result` object.
    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:]) async throws -> sending [String: Any] {
        var converted: [String: DevToolsJSON] = [:]
        for (key, value) in params {
            guard let json = DevToolsJSON(any: value) else {
                throw HeadlessChromiumError.protocolError(
                    method: method,
                    message: "parameter \(key) is not a JSON value: \(value)"
                )
            }
            converted[key] = json
        }
        let result = try await connection.send(method, converted, timeout: commandTimeout)
        return result.anyValue as? [String: Any] ?? [:]
    }

    /// Closes the connection, stops the browser and removes its profile.
    ///
    /// Waits (a few seconds at most) for the process to exit, killing it if
    /// it does not; safe to call more than once and after a crash.
    func close() async {
        let wasClosed = isClosed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        connection.shutdown("close() was called")
        await connection.waitUntilFinished(timeout: .seconds(2))
        await Self.terminate(process)
        connection.cancel()
        // Chromium may still be flushing its profile as it exits; one retry
        // covers files written between the exit check and the removal.
        if (try? FileManager.default.removeItem(at: userDataDirectory)) == nil {
            try? await Task.sleep(for: .milliseconds(200))
            try? FileManager.default.removeItem(at: userDataDirectory)
        }
    }

    // MARK: - Internals

    private static var candidateExecutables: [String] {
        var paths: [String] = []
        if let configured = ProcessInfo.processInfo.environment["CHROMIUM"], !configured.isEmpty {
            paths.append(configured)
        }
        paths += ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        return paths
    }

    private func evaluateJSON(_ javaScript: String, timeout: Duration? = nil) async throws -> DevToolsJSON {
        let result = try await connection.send(
            "Runtime.evaluate",
            [
                "expression": .string(javaScript),
                "returnByValue": .bool(true),
                "awaitPromise": .bool(true),
                // Lets scripts do what needs a user action (e.g. focus, clipboard).
                "userGesture": .bool(true),
            ],
            timeout: timeout ?? commandTimeout
        )
        if let details = result["exceptionDetails"] {
            let message =
                details["exception"]?["description"]?.stringValue
                ?? details["exception"]?["value"]?.debugText
                ?? details["text"]?.stringValue
                ?? "unknown exception"
            throw HeadlessChromiumError.javaScriptException(expression: javaScript, message: message)
        }
        guard let remote = result["result"] else { return .null }
        if let value = remote["value"] { return value }
        if let unserializable = remote["unserializableValue"]?.stringValue {
            // NaN, Infinity, -Infinity, -0, or a BigInt such as "12n".
            if let number = Double(unserializable) { return .double(number) }
            return .string(unserializable)
        }
        return .null
    }

    /// The port is only known once Chromium writes DevToolsActivePort (first
    /// line: port; second line: the browser target's path).
    private static func waitForDevToolsPort(
        in directory: URL,
        process: BrowserProcess,
        deadline: ContinuousClock.Instant
    ) async throws -> Int {
        let file = directory.appendingPathComponent("DevToolsActivePort")
        while true {
            // Read only once the first line is complete: the file is not
            // written atomically, and a truncated port would be a wrong one.
            if let contents = try? String(contentsOf: file, encoding: .utf8), contents.contains("\n"),
                let firstLine = contents.split(whereSeparator: \.isNewline).first,
                let port = Int(firstLine.trimmingCharacters(in: .whitespaces)), port > 0
            {
                return port
            }
            if !process.isRunning {
                throw HeadlessChromiumError.launchFailed(
                    "the process \(process.exitDescription) before opening its DevTools port"
                )
            }
            if ContinuousClock.now >= deadline {
                throw HeadlessChromiumError.timedOut("waiting for \(file.path) to appear")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The browser lists its UI's internal pages too (type `browser_ui`); the
    /// one to drive is the `page` opened on about:blank.
    private static func findPageWebSocketURL(
        port: Int,
        process: BrowserProcess,
        deadline: ContinuousClock.Instant
    ) async throws -> String {
        var lastProblem = "no page target listed"
        while true {
            do {
                let body = try await httpGet(port: port, path: "/json/list", timeout: max(deadline - .now, .seconds(1)))
                let targets = try JSONDecoder().decode(DevToolsJSON.self, from: body)
                if case .array(let list) = targets,
                    let page = list.first(where: { $0["type"]?.stringValue == "page" }),
                    let url = page["webSocketDebuggerUrl"]?.stringValue
                {
                    return url
                }
                lastProblem = "no page target in \(String(decoding: body, as: UTF8.self))"
            } catch {
                lastProblem = "\(error)"
            }
            if !process.isRunning {
                throw HeadlessChromiumError.launchFailed(
                    "the process \(process.exitDescription) (\(lastProblem))"
                )
            }
            if ContinuousClock.now >= deadline {
                throw HeadlessChromiumError.timedOut(
                    "waiting for a page in http://127.0.0.1:\(port)/json/list (\(lastProblem))"
                )
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// A minimal HTTP/1.1 GET on loopback. Plain NIO rather than URLSession:
    /// no libcurl, and no proxy settings from the environment can divert it.
    private static func httpGet(port: Int, path: String, timeout: Duration) async throws -> Data {
        try await withDeadline(timeout, "GET http://127.0.0.1:\(port)\(path)") {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(5))
                .connect(host: "127.0.0.1", port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
            return try await channel.executeThenClose { inbound, outbound in
                try await outbound.write(
                    ByteBuffer(string: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
                )
                var received = Data()
                var response: (status: String, body: Data)?
                for try await chunk in inbound {
                    received.append(contentsOf: chunk.readableBytesView)
                    response = completeResponse(received)
                    if response != nil { break }
                }
                guard let (status, body) = response ?? completeResponse(received, atEOF: true) else {
                    throw HeadlessChromiumError.launchFailed("incomplete HTTP reply to GET \(path)")
                }
                guard status.split(separator: " ").dropFirst().first == "200" else {
                    throw HeadlessChromiumError.launchFailed("GET \(path) answered \(status)")
                }
                return body
            }
        }
    }

    /// Status line and body once the whole response is in: by
    /// Content-Length, or at EOF when there is none.
    private static func completeResponse(_ response: Data, atEOF: Bool = false) -> (status: String, body: Data)? {
        guard let separator = response.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        let head = String(decoding: response[..<separator.lowerBound], as: UTF8.self)
        let body = response[separator.upperBound...]
        let lines = head.components(separatedBy: "\r\n")
        let status = lines.first ?? ""
        let length = lines.dropFirst().lazy.compactMap { line -> Int? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
            return Int(parts[1].trimmingCharacters(in: .whitespaces))
        }.first
        if let length {
            return body.count >= length ? (status, Data(body.prefix(length))) : nil
        }
        return atEOF ? (status, Data(body)) : nil
    }

    /// Runs `body`, failing with a timeout if it takes longer (the body must
    /// honour cancellation, as NIO's async channels do).
    private static func withDeadline<T: Sendable>(
        _ timeout: Duration,
        _ what: String,
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw HeadlessChromiumError.timedOut("after \(timeout) on \(what)")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }

    /// SIGTERM first: Chromium then shuts its helper processes (zygote,
    /// renderers, GPU, crash handler) down itself. Whatever is left of the
    /// process group afterwards, or if it does not exit, is killed.
    private static func terminate(_ process: BrowserProcess) async {
        if process.isRunning {
            process.signal(SIGTERM)
            _ = await process.waitForExit(timeout: .seconds(5))
        }
        process.signalGroup(SIGKILL)
        _ = await process.waitForExit(timeout: .seconds(2))
    }
}

// MARK: - The browser process

/// The browser's process, started with posix_spawn rather than Foundation's
/// `Process` for two reasons: it gets a process group of its own, so no
/// helper process can survive the browser; and it starts with no signals
/// blocked (a process spawned from a Swift concurrency thread would inherit
/// that thread's mask, with SIGTERM blocked).
private final class BrowserProcess: Sendable {
    let pid: pid_t
    /// The wait status once reaped; the lock keeps two callers from racing
    /// in `waitpid`.
    private let exitStatus = Mutex<Int32?>(nil)

    private init(pid: pid_t) {
        self.pid = pid
    }

    /// Starts `executable` with stdin, stdout and stderr on /dev/null:
    /// Chromium logs a lot to stderr even when healthy, which would drown the
    /// test output.
    static func spawn(_ executable: String, arguments: [String]) throws -> BrowserProcess {
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        for descriptor: Int32 in 0...2 {
            posix_spawn_file_actions_addopen(
                &fileActions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaultSignals, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes,
            Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        )

        let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid = pid_t()
        let result = posix_spawn(&pid, executable, &fileActions, &attributes, argv, envp)
        guard result == 0 else {
            throw HeadlessChromiumError.launchFailed(
                "could not start \(executable): \(String(cString: strerror(result)))"
            )
        }
        return BrowserProcess(pid: pid)
    }

    /// Reaps the process if it has exited, so it does not linger as a zombie.
    var isRunning: Bool {
        exitStatus.withLock { status in
            guard status == nil else { return false }
            var waitStatus: Int32 = 0
            switch waitpid(pid, &waitStatus, WNOHANG) {
            case 0:
                return true
            case pid:
                status = waitStatus
                return false
            default:
                // ECHILD: someone else reaped it; either way it is gone.
                status = -1
                return false
            }
        }
    }

    /// "exited with status 1", "was killed by signal 9": for launch errors.
    var exitDescription: String {
        guard !isRunning, let status = exitStatus.withLock({ $0 }) else { return "is still running" }
        if status == -1 { return "exited" }
        if status & 0x7f == 0 { return "exited with status \((status >> 8) & 0xff)" }
        return "was killed by signal \(status & 0x7f)"
    }

    func signal(_ signal: Int32) {
        if isRunning { _ = kill(pid, signal) }
    }

    /// The group outlives the browser while any helper is left, so this also
    /// sweeps up after a browser that has already exited.
    func signalGroup(_ signal: Int32) {
        _ = kill(-pid, signal)
    }

    func waitForExit(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while isRunning {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(25))
        }
        return true
    }
}

// MARK: - The DevTools connection

/// One WebSocket to one target. A long-running task owns the socket (WSClient
/// keeps a connection open only for the duration of its handler); requests
/// reach it through an AsyncStream, and replies are routed back by id to the
/// waiting caller.
private final class DevToolsConnection: Sendable {
    /// DevTools messages are not small: a 1280×900 PNG screenshot is several
    /// megabytes of base64 in one message.
    static let maxMessageSize = 64 << 20

    private struct State: ~Copyable {
        var nextID = 0
        var replies: [Int: (method: String, slot: DevToolsSlot)] = [:]
        var eventWaiters: [Int: (method: String, slot: DevToolsSlot)] = [:]
        var closedReason: String?
        var task: Task<Void, Never>?
    }

    /// A registration for an event that has not necessarily happened yet.
    struct EventExpectation: Sendable {
        fileprivate let token: Int
        fileprivate let slot: DevToolsSlot
    }

    private let state = Mutex(State())
    private let outbox: AsyncStream<String>
    private let outboxWriter: AsyncStream<String>.Continuation
    private let opened = DevToolsSlot()
    private let finished = DevToolsSlot()

    init() {
        (outbox, outboxWriter) = AsyncStream<String>.makeStream()
    }

    func start(url: String) {
        let task = Task { [self] in
            do {
                let configuration = WebSocketClientConfiguration(
                    maxFrameSize: Self.maxMessageSize,
                    closeTimeout: .seconds(2)
                )
                var logger = Logger(label: "HeadlessChromium.DevTools")
                logger.logLevel = .critical
                let closeFrame = try await WebSocketClient.connect(
                    url: url,
                    configuration: configuration,
                    logger: logger
                ) { inbound, outbound, _ in
                    self.opened.resolve(.success(.null))
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await text in self.outbox {
                                try await outbound.write(.text(text))
                            }
                            try? await outbound.close(.normalClosure, reason: nil)
                        }
                        group.addTask {
                            defer { self.outboxWriter.finish() }
                            for try await message in inbound.messages(maxSize: Self.maxMessageSize) {
                                switch message {
                                case .text(let text): self.dispatch(Data(text.utf8))
                                case .binary(let buffer): self.dispatch(Data(buffer.readableBytesView))
                                }
                            }
                        }
                        try await group.waitForAll()
                    }
                }
                let reason = closeFrame.map { "closed by the browser (\($0.closeCode))" } ?? "closed"
                finish(reason)
            } catch {
                finish("\(error)")
            }
            finished.resolve(.success(.null))
        }
        state.withLock { $0.task = task }
    }

    /// Throws the connection error if the socket could not be opened, e.g.
    /// when Chromium refuses the upgrade.
    func waitUntilOpen(timeout: Duration) async throws {
        do {
            _ = try await opened.value(timeout: timeout, what: "connecting to the DevTools WebSocket")
        } catch HeadlessChromiumError.connectionClosed(let reason) {
            throw HeadlessChromiumError.launchFailed("DevTools WebSocket connection failed: \(reason)")
        }
    }

    func waitUntilFinished(timeout: Duration) async {
        _ = try? await finished.value(timeout: timeout, what: "closing the DevTools WebSocket")
    }

    /// Fails what is pending with `reason` (which later calls report too)
    /// and sends a close frame once queued commands are written.
    func shutdown(_ reason: String) {
        finish(reason)
    }

    /// For a socket that did not close cleanly: once the browser is gone
    /// nothing will ever answer.
    func cancel() {
        let task = state.withLock { $0.task }
        task?.cancel()
    }

    func send(
        _ method: String,
        _ params: [String: DevToolsJSON] = [:],
        timeout: Duration
    ) async throws -> DevToolsJSON {
        let slot = DevToolsSlot()
        let id = try state.withLock { state throws(HeadlessChromiumError) -> Int in
            if let reason = state.closedReason { throw .connectionClosed(reason) }
            state.nextID += 1
            state.replies[state.nextID] = (method, slot)
            return state.nextID
        }
        defer { _ = state.withLock { $0.replies.removeValue(forKey: id) } }
        let message = DevToolsJSON.object(["id": .int(id), "method": .string(method), "params": .object(params)])
        let text = String(decoding: try JSONEncoder().encode(message), as: UTF8.self)
        if case .terminated = outboxWriter.yield(text) {
            throw HeadlessChromiumError.connectionClosed("no more commands can be sent")
        }
        return try await slot.value(timeout: timeout, what: "waiting for the reply to \(method)")
    }

    func expectEvent(_ method: String) throws -> EventExpectation {
        let slot = DevToolsSlot()
        let token = try state.withLock { state throws(HeadlessChromiumError) -> Int in
            if let reason = state.closedReason { throw .connectionClosed(reason) }
            state.nextID += 1
            state.eventWaiters[state.nextID] = (method, slot)
            return state.nextID
        }
        return EventExpectation(token: token, slot: slot)
    }

    func wait(for expectation: EventExpectation, timeout: Duration, what: String) async throws -> DevToolsJSON {
        defer { forget(expectation) }
        return try await expectation.slot.value(timeout: timeout, what: what)
    }

    func forget(_ expectation: EventExpectation) {
        _ = state.withLock { $0.eventWaiters.removeValue(forKey: expectation.token) }
    }

    /// Replies go to whoever sent the command; events go to whoever waits
    /// for them, and are dropped otherwise.
    private func dispatch(_ data: Data) {
        guard let message = try? JSONDecoder().decode(DevToolsJSON.self, from: data) else { return }
        if case .int(let id)? = message["id"] {
            guard let waiter = state.withLock({ $0.replies.removeValue(forKey: id) }) else { return }
            if let error = message["error"] {
                let text = error["message"]?.stringValue ?? error.debugText
                let detail = error["data"]?.stringValue.map { " (\($0))" } ?? ""
                waiter.slot.resolve(.failure(HeadlessChromiumError.protocolError(method: waiter.method, message: text + detail)))
            } else {
                waiter.slot.resolve(.success(message["result"] ?? .object([:])))
            }
        } else if let method = message["method"]?.stringValue {
            switch method {
            case "Inspector.targetCrashed":
                // The renderer is gone: nothing pending will ever be answered.
                finish("the page crashed (Inspector.targetCrashed)")
                return
            case "Inspector.detached":
                finish("the browser detached the page (\(message["params"]?["reason"]?.stringValue ?? "no reason given"))")
                return
            case "Page.javascriptDialogOpening":
                // alert()/confirm()/prompt() block the page, and with it every
                // later Runtime.evaluate, until the dialog is answered: accept,
                // and give prompt() its default answer.
                let answer = message["params"]?["defaultPrompt"]?.stringValue ?? ""
                Task { [self] in
                    _ = try? await send(
                        "Page.handleJavaScriptDialog",
                        ["accept": .bool(true), "promptText": .string(answer)],
                        timeout: .seconds(10)
                    )
                }
            default:
                break
            }
            let slots = state.withLock { state in
                let tokens = state.eventWaiters.filter { $0.value.method == method }.map(\.key)
                return tokens.compactMap { state.eventWaiters.removeValue(forKey: $0)?.slot }
            }
            for slot in slots {
                slot.resolve(.success(message["params"] ?? .object([:])))
            }
        }
    }

    /// Fails everything still waiting: no reply will come on a closed socket.
    private func finish(_ reason: String) {
        let waiting = state.withLock { state in
            if state.closedReason == nil { state.closedReason = reason }
            let slots = state.replies.values.map(\.slot) + state.eventWaiters.values.map(\.slot)
            state.replies.removeAll()
            state.eventWaiters.removeAll()
            return slots
        }
        outboxWriter.finish()
        let error = HeadlessChromiumError.connectionClosed(reason)
        for slot in waiting { slot.resolve(.failure(error)) }
        opened.resolve(.failure(error))
    }
}

/// A one-shot value that a caller awaits and another task provides; whichever
/// of reply, deadline, cancellation or disconnection comes first wins.
private final class DevToolsSlot: Sendable {
    private enum State {
        case waiting(CheckedContinuation<DevToolsJSON, any Error>?)
        case done(Result<DevToolsJSON, any Error>)
    }

    private let state = Mutex(State.waiting(nil))

    func resolve(_ result: Result<DevToolsJSON, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<DevToolsJSON, any Error>?? in
            guard case .waiting(let continuation) = state else { return nil }
            state = .done(result)
            return .some(continuation)
        }
        if case .some(.some(let continuation)) = continuation {
            continuation.resume(with: result)
        }
    }

    func value(timeout: Duration, what: String) async throws -> DevToolsJSON {
        let timer = Task { [self] in
            do { try await Task.sleep(for: timeout) } catch { return }
            resolve(.failure(HeadlessChromiumError.timedOut("after \(timeout) \(what)")))
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<DevToolsJSON, any Error>? in
                    switch state {
                    case .waiting:
                        state = .waiting(continuation)
                        return nil
                    case .done(let result):
                        return result
                    }
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            resolve(.failure(CancellationError()))
        }
    }
}

// MARK: - JSON

/// DevTools messages as a Sendable value, so replies can cross tasks under
/// strict concurrency. Decoding with Codable also keeps `true` a `Bool` and
/// `1` an `Int` (JSONSerialization's NSNumbers blur the two on Linux).
private enum DevToolsJSON: Sendable, Codable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([DevToolsJSON])
    case object([String: DevToolsJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([DevToolsJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: DevToolsJSON].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// From the plain Swift values a test writes for ``HeadlessChromium/send(_:_:)``.
    init?(any value: Any) {
        switch value {
        case is NSNull: self = .null
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .int(value)
        case let value as Double: self = .double(value)
        case let value as any BinaryInteger:
            guard let exact = Int(exactly: value) else { return nil }
            self = .int(exact)
        case let value as any BinaryFloatingPoint: self = .double(Double(value))
        case let value as String: self = .string(value)
        case let value as [Any]:
            var items: [DevToolsJSON] = []
            for item in value {
                guard let json = DevToolsJSON(any: item) else { return nil }
                items.append(json)
            }
            self = .array(items)
        case let value as [String: Any]:
            var members: [String: DevToolsJSON] = [:]
            for (key, item) in value {
                guard let json = DevToolsJSON(any: item) else { return nil }
                members[key] = json
            }
            self = .object(members)
        default:
            return nil
        }
    }

    subscript(key: String) -> DevToolsJSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// JavaScript's truthiness, for ``HeadlessChromium/waitUntil(_:timeout:)``.
    var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let value): return value
        case .int(let value): return value != 0
        case .double(let value): return value != 0 && !value.isNaN
        case .string(let value): return !value.isEmpty
        case .array, .object: return true
        }
    }

    /// The value as JSONSerialization would give it (top-level null is nil).
    var anyValue: Any? {
        switch self {
        case .null: return nil
        case .bool(let value): return value
        case .int(let value): return value
        case .double(let value): return value
        case .string(let value): return value
        case .array(let items): return items.map { $0.anyValue ?? NSNull() }
        case .object(let members): return members.mapValues { $0.anyValue ?? NSNull() }
        }
    }

    /// Compact JSON text for error messages.
    var debugText: String {
        guard let data = try? JSONEncoder().encode(self) else { return "?" }
        let text = String(decoding: data, as: UTF8.self)
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }
}
