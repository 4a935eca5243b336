import RealmSyncWire
import Testing

/// The sync protocol's messages: every kind round-trips, hostile bytes
/// fail with an error, and changesets larger than a message travel in
/// parts.
@Suite struct SyncMessageCodingTests {
    static let changeset = ChangesetCodingTests.sample
    static let encoded = ChangesetCoding.encode(changeset)

    static let messages: [SyncMessage] = [
        .bind(session: 1, path: "/~/inbox", accessToken: "eyJ.token", clientFileIdent: 42, lastServerVersion: 7),
        .bind(session: 1, path: "/~/inbox", accessToken: "eyJ.token", clientFileIdent: 42, lastServerVersion: 7, lastServerVersionSalt: .max >> 1),
        .bind(session: 1, path: "/~/dogs", accessToken: "t", clientFileIdent: 42, lastServerVersion: 7, subscriptions: [
            SubscriptionQuery(name: "old dogs", className: "Dog", predicate: "age > %@ AND %K == %@",
                              arguments: [.value(.int(3)), .keyPath("name"), .values([.string("Rex"), .null])],
                              sort: [SubscriptionSort(keyPath: "age", ascending: false)], distinct: ["name"], limit: 10),
            SubscriptionQuery(name: "", className: "Owner", predicate: "TRUEPREDICATE"),
        ]),
        .bind(session: 1, path: "/~/dogs", accessToken: "t", clientFileIdent: 42, lastServerVersion: 7, subscriptions: []),
        .subscribe(session: 1, subscriptions: [SubscriptionQuery(name: "n", className: "Dog", predicate: "age > 1")]),
        .subscriptionStatus(session: 1, generation: 3, statuses: [SubscriptionStatus(name: "a", error: nil), SubscriptionStatus(name: "b", error: "no class")]),
        .download(session: 2, serverVersion: 9, parts: [], acknowledgedClientVersion: 4,
                  progress: TransferProgress(downloaded: 1, downloadable: 2, uploaded: 3, uploadable: 4), eviction: .allNotSent),
        .download(session: 2, serverVersion: 9, parts: [], acknowledgedClientVersion: 4,
                  progress: TransferProgress(downloaded: 1, downloadable: 2, uploaded: 3, uploadable: 4),
                  eviction: .objects([ObjectReference(className: "Dog", identity: .primaryKey(.int(5), incarnation: 1)),
                                      ObjectReference(className: "Cat", identity: .global(GlobalKey(client: 7, counter: 8)))])),
        .ident(session: 1, clientFileIdent: 42, lastIntegratedClientVersion: 3),
        .upload(session: 1, parts: [ChangesetPart(serverVersion: 0, totalSize: encoded.count, offset: 0, bytes: encoded)]),
        .download(session: 2, serverVersion: 9, parts: ChangesetPart.parts(of: encoded, serverVersion: 9, maximumSize: 100), acknowledgedClientVersion: 4,
                  progress: TransferProgress(downloaded: 10, downloadable: 20, uploaded: 30, uploadable: 40)),
        .download(session: 2, serverVersion: 9, serverVersionSalt: 123_456_789_012, parts: [], acknowledgedClientVersion: 4,
                  progress: TransferProgress(downloaded: 10, downloadable: 20, uploaded: 30, uploadable: 40)),
        .mark(session: 3, request: 99),
        .refresh(session: 3, accessToken: "new"),
        .unbind(session: 3),
        .error(session: nil, code: 231, message: "bad access token", tryAgain: false),
        .error(session: UInt64.max, code: -1, message: "", tryAgain: true),
    ]

    @Test func everyMessageRoundTrips() throws {
        for message in Self.messages {
            #expect(try SyncMessageCoding.decode(SyncMessageCoding.encode(message)) == message)
        }
    }

    @Test func hostileBytesAreRefusedNotCrashedOn() {
        var generator = SeededGenerator(seed: 31)
        for message in Self.messages {
            let bytes = SyncMessageCoding.encode(message)
            for length in 0..<bytes.count {
                #expect(throws: WireFormatError.self) { _ = try SyncMessageCoding.decode(Array(bytes.prefix(length))) }
            }
            for _ in 0..<300 {
                var corrupted = bytes
                corrupted[Int.random(in: 0..<corrupted.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                _ = try? SyncMessageCoding.decode(corrupted)
            }
        }
        #expect(throws: WireFormatError.self) { _ = try SyncMessageCoding.decode(Array("GET / HTTP/1.1".utf8)) }
        #expect(throws: WireFormatError.self) {
            _ = try SyncMessageCoding.decode([UInt8(ascii: "R"), UInt8(ascii: "S"), SyncMessageCoding.protocolVersion, 5] + [UInt8](repeating: 0, count: SyncMessageCoding.maximumMessageSize))
        }
        let otherVersion = SyncMessageCoding.protocolVersion + 1
        #expect(throws: WireFormatError(offset: 2, reason: "protocol version \(otherVersion), not \(SyncMessageCoding.protocolVersion)",
                                        unsupportedProtocolVersion: otherVersion), "another protocol version") {
            _ = try SyncMessageCoding.decode([UInt8(ascii: "R"), UInt8(ascii: "S"), otherVersion, 5, 1, 1])
        }
    }

    @Test func aLargeChangesetTravelsInPartsAndIsPutBackTogether() throws {
        let parts = ChangesetPart.parts(of: Self.encoded, serverVersion: 12, maximumSize: 64)
        #expect(parts.count == (Self.encoded.count + 63) / 64)
        #expect(parts.allSatisfy { $0.bytes.count <= 64 })
        var reassembler = ChangesetReassembler()
        for part in parts.dropLast() {
            #expect(try reassembler.add(part) == nil)
            #expect(reassembler.isInTheMiddle)
        }
        let whole = try #require(try reassembler.add(parts.last!))
        #expect(whole.serverVersion == 12)
        #expect(whole.changeset == Self.changeset)
        #expect(!reassembler.isInTheMiddle)
    }

    @Test func partsOutOfOrderOrOverTheLimitAreRefused() throws {
        let parts = ChangesetPart.parts(of: Self.encoded, serverVersion: 12, maximumSize: 64)
        var skipping = ChangesetReassembler()
        _ = try skipping.add(parts[0])
        #expect(throws: WireFormatError.self) { _ = try skipping.add(parts[2]) }
        var late = ChangesetReassembler()
        #expect(throws: WireFormatError.self, "a middle part first") { _ = try late.add(parts[1]) }
        var mixed = ChangesetReassembler()
        _ = try mixed.add(parts[0])
        var other = parts[1]
        other.serverVersion = 13
        #expect(throws: WireFormatError.self, "a part of another changeset") { _ = try mixed.add(other) }
        var small = ChangesetReassembler(maximumChangesetSize: 100)
        #expect(throws: WireFormatError.self, "over the limit") { _ = try small.add(parts[0]) }
        var garbage = ChangesetReassembler()
        #expect(throws: WireFormatError.self, "bytes that are no changeset") {
            _ = try garbage.add(ChangesetPart(serverVersion: 1, totalSize: 3, offset: 0, bytes: [9, 9, 9]))
        }
    }

    @Test func messagesOfManySmallOrOneHugeChangesetStayUnderTheLimit() throws {
        let large = UInt64.max - 1
        // Many tiny changesets (each part's own fields count), then one
        // larger than three messages.
        var changesets = (1...60_000).map { (serverVersion: large - UInt64($0), bytes: [UInt8](repeating: 7, count: 12)) }
        changesets.append((serverVersion: large, bytes: [UInt8](repeating: 3, count: 3 * SyncMessageCoding.maximumMessageSize + 5)))
        let messages = ChangesetPart.messages(of: changesets)
        #expect(messages.count >= 5)
        var rebuilt: [[UInt8]] = []
        for parts in messages {
            let encoded = SyncMessageCoding.encode(.download(session: .max, serverVersion: .max, parts: parts, acknowledgedClientVersion: .max,
                                                             progress: TransferProgress(downloaded: .max, downloadable: .max, uploaded: .max, uploadable: .max)))
            #expect(encoded.count <= SyncMessageCoding.maximumMessageSize)
            rebuilt.append(contentsOf: parts.compactMap { part in part.offset == 0 && part.isLast ? part.bytes : nil })
        }
        #expect(rebuilt.count == 60_000, "every small changeset travels whole")
        let hugeParts = messages.joined().filter { $0.serverVersion == large }
        var whole: [UInt8] = []
        for part in hugeParts { whole.append(contentsOf: part.bytes) }
        #expect(whole.count == changesets.last?.bytes.count)
        #expect(ChangesetPart.messages(of: []).count == 1, "at least one message, empty")
    }
}
