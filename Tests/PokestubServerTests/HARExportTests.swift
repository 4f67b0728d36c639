import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

@Suite("HAR 1.2 export and import of the request journal, over real sockets")
struct HARExportTests {
    /// Three kinds of answer: JSON text, binary bytes, and a body above the recordings' inline limit.
    static let binary = Data((0...255).map { UInt8($0) } + [0xFF, 0xFE])
    static let large = Data(String(repeating: "pikachu ", count: 10_000).utf8)

    private static func addStubs(_ server: LiveServer, admin: String = "") async throws {
        let mappings = [
            #"{"request": {"method": "GET", "urlPath": "/api/v2/pokemon/25/"}, "response": {"status": 200, "headers": {"Content-Type": "application/json; charset=utf-8", "Set-Cookie": "session=s3cr3t; Path=/"}, "body": "{\"id\":25,\"name\":\"pikachu\",\"url\":\"https://pokeapi.co/api/v2/pokemon/25/\"}"}}"#,
            #"{"request": {"method": "GET", "urlPath": "/sprites/25.png"}, "response": {"status": 200, "headers": {"Content-Type": "image/png"}, "base64Body": "\#(binary.base64EncodedString())"}}"#,
            #"{"request": {"method": "POST", "urlPath": "/api/v2/team"}, "response": {"status": 201, "headers": {"Content-Type": "text/plain"}, "base64Body": "\#(large.base64EncodedString())"}}"#,
        ]
        for mapping in mappings { #expect(try await server.admin("POST", admin + "/mappings", json: mapping).0 == 201) }
    }

    private static func sendTraffic(_ server: LiveServer, prefix: String = "") async throws {
        #expect(
            try await server.send(
                "GET", prefix + "/api/v2/pokemon/25/?token=hunter2&lang=en",
                headers: ["Authorization": "Bearer hunter2"]
            ).status == 200)
        #expect(try await server.send("GET", prefix + "/sprites/25.png").body == binary)
        #expect(
            try await server.send(
                "POST", prefix + "/api/v2/team", headers: ["Content-Type": "application/octet-stream"],
                body: Data([0x00, 0xFF, 0x10])
            ).body == large)
        #expect(try await server.send("GET", prefix + "/api/v2/pokemon/9999/").status == 404)
    }

    /// Checks the fields HAR 1.2 requires of a log and of each entry, and returns the entries.
    private static func requireHARShape(_ har: JSONValue) throws -> [JSONValue] {
        let log = try #require(har["log"])
        #expect(log["version"] == "1.2")
        #expect(log["creator"]?["name"] == "pokestub")
        #expect(log["creator"]?["version"]?.stringValue != nil)
        let entries = try #require(log["entries"]?.arrayValue)
        for entry in entries {
            let started = try #require(entry["startedDateTime"]?.stringValue)
            #expect(
                (try? Date(started, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))) != nil)
            #expect(entry["time"]?.numberValue != nil)
            #expect(entry["cache"]?.objectValue != nil)
            let request = try #require(entry["request"])
            for field in ["method", "url", "httpVersion"] { #expect(request[field]?.stringValue != nil, "\(field)") }
            for field in ["cookies", "headers", "queryString"] {
                #expect(request[field]?.arrayValue != nil, "\(field)")
            }
            for field in ["headersSize", "bodySize"] { #expect(request[field]?.intValue != nil, "\(field)") }
            #expect(URL(string: try #require(request["url"]?.stringValue))?.scheme == "http")
            let response = try #require(entry["response"])
            #expect(response["status"]?.intValue != nil)
            for field in ["statusText", "httpVersion", "redirectURL"] {
                #expect(response[field]?.stringValue != nil, "\(field)")
            }
            for field in ["cookies", "headers"] { #expect(response[field]?.arrayValue != nil, "\(field)") }
            for field in ["headersSize", "bodySize"] { #expect(response[field]?.intValue != nil, "\(field)") }
            #expect(response["content"]?["size"]?.intValue != nil)
            #expect(response["content"]?["mimeType"]?.stringValue != nil)
            let timings = try #require(entry["timings"])
            for field in ["send", "wait", "receive"] { #expect(timings[field]?.numberValue != nil, "\(field)") }
        }
        return entries
    }

    private static func header(_ fields: JSONValue?, _ name: String) -> String? {
        fields?.arrayValue?.first { $0["name"]?.stringValue?.lowercased() == name.lowercased() }?["value"]?
            .stringValue
    }

    @Test("GET /__admin/requests?format=har is a HAR 1.2 log with both bodies, timings and secrets redacted")
    func export() async throws {
        try await LiveServer.with { server in
            try await Self.addStubs(server)
            try await Self.sendTraffic(server)
            let (status, har) = try await server.admin("GET", "/requests?format=har")
            #expect(status == 200)
            let entries = try Self.requireHARShape(har)
            #expect(entries.count == 4)
            let (pokemon, sprite, team, miss) = (entries[0], entries[1], entries[2], entries[3])
            // Oldest first, absolute URLs, secrets redacted in the URL, the query and the header fields.
            #expect(
                pokemon["request"]?["url"]?.stringValue
                    == server.baseURL + "/api/v2/pokemon/25/?token=%3Credacted%3E&lang=en")
            #expect(pokemon["request"]?["queryString"]?[0]?["value"] == "<redacted>")
            #expect(pokemon["request"]?["queryString"]?[1]?["value"] == "en")
            #expect(Self.header(pokemon["request"]?["headers"], "Authorization") == "<redacted>")
            #expect(Self.header(pokemon["response"]?["headers"], "Set-Cookie") == "session=<redacted>; Path=/")
            let exported = String(decoding: har.serialized(pretty: false), as: UTF8.self)
            #expect(!exported.contains("hunter2") && !exported.contains("s3cr3t"))
            #expect(pokemon["response"]?["content"]?["text"]?.stringValue?.hasPrefix(#"{"id":25"#) == true)
            #expect(pokemon["response"]?["content"]?["encoding"] == nil)
            #expect(pokemon["response"]?["statusText"] == "OK")
            #expect(pokemon["_pokestub"]?["wasMatched"] == true)
            // Binary bodies are base64 with encoding, and decode to the bytes sent.
            #expect(sprite["response"]?["content"]?["encoding"] == "base64")
            #expect(sprite["response"]?["content"]?["mimeType"] == "image/png")
            #expect(
                sprite["response"]?["content"]?["text"]?.stringValue.flatMap { Data(base64Encoded: $0) }
                    == Self.binary)
            #expect(sprite["response"]?["content"]?["size"]?.intValue == Self.binary.count)
            #expect(team["request"]?["postData"]?["_encoding"] == "base64")
            #expect(team["request"]?["postData"]?["text"] == .string(Data([0x00, 0xFF, 0x10]).base64EncodedString()))
            #expect(team["request"]?["bodySize"]?.intValue == 3)
            #expect(team["response"]?["content"]?["text"]?.stringValue?.utf8.count == Self.large.count)
            // A miss: its 404 text and closest-stub header, unmatched.
            #expect(miss["response"]?["status"]?.intValue == 404)
            #expect(miss["response"]?["content"]?["text"]?.stringValue?.hasPrefix("No stub matched") == true)
            #expect(Self.header(miss["response"]?["headers"], "Pokestub-Closest-Stub") != nil)
            #expect(miss["_pokestub"]?["wasMatched"] == false)
            // The filters of the JSON listing apply; an unknown format is refused.
            let (_, unmatched) = try await server.admin("GET", "/requests?format=har&unmatched=true")
            #expect(unmatched["log"]?["entries"]?.arrayValue?.count == 1)
            #expect(try await server.admin("GET", "/requests?format=xml").0 == 400)
        }
    }

    @Test("a session's journal exports under /__admin/sessions/{id}/requests?format=har with the session's URLs")
    func sessionExport() async throws {
        try await LiveServer.with { server in
            let (_, session) = try await server.admin("POST", "/sessions", json: "{}")
            let id = try #require(session["id"]?.stringValue)
            try await Self.addStubs(server, admin: "/sessions/\(id)")
            try await Self.sendTraffic(server, prefix: "/__sessions/\(id)")
            let (status, har) = try await server.admin("GET", "/sessions/\(id)/requests?format=har")
            #expect(status == 200)
            let entries = try Self.requireHARShape(har)
            #expect(entries.count == 4)
            #expect(
                entries[1]["request"]?["url"]?.stringValue == server.baseURL + "/__sessions/\(id)/sprites/25.png")
            let (_, daemon) = try await server.admin("GET", "/requests?format=har")
            #expect(daemon["log"]?["entries"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test("export, import and replay: every imported stub answers the exported bodies byte for byte")
    func roundTrip() async throws {
        let folder = try TemporaryDirectory()
        let har = try await LiveServer.with { server in
            try await Self.addStubs(server)
            try await Self.sendTraffic(server)
            return try await server.send("GET", "/__admin/requests?format=har").body
        }
        let root = folder.url.appendingPathComponent("stubs")
        let writer = RecordingWriter(root: root)
        let planned = try HARImport().plan(har, into: writer)
        #expect(planned.map(\.checked.file.path).contains("mappings/sprites/25.png.GET.json"))
        #expect(planned.count == 4, "the 404 is imported as a recording of it would be")
        #expect(planned.allSatisfy { $0.change == .new })
        for item in planned { _ = try writer.commit(item.checked, durability: .powerLoss) }
        #expect(try HARImport().plan(har, into: writer).allSatisfy { $0.change == .unchanged })
        let pokemonPath = try #require(
            planned.map(\.checked.file.path).first { $0.hasPrefix("mappings/api/v2/pokemon/25/") })
        let mappingText = try String(contentsOf: root.appendingPathComponent(pokemonPath), encoding: .utf8)
        #expect(!mappingText.contains("hunter2") && !mappingText.contains("s3cr3t"))
        try await LiveServer.with(stubRoot: root.path) { replay in
            #expect(try await replay.send("GET", "/sprites/25.png").body == Self.binary)
            #expect(
                try await replay.send("POST", "/api/v2/team", body: Data([0x00, 0xFF, 0x10])).body == Self.large)
            let pokemon = try await replay.send("GET", "/api/v2/pokemon/25/?token=other&lang=en")
            #expect(pokemon.status == 200)
            #expect(
                pokemon.text == #"{"id":25,"name":"pikachu","url":"https://pokeapi.co/api/v2/pokemon/25/"}"#)
        }
    }

    /// One entry of a HAR log: a GET of `url` answered 200 with the JSON `body`.
    private static func entry(_ url: String, body: String) -> String {
        let text = body.replacingOccurrences(of: "\"", with: "\\\"")
        return #"""
            {"startedDateTime": "2026-12-01T10:00:00.000Z", "time": 5,
             "request": {"method": "GET", "url": "\#(url)", "httpVersion": "HTTP/1.1", "headers": [],
                         "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
             "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                          "headers": [{"name": "Content-Type", "value": "application/json"}],
                          "content": {"size": \#(body.utf8.count), "mimeType": "application/json", "text": "\#(text)"},
                          "cookies": [], "redirectURL": "", "headersSize": -1, "bodySize": \#(body.utf8.count)},
             "cache": {}, "timings": {"send": 0, "wait": 5, "receive": 0}}
            """#
    }

    @Test("an imported entry with a repeated parameter answers exactly its multiset of values, in any order")
    func repeatedParameters() async throws {
        let folder = try TemporaryDirectory()
        let entries = [
            Self.entry("https://pokeapi.co/api/v2/pokemon/?id=1&id=2", body: #"{"entry":1}"#),
            Self.entry("https://pokeapi.co/api/v2/pokemon/?id=2&id=3", body: #"{"entry":2}"#),
            Self.entry("https://pokeapi.co/api/v2/pokemon/?id=4", body: #"{"entry":3}"#),
        ]
        let har =
            #"{"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": ["#
            + entries.joined(separator: ",") + "]}}"
        let root = folder.url.appendingPathComponent("stubs")
        let writer = RecordingWriter(root: root)
        let planned = try HARImport().plan(Data(har.utf8), into: writer)
        #expect(planned.count == 3)
        for item in planned { _ = try writer.commit(item.checked, durability: .processCrash) }
        let first = try #require(planned.first { $0.entry == 0 })
        let mapping = try JSONValue.parse(first.checked.file.data)
        #expect(
            mapping["request"]?["queryParameters"]?["id"]
                == ["hasExactly": [["equalTo": "1"], ["equalTo": "2"]]])
        let single = try #require(planned.first { $0.entry == 2 })
        #expect(
            try JSONValue.parse(single.checked.file.data)["request"]?["queryParameters"]?["id"] == ["equalTo": "4"])
        try await LiveServer.with(stubRoot: root.path) { replay in
            for target in ["?id=1&id=2", "?id=2&id=1"] {
                let answer = try await replay.send("GET", "/api/v2/pokemon/" + target)
                #expect(answer.status == 200 && answer.text == #"{"entry":1}"#, "\(target): \(answer.text)")
            }
            #expect(try await replay.send("GET", "/api/v2/pokemon/?id=3&id=2").text == #"{"entry":2}"#)
            for target in ["?id=3&id=9", "?id=1", "?id=2", "?id=1&id=2&id=3", "?id=1&id=2&id=2", "?id=1&id=1"] {
                #expect(try await replay.send("GET", "/api/v2/pokemon/" + target).status == 404, "\(target)")
            }
            #expect(try await replay.send("GET", "/api/v2/pokemon/?id=4").status == 200)
        }
    }

    /// What a plan refuses with, or "" when it plans.
    private static func refusal(_ plan: () throws -> [HARImport.Planned]) -> String {
        do {
            _ = try plan()
            return ""
        } catch { return "\(error)" }
    }

    /// Stubs match paths, not hosts: a capture from a browser holds several hosts' `GET /`.
    private static let twoHosts =
        #"{"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": ["#
        + [
            entry("https://a.example/", body: #"{"host":"a"}"#),
            entry("https://b.example:8443/", body: #"{"host":"b"}"#),
            entry("https://b.example:8443/only-b", body: #"{"only":"b"}"#),
        ].joined(separator: ",") + "]}}"

    @Test("two hosts' entries for one stub stop the import, naming both; --host keeps one host's and answers it")
    func severalHosts() async throws {
        let folder = try TemporaryDirectory()
        let root = folder.url.appendingPathComponent("stubs")
        let writer = RecordingWriter(root: root)
        let data = Data(Self.twoHosts.utf8)
        let collision = Self.refusal { try HARImport().plan(data, into: writer) }
        #expect(
            collision.contains("entries 0 (a.example) and 1 (b.example:8443) would write the same stub"), "\(collision)"
        )
        #expect(collision.contains("--host"))
        #expect(!FileManager.default.fileExists(atPath: root.path))
        let unknown = Self.refusal { try HARImport(host: "c.example").plan(data, into: writer) }
        #expect(unknown == "no entry has the host c.example; the file holds a.example (1), b.example:8443 (2)")
        let planned = try HARImport(host: "B.example:8443").plan(data, into: writer)
        #expect(planned.map(\.entry) == [1, 2])
        for item in planned { _ = try writer.commit(item.checked, durability: .processCrash) }
        try await LiveServer.with(stubRoot: root.path) { replay in
            let root = try await replay.send("GET", "/")
            #expect(root.text == #"{"host":"b"}"#)
            let onlyB = try await replay.send("GET", "/only-b")
            #expect(onlyB.status == 200)
        }
    }
}
