import ArgumentParser
import Dispatch
import Foundation
import RealmObjects
import RealmSync
import RealmSyncServer

/// An item of the sync demo's shared grocery list.
final class Grocery: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var quantity = 1
    @Persisted var bought = false
}

/// `realm demo sync`: a server and two devices on loopback that edit one
/// list, also offline, then reconnect and converge, printed step by step.
struct SyncDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Run a sync server and two clients on loopback that edit offline, reconnect and converge.",
        discussion: """
            Everything happens in this process and a temporary folder, removed at the end: \
            the server listens on a free port of 127.0.0.1, and Ana's and Ben's devices are \
            two users with a copy each of the Realm /shared/groceries.
            """)

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("realm-sync-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        SyncManager.shared.rootDirectory = folder.appendingPathComponent("devices")
        SyncManager.shared.logLevel = .off
        SyncManager.shared.errorHandler = { error, _ in print("  sync error: \(error.localizedDescription)") }

        var configuration = SyncServer.Configuration(dataDirectory: folder.appendingPathComponent("server"))
        configuration.port = 0
        configuration.logLevel = .error
        configuration.passwordHashCost = 4
        let server = try await SyncServer(configuration: configuration)
        try await server.start()
        let serverURL = try require(server.url, "the server's URL")
        print("1. A sync server listens on \(serverURL.absoluteString)")

        let ana = try await Device.logIn("ana", server: serverURL)
        let ben = try await Device.logIn("ben", server: serverURL)
        print("2. Ana and Ben log in and open realm://127.0.0.1:\(server.port!)/shared/groceries")

        try await ana.write { realm in
            realm.add(Grocery(value: ["name": "milk", "quantity": 1]))
            realm.add(Grocery(value: ["name": "eggs", "quantity": 12]))
        }
        try await ana.session.waitForUpload()
        try await ben.session.waitForDownload()
        print("3. Ana adds milk and eggs; Ben's device receives them:")
        try await ben.show()

        ana.session.suspend()
        ben.session.suspend()
        print("4. Both devices go offline and keep editing:")
        try await ana.write { realm in
            realm.object(ofType: Grocery.self, forPrimaryKey: "milk")!.quantity = 2
            realm.add(Grocery(value: ["name": "bread"]))
        }
        print("   Ana sets milk to 2 and adds bread.")
        try await Task.sleep(for: .milliseconds(20))
        try await ben.write { realm in
            let milk = realm.object(ofType: Grocery.self, forPrimaryKey: "milk")!
            milk.quantity = 3
            milk.bought = true
            realm.delete(realm.object(ofType: Grocery.self, forPrimaryKey: "eggs")!)
        }
        print("   Ben, a moment later, sets milk to 3, ticks it off, and deletes eggs.")
        try await ana.show()
        try await ben.show()

        ana.session.resume()
        ben.session.resume()
        for _ in 0..<2 {
            try await ana.session.waitForUpload()
            try await ben.session.waitForUpload()
            try await ana.session.waitForDownload()
            try await ben.session.waitForDownload()
        }
        print("5. Both reconnect and sync. Each property keeps its latest write (milk: 3, from Ben,")
        print("   and bought, which only Ben set); Ben's delete wins; Ana's bread arrives:")
        let anaView = try await ana.show()
        let benView = try await ben.show()
        print(anaView == benView ? "6. Both devices hold the same list." : "6. The devices differ: this is a bug.")

        ana.user.logOut()
        ben.user.logOut()
        await server.stop()
        if anaView != benView { throw ExitCode.failure }
    }

    private func require<T>(_ value: T?, _ what: String) throws -> T {
        guard let value else { throw ValidationError("The demo could not get \(what).") }
        return value
    }

    /// A user's device: their copy of the shared Realm, used on a queue of
    /// its own.
    struct Device {
        let name: String
        let user: SyncUser
        let configuration: Realm.Configuration
        let queue: DispatchQueue
        let session: SyncSession

        static func logIn(_ name: String, server: URL) async throws -> Device {
            let user = try await SyncUser.logIn(with: .usernamePassword(username: name, password: "demo-password", register: true), server: server)
            let port = server.port ?? 9080
            let url = URL(string: "realm://127.0.0.1:\(port)/shared/groceries")!
            let configuration = Realm.Configuration(syncConfiguration: SyncConfiguration(user: user, realmURL: url), objectTypes: [Grocery.self])
            let queue = DispatchQueue(label: name)
            try await perform(on: queue) { _ = try Realm(configuration: configuration) }
            guard let session = user.session(for: url) else { throw ValidationError("No session for \(url).") }
            return Device(name: name, user: user, configuration: configuration, queue: queue, session: session)
        }

        func write(_ body: @escaping @Sendable (Realm) -> Void) async throws {
            let configuration = configuration
            try await Self.perform(on: queue) {
                let realm = try Realm(configuration: configuration)
                try realm.write { body(realm) }
            }
        }

        /// Prints the list as this device sees it, and returns it.
        @discardableResult
        func show() async throws -> [String] {
            let configuration = configuration
            let lines = try await Self.perform(on: queue) {
                try Realm(configuration: configuration).objects(Grocery.self).sorted(byKeyPath: "name").map {
                    "\($0.name) ×\($0.quantity)\($0.bought ? " (bought)" : "")"
                }
            }
            print("   \(name.capitalized)'s device: \(lines.isEmpty ? "empty" : lines.joined(separator: ", "))")
            return Array(lines)
        }

        private static func perform<T: Sendable>(on queue: DispatchQueue, _ body: @escaping @Sendable () throws -> T) async throws -> T {
            try await withCheckedThrowingContinuation { continuation in
                queue.async { continuation.resume(with: Result { try body() }) }
            }
        }
    }
}
