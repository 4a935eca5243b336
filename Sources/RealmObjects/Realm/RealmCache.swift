import Foundation
import RealmCore

/// Each thread's open Realms, by file: opening a Realm again on the same
/// thread returns the same instance while it is alive.
enum RealmCache {
    private static let key = "io.realm.objects.cache"

    /// Holds this thread's Realms weakly, so that a Realm nobody uses is
    /// closed (and stops pinning its version).
    private final class Entries {
        final class Weak {
            weak var state: RealmState?
            init(_ state: RealmState) { self.state = state }
        }
        var byIdentity: [String: Weak] = [:]
    }

    static func realm(for configuration: Realm.Configuration) throws -> RealmState {
        let entries: Entries
        if let existing = Thread.current.threadDictionary[key] as? Entries {
            entries = existing
        } else {
            entries = Entries()
            Thread.current.threadDictionary[key] = entries
        }
        let identity = configuration.identity
        // Configurations that list different class subsets of one file each
        // get a Realm of their own, which sees its classes.
        let key = configuration.objectTypes.map { types in
            identity + "\u{0}" + types.map { String(reflecting: $0) }.sorted().joined(separator: "\u{0}")
        } ?? identity
        if let state = entries.byIdentity[key]?.state {
            guard state.configuration.encryptionKey == configuration.encryptionKey else {
                try configuration.validateEncryptionKey()
                throw Realm.Error(.fileAccess, "Realm at path '\(identity)' already opened with \(state.configuration.encryptionKey == nil ? "no" : "a different") encryption key.")
            }
            guard state.configuration.readOnly == configuration.readOnly,
                  state.configuration.schemaVersion == configuration.schemaVersion else {
                throw Realm.Error(.fail, "Realm at path '\(identity)' already opened on this thread with a different configuration (read-only or schema version).")
            }
            return state
        }
        let state = try RealmOpener.open(configuration)
        entries.byIdentity[key] = Entries.Weak(state)
        return state
    }
}
