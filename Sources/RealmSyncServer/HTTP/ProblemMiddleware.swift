import Foundation
import Hummingbird
import Logging
import RealmSyncWire

/// Turns every failure of a request into a problem document (``Problem``)
/// with the right status: the server's own refusals, Hummingbird's (an
/// unknown route, a body too large), a method a route does not take, and
/// anything unexpected (a 500 that says nothing of the server's insides).
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    /// The methods of each route, to tell a wrong method (405) from an
    /// unknown path (404).
    let routes: [String: [HTTPRequest.Method]]
    /// The same for routes with parameters, by the path before them.
    let routePrefixes: [String: [HTTPRequest.Method]]

    private func allowedMethods(_ path: String) -> [HTTPRequest.Method]? {
        routes[path] ?? routePrefixes.first { path.hasPrefix($0.key) }?.value
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            return Self.response(for: problem)
        } catch let error as HTTPError {
            if error.status == .notFound, let allowed = allowedMethods(request.uri.path), !allowed.contains(request.method) {
                var response = Self.response(for: Problem(status: 405, code: nil, title: "Method not allowed",
                                                          detail: "\(request.uri.path) takes \(allowed.map(\.rawValue).joined(separator: ", "))"))
                response.headers[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
                return response
            }
            let code: AuthErrorCode? = switch error.status {
            case .notFound: .accessDeniedOrInvalidPath
            case .badRequest, .contentTooLarge: .invalidParameters
            default: nil
            }
            return Self.response(for: Problem(status: Int(error.status.code), code: code,
                                              title: error.status.reasonPhrase, detail: error.body ?? "\(request.method) \(request.uri.path)"))
        } catch {
            context.logger.error("request failed: \(error)")
            return Self.response(for: .internalError)
        }
    }

    static func response(for problem: Problem) -> Response {
        let body = (try? JSONEncoder.wire().encode(problem)) ?? Data()
        var headers = HTTPFields()
        headers[.contentType] = "application/problem+json"
        if let seconds = problem.retryAfter {
            headers[.retryAfter] = String(seconds)
        }
        return Response(status: .init(code: problem.status), headers: headers, body: .init(byteBuffer: ByteBuffer(data: body)))
    }
}
