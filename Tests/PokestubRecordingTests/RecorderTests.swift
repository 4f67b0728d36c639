import Foundation
import PokestubCore
import Testing

@Suite("Turning exchanges into mappings")
struct RecorderTests {
    private func record(
        _ target: String = "/api/v2/berry/1/", method: String = "GET", requestHeaders: [(String, String)] = [],
        requestBody: Data = Data(), status: Int = 200, headers: [(String, String)] = [], body: Data,
        options: RecordingOptions = RecordingOptions()
    ) -> Recording {
        let request = HTTPRequest(
            method: method, rawURL: target, headers: HTTPHeaders(requestHeaders.map { (name: $0.0, value: $0.1) }),
            body: requestBody)
        let response = UpstreamResponse(
            status: status, headers: HTTPHeaders(headers.map { (name: $0.0, value: $0.1) }), body: body)
        return Recorder(options: options).recording(of: request, response: response)
    }

    @Test("a JSON body becomes a pretty jsonBody in the upstream's member order, and the mapping loads and matches")
    func jsonBody() throws {
        let recording = record(
            headers: [("Content-Type", "application/json; charset=utf-8")],
            body: Data(#"{"name":"cheri","id":1,"flavors":[{"potency":10}],"size":20.5}"#.utf8))
        let text = String(decoding: recording.mappingData, as: UTF8.self)
        #expect(recording.mapping["response"]?["jsonBody"]?["name"] == .string("cheri"))
        #expect(recording.bodyFile == nil)
        #expect(text.contains("\"jsonBody\": {\n      \"name\": \"cheri\",\n      \"id\": 1,"), "\(text)")
        let jsonBody = try #require(text.range(of: "\"jsonBody\"")).upperBound
        let keys = ["\"name\"", "\"id\"", "\"flavors\"", "\"size\""].compactMap {
            text.range(of: $0, range: jsonBody..<text.endIndex)?.lowerBound
        }
        #expect(keys.count == 4 && keys == keys.sorted())
        #expect(text.hasSuffix("}\n"))
        let stub = try StubMapping(
            json: try JSONValue.parse(recording.mappingData), defaultID: UUID(), source: .runtime,
            bodyFiles: BodyFileStore(root: nil))
        #expect(stub.id == recording.id)
        #expect(stub.request.matches(HTTPRequest(method: "GET", rawURL: "/api/v2/berry/1/")))
        #expect(!stub.request.matches(HTTPRequest(method: "GET", rawURL: "/api/v2/berry/1/?limit=1")))
        #expect(
            try JSONValue.parse(stub.response.body.data)
                == JSONValue.parse(#"{"name":"cheri","id":1,"flavors":[{"potency":10}],"size":20.5}"#))
    }

    @Test("the same exchange always gives the same bytes")
    func stableBytes() {
        let body = Data(#"{"b": [3, 2, 1], "a": {"z": null, "y": "\u00e9\n"}}"#.utf8)
        let first = record(headers: [("Content-Type", "application/json")], body: body)
        let second = record(headers: [("Content-Type", "application/json")], body: body)
        #expect(first.mappingData == second.mappingData)
        #expect(String(decoding: first.mappingData, as: UTF8.self).contains(#""y": "\u00e9\n""#), "escapes as written")
    }

    @Test("large JSON, large text and binary bodies go to __files with a fitting extension")
    func bodyFiles() throws {
        var options = RecordingOptions()
        options.largeBodyBytes = 100
        let large = record(
            headers: [("Content-Type", "application/json")],
            body: Data(("{\"items\": [" + (1...50).map(String.init).joined(separator: ",") + "]}").utf8),
            options: options)
        #expect(large.bodyFile?.name == "api/v2/berry/1/GET.json")
        #expect(large.mapping["response"]?["bodyFileName"] == .string("api/v2/berry/1/GET.json"))
        #expect(large.mapping["response"]?["jsonBody"] == nil)
        #expect(try JSONValue.parse(large.bodyFile!.data)["items"] != nil)
        let text = record(
            "/notes.txt", headers: [("Content-Type", "text/plain")],
            body: Data(String(repeating: "ab\n", count: 50).utf8), options: options)
        #expect(text.bodyFile?.name == "notes.txt.GET.txt")
        #expect(text.bodyFile?.data == Data(String(repeating: "ab\n", count: 50).utf8))
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF, 0xFE])
        let image = record("/sprites/1.png", headers: [("Content-Type", "image/png")], body: png)
        #expect(image.bodyFile == Recording.BodyFileToWrite(name: "sprites/1.png.GET.png", data: png))
        let small = record("/hello", headers: [("Content-Type", "text/plain")], body: Data("hi there".utf8))
        #expect(small.mapping["response"]?["body"] == .string("hi there"))
    }

    @Test("hop-by-hop, body-describing and volatile headers are dropped; repeated ones stay separate")
    func headers() {
        let recording = record(
            headers: [
                ("Content-Type", "application/json"), ("Content-Length", "99"), ("Content-Encoding", "gzip"),
                ("Transfer-Encoding", "chunked"), ("Connection", "keep-alive, X-Hop"), ("X-Hop", "1"),
                ("Keep-Alive", "timeout=5"), ("Date", "Sun, 29 Nov 2026 10:00:00 GMT"), ("Age", "3"),
                ("CF-Ray", "abc-AMS"), ("X-Request-Id", "42"), ("Server-Timing", "x;dur=1"), ("ETag", "W/\"1\""),
                ("Link", "<a>; rel=next"), ("Link", "<b>; rel=prev"), ("Proxy-Authenticate", "Basic"),
            ], body: Data("{}".utf8))
        let headers = recording.mapping["response"]?["headers"]
        #expect(headers?.objectValue.map { Set($0.keys) } == ["Content-Type", "ETag", "Link"])
        #expect(headers?["Link"] == .array([.string("<a>; rel=next"), .string("<b>; rel=prev")]))
    }

    @Test("secrets are redacted: cookies keep their names and attributes, secret query values their names")
    func redaction() throws {
        let recording = record(
            "/api/v2/me?api_key=s3cr3t&limit=5&accessToken=t0k3n&monkey=1",
            headers: [
                ("Set-Cookie", "session=abc123; Path=/; HttpOnly"), ("Set-Cookie", "theme=dark"),
                ("Authorization", "Bearer xyz"), ("Content-Type", "application/json"),
            ], body: Data("{}".utf8))
        let text = String(decoding: recording.mappingData, as: UTF8.self)
        for secret in ["s3cr3t", "t0k3n", "abc123", "Bearer xyz", "dark"] {
            #expect(!text.contains(secret), "\(secret) leaked into \(text)")
        }
        #expect(
            recording.mapping["response"]?["headers"]?["Set-Cookie"]
                == .array([.string("session=<redacted>; Path=/; HttpOnly"), .string("theme=<redacted>")]))
        #expect(
            recording.mapping["name"]
                == .string("GET /api/v2/me?api_key=<redacted>&limit=5&accessToken=<redacted>&monkey=1"))
        let stub = try StubMapping(
            json: recording.mapping, defaultID: UUID(), source: .runtime, bodyFiles: BodyFileStore(root: nil))
        #expect(
            stub.request.matches(
                HTTPRequest(method: "GET", rawURL: "/api/v2/me?limit=5&monkey=1&api_key=other&accessToken=x")))
        #expect(
            !stub.request.matches(
                HTTPRequest(method: "GET", rawURL: "/api/v2/me?limit=6&monkey=1&api_key=x&accessToken=x")))
        var off = RecordingOptions()
        off.redactedHeaders = []
        off.redactedQueryWords = []
        let plain = record(
            "/x?api_key=s3cr3t", headers: [("Authorization", "Bearer xyz")], body: Data("{}".utf8), options: off)
        #expect(String(decoding: plain.mappingData, as: UTF8.self).contains("s3cr3t"))
    }

    @Test("queries match in any order and request bodies are part of the pattern")
    func requestPattern() throws {
        let query = record("/api/v2/pokemon/?offset=20&limit=20", body: Data("{}".utf8))
        let stub = try StubMapping(
            json: query.mapping, defaultID: UUID(), source: .runtime, bodyFiles: BodyFileStore(root: nil))
        #expect(stub.request.matches(HTTPRequest(method: "GET", rawURL: "/api/v2/pokemon/?limit=20&offset=20")))
        #expect(!stub.request.matches(HTTPRequest(method: "GET", rawURL: "/api/v2/pokemon/?limit=20&offset=40")))
        let post = record(
            "/api/v2/team", method: "POST", requestBody: Data(#"{"members": ["pikachu"]}"#.utf8), body: Data("{}".utf8))
        let postStub = try StubMapping(
            json: post.mapping, defaultID: UUID(), source: .runtime, bodyFiles: BodyFileStore(root: nil))
        #expect(
            postStub.request.matches(
                HTTPRequest(method: "POST", rawURL: "/api/v2/team", body: Data(#"{"members":["pikachu"]}"#.utf8))))
        #expect(
            !postStub.request.matches(
                HTTPRequest(method: "POST", rawURL: "/api/v2/team", body: Data(#"{"members":[]}"#.utf8))))
        var capture = RecordingOptions()
        capture.capturedHeaders = ["Accept-Language": true]
        let captured = record(requestHeaders: [("Accept-Language", "de")], body: Data("{}".utf8), options: capture)
        #expect(
            captured.mapping["request"]?["headers"]?["Accept-Language"]
                == .object(["equalTo": .string("de"), "caseInsensitive": .bool(true)]))
        #expect(
            captured.fileName
                != record(requestHeaders: [("Accept-Language", "fr")], body: Data("{}".utf8), options: capture).fileName
        )
    }

    @Test("a redirect is recorded as it came, Location included")
    func redirect() {
        let recording = record(
            "/old", status: 301, headers: [("Location", "https://pokeapi.co/new"), ("Content-Type", "text/html")],
            body: Data("<a href=\"/new\">moved</a>".utf8))
        #expect(recording.mapping["response"]?["status"] == .integer(301))
        #expect(recording.mapping["response"]?["headers"]?["Location"] == .string("https://pokeapi.co/new"))
    }
}
