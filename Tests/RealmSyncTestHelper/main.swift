// A sync client in a process of its own, for the tests of what a client
// keeps across launches (Tests/RealmSyncTests/ClientPersistenceTests).
//
//   RealmSyncTestHelper login ROOT SERVER USERNAME PASSWORD
//       logs the user in; prints "identity <id>"
//   RealmSyncTestHelper current ROOT
//       prints "current <id> <admin>" (refreshing its access token first,
//       which needs the persisted refresh token) or "current none"
//   RealmSyncTestHelper launch ROOT
//       starts the sync subsystem, as an app's launch does (which backs up
//       the files a client reset or a permission denied left to it);
//       prints "launched N users"
//   RealmSyncTestHelper logout ROOT
//       logs the current user out; prints "logged out <id>"
//   RealmSyncTestHelper record FILE
//       writes to FILE with changesets recorded, for ever, printing
//       "committed N" after each commit (for the crash test, which kills it)
//   RealmSyncTestHelper sync-write ROOT REALMURL
//       opens the synced Realm at REALMURL as the current user and appends
//       to its log for ever, printing "committed N" after each commit (for
//       the client crash test, which kills it)
//   RealmSyncTestHelper sync-flush ROOT REALMURL
//       opens it again, waits until the server has every change, and
//       prints "entries A,B,…"
//   RealmSyncTestHelper sync-append ROOT REALMURL COUNT
//       appends COUNT entries, waits until the server has every change, and
//       prints "entries A,B,…"
//   RealmSyncTestHelper random-sync ROOT REALMURL
//       opens the synced Realm at REALMURL and makes random changes of
//       every kind for ever, suspending and resuming its session now and
//       then, printing "committed N" (for the multi-process randomized
//       test, which kills it)
//   RealmSyncTestHelper converge ROOT REALMURL
//       opens it, waits until the server has every change and this copy
//       every change of the server's, and prints "object …" lines: the
//       Realm by content
//   RealmSyncTestHelper current-with-two ROOT SERVER
//       logs in two nickname users, then asks for SyncUser.current (which
//       stops the process, as Realm throws)
//
// With REALM_SYNC_TEST_METADATA_KEY (128 hex digits) set, the metadata
// Realm is encrypted with that key.

import Foundation
import RealmCore
import RealmObjects
import RealmSync
import RealmSyncEngine

let arguments = CommandLine.arguments
/// Writes a line unbuffered, so that it is not lost if the process stops.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("RealmSyncTestHelper: \(message)\n".utf8))
    exit(2)
}
guard arguments.count >= 3 else { fail("usage: RealmSyncTestHelper COMMAND ROOT …") }
SyncManager.shared.rootDirectory = URL(fileURLWithPath: arguments[2])
SyncManager.shared.logLevel = .off
SyncManager.shared.errorHandler = { error, _ in
    FileHandle.standardError.write(Data("reported: \(error.localizedDescription)\n".utf8))
}
// A metadata key in hex, for the encryption test.
if let hex = ProcessInfo.processInfo.environment["REALM_SYNC_TEST_METADATA_KEY"] {
    var key = Data()
    var index = hex.startIndex
    while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex),
          let byte = UInt8(hex[index..<next], radix: 16) {
        key.append(byte)
        index = next
    }
    SyncManager.shared.metadataEncryptionKey = key
}

do {
    switch arguments[1] {
    case "login":
        guard arguments.count == 6, let server = URL(string: arguments[3]) else { fail("login ROOT SERVER USERNAME PASSWORD") }
        let user = try await SyncUser.logIn(with: .usernamePassword(username: arguments[4], password: arguments[5]), server: server)
        say("identity \(user.identity ?? "")")
    case "current":
        guard let user = SyncUser.current else {
            say("current none")
            break
        }
        _ = try await user.accessToken()
        say("current \(user.identity ?? "") \(user.isAdmin)")
    case "launch":
        say("launched \(SyncUser.all.count) users")
    case "logout":
        guard let user = SyncUser.current else { fail("nobody is logged in") }
        let error: (any Error)? = await withCheckedContinuation { continuation in
            user.logOut(callbackQueue: DispatchQueue(label: "logout")) { continuation.resume(returning: $0) }
        }
        if let error { fail("the server could not revoke the refresh token: \(error)") }
        say("logged out \(user.identity ?? "")")
    case "record":
        let coordinator = try Coordinator.open(.file(arguments[2], schema: RecordingWorkload.schema))
        try ChangesetRecorder.install(on: coordinator)
        let transaction = try coordinator.makeTransaction()
        var written = 0
        while true {
            try transaction.write { try RecordingWorkload.step(written, transaction) }
            written += 1
            say("committed \(written)")
        }
    case "sync-write":
        guard arguments.count == 4, let url = URL(string: arguments[3]), let user = SyncUser.current else { fail("sync-write ROOT REALMURL, logged in") }
        let configuration = Realm.Configuration(syncConfiguration: SyncConfiguration(user: user, realmURL: url), objectTypes: [SyncedLog.self])
        try DispatchQueue(label: "writer").sync {
            let realm = try Realm(configuration: configuration)
            while true { say("committed \(try SyncedLog.appendNext(realm))") }
        }
    case "sync-flush":
        guard arguments.count == 4, let url = URL(string: arguments[3]), let user = SyncUser.current else { fail("sync-flush ROOT REALMURL, logged in") }
        let configuration = Realm.Configuration(syncConfiguration: SyncConfiguration(user: user, realmURL: url), objectTypes: [SyncedLog.self])
        _ = try DispatchQueue(label: "open").sync { try Realm(configuration: configuration) }
        try await user.session(for: url)!.waitForUpload()
        let entries = try DispatchQueue(label: "read").sync { SyncedLog.entries(try Realm(configuration: configuration)) }
        say("entries \(entries.map(String.init).joined(separator: ","))")
    case "sync-append":
        // Appends COUNT entries, uploads them, and prints the entries.
        guard arguments.count == 5, let url = URL(string: arguments[3]), let count = Int(arguments[4]), let user = SyncUser.current else {
            fail("sync-append ROOT REALMURL COUNT, logged in")
        }
        let configuration = Realm.Configuration(syncConfiguration: SyncConfiguration(user: user, realmURL: url), objectTypes: [SyncedLog.self])
        DispatchQueue.global().asyncAfter(deadline: .now() + 30) {
            let diagnostics = user.session(for: url)?.diagnostics ?? "the Realm did not open"
            FileHandle.standardError.write(Data("RealmSyncTestHelper: sync-append timed out: \(diagnostics)\n".utf8))
            exit(3)
        }
        try DispatchQueue(label: "writer").sync {
            let realm = try Realm(configuration: configuration)
            for _ in 0..<count { _ = try SyncedLog.appendNext(realm) }
        }
        try await user.session(for: url)!.waitForUpload()
        let entries = try DispatchQueue(label: "read").sync { SyncedLog.entries(try Realm(configuration: configuration)) }
        say("entries \(entries.map(String.init).joined(separator: ","))")
    case "random-sync":
        guard arguments.count == 4, let url = URL(string: arguments[3]), let user = SyncUser.current else { fail("random-sync ROOT REALMURL, logged in") }
        let configuration = Realm.Configuration(syncConfiguration: SyncConfiguration(user: user, realmURL: url), objectTypes: RandomNotes.types)
        try DispatchQueue(label: "writer").sync {
            let realm = try Realm(configuration: configuration)
            var generator = SystemRandomNumberGenerator()
            var committed = 0
            while true {
                if generator.next() % 40 == 0, let session = user.session(for: url) {
                    session.suspend()
                    usleep(useconds_t(generator.next() % 300_000))
                    session.resume()
                }
                try realm.write { try RandomNotes.edit(realm, &generator) }
                committed += 1
                say("committed \(committed)")
                usleep(useconds_t(generator.next() % 20_000))
            }
        }
    case "converge":
        guard arguments.count == 4, let url = URL(string: arguments[3]), let user = SyncUser.current else { fail("converge ROOT REALMURL, logged in") }
        let configuration = Realm.Configuration(syncConfiguration: SyncConfiguration(user: user, realmURL: url), objectTypes: RandomNotes.types)
        // A sync that never completes is a failure to report, not a hang.
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) {
            let diagnostics = user.session(for: url)?.diagnostics ?? "the Realm did not open"
            FileHandle.standardError.write(Data("RealmSyncTestHelper: converge timed out: \(diagnostics)\n".utf8))
            exit(3)
        }
        _ = try DispatchQueue(label: "open").sync { try Realm(configuration: configuration) }
        let session = user.session(for: url)!
        try await session.waitForUpload()
        try await session.waitForDownload()
        let dump = try DispatchQueue(label: "read").sync { RandomNotes.dump(try Realm(configuration: configuration)) }
        for line in dump { say("object \(line)") }
    case "current-with-two":
        guard arguments.count == 4, let server = URL(string: arguments[3]) else { fail("current-with-two ROOT SERVER") }
        _ = try await SyncUser.logIn(with: .nickname("first"), server: server)
        _ = try await SyncUser.logIn(with: .nickname("second"), server: server)
        say("logged in \(SyncUser.all.count)")
        _ = SyncUser.current
        say("SyncUser.current returned")
    default:
        fail("unknown command '\(arguments[1])'")
    }
} catch {
    fail("\(error)")
}
