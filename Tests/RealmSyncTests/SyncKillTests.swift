import Foundation
import RealmSync
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension SyncTests {
    /// Issue 34's randomized test: clients in processes of their own make
    /// random changes of every kind while they are killed (SIGKILL) and
    /// started again, their sessions suspended and resumed, the server
    /// killed and started again, and a proxy between them cuts, delays,
    /// black-holes and resets connections. At the end every client, and a
    /// new one catching up from the server's state, holds the same objects.
    ///
    /// The faults go on for 20 s in CI; `REALM_SYNC_KILL_SECONDS` sets
    /// another length for runs by hand.
    @Suite struct SyncKills {
        typealias Realms = SyncedRealms

        /// A writer process: `RealmSyncTestHelper random-sync`.
        final class Writer: Sendable {
            let process: Process
            init(_ helper: URL, root: URL, url: String) throws {
                process = Process()
                process.executableURL = helper
                process.arguments = ["random-sync", root.path, url]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
            }

            func kill() {
                Glibc.kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }

        static let seconds = ProcessInfo.processInfo.environment["REALM_SYNC_KILL_SECONDS"].flatMap(Double.init) ?? 20

        @Test func randomEditsFromKilledProcessesConverge() async throws {
            let seconds = Self.seconds
            try await TestClient.run {
                let helper = try productExecutable("RealmSyncTestHelper")
                let data = temporaryDirectory("kill-server")
                var server = try await ChildServer.start(data: data, port: 0)
                let serverPort = server.port
                let proxy = try FaultProxy(targetPort: serverPort, faults: .init())
                defer { proxy.stop() }
                let url = "realm://127.0.0.1:\(proxy.port)/shared/kills"
                // Three clients, and a fourth that comes last and catches
                // up from the state.
                var roots: [URL] = []
                for index in 0..<4 {
                    let root = temporaryDirectory("kill-client")
                    _ = try await Realms.register("killed\(index)", on: server.url)
                    let login = try await runProcess(helper, ["login", root.path, server.url.absoluteString, "killed\(index)", "password"])
                    #expect(login.status == 0, "\(login.stderr)")
                    roots.append(root)
                }
                var writers = try roots.prefix(3).map { try Writer(helper, root: $0, url: url) }
                var kills = 0, restarts = 0, faults = 0
                let deadline = ContinuousClock.now + .seconds(seconds)
                while ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(Int.random(in: 200...700)))
                    switch Int.random(in: 0..<20) {
                    case 0..<11:
                        let index = Int.random(in: 0..<writers.count)
                        writers[index].kill()
                        writers[index] = try Writer(helper, root: roots[index], url: url)
                        kills += 1
                    case 11..<18:
                        faults += 1
                        switch Int.random(in: 0..<5) {
                        case 0: proxy.faults = .init(cutAfterBytes: 200...20_000)
                        case 1: proxy.faults = .init(maximumDelayMilliseconds: 20)
                        case 2: proxy.faults = .init(isBlackHole: true)
                        case 3: proxy.resetAll()
                        default: proxy.faults = .init()
                        }
                    default:
                        server.kill()
                        server = try await ChildServer.start(data: data, port: serverPort)
                        restarts += 1
                    }
                }
                for writer in writers { writer.kill() }
                proxy.faults = .init()
                proxy.resetAll()
                defer { server.kill() }

                // Everyone uploads, then everyone downloads what the others
                // uploaded; the newcomer catches up from the state.
                var dumps: [[String]] = []
                for pass in 0..<2 {
                    for (index, root) in roots.enumerated() where pass == 1 || index < 3 {
                        // The helper gives up after 60 s, saying why.
                        let converged = try await runProcess(helper, ["converge", root.path, url], timeout: 120)
                        #expect(converged.status == 0, "client \(index): \(converged.stderr)")
                        if pass == 1 { dumps.append(converged.stdout.split(separator: "\n").filter { $0.hasPrefix("object ") }.map(String.init)) }
                    }
                }
                print("SyncKills: \(kills) clients killed, \(faults) network faults, \(restarts) server restarts, \(dumps.first?.count ?? 0) objects")
                #expect(kills > 0 && faults > 0, "faults happened: \(kills) kills, \(faults) network faults, \(restarts) server restarts")
                #expect(dumps[0].count > 1, "the clients wrote something")
                for (index, dump) in dumps.enumerated().dropFirst() {
                    #expect(dump == dumps[0], """
                        clients' folders \(roots.map(\.path)), server's \(data.path): \
                        client \(index) differs from client 0 (\(kills) kills, \(faults) network faults, \(restarts) server restarts): \
                        only in it: \(dump.filter { !dumps[0].contains($0) }); only in client 0: \(dumps[0].filter { !dump.contains($0) })
                        """)
                }
            }
        }
    }
}
