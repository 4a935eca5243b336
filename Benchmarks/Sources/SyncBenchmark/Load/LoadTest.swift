import Foundation
import RealmSync

/// The sync server under load (issue 37), bounded in clients and time,
/// on loopback only:
///
///   realm-sync-benchmark load --database postgres://… [--processes 2] [--clients 1000] [--realms 100]
///                             [--seconds 30] [--interval-ms 1000]
///   realm-sync-benchmark load [--database …] --history 1000000 [--objects 100]
///
/// The first starts `--processes` server processes (children of this
/// one) on the database and `--clients` simulated clients (``LoadClient``),
/// spread over `--realms` Realms, each Realm's clients over the processes
/// in turn, as a load balancer would; each client writes every `--interval-ms` (at a
/// random phase) for `--seconds`. It reports the change latency from one
/// client to the others of its Realm (median and p99), the latency of an
/// acknowledgement, the changesets integrated per second, the servers'
/// memory per session, and PostgreSQL's CPU time and commits.
///
/// The second updates `--objects` objects (100) `--history` times in all
/// (100 updates to a changeset) through one client, then reports the server's history
/// against its data: the bounded-history measure. `Scripts/load-test`
/// starts a throwaway PostgreSQL cluster and runs both.
enum LoadTest {
    static func run(arguments: [String]) async throws {
        func value(_ name: String) -> String? { arguments.firstIndex(of: name).map { arguments[$0 + 1] } }
        let database = value("--database")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("realm-sync-load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        SyncManager.shared.rootDirectory = scratch.appendingPathComponent("client")
        SyncManager.shared.logLevel = .off
        if let updates = value("--history").flatMap(Int.init) {
            try await HistoryBound.run(updates: updates, objects: value("--objects").flatMap(Int.init) ?? 100, database: database,
                                       scratch: scratch)
            return
        }
        let processes = value("--processes").flatMap(Int.init) ?? 1
        let clientCount = value("--clients").flatMap(Int.init) ?? 1_000
        let realms = value("--realms").flatMap(Int.init) ?? 100
        let seconds = value("--seconds").flatMap(Double.init) ?? 30
        let interval = value("--interval-ms").flatMap(Int.init) ?? 1_000
        // Mostly idle sessions: no first write for every client before
        // the measure (a client's first write, if its phase comes, makes
        // its object).
        let idle = arguments.contains("--idle")

        let servers = try (0..<processes).map { index in
            try ServerProcess.start(data: scratch.appendingPathComponent("server-\(index)"), database: database)
        }
        defer { for server in servers { server.stop() } }
        let user = try await SyncUser.logIn(with: .usernamePassword(username: "load", password: "password", register: true),
                                            server: URL(string: "http://127.0.0.1:\(servers[0].port)")!)
        let token = try await user.accessToken()
        let baseline = servers.map(\.residentBytes)

        // Bind every client, then let the servers settle: their growth is
        // what the sessions cost them.
        // The clients of a Realm take turns among the processes, as behind
        // a load balancer: each change reaches clients of every process.
        let processOf: @Sendable (Int) -> Int = { number in (number / realms) % processes }
        let clients = (0..<clientCount).map { number in
            LoadClient(number: number, path: "/load/realm-\(number % realms)", port: servers[processOf(number)].port, accessToken: token,
                       processOf: processOf)
        }
        let bindStart = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in clients { group.addTask { await client.run() } }
            try await waitUntil("every client bound", seconds: 120, clients) { $0.bound }
            let bindSeconds = (ContinuousClock.now - bindStart) / .seconds(1)
            // Each client's first write declares the class and makes its
            // object; then the figures start afresh.
            try await Task.sleep(for: .seconds(2))
            let perSession = zip(servers.map(\.residentBytes), baseline).map { $0 - $1 }.reduce(0, +) / clientCount
            if !idle {
                for client in clients { client.write() }
                try await waitUntil("every client's first write acknowledged", seconds: 120, clients) { $0.acknowledged >= 1 }
                try await Task.sleep(for: .seconds(1))
            }
            for client in clients { client.figures.withLock { $0.latencies = []; $0.latenciesFromOtherProcesses = []; $0.acknowledgements = [] } }

            let before = database.map { PostgresLoad.read(database: $0) }
            let acknowledgedBefore = clients.reduce(0) { $0 + Int($1.figures.withLock { $0.acknowledged }) }
            let start = ContinuousClock.now
            var writes = 0
            // Each client at its own phase in the interval.
            let phases = clients.map { _ in Int.random(in: 0..<interval) }
            let order = clients.indices.sorted { phases[$0] < phases[$1] }
            var round = 0
            while (ContinuousClock.now - start) / .seconds(1) < seconds {
                let roundStart = start + .milliseconds(round * interval)
                for index in order {
                    try await Task.sleep(until: roundStart + .milliseconds(phases[index]), clock: .continuous)
                    clients[index].write()
                    writes += 1
                }
                round += 1
            }
            let sent = writes
            try await waitUntil("the last writes acknowledged", seconds: 60, clients) { $0.acknowledged >= $0.written }
            let elapsed = (ContinuousClock.now - start) / .seconds(1)
            let after = database.map { PostgresLoad.read(database: $0) }
            // The last downloads arrive.
            try await Task.sleep(for: .seconds(1))
            let acknowledged = clients.reduce(0) { $0 + Int($1.figures.withLock { $0.acknowledged }) } - acknowledgedBefore
            let latencies = clients.flatMap { $0.figures.withLock { $0.latencies } }.sorted()
            let crossing = clients.flatMap { $0.figures.withLock { $0.latenciesFromOtherProcesses } }.sorted()
            let acknowledgements = clients.flatMap { $0.figures.withLock { $0.acknowledgements } }.sorted()
            if let failure = clients.lazy.compactMap({ $0.figures.withLock { $0.failure } }).first { throw LoadFailure(reason: failure) }
            group.cancelAll()

            func ms(_ nanoseconds: Int) -> String { String(format: "%.1f ms", Double(nanoseconds) / 1e6) }
            func percentile(_ values: [Int], _ p: Double) -> Int {
                values.isEmpty ? 0 : values[min(values.count - 1, Int((Double(values.count - 1) * p).rounded()))]
            }
            report("# Load: \(clientCount) \(idle ? "mostly idle " : "")clients on \(realms) Realms, \(processes) server process\(processes == 1 ? "" : "es")"
                   + " on \(database == nil ? "the embedded store" : "PostgreSQL"), a write per client every \(interval) ms for \(Int(seconds)) s\n")
            report("| measure | result |")
            report("|---|---:|")
            report("| clients bound | \(clientCount) in \(String(format: "%.1f", bindSeconds)) s |")
            report("| writes sent, acknowledged | \(sent), \(acknowledged) |")
            report("| integrated per second | \(String(format: "%.0f", Double(acknowledged) / elapsed)) changesets/s |")
            report("| change → other clients of its Realm on its process, median (\(latencies.count) deliveries) | \(ms(percentile(latencies, 0.5))) |")
            report("| same, p99 | \(ms(percentile(latencies, 0.99))) |")
            if !crossing.isEmpty {
                report("| change → clients of its Realm on another process, median (\(crossing.count) deliveries) | \(ms(percentile(crossing, 0.5))) |")
                report("| same, p99 | \(ms(percentile(crossing, 0.99))) |")
            }
            report("| upload → acknowledgement, median / p99 | \(ms(percentile(acknowledgements, 0.5))) / \(ms(percentile(acknowledgements, 0.99))) |")
            report("| server memory per session (resident, all processes) | \(String(format: "%.1f", Double(perSession) / 1024)) KB |")
            if let before, let after {
                report("| PostgreSQL CPU | \(String(format: "%.2f", (after.cpuSeconds - before.cpuSeconds) / elapsed)) cores |")
                report("| PostgreSQL commits per second | \(String(format: "%.0f", Double(after.commits - before.commits) / elapsed)) |")
                report("| PostgreSQL rows inserted per second | \(String(format: "%.0f", Double(after.rowsInserted - before.rowsInserted) / elapsed)) |")
            }
        }
    }

    /// Waits until every client's figures satisfy `condition`, or a client
    /// failed.
    static func waitUntil(_ what: String, seconds: Double, _ clients: [LoadClient],
                          _ condition: (LoadClient.Figures) -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            let figures = clients.map { $0.figures.withLock { $0 } }
            if let failure = figures.lazy.compactMap(\.failure).first { throw LoadFailure(reason: failure) }
            if figures.allSatisfy(condition) { return }
            guard ContinuousClock.now < deadline else {
                throw LoadFailure(reason: "\(what): not within \(Int(seconds)) s (\(figures.filter(condition).count) of \(clients.count))")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
