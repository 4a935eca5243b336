import Foundation
import RealmSyncWire
import Testing

/// The binary form of changesets: every instruction and value round-trips
/// exactly, and bytes from a hostile peer fail with an error, never a crash.
@Suite struct ChangesetCodingTests {
    static let dogList = ListReference(ownerClass: "Person", owner: .primaryKey(.int(7), incarnation: 0), property: "dogs")
    static let tagSet = ListReference(ownerClass: "Person", owner: .primaryKey(.int(7), incarnation: 0), property: "tags")
    static let petMap = ListReference(ownerClass: "Person", owner: .primaryKey(.int(7), incarnation: 0), property: "pets")

    /// One of every instruction, with every kind of value.
    static let sample = Changeset(
        clientFileIdent: 3, clientVersion: 12, lastServerVersion: 40, timestamp: 1_764_000_000_123, firstSequence: 900,
        instructions: [
            .addClass(ClassSpec(name: "Person", primaryKey: "id", isEmbedded: false)),
            .addClass(ClassSpec(name: "Address", primaryKey: nil, isEmbedded: true)),
            .addProperty(class: "Person", PropertySpec(name: "id", type: "int", isOptional: false, isList: false, target: nil)),
            .addProperty(class: "Person", PropertySpec(name: "dogs", type: "object", isOptional: false, isList: true, target: "Dog")),
            .addProperty(class: "Person", PropertySpec(name: "tags", type: "string", isOptional: true, isList: false, isSet: true, target: nil)),
            .addProperty(class: "Person", PropertySpec(name: "pets", type: "object", isOptional: true, isList: false, isMap: true, target: "Dog")),
            .create(class: "Person", .primaryKey(.int(7), incarnation: 0)),
            .create(class: "Dog", .global(GlobalKey(client: 3, counter: 1))),
            .set(class: "Dog", .global(GlobalKey(client: 3, counter: 1)), property: "name", .string("Rex 🐕")),
            .set(class: "Dog", .global(GlobalKey(client: 3, counter: 1)), property: "owner",
                 .link(class: "Person", .primaryKey(.int(7), incarnation: 2))),
            .set(class: "Person", .primaryKey(.string("ünïcode"), incarnation: 0), property: "n", .null),
            .addInteger(class: "Person", .primaryKey(.int(7), incarnation: 0), property: "age", delta: -3),
            .setDefault(class: "Person", .primaryKey(.int(7), incarnation: 0), property: "nickname", .null),
            .set(class: "Address", .embedded(ownerClass: "Person", owner: .primaryKey(.int(7), incarnation: 0), property: "home", element: nil),
                 property: "street", .string("")),
            .set(class: "Geo", .embedded(ownerClass: "Address",
                                         owner: .embedded(ownerClass: "Person", owner: .primaryKey(.int(7), incarnation: 0),
                                                          property: "past", element: GlobalKey(client: 5, counter: 9)),
                                         property: "geo", element: nil),
                 property: "lat", .double(-0.0)),
            .listInsert(dogList, element: GlobalKey(client: 3, counter: 2), position: PositionKey([0x80]),
                        .link(class: "Dog", .global(GlobalKey(client: 3, counter: 1)))),
            .listSet(dogList, element: GlobalKey(client: 3, counter: 2), .null),
            .listMove(dogList, element: GlobalKey(client: 3, counter: 2), position: PositionKey([0x40, 0xFF])),
            .listErase(dogList, element: GlobalKey(client: 3, counter: 2)),
            .listClear(dogList, elements: [GlobalKey(client: 1, counter: 1), GlobalKey(client: UInt64.max, counter: UInt64.max)]),
            .setInsert(tagSet, .string("blue")),
            .setInsert(tagSet, .link(class: "Dog", .global(GlobalKey(client: 3, counter: 1)))),
            .setErase(tagSet, .null),
            .mapSet(petMap, key: "first 🐕", .link(class: "Dog", .global(GlobalKey(client: 3, counter: 1)))),
            .mapSet(petMap, key: "", .null),
            .mapErase(petMap, key: "first 🐕"),
            .erase(class: "Dog", .global(GlobalKey(client: 3, counter: 1))),
            .set(class: "Values", .global(GlobalKey(client: 0, counter: 0)), property: "all", .bool(true)),
            .set(class: "Values", .global(GlobalKey(client: 0, counter: 0)), property: "all", .bool(false)),
            .set(class: "Values", .global(GlobalKey(client: 0, counter: 0)), property: "all", .int(Int64.min)),
            .set(class: "Values", .global(GlobalKey(client: 0, counter: 0)), property: "all", .int(Int64.max)),
            .set(class: "Values", .global(GlobalKey(client: 0, counter: 0)), property: "all", .float(.nan)),
            .set(class: "Values", .global(GlobalKey(client: 0, counter: 0)), property: "all", .float(-1.5)),
            .set(class: "Values", .global(GlobalKey(client: 0, counter: 0)), property: "all", .double(.infinity)),
            .set(class: "Values", .global(GlobalKey(client: 0, counter: 0)), property: "all", .data(Data([0, 1, 255]))),
            .set(class: "Values", .global(GlobalKey(client: 0, counter: 0)), property: "all",
                 .date(Date(timeIntervalSinceReferenceDate: 123.456789012345))),
            .set(class: "Values", .global(GlobalKey(client: 0, counter: 0)), property: "all",
                 .objectId(ObjectIdBytes(high: 0x0102_0304_0506_0708, low: 0x090A_0B0C))),
            .set(class: "Values", .global(GlobalKey(client: 0, counter: 0)), property: "all",
                 .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)),
            .set(class: "Values", .global(GlobalKey(client: 0, counter: 0)), property: "all", .decimal("-12345.678901")),
        ])

    @Test func everyInstructionAndValueRoundTrips() throws {
        let bytes = ChangesetCoding.encode(Self.sample)
        let decoded = try ChangesetCoding.decode(bytes)
        #expect(decoded == Self.sample)
        #expect(ChangesetCoding.encode(decoded) == bytes, "the encoding is deterministic")
        #expect(decoded.stamp(ofInstruction: 2) == Stamp(timestamp: 1_764_000_000_123, client: 3, sequence: 902))
    }

    /// Nested collections (Docs/SyncDesign.md, "Nested collections")
    /// need format 2, written only for a changeset that names one: every
    /// other changeset keeps its bytes of format 1.
    @Test func nestedCollectionsTravelInFormatTwo() throws {
        let owner = ObjectIdentity.primaryKey(.int(7), incarnation: 0)
        let (outer, inner) = (GlobalKey(client: 3, counter: 40), GlobalKey(client: 3, counter: 41))
        let nested = Changeset(clientFileIdent: 3, clientVersion: 2, lastServerVersion: 1, timestamp: 5, firstSequence: 9, instructions: [
            .set(class: "Person", owner, property: "any", .nestedList(outer)),
            .listInsert(ListReference(ownerClass: "Person", owner: owner, property: "any", nested: outer), element: inner,
                        position: PositionKey([7]), .nestedDictionary(inner)),
            .mapSet(ListReference(ownerClass: "Person", owner: owner, property: "any", nested: inner), key: "k", .int(1)),
            .listInsert(Self.dogList, element: inner, position: PositionKey([8]), .null),
        ])
        let bytes = ChangesetCoding.encode(nested)
        #expect(bytes.first == ChangesetCoding.nestingFormatVersion)
        #expect(try ChangesetCoding.decode(bytes) == nested)
        #expect(ChangesetCoding.encode(Self.sample).first == ChangesetCoding.formatVersion)
        for length in 0..<bytes.count {
            #expect(throws: WireFormatError.self, "truncated to \(length) bytes") { _ = try ChangesetCoding.decode(Array(bytes.prefix(length))) }
        }
        // Format 1 knows no nested values; a reference's flag is 0 or 1.
        let plain = Changeset(clientFileIdent: 3, clientVersion: 2, lastServerVersion: 1, timestamp: 5, firstSequence: 9,
                              instructions: [.set(class: "Person", owner, property: "any", .int(1))])
        var forged = ChangesetCoding.encode(plain)
        #expect(forged.suffix(2) == [3, 2], "the value is the last thing written: int 1")
        forged.replaceSubrange(forged.count - 2..<forged.count, with: [13, 3, 40])
        #expect(throws: WireFormatError.self, "a nested value in format 1") { _ = try ChangesetCoding.decode(forged) }
        let flag = ChangesetCoding.encode(Changeset(clientFileIdent: 3, clientVersion: 2, lastServerVersion: 1, timestamp: 5, firstSequence: 9,
                                                    instructions: [.listErase(Self.dogList, element: inner), nested.instructions[0]]))
        let erase = ChangesetCoding.encode(Changeset(clientFileIdent: 3, clientVersion: 2, lastServerVersion: 1, timestamp: 5, firstSequence: 9,
                                                     instructions: [.listErase(Self.dogList, element: inner)]))
        #expect(flag.first == 2 && erase.first == 1)
    }

    @Test func namesAreWrittenOnce() {
        let one = Changeset(clientFileIdent: 1, clientVersion: 1, lastServerVersion: 0, timestamp: 0, firstSequence: 0,
                            instructions: [.set(class: "AVeryLongClassName", .global(GlobalKey(client: 1, counter: 1)),
                                                property: "aVeryLongPropertyName", .int(1))])
        var many = one
        many.instructions = Array(repeating: one.instructions[0], count: 100)
        let perInstruction = (ChangesetCoding.encode(many).count - ChangesetCoding.encode(one).count) / 99
        #expect(perInstruction < 10, "an instruction repeats no names (\(perInstruction) bytes each)")
    }

    @Test func randomChangesetsRoundTrip() throws {
        var generator = SeededGenerator(seed: 20261125)
        for round in 0..<500 {
            let changeset = RandomChangesets.changeset(&generator)
            let decoded = try ChangesetCoding.decode(ChangesetCoding.encode(changeset))
            #expect(decoded == changeset, "round \(round)")
        }
    }

    @Test func everyTruncationIsAnErrorNotACrash() {
        let bytes = ChangesetCoding.encode(Self.sample)
        for length in 0..<bytes.count {
            #expect(throws: WireFormatError.self, "truncated to \(length) bytes") {
                _ = try ChangesetCoding.decode(Array(bytes.prefix(length)))
            }
        }
        #expect(throws: WireFormatError.self, "a byte after the end") {
            _ = try ChangesetCoding.decode(bytes + [0])
        }
    }

    @Test func corruptedBytesNeverCrash() {
        var generator = SeededGenerator(seed: 7)
        let original = ChangesetCoding.encode(Self.sample)
        var refused = 0
        for _ in 0..<5_000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            do {
                // What decodes must encode again (to the same changeset).
                let decoded = try ChangesetCoding.decode(bytes)
                #expect(try ChangesetCoding.decode(ChangesetCoding.encode(decoded)) == decoded)
            } catch {
                refused += 1
            }
        }
        #expect(refused > 0)
    }

    @Test func forgedCountsAndDepthsAreRefused() {
        // A names count of 2^62 with a few bytes left.
        var forged: [UInt8] = [1, 1, 1, 0, 0, 0]
        forged += [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40]
        #expect(throws: WireFormatError.self) { _ = try ChangesetCoding.decode(forged) }
        // A varint of eleven bytes.
        #expect(throws: WireFormatError.self) {
            _ = try ChangesetCoding.decode([1] + Array(repeating: 0xFF, count: 10) + [0x01])
        }
        // Another format version.
        var other = ChangesetCoding.encode(Self.sample)
        other[0] = 3
        let error = #expect(throws: WireFormatError.self) { _ = try ChangesetCoding.decode(other) }
        #expect(error?.reason.contains("format version 3") == true)
        // Embedded objects nested past the limit.
        var identity = ObjectIdentity.global(GlobalKey(client: 1, counter: 1))
        for _ in 0...ChangesetCoding.maximumNesting + 1 {
            identity = .embedded(ownerClass: "A", owner: identity, property: "b", element: nil)
        }
        let deep = Changeset(clientFileIdent: 1, clientVersion: 1, lastServerVersion: 0, timestamp: 0, firstSequence: 0,
                             instructions: [.create(class: "A", identity)])
        #expect(throws: WireFormatError.self) { _ = try ChangesetCoding.decode(ChangesetCoding.encode(deep)) }
        // A property that is two kinds of collection, or has unknown flags.
        for flags: UInt8 in [2 | 4, 4 | 8, 2 | 8, 16, 0x80] {
            let property = Changeset(clientFileIdent: 1, clientVersion: 1, lastServerVersion: 0, timestamp: 0, firstSequence: 0,
                                     instructions: [.addProperty(class: "A", PropertySpec(name: "b", type: "int", isOptional: false, isList: true, target: nil))])
            var bytes = ChangesetCoding.encode(property)
            // The flags byte is the one before the last (the target's 0).
            bytes[bytes.count - 2] = flags
            #expect(throws: WireFormatError.self, "flags \(flags)") { _ = try ChangesetCoding.decode(bytes) }
        }
        // A map key that is not UTF-8.
        let map = Changeset(clientFileIdent: 1, clientVersion: 1, lastServerVersion: 0, timestamp: 0, firstSequence: 0,
                            instructions: [.mapErase(Self.petMap, key: "ab")])
        var badKey = ChangesetCoding.encode(map)
        badKey.replaceSubrange((badKey.count - 2)..., with: [0xC3, 0x28] as [UInt8])
        #expect(throws: WireFormatError.self) { _ = try ChangesetCoding.decode(badKey) }
        // A string that is not UTF-8, in the names table.
        #expect(throws: WireFormatError.self) { _ = try ChangesetCoding.decode([1, 1, 1, 0, 0, 0, 1, 2, 0xC3, 0x28, 0]) }
    }
}

/// A deterministic generator (SplitMix64), so that a failing round can be
/// replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random changesets of every instruction and value kind.
enum RandomChangesets {
    static let names = ["Dog", "Person", "name", "age", "owner", "dogs", "É", "", "x"]

    static func changeset(_ g: inout SeededGenerator) -> Changeset {
        Changeset(clientFileIdent: UInt64.random(in: 0...UInt64.max, using: &g), clientVersion: UInt64.random(in: 0...1000, using: &g),
                  lastServerVersion: UInt64.random(in: 0...UInt64.max, using: &g), timestamp: Int64.random(in: Int64.min...Int64.max, using: &g),
                  firstSequence: UInt64.random(in: 0...UInt64.max, using: &g),
                  instructions: (0..<Int.random(in: 0...20, using: &g)).map { _ in instruction(&g) })
    }

    static func name(_ g: inout SeededGenerator) -> String { names.randomElement(using: &g)! }

    static func key(_ g: inout SeededGenerator) -> GlobalKey {
        GlobalKey(client: UInt64.random(in: 0...UInt64.max, using: &g), counter: UInt64.random(in: 0...300, using: &g))
    }

    static func identity(_ g: inout SeededGenerator, depth: Int = 0) -> ObjectIdentity {
        switch Int.random(in: 0..<(depth < 3 ? 3 : 2), using: &g) {
        case 0: .primaryKey(Bool.random(using: &g) ? .int(Int64.random(in: -5...5, using: &g)) : .string(name(&g)),
                            incarnation: UInt32.random(in: 0...3, using: &g))
        case 1: .global(key(&g))
        default: .embedded(ownerClass: name(&g), owner: identity(&g, depth: depth + 1), property: name(&g),
                           element: Bool.random(using: &g) ? key(&g) : nil)
        }
    }

    static func value(_ g: inout SeededGenerator) -> SyncValue {
        switch Int.random(in: 0..<15, using: &g) {
        case 0: .null
        case 1: .bool(Bool.random(using: &g))
        case 2: .int(Int64.random(in: Int64.min...Int64.max, using: &g))
        case 3: .float(Float(bitPattern: UInt32.random(in: 0...UInt32.max, using: &g)))
        case 4: .double(Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &g)))
        case 5: .string(String((0..<Int.random(in: 0...8, using: &g)).map { _ in "aé🐕\u{0}z".randomElement(using: &g)! }))
        case 6: .data(Data((0..<Int.random(in: 0...8, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) }))
        case 7: .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &g))))
        case 8: .objectId(ObjectIdBytes(high: UInt64.random(in: 0...UInt64.max, using: &g), low: UInt32.random(in: 0...UInt32.max, using: &g)))
        case 9:
            .uuid(UUID(uuid: (UInt8.random(in: 0...255, using: &g), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                              UInt8.random(in: 0...255, using: &g))))
        case 10: .decimal("\(Int.random(in: -100_000...100_000, using: &g))E-3")
        case 11: .link(class: name(&g), identity(&g))
        case 12: .nestedList(key(&g))
        case 13: .nestedDictionary(key(&g))
        default: .string("")
        }
    }

    static func list(_ g: inout SeededGenerator) -> ListReference {
        ListReference(ownerClass: name(&g), owner: identity(&g), property: name(&g), nested: Int.random(in: 0..<4, using: &g) == 0 ? key(&g) : nil)
    }

    static func position(_ g: inout SeededGenerator) -> PositionKey {
        PositionKey((0..<Int.random(in: 0...4, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) })
    }

    static func instruction(_ g: inout SeededGenerator) -> Instruction {
        switch Int.random(in: 0..<16, using: &g) {
        case 0: .addClass(ClassSpec(name: name(&g), primaryKey: Bool.random(using: &g) ? name(&g) : nil, isEmbedded: Bool.random(using: &g)))
        case 1:
            // No collection, a list, a set or a map.
            .addProperty(class: name(&g), { kind in
                PropertySpec(name: name(&g), type: name(&g), isOptional: Bool.random(using: &g), isList: kind == 1, isSet: kind == 2,
                             isMap: kind == 3, target: Bool.random(using: &g) ? name(&g) : nil)
            }(Int.random(in: 0...3, using: &g)))
        case 2: .create(class: name(&g), identity(&g))
        case 3: .erase(class: name(&g), identity(&g))
        case 4: .set(class: name(&g), identity(&g), property: name(&g), value(&g))
        case 5: .addInteger(class: name(&g), identity(&g), property: name(&g), delta: Int64.random(in: Int64.min...Int64.max, using: &g))
        case 6: .listInsert(list(&g), element: key(&g), position: position(&g), value(&g))
        case 7: .listSet(list(&g), element: key(&g), value(&g))
        case 8: .listMove(list(&g), element: key(&g), position: position(&g))
        case 9: .listErase(list(&g), element: key(&g))
        case 10: .setDefault(class: name(&g), identity(&g), property: name(&g), value(&g))
        case 11: .setInsert(list(&g), value(&g))
        case 12: .setErase(list(&g), value(&g))
        case 13: .mapSet(list(&g), key: name(&g), value(&g))
        case 14: .mapErase(list(&g), key: name(&g))
        default: .listClear(list(&g), elements: (0..<Int.random(in: 0...4, using: &g)).map { _ in key(&g) })
        }
    }
}

/// Position keys: always strictly between their neighbours, never ending
/// in zero, never equal, short.
@Suite struct PositionKeyTests {
    static let element = GlobalKey(client: 0x0102, counter: 3)
    static let suffix: [UInt8] = [0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 3, 1]

    @Test func keysFallBetweenTheirNeighbours() {
        let first = PositionKey.between(nil, and: nil, for: Self.element)
        #expect(first.bytes == [128] + Self.suffix)
        let before = PositionKey.between(nil, and: first, for: Self.element)
        let after = PositionKey.between(first, and: nil, for: Self.element)
        #expect(before < first && first < after)
        #expect(PositionKey.between(PositionKey([5]), and: PositionKey([6]), for: Self.element) == PositionKey([5, 128] + Self.suffix))
        #expect(PositionKey.between(PositionKey([5, 255]), and: PositionKey([6]), for: Self.element) == PositionKey([5, 255, 128] + Self.suffix))
        #expect(PositionKey.between(nil, and: PositionKey([0, 1]), for: Self.element) == PositionKey([0, 0, 128] + Self.suffix))
    }

    @Test func concurrentInsertionsAtOnePlaceNeverTie() {
        let a = PositionKey.between(PositionKey([10, 1]), and: PositionKey([20, 1]), for: GlobalKey(client: 1, counter: 9))
        let b = PositionKey.between(PositionKey([10, 1]), and: PositionKey([20, 1]), for: GlobalKey(client: 2, counter: 1))
        #expect(a != b && a < b, "ordered by the elements' identities")
        // And there is room between them for a third.
        let c = PositionKey.between(a, and: b, for: GlobalKey(client: 3, counter: 1))
        #expect(a < c && c < b)
    }

    @Test func randomInsertionsKeepOrderAndStayShort() {
        var generator = SeededGenerator(seed: 99)
        var keys: [PositionKey] = []
        for _ in 0..<2_000 {
            let index = Int.random(in: 0...keys.count, using: &generator)
            let key = PositionKey.between(index > 0 ? keys[index - 1] : nil, and: index < keys.count ? keys[index] : nil,
                                          for: GlobalKey(client: UInt64.random(in: 1...5, using: &generator), counter: UInt64(keys.count)))
            if index > 0 { #expect(keys[index - 1] < key) }
            if index < keys.count { #expect(key < keys[index]) }
            #expect(key.bytes.last != 0)
            keys.insert(key, at: index)
        }
        #expect(keys.map(\.bytes.count).max()! <= 17 + 8, "random insertions keep keys short")
        // Inserting again and again at the front, the worst place.
        var front = keys[0]
        for _ in 0..<800 {
            let key = PositionKey.between(nil, and: front, for: Self.element)
            #expect(key < front && key.bytes.last != 0)
            front = key
        }
        #expect(front.bytes.count <= 800 / 7 + 2 + 17)
    }
}
