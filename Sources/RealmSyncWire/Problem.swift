/// The body of every error response of the server: an RFC 7807 problem
/// document, as Realm Object Server sent, with the code the client turns
/// into a `SyncAuthError`.
public struct Problem: Codable, Sendable, Error, CustomStringConvertible {
    /// The HTTP status of the response.
    public var status: Int
    /// The Realm error code, or nil where the status says all (a server
    /// error, too many attempts).
    public var code: AuthErrorCode?
    /// A short summary, the same for every problem of this kind.
    public var title: String
    /// What exactly was wrong with this request.
    public var detail: String?
    /// For a request refused for a while (429): the seconds to wait.
    public var retryAfter: Int?

    /// A problem with an HTTP status, a Realm code where one applies, a
    /// summary and what exactly was wrong.
    public init(status: Int, code: AuthErrorCode?, title: String, detail: String? = nil, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.retryAfter = retryAfter
    }

    public var description: String {
        detail.map { "\(title): \($0)" } ?? title
    }
}
