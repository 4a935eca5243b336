import Foundation

/// Where damage found in a file while reading is logged: standard error,
/// once per file per process, so that a damaged file read in a loop does not
/// flood the log. The error itself reaches the caller at the next throwing
/// call of the Realm that read it.
package final class DamageLog: @unchecked Sendable {
    package static let shared = DamageLog()

    private let lock = NSLock()
    private var loggedPaths: Set<String> = []

    /// Logs `error` unless damage in `path` was logged already. Paths are
    /// standardized, so that the storage engine's path and a configuration's
    /// spelling of the same file log once.
    package func log(_ error: RealmError, for path: String) {
        let file = URL(fileURLWithPath: path).standardizedFileURL.path
        lock.lock()
        let isFirst = loggedPaths.insert(file).inserted
        lock.unlock()
        guard isFirst else { return }
        FileHandle.standardError.write(Data("Realm: damage found in '\(path)': \(error.message)\n".utf8))
    }
}
