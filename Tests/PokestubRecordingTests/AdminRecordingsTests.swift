import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

@Suite("The recordings admin API")
struct AdminRecordingsTests {
    @Test("status goes NeverStarted, Recording, Stopped; stop returns the stubs written and the report")
    func startStop() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let server = try RecordingServer(root: folder.path, mode: .replay, upstream: "https://pokeapi.invalid")
        defer { server.stop() }
        #expect(try await server.admin("GET", "/recordings/status").1["status"] == .string("NeverStarted"))
        #expect(try await server.send("GET", "/gzip").status == 404)
        let start = """
            {"targetBaseUrl": "\(upstream.baseURL)", "filters": {"urlPathPattern": "/(gzip|br)"},
             "captureHeaders": {"Accept-Language": {}}, "persist": true, "repeatsAsScenarios": false}
            """
        let (startStatus, started) = try await server.admin("POST", "/recordings/start", json: start)
        #expect(startStatus == 200)
        #expect(started["status"] == .string("Recording"))
        #expect(try await server.admin("POST", "/recordings/start", json: start).0 == 409)
        #expect(try await server.admin("GET", "/health").1["mode"] == .string("record"))
        _ = try await server.send("GET", "/gzip", headers: [("Accept-Language", "de")])
        _ = try await server.send("GET", "/br")
        let filtered = try await server.send("GET", "/deflate")
        #expect(filtered.status == 200, "a request outside the filters is proxied, not recorded")
        let (stopStatus, stopped) = try await server.admin("POST", "/recordings/stop")
        #expect(stopStatus == 200)
        guard case .array(let mappings)? = stopped["mappings"] else {
            Issue.record("no mappings in \(stopped)")
            return
        }
        #expect(mappings.compactMap { $0["name"]?.stringValue }.sorted() == ["GET /br", "GET /gzip"])
        #expect(
            mappings.first { $0["name"] == .string("GET /gzip") }?["request"]?["headers"]?["Accept-Language"]
                == .object(["equalTo": .string("de")]))
        #expect(stopped["report"]?["new"] == .integer(2))
        #expect(try await server.admin("GET", "/recordings/status").1["status"] == .string("Stopped"))
        #expect(try await server.admin("POST", "/recordings/stop").0 == 409)
        #expect(server.engine.mode == .replay)
        #expect(folder.files.filter { $0.hasPrefix("mappings/") }.count == 2)
        let connections = upstream.connections
        #expect(try await server.send("GET", "/br").status == 200, "served from the recording")
        #expect(try await server.send("GET", "/deflate").status == 404, "replay again: not recorded, not proxied")
        #expect(upstream.connections == connections)
    }

    @Test("a snapshot turns proxied exchanges still in the journal into stubs")
    func snapshot() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let server = try RecordingServer(root: folder.path, mode: .proxy, upstream: upstream.baseURL)
        defer { server.stop() }
        _ = try await server.send("GET", "/gzip")
        _ = try await server.send("GET", "/chunked")
        _ = try await server.send("GET", "/sprite.png")
        #expect(folder.files.isEmpty)
        let (status, snapshot) = try await server.admin(
            "POST", "/recordings/snapshot",
            json: #"{"filters": {"method": "GET", "urlPathPattern": "/(gzip|sprite.png)"}}"#)
        #expect(status == 200)
        #expect(snapshot["report"]?["new"] == .integer(2))
        #expect(
            folder.files == ["__files/sprite.png.GET.png", "mappings/gzip.GET.json", "mappings/sprite.png.GET.json"])
        let again = try await server.admin("POST", "/recordings/snapshot", json: #"{"outputFormat": "IDS"}"#).1
        #expect(
            again["ids"].map { value -> Int in if case .array(let ids) = value { return ids.count } else { return -1 } }
                == 1)
        #expect(folder.files.count == 4)
    }

    @Test("unsupported or invalid record spec fields are refused with 400 naming the field")
    func invalidSpecs() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let server = try RecordingServer(root: folder.path, mode: .replay, upstream: "http://127.0.0.1:9")
        defer { server.stop() }
        let cases = [
            (#"{"targetBaseUrl": "ftp://x"}"#, "targetBaseUrl"),
            (#"{"extractBodyCriteria": {}}"#, "extractBodyCriteria"),
            (#"{"repeatsAsScenarios": true}"#, "repeatsAsScenarios"), (#"{"bogus": 1}"#, "bogus"),
            (#"{"filters": {"urlPath": 3}}"#, "urlPath"), (#"{"mode": "proxy"}"#, "mode"), ("[1]", "JSON object"),
        ]
        for (body, field) in cases {
            let (status, error) = try await server.admin("POST", "/recordings/start", json: body)
            #expect(status == 400, "\(body)")
            #expect(error.serializedString().contains(field), "\(body) → \(error.serializedString())")
        }
        #expect(try await server.admin("GET", "/recordings/status").1["status"] == .string("NeverStarted"))
    }
}
