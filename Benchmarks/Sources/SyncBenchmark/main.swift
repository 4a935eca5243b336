// The sync benchmark (issue 19): a server and clients in this process on
// loopback, measuring what a user of synced Realms waits for.
//
//   swift run -c release --package-path Benchmarks realm-sync-benchmark [--quick]
//
// - latency: from a commit on one client to the collection notification
//   on another (median and p99 over the changes);
// - upload: objects per second from the first write until the server has
//   acknowledged them all, in transactions of 1,000 and of 1;
// - async open: a new client opening the Realm of those objects with
//   `Realm.asyncOpen`, which downloads them all first.
//
// Goals: median latency under 20 ms, p99 under 100 ms, async open of
// 100,000 small objects under 5 s.

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

let quick = CommandLine.arguments.contains("--quick")
let latencyChanges = quick ? 100 : 500
let bulkObjects = quick ? 20_000 : 100_000
let singleObjects = quick ? 500 : 2_000

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

// MARK: Latency

let writer = try await user("writer")
let reader = try await user("reader")
let latencyPath = "/bench/latency"
let writerQueue = DispatchQueue(label: "writer")
let readerQueue = DispatchQueue(label: "reader")
let writerConfig = configuration(writer, latencyPath)
let readerConfig = configuration(reader, latencyPath)
_ = try await onQueue(writerQueue) { _ = try Realm(configuration: writerConfig) }
let received = Mutex<[Int]>([])
let initial = DispatchSemaphore(value: 0)
let token = try await onQueue(readerQueue) {
    let realm = try Realm(configuration: readerConfig, queue: readerQueue)
    let results = realm.objects(BenchItem.self)
    return UncheckedToken(results.observe(on: readerQueue) { change in
        switch change {
        case .initial: initial.signal()
        case .update(let results, _, let insertions, _):
            let arrived = now()
            received.withLock { received in
                for index in insertions { received.append(arrived - results[index].sentAt) }
            }
        case .error(let error): fatalError("\(error)")
        }
    })
}
initial.wait()
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
token.value.invalidate()
let latencies = received.withLock { $0 }.map(milliseconds).sorted()
report("| measure | result | goal |")
report("|---|---:|---:|")
report(String(format: "| change → notification on another client, median (%d changes) | %.1f ms | < 20 ms |", latencies.count, percentile(latencies, 0.5)))
report(String(format: "| change → notification on another client, p99 | %.1f ms | < 100 ms |", percentile(latencies, 0.99)))

// MARK: Upload throughput

let bulkPath = "/bench/bulk"
let bulkConfig = configuration(writer, bulkPath)
_ = try await onQueue(writerQueue) { _ = try Realm(configuration: bulkConfig) }
var start = now()
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
report(String(format: "| upload, %d objects in transactions of 1,000 | %.0f objects/s (%.2f s) | |", bulkObjects, Double(bulkObjects) / bulkSeconds, bulkSeconds))

let singlePath = "/bench/single"
let singleConfig = configuration(writer, singlePath)
_ = try await onQueue(writerQueue) { _ = try Realm(configuration: singleConfig) }
start = now()
try await onQueue(writerQueue) {
    let realm = try Realm(configuration: singleConfig)
    for id in 0..<singleObjects {
        try realm.write { realm.add(BenchItem(value: ["id": id, "name": "item \(id)", "value": id])) }
    }
}
try await session(writer, singlePath).waitForUpload()
let singleSeconds = Double(now() - start) / 1e9
report(String(format: "| upload, %d objects one per transaction | %.0f objects/s (%.2f s) | |", singleObjects, Double(singleObjects) / singleSeconds, singleSeconds))

// MARK: Async open

let newcomer = try await user("newcomer")
let openConfig = configuration(newcomer, bulkPath)
start = now()
let count: Int = try await withCheckedThrowingContinuation { continuation in
    Realm.asyncOpen(configuration: openConfig, callbackQueue: readerQueue) { result in
        continuation.resume(with: result.map { $0.objects(BenchItem.self).count })
    }
}
let openSeconds = Double(now() - start) / 1e9
precondition(count == bulkObjects, "async open brought \(count) objects of \(bulkObjects)")
report(String(format: "| async open of %d small objects (new client) | %.2f s | < 5 s |", bulkObjects, openSeconds))

await server.stop()

/// A notification token carried out of the queue it was made on (it is
/// only invalidated, which any thread may do).
struct UncheckedToken: @unchecked Sendable {
    let value: NotificationToken
    init(_ value: NotificationToken) { self.value = value }
}
