/// Why bytes that were meant to be a changeset (or another message) are not
/// one: where reading stopped and what was wrong. Raised for anything a
/// peer sends, so it must never be a crash.
public struct WireFormatError: Error, Equatable, CustomStringConvertible {
    /// The offset of the byte where reading failed.
    public var offset: Int
    /// What was wrong there.
    public var reason: String
    /// The protocol version a message said it was of, when that is what
    /// was wrong: a peer of another version, which is told so rather than
    /// that it sent garbage.
    public var unsupportedProtocolVersion: UInt8?

    /// An error at `offset`.
    public init(offset: Int, reason: String, unsupportedProtocolVersion: UInt8? = nil) {
        self.offset = offset
        self.reason = reason
        self.unsupportedProtocolVersion = unsupportedProtocolVersion
    }

    public var description: String { "malformed message at byte \(offset): \(reason)" }
}

/// Reads what ``BinaryWriter`` writes, checking every length against the
/// bytes left, so that hostile input fails with a ``WireFormatError``.
package struct BinaryReader {
    private let bytes: [UInt8]
    package private(set) var offset = 0

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    package var isAtEnd: Bool { offset == bytes.count }
    package var remaining: Int { bytes.count - offset }

    package func failure(_ reason: String) -> WireFormatError {
        WireFormatError(offset: offset, reason: reason)
    }

    package mutating func byte() throws(WireFormatError) -> UInt8 {
        guard offset < bytes.count else { throw failure("unexpected end") }
        defer { offset += 1 }
        return bytes[offset]
    }

    package mutating func varint() throws(WireFormatError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 64, shift < 63 || next <= 1 else { throw failure("a number over 64 bits") }
            result |= UInt64(next & 0x7F) << shift
            if next & 0x80 == 0 { return result }
            shift += 7
        }
    }

    package mutating func signed() throws(WireFormatError) -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    package mutating func fixed32() throws(WireFormatError) -> UInt32 {
        var value: UInt32 = 0
        for shift in stride(from: 0, to: 32, by: 8) { value |= UInt32(try byte()) << UInt32(shift) }
        return value
    }

    package mutating func fixed64() throws(WireFormatError) -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) { value |= UInt64(try byte()) << UInt64(shift) }
        return value
    }

    /// A count of things each at least `minimumSize` bytes long: never more
    /// than the bytes left could hold, so that a forged count cannot make
    /// the reader reserve memory for nothing.
    package mutating func count(minimumSize: Int = 1) throws(WireFormatError) -> Int {
        let value = try varint()
        guard value <= UInt64(remaining / max(1, minimumSize)) else { throw failure("a count of \(value) with \(remaining) bytes left") }
        return Int(value)
    }

    package mutating func lengthPrefixed() throws(WireFormatError) -> ArraySlice<UInt8> {
        let length = try count()
        defer { offset += length }
        return bytes[offset..<offset + length]
    }

    package mutating func string() throws(WireFormatError) -> String {
        let start = offset
        let raw = try lengthPrefixed()
        guard let text = String(validating: raw, as: UTF8.self) else {
            throw WireFormatError(offset: start, reason: "a string that is not UTF-8")
        }
        return text
    }
}
