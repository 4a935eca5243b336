import Foundation
import Synchronization

/// An exclusive lock on a server's data folder (`server.lock`, with
/// `flock`), held from the server's creation until it stops: a second
/// server started on the same folder is refused at once instead of sharing
/// the embedded store and the token secret. The system drops the lock when
/// the process ends, however it ends.
final class DataDirectoryLock: Sendable {
    /// The locked file's descriptor, or -1 once released.
    private let descriptor: Mutex<Int32>

    init(_ directory: URL) throws {
        let path = directory.appendingPathComponent("server.lock").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw SyncServer.Error.configuration("cannot open '\(path)': \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw SyncServer.Error.configuration("another server is using the data folder '\(directory.path)'")
        }
        self.descriptor = Mutex(descriptor)
    }

    /// Lets another server use the folder. Idempotent.
    func release() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            flock(descriptor, LOCK_UN)
            close(descriptor)
            descriptor = -1
        }
    }

    deinit {
        release()
    }
}
