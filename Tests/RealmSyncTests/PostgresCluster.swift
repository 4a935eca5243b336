import Foundation

/// A throwaway PostgreSQL cluster for the tests: `initdb` in a temporary
/// folder, a free port on loopback, stopped (and its folder deleted) when
/// the test process exits. The server binaries come from Debian's
/// `postgresql` package (`Scripts/install-dependencies` installs it); as
/// root, they run as the `postgres` user, since PostgreSQL refuses to run
/// as root.
///
/// One cluster serves the whole process (``shared()``), each test taking a
/// database of its own (``makeDatabase()``): `initdb` costs seconds, and
/// every PostgreSQL program runs on a queue of its own, never on Swift's
/// concurrency pool, which the blocking waits would starve (on two cores,
/// five tests starting clusters at once stalled every other test for 90 s).
final class PostgresCluster: Sendable {
    let port: Int
    private let folder: URL
    private let binaries: URL

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The queue every PostgreSQL program of the tests runs on.
    private static let queue = DispatchQueue(label: "postgres-cluster")

    /// The process's cluster, started on first use; `Failure` when it
    /// cannot start, each time it is asked for.
    private static let started: Result<PostgresCluster, Failure> = {
        do {
            let cluster = try start()
            atexit { if case .success(let cluster) = PostgresCluster.started { cluster.stop() } }
            return .success(cluster)
        } catch let failure as Failure {
            return .failure(failure)
        } catch {
            return .failure(Failure(description: "\(error)"))
        }
    }()

    /// The process's cluster, started by the first caller.
    ///
    /// - Throws: ``Failure`` when PostgreSQL is not installed or does not
    ///   start, with its output.
    static func shared() async throws -> PostgresCluster {
        try await onQueue { try started.get() }
    }

    /// Makes a database of its own for a test and returns its URL.
    func makeDatabase() async throws -> String {
        try await Self.onQueue { try self.database() }
    }

    /// Makes the database `destination` (a URL of ``makeDatabase()``) a
    /// copy of `source`, as it is now; nothing may use either meanwhile
    /// (a stopped server's connections may take a moment to go).
    func copyDatabase(from source: String, to destination: String) async throws {
        let (from, to) = (String(source.split(separator: "/").last!), String(destination.split(separator: "/").last!))
        try await Self.onQueue {
            var attempts = 0
            while true {
                do {
                    try self.run("dropdb", ["-h", "127.0.0.1", "-p", "\(self.port)", "-U", "postgres", "--force", "--if-exists", to])
                    try self.run("createdb", ["-h", "127.0.0.1", "-p", "\(self.port)", "-U", "postgres", "-T", from, to])
                    return
                } catch {
                    attempts += 1
                    if attempts == 50 { throw error }
                    usleep(100_000)
                }
            }
        }
    }

    private static func onQueue<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }

    private static func start() throws -> PostgresCluster {
        let binaries = try serverBinaries()
        let folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("realm-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if getuid() == 0 {
            guard let account = getpwnam("postgres") else {
                throw Failure(description: "running as root, PostgreSQL needs the 'postgres' user, which Debian's package makes")
            }
            chown(folder.path, account.pointee.pw_uid, account.pointee.pw_gid)
        }
        let cluster = PostgresCluster(port: try freePort(), folder: folder, binaries: binaries)
        try cluster.run("initdb", ["-D", cluster.data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"])
        try cluster.run("pg_ctl", ["-D", cluster.data, "-l", folder.appendingPathComponent("log").path, "-w", "-o",
                                   "-p \(cluster.port) -k \(folder.path) -c listen_addresses=127.0.0.1", "start"])
        return cluster
    }

    private init(port: Int, folder: URL, binaries: URL) {
        self.port = port
        self.folder = folder
        self.binaries = binaries
    }

    private var data: String { folder.appendingPathComponent("data").path }

    private func database(_ name: String = "realm_\(UUID().uuidString.prefix(8).lowercased())") throws -> String {
        try run("createdb", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", name])
        return "postgres://postgres@127.0.0.1:\(port)/\(name)"
    }

    /// Stops the cluster at once and deletes its folder.
    private func stop() {
        try? run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs one of the server's programs (as `postgres` when root) and
    /// waits for it.
    ///
    /// Spawned and reaped directly: Foundation's `Process` did not see
    /// `pg_ctl start`'s `runuser` end (it stayed a zombie), and its output
    /// goes to a file, since the server it starts inherits the descriptor.
    private func run(_ program: String, _ arguments: [String]) throws {
        let path = binaries.appendingPathComponent(program).path
        let command = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", path] + arguments : [path] + arguments
        let transcript = folder.appendingPathComponent("\(program).out").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, transcript, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, &argv, environ)
        guard spawned == 0 else { throw Failure(description: "\(program) cannot start: \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw Failure(description: "\(program): waitpid failed: \(errno)") }
        }
        let exited = status & 0x7f == 0
        let code = (status >> 8) & 0xff
        guard exited, code == 0 else {
            let printed = (try? String(contentsOfFile: transcript, encoding: .utf8)) ?? ""
            throw Failure(description: "\(program) failed (status \(status)): \(printed)")
        }
    }

    /// The folder of the newest PostgreSQL server installed.
    private static func serverBinaries() throws -> URL {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        let newest = versions.compactMap { Int($0) }.sorted().last(where: {
            FileManager.default.isExecutableFile(atPath: root.appendingPathComponent("\($0)/bin/initdb").path)
        })
        guard let newest else {
            throw Failure(description: "PostgreSQL's server is not installed (no /usr/lib/postgresql/*/bin/initdb): run Scripts/install-dependencies")
        }
        return root.appendingPathComponent("\(newest)/bin")
    }

    /// A port nothing listens on now.
    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "no socket: \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw Failure(description: "no free port: \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
