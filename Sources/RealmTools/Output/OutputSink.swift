import Foundation

/// Where a tool's output goes: bytes gathered in a buffer and written to a
/// file descriptor in large pieces, so that printing a million objects
/// makes a few thousand system calls, and memory stays at one buffer.
public final class OutputSink {
    private let handle: FileHandle
    private let closesHandle: Bool
    /// The file ``newFile(atPath:)`` made, removed by ``discard()``.
    private let path: String?
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
        return OutputSink(handle: handle, closesHandle: true, path: path)
    }

    private init(handle: FileHandle, closesHandle: Bool, path: String? = nil) {
        self.handle = handle
        self.closesHandle = closesHandle
        self.path = path
        buffer.reserveCapacity(Self.flushThreshold + 4096)
    }

    /// Appends text.
    ///
    /// - Throws: ``ToolError`` when the output cannot be written (a full
    ///   disk, a closed pipe).
    public func write(_ text: String) throws(ToolError) {
        buffer.append(contentsOf: text.utf8)
        try flushIfFull()
    }

    /// Appends a JSON writer's bytes and empties it.
    func write(_ json: inout JSONWriter) throws(ToolError) {
        buffer.append(contentsOf: json.bytes)
        json.bytes.removeAll(keepingCapacity: true)
        try flushIfFull()
    }

    private func flushIfFull() throws(ToolError) {
        if buffer.count >= Self.flushThreshold { try flush() }
    }

    /// Writes what is buffered.
    public func flush() throws(ToolError) {
        guard !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw ToolError("\(path ?? "standard output"): cannot write: \(error.localizedDescription)")
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered and closes a file made by ``newFile(atPath:)``.
    public func close() throws(ToolError) {
        try flush()
        if closesHandle { try? handle.close() }
    }

    /// Closes and removes a file made by ``newFile(atPath:)`` whose
    /// content is incomplete (the export failed).
    public func discard() {
        buffer.removeAll()
        if closesHandle { try? handle.close() }
        if let path { try? FileManager.default.removeItem(atPath: path) }
    }
}
