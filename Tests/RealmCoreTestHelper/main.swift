// A second process for RealmCoreTests' multi-process and crash tests.
//
//   RealmCoreTestHelper write-loop <path> <transactions> <objectsPerTransaction>
//       Commits `transactions` transactions, numbered from 1, each creating
//       `objectsPerTransaction` Entry objects with that number as `tx` and
//       0..<objectsPerTransaction as `seq`; prints `committed <tx>` after each.
//   RealmCoreTestHelper hold-write <path> <milliseconds>
//       Begins a write, creates one Entry (tx -1), prints `locked`, sleeps,
//       prints `committing`, commits, prints `committed`.
//   RealmCoreTestHelper append <path> <count>
//       Commits `count` single-object transactions (tx = the helper's pid),
//       then prints `done`.
//
// Every line goes to stdout unbuffered. Errors go to stderr with exit code 1.
// With REALM_TEST_ENCRYPTION_KEY set (128 hex digits), the file is opened
// with that key.

import Foundation
import RealmCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The schema shared with MultiProcessTests.swift (keep the two identical).
let entrySchema = Schema([
    ObjectSchema(name: "Entry", properties: [
        Property(name: "tx", type: .int),
        Property(name: "seq", type: .int),
        Property(name: "payload", type: .string),
    ]),
])

struct UsageError: Error, CustomStringConvertible {
    let description: String
}

func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data(("RealmCoreTestHelper: " + message + "\n").utf8))
    exit(1)
}

func integer(_ arguments: [String], _ index: Int, _ name: String) throws -> Int {
    guard index < arguments.count, let value = Int(arguments[index]), value >= 0 else {
        throw UsageError(description: "expected a non-negative integer <\(name)> as argument \(index)")
    }
    return value
}

func path(_ arguments: [String]) throws -> String {
    guard arguments.count > 2 else { throw UsageError(description: "expected a <path> argument") }
    return arguments[2]
}

/// The key REALM_TEST_ENCRYPTION_KEY gives, in hex, or nil.
func encryptionKey() throws -> Data? {
    guard let hex = ProcessInfo.processInfo.environment["REALM_TEST_ENCRYPTION_KEY"] else { return nil }
    let digits = Array(hex.utf8)
    guard digits.count % 2 == 0 else { throw UsageError(description: "REALM_TEST_ENCRYPTION_KEY has an odd number of digits") }
    var bytes: [UInt8] = []
    for index in stride(from: 0, to: digits.count, by: 2) {
        guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
            throw UsageError(description: "REALM_TEST_ENCRYPTION_KEY is not hex")
        }
        bytes.append(byte)
    }
    return Data(bytes)
}

func open(_ path: String) throws -> (Coordinator, Transaction, ClassHandle) {
    var configuration = Coordinator.Configuration.file(path, schema: entrySchema)
    configuration.encryptionKey = try encryptionKey()
    let coordinator = try Coordinator.open(configuration)
    let transaction = try coordinator.makeTransaction()
    let entries = try transaction.classHandle(named: "Entry")
    return (coordinator, transaction, entries)
}

/// A payload of `bytes` bytes that names its transaction and position, so a
/// torn value would be visible.
func payload(tx: Int, seq: Int, bytes: Int = 400) -> String {
    let stamp = "tx\(tx)-seq\(seq)-"
    return String(repeating: stamp, count: bytes / stamp.count + 1).prefix(bytes).description
}

func writeLoop(_ arguments: [String]) throws {
    let path = try path(arguments)
    let transactions = try integer(arguments, 3, "transactions")
    let perTransaction = try integer(arguments, 4, "objectsPerTransaction")
    let (coordinator, transaction, entries) = try open(path)
    for tx in stride(from: 1, through: transactions, by: 1) {
        try transaction.beginWrite()
        for seq in 0..<perTransaction {
            try transaction.createObject(in: entries, values: [.int(Int64(tx)), .int(Int64(seq)), .string(payload(tx: tx, seq: seq))])
        }
        try transaction.commitWrite()
        emit("committed \(tx)")
    }
    withExtendedLifetime(coordinator) {}
}

func holdWrite(_ arguments: [String]) throws {
    let path = try path(arguments)
    let milliseconds = try integer(arguments, 3, "milliseconds")
    let (coordinator, transaction, entries) = try open(path)
    try transaction.beginWrite()
    try transaction.createObject(in: entries, values: [.int(-1), .int(0), .string("held")])
    emit("locked")
    Thread.sleep(forTimeInterval: Double(milliseconds) / 1000)
    emit("committing")
    try transaction.commitWrite()
    emit("committed")
    withExtendedLifetime(coordinator) {}
}

func append(_ arguments: [String]) throws {
    let path = try path(arguments)
    let count = try integer(arguments, 3, "count")
    let (coordinator, transaction, entries) = try open(path)
    let tx = Int64(getpid())
    for seq in 0..<count {
        try transaction.beginWrite()
        try transaction.createObject(in: entries, values: [.int(tx), .int(Int64(seq)), .string("append")])
        try transaction.commitWrite()
    }
    emit("done")
    withExtendedLifetime(coordinator) {}
}

let arguments = CommandLine.arguments
let commands: [String: ([String]) throws -> Void] = [
    "write-loop": writeLoop,
    "hold-write": holdWrite,
    "append": append,
]
guard arguments.count > 1, let command = commands[arguments[1]] else {
    fail("usage: RealmCoreTestHelper (write-loop <path> <transactions> <objectsPerTransaction> | hold-write <path> <milliseconds> | append <path> <count>)")
}
do {
    try command(arguments)
    exit(0)
} catch {
    fail("\(arguments[1]) failed: \(error)")
}
