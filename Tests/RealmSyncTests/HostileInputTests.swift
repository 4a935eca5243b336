import Foundation
import RealmSync
import RealmSyncServer
import RealmSyncWire
import Testing

extension SyncTests {
    /// Requests no client of ours sends: each gets a clear HTTP error, the
    /// server keeps serving, and nothing stored changes.
    @Suite struct HostileInput {
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
