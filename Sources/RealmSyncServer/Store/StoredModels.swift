import Foundation
import RealmObjects
import RealmSyncWire

// The classes of the embedded user store's Realm.

final class StoredUser: Object {
    @Persisted(primaryKey: true) var identity = ""
    @Persisted var isAdmin = false
    @Persisted var created = Date()
    /// `UserRecord.metadata` as a JSON object.
    @Persisted var metadata = "{}"

    convenience init(_ record: UserRecord) {
        self.init()
        identity = record.identity
        isAdmin = record.isAdmin
        created = record.created
        let data = (try? JSONEncoder().encode(record.metadata)) ?? Data("{}".utf8)
        metadata = String(decoding: data, as: UTF8.self)
    }

    var record: UserRecord {
        let values = (try? JSONDecoder().decode([String: String].self, from: Data(metadata.utf8))) ?? [:]
        return UserRecord(identity: identity, isAdmin: isAdmin, created: created, metadata: values)
    }
}

final class StoredAccount: Object {
    /// The provider and the provider's identity, joined: one account per
    /// pair, enforced by the primary key.
    @Persisted(primaryKey: true) var key = ""
    @Persisted var provider = ""
    @Persisted var providerUserIdentity = ""
    @Persisted(indexed: true) var userIdentity = ""
    @Persisted var passwordHash: String?

    static func key(_ provider: IdentityProvider, _ providerUserIdentity: String) -> String {
        // A unit separator cannot appear in a provider's name.
        provider.rawValue + "\u{1F}" + providerUserIdentity
    }

    convenience init(_ record: AccountRecord) {
        self.init()
        key = Self.key(record.provider, record.providerUserIdentity)
        provider = record.provider.rawValue
        providerUserIdentity = record.providerUserIdentity
        userIdentity = record.userIdentity
        passwordHash = record.passwordHash
    }

    var record: AccountRecord {
        AccountRecord(provider: IdentityProvider(rawValue: provider), providerUserIdentity: providerUserIdentity,
                      userIdentity: userIdentity, passwordHash: passwordHash)
    }
}

final class StoredRefreshToken: Object {
    @Persisted(primaryKey: true) var tokenHash = ""
    @Persisted(indexed: true) var userIdentity = ""
    @Persisted var issued = Date()
    @Persisted var expires = Date()

    convenience init(_ record: RefreshTokenRecord) {
        self.init()
        tokenHash = record.tokenHash
        userIdentity = record.userIdentity
        issued = record.issued
        expires = record.expires
    }

    var record: RefreshTokenRecord {
        RefreshTokenRecord(tokenHash: tokenHash, userIdentity: userIdentity, issued: issued, expires: expires)
    }
}

final class StoredPermission: Object {
    /// The Realm path and the user, joined: one permission per pair.
    @Persisted(primaryKey: true) var key = ""
    @Persisted(indexed: true) var realmPath = ""
    @Persisted(indexed: true) var userIdentity = ""
    @Persisted var accessLevel = 0
    @Persisted var updated = Date()

    static func key(realmPath: String, userIdentity: String) -> String {
        realmPath + "\u{1F}" + userIdentity
    }

    convenience init(_ record: PermissionRecord) {
        self.init()
        key = Self.key(realmPath: record.realmPath, userIdentity: record.userIdentity)
        realmPath = record.realmPath
        userIdentity = record.userIdentity
        accessLevel = record.accessLevel.rawValue
        updated = record.updated
    }

    var record: PermissionRecord {
        PermissionRecord(realmPath: realmPath, userIdentity: userIdentity, accessLevel: AccessLevel(rawValue: accessLevel) ?? .none,
                         updated: updated)
    }
}

final class StoredOffer: Object {
    @Persisted(primaryKey: true) var tokenHash = ""
    @Persisted var realmPath = ""
    @Persisted var accessLevel = 0
    @Persisted var creator = ""
    @Persisted var created = Date()
    @Persisted var expires: Date?

    convenience init(_ record: OfferRecord) {
        self.init()
        tokenHash = record.tokenHash
        realmPath = record.realmPath
        accessLevel = record.accessLevel.rawValue
        creator = record.creator
        created = record.created
        expires = record.expires
    }

    var record: OfferRecord {
        OfferRecord(tokenHash: tokenHash, realmPath: realmPath, accessLevel: AccessLevel(rawValue: accessLevel) ?? .none,
                    creator: creator, created: created, expires: expires)
    }
}
