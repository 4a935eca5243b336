/// Appends the wire's primitive encodings to a byte buffer: LEB128
/// varints (zigzag for signed numbers), little-endian fixed-width numbers,
/// and length-prefixed bytes.
package struct BinaryWriter {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    package mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    package mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    package mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    package mutating func fixed32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    package mutating func fixed64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    package mutating func lengthPrefixed(_ content: some Collection<UInt8>) {
        varint(UInt64(content.count))
        bytes.append(contentsOf: content)
    }
}
