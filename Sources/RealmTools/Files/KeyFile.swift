import Foundation

/// An encryption key kept in a file, as `--key-file` names it: the 64 bytes
/// themselves, or 128 hexadecimal digits (with any whitespace around them),
/// which is easier to make and to keep in a secret store:
///
/// ```sh
/// openssl rand -hex 64 > realm.key
/// ```
public enum KeyFile {
    /// Reads the key in the file at `path`.
    ///
    /// - Throws: ``ToolError`` naming the file when it cannot be read or
    ///   does not hold a 64-byte key.
    public static func read(_ path: String) throws(ToolError) -> Data {
        guard let contents = FileManager.default.contents(atPath: path) else {
            throw ToolError("\(path): cannot read the key file")
        }
        if contents.count == 64 { return contents }
        let text = String(decoding: contents, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.utf8.count == 128 {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(64)
            var iterator = text.makeIterator()
            while let high = iterator.next()?.hexDigitValue, let low = iterator.next()?.hexDigitValue {
                bytes.append(UInt8(high * 16 + low))
            }
            if bytes.count == 64 { return Data(bytes) }
        }
        throw ToolError("\(path): a key file holds 64 bytes, or 128 hexadecimal digits (make one with `openssl rand -hex 64`)")
    }
}
