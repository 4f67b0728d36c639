import Foundation
import PokestubCore
import Testing

/// What a hostile or broken admin client sends, over real sockets: every case is refused with a 4xx and a
/// JSON reason (or accepted when it is valid), within seconds, and the daemon keeps serving.
@Suite("Hostile JSON to the admin API")
struct HostileAdminJSONTests {
    /// Sends each body to `POST /__admin/mappings` and checks the daemon afterwards. A daemon that stalls on a
    /// body leaves the exchange without a status line when its 30 s read deadline passes, and fails the check.
    private static func post(_ bodies: [[UInt8]], expect statuses: ClosedRange<Int> = 400...400) async throws {
        try await HostileServer.with { server in
            for body in bodies {
                let response = try await server.send("POST", "/__admin/mappings", body: body)
                #expect(
                    statuses.contains(response.status),
                    "\(body.prefix(40)) got \(response.status): \(response.text.prefix(200))")
                if response.status >= 400 { #expect(response.errorTitle != nil, "\(response.text.prefix(200))") }
            }
            #expect(try await server.admin("GET", "/health").status == 200)
            #expect(server.engine.store.index.count <= bodies.count)
        }
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("100,000 levels of nesting are refused, not recursed into")
    func deepNesting() async throws {
        let depth = 100_000
        try await Self.post([
            Self.bytes(String(repeating: "[", count: depth) + String(repeating: "]", count: depth)),
            Self.bytes(String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)),
            Self.bytes(String(repeating: "[", count: depth)),
            Self.bytes(
                #"{"request": {"urlPath": "/x"}, "response": {"jsonBody": "# + String(repeating: "[", count: depth)),
            Self.bytes(
                #"{"request": {"urlPath": "/x", "bodyPatterns": [{"equalToJson": "#
                    + String(repeating: #"{"a":["#, count: depth / 2)),
        ])
    }

    @Test("nesting the parser allows is stored, listed, served and matched")
    func deepButAllowedNesting() async throws {
        try await HostileServer.with { server in
            let deep = String(repeating: "[", count: 400) + "1" + String(repeating: "]", count: 400)
            let created = try await server.admin(
                "POST", "/mappings",
                #"{"request": {"method": "POST", "urlPath": "/deep", "bodyPatterns": [{"equalToJson": "#
                    + deep
                    + #", "ignoreArrayOrder": true}, {"matchesJsonPath": "$..*..*"}]}, "response": {"jsonBody": "#
                    + deep + "}}")
            #expect(created.status == 201, "\(created.text.prefix(300))")
            #expect(try await server.admin("GET", "/mappings").status == 200)
            let served = try await server.send("POST", "/deep", body: Self.bytes(deep))
            #expect(served.status == 200)
            #expect(served.text == deep)
            #expect(
                try await server.admin("POST", "/requests/count", #"{"urlPath": "/deep"}"#).json?["count"]
                    == .integer(1))
        }
    }

    @Test("response header fields that cannot be sent as written are refused: CR, LF, NUL, bad names, 33 KB values")
    func unsendableHeaders() async throws {
        func stub(_ headers: String) -> [UInt8] {
            Self.bytes(#"{"request": {"urlPath": "/h"}, "response": {"status": 200, "headers": {"# + headers + "}}}")
        }
        try await Self.post([
            stub(#""X-Split": "a\r\nSet-Cookie: evil=1""#),
            stub(#""X-Line": "a\nb""#),
            stub(#""X-Nul": "a\u0000b""#),
            stub(#""X-List": ["ok", "a\rb"]"#),
            stub(#""Bad Name": "x""#),
            stub(#""X-Colon:": "x""#),
            stub(#""X-Big": "\#(String(repeating: "x", count: 33_000))""#),
            stub((0..<3).map { #""X-\#($0)": "\#(String(repeating: "y", count: 8_000))""# }.joined(separator: ",")),
        ])
        // A horizontal tab and non-ASCII text are field-value characters; they are served as written.
        try await HostileServer.with { server in
            let created = try await server.send(
                "POST", "/__admin/mappings", body: stub(#""X-Tab": "a\tb", "X-Text": "Flabébé""#))
            #expect(created.status == 201, "\(created.text.prefix(200))")
            let served = try await server.send("GET", "/h")
            #expect(served.status == 200)
            #expect(served.text.isEmpty)
        }
    }

    @Test("numbers out of every range are refused with the field they are in")
    func hugeNumbers() async throws {
        try await HostileServer.with { server in
            for (field, value) in [
                ("priority", "1e400"), ("priority", "18446744073709551616"), ("priority", "-9223372036854775809"),
                ("priority", "0.5"), ("priority", "-1"), ("priority", String(repeating: "9", count: 100_000)),
            ] {
                let response = try await server.admin(
                    "POST", "/mappings", #"{"request": {"urlPath": "/x"}, "\#(field)": \#(value)}"#)
                #expect(
                    response.status == 400,
                    "\(field) \(value.prefix(30)): \(response.status) \(response.text.prefix(200))")
                #expect(response.errorTitle != nil)
            }
            for (field, value) in [
                ("status", "1e3"), ("status", "-200"), ("status", "9223372036854775807"),
                ("fixedDelayMilliseconds", "9223372036854775807"), ("fixedDelayMilliseconds", "-1"),
                ("fixedDelayMilliseconds", "1e18"),
            ] {
                let response = try await server.admin(
                    "POST", "/mappings", #"{"request": {"urlPath": "/x"}, "response": {"\#(field)": \#(value)}}"#)
                #expect(response.status == 400, "\(field) \(value): \(response.status) \(response.text.prefix(200))")
                #expect(response.text.contains(field), "\(response.text.prefix(200))")
            }
            for query in [
                "?limit=99999999999999999999", "?offset=-1", "?limit=1e3", "?limit=%00", "?since=99999-99-99T99:99:99Z",
                "?since=" + String(repeating: "9", count: 10_000), "?matchingStub=not-a-uuid", "?unmatched=yes",
            ] {
                let path =
                    query.contains("since") || query.contains("matching") || query.contains("unmatched")
                    ? "/requests" : "/mappings"
                let response = try await server.admin("GET", path + query)
                #expect(response.status == 400, "\(path)\(query.prefix(40)): \(response.status)")
            }
            let far = try await server.admin("GET", "/mappings?offset=9223372036854775807&limit=9223372036854775807")
            #expect(far.status == 200)
            #expect(server.engine.store.index.count == 0)
        }
    }

    /// Bodies that are not UTF-8 or not JSON text. A typed static list: as one literal in the `@Test` arguments,
    /// the mix of `Array(...) + [...]` elements takes Swift 6.2 longer to type-check than it allows.
    static let notUTF8Bodies: [[UInt8]] = [
        [0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D],  // {"\xff\xfe":1}
        Array(#"{"request": {"urlPath": "/"#.utf8) + [0xC0, 0xAF] + Array(#""}}"#.utf8),  // overlong "/"
        Array(#"{"request": {"urlPath": "/"#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}}"#.utf8),  // a surrogate
        Array(#"{"request": {"urlPath": "\ud800"}}"#.utf8),  // a lone escaped surrogate
        Array(#"{"request": {"urlPath": "/x"#.utf8) + [0x00] + Array(#""}}"#.utf8),  // a raw NUL
        [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("{}".utf8),  // two byte-order marks
        [0xFF, 0xFE] + Array("{\0}\0".utf8),  // UTF-16 with a BOM
        Array(repeating: 0x00, count: 1_000),
        Array("\u{1}\u{2}\u{3}".utf8),
    ]

    @Test(
        "bodies that are not UTF-8, or not JSON text, are refused as invalid JSON",
        arguments: notUTF8Bodies)
    func notUTF8(_ body: [UInt8]) async throws {
        try await Self.post([body])
    }

    @Test("a 10 MB stub is taken, listed and served; 10 MB of junk is refused; 20 MB is too large")
    func tenMegabytes() async throws {
        try await HostileServer.with { server in
            let big = String(repeating: "pikachu ", count: 10 << 17)  // 10 MB
            let created = try await server.admin(
                "POST", "/mappings", #"{"request": {"urlPath": "/big"}, "response": {"body": ""# + big + #""}}"#)
            #expect(created.status == 201)
            let served = try await server.send("GET", "/big")
            #expect(served.status == 200)
            #expect(served.body.count == big.utf8.count)
            #expect(try await server.admin("GET", "/mappings").body.count > 10 << 20)
            for junk: [UInt8] in [
                Array(repeating: UInt8(ascii: "["), count: 10 << 20),
                Array(repeating: UInt8(ascii: "9"), count: 10 << 20),
                Array(repeating: 0xFF, count: 10 << 20),
                Array(("\"" + String(repeating: "\\u00e9", count: (10 << 20) / 6)).utf8),
                Array(("{" + String(repeating: #""k": 1, "#, count: (10 << 20) / 8)).utf8),
            ] {
                let response = try await server.send("POST", "/__admin/mappings", body: junk)
                #expect(response.status == 400, "\(junk.prefix(10)): \(response.status)")
            }
            let tooLarge = try await server.send(
                "POST", "/__admin/mappings", body: Array(repeating: 0x20, count: 20 << 20))
            #expect(tooLarge.status == 413 || tooLarge.status == 0)
            #expect(try await server.admin("GET", "/health").status == 200)
        }
    }

    @Test("request patterns for the journal get the same treatment")
    func hostilePatterns() async throws {
        try await HostileServer.with { server in
            _ = try await server.send("GET", "/api/v2/pokemon/1/")
            for path in ["/requests/count", "/requests/find", "/requests/remove"] {
                for body in [
                    "", "null", "[]", "1e400", String(repeating: "[", count: 100_000), #"{"urlPattern": "(unclosed"}"#,
                    #"{"url": "/a", "urlPath": "/a"}"#, #"{"method": "G E T"}"#, #"{"bodyPatterns": {}}"#,
                    #"{"headers": {"A": {"matchesJsonPath": "$[?(@.a ~= 1)]"}}}"#,
                    #"{"queryParameters": {"q": {"or": []}}}"#, #"{"urlPathTemplate": "/{a}/{a}"}"#,
                ] {
                    let response = try await server.admin("POST", path, body)
                    #expect(response.status == 400, "\(path) \(body.prefix(40)): \(response.status)")
                    #expect(response.errorTitle != nil)
                }
            }
            #expect(server.engine.journal.count == 1)
        }
    }

    @Test("odd admin paths and ids are refused as JSON, never crashed on")
    func oddPaths() async throws {
        try await HostileServer.with { server in
            for (method, path) in [
                ("GET", "/mappings/%00"), ("GET", "/mappings/" + String(repeating: "a", count: 10_000)),
                ("PUT", "/mappings/not-a-uuid"), ("DELETE", "/requests/%ZZ"), ("GET", "/mappings/a/b/c"),
                ("GET", "/mappings/../health"), ("BREW", "/mappings"), ("GET", "/%2e%2e/health"),
                ("GET", "/requests/unmatched/near-misses/x"), ("POST", "/mappings/reset/x"),
            ] {
                let response = try await server.send(method, "/__admin" + path)
                #expect((400...499).contains(response.status), "\(method) \(path.prefix(40)): \(response.status)")
                #expect(response.errorTitle != nil, "\(method) \(path.prefix(40)): \(response.text.prefix(100))")
            }
            #expect(try await server.admin("GET", "/health").status == 200)
        }
    }
}
