import RealmSyncWire

/// Why the server ends a session (or a connection): the protocol's error
/// code, a message for the client's error handler, and whether binding
/// again may help.
struct SessionError: Error, CustomStringConvertible {
    let code: SyncProtocolError
    let message: String
    let tryAgain: Bool

    init(_ code: SyncProtocolError, _ message: String, tryAgain: Bool = false) {
        self.code = code
        self.message = message
        self.tryAgain = tryAgain
    }

    var description: String { "\(code) (\(code.rawValue)): \(message)" }
}
