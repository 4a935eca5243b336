import Foundation

/// One history of the model checker: the order in which the server
/// receives the clients' writes, and for each write how much of the
/// server's log its client had integrated when it made it (what it had
/// seen). Every history a real system can produce is one of these: a
/// client uploads its writes in order, and integrates the log in order,
/// so a write has seen a prefix of the log that ends before its own
/// changeset.
struct ModelSchedule: CustomStringConvertible, Sendable {
    /// The writes in the server's order: (client, index of the write in
    /// that client's script).
    var order: [(client: Int, write: Int)]
    /// For each position of `order`, how many of the writes before it the
    /// writing client had integrated (its own always are).
    var seen: [Int]
    /// Whether clocks run backwards along the server's order (a later
    /// write with an earlier timestamp), to try both outcomes of every
    /// last-writer-wins conflict between concurrent writes.
    var clocksBackwards: Bool

    var description: String {
        zip(order, seen).map { "c\($0.0.client + 1).w\($0.0.write)(saw \($0.1))" }.joined(separator: " → ") + (clocksBackwards ? ", clocks backwards" : "")
    }

    /// Every schedule of clients whose scripts have these lengths.
    static func all(scriptLengths: [Int]) -> [ModelSchedule] {
        var schedules: [ModelSchedule] = []
        for order in interleavings(scriptLengths) {
            for seen in seenChoices(order) {
                for backwards in [false, true] { schedules.append(ModelSchedule(order: order, seen: seen, clocksBackwards: backwards)) }
            }
        }
        return schedules
    }

    /// One schedule chosen at random: a random merge of the scripts, and
    /// for each write a random prefix of what came before it.
    static func random(scriptLengths: [Int], _ generator: inout RandomEdits.Generator) -> ModelSchedule {
        var next = Array(repeating: 0, count: scriptLengths.count)
        var order: [(client: Int, write: Int)] = []
        var seen: [Int] = []
        var lastSeen = Array(repeating: 0, count: scriptLengths.count)
        while order.count < scriptLengths.reduce(0, +) {
            let ready = scriptLengths.indices.filter { next[$0] < scriptLengths[$0] }
            let client = ready[Int(generator.next() % UInt64(ready.count))]
            // Often right up to date, often far behind.
            let position = order.count
            let view = generator.next() % 3 == 0 ? position : lastSeen[client] + Int(generator.next() % UInt64(position - lastSeen[client] + 1))
            order.append((client, next[client]))
            seen.append(view)
            lastSeen[client] = view
            next[client] += 1
        }
        return ModelSchedule(order: order, seen: seen, clocksBackwards: generator.next() % 2 == 0)
    }

    /// Every merge of the clients' sequences of writes.
    static func interleavings(_ lengths: [Int]) -> [[(client: Int, write: Int)]] {
        var results: [[(client: Int, write: Int)]] = []
        var next = Array(repeating: 0, count: lengths.count)
        var current: [(client: Int, write: Int)] = []
        func extend() {
            if current.count == lengths.reduce(0, +) {
                results.append(current)
                return
            }
            for client in lengths.indices where next[client] < lengths[client] {
                current.append((client, next[client]))
                next[client] += 1
                extend()
                next[client] -= 1
                current.removeLast()
            }
        }
        extend()
        return results
    }

    /// Every choice of what each write had seen: at least what the same
    /// client's previous write had, at most every write before it.
    static func seenChoices(_ order: [(client: Int, write: Int)]) -> [[Int]] {
        var results: [[Int]] = []
        var current: [Int] = []
        var lastSeen: [Int: Int] = [:]
        func extend(_ position: Int) {
            if position == order.count {
                results.append(current)
                return
            }
            let client = order[position].client
            let floor = lastSeen[client] ?? 0
            for seen in floor...position {
                // A write sees its client's own earlier writes whatever it
                // integrated: a prefix ending on one of them is the same
                // history as the shorter one, so only prefixes ending on
                // another client's write are new.
                if seen != floor, order[seen - 1].client == client { continue }
                let saved = lastSeen[client]
                lastSeen[client] = seen
                current.append(seen)
                extend(position + 1)
                current.removeLast()
                lastSeen[client] = saved
            }
        }
        extend(0)
        return results
    }
}
