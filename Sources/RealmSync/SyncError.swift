import Foundation

/// An error of the sync subsystem or of a session, in Realm's domain
/// `io.realm.sync` with Realm's codes (`RLMSyncError`).
public struct SyncError: Error, CustomNSError, LocalizedError, Sendable, Equatable {
    /// Realm's sync error codes.
    public enum Code: Int, Sendable {
        /// A problem with a session (one synced Realm).
        case clientSessionError = 4
        /// A problem with a user.
        case clientUserError = 5
        /// An internal error of the client.
        case clientInternalError = 6
        /// The local Realm must be reset to the server's (see seed 001,
        /// "Client reset").
        case clientResetError = 7
        /// The server refused the user's credentials or token; the
        /// underlying ``SyncAuthError`` is under `NSUnderlyingErrorKey`.
        case underlyingAuthError = 8
        /// The user may not open this Realm.
        case permissionDeniedError = 9
    }

    /// `io.realm.sync`, Realm's `RLMSyncErrorDomain`.
    public static let errorDomain = "io.realm.sync"

    /// What kind of error this is.
    public let code: Code
    /// What happened, in words.
    public let message: String
    /// The sync protocol's error code the server sent (Realm's protocol
    /// codes, such as 206 for "permission denied" or 212 for "bad
    /// changeset"), when the error came from the server.
    public let serverCode: Int?
    /// For a client reset or a permission denied, what lets the app back
    /// up and delete the local copy at once
    /// (``SyncSession/immediatelyHandleError(_:)``); nil otherwise.
    public let actionToken: ActionToken?

    /// The backed-up local copy of a Realm the server can no longer sync
    /// with, and the way to make that happen now rather than at the next
    /// launch: Realm's `RLMSyncErrorActionToken`. Opaque to the app.
    public struct ActionToken: Sendable, Hashable {
        /// The Realm file.
        let originalPath: String
        /// Where the file goes.
        let backupPath: String
    }

    /// An error of kind `code`, with the server's protocol code when it
    /// sent one.
    public init(_ code: Code, _ message: String, serverCode: Int? = nil) {
        self.init(code, message, serverCode: serverCode, actionToken: nil)
    }

    init(_ code: Code, _ message: String, serverCode: Int?, actionToken: ActionToken?) {
        self.code = code
        self.message = message
        self.serverCode = serverCode
        self.actionToken = actionToken
    }

    /// For a client reset (``Code/clientResetError``): where the local copy
    /// of the Realm is backed up, and the token that does it now
    /// (``SyncSession/immediatelyHandleError(_:)``); nil for other errors.
    public func clientResetInfo() -> (String, ActionToken)? {
        guard code == .clientResetError, let actionToken else { return nil }
        return (actionToken.backupPath, actionToken)
    }

    /// For a permission denied (``Code/permissionDeniedError``) or a client
    /// reset: the token that backs up and deletes the local copy now; nil
    /// for other errors. The copy goes to a backup path under
    /// `io.realm.object-server-recovered-realms` in the sync root folder
    /// (`errorUserInfo[kRLMSyncPathOfRealmBackupCopyKey]`): nothing written
    /// locally is lost.
    public func deleteRealmUserInfo() -> ActionToken? {
        actionToken
    }

    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let serverCode { info["serverErrorCode"] = serverCode }
        if let actionToken {
            info[kRLMSyncErrorActionTokenKey] = actionToken
            info[kRLMSyncPathOfRealmBackupCopyKey] = actionToken.backupPath
        }
        return info
    }
    public var errorDescription: String? { message }
}

/// The key of ``SyncError``'s `errorUserInfo` under which a client reset
/// or a permission denied gives the backed-up copy's path, Realm's name.
public let kRLMSyncPathOfRealmBackupCopyKey = "recovered_realm_location_path"
/// The key of ``SyncError``'s `errorUserInfo` under which a client reset
/// or a permission denied gives its ``SyncError/ActionToken``.
public let kRLMSyncErrorActionTokenKey = "error_action_token"


/// An error of the authentication API: logging in, refreshing tokens,
/// changing passwords, asking about users. Realm's domain
/// `io.realm.sync.auth` and codes (`RLMSyncAuthError`).
public struct SyncAuthError: Error, CustomNSError, LocalizedError, Sendable, Equatable {
    /// Realm's authentication error codes.
    public enum Code: Int, Sendable {
        /// The server's answer could not be read.
        case badResponse = 1
        /// The Realm path is not valid.
        case badRemoteRealmPath = 2
        /// The server answered with an HTTP error that has no code of its
        /// own (its status is ``SyncAuthError/httpStatusCode``): too many
        /// attempts, a server error.
        case httpStatusCodeError = 3
        /// The server could not be reached, or did not answer in time.
        case clientSessionError = 4
        /// The request was refused as malformed, or named a provider the
        /// server does not enable.
        case invalidParameters = 601
        /// No Realm path was given.
        case missingPath = 602
        /// The credentials are wrong.
        case invalidCredential = 611
        /// No such user (logging in without registering, or asking about an
        /// unknown user).
        case userDoesNotExist = 612
        /// The username is taken.
        case userAlreadyExists = 613
        /// The caller may not do this (an admin API, a Realm of another user).
        case accessDeniedOrInvalidPath = 614
        /// The refresh or access token is no longer accepted: log in again.
        case invalidAccessToken = 615
        /// A permission offer has expired.
        case expiredPermissionOffer = 701
        /// A permission offer token matches several offers.
        case ambiguousPermissionOffer = 702
        /// The Realm cannot be shared.
        case fileCannotBeShared = 703
    }

    /// `io.realm.sync.auth`, Realm's `RLMSyncAuthErrorDomain`.
    public static let errorDomain = "io.realm.sync.auth"

    /// What kind of error this is.
    public let code: Code
    /// What happened, in words: the server's explanation when it gave one.
    public let message: String
    /// The HTTP status of the server's answer, when there was one.
    public let httpStatusCode: Int?

    /// An error of kind `code`, from an answer with `httpStatusCode`.
    public init(_ code: Code, _ message: String, httpStatusCode: Int? = nil) {
        self.code = code
        self.message = message
        self.httpStatusCode = httpStatusCode
    }

    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let httpStatusCode { info["statusCode"] = httpStatusCode }
        return info
    }
    public var errorDescription: String? { message }
}
