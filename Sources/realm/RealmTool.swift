// The `realm` command-line tool. `realm demo` runs the seeds' "Getting
// started" sample end to end on ./default.realm and says what happens at
// each step, and `realm demo sync` a sync server with two devices that
// edit offline and converge. The commands in Commands/ work on any Realm
// file, read with the schema it stores (RealmTools, Docs/Tools.md):
// schema, query, export, import, compact, verify, copy, encrypt, decrypt
// and browse. `realm server` runs the sync server, and `realm login` logs
// a user in.

import ArgumentParser
import Dispatch
import Foundation
import RealmObjects

@main
struct RealmTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "realm",
        abstract: "Realm's object database for Swift, stored in SQLite.",
        discussion: "See Docs/Tools.md for examples of every command.",
        subcommands: [
            Demo.self, SchemaCommand.self, QueryCommand.self, ExportCommand.self, ImportCommand.self,
            CompactCommand.self, VerifyCommand.self, CopyCommand.self, EncryptCommand.self, DecryptCommand.self,
            BrowseCommand.self, ServerCommand.self, LoginCommand.self,
        ])
}

// Define your models like regular Swift classes.
final class Dog: Object {
    @Persisted var name = ""
    @Persisted var age = 0
}

final class Person: Object {
    @Persisted var name = ""
    @Persisted var picture: Data? = nil  // optionals supported
    let dogs = List<Dog>()
}

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the getting-started sample on ./default.realm (or, with 'sync', the sync demo).",
        subcommands: [LocalDemo.self, SyncDemo.self],
        defaultSubcommand: LocalDemo.self)
}

struct LocalDemo: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "local", abstract: "Run the getting-started sample on ./default.realm.")

    @Option(help: "The Realm file to use.")
    var file = "default.realm"

    func run() throws {
        var configuration = Realm.Configuration.defaultConfiguration
        configuration.fileURL = URL(fileURLWithPath: file)
        Realm.Configuration.defaultConfiguration = configuration

        // Use them like regular Swift objects.
        let myDog = Dog()
        myDog.name = "Rex"
        myDog.age = 1
        print("name of dog: \(myDog.name)")

        // Get the default Realm.
        let realm = try Realm()
        print("opened \(configuration.fileURL!.path)")

        // Query Realm for all dogs less than 2 years old.
        let puppies = realm.objects(Dog.self).filter("age < 2")
        print("puppies before adding one: \(puppies.count)")

        // Persist your data easily.
        try realm.write {
            realm.add(myDog)
        }

        // Queries are updated in real time.
        print("puppies after adding one: \(puppies.count)")

        // Query and update from any thread: a ThreadSafeReference carries the
        // dog to a background queue, which opens its own Realm.
        let dogReference = ThreadSafeReference(to: myDog)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue(label: "background").async {
            defer { done.signal() }
            autoreleasepool {
                let realm = try! Realm()
                guard let theDog = realm.resolve(dogReference) else { return }
                try! realm.write {
                    theDog.age = 3
                }
                print("background queue: set \(theDog.name)'s age to \(theDog.age)")
            }
        }
        done.wait()

        // This thread reads its snapshot until it refreshes.
        print("before refresh, this thread sees age \(myDog.age)")
        realm.refresh()
        print("after refresh: age \(myDog.age), puppies: \(puppies.count)")
        print("dogs in the file: \(realm.objects(Dog.self).map(\.name))")
    }
}
