import Foundation
import RealmObjects
import RealmSync
import RealmSyncServer
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension SyncTests {
    /// Sync under faults: connections delayed and cut mid-message by a
    /// proxy, the server killed (SIGKILL) during uploads and started again,
    /// a client killed mid-commit. Nothing acknowledged is lost, nothing is
    /// applied twice, and every replica converges.
    @Suite struct SyncFaults {
        typealias Realms = SyncedRealms

        /// The log entries of a replica (each appended once, in its own
        /// write, so that a changeset applied twice would show twice).
        static func entries(_ configuration: Realm.Configuration) async throws -> [Int] {
            try await offloaded { SyncedLogEntries.read(try Realm(configuration: configuration)) }
        }

        /// A network that goes on accepting connections but carries
        /// nothing (a black hole), then heals: the session notices its
        /// connection is dead (no answer to its pings), gives up connecting
        /// through the black hole at its connect timeout, and uploads once
        /// healed.
        @Test func aSessionComesBackFromABlackHole() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let proxy = try FaultProxy(targetPort: try #require(server.server.port), faults: .init())
                defer { proxy.stop() }
                let alice = try await Realms.register("alice", on: server)
                let bob = try await Realms.register("bob", on: server)
                var timeouts = SyncTimeoutOptions()
                timeouts.connectTimeout = 400
                timeouts.pingKeepalivePeriod = 200
                timeouts.pongKeepaliveTimeout = 300
                let url = URL(string: "realm://127.0.0.1:\(proxy.port)/shared/black-hole")!
                var aliceConfig = Realms.configuration(alice, url)
                aliceConfig.syncConfiguration?.timeoutOptions = timeouts
                try await Realms.write(aliceConfig) { realm in realm.add(SyncTask(value: ["id": 1, "title": "before"])) }
                let session = try #require(alice.session(for: url))
                try await withDeadline("the first upload") { try await session.waitForUpload() }

                proxy.faults.isBlackHole = true
                try await Realms.write(aliceConfig) { realm in realm.add(SyncTask(value: ["id": 2, "title": "during"])) }
                // Long enough for the ping to go unanswered and for connects
                // into the black hole to time out.
                try await Task.sleep(for: .seconds(2))
                proxy.faults.isBlackHole = false
                try await withDeadline("uploading after the black hole (\(session.diagnostics))", seconds: 20) { try await session.waitForUpload() }

                let bobConfig = Realms.configuration(bob, Realms.realmURL(server, "/shared/black-hole"))
                _ = try await Realms.tasks(bobConfig)
                try await withDeadline("bob downloading") { try await #require(bob.session(for: Realms.realmURL(server, "/shared/black-hole"))).waitForDownload() }
                #expect(try await Realms.tasks(bobConfig) == ["1 before false []", "2 during false []"])
            }
        }

        /// The server drops a client that stops answering its pings.
        @Test func theServerDropsAPeerThatStopsAnswering() async throws {
            let server = try await TestServer.start { $0.keepAlivePeriod = .milliseconds(200) }
            defer { Task { await server.stop() } }
            let port = try #require(server.server.port)
            let upgrade = "GET /sync HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            let started = ContinuousClock.now
            // Upgrades, then reads and answers nothing until the server
            // closes the connection.
            let (answer, closed) = try await offloaded { try RawExchange.send(Array(upgrade.utf8), toPort: port, waitingUpTo: 10) }
            #expect(answer.hasPrefix("HTTP/1.1 101"), "\(answer.prefix(40))")
            #expect(closed, "the server closed the silent connection")
            #expect(ContinuousClock.now - started < .seconds(5))
        }

        @Test func delayedAndCutConnectionsLoseNothing() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let proxy = try FaultProxy(targetPort: try #require(server.server.port),
                                           faults: .init(cutAfterBytes: 300...3000, maximumDelayMilliseconds: 3))
                defer { proxy.stop() }
                let alice = try await Realms.register("alice", on: server)
                let bob = try await Realms.register("bob", on: server)
                let url = URL(string: "realm://127.0.0.1:\(proxy.port)/shared/faulty")!
                let aliceConfig = Realms.configuration(alice, url)
                let bobConfig = Realms.configuration(bob, url)
                // Both write 40 transactions while their connections are cut.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (config, prefix) in [(aliceConfig, "a"), (bobConfig, "b")] {
                        group.addTask {
                            for index in 1...40 {
                                try await Realms.write(config) { realm in
                                    let task = realm.object(ofType: SyncTask.self, forPrimaryKey: 0)
                                        ?? realm.create(SyncTask.self, value: ["id": 0, "title": "log"])
                                    task.tags.append("\(prefix)\(index)")
                                    realm.add(SyncTask(value: ["id": prefix == "a" ? index : 100 + index, "title": "\(prefix) \(index)"]))
                                }
                                try await Task.sleep(for: .milliseconds(2))
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                // Then the network heals.
                proxy.faults = .init()
                let aliceSession = try #require(alice.session(for: url))
                let bobSession = try #require(bob.session(for: url))
                for _ in 0..<2 {
                    try await withDeadline("alice uploading (\(aliceSession.diagnostics))", seconds: 60) { try await aliceSession.waitForUpload() }
                    try await withDeadline("bob uploading (\(bobSession.diagnostics))", seconds: 60) { try await bobSession.waitForUpload() }
                    try await withDeadline("alice downloading", seconds: 60) { try await aliceSession.waitForDownload() }
                    try await withDeadline("bob downloading", seconds: 60) { try await bobSession.waitForDownload() }
                }
                #expect(proxy.cutCount > 0, "connections were cut")
                let aliceTasks = try await Realms.tasks(aliceConfig)
                #expect(aliceTasks == (try await Realms.tasks(bobConfig)), "the replicas converge")
                #expect(aliceTasks.count == 81, "every task of both, once")
                let tags = try await offloaded {
                    Array(try Realm(configuration: aliceConfig).object(ofType: SyncTask.self, forPrimaryKey: 0)!.tags)
                }
                #expect(tags.count == 80 && Set(tags).count == 80, "every append once, none twice: \(tags)")
            }
        }

        @Test func aServerKilledDuringUploadsLosesNothingAcknowledged() async throws {
            try await TestClient.run {
                let data = temporaryDirectory("killed-server")
                var server = try await ChildServer.start(data: data, port: 0)
                let port = server.port
                let alice = try await Realms.register("alice", on: server.url)
                let bob = try await Realms.register("bob", on: server.url)
                let url = URL(string: "realm://127.0.0.1:\(port)/shared/killed")!
                let aliceConfig = Realms.configuration(alice, url)
                let bobConfig = Realms.configuration(bob, url)
                _ = try await Realms.tasks(bobConfig)

                for index in 1...60 {
                    try await Realms.write(aliceConfig) { realm in
                        let task = realm.object(ofType: SyncTask.self, forPrimaryKey: 0) ?? realm.create(SyncTask.self, value: ["id": 0])
                        task.tags.append("\(index)")
                    }
                    if index == 30 {
                        // Killed without a chance to finish anything.
                        server.kill()
                        server = try await ChildServer.start(data: data, port: port)
                    }
                }
                defer { server.kill() }
                let aliceSession = try #require(alice.session(for: url))
                let bobSession = try #require(bob.session(for: url))
                try await withDeadline("alice uploading (\(aliceSession.diagnostics))", seconds: 60) { try await aliceSession.waitForUpload() }
                try await withDeadline("bob downloading (\(bobSession.diagnostics))", seconds: 60) { try await bobSession.waitForDownload() }
                let tags = try await offloaded {
                    Array(try Realm(configuration: bobConfig).object(ofType: SyncTask.self, forPrimaryKey: 0)?.tags ?? List<String>())
                }
                #expect(tags == (1...60).map(String.init), "every append reached the server once, in order")
            }
        }

        @Test func aClientKilledMidCommitUploadsWhatItCommitted() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let helper = try productExecutable("RealmSyncTestHelper")
                let root = temporaryDirectory("killed-client")
                _ = try await Realms.register("carol", on: server)
                let login = try await runProcess(helper, ["login", root.path, server.url.absoluteString, "carol", "password"])
                #expect(login.status == 0, "\(login.stderr)")
                let url = "realm://127.0.0.1:\(server.server.port!)/shared/crash-log"

                // The writer commits as fast as it can; it is killed after
                // a while, in the middle of whatever it was doing.
                let writer = Process()
                writer.executableURL = helper
                writer.arguments = ["sync-write", root.path, url]
                let output = Pipe()
                writer.standardOutput = output
                try writer.run()
                let committed = try await offloaded { () -> Int in
                    var seen = Data()
                    while true {
                        let chunk = output.fileHandleForReading.availableData
                        if chunk.isEmpty { return 0 }
                        seen.append(chunk)
                        let lines = String(decoding: seen, as: UTF8.self).split(separator: "\n")
                        if let last = lines.dropLast().last, let count = Int(last.dropFirst("committed ".count)), count >= 40 { return count }
                    }
                }
                kill(writer.processIdentifier, SIGKILL)
                try await offloaded { writer.waitUntilExit() }
                #expect(committed >= 40)

                // Launched again, it uploads what it had committed.
                let flush = try await runProcess(helper, ["sync-flush", root.path, url])
                let line = try #require(flush.stdout.split(separator: "\n").first { $0.hasPrefix("entries ") }, "\(flush.stdout) \(flush.stderr)")
                let flushed = line.dropFirst("entries ".count).split(separator: ",").compactMap { Int($0) }
                #expect(flushed.count >= committed && flushed == Array(1...flushed.count), "the file kept every commit")

                let dave = try await Realms.register("dave", on: server)
                let daveConfig = Realm.Configuration(syncConfiguration: SyncConfiguration(user: dave, realmURL: URL(string: url)!),
                                                     objectTypes: [SyncedLogEntries.self])
                _ = try await Self.entries(daveConfig)
                let session = try #require(dave.session(for: URL(string: url)!))
                try await withDeadline("dave downloading", seconds: 60) { try await session.waitForDownload() }
                #expect(try await Self.entries(daveConfig) == flushed, "the server has every commit once")
            }
        }

        /// A client file put back from a backup is behind what the server
        /// acknowledged to it. Believing the server's acknowledgement would
        /// have it forget its next changes (the server takes their versions
        /// for ones it has); the session ends with an error instead, and the
        /// file keeps them.
        @Test func aClientRestoredFromABackupIsToldRatherThanLosingChanges() async throws {
            try await TestClient.run {
                let helper = try productExecutable("RealmSyncTestHelper")
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let root = temporaryDirectory("restored-client")
                _ = try await Realms.register("rita", on: server)
                let login = try await runProcess(helper, ["login", root.path, server.url.absoluteString, "rita", "password"])
                #expect(login.status == 0, "\(login.stderr)")
                let url = "realm://127.0.0.1:\(server.server.port!)/shared/restored"

                let first = try await runProcess(helper, ["sync-append", root.path, url, "3"], timeout: 60)
                #expect(first.status == 0, "\(first.stderr)")
                let backup = temporaryDirectory("restored-client-backup").appendingPathComponent("root")
                try copyRegularFiles(from: root, to: backup)
                let second = try await runProcess(helper, ["sync-append", root.path, url, "5"], timeout: 60)
                #expect(second.status == 0 && second.stdout.contains("entries 1,2,3,4,5,6,7,8"), "\(second.stdout) \(second.stderr)")

                try FileManager.default.removeItem(at: root)
                try copyRegularFiles(from: backup, to: root)
                let restored = try await runProcess(helper, ["sync-append", root.path, url, "1"], timeout: 60)
                #expect(restored.status != 0, "the restored client's change was taken as uploaded: \(restored.stdout)")
                #expect(restored.stderr.contains("which this client has not made"), "\(restored.stderr)")
            }
        }
    }
}

/// Copies the folder `source` to `destination`, its regular files only:
/// the named pipes Realms notify each other through would block a copy.
private func copyRegularFiles(from source: URL, to destination: URL) throws {
    let manager = FileManager.default
    try manager.createDirectory(at: destination, withIntermediateDirectories: true)
    for name in try manager.contentsOfDirectory(atPath: source.path) {
        let from = source.appendingPathComponent(name), to = destination.appendingPathComponent(name)
        let type = try manager.attributesOfItem(atPath: from.path)[.type] as? FileAttributeType
        if type == .typeDirectory {
            try copyRegularFiles(from: from, to: to)
        } else if type == .typeRegular {
            try manager.copyItem(at: from, to: to)
        }
    }
}

/// The crash log of ``RealmSyncTestHelper``'s `sync-write`, seen from the
/// tests (the same class name and properties).
final class SyncedLogEntries: Object {
    override class func className() -> String { "SyncedLog" }
    @Persisted(primaryKey: true) var id = 1
    let entries = List<Int>()

    static func read(_ realm: Realm) -> [Int] {
        realm.object(ofType: SyncedLogEntries.self, forPrimaryKey: 1).map { Array($0.entries) } ?? []
    }
}

/// `realm server` in a child process, so that it can be killed.
struct ChildServer {
    let process: Process
    let url: URL
    var port: Int { url.port ?? 0 }

    static func start(data: URL, port: Int) async throws -> ChildServer {
        let process = Process()
        process.executableURL = try productExecutable("realm")
        // Its log goes beside its data, appended at each start, so that a
        // start that went wrong can be read afterwards.
        let log = data.appendingPathExtension("log")
        if !FileManager.default.fileExists(atPath: log.path) { _ = FileManager.default.createFile(atPath: log.path, contents: nil) }
        let logHandle = try FileHandle(forWritingTo: log)
        defer { try? logHandle.close() }
        logHandle.seekToEndOfFile()
        process.arguments = ["server", "--port", "\(port)", "--data", data.path, "--password-hash-cost", "4", "--log-level", "info"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = logHandle
        try process.run()
        // A server that never says it listens is killed, which ends the
        // read below (one run of SyncKills saw a restarted server serve its
        // clients without ever printing the line).
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) { [process] in
            if process.isRunning { Glibc.kill(pid, SIGKILL) }
        }
        let text = try await offloaded {
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                line.append(chunk)
            }
            return String(decoding: line, as: UTF8.self)
        }
        guard let url = text.split(separator: "\n").first.flatMap({ URL(string: String($0.dropFirst("Listening on ".count))) }) else {
            process.terminate()
            let logged = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw DeadlineExceeded(what: "the server printed '\(text)'; its log ends: \(logged.suffix(2_000))", seconds: 0)
        }
        return ChildServer(process: process, url: url)
    }

    /// SIGKILL: no graceful anything.
    func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
