import Foundation
#if canImport(Glibc)
import Glibc
#endif
import RealmSync
import RealmSyncServer
import RealmSyncWire
import Synchronization
import Testing

extension SyncTests {
    /// Requests no client of ours sends: each gets a clear HTTP error, the
    /// server keeps serving, and nothing stored changes.
    @Suite struct HostileInput {
        /// Every answer names the server and carries RFC 9110's `Date`
        /// (the server makes the header itself: see `HTTPService`).
        @Test func answersCarryTheDateAndTheServersName() async throws {
            let server = try await TestServer.start()
            defer { Task { await server.stop() } }
            let before = Date()
            let exchange = try await HTTPExchange.send("GET", server.url.appendingPathComponent("no-such-route"))
            #expect(exchange.status == 404)
            let headers = Dictionary(exchange.headers.map { ($0.0.lowercased(), $0.1) }, uniquingKeysWith: { $1 })
            #expect(headers["server"] == "realm-sync-server")
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            let date = try #require(headers["date"].flatMap(formatter.date(from:)), "\(headers["date"] ?? "no Date header")")
            #expect(abs(date.timeIntervalSince(before)) < 60)
            #expect(formatter.string(from: date) == headers["date"])
        }

        @Test func malformedOversizedAndMisroutedRequestsGetProblemDocuments() async throws {
            let server = try await TestServer.start { $0.maxRequestBodySize = 4096 }
            defer { Task { await server.stop() } }
            let login = server.url.appendingPathComponent("auth")
            let register = HTTPExchange.json(LoginRequest(provider: .usernamePassword, data: "ola", password: "pw", register: true))
            #expect(try await HTTPExchange.send("POST", login, body: register).status == 200)

            let cases: [(String, URL, Data?, Int, AuthErrorCode?)] = [
                ("POST", login, Data("{not json".utf8), 400, .invalidParameters),
                ("POST", login, Data("[]".utf8), 400, .invalidParameters),
                ("POST", login, Data(#"{"provider":"password"}"#.utf8), 400, .invalidParameters),
                ("POST", login, Data(#"{"provider":7,"data":"ola"}"#.utf8), 400, .invalidParameters),
                ("POST", login, Data(#"{"provider":"password","data":"ola","password":"x","register":"yes"}"#.utf8), 400, .invalidParameters),
                ("POST", login, Data(repeating: UInt8(ascii: " "), count: 100_000), 413, .invalidParameters),
                ("POST", login, nil, 400, .invalidParameters),
                ("GET", login, nil, 405, nil),
                ("DELETE", server.url.appendingPathComponent("auth/password"), nil, 405, nil),
                ("GET", server.url.appendingPathComponent("no/such/route"), nil, 404, .accessDeniedOrInvalidPath),
                ("POST", server.url.appendingPathComponent("auth/refresh"), Data(#"{"refresh_token":"forged"}"#.utf8), 401, .invalidAccessToken),
                ("GET", server.url.appendingPathComponent("auth/users/password/ola"), nil, 401, .invalidAccessToken),
                ("POST", login, Data(#"{"provider":"password","data":"\#(String(repeating: "u", count: 300))","password":"x"}"#.utf8),
                 400, .invalidParameters),
                ("POST", login, Data(#"{"provider":"password","data":"ola","password":"\#(String(repeating: "p", count: 100))"}"#.utf8),
                 400, .invalidParameters),
                // bcrypt would stop at the NUL: "pw\0anything" must not be "pw".
                ("POST", login, Data(#"{"provider":"password","data":"ola","password":"pw\u0000x"}"#.utf8), 400, .invalidParameters),
                ("POST", login, Data(#"{"provider":"nosuch","data":"t"}"#.utf8), 400, .invalidParameters),
                ("POST", server.url.appendingPathComponent("auth/users/password/ola"), nil, 405, nil),
            ]
            for (method, url, body, status, code) in cases {
                let exchange = try await HTTPExchange.send(method, url, body: body)
                let label = "\(method) \(url.path) \(body.map { String(decoding: $0.prefix(60), as: UTF8.self) } ?? "")"
                #expect(exchange.status == status, "\(label)")
                let problem = try #require(exchange.problem, "\(label): the body is a problem document")
                #expect(problem.status == status)
                #expect(problem.code == code, "\(label)")
                #expect(exchange.headers.contains { $0.0.lowercased() == "content-type" && $0.1 == "application/problem+json" })
            }
            // Still serving, and the user is as registered.
            let again = HTTPExchange.json(LoginRequest(provider: .usernamePassword, data: "ola", password: "pw"))
            #expect(try await HTTPExchange.send("POST", login, body: again).status == 200)
            let taken = try await HTTPExchange.send("POST", login, body: register)
            #expect(taken.status == 409)
            #expect(taken.problem?.code == .userAlreadyExists)
        }

        /// Bytes the HTTP parser cannot read get an answer and a closed
        /// connection at once, not silence until the idle timeout.
        @Test func requestsThatAreNotHTTPAreAnsweredAndClosed() async throws {
            let server = try await TestServer.start()
            defer { Task { await server.stop() } }
            let port = try #require(server.server.port)
            let cases: [(String, [UInt8], String)] = [
                ("an unknown method", Array("BREW /pot HTTP/1.1\r\nHost: a\r\n\r\n".utf8), "501"),
                ("bytes that are not HTTP", [0, 1, 2, 0xFF, 0xFE, 13, 10, 13, 10], "501"),
                ("a broken request line", Array("GET /health HTTP/9\r\n\r\n".utf8), "400"),
                ("a header without a colon", Array("GET /health HTTP/1.1\r\nHost a\r\n\r\n".utf8), "400"),
            ]
            for (what, bytes, status) in cases {
                let started = ContinuousClock.now
                let (answer, closed) = try await offloaded { try RawExchange.send(bytes, toPort: port, waitingUpTo: 10) }
                #expect(answer.hasPrefix("HTTP/1.1 \(status)"), "\(what): \(answer.prefix(40))")
                #expect(closed, "\(what): the connection is closed")
                #expect(ContinuousClock.now - started < .seconds(5), "\(what): answered at once")
            }
            // Still serving.
            #expect(try await HTTPExchange.send("GET", server.url.appendingPathComponent("health")).status == 200)
        }

        /// A connection that has sent nothing when the server stops is
        /// closed: nothing of it is in flight, and waiting for its first
        /// request would keep the server from stopping for ever (the sync
        /// demo hung so, now and then, when a client's connection opened
        /// as the server stopped).
        @Test func aServerStopsWhileAConnectionHasSentNothing() async throws {
            let server = try await TestServer.start()
            let port = try #require(server.server.port)
            let silent = try RawConnection(toPort: port)
            // A request answered on a kept-alive connection too.
            let kept = try RawConnection(toPort: port)
            #expect(try kept.exchange(Array("GET /health HTTP/1.1\r\nHost: a\r\n\r\n".utf8)).hasPrefix("HTTP/1.1 200"))
            let stopped = Mutex(false)
            let stopping = Task {
                await server.stop()
                stopped.withLock { $0 = true }
            }
            for _ in 0..<400 where !stopped.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(50)) }
            #expect(stopped.withLock { $0 }, "the server stops")
            #expect(silent.isClosedByPeer(), "the silent connection is closed")
            #expect(kept.isClosedByPeer(), "the kept-alive connection is closed")
            _ = stopping
        }

        @Test func aFloodOfWrongPasswordsIsRefusedWithRetryAfter() async throws {
            let server = try await TestServer.start { configuration in
                configuration.failedLoginLimit = 2
                configuration.failedLoginWindow = 30
            }
            defer { Task { await server.stop() } }
            let login = server.url.appendingPathComponent("auth")
            _ = try await HTTPExchange.send("POST", login, body: HTTPExchange.json(LoginRequest(provider: .usernamePassword, data: "pia",
                                                                                                  password: "right", register: true)))
            let wrong = HTTPExchange.json(LoginRequest(provider: .usernamePassword, data: "pia", password: "wrong"))
            #expect(try await HTTPExchange.send("POST", login, body: wrong).status == 401)
            #expect(try await HTTPExchange.send("POST", login, body: wrong).status == 401)
            let limited = try await HTTPExchange.send("POST", login, body: wrong)
            #expect(limited.status == 429)
            let retryAfter = limited.headers.first { $0.0.lowercased() == "retry-after" }.flatMap { Int($0.1) }
            #expect((1...30).contains(retryAfter ?? 0))
            #expect(limited.problem?.retryAfter == retryAfter)
        }
    }
}

/// A TCP connection to a server on loopback, kept open until released.
final class RawConnection: Sendable {
    private let socket: Int32

    /// Connects; reads wait up to `seconds` for bytes.
    init(toPort port: Int, receiveTimeout seconds: Int = 10) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EIO) }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { close(socket) }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, 0) }
    }

    /// Sends `bytes` and reads one answer (what the first read gives).
    func exchange(_ bytes: [UInt8]) throws -> String {
        send(bytes)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw POSIXError(.ECONNRESET) }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// Reads until the server closes the connection or a read times out:
    /// what it sent, and whether it closed.
    func readUntilClosed() -> (answer: String, closed: Bool) {
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 { return (String(decoding: answer, as: UTF8.self), true) }
            if count < 0 { return (String(decoding: answer, as: UTF8.self), false) }
            answer += buffer[0..<count]
        }
    }

    /// Whether the server closed the connection (a read finds its end).
    func isClosedByPeer() -> Bool {
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, 0) == 0
    }
}

/// One exchange of raw bytes over TCP with a server on loopback.
enum RawExchange {
    /// Sends `bytes` to 127.0.0.1:`port` and reads until the server closes
    /// the connection or `seconds` pass: what it answered, and whether it
    /// closed.
    static func send(_ bytes: [UInt8], toPort port: Int, waitingUpTo seconds: Int) throws -> (answer: String, closed: Bool) {
        let connection = try RawConnection(toPort: port, receiveTimeout: seconds)
        connection.send(bytes)
        return connection.readUntilClosed()
    }
}
