import RealmSyncWire

// The problems the server answers with, each with its status and Realm
// code decided here, where they are raised.
extension Problem {
    static func invalidParameters(_ detail: String) -> Problem {
        Problem(status: 400, code: .invalidParameters, title: "Invalid parameters", detail: detail)
    }

    static func invalidCredential(_ detail: String) -> Problem {
        Problem(status: 401, code: .invalidCredential, title: "Invalid credentials", detail: detail)
    }

    static func userDoesNotExist(_ detail: String) -> Problem {
        Problem(status: 401, code: .userDoesNotExist, title: "The user does not exist", detail: detail)
    }

    static func userNotFound(_ detail: String) -> Problem {
        Problem(status: 404, code: .userDoesNotExist, title: "The user does not exist", detail: detail)
    }

    static func userAlreadyExists(_ detail: String) -> Problem {
        Problem(status: 409, code: .userAlreadyExists, title: "The user already exists", detail: detail)
    }

    static func accessDenied(_ detail: String) -> Problem {
        Problem(status: 403, code: .accessDeniedOrInvalidPath, title: "Access denied", detail: detail)
    }

    static func invalidAccessToken(_ detail: String) -> Problem {
        Problem(status: 401, code: .invalidAccessToken, title: "Invalid token", detail: detail)
    }

    static func expiredOffer(_ detail: String) -> Problem {
        Problem(status: 410, code: .expiredPermissionOffer, title: "The permission offer has expired", detail: detail)
    }

    static func tooManyAttempts(retryAfter seconds: Int) -> Problem {
        Problem(status: 429, code: nil, title: "Too many failed attempts",
                detail: "too many wrong passwords for this user; try again in \(seconds) s", retryAfter: seconds)
    }

    static let internalError = Problem(status: 500, code: nil, title: "Internal server error")

    /// A request that reached the user store after the server closed it.
    static let stopping = Problem(status: 503, code: nil, title: "Service unavailable", detail: "the server is stopping")
}
