import Foundation
import RealmSyncWire

/// The path of a synced Realm on the server, as a client names it in
/// `bind` (`/~/notes`, `/shared/board`), checked and resolved for one user.
///
/// A path is one to eight components of letters, digits, `_`, `-` and
/// `.`, none starting with `.` or holding `.realm`, so that it maps to a
/// file in the data folder and nowhere else. `~` as the first component is
/// the user's identity; a path whose first component is a user's identity
/// belongs to that user.
struct RealmPath: Hashable, Sendable, CustomStringConvertible {
    /// The path's components, `~` resolved.
    let components: [String]

    static let maximumComponents = 8
    static let maximumLength = 256

    /// The path `raw` as seen by the user `identity`, or nil when it is not
    /// a valid path.
    init?(_ raw: String, userIdentity identity: String) {
        guard raw.utf8.count <= Self.maximumLength, raw.hasPrefix("/") else { return nil }
        var components = raw.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if components.first == "~" { components[0] = identity }
        guard (1...Self.maximumComponents).contains(components.count), components.allSatisfy(Self.isValidComponent) else { return nil }
        self.components = components
    }

    private static func isValidComponent(_ component: String) -> Bool {
        guard !component.isEmpty, component.utf8.count <= 64, !component.hasPrefix("."), !component.contains(".realm") else { return false }
        return component.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".")
        }
    }

    /// The path with these components (already checked).
    init(components: [String]) {
        self.components = components
    }

    /// The first component: a user's identity when the Realm is a user's.
    var firstComponent: String { components[0] }

    /// Whether only the server writes the Realm (its last component starts
    /// with `__`, as the permission Realm's): its owner may only read it.
    var isServerManaged: Bool { components[components.count - 1].hasPrefix("__") }

    /// The permission Realm of the user `identity`.
    static func permissionRealm(of identity: String) -> RealmPath {
        RealmPath(components: [identity, PermissionRealm.name])
    }

    var description: String { "/" + components.joined(separator: "/") }

    /// The file that holds this Realm's history and state, under `root`.
    func fileURL(under root: URL) -> URL {
        var url = root
        for component in components.dropLast() { url.appendPathComponent(component, isDirectory: true) }
        return url.appendingPathComponent(components[components.count - 1] + ".realm")
    }
}
