/// Puts changesets sent in parts back together, refusing parts that do
/// not continue the changeset under way or that would make it larger than
/// ``maximumChangesetSize``.
public struct ChangesetReassembler: Sendable {
    /// The largest changeset accepted, encoded.
    public let maximumChangesetSize: Int
    private var pending: [UInt8] = []
    private var pendingVersion: UInt64 = 0
    private var pendingSize = 0

    /// A reassembler refusing changesets over `maximumChangesetSize` bytes.
    public init(maximumChangesetSize: Int = 256 << 20) {
        self.maximumChangesetSize = maximumChangesetSize
    }

    /// Takes the next part; returns the changeset (and its server version)
    /// when the part completes one.
    ///
    /// - Throws: ``WireFormatError`` for a part that does not continue the
    ///   changeset under way, a size over the limit, or a changeset that
    ///   does not decode.
    public mutating func add(_ part: ChangesetPart) throws(WireFormatError) -> (serverVersion: UInt64, changeset: Changeset)? {
        guard part.totalSize > 0, part.totalSize <= maximumChangesetSize else {
            throw WireFormatError(offset: 0, reason: "a changeset of \(part.totalSize) bytes (at most \(maximumChangesetSize))")
        }
        if pending.isEmpty {
            guard part.offset == 0 else { throw WireFormatError(offset: 0, reason: "a changeset part at \(part.offset) with none begun") }
            pendingVersion = part.serverVersion
            pendingSize = part.totalSize
        } else {
            guard part.offset == pending.count, part.totalSize == pendingSize, part.serverVersion == pendingVersion else {
                throw WireFormatError(offset: 0, reason: "a changeset part that does not continue the one under way")
            }
        }
        guard part.offset + part.bytes.count <= part.totalSize, !part.bytes.isEmpty else {
            throw WireFormatError(offset: 0, reason: "a changeset part past its changeset's end")
        }
        pending += part.bytes
        guard pending.count == pendingSize else { return nil }
        defer { pending = [] }
        return (pendingVersion, try ChangesetCoding.decode(pending))
    }

    /// Whether a changeset is half received.
    public var isInTheMiddle: Bool { !pending.isEmpty }
}
