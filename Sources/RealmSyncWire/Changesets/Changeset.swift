/// The changes of one write transaction of one client, as they travel and
/// as the server's history keeps them.
public struct Changeset: Hashable, Sendable {
    /// The client file that made it.
    public var clientFileIdent: UInt64
    /// Its number among that file's changesets, from 1.
    public var clientVersion: UInt64
    /// The last server version the client had integrated when it made it:
    /// what it had seen.
    public var lastServerVersion: UInt64
    /// When it was made: milliseconds since 1970 by the client's clock
    /// (never lower than the largest it had seen).
    public var timestamp: Int64
    /// The stamp sequence of its first instruction; each next one has the
    /// next number. An instruction's stamp is (timestamp, client file,
    /// sequence).
    public var firstSequence: UInt64
    /// The changes, in the order they were made.
    public var instructions: [Instruction]

    /// A changeset as described.
    public init(clientFileIdent: UInt64, clientVersion: UInt64, lastServerVersion: UInt64, timestamp: Int64,
                firstSequence: UInt64, instructions: [Instruction]) {
        self.clientFileIdent = clientFileIdent
        self.clientVersion = clientVersion
        self.lastServerVersion = lastServerVersion
        self.timestamp = timestamp
        self.firstSequence = firstSequence
        self.instructions = instructions
    }

    /// The stamp of instruction `index`.
    public func stamp(ofInstruction index: Int) -> Stamp {
        Stamp(timestamp: timestamp, client: clientFileIdent, sequence: firstSequence &+ UInt64(index))
    }
}

extension Stamp {
    /// The stamp of a default value (a `setDefault`): below every stamp of
    /// a `set`, and ordered among defaults by client and sequence, so that
    /// every replica keeps the same default when no replica set the value.
    public var asDefault: Stamp {
        Stamp(timestamp: .min, client: client, sequence: sequence)
    }

    /// Whether this is the stamp of a default value.
    public var isDefault: Bool { timestamp == .min }
}

/// When a change was made, for last-writer-wins: compared by timestamp,
/// then client file identity, then sequence, so that every replica orders
/// any two changes the same way.
public struct Stamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds since 1970, by the writing client's clock (after
    /// every stamp it had seen).
    public var timestamp: Int64
    /// The writing client file's identity.
    public var client: UInt64
    /// The instruction's number among that client file's instructions.
    public var sequence: UInt64

    /// A stamp as described.
    public init(timestamp: Int64, client: UInt64, sequence: UInt64) {
        self.timestamp = timestamp
        self.client = client
        self.sequence = sequence
    }

    public static func < (lhs: Stamp, rhs: Stamp) -> Bool {
        (lhs.timestamp, lhs.client, lhs.sequence) < (rhs.timestamp, rhs.client, rhs.sequence)
    }

    public var description: String { "\(timestamp)@\(client)#\(sequence)" }
}
