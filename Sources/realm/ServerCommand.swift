import ArgumentParser
import Foundation
import Logging
import RealmSyncServer
import RealmSyncWire

/// `realm server`: runs the sync server until SIGINT or SIGTERM.
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Run the sync server: users and authentication (Docs/Sync.md).",
        discussion: """
            Listens on loopback unless --host says otherwise, keeps its users in --data (or in the \
            PostgreSQL database of --database), and stops \
            gracefully on SIGINT or SIGTERM. The first administrator comes from --admin-username (or \
            REALM_SERVER_ADMIN_USERNAME) with the password in REALM_SERVER_ADMIN_PASSWORD (or \
            --admin-password).
            """)

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 9080

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The folder of the server's data (created if missing).")
    var data = "realm-server-data"

    @Option(help: "A PostgreSQL database for users, accounts, tokens and permissions: postgres://user:password@host:port/database (or REALM_SERVER_DATABASE); without it they are kept in --data.")
    var database: String?

    @Option(help: "A PEM certificate chain: serve HTTPS (with --tls-key).")
    var tlsCertificate: String?

    @Option(help: "The PEM private key of --tls-certificate.")
    var tlsKey: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    @Option(help: "The username of an administrator to create or promote at start.")
    var adminUsername: String?

    @Option(help: "That administrator's password, if new (prefer REALM_SERVER_ADMIN_PASSWORD).")
    var adminPassword: String?

    @Option(help: "A PEM public key (RSA or P-256) that signs the tokens of the 'jwt' provider.")
    var jwtPublicKey: String?

    @Option(help: "A custom JWT provider, as NAME=PEM-FILE (repeatable).")
    var customProvider: [String] = []

    @Option(help: "A Google OAuth client ID whose ID tokens are accepted (repeatable; with --google-keys).")
    var googleClientID: [String] = []

    @Option(help: "Google's signing keys, a JWK set file.")
    var googleKeys: String?

    @Option(help: "The URL that checks Facebook tokens (https://graph.facebook.com/me).")
    var facebookTokenCheckURL: String?

    @Option(help: "The URL that checks CloudKit tokens; its answer's 'userRecordName' is the identity.")
    var cloudKitTokenCheckURL: String?

    @Flag(help: "Accept anonymous logins (development only).")
    var allowAnonymous = false

    @Flag(help: "Accept nickname logins (development only).")
    var allowNickname = false

    @Flag(help: "Let nickname logins ask to be administrators, which anyone can then do (development only).")
    var allowNicknameAdmins = false

    @Option(help: "The lifetime of access tokens, in seconds.")
    var accessTokenLifetime: Double = 600

    @Option(help: "The bcrypt cost of password hashes (4 to 31).")
    var passwordHashCost: UInt8 = 12

    func run() async throws {
        let configuration = try makeConfiguration()
        let server: SyncServer
        do {
            server = try await SyncServer(configuration: configuration)
        } catch {
            throw ValidationError("\(error)")
        }
        try await server.run { url in
            // Unbuffered: a parent process waits for this line.
            FileHandle.standardOutput.write(Data("Listening on \(url.absoluteString)\n".utf8))
        }
    }

    private func makeConfiguration() throws -> SyncServer.Configuration {
        var configuration = SyncServer.Configuration(dataDirectory: URL(fileURLWithPath: data))
        configuration.host = host
        configuration.port = port
        guard let level = Logger.Level(rawValue: logLevel) else { throw ValidationError("unknown log level '\(logLevel)'") }
        configuration.logLevel = level
        switch (tlsCertificate, tlsKey) {
        case (let certificate?, let key?):
            configuration.tls = .init(certificateChain: URL(fileURLWithPath: certificate), privateKey: URL(fileURLWithPath: key))
        case (nil, nil):
            break
        default:
            throw ValidationError("--tls-certificate and --tls-key go together")
        }
        let environment = ProcessInfo.processInfo.environment
        configuration.databaseURL = database ?? environment["REALM_SERVER_DATABASE"].flatMap { $0.isEmpty ? nil : $0 }
        if let username = adminUsername ?? environment["REALM_SERVER_ADMIN_USERNAME"] {
            guard let password = adminPassword ?? environment["REALM_SERVER_ADMIN_PASSWORD"], !password.isEmpty else {
                throw ValidationError("the administrator needs a password: set REALM_SERVER_ADMIN_PASSWORD")
            }
            configuration.initialAdmin = .init(username: username, password: password)
        }
        if let jwtPublicKey {
            configuration.providers.jwt[.jwt] = .init(publicKeyPEM: try read(jwtPublicKey))
        }
        for entry in customProvider {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else { throw ValidationError("--custom-provider takes NAME=PEM-FILE, not '\(entry)'") }
            configuration.providers.jwt[IdentityProvider(rawValue: parts[0])] = .init(publicKeyPEM: try read(parts[1]))
        }
        if let googleKeys {
            guard !googleClientID.isEmpty else { throw ValidationError("--google-keys needs at least one --google-client-id") }
            configuration.providers.google = .init(clientIDs: googleClientID, keySetJSON: try read(googleKeys))
        }
        if let facebookTokenCheckURL {
            configuration.providers.tokenCheck[.facebook] = .init(url: try url(facebookTokenCheckURL), identityField: "id")
        }
        if let cloudKitTokenCheckURL {
            configuration.providers.tokenCheck[.cloudKit] = .init(url: try url(cloudKitTokenCheckURL), identityField: "userRecordName")
        }
        configuration.providers.allowsAnonymous = allowAnonymous
        configuration.providers.allowsNickname = allowNickname
        configuration.providers.allowsNicknameAdmins = allowNicknameAdmins
        configuration.accessTokenLifetime = accessTokenLifetime
        configuration.passwordHashCost = passwordHashCost
        return configuration
    }

    private func read(_ path: String) throws -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ValidationError("cannot read '\(path)': \(error.localizedDescription)")
        }
    }

    private func url(_ text: String) throws -> URL {
        guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
            throw ValidationError("'\(text)' is not an http or https URL")
        }
        return url
    }
}
