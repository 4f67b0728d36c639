import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

@Suite("A stub's proxyBaseUrl forwards through the libcurl upstream path, recorded nowhere")
struct StubProxyTests {
    @Test(
        "a proxying stub passes a real loopback upstream's bytes on, journaled as served by that stub, no file written")
    func proxiesThePokeAPIDump() async throws {
        let dump = Repository.pokeAPIDump
        let upstream = try await ScriptedUpstream.start(staticRoot: dump)
        defer { upstream.stop() }
        let root = try TemporaryDirectory.stubRoot()
        defer { root.removeFolder() }
        // Replay mode, with the configured upstream somewhere else: only the stub says where to go.
        let server = try RecordingServer(root: root.path, mode: .replay, upstream: "http://127.0.0.1:1")
        defer { server.stop() }
        let stub = #"""
            {"id": "33333333-3333-4333-8333-333333333333", "name": "mirror",
             "request": {"urlPathPattern": "/mirror/api/v2/.*"},
             "response": {"proxyBaseUrl": "\#(upstream.baseURL)", "proxyUrlPrefixToRemove": "/mirror",
                          "headers": {"X-Proxied-By": "mirror"}}}
            """#
        #expect(try await server.admin("POST", "/mappings", json: stub).0 == 201)
        let response = try await server.send("GET", "/mirror/api/v2/pokemon/1/")
        #expect(response.status == 200)
        let original = try Data(contentsOf: URL(fileURLWithPath: dump + "/api/v2/pokemon/1/index.json"))
        // Compared as a Bool: a failed expectation on two 300 KB values spends minutes describing them.
        let sameBytes = response.body == original
        #expect(sameBytes, "the upstream's bytes: got \(response.body.count), expected \(original.count)")
        #expect(response.headers["X-Proxied-By"] == "mirror", "the stub's headers are added")
        #expect(upstream.requests("GET /api/v2/pokemon/1/") == 1, "the prefix was removed")

        let (_, journal) = try await server.admin("GET", "/requests")
        let event = try #require(journal["requests"]?.arrayValue?.first)
        #expect(event["stubMapping"]?["id"] == .string("33333333-3333-4333-8333-333333333333"))
        let (_, snapshot) = try await server.admin("POST", "/recordings/snapshot", json: "{}")
        #expect(snapshot["mappings"]?.arrayValue?.isEmpty ?? true, "nothing kept for a snapshot: \(snapshot)")
        #expect(root.files.isEmpty, "nothing recorded: \(root.files)")
    }

    @Test("additionalProxyRequestHeaders replace the client's; the method, query and body go as sent")
    func forwardsTheRequest() async throws {
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let root = try TemporaryDirectory.stubRoot()
        defer { root.removeFolder() }
        let server = try RecordingServer(root: root.path, mode: .replay, upstream: "http://127.0.0.1:1")
        defer { server.stop() }
        let stub = #"""
            {"request": {"urlPathPattern": "/echo.*"},
             "response": {"proxyBaseUrl": "\#(upstream.baseURL)", "additionalProxyRequestHeaders": {"X-Api-Key": "k1"}}}
            """#
        #expect(try await server.admin("POST", "/mappings", json: stub).0 == 201)
        let response = try await server.send(
            "POST", "/echo/x?q=1", headers: [("X-Api-Key", "client"), ("X-Other", "o")], body: Data("hi".utf8))
        #expect(response.status == 200)
        let echo = try JSONValue.parse(response.body)
        #expect(echo["method"] == .string("POST"))
        #expect(echo["target"] == .string("/echo/x?q=1"))
        #expect(echo["body"] == .string(Data("hi".utf8).base64EncodedString()))
        let headers =
            echo["headers"]?.arrayValue?.compactMap { pair -> (String, String)? in
                guard let items = pair.arrayValue, items.count == 2, let name = items[0].stringValue,
                    let value = items[1].stringValue
                else { return nil }
                return (name.lowercased(), value)
            } ?? []
        #expect(headers.filter { $0.0 == "x-api-key" }.map(\.1) == ["k1"])
        #expect(headers.contains { $0 == ("x-other", "o") })
    }

    @Test("an upstream that refuses the connection gives 502 naming it, journaled as the stub's")
    func failingUpstream() async throws {
        let root = try TemporaryDirectory.stubRoot()
        defer { root.removeFolder() }
        let server = try RecordingServer(root: root.path, mode: .replay, upstream: "http://127.0.0.1:1")
        defer { server.stop() }
        let socket = try ListeningSocket.refusingPort()
        let refusing = socket.port
        let stub = #"""
            {"id": "44444444-4444-4444-8444-444444444444", "request": {"urlPath": "/down"},
             "response": {"proxyBaseUrl": "http://127.0.0.1:\#(refusing)"}}
            """#
        #expect(try await server.admin("POST", "/mappings", json: stub).0 == 201)
        let response = try await server.send("GET", "/down")
        #expect(response.status == 502)
        let body = try JSONValue.parse(response.body)
        #expect(body["upstream"] == .string("http://127.0.0.1:\(refusing)"))
        #expect(body["url"] == .string("http://127.0.0.1:\(refusing)/down"))
        let (_, journal) = try await server.admin("GET", "/requests")
        #expect(
            journal["requests"]?.arrayValue?.first?["stubMapping"]?["id"]
                == .string("44444444-4444-4444-8444-444444444444"))
        withExtendedLifetime(socket) {}
    }

    @Test("proxy fields are checked at load: a bad base URL, proxy fields without proxyBaseUrl, a later WireMock field")
    func loadErrors() async throws {
        let root = try TemporaryDirectory.stubRoot()
        defer { root.removeFolder() }
        let server = try RecordingServer(root: root.path, mode: .replay, upstream: "http://127.0.0.1:1")
        defer { server.stop() }
        for (response, field) in [
            (#"{"proxyBaseUrl": "ftp://x"}"#, "response.proxyBaseUrl"),
            (#"{"proxyUrlPrefixToRemove": "/a"}"#, "response.proxyUrlPrefixToRemove"),
            (
                #"{"proxyBaseUrl": "http://x", "removeProxyRequestHeaders": ["a"]}"#,
                "response.removeProxyRequestHeaders"
            ),
        ] {
            let (status, reason) = try await server.admin(
                "POST", "/mappings", json: #"{"request": {"urlPath": "/x"}, "response": \#(response)}"#)
            #expect(status == 400)
            #expect(reason.serializedString().contains(field), "\(reason)")
        }
    }
}
