import Foundation

/// The stored form of a change set: a compact binary encoding with varints,
/// zlib-compressed when that pays.
///
/// ```
/// byte      0 = raw, 1 = zlib (then varint: raw length)
/// varint    version
/// byte      flags (1 = schema changed)
/// varint    class count, then per class:
///             string name, byte deletedAll, keys insertions, keys deletions,
///             varint modified count, then per object: svarint key, words
/// varint    list count, then per list:
///             string class, varint property, svarint owner, varint old count,
///             varint new count, indices deletions, insertions, modifications,
///             varint move count, then per move: varint from, varint to
/// ```
enum ChangeSetEncoding {
    /// Encodings shorter than this are stored raw: zlib's header and checksum
    /// would outweigh what it saves.
    static let compressionThreshold = 128

    static func encode(_ changeSet: ChangeSet) -> [UInt8] {
        var writer = ByteWriter()
        writer.varint(changeSet.version)
        writer.byte(changeSet.schemaChanged ? 1 : 0)
        writer.varint(UInt64(changeSet.classes.count))
        for (name, changes) in changeSet.classes.sorted(by: { $0.key < $1.key }) {
            writer.string(name)
            writer.byte(changes.deletedAll ? 1 : 0)
            writer.keys(changes.insertions)
            writer.keys(changes.deletions)
            writer.varint(UInt64(changes.modifications.count))
            for (key, properties) in changes.modifications.sorted(by: { $0.key < $1.key }) {
                writer.signed(key.rawValue)
                let words = properties.words
                writer.varint(UInt64(words.count))
                for word in words { writer.varint(word) }
            }
        }
        writer.varint(UInt64(changeSet.lists.count))
        for (list, changes) in changeSet.lists {
            writer.string(list.className)
            writer.varint(UInt64(list.propertyIndex))
            writer.signed(list.owner.rawValue)
            writer.varint(UInt64(changes.oldCount))
            writer.varint(UInt64(changes.newCount))
            writer.indices(changes.deletions)
            writer.indices(changes.insertions)
            writer.indices(changes.modifications)
            writer.varint(UInt64(changes.moves.count))
            for move in changes.moves {
                writer.varint(UInt64(move.from))
                writer.varint(UInt64(move.to))
            }
        }
        let raw = writer.bytes
        guard raw.count >= compressionThreshold else { return [0] + raw }
        var framed = ByteWriter()
        framed.byte(1)
        framed.varint(UInt64(raw.count))
        return framed.bytes + Compression.compress(raw)
    }

    /// Decodes a stored change set; nil when the bytes are not a valid
    /// encoding (a damaged history row is treated as missing history).
    static func decode(_ stored: [UInt8]) -> ChangeSet? {
        var reader = ByteReader(stored)
        guard let format = reader.byte() else { return nil }
        let raw: [UInt8]
        switch format {
        case 0:
            raw = Array(stored.dropFirst())
        case 1:
            guard let length = reader.varint(), length < UInt64(Int32.max),
                  let bytes = Compression.decompress(Array(stored[reader.offset...]), count: Int(length)) else { return nil }
            raw = bytes
        default:
            return nil
        }
        reader = ByteReader(raw)
        guard let version = reader.varint(), let flags = reader.byte(), let classCount = reader.count() else { return nil }
        var changeSet = ChangeSet(version: version, schemaChanged: flags & 1 != 0)
        for _ in 0..<classCount {
            guard let name = reader.string(), let deletedAll = reader.byte(),
                  let insertions = reader.keys(), let deletions = reader.keys(),
                  let modifiedCount = reader.count() else { return nil }
            var changes = ObjectChanges()
            changes.deletedAll = deletedAll != 0
            changes.insertions = insertions
            changes.deletions = deletions
            for _ in 0..<modifiedCount {
                guard let key = reader.signed(), let wordCount = reader.count() else { return nil }
                var words: [UInt64] = []
                for _ in 0..<wordCount {
                    guard let word = reader.varint() else { return nil }
                    words.append(word)
                }
                changes.modifications[ObjectKey(key)] = PropertySet(words: words)
            }
            changeSet.classes[name] = changes
        }
        guard let listCount = reader.count() else { return nil }
        for _ in 0..<listCount {
            guard let className = reader.string(), let property = reader.count(), let owner = reader.signed(),
                  let oldCount = reader.count(), let newCount = reader.count(),
                  let deletions = reader.indices(), let insertions = reader.indices(),
                  let modifications = reader.indices(), let moveCount = reader.count() else { return nil }
            var moves: [ListChanges.Move] = []
            for _ in 0..<moveCount {
                guard let from = reader.count(), let to = reader.count() else { return nil }
                moves.append(.init(from: from, to: to))
            }
            let identifier = ListIdentifier(className: className, propertyIndex: property, owner: ObjectKey(owner))
            changeSet.lists[identifier] = ListChanges(
                deletions: deletions, insertions: insertions, modifications: modifications,
                moves: moves, oldCount: oldCount, newCount: newCount)
        }
        return reader.isAtEnd ? changeSet : nil
    }
}

private struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func string(_ value: String) {
        varint(UInt64(value.utf8.count))
        bytes += value.utf8
    }

    mutating func keys(_ keys: KeySet) {
        varint(UInt64(keys.ranges.count))
        var previous: Int64 = 0
        for range in keys.ranges {
            signed(range.lowerBound &- previous)
            varint(UInt64(range.upperBound - range.lowerBound))
            previous = range.upperBound
        }
    }

    mutating func indices(_ indices: IndexSet) {
        varint(UInt64(indices.rangeView.count))
        var previous = 0
        for range in indices.rangeView {
            varint(UInt64(range.lowerBound - previous))
            varint(UInt64(range.count))
            previous = range.upperBound
        }
    }
}

private struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func byte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func varint() -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while let byte = byte() {
            guard shift < 64 else { return nil }
            result |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
        return nil
    }

    /// A varint that must fit a collection count or index.
    mutating func count() -> Int? {
        guard let value = varint(), value <= UInt64(Int32.max) else { return nil }
        return Int(value)
    }

    mutating func signed() -> Int64? {
        guard let value = varint() else { return nil }
        return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    mutating func string() -> String? {
        guard let length = count(), offset + length <= bytes.count else { return nil }
        defer { offset += length }
        return String(decoding: bytes[offset..<(offset + length)], as: UTF8.self)
    }

    mutating func keys() -> KeySet? {
        guard let count = count() else { return nil }
        var ranges: [ClosedRange<Int64>] = []
        var previous: Int64 = 0
        for _ in 0..<count {
            guard let delta = signed(), let length = varint(), length < UInt64(Int64.max) else { return nil }
            let lower = previous &+ delta
            let (upper, overflow) = lower.addingReportingOverflow(Int64(length))
            guard !overflow, ranges.last.map({ $0.upperBound < lower && $0.upperBound + 1 != lower }) ?? true else { return nil }
            ranges.append(lower...upper)
            previous = upper
        }
        return KeySet(validatedRanges: ranges)
    }

    mutating func indices() -> IndexSet? {
        guard let count = count() else { return nil }
        var result = IndexSet()
        var previous = 0
        for _ in 0..<count {
            guard let gap = self.count(), let length = self.count() else { return nil }
            let lower = previous + gap
            guard lower <= Int(Int32.max) && length <= Int(Int32.max) else { return nil }
            result.insert(integersIn: lower..<(lower + length))
            previous = lower + length
        }
        return result
    }
}
