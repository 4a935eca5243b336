import Foundation
import Synchronization

/// A 12-byte, globally unique, roughly time-ordered identifier, as in
/// MongoDB and Realm: a 4-byte big-endian timestamp in seconds, 5 random bytes
/// fixed per process, and a 3-byte counter that starts at a random value.
///
/// Object ids compare and sort by their bytes, which orders the ids one
/// process makes by creation time. They are stored as 12-byte blobs.
public struct ObjectId: Hashable, Comparable, Sendable, CustomStringConvertible {
    // The bytes as two big-endian integers, so that an id needs no allocation
    // and compares with two integer comparisons.
    let high: UInt64
    let low: UInt32

    /// Creates an id from exactly 12 bytes; returns nil for any other count.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 12 else { return nil }
        var high: UInt64 = 0
        var low: UInt32 = 0
        for (offset, byte) in bytes.enumerated() {
            if offset < 8 {
                high = high << 8 | UInt64(byte)
            } else {
                low = low << 8 | UInt32(byte)
            }
        }
        self.high = high
        self.low = low
    }

    /// Parses the 24-character hexadecimal form (either case); returns nil for
    /// anything else.
    public init?(string: String) {
        let digits = Array(string.utf8)
        guard digits.count == 24 else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(12)
        for index in stride(from: 0, to: 24, by: 2) {
            guard let high = Self.hexValue(digits[index]), let low = Self.hexValue(digits[index + 1]) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        self.init(bytes: bytes)
    }

    /// Makes an id of the given parts, laid out as Realm lays them: the
    /// timestamp's seconds (4 bytes, big-endian), the low 3 bytes of
    /// `machineId` and the low 2 of `processId` (each least significant
    /// first, as Realm copies them from memory), then 3 bytes of this
    /// process's counter.
    public init(timestamp: Date, machineId: Int, processId: Int) {
        let seconds = UInt64(UInt32(truncatingIfNeeded: Int64(timestamp.timeIntervalSince1970.rounded(.down))))
        let machine = UInt64(truncatingIfNeeded: machineId)
        let process = UInt64(truncatingIfNeeded: processId)
        let count = Self.counter.withLock { value in
            value = (value &+ 1) & 0xff_ffff
            return value
        }
        // Bytes 4-6 are the machine id's bytes 0-2, byte 7 the process id's
        // byte 0.
        let high = seconds << 32 | (machine & 0xff) << 24 | (machine >> 8 & 0xff) << 16 | (machine >> 16 & 0xff) << 8 | (process & 0xff)
        // Byte 8 is the process id's byte 1, then the counter.
        let low = UInt32(truncatingIfNeeded: process >> 8 & 0xff) << 24 | count
        self.init(high: high, low: low)
    }

    /// The id of twelve zero bytes, as Realm 10's `ObjectId()` makes; a
    /// new id is ``generate()``'s (and a `@Persisted` property's default).
    public init() {
        self.init(high: 0, low: 0)
    }

    /// Parses a literal of 24 hexadecimal digits, as Realm 10's
    /// `ObjectId("…")` does.
    ///
    /// - Precondition: `literal` is 24 hexadecimal digits. Parse text that
    ///   may not be with ``init(string:)``, which returns nil instead.
    public init(_ literal: StaticString) {
        let text = literal.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
        guard let parsed = ObjectId(string: text) else {
            preconditionFailure("Invalid Object ID string '\(text)': must be 24 hex digits")
        }
        self = parsed
    }

    /// Makes a new id, unique within this process and, with overwhelming
    /// probability, across processes and machines.
    public static func generate() -> ObjectId {
        let seconds = UInt64(UInt32(truncatingIfNeeded: Int64(Date().timeIntervalSince1970)))
        let random = Self.processUnique
        let count = counter.withLock { value in
            value = (value &+ 1) & 0xff_ffff
            return value
        }
        // 4 timestamp bytes, then the first 4 of the 5 process-unique bytes.
        let high = seconds << 32 | (random >> 8)
        // The last process-unique byte, then the 3 counter bytes.
        let low = UInt32(truncatingIfNeeded: random & 0xff) << 24 | count
        return ObjectId(high: high, low: low)
    }

    /// The twelve bytes, most significant first.
    public var bytes: [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
            + (0..<4).map { UInt8(truncatingIfNeeded: low >> (24 - 8 * $0)) }
    }

    /// The time encoded in the first four bytes, to the second.
    public var timestamp: Date {
        Date(timeIntervalSince1970: TimeInterval(high >> 32))
    }

    /// The 24-character lowercase hexadecimal form.
    public var stringValue: String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(24)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    public var description: String { stringValue }

    public static func < (lhs: ObjectId, rhs: ObjectId) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }

    private init(high: UInt64, low: UInt32) {
        self.high = high
        self.low = low
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Five random bytes chosen once per process, in the low 40 bits.
    private static let processUnique = UInt64.random(in: 0...0xff_ffff_ffff)
    /// The 24-bit counter, starting at a random value as the format asks.
    private static let counter = Mutex(UInt32.random(in: 0...0xff_ffff))
}

extension ObjectId: Codable {
    /// Decodes the 24-hex-digit string, as Realm does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = ObjectId(string: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not an object id (24 hexadecimal digits)")
        }
        self = id
    }

    /// Encodes the 24-hex-digit string, as Realm does.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }
}
