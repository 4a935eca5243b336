import Foundation

/// The JSON file: the environment and every sample of every contender,
/// for comparisons across runs and machines.
struct JSONReport: Codable {
    /// Bumped when the layout changes.
    var formatVersion = 1
    var environment: RunEnvironment
    var workloads: [WorkloadOutcome]

    /// Writes the report to `url`.
    func write(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(self).write(to: url, options: .atomic)
    }
}
