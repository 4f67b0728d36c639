// Fuzz target: raw bytes into a real pokestub daemon over a real loopback socket (Linux only: it uses Glibc's
// blocking sockets; on other systems the target is built but does nothing).
//
// Input: the bytes a client sends, exactly as they go on the wire: request lines, header fields, bodies,
// possibly several pipelined requests. One daemon (libmicrohttpd, the engine, the shipped stubs copied to a
// temporary folder so admin requests cannot change the repository) is started once per process. Each input
// is sent on a fresh connection, the write side is shut down, and everything the daemon answers is read
// until it closes the connection or 2 s pass.
//
// Checks, besides never trapping or hanging: the answer is a sequence of well-formed responses, each
// starting with `HTTP/1.x NNN` (a truncated last one is accepted: the daemon may close mid-answer after a
// refusal, and the read deadline may cut one); each status is one the daemon may give; and afterwards a fresh
// connection's `GET /__admin/health` answers 200 within 2 s (`FUZZ_PROBE_SECONDS`), so no input stops the daemon
// from serving.
//
// Statuses the daemon may give: 100, 2xx, 3xx, 4xx, 503 (server full, a matching budget spent),
// 501 and 505 (libmicrohttpd's answers to a transfer coding or an HTTP version it does not implement, as
// RFC 9112 §6.1 and RFC 9110 §15.6.6 say). 500 is a failure: it means a body file could not be read, and the
// shipped stubs' files always can. When the input holds an admin request (`admin` in any case, or `%5F`, in
// case the router decodes it), any status 100…599 is accepted, as the input may have added a stub answering
// anything or started a recording against the unreachable upstream (502, 504); such inputs are followed by a
// reset of the daemon (stubs back to the files, journal cleared, recording stopped) so each input starts
// from the same state.

#if os(Linux)
    import Foundation
    import FuzzSupport
    import Glibc
    @testable import PokestubCore
    @testable import PokestubDaemon

    /// Seconds one exchange may take.
    let deadlineSeconds = 2.0

    /// Seconds the health probe after each input may take: `FUZZ_PROBE_SECONDS`, default 2. A daemon that serves
    /// answers a probe in milliseconds; on a machine shared with builds, an instrumented daemon may need more.
    let probeSeconds: Double = {
        guard let text = ProcessInfo.processInfo.environment["FUZZ_PROBE_SECONDS"] else { return 2 }
        guard let seconds = Double(text), seconds > 0 else { fatalError("FUZZ_PROBE_SECONDS=\(text): not seconds") }
        return seconds
    }()

    /// The copy of the shipped stubs the daemon serves, removed when the process exits.
    nonisolated(unsafe) var copiedStubs: String?

    /// The daemon every input goes to, started on first use.
    let daemon: PokestubDaemon = {
        // A copy of the shipped stubs: an input may save mappings or stop a recording, which writes files.
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("pokestub-fuzz-wire-\(getpid())").path
        try? FileManager.default.removeItem(atPath: folder)
        do {
            try FileManager.default.copyItem(atPath: ShippedStubs.root, toPath: folder)
        } catch {
            fatalError("cannot copy the shipped stubs from \(ShippedStubs.root): \(error)")
        }
        copiedStubs = folder
        // libFuzzer ends a run with exit(); fork mode starts a process per job, each with its copy.
        atexit {
            if let copiedStubs { try? FileManager.default.removeItem(atPath: copiedStubs) }
        }
        var configuration = Configuration()
        configuration.port = 0
        configuration.stubs = folder
        configuration.journalMaxEntries = 64
        configuration.watchStubs = false
        configuration.rewriteUpstreamLinks = false
        // Nothing listens on port 9 of loopback: forwarding fails at once with 502 and never leaves the host.
        configuration.upstream = "http://127.0.0.1:9"
        configuration.upstreamConnectTimeoutMilliseconds = 500
        configuration.upstreamTimeoutMilliseconds = 1_000
        // A partial request must not hold a slot for long.
        configuration.limits.headerTimeoutSeconds = 2
        configuration.limits.bodyTimeoutSeconds = 2
        configuration.limits.idleTimeoutSeconds = 2
        do {
            let daemon = try PokestubDaemon(configuration: configuration)
            try daemon.start()
            // So a person can reach the same daemon with curl while reproducing an input.
            FileHandle.standardError.write(Data("wire: daemon on \(daemon.baseURL), stubs in \(folder)\n".utf8))
            return daemon
        } catch {
            fatalError("cannot start the daemon: \(error)")
        }
    }()

    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzWire(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
        let input = Array(UnsafeBufferPointer(start: start, count: count))
        let port = daemon.port
        let answer = exchange(input, port: port)
        let relaxed = touchesAdmin(input)
        check(answer, relaxed: relaxed)
        if relaxed { resetDaemon() }
        // The probe waits for its whole answer (or `probeSeconds`): the daemon may still be busy with the input's
        // requests.
        let health = exchange(
            Array("GET /__admin/health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8),
            port: port, untilComplete: true, deadlineSeconds: probeSeconds)
        invariant(
            health.starts(with: Array("HTTP/1.1 200 ".utf8)),
            "health after the input answered \(String(decoding: health.prefix(120), as: UTF8.self).debugDescription)")
        return 0
    }

    /// Whether the input may have reached the admin API (and so changed what the daemon serves).
    func touchesAdmin(_ input: [UInt8]) -> Bool {
        let lowered = String(decoding: input, as: UTF8.self).lowercased()
        return lowered.contains("admin") || lowered.contains("%5f")
    }

    /// Puts the daemon back to its state at start: the stub files only, an empty journal, no recording.
    func resetDaemon() {
        _ = try? daemon.engine.recordings.stop()
        let reset = daemon.engine.admin.handle(HTTPRequest(method: "POST", rawURL: "/__admin/reset"))
        invariant(reset.status == 200, "reset answered \(reset.status)")
    }

    /// Sends `bytes` on a new connection, shuts down the write side and returns what came back.
    ///
    /// Reading stops when the daemon closes the connection, at the deadline, or when nothing more arrives for
    /// a while: 50 ms once what came back ends with a complete final response, 250 ms otherwise. The daemon
    /// keeps a half-closed keep-alive connection (and one with a partial request) open until its idle or
    /// header timeout, so waiting for it to close would make every input take 2 s. The connection is then
    /// reset (`SO_LINGER` 0), which frees the daemon's slot at once.
    /// With `untilComplete`, reading stops only when a complete final response is in, at close or the deadline.
    /// `deadlineSeconds` bounds the whole exchange.
    func exchange(
        _ bytes: [UInt8], port: Int, untilComplete: Bool = false, deadlineSeconds: Double = deadlineSeconds
    ) -> [UInt8] {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        invariant(socket >= 0, "socket: errno \(errno)")
        defer {
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            close(socket)
        }
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        invariant(connected == 0, "connect to 127.0.0.1:\(port): errno \(errno)")
        let deadline = Date().addingTimeInterval(deadlineSeconds)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        // Sends in pieces and reads in between, so an answer the daemon writes early (413, 431, 100 Continue)
        // cannot fill both socket buffers and stall the exchange.
        var sent = 0
        while sent < bytes.count, Date() < deadline {
            let written = bytes[sent...].withUnsafeBytes {
                send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written > 0 {
                sent += written
            } else if written < 0, errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR {
                break  // The daemon closed the connection (reset, broken pipe): read what it said.
            }
            let read = recv(socket, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if read > 0 { received += buffer[0..<read] } else if read == 0 { return received }
        }
        shutdown(socket, Int32(SHUT_WR))
        var lastArrival = Date()
        while true {
            let now = Date()
            let complete = walk(received).complete
            if untilComplete && complete { break }
            let quiet = untilComplete ? deadlineSeconds : complete ? 0.05 : 0.25
            let wait = min(deadline.timeIntervalSince(now), quiet - now.timeIntervalSince(lastArrival))
            guard wait > 0 else { break }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(max(1, (wait * 1000).rounded(.up))))
            if ready == 0 || (ready < 0 && errno == EINTR) { continue }
            let read = recv(socket, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if read > 0 {
                received += buffer[0..<read]
                lastArrival = Date()
            } else if read == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                break
            }
        }
        return received
    }

    /// The responses found in what came back.
    struct Walk {
        /// Each response's status line, without CRLF.
        var statusLines: [[UInt8]] = []
        /// Whether the bytes end with a complete response that is not 1xx (so no more is due for it).
        var complete = false
        /// What is wrong with the framing, if anything.
        var malformed: String?
    }

    /// Walks the responses in `answer`: status line, header fields, body framed by the header fields.
    func walk(_ answer: [UInt8]) -> Walk {
        var result = Walk()
        var position = 0
        var lastWasFinal = false
        let crlf = Array("\r\n".utf8)
        let version = Array("HTTP/1.".utf8)
        while position < answer.count {
            guard let headEnd = find(Array("\r\n\r\n".utf8), in: answer, from: position) else {
                // A truncated last response: what there is must still begin like one.
                let rest = Array(answer[position...])
                if !rest.starts(with: version.prefix(rest.count)) {
                    result.malformed = "bytes that are not a response: \(describe(rest))"
                } else if let lineEnd = find(crlf, in: rest, from: 0) {
                    result.statusLines.append(Array(rest[..<lineEnd]))
                }
                return result
            }
            let head = Array(answer[position..<headEnd])
            let lineEnd = find(crlf, in: head, from: 0) ?? head.count
            result.statusLines.append(Array(head[..<lineEnd]))
            let statusText = String(decoding: head[..<lineEnd], as: UTF8.self).split(separator: " ").dropFirst().first
            let status = statusText.flatMap { Int($0) } ?? 0
            let fields = String(decoding: head[lineEnd...], as: UTF8.self).lowercased()
                .components(separatedBy: "\r\n").filter { !$0.isEmpty }
            let bodyStart = headEnd + 4
            lastWasFinal = status >= 200
            if (100..<200).contains(status) || status == 204 || status == 304 {
                position = bodyStart
                continue
            }
            if fields.contains(where: { $0.hasPrefix("transfer-encoding:") && $0.contains("chunked") }) {
                switch chunkedEnd(answer, from: bodyStart) {
                case .end(let end): position = end
                case .truncated: return result
                case .malformed(let problem):
                    result.malformed = problem
                    return result
                }
                continue
            }
            guard let field = fields.first(where: { $0.hasPrefix("content-length:") }) else {
                return result  // The body runs to the end of the connection.
            }
            let value = field.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)
            guard let length = Int(value), length >= 0 else {
                result.malformed = "Content-Length \(value.debugDescription) in \(describe(head))"
                return result
            }
            // A HEAD answer carries the length of the body it leaves out: the next response follows at once.
            let next = bodyStart + length
            if next < answer.count, !answer[next...].starts(with: version), answer[bodyStart...].starts(with: version) {
                position = bodyStart
            } else if next > answer.count {
                return result  // Truncated body.
            } else {
                position = next
            }
        }
        result.complete = lastWasFinal
        return result
    }

    /// Checks the framing and every status line of what came back.
    func check(_ answer: [UInt8], relaxed: Bool) {
        let walked = walk(answer)
        if let malformed = walked.malformed { invariant(false, malformed) }
        for line in walked.statusLines { checkStatusLine(line, relaxed) }
    }

    /// Checks `HTTP/1.x NNN reason` and returns the status.
    @discardableResult
    func checkStatusLine(_ line: [UInt8], _ relaxed: Bool) -> Int {
        let text = String(decoding: line, as: UTF8.self)
        let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        let wellFormed =
            parts.count >= 2 && (parts[0] == "HTTP/1.1" || parts[0] == "HTTP/1.0") && parts[1].count == 3
            && parts[1].allSatisfy(\.isASCII) && parts[1].allSatisfy(\.isNumber)
        invariant(wellFormed, "malformed status line \(text.debugDescription)")
        let status = Int(parts[1]) ?? 0
        let expected =
            relaxed
            ? (100..<600).contains(status)
            : status == 100 || (200..<500).contains(status) || [501, 503, 505].contains(status)
        invariant(expected, "status \(status) (\(text.debugDescription)), admin reached: \(relaxed)")
        return status
    }

    /// Where a chunked body ends.
    enum ChunkedEnd {
        /// Just past the body (its last chunk, trailer fields and empty line).
        case end(Int)
        /// The bytes stop inside the body.
        case truncated
        /// A chunk size line or a chunk's end is not what RFC 9112 §7.1 says.
        case malformed(String)
    }

    /// Where the chunked body starting at `start` ends.
    func chunkedEnd(_ bytes: [UInt8], from start: Int) -> ChunkedEnd {
        var position = start
        let crlf = Array("\r\n".utf8)
        while true {
            guard let lineEnd = find(crlf, in: bytes, from: position) else { return .truncated }
            let sizeText =
                String(decoding: bytes[position..<lineEnd], as: UTF8.self).split(separator: ";").first.map(String.init)
                ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                return .malformed("chunk size line \(sizeText.debugDescription)")
            }
            position = lineEnd + 2
            if size == 0 {
                // Trailer fields, then an empty line.
                while true {
                    guard let end = find(crlf, in: bytes, from: position) else { return .truncated }
                    let empty = end == position
                    position = end + 2
                    if empty { return .end(position) }
                }
            }
            position += size
            guard position + 2 <= bytes.count else { return .truncated }
            guard bytes[position..<(position + 2)].elementsEqual(crlf) else {
                return .malformed("a chunk of \(size) bytes not followed by CRLF")
            }
            position += 2
        }
    }

    /// The first index of `needle` in `bytes` at or after `start`.
    func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        var index = start
        while index <= bytes.count - needle.count {
            if bytes[index] == needle[0], bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    func describe(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix(160), as: UTF8.self).debugDescription
    }
#else
    /// Not Linux: the target uses Glibc's sockets; this stand-in accepts every input and checks nothing.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzWire(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt { 0 }
#endif
