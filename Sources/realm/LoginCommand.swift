import ArgumentParser
import Foundation
import RealmSync

/// `realm login`: the client's side of seed 001's "Users" sample, against
/// a running `realm server`.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Log a user in to a sync server (registering them first with --register), then out.")

    @Option(help: "The server's URL.")
    var server = "http://127.0.0.1:9080"

    @Option(help: "The username.")
    var username: String

    @Option(help: "The password.")
    var password: String

    @Flag(help: "Register the user first.")
    var register = false

    func run() async throws {
        guard let serverURL = URL(string: server) else { throw ValidationError("'\(server)' is not a URL") }
        // Users of this command are kept apart from any app's.
        SyncManager.shared.rootDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("realm-login-\(getpid())")
        defer { try? FileManager.default.removeItem(at: SyncManager.shared.rootDirectory) }
        do {
            if register {
                let user = try await SyncUser.logIn(with: .usernamePassword(username: username, password: password, register: true),
                                                    server: serverURL)
                print("Registered '\(username)': identity \(user.identity ?? "?")")
                await logOut(user)
            }
            let user = try await SyncUser.logIn(with: .usernamePassword(username: username, password: password), server: serverURL)
            print("Logged in '\(username)': identity \(user.identity ?? "?"), administrator: \(user.isAdmin)")
            print("SyncUser.current is this user: \(SyncUser.current === user)")
            await logOut(user)
            print("Logged out; SyncUser.current is \(SyncUser.current == nil ? "nil" : "still set")")
        } catch let error as SyncAuthError {
            FileHandle.standardError.write(Data("realm login: \(error.message) (SyncAuthError \(error.code.rawValue))\n".utf8))
            throw ExitCode(1)
        }
    }

    /// Logs out, waiting for the server to revoke the refresh token (the
    /// process ends right after).
    private func logOut(_ user: SyncUser) async {
        let queue = DispatchQueue(label: "logout")
        let error: (any Error)? = await withCheckedContinuation { continuation in
            user.logOut(callbackQueue: queue) { continuation.resume(returning: $0) }
        }
        if let error {
            FileHandle.standardError.write(Data("realm login: the server could not revoke the refresh token: \(error)\n".utf8))
        }
    }
}
