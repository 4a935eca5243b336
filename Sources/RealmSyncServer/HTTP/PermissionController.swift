import Foundation
import Hummingbird
import RealmSyncWire

/// The routes of the permission API (``PermissionRoute``) over
/// ``PermissionService``; each needs the caller's access token.
struct PermissionController: Sendable {
    let service: PermissionService
    let auth: AuthService
    let maxBodySize: Int

    /// The routes and their methods, for ``ProblemMiddleware``.
    static let routes: [String: [HTTPRequest.Method]] = [
        PermissionRoute.permissions: [.post], PermissionRoute.offers: [.post], PermissionRoute.acceptOffer: [.post],
        PermissionRoute.invalidateOffer: [.post],
    ]

    func register(on router: Router<BasicRequestContext>) {
        router.post(RouterPath(PermissionRoute.permissions)) { request, context in
            let caller = try await auth.caller(authorization: request.headers[.authorization])
            try await service.apply(try await JSONBody.decode(ApplyPermissionRequest.self, from: request, maxBodySize: maxBodySize),
                                    caller: caller)
            return Response(status: .noContent)
        }
        router.post(RouterPath(PermissionRoute.offers)) { request, context in
            let caller = try await auth.caller(authorization: request.headers[.authorization])
            return try await JSONBody.response(service.createOffer(
                try await JSONBody.decode(CreateOfferRequest.self, from: request, maxBodySize: maxBodySize), caller: caller))
        }
        router.post(RouterPath(PermissionRoute.acceptOffer)) { request, context in
            let caller = try await auth.caller(authorization: request.headers[.authorization])
            return try await JSONBody.response(service.acceptOffer(
                try await JSONBody.decode(OfferTokenMessage.self, from: request, maxBodySize: maxBodySize), caller: caller))
        }
        router.post(RouterPath(PermissionRoute.invalidateOffer)) { request, context in
            let caller = try await auth.caller(authorization: request.headers[.authorization])
            try await service.invalidateOffer(try await JSONBody.decode(OfferTokenMessage.self, from: request, maxBodySize: maxBodySize),
                                              caller: caller)
            return Response(status: .noContent)
        }
    }
}
