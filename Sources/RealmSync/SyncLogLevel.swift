import Logging

/// How much the sync client logs (Realm's `SyncLogLevel`), from nothing to
/// everything.
public enum SyncLogLevel: Int, Sendable, Comparable {
    case off, fatal, error, warn, info, detail, debug, trace, all

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
