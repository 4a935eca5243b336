extension ChangesetPart {
    /// The most a part adds to a message besides its bytes: four varints
    /// (server version, total size, offset, length) of at most ten bytes.
    public static let encodingOverhead = 40

    /// The bytes of parts one message carries at most, leaving room for
    /// the message's own fields (``SyncMessageCoding/partOverhead``).
    public static let messageBudget = SyncMessageCoding.maximumMessageSize - 4 * SyncMessageCoding.partOverhead

    /// Encoded changesets, in order, cut into parts and grouped into the
    /// parts of consecutive messages, so that no message exceeds
    /// ``SyncMessageCoding/maximumMessageSize`` however many small
    /// changesets or however large a single one: at least one group, empty
    /// when there is nothing.
    public static func messages(of changesets: [(serverVersion: UInt64, bytes: [UInt8])]) -> [[ChangesetPart]] {
        let largestPart = messageBudget - encodingOverhead
        var messages: [[ChangesetPart]] = [[]]
        var budget = messageBudget
        for (version, bytes) in changesets {
            for part in parts(of: bytes, serverVersion: version, maximumSize: largestPart) {
                let size = part.bytes.count + encodingOverhead
                if size > budget {
                    messages.append([])
                    budget = messageBudget
                }
                messages[messages.count - 1].append(part)
                budget -= size
            }
        }
        return messages
    }
}
