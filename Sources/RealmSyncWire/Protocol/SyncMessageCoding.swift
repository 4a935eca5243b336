/// The binary form of sync messages:
///
/// ```
/// "RS" (2 bytes), protocol version (1 byte), kind (1 byte), fields
/// ```
///
/// Numbers are varints, strings length-prefixed UTF-8, changeset parts
/// their fields then their bytes. Decoding checks everything, refuses a
/// message over ``maximumMessageSize``, and fails with a
/// ``WireFormatError`` rather than trust the peer.
public enum SyncMessageCoding {
    /// The version of the protocol spoken.
    /// 2: `setDefault`, embedded objects in to-one properties named by a
    /// key of their own (Docs/SyncDesign.md, "Embedded objects").
    /// 3: the salt of a server version, in `bind` and `download`.
    /// 4: query-based sync: subscriptions in `bind` and `subscribe`,
    /// evictions in `download`, `subscriptionStatus`.
    /// 5: changesets of format 2 (nested collections in mixed values), and
    /// lists of mixed values.
    public static let protocolVersion: UInt8 = 5
    /// The largest message sent or accepted.
    public static let maximumMessageSize = 1 << 20
    /// Room left in a message for the fields around changeset parts.
    public static let partOverhead = 64

    private enum Kind: UInt8 {
        case bind = 1, ident, upload, download, mark, refresh, unbind, error, subscribe, subscriptionStatus
    }

    /// The bytes of `message`. A caller keeps messages under
    /// ``maximumMessageSize`` by splitting changesets into parts
    /// (``ChangesetPart/parts(of:serverVersion:maximumSize:)``).
    public static func encode(_ message: SyncMessage) -> [UInt8] {
        var writer = BinaryWriter()
        writer.byte(UInt8(ascii: "R"))
        writer.byte(UInt8(ascii: "S"))
        writer.byte(protocolVersion)
        switch message {
        case .bind(let session, let path, let token, let ident, let last, let salt, let subscriptions):
            writer.byte(Kind.bind.rawValue)
            writer.varint(session)
            writer.lengthPrefixed(Array(path.utf8))
            writer.lengthPrefixed(Array(token.utf8))
            writer.varint(ident)
            writer.varint(last)
            writer.varint(salt)
            writer.byte(subscriptions == nil ? 0 : 1)
            if let subscriptions { write(subscriptions, into: &writer) }
        case .ident(let session, let ident, let last):
            writer.byte(Kind.ident.rawValue)
            writer.varint(session)
            writer.varint(ident)
            writer.varint(last)
        case .upload(let session, let parts):
            writer.byte(Kind.upload.rawValue)
            writer.varint(session)
            write(parts, into: &writer)
        case .download(let session, let serverVersion, let salt, let parts, let acknowledged, let progress, let eviction):
            writer.byte(Kind.download.rawValue)
            writer.varint(session)
            writer.varint(serverVersion)
            writer.varint(salt)
            write(parts, into: &writer)
            writer.varint(acknowledged)
            writer.varint(progress.downloaded)
            writer.varint(progress.downloadable)
            writer.varint(progress.uploaded)
            writer.varint(progress.uploadable)
            switch eviction {
            case .none: writer.byte(0)
            case .objects(let objects):
                writer.byte(1)
                writer.lengthPrefixed(ChangesetCoding.encode(objects: objects))
            case .allNotSent: writer.byte(2)
            }
        case .subscribe(let session, let subscriptions):
            writer.byte(Kind.subscribe.rawValue)
            writer.varint(session)
            write(subscriptions, into: &writer)
        case .subscriptionStatus(let session, let generation, let statuses):
            writer.byte(Kind.subscriptionStatus.rawValue)
            writer.varint(session)
            writer.varint(generation)
            writer.varint(UInt64(statuses.count))
            for status in statuses {
                writer.lengthPrefixed(Array(status.name.utf8))
                writer.byte(status.error == nil ? 0 : 1)
                if let error = status.error { writer.lengthPrefixed(Array(error.utf8)) }
            }
        case .mark(let session, let request):
            writer.byte(Kind.mark.rawValue)
            writer.varint(session)
            writer.varint(request)
        case .refresh(let session, let token):
            writer.byte(Kind.refresh.rawValue)
            writer.varint(session)
            writer.lengthPrefixed(Array(token.utf8))
        case .unbind(let session):
            writer.byte(Kind.unbind.rawValue)
            writer.varint(session)
        case .error(let session, let code, let message, let tryAgain):
            writer.byte(Kind.error.rawValue)
            writer.byte(session == nil ? 0 : 1)
            writer.varint(session ?? 0)
            writer.signed(Int64(code))
            writer.lengthPrefixed(Array(message.utf8))
            writer.byte(tryAgain ? 1 : 0)
        }
        return writer.bytes
    }

    private static func write(_ parts: [ChangesetPart], into writer: inout BinaryWriter) {
        writer.varint(UInt64(parts.count))
        for part in parts {
            writer.varint(part.serverVersion)
            writer.varint(UInt64(part.totalSize))
            writer.varint(UInt64(part.offset))
            writer.lengthPrefixed(part.bytes)
        }
    }

    private static func write(_ subscriptions: [SubscriptionQuery], into writer: inout BinaryWriter) {
        writer.varint(UInt64(subscriptions.count))
        for subscription in subscriptions {
            writer.lengthPrefixed(Array(subscription.name.utf8))
            writer.lengthPrefixed(Array(subscription.className.utf8))
            writer.lengthPrefixed(Array(subscription.predicate.utf8))
            writer.varint(UInt64(subscription.arguments.count))
            for argument in subscription.arguments {
                switch argument {
                case .value(let value):
                    writer.byte(0)
                    writer.lengthPrefixed(ChangesetCoding.encode(values: [value]))
                case .keyPath(let keyPath):
                    writer.byte(1)
                    writer.lengthPrefixed(Array(keyPath.utf8))
                case .values(let values):
                    writer.byte(2)
                    writer.lengthPrefixed(ChangesetCoding.encode(values: values))
                }
            }
            writer.varint(UInt64(subscription.sort.count))
            for sort in subscription.sort {
                writer.lengthPrefixed(Array(sort.keyPath.utf8))
                writer.byte(sort.ascending ? 1 : 0)
            }
            writer.varint(UInt64(subscription.distinct.count))
            for keyPath in subscription.distinct { writer.lengthPrefixed(Array(keyPath.utf8)) }
            writer.byte(subscription.limit == nil ? 0 : 1)
            if let limit = subscription.limit { writer.varint(limit) }
        }
    }

    /// The message `bytes` hold.
    ///
    /// - Throws: ``WireFormatError`` for anything but one whole, well-formed
    ///   message of this protocol version, at most ``maximumMessageSize``
    ///   bytes.
    public static func decode(_ bytes: [UInt8]) throws(WireFormatError) -> SyncMessage {
        guard bytes.count <= maximumMessageSize else {
            throw WireFormatError(offset: 0, reason: "a message of \(bytes.count) bytes (at most \(maximumMessageSize))")
        }
        var reader = BinaryReader(bytes)
        guard try reader.byte() == UInt8(ascii: "R"), try reader.byte() == UInt8(ascii: "S") else {
            throw WireFormatError(offset: 0, reason: "not a sync message")
        }
        let version = try reader.byte()
        guard version == protocolVersion else {
            throw WireFormatError(offset: 2, reason: "protocol version \(version), not \(protocolVersion)", unsupportedProtocolVersion: version)
        }
        let kindOffset = reader.offset
        guard let kind = Kind(rawValue: try reader.byte()) else {
            throw WireFormatError(offset: kindOffset, reason: "an unknown kind of message")
        }
        let message: SyncMessage
        switch kind {
        case .bind:
            let session = try reader.varint()
            let path = try reader.string()
            let token = try reader.string()
            let ident = try reader.varint()
            let last = try reader.varint()
            let salt = try reader.varint()
            let subscriptions = try flag(&reader) ? try self.subscriptions(&reader) : nil
            message = .bind(session: session, path: path, accessToken: token, clientFileIdent: ident, lastServerVersion: last,
                            lastServerVersionSalt: salt, subscriptions: subscriptions)
        case .ident:
            message = .ident(session: try reader.varint(), clientFileIdent: try reader.varint(), lastIntegratedClientVersion: try reader.varint())
        case .upload:
            message = .upload(session: try reader.varint(), parts: try parts(&reader))
        case .download:
            let session = try reader.varint()
            let serverVersion = try reader.varint()
            let salt = try reader.varint()
            let parts = try parts(&reader)
            let acknowledged = try reader.varint()
            let progress = TransferProgress(downloaded: try reader.varint(), downloadable: try reader.varint(),
                                            uploaded: try reader.varint(), uploadable: try reader.varint())
            let eviction: Eviction
            switch try reader.byte() {
            case 0: eviction = .none
            case 1: eviction = .objects(try ChangesetCoding.decodeObjects(Array(try reader.lengthPrefixed())))
            case 2: eviction = .allNotSent
            case let other: throw reader.failure("an eviction of kind \(other)")
            }
            message = .download(session: session, serverVersion: serverVersion, serverVersionSalt: salt, parts: parts,
                                acknowledgedClientVersion: acknowledged, progress: progress, eviction: eviction)
        case .subscribe:
            message = .subscribe(session: try reader.varint(), subscriptions: try subscriptions(&reader))
        case .subscriptionStatus:
            let session = try reader.varint()
            let generation = try reader.varint()
            let count = try reader.count(minimumSize: 2)
            var statuses: [SubscriptionStatus] = []
            for _ in 0..<count {
                let name = try reader.string()
                statuses.append(SubscriptionStatus(name: name, error: try flag(&reader) ? try reader.string() : nil))
            }
            message = .subscriptionStatus(session: session, generation: generation, statuses: statuses)
        case .mark:
            message = .mark(session: try reader.varint(), request: try reader.varint())
        case .refresh:
            message = .refresh(session: try reader.varint(), accessToken: try reader.string())
        case .unbind:
            message = .unbind(session: try reader.varint())
        case .error:
            let hasSession = try reader.byte()
            guard hasSession <= 1 else { throw reader.failure("a flag of \(hasSession)") }
            let session = try reader.varint()
            let code = try reader.signed()
            guard let narrowed = Int(exactly: code) else { throw reader.failure("an error code of \(code)") }
            let text = try reader.string()
            let flag = try reader.byte()
            guard flag <= 1 else { throw reader.failure("a flag of \(flag)") }
            message = .error(session: hasSession == 1 ? session : nil, code: narrowed, message: text, tryAgain: flag == 1)
        }
        guard reader.isAtEnd else { throw reader.failure("\(reader.remaining) bytes after the message") }
        return message
    }

    /// Subscriptions as a client file stores them: as they travel.
    public static func encode(subscriptions: [SubscriptionQuery]) -> [UInt8] {
        var writer = BinaryWriter()
        write(subscriptions, into: &writer)
        return writer.bytes
    }

    /// The subscriptions ``encode(subscriptions:)`` wrote.
    public static func decodeSubscriptions(_ bytes: [UInt8]) throws(WireFormatError) -> [SubscriptionQuery] {
        var reader = BinaryReader(bytes)
        let subscriptions = try self.subscriptions(&reader)
        guard reader.isAtEnd else { throw reader.failure("\(reader.remaining) bytes after the subscriptions") }
        return subscriptions
    }

    private static func flag(_ reader: inout BinaryReader) throws(WireFormatError) -> Bool {
        let flag = try reader.byte()
        guard flag <= 1 else { throw reader.failure("a flag of \(flag)") }
        return flag == 1
    }

    private static func subscriptions(_ reader: inout BinaryReader) throws(WireFormatError) -> [SubscriptionQuery] {
        let count = try reader.count(minimumSize: 8)
        var subscriptions: [SubscriptionQuery] = []
        for _ in 0..<count {
            let name = try reader.string()
            let className = try reader.string()
            let predicate = try reader.string()
            var arguments: [SubscriptionArgument] = []
            for _ in 0..<(try reader.count(minimumSize: 2)) {
                switch try reader.byte() {
                case 0:
                    let values = try ChangesetCoding.decodeValues(Array(try reader.lengthPrefixed()))
                    guard values.count == 1 else { throw reader.failure("an argument of \(values.count) values") }
                    arguments.append(.value(values[0]))
                case 1: arguments.append(.keyPath(try reader.string()))
                case 2: arguments.append(.values(try ChangesetCoding.decodeValues(Array(try reader.lengthPrefixed()))))
                case let other: throw reader.failure("an argument of kind \(other)")
                }
            }
            var sort: [SubscriptionSort] = []
            for _ in 0..<(try reader.count(minimumSize: 2)) {
                let keyPath = try reader.string()
                sort.append(SubscriptionSort(keyPath: keyPath, ascending: try flag(&reader)))
            }
            var distinct: [String] = []
            for _ in 0..<(try reader.count()) { distinct.append(try reader.string()) }
            let limit = try flag(&reader) ? try reader.varint() : nil
            subscriptions.append(SubscriptionQuery(name: name, className: className, predicate: predicate, arguments: arguments,
                                                   sort: sort, distinct: distinct, limit: limit))
        }
        return subscriptions
    }

    private static func parts(_ reader: inout BinaryReader) throws(WireFormatError) -> [ChangesetPart] {
        let count = try reader.count(minimumSize: 4)
        var parts: [ChangesetPart] = []
        parts.reserveCapacity(count)
        for _ in 0..<count {
            let serverVersion = try reader.varint()
            let total = try reader.varint()
            let offset = try reader.varint()
            guard total <= UInt64(Int.max), offset <= total else { throw reader.failure("a part at \(offset) of \(total) bytes") }
            parts.append(ChangesetPart(serverVersion: serverVersion, totalSize: Int(total), offset: Int(offset),
                                       bytes: Array(try reader.lengthPrefixed())))
        }
        return parts
    }
}
