import Foundation
import Logging
import RealmSyncWire

/// The permission API (``PermissionRoute``): grants and revokes
/// permissions, and makes, accepts and withdraws offers. Every change is
/// durable in the store before it is answered, takes effect on open
/// sessions (``AccessControl/permissionsChanged(realmPath:)``), and is in the open
/// permission Realms by the time the caller hears back.
struct PermissionService: Sendable {
    let sync: SyncService
    let logger: Logger

    private var store: any UserStore { sync.access.store }
    private var access: AccessControl { sync.access }

    // MARK: Permissions

    func apply(_ request: ApplyPermissionRequest, caller: AccessClaims) async throws(Problem) {
        let user = try await currentUser(caller)
        let realmPath = try await managedPath(request.realmPath, by: user)
        let target = try await targetUser(request)
        try await storeCall {
            try await store.setPermission(PermissionRecord(realmPath: realmPath, userIdentity: target, accessLevel: request.accessLevel,
                                                           updated: Date()))
        }
        logger.info("\(user.identity) set the access of \(target) to \(realmPath) to \(request.accessLevel)")
        await changed(realmPath: realmPath, user: target)
    }

    /// The stored form of the Realm path `raw` (`/~/notes`, `*`,
    /// `/<owner>/*`), once the caller is found to manage it.
    private func managedPath(_ raw: String, by user: UserRecord) async throws(Problem) -> String {
        if raw == "*" { return user.isAdmin ? "*" : "/\(user.identity)/*" }
        if raw.hasSuffix("/*") {
            guard let owner = RealmPath(String(raw.dropLast(2)), userIdentity: user.identity), owner.components.count == 1 else {
                throw Problem.invalidParameters("'\(raw.prefix(300))' is not a Realm path, '*' or '/<owner>/*'")
            }
            guard owner.firstComponent == user.identity || user.isAdmin else {
                throw Problem.accessDenied("only '\(owner.firstComponent)' and administrators manage every Realm of '\(owner.firstComponent)'")
            }
            return "/\(owner.firstComponent)/*"
        }
        return try await realmPath(raw, managedBy: user).description
    }

    private func realmPath(_ raw: String, managedBy user: UserRecord) async throws(Problem) -> RealmPath {
        guard let path = RealmPath(raw, userIdentity: user.identity) else {
            throw Problem.invalidParameters("'\(raw.prefix(300))' is not a valid Realm path")
        }
        guard !path.isServerManaged else {
            throw Problem.accessDenied("the server manages the Realm '\(path)'; its permissions cannot change")
        }
        guard try await level(of: user, at: path) == .admin else {
            throw Problem.accessDenied("the user \(user.identity) does not manage the Realm '\(path)'")
        }
        return path
    }

    /// The identity of the user a request names, or `*`.
    private func targetUser(_ request: ApplyPermissionRequest) async throws(Problem) -> String {
        switch (request.userIdentity, request.username) {
        case (let identity?, nil):
            if identity == "*" { return identity }
            guard try await storeCall({ try await store.user(identity: identity) }) != nil else {
                throw Problem.userNotFound("no user has the identity '\(identity.prefix(100))'")
            }
            return identity
        case (nil, let username?):
            guard let account = try await storeCall({ try await store.account(provider: .usernamePassword, providerUserIdentity: username) }) else {
                throw Problem.userNotFound("no user has the username '\(username.prefix(100))'")
            }
            return account.userIdentity
        default:
            throw Problem.invalidParameters("a permission names its user by exactly one of 'user_identity' and 'username'")
        }
    }

    // MARK: Offers

    func createOffer(_ request: CreateOfferRequest, caller: AccessClaims) async throws(Problem) -> OfferTokenMessage {
        let user = try await currentUser(caller)
        guard request.accessLevel != .none else {
            throw Problem.invalidParameters("an offer gives read, write or admin access")
        }
        if let expires = request.expires, expires <= Date() {
            throw Problem.invalidParameters("the offer's expiry is in the past")
        }
        let path = try await realmPath(request.realmPath, managedBy: user)
        let token = SecretToken.make()
        try await storeCall {
            try await store.insertOffer(OfferRecord(tokenHash: SecretToken.hash(token), realmPath: path.description,
                                                    accessLevel: request.accessLevel, creator: user.identity, created: Date(),
                                                    expires: request.expires))
        }
        logger.info("\(user.identity) offered \(request.accessLevel) access to \(path)")
        return OfferTokenMessage(token: token)
    }

    /// Gives the caller the offer's access, added to what they have (seed
    /// 001: accepting a read offer takes no write access away). Accepting
    /// again changes nothing.
    func acceptOffer(_ request: OfferTokenMessage, caller: AccessClaims) async throws(Problem) -> AcceptOfferResponse {
        let user = try await currentUser(caller)
        let offer = try await validOffer(request.token)
        guard let path = RealmPath(offer.realmPath, userIdentity: offer.creator) else { throw Problem.internalError }
        // An offer is as good as its creator's right to make it now.
        guard let creator = try await storeCall({ try await store.user(identity: offer.creator) }) else {
            throw Problem.expiredOffer("the user who made the offer no longer exists")
        }
        guard try await level(of: creator, at: path) == .admin else {
            throw Problem.expiredOffer("the user who made the offer no longer manages '\(path)'")
        }
        let current = try await level(of: user, at: path)
        let granted = try await storeCall { try await store.permissions(realmPaths: [path.description]) }
            .first { $0.userIdentity == user.identity }?.accessLevel ?? .none
        if current < offer.accessLevel || granted < offer.accessLevel && current < .admin {
            try await storeCall {
                try await store.setPermission(PermissionRecord(realmPath: path.description, userIdentity: user.identity,
                                                               accessLevel: max(granted, offer.accessLevel), updated: Date()))
            }
            logger.info("\(user.identity) accepted \(offer.accessLevel) access to \(path)")
            await changed(realmPath: path.description, user: user.identity)
        }
        return AcceptOfferResponse(realmPath: path.description)
    }

    func invalidateOffer(_ request: OfferTokenMessage, caller: AccessClaims) async throws(Problem) {
        let user = try await currentUser(caller)
        let hash = SecretToken.hash(request.token)
        guard let offer = try await storeCall({ try await store.offer(tokenHash: hash) }) else {
            throw Problem.expiredOffer("no offer has this token")
        }
        if offer.creator != user.identity {
            guard let path = RealmPath(offer.realmPath, userIdentity: offer.creator) else { throw Problem.internalError }
            _ = try await realmPath(path.description, managedBy: user)
        }
        _ = try await storeCall { try await store.deleteOffer(tokenHash: hash) }
    }

    private func validOffer(_ token: String) async throws(Problem) -> OfferRecord {
        guard let offer = try await storeCall({ try await store.offer(tokenHash: SecretToken.hash(token)) }) else {
            throw Problem.expiredOffer("no offer has this token: it was never made, or was withdrawn")
        }
        if let expires = offer.expires, expires <= Date() {
            throw Problem.expiredOffer("the offer expired at \(expires)")
        }
        return offer
    }

    // MARK: Plumbing

    private func changed(realmPath: String, user: String) async {
        await sync.permissionsChanged(realmPath: realmPath, user: user)
    }

    private func level(of user: UserRecord, at path: RealmPath) async throws(Problem) -> AccessLevel {
        do {
            return try await access.level(of: user.identity, isAdmin: user.isAdmin, at: path)
        } catch {
            throw Problem.internalError
        }
    }

    private func currentUser(_ caller: AccessClaims) async throws(Problem) -> UserRecord {
        guard let user = try await storeCall({ try await store.user(identity: caller.userIdentity) }) else {
            throw Problem.invalidAccessToken("the access token's user no longer exists")
        }
        return user
    }

    private func storeCall<T>(_ body: () async throws -> T) async throws(Problem) -> T {
        do {
            return try await body()
        } catch {
            logger.error("the user store failed: \(error)")
            throw Problem.internalError
        }
    }
}
