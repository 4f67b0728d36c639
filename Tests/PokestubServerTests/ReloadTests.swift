import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

@Suite("Reloading the stub folder")
struct ReloadTests {
    private static func mapping(_ path: String, _ body: String) -> String {
        #"{"request": {"method": "GET", "urlPath": "\#(path)"}, "response": {"status": 200, "body": "\#(body)"}}"#
    }

    @Test("strict: a broken file keeps the previous stubs serving and health names its path and line")
    func brokenFileKeepsPreviousStubs() async throws {
        let root = try TemporaryDirectory.stubRoot()
        try root.write(Self.mapping("/a", "first"), to: "mappings/a.json")
        try await LiveServer.with(stubRoot: root.path, strict: true) { server in
            #expect(try await server.send("GET", "/a").text == "first")

            try root.write(Self.mapping("/a", "second"), to: "mappings/a.json")
            try root.write("{\n  \"request\": {\"urlPath\": \"/b\"},\n  \"respons\": {}\n}\n", to: "mappings/b.json")
            let (status, error) = try await server.admin("POST", "/mappings/reset")
            #expect(status == 422)
            let detail = error["errors"].flatMap { value -> String? in
                if case .array(let items) = value { return items.first?["detail"]?.stringValue }
                return nil
            }
            #expect(detail?.contains("mappings/b.json:3: ") == true)
            #expect(detail?.contains("unsupported field \"respons\"") == true)
            // Never a mix: /a still answers from the old set.
            #expect(try await server.send("GET", "/a").text == "first")
            let health = try await server.admin("GET", "/health").1
            #expect(health["status"] == .string("degraded"))
            #expect(health["lastReload"]?["succeeded"] == .bool(false))

            try root.write(Self.mapping("/b", "bee"), to: "mappings/b.json")
            #expect(try await server.admin("POST", "/mappings/reset").0 == 200)
            #expect(try await server.send("GET", "/a").text == "second")
            #expect(try await server.send("GET", "/b").text == "bee")
            #expect(try await server.admin("GET", "/health").1["status"] == .string("healthy"))
        }
    }

    @Test("a body file is read at first use: deleted before that, its stub answers 500 naming it until it is back")
    func bodyFilesAreReadAtFirstUse() async throws {
        let root = try TemporaryDirectory.stubRoot()
        try root.write("from file", to: "__files/x.txt")
        try root.write(
            #"{"request": {"urlPath": "/x"}, "response": {"status": 200, "bodyFileName": "x.txt"}}"#,
            to: "mappings/x.json")
        try root.write(#"{"request": {"urlPath": "/y"}, "response": {"body": "why"}}"#, to: "mappings/y.json")
        try await LiveServer.with(stubRoot: root.path) { server in
            try FileManager.default.removeItem(atPath: root.path + "/__files/x.txt")
            let missing = try await server.send("GET", "/x")
            #expect(missing.status == 500)
            #expect(try missing.json()["bodyFileName"] == .string("x.txt"))
            #expect(try missing.json()["message"]?.stringValue?.contains("__files/x.txt") == true)
            #expect(try await server.send("GET", "/y").text == "why")
            try root.write("back again", to: "__files/x.txt")
            #expect(try await server.send("GET", "/x").text == "back again")
            // Read once: the bytes stay what they were at first use until the stub set is replaced.
            try root.write("changed", to: "__files/x.txt")
            #expect(try await server.send("GET", "/x").text == "back again")
        }
    }
}
