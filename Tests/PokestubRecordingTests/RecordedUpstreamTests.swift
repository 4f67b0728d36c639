import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

/// A recording names the upstream it came from in its `metadata`, and serving points that upstream's links at
/// the serving daemon (or session) whatever upstream the daemon is configured with now.
@Suite("Recordings remember their upstream")
struct RecordedUpstreamTests {
    @Test("recorded from one upstream port, replayed without it: next, Location and session links stay on pokestub")
    func replayWithoutTheUpstream() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        let recorder = try RecordingServer(root: folder.path, mode: .record, upstream: upstream.baseURL)
        #expect(try await recorder.send("GET", "/links").status == 200)
        #expect(try await recorder.send("GET", "/redirect").status == 301)
        recorder.stop()
        upstream.stop()

        let mapping = try folder.json("mappings/links.GET.json")
        #expect(mapping["metadata"]?[StubMapping.recordedFromKey] == .string(upstream.baseURL))
        let onDisk = String(decoding: try folder.data("mappings/links.GET.json"), as: UTF8.self)
        #expect(onDisk.contains(upstream.baseURL + "/api/v2/pokemon/?offset=20&limit=20"), "links stay as recorded")

        // The daemon's default upstream: what `pokestub serve` uses without --upstream.
        let replayer = try RecordingServer(root: folder.path, mode: .replay, upstream: "https://pokeapi.co")
        defer { replayer.stop() }
        let links = try await replayer.send("GET", "/links")
        #expect(links.status == 200)
        #expect(
            try JSONValue.parse(links.body)["next"] == .string(replayer.baseURL + "/api/v2/pokemon/?offset=20&limit=20")
        )
        let text = String(decoding: links.body, as: UTF8.self)
        #expect(!text.contains(upstream.baseURL), "no link leaves the replay: \(text)")
        #expect(text.contains("https://pokeapi.co.evil.example/x"), "another host is left alone")
        #expect(links.headers["Content-Length"] == String(links.body.count))

        let redirect = try await replayer.send("GET", "/redirect")
        #expect(redirect.headers["Location"] == replayer.baseURL + "/target")

        let (status, session) = try await replayer.admin("POST", "/sessions", json: #"{"name": "links"}"#)
        #expect(status == 201)
        let sessionBase = try #require(session["baseUrl"]?.stringValue)
        let inSession = try await TestHTTP.send("GET", sessionBase + "/links")
        #expect(
            try JSONValue.parse(inSession.body)["next"] == .string(sessionBase + "/api/v2/pokemon/?offset=20&limit=20"))
    }

    @Test("a stub whose metadata names no upstream, or no URL, is served with its links as written")
    func otherMetadataLeavesLinks() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let elsewhere = "http://127.0.0.1:9/api/v2/pokemon/1/"
        _ = try folder.write(
            #"""
            {"request": {"url": "/plain"}, "metadata": {"recordedFrom": "not a URL"},
             "response": {"jsonBody": {"url": "\#(elsewhere)"}}}
            """#, to: "mappings/plain.json")
        let server = try RecordingServer(root: folder.path, mode: .replay, upstream: "https://pokeapi.co")
        defer { server.stop() }
        let plain = try await server.send("GET", "/plain")
        #expect(try JSONValue.parse(plain.body)["url"] == .string(elsewhere))
    }
}
