import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import RealmSyncWire

/// Calls the server's authentication API (``AuthRoute``) and turns every
/// failure into a ``SyncAuthError``.
struct AuthClient: Sendable {
    let server: URL
    let timeout: TimeInterval

    /// The longest answer read: an auth answer is a few hundred bytes.
    private static let maximumResponseSize = 1 << 20

    func logIn(_ request: LoginRequest) async throws(SyncAuthError) -> LoginResponse {
        try await send(.POST, AuthRoute.login, body: request)
    }

    func refresh(_ refreshToken: String) async throws(SyncAuthError) -> RefreshResponse {
        try await send(.POST, AuthRoute.refresh, body: RefreshTokenRequest(refreshToken: refreshToken))
    }

    func revoke(_ refreshToken: String) async throws(SyncAuthError) {
        let _: Empty = try await send(.POST, AuthRoute.revoke, body: RefreshTokenRequest(refreshToken: refreshToken))
    }

    func changePassword(_ request: ChangePasswordRequest, accessToken: String) async throws(SyncAuthError) {
        let _: Empty = try await send(.PUT, AuthRoute.password, body: request, accessToken: accessToken)
    }

    func userInfo(provider: IdentityProvider, providerUserIdentity: String, accessToken: String) async throws(SyncAuthError) -> UserInfoResponse {
        try await send(.GET, AuthRoute.userInfo(provider: provider, providerUserIdentity: providerUserIdentity),
                       body: Optional<Empty>.none, accessToken: accessToken)
    }

    // MARK: Permissions

    func applyPermission(_ request: ApplyPermissionRequest, accessToken: String) async throws(SyncAuthError) {
        let _: Empty = try await send(.POST, PermissionRoute.permissions, body: request, accessToken: accessToken)
    }

    func createOffer(_ request: CreateOfferRequest, accessToken: String) async throws(SyncAuthError) -> OfferTokenMessage {
        try await send(.POST, PermissionRoute.offers, body: request, accessToken: accessToken)
    }

    func acceptOffer(_ token: String, accessToken: String) async throws(SyncAuthError) -> AcceptOfferResponse {
        try await send(.POST, PermissionRoute.acceptOffer, body: OfferTokenMessage(token: token), accessToken: accessToken)
    }

    func invalidateOffer(_ token: String, accessToken: String) async throws(SyncAuthError) {
        let _: Empty = try await send(.POST, PermissionRoute.invalidateOffer, body: OfferTokenMessage(token: token), accessToken: accessToken)
    }

    /// An answer with no body (204).
    private struct Empty: Codable {}

    private func send<Body: Encodable, Answer: Decodable>(_ method: HTTPMethod, _ path: String, body: Body?,
                                                          accessToken: String? = nil) async throws(SyncAuthError) -> Answer {
        let base = server.absoluteString.hasSuffix("/") ? String(server.absoluteString.dropLast()) : server.absoluteString
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        request.headers.add(name: "Accept", value: "application/json")
        if let accessToken { request.headers.add(name: "Authorization", value: "Bearer \(accessToken)") }
        if let body {
            guard let data = try? JSONEncoder.wire().encode(body) else {
                throw SyncAuthError(.invalidParameters, "The request to \(path) could not be encoded.")
            }
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: data))
        }
        let status: Int
        let data: Data
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
            status = Int(response.status.code)
            data = Data(try await response.body.collect(upTo: Self.maximumResponseSize).readableBytesView)
        } catch {
            throw SyncAuthError(.clientSessionError, "The server at \(server.absoluteString) could not be reached: \(error)")
        }
        guard (200..<300).contains(status) else {
            guard let problem = try? JSONDecoder.wire().decode(Problem.self, from: data) else {
                throw SyncAuthError(.httpStatusCodeError, "The server answered HTTP \(status) to \(path).", httpStatusCode: status)
            }
            guard let code = problem.code.flatMap({ SyncAuthError.Code(rawValue: $0.rawValue) }) else {
                throw SyncAuthError(.httpStatusCodeError, problem.description, httpStatusCode: status)
            }
            throw SyncAuthError(code, problem.description, httpStatusCode: status)
        }
        if Answer.self == Empty.self { return Empty() as! Answer }
        do {
            return try JSONDecoder.wire().decode(Answer.self, from: data)
        } catch {
            throw SyncAuthError(.badResponse, "The server's answer to \(path) could not be read: \(error)", httpStatusCode: status)
        }
    }
}
