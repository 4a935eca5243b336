import Foundation

/// Reads a JSON array of objects (or an object of such arrays by class)
/// from a file one element at a time, so that importing a file of any size
/// holds one object in memory, and says on which line each element starts,
/// so that an error can name it.
final class JSONStreamReader {
    private let input: ChunkedInput
    private let path: String

    /// Opens `path`, whose content must be a JSON array.
    init(path: String) throws(ToolError) {
        self.path = path
        input = try ChunkedInput(path: path)
    }

    private init(text: String, name: String) {
        path = name
        input = ChunkedInput(bytes: Array(text.utf8))
    }

    /// Parses one JSON value held in `text` (a CSV field, a browser's
    /// input); `name` says where it comes from in errors.
    static func parse(_ text: String, name: String) throws(ToolError) -> JSONValue {
        let reader = JSONStreamReader(text: text, name: name)
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.input.peek() == nil else { throw reader.error("unexpected text after the value") }
        return value
    }

    /// Bytes consumed so far, for progress.
    var bytesRead: Int { input.bytesConsumed }

    /// What the file holds.
    enum Layout {
        /// An array of objects, as `realm export --class` writes.
        case array
        /// An object with an array of objects per class, as `realm export`
        /// writes for a whole file.
        case classes
    }

    private var layout: Layout?
    /// Whether an array of objects is being read, and whether it has
    /// handed out an element yet.
    private var arrayOpen = false
    private var arrayStarted = false
    private var classesRead = 0

    /// Reads the start of the file and says what it holds.
    func begin() throws(ToolError) -> Layout {
        if let layout { return layout }
        skipWhitespace()
        switch input.peek() {
        case UInt8(ascii: "["):
            input.advance()
            layout = .array
            arrayOpen = true
        case UInt8(ascii: "{"):
            input.advance()
            layout = .classes
        default:
            throw error("the file must hold a JSON array of objects (as `realm export --class` writes), or an object of such arrays by class (as `realm export` writes)")
        }
        return layout!
    }

    /// In a file of classes, the name of the next class, whose objects
    /// ``nextElement()`` then hands out; nil after the last.
    func nextClass() throws(ToolError) -> String? {
        guard try begin() == .classes, !arrayOpen else { return nil }
        skipWhitespace()
        if classesRead > 0 {
            switch input.peek() {
            case UInt8(ascii: ","): input.advance()
            case UInt8(ascii: "}"):
                input.advance()
                try finish()
                return nil
            default: throw error("expected ',' or '}' after a class's array")
            }
            skipWhitespace()
        } else if input.peek() == UInt8(ascii: "}") {
            input.advance()
            try finish()
            return nil
        }
        guard input.peek() == UInt8(ascii: "\"") else { throw error("expected a class name in quotes") }
        let name = try string()
        skipWhitespace()
        guard input.peek() == UInt8(ascii: ":") else { throw error("expected ':' after \"\(name)\"") }
        input.advance()
        skipWhitespace()
        guard input.peek() == UInt8(ascii: "[") else { throw error("expected an array of '\(name)' objects") }
        input.advance()
        arrayOpen = true
        arrayStarted = false
        classesRead += 1
        return name
    }

    /// The next element of the current array and the line it starts on,
    /// or nil after its last.
    func nextElement() throws(ToolError) -> (value: JSONValue, line: Int)? {
        _ = try begin()
        guard arrayOpen else { return nil }
        skipWhitespace()
        if arrayStarted {
            switch input.peek() {
            case UInt8(ascii: ","):
                input.advance()
            case UInt8(ascii: "]"):
                input.advance()
                try closeArray()
                return nil
            default:
                throw error("expected ',' or ']' after an element of the array")
            }
        } else if input.peek() == UInt8(ascii: "]") {
            input.advance()
            try closeArray()
            return nil
        }
        arrayStarted = true
        skipWhitespace()
        let line = input.line
        return (try value(depth: 0), line)
    }

    private func closeArray() throws(ToolError) {
        arrayOpen = false
        if layout == .array { try finish() }
    }

    private func finish() throws(ToolError) {
        skipWhitespace()
        guard input.peek() == nil else { throw error("unexpected text after the end") }
    }

    private func error(_ message: String) -> ToolError {
        ToolError("\(path), line \(input.line): \(message)")
    }

    private func skipWhitespace() {
        while let byte = input.peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            input.advance()
        }
    }

    private func value(depth: Int) throws(ToolError) -> JSONValue {
        guard depth < 128 else { throw error("values nested more than 128 deep") }
        skipWhitespace()
        guard let byte = input.peek() else { throw error("unexpected end of the file") }
        switch byte {
        case UInt8(ascii: "{"):
            input.advance()
            var members: [(String, JSONValue)] = []
            skipWhitespace()
            if input.peek() == UInt8(ascii: "}") {
                input.advance()
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard input.peek() == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
                let name = try string()
                skipWhitespace()
                guard input.peek() == UInt8(ascii: ":") else { throw error("expected ':' after \"\(name)\"") }
                input.advance()
                members.append((name, try value(depth: depth + 1)))
                skipWhitespace()
                switch input.peek() {
                case UInt8(ascii: ","): input.advance()
                case UInt8(ascii: "}"):
                    input.advance()
                    return .object(members)
                default: throw error("expected ',' or '}' in an object")
                }
            }
        case UInt8(ascii: "["):
            input.advance()
            var elements: [JSONValue] = []
            skipWhitespace()
            if input.peek() == UInt8(ascii: "]") {
                input.advance()
                return .array(elements)
            }
            while true {
                elements.append(try value(depth: depth + 1))
                skipWhitespace()
                switch input.peek() {
                case UInt8(ascii: ","): input.advance()
                case UInt8(ascii: "]"):
                    input.advance()
                    return .array(elements)
                default: throw error("expected ',' or ']' in an array")
                }
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try number())
        default:
            throw error("unexpected character '\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private func literal(_ word: String) throws(ToolError) {
        for expected in word.utf8 {
            guard input.peek() == expected else { throw error("unexpected text; expected \(word)") }
            input.advance()
        }
    }

    private func number() throws(ToolError) -> String {
        var bytes: [UInt8] = []
        while let byte = input.peek(),
              (0x30...0x39).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            bytes.append(byte)
            input.advance()
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard Double(text) != nil else { throw error("'\(text)' is not a number") }
        return text
    }

    private func string() throws(ToolError) -> String {
        input.advance()  // the opening quote
        var bytes: [UInt8] = []
        while true {
            guard let byte = input.peek() else { throw error("a string is not closed") }
            input.advance()
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: bytes, as: UTF8.self) else { throw error("a string is not valid UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                guard let escaped = input.peek() else { throw error("a string is not closed") }
                input.advance()
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(escaped)
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0C)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard input.peek() == UInt8(ascii: "\\") else { throw error("a lone surrogate in \\u escape") }
                        input.advance()
                        guard input.peek() == UInt8(ascii: "u") else { throw error("a lone surrogate in \\u escape") }
                        input.advance()
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("a lone surrogate in \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw error("an invalid \\u escape") }
                    bytes.append(contentsOf: String(Character(unicode)).utf8)
                default:
                    throw error("an invalid escape '\\\(Character(Unicode.Scalar(escaped)))'")
                }
            case 0..<0x20:
                throw error("a control character inside a string (a string must be on one line)")
            default:
                bytes.append(byte)
            }
        }
    }

    private func hex4() throws(ToolError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = input.peek(), let digit = Character(Unicode.Scalar(byte)).hexDigitValue else {
                throw error("an invalid \\u escape")
            }
            input.advance()
            value = value * 16 + UInt32(digit)
        }
        return value
    }
}

/// A file read in chunks of 64 KiB, byte by byte, counting lines.
final class ChunkedInput {
    private let handle: FileHandle?
    private var chunk: [UInt8] = []
    private var index = 0
    private var consumedBefore = 0
    private var atEnd = false
    /// The line of the next byte, from 1.
    private(set) var line = 1

    init(path: String) throws(ToolError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ToolError("\(path): cannot open the file for reading")
        }
        self.handle = handle
    }

    /// Bytes already in memory.
    init(bytes: [UInt8]) {
        handle = nil
        chunk = bytes
    }

    deinit {
        try? handle?.close()
    }

    var bytesConsumed: Int { consumedBefore + index }

    @inline(__always)
    func peek() -> UInt8? {
        if index < chunk.count { return chunk[index] }
        return refill() ? chunk[index] : nil
    }

    @inline(__always)
    func advance() {
        if chunk[index] == 0x0A { line += 1 }
        index += 1
    }

    private func refill() -> Bool {
        guard !atEnd, let handle else { return false }
        consumedBefore += chunk.count
        index = 0
        let data = handle.readData(ofLength: 1 << 16)
        if data.isEmpty {
            atEnd = true
            chunk = []
            return false
        }
        chunk = Array(data)
        return true
    }
}
