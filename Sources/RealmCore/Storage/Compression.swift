internal import CStorage
import Foundation

/// zlib compression of byte buffers, for stored change-set history and
/// copies of a Realm; never used on the hot read path.
package enum Compression {
    /// Compresses `bytes` with zlib at the default level.
    package static func compress(_ bytes: [UInt8]) -> [UInt8] {
        var capacity = cstorage_compress_bound(bytes.count)
        var output = [UInt8](repeating: 0, count: capacity)
        let status = bytes.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { destination in
                cstorage_compress(source.baseAddress, source.count, destination.baseAddress, &capacity, 6)
            }
        }
        // compressBound is an upper bound: compression into it cannot run out
        // of room, and the only other failures are out-of-memory.
        precondition(status == 0, "zlib compress2 failed with status \(status)")
        output.removeSubrange(capacity...)
        return output
    }

    /// Decompresses zlib data whose uncompressed size is `count`; nil when the
    /// data is corrupt or the size is wrong.
    package static func decompress(_ bytes: some ContiguousBytes, count: Int) -> [UInt8]? {
        guard count >= 0 else { return nil }
        var produced = count
        var output = [UInt8](repeating: 0, count: count)
        let status = bytes.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { destination in
                cstorage_uncompress(source.baseAddress, source.count, destination.baseAddress, &produced)
            }
        }
        return status == 0 ? output : nil
    }
}
