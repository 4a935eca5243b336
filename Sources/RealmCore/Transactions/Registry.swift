import Foundation
import Synchronization

/// The process-wide table of live coordinators, one per file: opening a file
/// that already has one returns it.
final class Registry: Sendable {
    static let shared = Registry()

    private struct Entry {
        weak var coordinator: Coordinator?
    }

    private let entries = Mutex<[String: Entry]>([:])
    /// Numbers the files of in-memory Realms, so that a Realm opened again
    /// after its last user went away gets a new, empty file even while the
    /// old coordinator is still deleting its own.
    private let inMemoryCounter = Mutex<Int>(0)

    func coordinator(for configuration: Coordinator.Configuration) throws(RealmError) -> Coordinator {
        let key: String
        switch configuration.location {
        case .file(let path): key = URL(fileURLWithPath: path).standardizedFileURL.path
        case .inMemory(let identifier): key = "memory:" + identifier
        }
        // Opening holds the registry lock: two threads opening one new file
        // at once must not both lay it out, and opens are rare.
        return try entries.withLock { entries throws(RealmError) -> Coordinator in
            if let existing = entries[key]?.coordinator {
                guard existing.configuration.isReadOnly == configuration.isReadOnly else {
                    throw RealmError(
                        .fileAccess,
                        "The Realm at '\(existing.path)' is already open \(existing.configuration.isReadOnly ? "read-only" : "read-write") in this process and cannot also be opened \(configuration.isReadOnly ? "read-only" : "read-write").")
                }
                guard existing.configuration.encryptionKey == configuration.encryptionKey else {
                    throw RealmError(
                        .fileAccess,
                        "The Realm at '\(existing.path)' is already open in this process with \(existing.configuration.encryptionKey == nil ? "no" : "a different") encryption key.")
                }
                return existing
            }
            let coordinator: Coordinator
            switch configuration.location {
            case .file:
                coordinator = try Coordinator(configuration: configuration, path: key, isInMemory: false)
            case .inMemory(let identifier):
                let number = inMemoryCounter.withLock { counter in
                    counter += 1
                    return counter
                }
                let path = try Self.inMemoryDirectory() + "/" + Self.fileName(for: identifier) + "-\(number).realm"
                coordinator = try Coordinator(configuration: configuration, path: path, isInMemory: true)
            }
            // Drop entries whose coordinators are gone. (A coordinator's
            // deinit never takes this lock, so releasing one here is safe.)
            entries = entries.filter { $0.value.coordinator != nil }
            entries[key] = Entry(coordinator: coordinator)
            return coordinator
        }
    }

    /// A directory private to this process for in-memory Realms' files; the
    /// directories of processes that died are removed on the way.
    private static func inMemoryDirectory() throws(RealmError) -> String {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") && access("/dev/shm", W_OK) == 0
            ? "/dev/shm" : NSTemporaryDirectory()
        let prefix = "realm-memory-"
        let directory = (base as NSString).appendingPathComponent(prefix + String(getpid()))
        if !FileManager.default.fileExists(atPath: directory) {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] where name.hasPrefix(prefix) {
                if let pid = Int32(name.dropFirst(prefix.count)), kill(pid, 0) != 0 && errno == ESRCH {
                    try? FileManager.default.removeItem(atPath: (base as NSString).appendingPathComponent(name))
                }
            }
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw RealmError(.fileAccess, "Unable to create the directory '\(directory)' for in-memory Realms: \(error.localizedDescription)")
            }
        }
        return directory
    }

    /// A file name that stands for `identifier` one to one: its UTF-8 bytes
    /// in hex, shortened with a hash when too long for a file name.
    private static func fileName(for identifier: String) -> String {
        let hex = identifier.utf8.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        guard hex.count > 160 else { return "m" + hex }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in identifier.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return "m" + hex.prefix(120) + "-" + String(hash, radix: 16) + "-" + String(identifier.utf8.count)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
