import Foundation
import RealmCore

extension Realm {
    /// An error a caller can recover from: a file that cannot be opened, a
    /// migration that is required, a full disk, a duplicate primary key, a
    /// value of the wrong type. The message names the file, class, property
    /// and value concerned.
    ///
    /// Catch it as itself or, as Realm's Objective-C heritage has it, as an
    /// `NSError` in the domain ``errorDomain`` whose `code` is the raw value
    /// of ``code``:
    ///
    /// ```swift
    /// do {
    ///     let realm = try Realm(configuration: configuration)
    /// } catch let error as Realm.Error where error.code == .fileNotFound {
    ///     // …
    /// } catch let error as NSError {
    ///     print(error.domain, error.code, error.localizedDescription)
    /// }
    /// ```
    ///
    /// Writes through the API that does not throw (`add`, `create`, property
    /// setters, list mutations) record their error instead; the enclosing
    /// ``Realm/write(_:)`` or ``Realm/commitWrite()``
    /// throws it and rolls the transaction back. See "Errors" in
    /// Docs/Writes.md.
    public struct Error: Swift.Error, Equatable, CustomStringConvertible {
        /// The kind of failure. The first codes, and their numbers, are
        /// RealmSwift's; those from 100 on name what Realm reported as
        /// exceptions.
        public enum Code: Int, Sendable, Equatable {
            /// A failure not covered by another code.
            case fail = 1
            /// The file could not be opened, read or written (an I/O error, a
            /// full disk), or it is not a Realm file at all (another SQLite
            /// database, or not a database), which Realm reports as an
            /// invalid database.
            case fileAccess = 2
            /// The process may not open or create the file.
            case filePermissionDenied = 3
            /// A file that was to be written already exists (`writeCopy`).
            case fileExists = 4
            /// The file, or its directory, does not exist (a read-only Realm,
            /// a copy into a missing directory).
            case fileNotFound = 5
            /// The file was written by a newer, incompatible file format.
            case fileFormatUpgradeRequired = 6
            /// Kept for source compatibility with Realm; SQLite's locks have
            /// no architecture-specific format, so it is never reported.
            case incompatibleLockFile = 8
            /// Kept for source compatibility with Realm; nothing is mapped
            /// into memory here, so it is never reported.
            case addressSpaceExhausted = 9
            /// The stored schema differs from the model and a migration (a
            /// higher schema version) is needed.
            case schemaMismatch = 10
            /// The file is in use where exclusive access is needed
            /// (deleting its files, compacting).
            case alreadyOpen = 11

            /// The file is a Realm, but damaged: truncated, or with pages
            /// that cannot be read.
            case fileCorrupt = 100
            /// An object with the same primary key already exists.
            case duplicatePrimaryKey = 101
            /// A value of another type than its property's (a string for a
            /// date, `1.1` for a `Bool`, a wrong element in a nested list).
            case wrongType = 102
            /// No value for a required property: nil, JSON `null`, or too
            /// few values in an array given in property order.
            case missingValue = 103
            /// A string or data value over the 16 MB limit.
            case valueTooLarge = 104
            /// A predicate that does not parse or does not fit the schema,
            /// from the throwing query API.
            case invalidPredicate = 105
            /// A model class or schema that cannot be stored.
            case invalidSchema = 106
        }

        /// The kind of failure.
        public let code: Code
        /// A sentence naming the file, class, property or value concerned.
        public let message: String
        /// The Realm file concerned, when the failure concerns one.
        public let fileURL: URL?

        /// An error of `code` with a message naming what is concerned.
        public init(_ code: Code, _ message: String, fileURL: URL? = nil) {
            self.code = code
            self.message = message
            self.fileURL = fileURL
        }

        /// The storage engine's error, with the code its kind stands for.
        init(_ error: RealmError, fileURL: URL? = nil) {
            let code: Code = switch error.kind {
            case .fileAccess, .notARealm: .fileAccess
            case .fileNotFound: .fileNotFound
            case .filePermissionDenied: .filePermissionDenied
            case .fileExists: .fileExists
            case .corruptFile: .fileCorrupt
            case .incompatibleFormat: .fileFormatUpgradeRequired
            case .fileInUse: .alreadyOpen
            case .invalidSchema: .invalidSchema
            case .schemaMismatch: .schemaMismatch
            case .duplicatePrimaryKey: .duplicatePrimaryKey
            case .wrongType: .wrongType
            case .missingValue: .missingValue
            case .valueTooLarge: .valueTooLarge
            case .unknownName, .invalidValue, .objectNotFound, .invalidTransactionState, .indexOutOfBounds, .storage: .fail
            }
            self.init(code, error.message, fileURL: fileURL)
        }

        /// Any error of a write, as a `Realm.Error`: the storage engine's
        /// translated, this type's kept, anything else as `fail`.
        init(wrapping error: any Swift.Error) {
            switch error {
            case let error as Realm.Error: self = error
            case let error as RealmError: self.init(error)
            default: self.init(.fail, "\(error)")
            }
        }

        /// The storage engine's error for this one, for a failure that must
        /// pass through RealmCore (a migration block's) and come back with
        /// its code.
        var storageError: RealmError {
            let kind: RealmError.Kind = switch code {
            case .fileAccess, .incompatibleLockFile, .addressSpaceExhausted: .fileAccess
            case .filePermissionDenied: .filePermissionDenied
            case .fileExists: .fileExists
            case .fileNotFound: .fileNotFound
            case .fileFormatUpgradeRequired: .incompatibleFormat
            case .schemaMismatch: .schemaMismatch
            case .alreadyOpen: .fileInUse
            case .fileCorrupt: .corruptFile
            case .duplicatePrimaryKey: .duplicatePrimaryKey
            case .wrongType: .wrongType
            case .missingValue: .missingValue
            case .valueTooLarge: .valueTooLarge
            case .invalidSchema: .invalidSchema
            case .fail, .invalidPredicate: .invalidValue
            }
            return RealmError(kind, message)
        }

        public var description: String { message }
        public var localizedDescription: String { message }
    }
}
