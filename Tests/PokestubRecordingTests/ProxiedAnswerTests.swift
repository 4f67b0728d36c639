import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

@Suite("Proxied answers: links rewritten from the upstream's bytes")
struct ProxiedAnswerTests {
    @Test("proxy mode points upstream links and a redirect's Location at pokestub, and leaves other hosts alone")
    func linksAndLocation() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let server = try RecordingServer(root: folder.path, mode: .proxy, upstream: upstream.baseURL)
        defer { server.stop() }
        let links = try await server.send("GET", "/links")
        #expect(links.status == 200)
        let json = try JSONValue.parse(links.body)
        #expect(json["next"] == .string(server.baseURL + "/api/v2/pokemon/?offset=20&limit=20"))
        let text = String(decoding: links.body, as: UTF8.self)
        #expect(text.contains(server.baseURL + "/api/v2/pokemon/1/"), "pokeapi.co links point at pokestub")
        #expect(text.contains("https://pokeapi.co.evil.example/x"), "another host that starts the same is kept")
        #expect(links.headers["Content-Length"] == String(links.body.count))

        let redirect = try await server.send("GET", "/redirect")
        #expect(redirect.status == 301)
        #expect(redirect.headers["Location"] == server.baseURL + "/target")
        #expect(upstream.requests("GET /target") == 0)

        // A body without upstream links is passed on byte for byte.
        let plain = try await server.send("GET", "/gzip")
        let direct = try await TestHTTP.send("GET", upstream.baseURL + "/gzip")
        #expect(plain.body == direct.body)
        #expect(folder.files.isEmpty)
    }

    @Test("with link rewriting off, proxied bodies and Location pass unchanged")
    func rewritingOff() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let server = try RecordingServer(
            root: folder.path, mode: .proxy, upstream: upstream.baseURL, rewriteLinks: false)
        defer { server.stop() }
        let links = try await server.send("GET", "/links")
        #expect(
            try JSONValue.parse(links.body)["next"] == .string(upstream.baseURL + "/api/v2/pokemon/?offset=20&limit=20")
        )
        #expect(try await server.send("GET", "/redirect").headers["Location"] == upstream.baseURL + "/target")
    }

    @Test("a forwarded request's serve event id comes from its journal's generator, as a replayed one's does")
    func forwardedEventIDs() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let server = try RecordingServer(root: folder.path, mode: .proxy, upstream: upstream.baseURL)
        defer { server.stop() }
        for _ in 0..<3 { #expect(try await server.send("GET", "/links").status == 200) }
        let journal = try JSONValue.parse(try await server.send("GET", "/__admin/requests").body)
        guard case .array(let events)? = journal["requests"] else {
            Issue.record("no requests array")
            return
        }
        let ids = events.compactMap { event -> String? in
            if case .string(let id)? = event["id"] { return id.lowercased() }
            return nil
        }
        #expect(ids.count == 3)
        // The journal's ids (RFC 9562 §5.8, version 8): one random prefix per journal, then a counter; a UUID()
        // would be version 4, with a read of /dev/urandom for each.
        #expect(ids.allSatisfy { Array($0)[14] == "8" }, "\(ids)")
        #expect(Set(ids.map { $0.prefix(18) }).count == 1, "\(ids)")
    }
}
