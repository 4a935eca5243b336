// Operations per second of the object SDK next to the same operations
// through RealmCore directly: adding an object, and reading a property of a
// managed object. Each figure is the median of several runs after a warm-up.

import Foundation
import RealmCore
import RealmObjects

final class Item: Object {
    @Persisted var name = ""
    @Persisted var value = 0
}

let count = CommandLine.arguments.contains("--quick") ? 20_000 : 100_000
let runs = 5

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("realm-object-bench-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

var sdkAdd: [Double] = [], sdkRead: [Double] = [], coreAdd: [Double] = [], coreRead: [Double] = []
for run in 0...runs {
    // The SDK.
    do {
        let realm = try Realm(configuration: Realm.Configuration(fileURL: directory.appendingPathComponent("sdk\(run).realm"), objectTypes: [Item.self]))
        var items: [Item] = []
        items.reserveCapacity(count)
        let add = try seconds {
            try realm.write {
                for index in 0..<count {
                    let item = Item()
                    item.name = "item"
                    item.value = index
                    realm.add(item)
                    items.append(item)
                }
            }
        }
        var sum = 0
        let read = seconds {
            for item in items { sum &+= item.value }
        }
        precondition(sum == count * (count - 1) / 2)
        if run > 0 { sdkAdd.append(add); sdkRead.append(read) }
    }
    // RealmCore, the same work.
    do {
        let schema = Schema([ObjectSchema(name: "Item", properties: [
            Property(name: "name", type: .string), Property(name: "value", type: .int),
        ])])
        let coordinator = try Coordinator.open(.file(directory.appendingPathComponent("core\(run).realm").path, schema: schema))
        let transaction = try coordinator.makeTransaction()
        let items = try transaction.classHandle(named: "Item")
        var keys: [ObjectKey] = []
        keys.reserveCapacity(count)
        let add = try seconds {
            try transaction.write {
                for index in 0..<count {
                    keys.append(try transaction.createObject(in: items, values: [.string("item"), .int(Int64(index))]))
                }
            }
        }
        var sum: Int64 = 0
        let read = try seconds {
            for key in keys {
                if case .int(let value) = try transaction.value(of: key, property: 1, in: items) { sum &+= value }
            }
        }
        precondition(sum == Int64(count) * Int64(count - 1) / 2)
        if run > 0 { coreAdd.append(add); coreRead.append(read) }
    }
}

func rate(_ times: [Double]) -> String {
    let perSecond = Double(count) / median(times)
    return String(format: "%9.0f ops/s (%.2f µs)", perSecond, 1e6 / perSecond)
}
print("""
    \(count) objects, median of \(runs) runs (release build)
                                   RealmObjects                 RealmCore
      add an object:         \(rate(sdkAdd))   \(rate(coreAdd))
      read a property:       \(rate(sdkRead))   \(rate(coreRead))
    """)
