/// An identity made by one client that no other client can make: the
/// client file's identity and a counter of that file. Objects without a
/// primary key and list elements are named by one (Docs/SyncDesign.md,
/// "Identities").
public struct GlobalKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The identity the server gave the client file that made the key.
    public var client: UInt64
    /// The file's counter when it made the key.
    public var counter: UInt64

    /// The key `counter` of client file `client`.
    public init(client: UInt64, counter: UInt64) {
        self.client = client
        self.counter = counter
    }

    public static func < (lhs: GlobalKey, rhs: GlobalKey) -> Bool {
        (lhs.client, lhs.counter) < (rhs.client, rhs.counter)
    }

    public var description: String { "\(client).\(counter)" }
}
