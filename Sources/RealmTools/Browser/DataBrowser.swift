import Foundation
import Hummingbird
import Logging
import NIOCore
import RealmCore
import ServiceLifecycle
import Synchronization

/// The web data browser `realm browse` runs: a Hummingbird server on
/// loopback that shows a Realm file's classes and objects, filters them
/// with the predicate language, follows links, edits values in write
/// transactions, and updates open pages when the file changes.
///
/// Security, since the data may be private and the browser may hold other
/// sites' pages:
/// - it binds to 127.0.0.1 unless told otherwise;
/// - every request must carry the random session token of the printed URL;
/// - every write is a POST carrying a second random token that only pages
///   it served hold (CSRF), from the same origin when the browser says;
/// - everything from the file or the request is escaped, and a content
///   security policy allows only the page's own script;
/// - no part of a URL is used as a path: the only file is the one given.
public final class DataBrowser: Sendable {
    /// What to serve, and where.
    public struct Configuration: Sendable {
        /// The Realm file.
        public var path: String
        /// Its 64-byte key, when it is encrypted.
        public var encryptionKey: Data?
        /// Whether the pages only show the data (no forms, writes refused).
        public var readOnly: Bool
        /// The address to listen on; loopback unless told otherwise.
        public var host: String
        /// The port; 0 picks a free one.
        public var port: Int

        /// A configuration; by default writable, on a free port of 127.0.0.1.
        public init(path: String, encryptionKey: Data? = nil, readOnly: Bool = false, host: String = "127.0.0.1", port: Int = 0) {
            self.path = path
            self.encryptionKey = encryptionKey
            self.readOnly = readOnly
            self.host = host
            self.port = port
        }
    }

    let configuration: Configuration
    let store: BrowserStore
    /// Required on every request (in the URL).
    let token: String
    /// Required on every write (in the form).
    let csrf: String

    /// A browser of the configured file, with fresh random tokens. A file
    /// that cannot be opened is not an error here: every page says why.
    public init(configuration: Configuration) {
        self.configuration = configuration
        store = BrowserStore(configuration: configuration)
        token = Self.randomToken()
        csrf = Self.randomToken()
    }

    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<24).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// Runs until SIGINT or SIGTERM; `onListening` gets the URL to open.
    public func run(onListening: @escaping @Sendable (String) -> Void) async throws {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: TokenMiddleware(token: token))
        routes(on: router)
        let host = configuration.host
        let token = self.token
        // The URL is the tool's output; the server's own notices would
        // only bury it.
        var logger = Logger(label: "realm-browse")
        logger.logLevel = .warning
        let application = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: configuration.port), serverName: "realm-browse"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let shownHost = host.contains(":") ? "[\(host)]" : host
                onListening("http://\(shownHost):\(port)/?token=\(token)")
            },
            logger: logger)
        try await application.runService()
    }

    // MARK: Routes

    private func routes(on router: Router<BasicRequestContext>) {
        router.get("/") { _, _ in
            await self.page { pages throws(ToolError) in try pages.classList() }
        }
        router.get("/class/:name") { request, context in
            // Decoded as a form: a GET form writes spaces as '+'.
            let query = HTML.formFields(request.uri.query ?? "")
            let classRequest = BrowserPages.ClassRequest(
                className: Self.parameter("name", of: context),
                filter: query["filter"] ?? "",
                sort: query["sort"].flatMap { $0.isEmpty ? nil : $0 },
                descending: query["desc"] == "1",
                page: query["page"].flatMap { Int($0) } ?? 1)
            return await self.page { pages throws(ToolError) in try pages.classPage(classRequest) }
        }
        router.get("/object/:name/:key") { _, context in
            let (name, key) = Self.objectParameters(context)
            return await self.page { pages throws(ToolError) in try pages.objectPage(className: name, key: key) }
        }
        router.get("/list/:name/:key/:property") { _, context in
            let (name, key) = Self.objectParameters(context)
            let property = Self.parameter("property", of: context)
            return await self.page(fragment: true) { pages throws(ToolError) in
                try pages.listFragment(className: name, key: key, propertyName: property)
            }
        }
        router.get("/backlinks/:name/:key/:property") { _, context in
            let (name, key) = Self.objectParameters(context)
            let property = Self.parameter("property", of: context)
            return await self.page(fragment: true) { pages throws(ToolError) in
                try pages.backlinksFragment(className: name, key: key, propertyName: property)
            }
        }
        router.get("/events") { _, _ in self.events() }
        router.post("/object/:name/:key/set") { request, context in
            let (name, key) = Self.objectParameters(context)
            let form = try await self.writeForm(request)
            return await self.write(redirect: "/object/\(HTML.percentEncode(name))/\(key.rawValue)",
                              failurePage: { pages, message throws(ToolError) in try pages.objectPage(className: name, key: key, error: message) }
            ) { file throws(ToolError) in
                let stored = try file.storedClass(named: name)
                let propertyName = form["property"] ?? ""
                let index = try stored.propertyIndex(named: propertyName)
                let input: String? = form["null"] == "1" ? nil : (form["value"] ?? "")
                try ObjectWriter(file: file).write(.text(input), property: index, of: key, in: stored, creating: false)
                return nil
            }
        }
        router.post("/object/:name/:key/delete") { request, context in
            let (name, key) = Self.objectParameters(context)
            _ = try await self.writeForm(request)
            return await self.write(redirect: "/class/\(HTML.percentEncode(name))",
                              failurePage: { pages, message throws(ToolError) in try pages.objectPage(className: name, key: key, error: message) }
            ) { file throws(ToolError) in
                let stored = try file.storedClass(named: name)
                do throws(RealmError) {
                    try file.transaction.deleteObject(key, in: stored.handle)
                } catch {
                    throw ToolError(error.message)
                }
                return nil
            }
        }
        router.post("/class/:name/create") { request, context in
            let name = Self.parameter("name", of: context)
            let form = try await self.writeForm(request)
            return await self.write(redirect: "/class/\(HTML.percentEncode(name))",
                              failurePage: { pages, message throws(ToolError) in
                                  try pages.classPage(.init(className: name, filter: "", sort: nil, descending: false, page: 1))
                                      .replacingOccurrences(of: "<main id=\"content\">", with: "<main id=\"content\"><p class=\"error\" id=\"error\">\(HTML.escape(message))</p>")
                              }
            ) { file throws(ToolError) in
                let stored = try file.storedClass(named: name)
                var columns: [Int: Value] = [:]
                let writer = ObjectWriter(file: file)
                if let index = stored.primaryKeyIndex {
                    do throws(ValueError) {
                        columns[index] = try writer.columnValue(.text(form["primaryKey"] ?? ""), for: stored.objectSchema.properties[index])
                    } catch {
                        throw ToolError("primary key '\(stored.objectSchema.properties[index].name)': \(error.message)")
                    }
                }
                let key = try writer.create(stored, columns: columns)
                return "/object/\(HTML.percentEncode(name))/\(key.rawValue)"
            }
        }
    }

    private static func objectParameters(_ context: BasicRequestContext) -> (String, ObjectKey) {
        (parameter("name", of: context), ObjectKey(context.parameters.get("key").flatMap(Int64.init) ?? -1))
    }

    /// A path parameter, percent-decoded (the router hands them out as
    /// they are in the path); an undecodable one reads as no name, which
    /// no class has.
    private static func parameter(_ name: String, of context: BasicRequestContext) -> String {
        context.parameters.get(name)?.removingPercentEncoding ?? ""
    }

    // MARK: Responses

    /// Renders a page (or fragment) from the newest version of the file,
    /// on the store's thread.
    private func page(fragment: Bool = false, _ render: @escaping @Sendable (BrowserPages) throws(ToolError) -> String) async -> Response {
        await store.offload { self.renderPage(fragment: fragment, render) }
    }

    private func renderPage(fragment: Bool, _ render: (BrowserPages) throws(ToolError) -> String) -> Response {
        let nonce = Self.randomToken()
        let outcome = store.withFile { file throws(ToolError) in
            try file.refresh()
            return try render(BrowserPages(file: file, token: token, csrf: csrf, nonce: nonce))
        }
        switch outcome {
        case .success(let html):
            return Self.html(html, nonce: nonce)
        case .failure(let error):
            let unreadable = store.openError != nil
            let body = fragment
                ? "<p class=\"error\">\(HTML.escape(error.message))</p>"
                : BrowserPages.errorPage(title: unreadable ? "Cannot browse this file" : "Cannot show this page", message: error.message)
            return Self.html(body, status: unreadable ? .unprocessableContent : .notFound, nonce: nonce)
        }
    }

    /// Checks a write's form: the CSRF token, and the origin when the
    /// browser names one.
    private func writeForm(_ request: Request) async throws -> [String: String] {
        if let origin = request.headers[.origin], origin != "null" {
            let host = request.head.authority ?? ""
            guard origin == "http://\(host)" else { throw HTTPError(.forbidden, message: "A write must come from the browser's own pages.") }
        }
        if request.headers[.init("Sec-Fetch-Site")!].map({ $0 != "same-origin" && $0 != "none" }) == true {
            throw HTTPError(.forbidden, message: "A write must come from the browser's own pages.")
        }
        let body = try await request.body.collect(upTo: 1 << 24)
        let form = HTML.formFields(String(buffer: body))
        guard let given = form["csrf"], constantTimeEqual(given, csrf) else {
            throw HTTPError(.forbidden, message: "The form's CSRF token is missing or wrong; reload the page.")
        }
        return form
    }

    /// Runs a change in one write transaction; on success redirects (to
    /// what `body` returns, or `redirect`), on failure shows the page with
    /// the error, having written nothing.
    private func write(redirect: String, failurePage: @escaping @Sendable (BrowserPages, String) throws(ToolError) -> String,
                       _ body: @escaping @Sendable (RealmFile) throws(ToolError) -> String?) async -> Response {
        await store.offload { self.performWrite(redirect: redirect, failurePage: failurePage, body) }
    }

    private func performWrite(redirect: String, failurePage: (BrowserPages, String) throws(ToolError) -> String,
                              _ body: (RealmFile) throws(ToolError) -> String?) -> Response {
        let nonce = Self.randomToken()
        let outcome = store.withFile { file throws(ToolError) -> Result<String, ToolError> in
            try file.refresh()
            do {
                let target = try file.write { () throws -> String? in try body(file) }
                return .success(target ?? redirect)
            } catch let error as ToolError {
                try file.refresh()
                return .failure(error)
            } catch let error as RealmError {
                try file.refresh()
                return .failure(ToolError(error.message))
            } catch {
                try file.refresh()
                return .failure(ToolError("\(error)"))
            }
        }
        switch outcome {
        case .success(.success(let target)):
            let separator = target.contains("?") ? "&" : "?"
            return Response(status: .seeOther, headers: [.location: target + separator + "token=" + token])
        case .success(.failure(let refusal)):
            let pages = store.withFile { file throws(ToolError) in
                try failurePage(BrowserPages(file: file, token: token, csrf: csrf, nonce: nonce), refusal.message)
            }
            switch pages {
            case .success(let html): return Self.html(html, status: .unprocessableContent, nonce: nonce)
            case .failure(let error): return Self.html(BrowserPages.errorPage(title: "Not saved", message: refusal.message + "\n" + error.message),
                                                       status: .unprocessableContent, nonce: nonce)
            }
        case .failure(let error):
            return Self.html(BrowserPages.errorPage(title: "Not saved", message: error.message), status: .unprocessableContent, nonce: nonce)
        }
    }

    /// A stream of server-sent events, one per commit to the file (by any
    /// process), carrying the new version.
    private func events() -> Response {
        let (stream, continuation) = AsyncStream.makeStream(of: UInt64.self, bufferingPolicy: .bufferingNewest(1))
        let listener = store.addCommitListener { version in continuation.yield(version) }
        let store = self.store
        continuation.onTermination = { _ in if let listener { store.removeCommitListener(listener) } }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: ": following \(self.configuration.path)\n\n"))
                // Ends with the server: a graceful shutdown must not wait
                // for pages that never close.
                try await withGracefulShutdownHandler {
                    for await version in stream {
                        try await writer.write(ByteBuffer(string: "data: \(version)\n\n"))
                    }
                } onGracefulShutdown: {
                    continuation.finish()
                }
                try await writer.finish(nil)
            })
    }

    static func html(_ html: String, status: HTTPResponse.Status = .ok, nonce: String) -> Response {
        Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8",
                .cacheControl: "no-store",
                .contentSecurityPolicy: "default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'unsafe-inline'; "
                    + "connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
                .xContentTypeOptions: "nosniff",
                .init("Referrer-Policy")!: "no-referrer",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }
}

/// Refuses every request without the session token.
struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let given = request.uri.queryParameters.get("token"), constantTimeEqual(given, token) else {
            return Response(
                status: .forbidden,
                headers: [.contentType: "text/plain; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "Forbidden: open the URL `realm browse` printed, with its token.\n")))
        }
        return try await next(request, context)
    }
}

/// Compares secrets in time independent of where they differ.
func constantTimeEqual(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8), y = Array(b.utf8)
    guard x.count == y.count else { return false }
    var difference: UInt8 = 0
    for index in x.indices { difference |= x[index] ^ y[index] }
    return difference == 0
}

/// The browser's one Realm file, used by one request at a time; or why it
/// could not be opened, which every page then shows.
final class BrowserStore: @unchecked Sendable {
    // @unchecked: `file` is used only under `lock`.
    private let lock = NSLock()
    /// Where requests use the file: a slow query, or a wait for another
    /// process's write lock, must not hold a thread of Swift's small
    /// concurrency pool, which the server's other requests need.
    private let queue = DispatchQueue(label: "realm.browse.file")
    private let file: Result<RealmFile, ToolError>

    init(configuration: DataBrowser.Configuration) {
        do throws(ToolError) {
            file = .success(try RealmFile(path: configuration.path, encryptionKey: configuration.encryptionKey,
                                          readOnly: configuration.readOnly))
        } catch {
            file = .failure(error)
        }
    }

    /// Why the file cannot be browsed, if it cannot.
    var openError: ToolError? {
        if case .failure(let error) = file { return error }
        return nil
    }

    /// Runs `work` on the store's own thread.
    func offload<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }

    func withFile<T>(_ body: (RealmFile) throws(ToolError) -> T) -> Result<T, ToolError> {
        lock.lock()
        defer { lock.unlock() }
        switch file {
        case .success(let file):
            do {
                return .success(try body(file))
            } catch {
                return .failure(error)
            }
        case .failure(let error):
            return .failure(ToolError("This file cannot be browsed. \(error.message)"))
        }
    }

    func addCommitListener(_ listener: @escaping @Sendable (UInt64) -> Void) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard case .success(let file) = file else { return nil }
        return file.addCommitListener(listener)
    }

    func removeCommitListener(_ identifier: Int) {
        lock.lock()
        defer { lock.unlock() }
        if case .success(let file) = file { file.removeCommitListener(identifier) }
    }
}
