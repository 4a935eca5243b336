import RealmCore
import RealmQuery

/// A failure the `realm` tool reports as one line and a non-zero exit
/// status: what went wrong, naming the file, class, property, line or
/// token concerned. Never a stack trace: a user's mistake is not a crash.
public struct ToolError: Error, CustomStringConvertible, Sendable {
    /// The line to print.
    public let message: String

    /// An error with the line to print.
    public init(_ message: String) {
        self.message = message
    }

    /// The line to print.
    public var description: String { message }

    /// A storage error, prefixed with what was being done.
    init(_ error: RealmError, while doing: String) {
        self.message = "\(doing): \(error.message)"
    }

    /// A predicate that does not parse or fit the class, pointing at the
    /// offending token (its position counted from 1).
    init(_ error: QueryError) {
        if let offset = error.offset, offset < error.predicate.count {
            let token = String(error.predicate.dropFirst(offset).prefix(error.length))
            message = "invalid predicate \"\(error.predicate)\" at column \(offset + 1) ('\(token)'): \(error.message)"
        } else if error.offset != nil {
            message = "invalid predicate \"\(error.predicate)\" at the end: \(error.message)"
        } else {
            message = "invalid predicate \"\(error.predicate)\": \(error.message)"
        }
    }
}
