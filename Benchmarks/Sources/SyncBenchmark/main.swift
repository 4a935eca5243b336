// The sync benchmark (issues 19 and 34): a server and clients on loopback,
// measuring what a user of synced Realms waits for.
//
//   swift run -c release --package-path Benchmarks realm-sync-benchmark [--quick] [--only latency|upload|single|open|idle|query]
//   realm-sync-benchmark load …   (the load test on server processes: Load/LoadTest.swift, Scripts/load-test)
//
// - latency: from a commit on one client to the collection notification
//   on another (median and p99 over the changes);
// - upload: objects per second from the first write until the server has
//   acknowledged them all, in transactions of 1,000 and of 1;
// - async open: a new client, in a process of its own, opening a Realm of
//   100,000 and of 1,000,000 objects with `Realm.asyncOpen` (time, and the
//   growth of its resident memory);
// - idle sessions: 10,000 sessions bound by raw protocol clients, 250 to a
//   connection, and the server's memory per session;
// - query-based sync: a new query-based client subscribing to 1% of a
//   Realm of 100,000 objects (until the subscription is complete), then
//   the latency of changes entering its view.
//
// Goals (issue 34): median ≤ 2 ms, p99 ≤ 10 ms, upload ≥ 50,000 objects/s,
// async open of 100,000 objects ≤ 1 s and of 1,000,000 ≤ 10 s with flat
// memory, 10,000 idle sessions on one server.

import Dispatch
import Foundation
import RealmObjects
import RealmSync
import RealmSyncServer
import Synchronization

final class BenchItem: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var value = 0
    /// When the writer committed it, in nanoseconds of the monotonic clock.
    @Persisted var sentAt = 0
}

switch CommandLine.arguments.dropFirst().first {
case "open-child":
    try await OpenInChild.run(arguments: Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
case "serve":
    try await ServerProcess.serve(arguments: Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
case "load":
    do {
        try await LoadTest.run(arguments: Array(CommandLine.arguments.dropFirst(2)))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("load test failed: \(error)\n".utf8))
        exit(1)
    }
default:
    break
}

let quick = CommandLine.arguments.contains("--quick")
/// The one measure to run (`--only NAME`), for a profiler.
let only = CommandLine.arguments.firstIndex(of: "--only").map { CommandLine.arguments[$0 + 1] }
func measures(_ name: String) -> Bool { only == nil || only == name }
let latencyChanges = quick ? 100 : 500
let bulkObjects = quick ? 20_000 : 100_000
let singleObjects = quick ? 500 : 2_000
let openSizes = quick ? [20_000, 200_000] : [100_000, 1_000_000]
let idleSessions = quick ? 1_000 : 10_000

/// Writes a line at once (print buffers when the output is a pipe or a
/// file, and a run cut short would lose it).
func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func now() -> Int { Int(DispatchTime.now().uptimeNanoseconds) }

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

func milliseconds(_ nanoseconds: Int) -> Double { Double(nanoseconds) / 1e6 }

let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("realm-sync-benchmark-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: scratch) }
SyncManager.shared.rootDirectory = scratch.appendingPathComponent("client")
let tracing = ProcessInfo.processInfo.environment["REALM_SYNC_BENCH_LOG"] != nil
SyncManager.shared.logLevel = tracing ? .all : .off

var serverConfiguration = SyncServer.Configuration(dataDirectory: scratch.appendingPathComponent("server"))
serverConfiguration.port = 0
serverConfiguration.passwordHashCost = 4
serverConfiguration.logLevel = tracing ? .trace : .error
let server = try await SyncServer(configuration: serverConfiguration)
try await server.start()
let port = server.port!

func user(_ name: String) async throws -> SyncUser {
    try await SyncUser.logIn(with: .usernamePassword(username: name, password: "password", register: true), server: server.url!)
}

func configuration(_ user: SyncUser, _ path: String) -> Realm.Configuration {
    Realm.Configuration(syncConfiguration: SyncConfiguration(user: user, realmURL: URL(string: "realm://127.0.0.1:\(port)\(path)")!),
                        objectTypes: [BenchItem.self])
}

func session(_ user: SyncUser, _ path: String) -> SyncSession {
    user.session(for: URL(string: "realm://127.0.0.1:\(port)\(path)")!)!
}

/// Runs `body` on a queue of its own, where a Realm may live.
func onQueue<T: Sendable>(_ queue: DispatchQueue, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        queue.async { continuation.resume(with: Result { try body() }) }
    }
}

report("# Sync benchmark (\(quick ? "quick" : "full"), release build, loopback, one process)\n")

let writer = try await user("writer")
let reader = try await user("reader")
let writerQueue = DispatchQueue(label: "writer")
let readerQueue = DispatchQueue(label: "reader")
report("| measure | result | goal |")
report("|---|---:|---:|")

// MARK: Idle sessions

// First, while the process's heap holds little but the server: the growth
// of its resident size is the sessions'.

if measures("idle") {
    let outcome = try await IdleSessions.measure(port: port, accessToken: try await writer.accessToken(), count: idleSessions,
                                                 perConnection: 250, realms: 100)
    report(String(format: "| %d idle sessions on one server (%d connections, 100 Realms): memory per session | %.1f KB (bound in %.1f s) | reported |",
                  outcome.sessions, outcome.connections, outcome.bytesPerSession / 1024, outcome.secondsToBind))
}

// MARK: Latency

if measures("latency") {
let latencyPath = "/bench/latency"
let writerConfig = configuration(writer, latencyPath)
let readerConfig = configuration(reader, latencyPath)
_ = try await onQueue(writerQueue) { _ = try Realm(configuration: writerConfig) }
let arrivals = try await Arrivals.watch(readerConfig, on: readerQueue)
try await session(reader, latencyPath).waitForDownload()
for id in 1...latencyChanges {
    try await onQueue(writerQueue) {
        let realm = try Realm(configuration: writerConfig)
        try realm.write { realm.add(BenchItem(value: ["id": id, "name": "item \(id)", "value": id, "sentAt": now()])) }
    }
    try await Task.sleep(for: .milliseconds(10))
}
try await session(writer, latencyPath).waitForUpload()
try await session(reader, latencyPath).waitForDownload()
try await Task.sleep(for: .milliseconds(200))
let latencies = arrivals.stop().map(milliseconds).sorted()
report(String(format: "| change → notification on another client, median (%d changes) | %.1f ms | ≤ 2 ms |", latencies.count, percentile(latencies, 0.5)))
report(String(format: "| change → notification on another client, p99 | %.1f ms | ≤ 10 ms |", percentile(latencies, 0.99)))

}

// MARK: Upload throughput

let bulkPath = "/bench/bulk"
if measures("upload") {
let bulkConfig = configuration(writer, bulkPath)
_ = try await onQueue(writerQueue) { _ = try Realm(configuration: bulkConfig) }
let start = now()
for batch in 0..<(bulkObjects / 1_000) {
    try await onQueue(writerQueue) {
        let realm = try Realm(configuration: bulkConfig)
        try realm.write {
            for offset in 0..<1_000 {
                let id = batch * 1_000 + offset
                realm.add(BenchItem(value: ["id": id, "name": "item \(id)", "value": id]))
            }
        }
    }
}
try await session(writer, bulkPath).waitForUpload()
let bulkSeconds = Double(now() - start) / 1e9
report(String(format: "| upload, %d objects in transactions of 1,000 | %.0f objects/s (%.2f s) | ≥ 50,000 objects/s |", bulkObjects, Double(bulkObjects) / bulkSeconds, bulkSeconds))

}

if measures("single") {
let singlePath = "/bench/single"
let singleConfig = configuration(writer, singlePath)
_ = try await onQueue(writerQueue) { _ = try Realm(configuration: singleConfig) }
let start = now()
try await onQueue(writerQueue) {
    let realm = try Realm(configuration: singleConfig)
    for id in 0..<singleObjects {
        try realm.write { realm.add(BenchItem(value: ["id": id, "name": "item \(id)", "value": id])) }
    }
}
try await session(writer, singlePath).waitForUpload()
let singleSeconds = Double(now() - start) / 1e9
report(String(format: "| upload, %d objects one per transaction | %.0f objects/s (%.2f s) | |", singleObjects, Double(singleObjects) / singleSeconds, singleSeconds))

}

// MARK: Async open

/// Writes `count` objects to `path` in transactions of 10,000 and waits
/// until the server has them all.
func populate(_ path: String, count: Int) async throws {
    let config = configuration(writer, path)
    for batch in stride(from: 0, to: count, by: 10_000) {
        try await onQueue(writerQueue) {
            let realm = try Realm(configuration: config)
            try realm.write {
                for id in batch..<min(count, batch + 10_000) {
                    realm.create(BenchItem.self, value: ["id": id, "name": "item \(id)", "value": id])
                }
            }
        }
    }
    try await session(writer, path).waitForUpload()
}

if measures("open") {
    for (index, count) in openSizes.enumerated() {
        let path = "/bench/open-\(count)"
        try await populate(path, count: count)
        let child = try OpenInChild.measure(server: server.url!, realm: URL(string: "realm://127.0.0.1:\(port)\(path)")!,
                                            scratch: scratch.appendingPathComponent("open-child-\(count)"))
        precondition(child.objects == count, "async open brought \(child.objects) objects of \(count)")
        report(String(format: "| async open of %d small objects (new client, own process) | %.2f s, peak memory +%.0f MB | %@ |",
                      count, child.seconds, Double(child.peakBytes) / 1e6, index == 0 ? "≤ 1 s" : "≤ 10 s, memory as above"))
    }
}

// MARK: Query-based sync

if measures("query") {
    let path = "/bench/query"
    try await populate(path, count: bulkObjects)
    let partialUser = try await user("partial-reader")
    let partialConfig = Realm.Configuration(
        syncConfiguration: SyncConfiguration(user: partialUser, realmURL: URL(string: "realm://127.0.0.1:\(port)\(path)")!, isPartial: true),
        objectTypes: [BenchItem.self])
    let partialQueue = DispatchQueue(label: "partial")
    let viewSize = bulkObjects / 100
    let start = now()
    try await onQueue(partialQueue) {
        let realm = try Realm(configuration: partialConfig)
        _ = realm.objects(BenchItem.self).filter("id < %d OR id >= %d", viewSize, 1_000_000).subscribe(named: "view")
    }
    while try await onQueue(partialQueue, { try Realm(configuration: partialConfig).subscription(named: "view")?.state != .complete }) {
        try await Task.sleep(for: .milliseconds(1))
    }
    let subscribed = Double(now() - start) / 1e9
    let held = try await onQueue(partialQueue) { try Realm(configuration: partialConfig).objects(BenchItem.self).count }
    precondition(held == viewSize, "the view holds \(held) objects, not \(viewSize)")
    report(String(format: "| query-based client: subscription to %d of %d objects, until complete (new client) | %.2f s | |",
                  viewSize, bulkObjects, subscribed))

    // A change entering the view: from the writer's commit to the
    // notification on the query-based client.
    let writerConfig = configuration(writer, path)
    let arrivals = try await Arrivals.watch(partialConfig, on: partialQueue)
    for change in 0..<latencyChanges {
        try await onQueue(writerQueue) {
            let realm = try Realm(configuration: writerConfig)
            try realm.write {
                // One object into the view, one out of it.
                realm.add(BenchItem(value: ["id": 1_000_000 + change, "name": "new \(change)", "sentAt": now()]))
                realm.add(BenchItem(value: ["id": 500_000 + change, "name": "elsewhere \(change)"]))
            }
        }
        try await Task.sleep(for: .milliseconds(10))
    }
    try await session(writer, path).waitForUpload()
    try await session(partialUser, path).waitForDownload()
    try await Task.sleep(for: .milliseconds(200))
    let latencies = arrivals.stop().map(milliseconds).sorted()
    precondition(latencies.count == latencyChanges, "\(latencies.count) of \(latencyChanges) changes reached the query-based client")
    report(String(format: "| query-based client of %d objects: change → notification, median (%d changes) | %.1f ms | |",
                  bulkObjects + 2 * latencyChanges, latencies.count, percentile(latencies, 0.5)))
    report(String(format: "| same, p99 | %.1f ms | |", percentile(latencies, 0.99)))
    if tracing || ProcessInfo.processInfo.environment["REALM_SYNC_BENCH_PERCENTILES"] != nil {
        report("percentiles 50/90/95/98/99/max: " + [0.5, 0.9, 0.95, 0.98, 0.99, 1].map { String(format: "%.1f", percentile(latencies, $0)) }.joined(separator: " "))
    }
}

await server.stop()

/// A notification token carried out of the queue it was made on (it is
/// only invalidated, which any thread may do).
struct UncheckedToken: @unchecked Sendable {
    let value: NotificationToken
    init(_ value: NotificationToken) { self.value = value }
}

/// The delay of each object inserted into a Realm, from its `sentAt` (the
/// writer's commit) to the collection notification that shows it.
final class Arrivals: Sendable {
    private let received = Mutex<[Int]>([])
    private let token = Mutex<UncheckedToken?>(nil)

    /// Starts watching the objects of `configuration`'s Realm on `queue`,
    /// once their first notification has come.
    static func watch(_ configuration: Realm.Configuration, on queue: DispatchQueue) async throws -> Arrivals {
        let arrivals = Arrivals()
        let initial = DispatchSemaphore(value: 0)
        let token = try await onQueue(queue) {
            let realm = try Realm(configuration: configuration, queue: queue)
            return UncheckedToken(realm.objects(BenchItem.self).observe(on: queue) { change in
                switch change {
                case .initial: initial.signal()
                case .update(let results, _, let insertions, _):
                    let arrived = now()
                    arrivals.received.withLock { received in
                        for index in insertions { received.append(arrived - results[index].sentAt) }
                    }
                case .error(let error): fatalError("\(error)")
                }
            })
        }
        arrivals.token.withLock { $0 = token }
        initial.wait()
        return arrivals
    }

    /// Stops watching; returns the delays, in nanoseconds.
    func stop() -> [Int] {
        token.withLock { $0 }?.value.invalidate()
        return received.withLock { $0 }
    }
}
