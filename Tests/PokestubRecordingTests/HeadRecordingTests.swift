import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

/// `HEAD` through the upstream, over raw sockets: recorded, replayed and proxied answers keep the upstream's
/// `Content-Length` (the size of the body a `GET` gets, RFC 9110 §9.3.2) and send no body.
@Suite("HEAD exchanges keep the upstream's Content-Length")
struct HeadRecordingTests {
    /// The scripted upstream's `/large.txt`: 20,000 lines of `line\n`.
    private static let bodyLength = 100_000

    /// Sends `HEAD target` with `Connection: close` and returns every byte received until the server closed.
    private static func head(_ target: String, port: Int) async throws -> String {
        let connection = try RawConnection(port: port)
        try connection.send("HEAD \(target) HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        return String(decoding: await connection.receive(), as: UTF8.self)
    }

    /// The values of a header field in a response head.
    private static func values(_ name: String, in head: String) -> [String] {
        head.split(separator: "\r\n").dropFirst().filter { $0.lowercased().hasPrefix(name.lowercased() + ":") }
            .map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
    }

    @Test("a recorded HEAD answers the upstream's Content-Length live, on disk and in replay, with no body")
    func recordedHead() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        let recorder = try RecordingServer(root: folder.path, mode: .record, upstream: upstream.baseURL)
        let live = try await Self.head("/large.txt", port: recorder.server.port)
        recorder.stop()
        upstream.stop()
        #expect(live.hasPrefix("HTTP/1.1 200"))
        #expect(Self.values("Content-Length", in: live) == [String(Self.bodyLength)])
        #expect(live.hasSuffix("\r\n\r\n"), "no body after the head")

        let mappingPath = try #require(folder.files.first { $0.hasPrefix("mappings/") && $0.hasSuffix("HEAD.json") })
        let mapping = try folder.json(mappingPath)
        #expect(mapping["response"]?["headers"]?["Content-Length"] == .string(String(Self.bodyLength)))
        #expect(mapping["response"]?["body"] == nil)

        let replayer = try RecordingServer(root: folder.path, mode: .replay, upstream: upstream.baseURL)
        defer { replayer.stop() }
        let replayed = try await Self.head("/large.txt", port: replayer.server.port)
        #expect(replayed.hasPrefix("HTTP/1.1 200"))
        #expect(Self.values("Content-Length", in: replayed) == [String(Self.bodyLength)])
        #expect(Self.values("Content-Type", in: replayed) == ["text/plain"])
        #expect(replayed.hasSuffix("\r\n\r\n"))
    }

    @Test("a proxied HEAD passes the upstream's Content-Length on, with no body")
    func proxiedHead() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let server = try RecordingServer(root: folder.path, mode: .proxy, upstream: upstream.baseURL)
        defer { server.stop() }
        let answer = try await Self.head("/large.txt", port: server.server.port)
        #expect(answer.hasPrefix("HTTP/1.1 200"))
        #expect(Self.values("Content-Length", in: answer) == [String(Self.bodyLength)])
        #expect(answer.hasSuffix("\r\n\r\n"))
        #expect(folder.files.isEmpty)
    }
}
