// The `realm` command-line tool. Until the object SDK exists, its `demo`
// runs the seeds' "Getting started" story through RealmCore's dynamic API:
// define Dog and Person, add a dog, watch a query's count, update from a
// background thread, and read the change sets each commit recorded.

import Foundation
import RealmCore

@main
struct RealmTool {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "demo":
            do {
                try Demo(path: arguments.dropFirst().first ?? "default.realm").run()
            } catch {
                FileHandle.standardError.write(Data("error: \(error)\n".utf8))
                exit(1)
            }
        default:
            print("""
                usage: realm demo [path]

                  demo   runs the getting-started sample on ./default.realm (or path)
                """)
            exit(arguments.isEmpty || arguments.first == "help" ? 0 : 64)
        }
    }
}

struct Demo {
    let path: String

    static let schema = Schema([
        ObjectSchema(name: "Dog", properties: [
            Property(name: "name", type: .string),
            Property(name: "age", type: .int),
        ]),
        ObjectSchema(name: "Person", properties: [
            Property(name: "name", type: .string),
            Property(name: "picture", type: .data, isOptional: true),
            Property(name: "dogs", type: .object, isList: true, objectClassName: "Dog"),
        ]),
    ])

    func run() throws {
        let coordinator = try Coordinator.open(.file(path, schema: Self.schema))
        print("Opened \(coordinator.path)")
        let realm = try coordinator.makeTransaction()
        let dogs = try realm.classHandle(named: "Dog")
        let name = try realm.propertyIndex(named: "name", in: dogs)
        let age = try realm.propertyIndex(named: "age", in: dogs)

        func puppies() throws -> Int {
            try realm.objectKeys(in: dogs).filter { key in
                if case .int(let years) = try realm.value(of: key, property: age, in: dogs) { return years < 2 }
                return false
            }.count
        }

        print("Puppies before adding one: \(try puppies())")
        let rex = try realm.write {
            try realm.createObject(in: dogs, values: [.string("Rex"), .int(1)])
        }
        print("Added Rex (object \(rex.rawValue)) at version \(try realm.version)")
        print("Puppies after adding one: \(try puppies())")

        // Another thread opens its own transaction on the same file, finds
        // the dog by key, and ages it.
        let done = DispatchSemaphore(value: 0)
        Thread {
            defer { done.signal() }
            do {
                let other = try coordinator.makeTransaction()
                let dogs = try other.classHandle(named: "Dog")
                try other.write {
                    try other.setValue(.int(3), of: rex, property: age, in: dogs)
                }
                print("Background thread: Rex is now 3, committed version \(try other.version)")
            } catch {
                print("Background thread failed: \(error)")
            }
        }.start()
        done.wait()

        print("Before refresh this thread still reads its snapshot: Rex is \(try realm.value(of: rex, property: age, in: dogs))")
        try realm.refresh()
        print("After refresh: Rex is \(try realm.value(of: rex, property: age, in: dogs)); puppies: \(try puppies())")

        if let history = try realm.changeSets(after: try realm.version - 2) {
            for changeSet in history {
                let described = changeSet.classes.map { className, changes in
                    "\(className): +\(changes.insertions.count) -\(changes.deletions.count) ~\(changes.modifications.count)"
                }
                print("Version \(changeSet.version) changed \(described.joined(separator: ", "))")
            }
        }
        print("Dogs in the file: \(try realm.objectKeys(in: dogs).map { try realm.value(of: $0, property: name, in: dogs) })")
    }
}
