import Foundation
import RealmCore
import RealmSyncEngine
import RealmSyncWire

/// Runs histories of the model checker (Docs/SyncDesign.md, "How the rules
/// are checked"): clients that write, upload and integrate the server's
/// log in the order a ``ModelSchedule`` says, a server replica that
/// integrates every changeset in the log's order, a new client that
/// catches up from the server's state, and new clients that take that
/// state one class at a time (a query-based view growing). At the end
/// every one of them must hold the same data.
struct ModelChecker {
    /// A history whose replicas ended different, or that failed.
    struct Failure: CustomStringConvertible, Sendable {
        var scripts: [[String]]
        var schedule: ModelSchedule
        var problem: String

        var description: String {
            "scripts \(scripts.enumerated().map { "c\($0.offset + 1)=\($0.element)" }.joined(separator: " ")); \(schedule): \(problem)"
        }
    }

    /// The seed's changesets, made once: every history starts from them.
    static let seedChangesets: [Changeset] = {
        do {
            let replica = try ModelReplica()
            try replica.transaction.write { try ModelOperation.seed.body(replica, 0) }
            return try replica.takeUnuploaded()
        } catch {
            fatalError("The model checker's seed cannot be written: \(error)")
        }
    }()

    /// Runs one history; nil when every replica ends the same (and, when
    /// given, `expectation` finds nothing wrong with the server's state).
    static func run(_ scripts: [[ModelOperation]], _ schedule: ModelSchedule,
                    expectation: (@Sendable (ModelReplica, ModelSchedule) throws -> String?)? = nil) -> Failure? {
        do {
            if let problem = try execute(scripts, schedule, expectation) {
                return Failure(scripts: scripts.map { $0.map(\.name) }, schedule: schedule, problem: problem)
            }
            return nil
        } catch {
            return Failure(scripts: scripts.map { $0.map(\.name) }, schedule: schedule, problem: "failed: \(error)")
        }
    }

    private static func execute(_ scripts: [[ModelOperation]], _ schedule: ModelSchedule,
                                _ expectation: (@Sendable (ModelReplica, ModelSchedule) throws -> String?)?) throws -> String? {
        // The server's log: each changeset with the client that made it
        // (nil for the seed).
        var log: [(origin: Int?, changeset: Changeset)] = seedChangesets.map { (nil, $0) }
        let server = try ModelReplica()
        try server.apply(seedChangesets, firstVersion: 1)
        let clients = try scripts.indices.map { _ in try ModelReplica() }
        for client in clients {
            try client.apply(seedChangesets, firstVersion: 1)
            client.integrated = seedChangesets.count
        }
        // The log's length after each position of the order.
        var logLength: [Int] = []
        for (position, (clientIndex, write)) in schedule.order.enumerated() {
            let client = clients[clientIndex]
            let seenLength = schedule.seen[position] == 0 ? seedChangesets.count : logLength[schedule.seen[position] - 1]
            try integrate(client, clientIndex, log, upTo: seenLength)
            client.clock.milliseconds = 1_000 + 10 * Int64(schedule.clocksBackwards ? schedule.order.count - position : position)
            try client.transaction.write { try scripts[clientIndex][write].body(client, clientIndex + 1) }
            for changeset in try client.takeUnuploaded() {
                log.append((clientIndex, changeset))
                try server.apply([changeset], firstVersion: UInt64(log.count))
            }
            logLength.append(log.count)
        }
        for (index, client) in clients.enumerated() { try integrate(client, index, log, upTo: log.count) }

        if let expectation, let problem = try expectation(server, schedule) { return problem }
        let expected = try server.dump()
        for (index, client) in clients.enumerated() {
            let dump = try client.dump()
            if dump != expected { return difference("client \(index + 1)", dump, "the server", expected) }
        }
        // A new client catching up from the server's state.
        let newcomer = try ModelReplica()
        try newcomer.apply(try snapshot(of: server), firstVersion: 0)
        let caughtUp = try newcomer.dump()
        if caughtUp != expected { return difference("a client caught up from the state", caughtUp, "the server", expected) }
        // A client whose view takes the state in two parts, as a
        // query-based client's grows: one class's objects first, the
        // other's after. Links from the first part to the second wait for
        // their targets, and must end as the server has them.
        for (first, second) in [("Person", "Dog"), ("Dog", "Person")] {
            let grown = try ModelReplica()
            let part = try snapshot(of: server, onlyClass: first, includingErasures: true)
            try grown.apply(part, firstVersion: 0)
            try grown.apply(try snapshot(of: server, onlyClass: second, includingErasures: false), firstVersion: UInt64(part.count))
            let dump = try grown.dump()
            if dump != expected { return difference("a client given the state's \(first) objects before its \(second) objects", dump, "the server", expected) }
        }
        // A client given the whole log again changes nothing.
        if let first = clients.first {
            try first.apply(log.filter { $0.origin != 0 }.map(\.changeset), firstVersion: 1)
            let again = try first.dump()
            if again != expected { return difference("client 1 given the log again", again, "the server", expected) }
        }
        return nil
    }

    /// Integrates the log's entries of other clients, up to `length`.
    private static func integrate(_ client: ModelReplica, _ index: Int, _ log: [(origin: Int?, changeset: Changeset)], upTo length: Int) throws {
        guard length > client.integrated else { return }
        let entries = log[client.integrated..<length].filter { $0.origin != index }.map(\.changeset)
        try client.apply(entries, firstVersion: UInt64(client.integrated + 1))
        client.integrated = length
    }

    private static func snapshot(of replica: ModelReplica) throws -> [Changeset] {
        try replica.transaction.beginWrite()
        defer { replica.transaction.cancelWrite() }
        return try StateSnapshot.changesets(replica.transaction)
    }

    /// The schema and the objects of `className` alone, as a query-based
    /// view of them travels (with every erasure, or without: the objects
    /// entering a view the client has).
    private static func snapshot(of replica: ModelReplica, onlyClass className: String, includingErasures: Bool) throws -> [Changeset] {
        try replica.transaction.beginWrite()
        defer { replica.transaction.cancelWrite() }
        let keys = try replica.transaction.objectKeys(in: try replica.transaction.classHandle(named: className))
        var stream = StateSnapshot.Stream(replica.transaction, objects: [className: keys], includingErasures: includingErasures)
        var changesets: [Changeset] = []
        while let chunk = try stream.next() { changesets += chunk }
        return changesets
    }

    private static func difference(_ name: String, _ dump: [String], _ otherName: String, _ other: [String]) -> String {
        "\(name) differs from \(otherName): only in \(name): \(dump.filter { !other.contains($0) }); only in \(otherName): \(other.filter { !dump.contains($0) })"
    }
}
