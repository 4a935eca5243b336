import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A TCP proxy on loopback between sync clients and the server that
/// injects network faults: it delays what it forwards and cuts connections
/// after a number of bytes, in the middle of a message. Clients connect to
/// ``port``; the proxy forwards to the server's port.
final class FaultProxy: Sendable {
    /// The faults injected, changeable while the proxy runs.
    struct Faults: Sendable {
        /// Cut each connection after this many bytes (both ways together),
        /// chosen at random per connection; nil never cuts.
        var cutAfterBytes: ClosedRange<Int>?
        /// Wait up to this many milliseconds before forwarding each chunk.
        var maximumDelayMilliseconds = 0
        /// Forward nothing: connections are accepted, and what they carry
        /// is dropped. A connection open during a black hole carries
        /// nothing ever after (it lost bytes); new ones work once healed.
        var isBlackHole = false
    }

    let port: Int
    private let target: Atomic<Int>
    private let open = Mutex<[Connection]>([])
    private let listener: Int32
    private let settings: Mutex<Faults>
    private let stopped = Atomic<Bool>(false)
    private let cuts = Atomic<Int>(0)

    init(targetPort: Int, faults: Faults) throws {
        target = Atomic(targetPort)
        settings = Mutex(faults)
        (listener, port) = try Self.listenOnLoopback()
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// The faults from now on (connections open keep their cut point).
    var faults: Faults {
        get { settings.withLock { $0 } }
        set { settings.withLock { $0 = newValue } }
    }

    /// How many connections the proxy has cut.
    var cutCount: Int { cuts.load(ordering: .relaxed) }

    /// Forwards new connections to another port (a server started again).
    func retarget(to port: Int) {
        target.store(port, ordering: .relaxed)
    }

    /// Resets every connection open now, both ways.
    func resetAll() {
        for connection in open.withLock({ open in defer { open.removeAll() }; return open }) { connection.closeBoth() }
    }

    /// Stops accepting; connections open go on until they end.
    func stop() {
        stopped.store(true, ordering: .relaxed)
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// A socket listening on a free port of 127.0.0.1, and the port (for
    /// the proxy, and for the servers its tests put behind it).
    static func listenOnLoopback() throws -> (descriptor: Int32, port: Int) {
        let listening = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var reuse: Int32 = 1
        setsockopt(listening, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listening, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        // A deep backlog: under load the accepting thread may lag behind
        // the clients, and a full backlog drops their SYNs, which TCP
        // retries after 1, 3, 7 … seconds (a reset-heavy test then saw an
        // exchange wait past its 10 s timeout).
        guard bound == 0, listen(listening, SOMAXCONN) == 0 else {
            close(listening)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listening, $0, &length) }
        }
        return (listening, Int(UInt16(bigEndian: address.sin_port)))
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .relaxed) {
            let client = accept(listener, nil, nil)
            // A signal (a child process of another test ending) or a client
            // gone before its turn: accept the next one. Returning here
            // left every later client connected to a backlog nobody read,
            // waiting for ever.
            if client < 0, errno == EINTR || errno == ECONNABORTED { continue }
            guard client >= 0 else { return }
            // Connected to the target on a thread of its own: a connect
            // that waits (the target's backlog full under load, SYNs
            // retried after 1, 3, 7 … s) must not hold up the clients
            // behind it, whose exchanges then waited past a minute.
            Thread { [self] in forward(client) }.start()
        }
    }

    /// Connects `client` to the target and pumps both ways, or closes it.
    private func forward(_ client: Int32) {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: UInt16(target.load(ordering: .relaxed)))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(client)
            close(server)
            return
        }
        let faults = self.faults
        let connection = Connection(client: client, server: server, cutAfter: faults.cutAfterBytes.map { Int.random(in: $0) })
        open.withLock { open in
            open.removeAll { $0.closed.load(ordering: .relaxed) }
            open.append(connection)
        }
        Thread { [self] in pump(from: server, to: client, connection) }.start()
        pump(from: client, to: server, connection)
    }

    /// One proxied connection: its sockets and the bytes both ways share.
    ///
    /// Its descriptors are closed by the last of its two pumps to stop, never
    /// while a pump may still use them: a number closed early is handed to
    /// the next accepted connection, and a pump still holding it would write
    /// one client's bytes into another's stream (which once delivered another
    /// client's acknowledgement, and a client forgot changes it had not
    /// uploaded).
    private final class Connection: Sendable {
        let client: Int32
        let server: Int32
        let cutAfter: Int?
        let forwarded = Atomic<Int>(0)
        let closed = Atomic<Bool>(false)
        let swallowed = Atomic<Bool>(false)
        private let runningPumps = Atomic<Int>(2)

        init(client: Int32, server: Int32, cutAfter: Int?) {
            self.client = client
            self.server = server
            self.cutAfter = cutAfter
        }

        /// Ends the connection both ways: the pumps' reads and writes fail,
        /// and they stop.
        func closeBoth() {
            guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
            shutdown(client, Int32(SHUT_RDWR))
            shutdown(server, Int32(SHUT_RDWR))
        }

        /// A pump stopped; the last one closes the descriptors.
        func pumpStopped() {
            closeBoth()
            guard runningPumps.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 else { return }
            close(client)
            close(server)
        }
    }

    private func pump(from source: Int32, to destination: Int32, _ connection: Connection) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            // A signal (a child process of another test ending) interrupts
            // a read or a send: it is tried again, never taken for the end.
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            if faults.isBlackHole { connection.swallowed.store(true, ordering: .relaxed) }
            if connection.swallowed.load(ordering: .relaxed) { continue }
            let delay = faults.maximumDelayMilliseconds
            if delay > 0 { usleep(useconds_t(Int.random(in: 0...delay) * 1000)) }
            var sendable = count
            var cut = false
            if let limit = connection.cutAfter {
                let before = connection.forwarded.add(count, ordering: .relaxed).oldValue
                if before + count >= limit {
                    // Forward part of the chunk, then cut: mid-message.
                    sendable = max(0, limit - before)
                    cut = true
                }
            }
            var offset = 0
            var failed = false
            while offset < sendable {
                // MSG_NOSIGNAL: a peer gone is an error here, not SIGPIPE.
                let written = buffer.withUnsafeBytes { send(destination, $0.baseAddress! + offset, sendable - offset, Int32(MSG_NOSIGNAL)) }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else {
                    // The rest of the stream cannot follow bytes that were
                    // lost: the connection ends (before, the pump went on
                    // without them, and a reader waited for ever).
                    failed = true
                    break
                }
                offset += written
            }
            if failed { break }
            if cut {
                cuts.add(1, ordering: .relaxed)
                break
            }
        }
        connection.pumpStopped()
    }
}
