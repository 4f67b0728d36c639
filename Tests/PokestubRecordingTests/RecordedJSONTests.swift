import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

/// Recordings keep the upstream's JSON as it wrote it: compact JSON replays byte for byte; other JSON replays
/// compacted, in the upstream's member order.
@Suite("Recorded JSON keeps the upstream's order, numbers and escapes")
struct RecordedJSONTests {
    /// What the scripted upstream's `/compact` sends.
    private static let compact = Data(
        #"{"name":"fire","id":10,"weight":1.0,"hundred":1e2,"big":12345678901234567890,"e":"\u00e9","list":[]}"#.utf8)

    @Test("compact upstream JSON replays byte-identical; the mapping shows it in the upstream's order")
    func compactReplaysByteIdentical() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        let recorder = try RecordingServer(root: folder.path, mode: .record, upstream: upstream.baseURL)
        let live = try await recorder.send("GET", "/compact")
        let version = try await recorder.send("GET", "/version?v=3")
        recorder.stop()
        upstream.stop()
        #expect(live.body == Self.compact)
        #expect(version.body == Data(#"{"version": "3"}"#.utf8), "Python's json.dumps, with spaces")

        let file = String(decoding: try folder.data("mappings/compact.GET.json"), as: UTF8.self)
        let name = try #require(file.range(of: #""name": "fire""#))
        let id = try #require(file.range(of: #""id": 10"#))
        #expect(name.lowerBound < id.lowerBound, "members in the upstream's order:\n\(file)")
        #expect(file.contains(#""big": 12345678901234567890"#) && file.contains(#""e": "\u00e9""#))
        #expect(try JSONValue.parse(Data(file.utf8))["response"]?["jsonBody"]?["id"] == .integer(10))

        let replayer = try RecordingServer(root: folder.path, mode: .replay, upstream: upstream.baseURL)
        defer { replayer.stop() }
        let replayed = try await replayer.send("GET", "/compact")
        #expect(replayed.body == Self.compact, "\(String(decoding: replayed.body, as: UTF8.self))")
        #expect(replayed.headers["Content-Length"] == String(Self.compact.count))
        let versionReplayed = try await replayer.send("GET", "/version?v=3")
        #expect(versionReplayed.body == Data(#"{"version":"3"}"#.utf8))
    }

    @Test("re-recording the same answer writes the same bytes")
    func deterministic() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        var files: [Data] = []
        for _ in 0..<2 {
            let server = try RecordingServer(root: folder.path, mode: .record, upstream: upstream.baseURL)
            _ = try await server.send("GET", "/compact")
            server.stop()
            files.append(try folder.data("mappings/compact.GET.json"))
            try FileManager.default.removeItem(atPath: folder.path + "/mappings/compact.GET.json")
        }
        #expect(files[0] == files[1])
    }
}
