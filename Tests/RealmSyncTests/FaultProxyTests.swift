import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The fault proxy itself: it may cut, delay and reset, but never hand one
/// connection's bytes to another. It once did (a descriptor closed while a
/// pump still wrote to it went to the next connection), and the
/// multi-process test saw a client forget changes on another client's
/// acknowledgement.
@Suite struct FaultProxyTests {
    @Test func resetsNeverCrossConnections() async throws {
        let echo = try EchoServer()
        defer { echo.stop() }
        let proxy = try FaultProxy(targetPort: echo.port, faults: .init(maximumDelayMilliseconds: 3))
        defer { proxy.stop() }
        let foreign = Atomic<Int>(0)
        let exchanged = Atomic<Int>(0)
        let stalls = Atomic<Int>(0)
        let deadline = Date().addingTimeInterval(3)
        // Resets all along, so that descriptors are closed and reused while
        // pumps are mid-chunk (the proxy delays each chunk a little).
        async let resets: Void = {
            while Date() < deadline {
                proxy.resetAll()
                try? await Task.sleep(for: .milliseconds(7))
            }
        }()
        try await offloaded {
            DispatchQueue.concurrentPerform(iterations: 6) { client in
                let mark = UInt8(65 + client)
                while Date() < deadline {
                    let socket = connectToLoopback(port: proxy.port)
                    guard socket >= 0 else { continue }
                    defer { close(socket) }
                    // An exchange the proxy lost fails the test, not hangs it.
                    var timeout = timeval(tv_sec: 10, tv_usec: 0)
                    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                    let message = [UInt8](repeating: mark, count: 512)
                    for _ in 0..<20 {
                        guard send(socket, message, message.count, Int32(MSG_NOSIGNAL)) == message.count else { break }
                        var buffer = [UInt8](repeating: 0, count: 512)
                        // A lost exchange never answers; a slow one (a
                        // machine busy with the other suites, thousands of
                        // pump threads started in these 3 s) answers
                        // late: it gets a minute before it counts as lost.
                        var count = recv(socket, &buffer, buffer.count, 0)
                        for _ in 0..<5 where count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                            count = recv(socket, &buffer, buffer.count, 0)
                        }
                        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { stalls.add(1, ordering: .relaxed) }
                        guard count > 0 else { break }
                        exchanged.add(1, ordering: .relaxed)
                        if buffer[0..<count].contains(where: { $0 != mark }) { foreign.add(1, ordering: .relaxed) }
                    }
                }
            }
        }
        await resets
        #expect(exchanged.load(ordering: .relaxed) > 100)
        #expect(foreign.load(ordering: .relaxed) == 0, "reads that held another connection's bytes")
        #expect(stalls.load(ordering: .relaxed) == 0, "exchanges the proxy never answered")
    }
}

/// A TCP server on loopback that sends back what it receives, until the
/// proxy closes; it closes every third connection early, mid-exchange.
private final class EchoServer: Sendable {
    let port: Int
    private let listener: Int32
    private let stopped = Atomic<Bool>(false)

    init() throws {
        (listener, port) = try FaultProxy.listenOnLoopback()
        Thread { [self] in
            var served = 0
            while !stopped.load(ordering: .relaxed) {
                let connection = accept(listener, nil, nil)
                if connection < 0, errno == EINTR || errno == ECONNABORTED { continue }
                guard connection >= 0 else { return }
                served += 1
                // Every third connection is closed after a little while,
                // mid-exchange.
                let closesEarly = served % 3 == 0
                Thread {
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    var echoed = 0
                    while true {
                        let count = recv(connection, &buffer, buffer.count, 0)
                        if count < 0, errno == EINTR { continue }
                        guard count > 0, send(connection, buffer, count, Int32(MSG_NOSIGNAL)) == count else { break }
                        echoed += 1
                        if closesEarly, echoed > 3 { break }
                    }
                    close(connection)
                }.start()
            }
        }.start()
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}

/// A blocking TCP connection to 127.0.0.1:`port`, or -1.
private func connectToLoopback(port: Int) -> Int32 {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        close(socket)
        return -1
    }
    return socket
}
