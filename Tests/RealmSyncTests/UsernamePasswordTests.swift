import Dispatch
import Foundation
import RealmSync
import RealmSyncServer
import Testing

/// Every sync test runs in turn: they share the process's `SyncManager`
/// and its users. They run on threads of their own, so that a server answers
/// in time while other suites keep Swift's concurrency pool busy.
@Suite(.serialized, .onSyncTestThreads) struct SyncTests {}

extension SyncTests {
    @Suite struct UsernamePassword {
        @Test func registeringThenLoggingInGivesTheSameUser() async throws {
            let server = try await TestServer.start()
            defer { Task { await server.stop() } }
            try await TestClient.run {
                let registered = try await SyncUser.logIn(with: .usernamePassword(username: "ana", password: "secret", register: true),
                                                          server: server.url)
                let identity = try #require(registered.identity)
                #expect(identity.count == 32)
                #expect(registered.isAdmin == false)
                #expect(registered.state == .active)
                #expect(registered.authenticationServer == server.url)
                #expect(SyncUser.current === registered)
                #expect(SyncUser.all.count == 1)

                let again = try await SyncUser.logIn(with: .usernamePassword(username: "ana", password: "secret"), server: server.url)
                #expect(again === registered, "a second login of one user gives the same SyncUser")
                #expect(SyncUser.all[identity] === registered)
            }
        }

        @Test func registeringATakenUsernameFails() async throws {
            let server = try await TestServer.start()
            defer { Task { await server.stop() } }
            try await TestClient.run {
                _ = try await SyncUser.logIn(with: .usernamePassword(username: "bo", password: "one", register: true), server: server.url)
                await expectAuthError(.userAlreadyExists) {
                    _ = try await SyncUser.logIn(with: .usernamePassword(username: "bo", password: "two", register: true), server: server.url)
                }
                // The first registration's password still works.
                _ = try await SyncUser.logIn(with: .usernamePassword(username: "bo", password: "one"), server: server.url)
            }
        }

        @Test func aWrongPasswordAndAnUnknownUserAreRefused() async throws {
            let server = try await TestServer.start()
            defer { Task { await server.stop() } }
            try await TestClient.run {
                _ = try await SyncUser.logIn(with: .usernamePassword(username: "cy", password: "right", register: true), server: server.url)
                TestClient.logOutEveryone()
                let wrong = await expectAuthError(.invalidCredential) {
                    _ = try await SyncUser.logIn(with: .usernamePassword(username: "cy", password: "wrong"), server: server.url)
                }
                #expect(wrong?.httpStatusCode == 401)
                await expectAuthError(.userDoesNotExist) {
                    _ = try await SyncUser.logIn(with: .usernamePassword(username: "nobody", password: "x"), server: server.url)
                }
                await expectAuthError(.invalidParameters) {
                    _ = try await SyncUser.logIn(with: .usernamePassword(username: "cy", password: ""), server: server.url)
                }
                #expect(SyncUser.all.isEmpty, "a failed login logs nobody in")
            }
        }

        @Test func theCallbackArrivesOnTheNamedQueue() async throws {
            let server = try await TestServer.start()
            defer { Task { await server.stop() } }
            try await TestClient.run {
                let queue = DispatchQueue(label: "callbacks")
                let key = DispatchSpecificKey<String>()
                queue.setSpecific(key: key, value: "callbacks")
                let (onQueue, identity, errorCode): (Bool, String?, Int?) = await withCheckedContinuation { continuation in
                    SyncUser.logIn(with: .usernamePassword(username: "di", password: "pw", register: true), server: server.url,
                                   callbackQueue: queue) { user, error in
                        continuation.resume(returning: (DispatchQueue.getSpecific(key: key) == "callbacks", user?.identity,
                                                        (error as NSError?)?.code))
                    }
                }
                #expect(onQueue)
                #expect(identity != nil)
                #expect(errorCode == nil)

                let failure: (Bool, Int?) = await withCheckedContinuation { continuation in
                    SyncUser.logIn(with: .usernamePassword(username: "di", password: "bad"), server: server.url,
                                   callbackQueue: queue) { user, error in
                        continuation.resume(returning: (DispatchQueue.getSpecific(key: key) == "callbacks" && user == nil,
                                                        (error as NSError?)?.code))
                    }
                }
                #expect(failure.0)
                #expect(failure.1 == SyncAuthError.Code.invalidCredential.rawValue)
            }
        }

        @Test func aChangedPasswordReplacesTheOldOne() async throws {
            let server = try await TestServer.start()
            defer { Task { await server.stop() } }
            try await TestClient.run {
                let user = try await SyncUser.logIn(with: .usernamePassword(username: "ed", password: "old", register: true), server: server.url)
                let error: (any Error)? = await withCheckedContinuation { continuation in
                    user.changePassword("new", callbackQueue: DispatchQueue(label: "c")) { continuation.resume(returning: $0) }
                }
                #expect(error == nil)
                TestClient.logOutEveryone()
                await expectAuthError(.invalidCredential) {
                    _ = try await SyncUser.logIn(with: .usernamePassword(username: "ed", password: "old"), server: server.url)
                }
                let again = try await SyncUser.logIn(with: .usernamePassword(username: "ed", password: "new"), server: server.url)
                #expect(again.identity == user.identity)
            }
        }

        @Test func repeatedWrongPasswordsAreRateLimited() async throws {
            let server = try await TestServer.start { $0.failedLoginLimit = 3 }
            defer { Task { await server.stop() } }
            try await TestClient.run {
                _ = try await SyncUser.logIn(with: .usernamePassword(username: "fay", password: "right", register: true), server: server.url)
                TestClient.logOutEveryone()
                for _ in 0..<3 {
                    await expectAuthError(.invalidCredential) {
                        _ = try await SyncUser.logIn(with: .usernamePassword(username: "fay", password: "guess"), server: server.url)
                    }
                }
                // Now even the right password waits for the window to pass.
                let limited = await expectAuthError(.httpStatusCodeError) {
                    _ = try await SyncUser.logIn(with: .usernamePassword(username: "fay", password: "right"), server: server.url)
                }
                #expect(limited?.httpStatusCode == 429)
                // Other users are not affected.
                _ = try await SyncUser.logIn(with: .usernamePassword(username: "gus", password: "pw", register: true), server: server.url)
            }
        }
    }
}
