// Notification figures: commit-to-callback latency for an observer on
// another thread (median and 99th percentile over 1,000 commits), and the
// cost of computing a collection change for a 100,000-object sorted,
// filtered Results after a one-object commit.

import Foundation
import RealmObjects

final class Item: Object {
    @Persisted var value = 0
    @Persisted var group = 0
}

final class Clock: @unchecked Sendable {
    // @unchecked: written by the observer thread before it signals, read
    // by the writer after it waits.
    var delivered: UInt64 = 0
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("realm-notify-bench-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let configuration = Realm.Configuration(fileURL: directory.appendingPathComponent("latency.realm"), objectTypes: [Item.self])

// 1. Latency: the observer thread runs its run loop; the writer commits one
// object, waits for the callback, and repeats.
let commits = CommandLine.arguments.contains("--quick") ? 200 : 1_000
let clock = Clock()
let delivered = DispatchSemaphore(value: 0)
let ready = DispatchSemaphore(value: 0)
let observer = Thread {
    let realm = try! Realm(configuration: configuration)
    let token = realm.objects(Item.self).observe { change in
        if case .update = change {
            clock.delivered = DispatchTime.now().uptimeNanoseconds
            delivered.signal()
        }
    }
    ready.signal()
    while true { _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(1)) }
    _ = token
}
observer.start()
ready.wait()
let writer = try Realm(configuration: configuration)
var latencies: [Double] = []
for index in 0..<commits {
    writer.beginWrite()
    writer.add(Item(value: ["value": index]))
    // From the commit call: its durable write (fsync) is included, since
    // observers are told as soon as SQLite's commit completes, which can be
    // before commitWrite() itself returns.
    let start = DispatchTime.now().uptimeNanoseconds
    try writer.commitWrite()
    delivered.wait()
    latencies.append(Double(clock.delivered - start) / 1000)
}
latencies.sort()
print(String(format: "commit-to-callback latency over %d commits: median %.0f µs, p99 %.0f µs",
             commits, latencies[latencies.count / 2], latencies[latencies.count * 99 / 100]))

// 2. A one-object commit under a 100,000-object sorted, filtered Results.
let big = Realm.Configuration(fileURL: directory.appendingPathComponent("big.realm"), objectTypes: [Item.self])
let realm = try Realm(configuration: big)
let count = CommandLine.arguments.contains("--quick") ? 20_000 : 100_000
try realm.write {
    for index in 0..<count { realm.add(Item(value: ["value": index, "group": index % 2 == 0 ? 1 : 2])) }
}
let results = realm.objects(Item.self).filter("group == 1 OR group == 2").sorted(byKeyPath: "value", ascending: false)
var modified = 0
let token = results.observe { change in
    if case .update(_, _, _, let modifications) = change { modified += modifications.count }
}
var costs: [Double] = []
for round in 0..<10 {
    try realm.write { results[round * 7].group = round % 2 == 0 ? 2 : 1 }
    let start = DispatchTime.now().uptimeNanoseconds
    realm.refresh()  // delivers the change for the commit above
    costs.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
}
costs.sort()
print(String(format: "collection change for %d-object sorted, filtered Results after a one-object commit: median %.1f ms (%d modifications reported)",
             count, costs[costs.count / 2], modified))
_ = token
exit(0)
