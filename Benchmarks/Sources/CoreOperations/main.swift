// Operations per second of RealmCore's object store: creating objects and
// reading a property, the two figures the storage-engine issue asks for.
// Each figure is the median of several runs after a warm-up.

import Foundation
import RealmCore

let objectCount = CommandLine.arguments.contains("--quick") ? 20_000 : 100_000
let runs = 5

let schema = Schema([
    ObjectSchema(name: "Item", properties: [
        Property(name: "name", type: .string),
        Property(name: "value", type: .int),
    ]),
])

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double {
    values.sorted()[values.count / 2]
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("realm-core-bench-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

var insertTimes: [Double] = []
var readTimes: [Double] = []
var singleCommitTimes: [Double] = []
for run in 0...runs {
    let path = directory.appendingPathComponent("run\(run).realm").path
    let coordinator = try Coordinator.open(.file(path, schema: schema))
    let transaction = try coordinator.makeTransaction()
    let items = try transaction.classHandle(named: "Item")

    var keys: [ObjectKey] = []
    keys.reserveCapacity(objectCount)
    let insert = try seconds {
        try transaction.write {
            for index in 0..<objectCount {
                keys.append(try transaction.createObject(in: items, values: [.string("item"), .int(Int64(index))]))
            }
        }
    }

    var sum: Int64 = 0
    let read = try seconds {
        for key in keys {
            if case .int(let value) = try transaction.value(of: key, property: 1, in: items) { sum += value }
        }
    }
    precondition(sum == Int64(objectCount) * Int64(objectCount - 1) / 2, "read back the wrong values")

    let commits = 200
    let single = try seconds {
        for index in 0..<commits {
            try transaction.write { _ = try transaction.createObject(in: items, values: [.string("one"), .int(Int64(index))]) }
        }
    }
    if run > 0 {  // run 0 is the warm-up
        insertTimes.append(insert)
        readTimes.append(read)
        singleCommitTimes.append(single / Double(commits))
    }
    print("run \(run): insert \(String(format: "%.3f", insert)) s, read \(String(format: "%.3f", read)) s")
}

let inserts = Double(objectCount) / median(insertTimes)
let reads = Double(objectCount) / median(readTimes)
print("""

    RealmCore object store, \(objectCount) objects, median of \(runs) runs (release build)
      create object (one write transaction):   \(Int(inserts)) ops/s  (\(String(format: "%.2f", 1e6 / inserts)) µs each)
      read a property by key:                  \(Int(reads)) ops/s  (\(String(format: "%.2f", 1e6 / reads)) µs each)
      one-object write transaction (FULL sync): \(String(format: "%.0f", 1 / median(singleCommitTimes))) commits/s
    """)
