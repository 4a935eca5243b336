/// Writes JSON text into a byte buffer, escaping strings as RFC 8259 asks;
/// no intermediate tree, so that an export of a million objects allocates
/// nothing per value.
struct JSONWriter {
    var bytes: [UInt8] = []

    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func raw(_ byte: UInt8) {
        bytes.append(byte)
    }

    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func int(_ value: Int64) {
        raw(String(value))
    }

    /// A floating-point number in its shortest round-tripping form; JSON
    /// has no NaN or infinities, so those are written as strings.
    mutating func double(_ value: Double) {
        if value.isNaN {
            string("NaN")
        } else if value.isInfinite {
            string(value < 0 ? "-Infinity" : "Infinity")
        } else {
            raw(value.description)
        }
    }

    mutating func float(_ value: Float) {
        if value.isNaN || value.isInfinite {
            double(Double(value))
        } else {
            raw(value.description)
        }
    }
}
