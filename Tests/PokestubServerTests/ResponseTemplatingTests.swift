import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

@Suite("Response templating over real sockets")
struct ResponseTemplatingTests {
    @Test("global templating: base-URL links, relative dates and a templated body file name, from a stub folder")
    func globalTree() async throws {
        let root = try TemporaryDirectory.stubRoot(
            mappings: [
                "orders.json": #"""
                {"request": {"method": "GET", "urlPathPattern": "/api/orders/[0-9]+"},
                 "response": {"status": 200, "headers": {"Content-Type": "application/json", "Location": "{{request.baseUrl}}/api/orders/{{request.pathSegments.[2]}}"},
                              "bodyFileName": "orders/{{request.pathSegments.[2]}}.json"}}
                """#
            ],
            files: [
                "orders/5.json":
                    #"{"self": "{{request.requestLine.baseUrl}}/api/orders/5", "due": "{{now offset='3 days' format='yyyy-MM-dd'}}"}"#
            ])
        defer { root.removeFolder() }
        try await LiveServer.with(stubRoot: root.path, globalResponseTemplating: true) { server in
            let response = try await server.send("GET", "/api/orders/5")
            #expect(response.status == 200)
            let due = Calendar(identifier: .gregorian).date(byAdding: .day, value: 3, to: Date())!
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd"
            #expect(
                response.text
                    == #"{"self": "\#(server.baseURL)/api/orders/5", "due": "\#(formatter.string(from: due))"}"#)
            #expect(response.header("Location") == "\(server.baseURL)/api/orders/5")
            let missing = try await server.send("GET", "/api/orders/6")
            #expect(missing.status == 500)
            #expect(missing.text.contains("orders/6.json"))
        }
    }

    /// WireMock 2.35 resolves a rendered name's `..` and serves it when it lands inside `__files`; it answers
    /// 500 ("Access to file ../secret/s.json is not permitted") when it lands outside.
    @Test("a templated bodyFileName is served where it lands: inside __files whatever its text, 500 outside")
    func bodyFileNameLandsInside() async throws {
        let root = try TemporaryDirectory.stubRoot(
            mappings: [
                "inside.json": #"""
                {"request": {"urlPathPattern": "/pages/.*"}, "response": {"bodyFileName": "../__files{{request.url}}"}}
                """#,
                "outside.json": #"""
                {"request": {"urlPathPattern": "/secret/.*"}, "response": {"bodyFileName": "..{{request.url}}"}}
                """#,
                "literal.json": #"""
                {"request": {"urlPath": "/literal"}, "response": {"bodyFileName": "../__files/pages/./a.json"}}
                """#,
            ],
            files: ["pages/a.json": #"{"page": "{{request.path}}"}"#])
        defer { root.removeFolder() }
        let secret = try root.write("secret", to: "secret/s.json")
        try root.symlink("__files/pages/link.json", to: secret)
        try await LiveServer.with(stubRoot: root.path, globalResponseTemplating: true) { server in
            let inside = try await server.send("GET", "/pages/a.json")
            #expect(inside.status == 200 && inside.text == #"{"page": "/pages/a.json"}"#, "\(inside.text)")
            let literal = try await server.send("GET", "/literal")
            #expect(literal.status == 200 && literal.text == #"{"page": "/literal"}"#, "\(literal.text)")
            for path in ["/secret/s.json", "/pages/link.json"] {
                let refused = try await server.send("GET", path)
                #expect(refused.status == 500, "\(path): \(refused.text)")
                #expect(try refused.json()["error"] == .string("response template failed"), "\(path)")
                #expect(!refused.text.contains("secret\""), "\(path): \(refused.text)")
            }
            let outside = try await server.send("GET", "/secret/s.json")
            #expect(outside.text.contains("leads outside once . and .. are resolved"), "\(outside.text)")
            let linked = try await server.send("GET", "/pages/link.json")
            #expect(linked.text.contains("outside __files (through a symbolic link)"), "\(linked.text)")
        }
    }

    @Test("a stub added through the admin API with the transformer is rendered; one without it is not")
    func perStubThroughAdmin() async throws {
        try await LiveServer.with { server in
            let templated = #"""
                {"request": {"urlPath": "/hello"},
                 "response": {"transformers": ["response-template"], "body": "hi {{request.query.name}} {{request.headers.X-Who}}"}}
                """#
            let plain = #"{"request": {"urlPath": "/plain"}, "response": {"body": "hi {{request.query.name}}"}}"#
            #expect(try await server.admin("POST", "/mappings", json: templated).0 == 201)
            #expect(try await server.admin("POST", "/mappings", json: plain).0 == 201)
            #expect(
                try await server.send("GET", "/hello?name=ash", headers: ["X-Who": "<me>"]).text == "hi ash &lt;me&gt;")
            #expect(try await server.send("GET", "/plain?name=ash").text == "hi {{request.query.name}}")
            let (status, error) = try await server.admin(
                "POST", "/mappings",
                json:
                    #"{"request": {"urlPath": "/x"}, "response": {"transformers": ["response-template"], "body": "{{#if a}}"}}"#
            )
            #expect(status == 400)
            #expect(error.serializedString().contains("never closed"))
        }
    }

    @Test("a mapping posted to the admin API may hold comments, as WireMock's admin API allows")
    func commentsThroughAdmin() async throws {
        try await LiveServer.with { server in
            let mapping = """
                {
                  // posted by a test
                  "request": {"urlPath": "/commented"}, /* and this */
                  "response": {"body": "ok // kept"}
                }
                """
            let (status, _) = try await server.admin("POST", "/mappings", json: mapping)
            #expect(status == 201)
            let served = try await server.send("GET", "/commented")
            #expect(served.text == "ok // kept")
        }
    }
}
