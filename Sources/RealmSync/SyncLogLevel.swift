import Logging

/// How much the sync client logs (Realm's `SyncLogLevel`), from nothing to
/// everything.
public enum SyncLogLevel: Int, Sendable, Comparable {
    /// Nothing.
    case off
    /// Errors the client cannot go on after.
    case fatal
    /// Errors.
    case error
    /// Warnings, and errors.
    case warn
    /// Logins, logouts and the like (the default).
    case info
    /// More of what happens.
    case detail
    /// Token refreshes and other details for debugging.
    case debug
    /// Everything the client does.
    case trace
    /// Everything.
    case all

    public static func < (lhs: SyncLogLevel, rhs: SyncLogLevel) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The swift-log level of the client's logger; nil logs nothing.
    var loggerLevel: Logger.Level? {
        switch self {
        case .off: nil
        case .fatal: .critical
        case .error: .error
        case .warn: .warning
        case .info: .info
        case .detail: .notice
        case .debug: .debug
        case .trace, .all: .trace
        }
    }
}
