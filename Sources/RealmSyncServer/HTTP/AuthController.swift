import Foundation
import Hummingbird
import RealmSyncWire

/// The routes of the authentication API (``AuthRoute``) over
/// ``AuthService``.
struct AuthController: Sendable {
    let service: AuthService
    let maxBodySize: Int

    /// The routes and their methods, for ``ProblemMiddleware``.
    static let routes: [String: [HTTPRequest.Method]] = [
        AuthRoute.login: [.post], AuthRoute.refresh: [.post], AuthRoute.revoke: [.post], AuthRoute.password: [.put], "/health": [.get],
    ]
    static let routePrefixes: [String: [HTTPRequest.Method]] = [AuthRoute.users + "/": [.get]]

    func register(on router: Router<BasicRequestContext>) {
        router.post(RouterPath(AuthRoute.login)) { request, context in
            try await encoded(service.logIn(try await decode(LoginRequest.self, from: request)))
        }
        router.post(RouterPath(AuthRoute.refresh)) { request, context in
            try await encoded(service.refresh(try await decode(RefreshTokenRequest.self, from: request)))
        }
        router.post(RouterPath(AuthRoute.revoke)) { request, context in
            try await service.revoke(try await decode(RefreshTokenRequest.self, from: request))
            return Response(status: .noContent)
        }
        router.put(RouterPath(AuthRoute.password)) { request, context in
            let caller = try await service.caller(authorization: request.headers[.authorization])
            try await service.changePassword(try await decode(ChangePasswordRequest.self, from: request), caller: caller)
            return Response(status: .noContent)
        }
        router.get(RouterPath("\(AuthRoute.users)/:provider/:identity")) { request, context in
            let caller = try await service.caller(authorization: request.headers[.authorization])
            let provider = try context.parameters.require("provider")
            let identity = try context.parameters.require("identity")
            return try await encoded(service.userInfo(provider: IdentityProvider(rawValue: provider.removingPercentEncoding ?? provider),
                                                      providerUserIdentity: identity.removingPercentEncoding ?? identity,
                                                      caller: caller))
        }
        router.get("/health") { _, _ in "ok" }
    }

    /// The body of `request` as a `T`, or a 400 or 413 problem that says
    /// what is wrong with it.
    private func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws(Problem) -> T {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maxBodySize)
        } catch {
            throw Problem(status: 413, code: .invalidParameters, title: "Request body too large",
                          detail: "the body is over \(maxBodySize) bytes")
        }
        do {
            return try JSONDecoder.wire().decode(T.self, from: Data(buffer: body))
        } catch DecodingError.keyNotFound(let key, _) {
            throw Problem.invalidParameters("the body has no '\(key.stringValue)'")
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw Problem.invalidParameters("'\(path)' has the wrong type")
        } catch {
            throw Problem.invalidParameters("the body is not a JSON object of the expected shape")
        }
    }

    private func encoded(_ value: some Encodable) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: try JSONEncoder.wire().encode(value))))
    }
}
