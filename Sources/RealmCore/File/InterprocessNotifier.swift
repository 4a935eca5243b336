internal import CStorage
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells the processes that have a Realm open about each other's commits,
/// without polling.
///
/// Each process has a named pipe of its own in the Realm's `.management/`
/// directory (`note-<pid>-<n>`), read by one thread that sleeps in `poll()`.
/// A process that commits writes one byte into every other process's pipe;
/// the byte wakes the reader, which reads the file's version and reports
/// it. A pipe whose process died has no reader: writing to it fails with
/// `ENXIO` (or, if it dies between the open and the write, with `EPIPE`,
/// never a SIGPIPE), and the writer removes it.
///
/// A wake-up can still be lost (a version read that keeps failing, a pipe
/// a writer removed by mistake), and the last one lost would leave the
/// listeners behind until some later commit. So the reader also looks at
/// the version once every ``safetyInterval`` without a wake-up: a lost
/// wake-up costs at most that delay, at the price of one cheap read a
/// second per process, which is not polling for changes.
final class InterprocessNotifier: Sendable {
    private let directory: String
    private let ownPipe: String
    private let readDescriptor: Int32
    /// Kept open so the pipe always has a writer: otherwise `poll()` would
    /// report end-of-file over and over once a writer closes it.
    private let keepAliveDescriptor: Int32
    private let wakeUp: (read: Int32, write: Int32)
    /// The other processes' pipes, as of the directory's modification time.
    private let peers = Mutex<(modified: (Int64, Int64)?, paths: [String])>((nil, []))

    /// Creates this process's pipe and starts the thread that waits on it;
    /// `onCommit` is called from that thread after another process commits.
    init?(realmPath: String, onCommit: @escaping @Sendable () -> Void) {
        directory = realmPath + ".management"
        ownPipe = directory + "/note-\(getpid())-\(Self.nextNumber())"
        guard mkfifo(ownPipe, 0o600) == 0 else { return nil }
        readDescriptor = open(ownPipe, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        keepAliveDescriptor = open(ownPipe, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        var pipeDescriptors: [Int32] = [0, 0]
        guard readDescriptor >= 0, keepAliveDescriptor >= 0, pipe(&pipeDescriptors) == 0 else {
            unlink(ownPipe)
            return nil
        }
        wakeUp = (pipeDescriptors[0], pipeDescriptors[1])
        let readDescriptor = self.readDescriptor
        let stop = wakeUp.read
        let thread = Thread {
            Self.wait(on: readDescriptor, stop: stop, onCommit: onCommit)
        }
        thread.name = "realm.notes"
        thread.start()
    }

    /// Stops the thread and removes the pipe.
    func close() {
        var byte: UInt8 = 1
        _ = write(wakeUp.write, &byte, 1)
        unlink(ownPipe)
    }

    /// Wakes every other process that has the Realm open.
    func notifyOthers() {
        for pipePath in otherPipes() {
            let descriptor = open(pipePath, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if descriptor < 0 {
                // No reader: its process is gone.
                if errno == ENXIO { unlink(pipePath) }
                continue
            }
            var byte: UInt8 = 1
            // A full pipe already holds a wake-up; nothing is lost. A reader
            // that died since the open fails the write with EPIPE (never a
            // SIGPIPE, which would end this process): its pipe goes.
            if cstorage_write_without_sigpipe(descriptor, &byte, 1) < 0 && errno == EPIPE { unlink(pipePath) }
            closeDescriptor(descriptor)
        }
    }

    /// The other processes' pipes. Listing the directory costs far more
    /// than the rest of a commit's notification, so the list is kept and
    /// read again when the directory's modification time says that a pipe
    /// came or went.
    ///
    /// The kernel stamps modifications with a coarse clock (a few
    /// milliseconds), so a pipe made just after a listing could carry the
    /// same stamp as the change before it; a listing is therefore kept only
    /// once the directory has been unchanged for a while, and any later
    /// change then shows as a newer stamp.
    private func otherPipes() -> [String] {
        var status = stat()
        guard stat(directory, &status) == 0 else { return [] }
        let modified = (Int64(status.st_mtim.tv_sec), Int64(status.st_mtim.tv_nsec))
        let cached = peers.withLock { peers -> [String]? in
            guard let known = peers.modified, known == modified else { return nil }
            return peers.paths
        }
        if let cached { return cached }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        let paths = names.filter { $0.hasPrefix("note-") }.map { directory + "/" + $0 }.filter { $0 != ownPipe }
        let settled = (Int64(now.tv_sec) - modified.0) * 1_000_000_000 + (Int64(now.tv_nsec) - modified.1) > 100_000_000
        peers.withLock { $0 = (settled ? modified : nil, paths) }
        return paths
    }

    /// The longest wait for a wake-up before the version is looked at
    /// anyway, in milliseconds.
    static let safetyInterval: Int32 = 1_000

    private static func wait(on descriptor: Int32, stop: Int32, onCommit: @Sendable () -> Void) {
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 2, safetyInterval)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || descriptors[1].revents != 0 { break }
            if ready == 0 {
                // No wake-up for a while: in case one was lost.
                onCommit()
            } else if descriptors[0].revents & Int16(POLLIN) != 0 {
                while read(descriptor, &buffer, buffer.count) > 0 {}
                onCommit()
            }
        }
        closeDescriptor(descriptor)
        closeDescriptor(stop)
    }

    private static let counter = Counter()

    private static func nextNumber() -> Int { counter.next() }

    private final class Counter: Sendable {
        private let value = Mutex(0)
        func next() -> Int { value.withLock { $0 += 1; return $0 } }
    }

    deinit {
        closeDescriptor(keepAliveDescriptor)
        closeDescriptor(wakeUp.write)
    }
}

import Synchronization

private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
