import RealmCore

extension Realm {
    /// An error a caller can recover from: a file that cannot be opened, a
    /// wrong key, a migration that is required, a full disk, a duplicate
    /// primary key, a value of the wrong type. The message names the file,
    /// class and property concerned.
    public struct Error: Swift.Error, Equatable, CustomStringConvertible {
        /// The kind of failure, as in RealmSwift.
        public enum Code: Sendable, Equatable {
            /// A failure not covered by another code (invalid values, invalid
            /// models, misuse reported as an error).
            case fail
            /// The file could not be opened or written.
            case fileAccess
            /// The file is not a Realm, or is damaged.
            case fileCorrupt
            /// The file does not exist (read-only Realms).
            case fileNotFound
            /// The file is in use where exclusive access is needed.
            case alreadyOpen
            /// The file was written by a newer format.
            case fileFormatUpgradeRequired
            /// The stored schema differs and needs a migration.
            case schemaMismatch
            /// An object with the same primary key exists.
            case duplicatePrimaryKey
        }

        /// The kind of failure.
        public let code: Code
        /// A sentence naming the file, class, property or value concerned.
        public let message: String

        /// An error of `code` with a message naming what is concerned.
        public init(_ code: Code, _ message: String) {
            self.code = code
            self.message = message
        }

        init(_ error: RealmError) {
            let code: Code = switch error.kind {
            case .fileAccess: error.message.contains("does not exist") ? .fileNotFound : .fileAccess
            case .notARealm, .corruptFile: .fileCorrupt
            case .incompatibleFormat: .fileFormatUpgradeRequired
            case .fileInUse: .alreadyOpen
            case .schemaMismatch: .schemaMismatch
            case .duplicatePrimaryKey: .duplicatePrimaryKey
            default: .fail
            }
            self.init(code, error.message)
        }

        public var description: String { message }
        public var localizedDescription: String { message }
    }
}
