import Foundation

/// Where a contender keeps its files: a directory of its own, with a new
/// subdirectory for every fresh file.
///
/// Names are never reused within a run, so that no library can mistake a
/// new file for one it still has open (Realm shares one coordinator per
/// path while any instance is alive).
public final class ScratchSpace {
    /// The contender's directory.
    public let root: URL
    private var counter = 0

    /// A scratch space under `root`, created now.
    public init(root: URL) throws {
        self.root = root
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    /// A new, empty directory named after `purpose`.
    public func makeDirectory(_ purpose: String) throws -> URL {
        counter += 1
        let directory = root.appendingPathComponent("\(purpose)-\(counter)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}

/// Seconds between two instants of the continuous clock.
public func seconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> Double {
    let duration = end - start
    return Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}
