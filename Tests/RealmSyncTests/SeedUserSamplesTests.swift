import Dispatch
import Foundation
import RealmSync
import RealmSyncServer
import Testing

extension SyncTests {
    /// Seed 001's "Users" chapter, sample by sample, in Realm Swift 3.x's
    /// spelling of the Objective-C (Docs/SeedSamples.md, "Seed 001, sync:
    /// users"). Callbacks use the default queue, the main queue, as the
    /// samples do.
    @Suite struct SeedUserSamples {
        /// "The authentication server URL is simply a NSURL representing the
        /// location of the Realm Object Server."
        static func serverURL(_ server: TestServer) -> URL {
            // Sample: URL(string: "http://my.realmServer.com:9080")
            URL(string: "http://127.0.0.1:\(server.server.port!)")!
        }

        @Test func credentialsOfEveryKind() {
            // Username/password
            let usernameCredentials = SyncCredentials.usernamePassword(username: "username", password: "password", register: false)
            // Google
            let googleCredentials = SyncCredentials.google(token: "Google token")
            // Facebook
            let facebookCredentials = SyncCredentials.facebook(token: "Facebook token")
            // Apple CloudKit
            let cloudKitCredentials = SyncCredentials.cloudKit(token: "CloudKit token")
            // Custom authentication
            let credentials = SyncCredentials(customToken: "custom token", provider: Provider("myauth"), userInfo: [:])

            #expect(usernameCredentials.provider == .usernamePassword)
            #expect(googleCredentials.provider == .google && googleCredentials.token == "Google token")
            #expect(facebookCredentials.provider == .facebook)
            #expect(cloudKitCredentials.provider == .cloudKit)
            #expect(credentials.provider.rawValue == "myauth")
        }

        @Test func loggingInWorkingWithUsersAndChangingPasswords() async throws {
            let server = try await TestServer.start()
            defer { Task { await server.stop() } }
            try await TestClient.run {
                let serverURL = Self.serverURL(server)
                let registering = SyncCredentials.usernamePassword(username: "username", password: "password", register: true)
                // "An error will be thrown if your application tries to log in a
                // user that does not exist."
                let missing: (any Error)? = await withCheckedContinuation { continuation in
                    SyncUser.logIn(with: SyncCredentials.usernamePassword(username: "username", password: "password", register: false),
                                   server: serverURL) { user, error in
                        continuation.resume(returning: error)
                    }
                }
                #expect((missing as? SyncAuthError)?.code == .userDoesNotExist)

                // Logging in
                let loggedIn: SyncUser? = await withCheckedContinuation { continuation in
                    SyncUser.logIn(with: registering, server: serverURL) { user, error in
                        if let user {
                            // can now open a synchronized Realm with this user
                            continuation.resume(returning: user)
                        } else if let error {
                            // handle error
                            Issue.record(error)
                            continuation.resume(returning: nil)
                        }
                    }
                }
                let user = try #require(loggedIn)

                // Working with users: "The current user ... the last user who
                // logged in and whose credentials have not expired."
                let current = SyncUser.current
                #expect(current === user)
                let allUsers = SyncUser.all
                #expect(allUsers.count == 1)

                // "Users ... may change their own passwords."
                let newPassword = "swordfish"
                let changed: (any Error)? = await withCheckedContinuation { continuation in
                    user.changePassword(newPassword) { error in
                        if error != nil {
                            // Something went wrong
                        }
                        // Otherwise, the password was successfully changed.
                        continuation.resume(returning: error)
                    }
                }
                #expect(changed == nil)

                // Logging out
                user.logOut()
                // "If no users are logged in, the dictionary returned will be
                // empty."
                #expect(SyncUser.all.isEmpty)
                #expect(SyncUser.current == nil)
                let again = try await SyncUser.logIn(with: .usernamePassword(username: "username", password: newPassword), server: serverURL)
                #expect(again.identity == user.identity)
            }
        }

        @Test func adminUsersAndAdministratorAPIs() async throws {
            let server = try await TestServer.start { $0.initialAdmin = .init(username: "admin", password: "adminpw") }
            defer { Task { await server.stop() } }
            try await TestClient.run {
                let serverURL = Self.serverURL(server)
                let bob = try await SyncUser.logIn(with: .usernamePassword(username: "bob@realm.example.org", password: "pw", register: true),
                                                   server: serverURL)
                let usernameCredentials = SyncCredentials.usernamePassword(username: "admin", password: "adminpw")
                let adminUser: SyncUser? = await withCheckedContinuation { continuation in
                    SyncUser.logIn(with: usernameCredentials, server: serverURL) { user, error in
                        if let user {
                            // true if the user is an administrator on the ROS instance
                            print("User is admin: \(user.isAdmin)")
                        }
                        continuation.resume(returning: user)
                    }
                }
                let admin = try #require(adminUser)
                #expect(admin.isAdmin)
                #expect(!bob.isAdmin)

                // Retrieve user information
                let targetUserIdentity = "bob@realm.example.org"
                let info: SyncUserInfo? = await withCheckedContinuation { continuation in
                    admin.retrieveInfo(forUser: targetUserIdentity, identityProvider: .usernamePassword) { userInfo, error in
                        if error != nil {
                            // An error occurred
                        }
                        // Examine userInfo for the user's information...
                        continuation.resume(returning: userInfo)
                    }
                }
                #expect(info?.identity == bob.identity)
                #expect(info?.accounts.first?.providerUserIdentity == targetUserIdentity)

                // "The block will be passed in an error if ... the user is not a
                // Realm Object Server administrator."
                let refused: (any Error)? = await withCheckedContinuation { continuation in
                    bob.retrieveInfo(forUser: "admin", identityProvider: .usernamePassword) { _, error in continuation.resume(returning: error) }
                }
                #expect((refused as? SyncAuthError)?.code == .accessDeniedOrInvalidPath)

                // "Administrators may change the password of any user."
                let changed: (any Error)? = await withCheckedContinuation { continuation in
                    admin.changePassword("reset", forUserID: bob.identity!) { error in continuation.resume(returning: error) }
                }
                #expect(changed == nil)
            }
        }

        @Test func loggingAndErrorReporting() async throws {
            try await TestClient.run {
                // The logging level: off … all.
                SyncManager.shared.logLevel = .off
                #expect(SyncManager.shared.logLevel == .off)
                // Error reporting
                SyncManager.shared.errorHandler = { error, session in
                    // handle error
                }
                #expect(SyncManager.shared.errorHandler != nil)
                SyncManager.shared.errorHandler = nil

                // "Realm Mobile Platform errors are represented by NSError
                // objects whose domain is RLMSyncErrorDomain."
                #expect(SyncError.errorDomain == "io.realm.sync")
                #expect(SyncAuthError.errorDomain == "io.realm.sync.auth")
                #expect(SyncError.Code.clientResetError.rawValue == 7)
                #expect(SyncAuthError.Code.invalidCredential.rawValue == 611)
            }
        }
    }
}
