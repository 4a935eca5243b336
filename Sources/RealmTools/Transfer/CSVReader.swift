import Foundation

/// Reads CSV records (RFC 4180: fields separated by commas, quoted with
/// double quotes when they hold a comma, a quote or a line break) one at a
/// time, with the line each starts on.
///
/// An empty unquoted field reads as nil (null) and `""` as the empty
/// string, as `realm export --format csv` writes them.
final class CSVReader {
    private let input: ChunkedInput
    private let path: String

    init(path: String) throws(ToolError) {
        self.path = path
        input = try ChunkedInput(path: path)
    }

    var bytesRead: Int { input.bytesConsumed }

    /// Whether records have one field, so that an empty line is a record
    /// (a null) rather than a blank line between records.
    var hasOneField = false

    /// The next record and its first line, or nil at the end of the file.
    func nextRecord() throws(ToolError) -> (fields: [String?], line: Int)? {
        // Blank lines between records are skipped, unless a record is one
        // field, which is empty when null.
        if hasOneField {
            if input.peek() == 0x0D { input.advance() }
            if input.peek() == 0x0A {
                let line = input.line
                input.advance()
                return ([nil], line)
            }
        } else {
            while input.peek() == 0x0A || input.peek() == 0x0D { input.advance() }
        }
        guard input.peek() != nil else { return nil }
        let line = input.line
        var fields: [String?] = []
        while true {
            fields.append(try field(line: line))
            switch input.peek() {
            case UInt8(ascii: ","):
                input.advance()
            case 0x0D:
                input.advance()
                if input.peek() == 0x0A { input.advance() }
                return (fields, line)
            case 0x0A:
                input.advance()
                return (fields, line)
            case nil:
                return (fields, line)
            default:
                throw ToolError("\(path), line \(input.line): unexpected text after a quoted field")
            }
        }
    }

    private func field(line: Int) throws(ToolError) -> String? {
        var bytes: [UInt8] = []
        if input.peek() == UInt8(ascii: "\"") {
            input.advance()
            while true {
                guard let byte = input.peek() else {
                    throw ToolError("\(path), line \(line): a quoted field is not closed")
                }
                input.advance()
                if byte == UInt8(ascii: "\"") {
                    if input.peek() == UInt8(ascii: "\"") {
                        input.advance()
                        bytes.append(byte)
                    } else {
                        break
                    }
                } else {
                    bytes.append(byte)
                }
            }
            return try text(bytes, line: line)
        }
        while let byte = input.peek(), byte != UInt8(ascii: ","), byte != 0x0A, byte != 0x0D {
            bytes.append(byte)
            input.advance()
        }
        return bytes.isEmpty ? nil : try text(bytes, line: line)
    }

    private func text(_ bytes: [UInt8], line: Int) throws(ToolError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ToolError("\(path), line \(line): a field is not valid UTF-8")
        }
        return text
    }
}

/// Writes CSV fields, quoting those that need it.
enum CSVField {
    /// A field's text: nil (null) as an empty field, the empty string as
    /// `""`, and text holding a comma, quote or line break quoted.
    static func encode(_ text: String?) -> String {
        guard let text else { return "" }
        if text.isEmpty { return "\"\"" }
        if text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D })
            || text.first == " " || text.last == " " {
            return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return text
    }
}
