import Foundation
import RealmCore
import RealmObjects
import Testing

/// `realm export` streams: exporting a million objects takes the memory of
/// exporting a tenth as many.
@Suite("realm export memory")
struct ExportMemoryTests {
    /// Fills a Realm with `count` notes through the storage engine (the
    /// object API in a debug build would take minutes).
    private static func makeNotes(_ url: URL, count: Int) throws {
        try makeEmptyRealm(url)
        let coordinator = try Coordinator.open(.file(url.path))
        let transaction = try coordinator.makeTransaction()
        let notes = try transaction.classHandle(named: "ToolNote")
        try transaction.write {
            for index in 0..<count {
                try transaction.createObject(in: notes, values: [.string("note number \(index), with some text to make it longer")])
            }
        }
    }

    @Test("peak memory of a 1,000,000-object export is flat")
    func flatMemory() async throws {
        try await withTemporaryDirectory { directory in
            var peaks: [Int: Int] = [:]
            var sizes: [Int: Int] = [:]
            for count in [100_000, 1_000_000] {
                let file = directory.appendingPathComponent("notes-\(count).realm")
                // A million objects take a minute in a debug build: off
                // the tests' cooperative pool, whose two threads every
                // other suite needs meanwhile.
                try await onThreadOfItsOwn { try Self.makeNotes(file, count: count) }
                for format in ["json", "csv"] {
                    let output = directory.appendingPathComponent("notes-\(count).\(format)")
                    let run = try await realm(["export", file.path, "--class", "ToolNote", "--format", format, "--output", output.path, "--quiet"])
                    #expect(run.status == 0, "\(run.stderr)")
                    peaks[count] = max(peaks[count] ?? 0, run.peakKilobytes)
                    sizes[count] = ((try FileManager.default.attributesOfItem(atPath: output.path)[.size]) as? Int) ?? 0
                    try FileManager.default.removeItem(at: output)
                }
            }
            let small = try #require(peaks[100_000]), large = try #require(peaks[1_000_000])
            print("export peak memory: 100,000 objects \(small / 1024) MB, 1,000,000 objects \(large / 1024) MB; "
                  + "1,000,000 objects wrote \(try #require(sizes[1_000_000]) / 1_000_000) MB")
            // Ten times the objects may not take more than 4 MB more
            // (SQLite's page cache fills up to its limit meanwhile).
            #expect(large - small < 4 * 1024, "100k: \(small) KB, 1M: \(large) KB")
            #expect(small > 0)
        }
    }
}
