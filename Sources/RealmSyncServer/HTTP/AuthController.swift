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
            try await JSONBody.response(service.logIn(try await JSONBody.decode(LoginRequest.self, from: request, maxBodySize: maxBodySize)))
        }
        router.post(RouterPath(AuthRoute.refresh)) { request, context in
            try await JSONBody.response(service.refresh(try await JSONBody.decode(RefreshTokenRequest.self, from: request, maxBodySize: maxBodySize)))
        }
        router.post(RouterPath(AuthRoute.revoke)) { request, context in
            try await service.revoke(try await JSONBody.decode(RefreshTokenRequest.self, from: request, maxBodySize: maxBodySize))
            return Response(status: .noContent)
        }
        router.put(RouterPath(AuthRoute.password)) { request, context in
            let caller = try await service.caller(authorization: request.headers[.authorization])
            try await service.changePassword(try await JSONBody.decode(ChangePasswordRequest.self, from: request, maxBodySize: maxBodySize), caller: caller)
            return Response(status: .noContent)
        }
        router.get(RouterPath("\(AuthRoute.users)/:provider/:identity")) { request, context in
            let caller = try await service.caller(authorization: request.headers[.authorization])
            let provider = try context.parameters.require("provider")
            let identity = try context.parameters.require("identity")
            return try await JSONBody.response(service.userInfo(provider: IdentityProvider(rawValue: provider.removingPercentEncoding ?? provider),
                                                      providerUserIdentity: identity.removingPercentEncoding ?? identity,
                                                      caller: caller))
        }
        router.get("/health") { _, _ in "ok" }
    }
}
