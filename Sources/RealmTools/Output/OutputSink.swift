import Foundation

/// Where a tool's output goes: bytes gathered in a buffer and written to a
/// file descriptor in large pieces, so that printing a million objects
/// makes a few thousand system calls, and memory stays at one buffer.
public final class OutputSink {
    private let handle: FileHandle
    private let closesHandle: Bool
    private var buffer: [UInt8] = []
    private static let flushThreshold = 1 << 16

    /// Standard output.
    public static func standardOutput() -> OutputSink {
        OutputSink(handle: .standardOutput, closesHandle: false)
    }

    /// A new file at `path`, which must not exist (output never overwrites
    /// a file by surprise).
    public static func newFile(atPath path: String) throws(ToolError) -> OutputSink {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw ToolError("\(path): the file exists; output never overwrites a file")
        }
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644]),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw ToolError("\(path): cannot create the file")
        }
        return OutputSink(handle: handle, closesHandle: true)
    }

    private init(handle: FileHandle, closesHandle: Bool) {
        self.handle = handle
        self.closesHandle = closesHandle
        buffer.reserveCapacity(Self.flushThreshold + 4096)
    }

    /// Appends text.
    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        flushIfFull()
    }

    /// Appends bytes.
    func write(bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
        flushIfFull()
    }

    /// Appends a JSON writer's bytes and empties it.
    func write(_ json: inout JSONWriter) {
        buffer.append(contentsOf: json.bytes)
        json.bytes.removeAll(keepingCapacity: true)
        flushIfFull()
    }

    private func flushIfFull() {
        if buffer.count >= Self.flushThreshold { flush() }
    }

    /// Writes what is buffered.
    public func flush() {
        guard !buffer.isEmpty else { return }
        handle.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered and closes a file made by ``newFile(atPath:)``.
    public func close() {
        flush()
        if closesHandle { try? handle.close() }
    }
}
