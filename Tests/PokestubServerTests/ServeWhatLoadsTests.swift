import Foundation
import PokestubCore
import PokestubDaemon
import PokestubTestSupport
import Testing

/// A stub tree WireMock 2.35 starts on is served: a stub it loads and fails on only when hit (a helper or
/// feature pokestub lacks, a body file that is missing or written with a leading `/`) answers 500 naming the
/// file, line and feature, and a file with any other problem is left out while the others serve.
@Suite("Serving what loads, saying what does not")
struct ServeWhatLoadsTests {
    /// Good stubs beside one of each kind of stub pokestub cannot serve as written, and two files that do not
    /// load at all.
    private static func tree() throws -> TemporaryDirectory {
        try TemporaryDirectory.stubRoot(
            mappings: [
                "good.json": #"{"request": {"urlPath": "/good"}, "response": {"body": "good {{request.path}}"}}"#,
                "helper.json": """
                {
                  "request": {"urlPath": "/helper"},
                  "response": {
                    "status": 200,
                    "body": "{{appHelper request.path}}"
                  }
                }
                """,
                "missing.json": #"{"request": {"urlPath": "/missing"}, "response": {"bodyFileName": "gone.json"}}"#,
                "slash.json": #"{"request": {"urlPath": "/slash"}, "response": {"bodyFileName": "/a.json"}}"#,
                "delay.json": """
                {"request": {"urlPath": "/delay"},
                 "response": {"body": "d", "delayDistribution": {"type": "uniform", "lower": 1, "upper": 5}}}
                """,
                "matcher.json": """
                {"request": {"urlPath": "/binary", "bodyPatterns": [{"binaryEqualTo": "AAE="}]},
                 "response": {"body": "b"}}
                """,
                "broken.json": #"{"request": {"urlPath": "/broken"}, "response": {"#,
                "invalid.json": #"{"request": {"urlPath": "/invalid"}, "response": {"status": 9000}}"#,
            ],
            files: ["a.json": #"{"a": 1}"#])
    }

    @Test("the rest serve; each stub pokestub lacks something for answers 500 naming file, line and feature")
    func servesWhatLoads() async throws {
        let root = try Self.tree()
        defer { root.removeFolder() }
        try await LiveServer.with(stubRoot: root.path, globalResponseTemplating: true) { server in
            let good = try await server.send("GET", "/good")
            #expect(good.status == 200 && good.text == "good /good", "\(good.text)")
            let cases: [(path: String, file: String, line: Int, says: String)] = [
                ("/helper", "mappings/helper.json", 5, #"unsupported helper "appHelper""#),
                ("/missing", "mappings/missing.json", 1, "cannot read body file __files/gone.json"),
                ("/slash", "mappings/slash.json", 1, #""/a.json" is absolute"#),
                ("/delay", "mappings/delay.json", 2, "WireMock feature not supported by pokestub: random delays"),
                ("/binary", "mappings/matcher.json", 1, "the binaryEqualTo body matcher"),
            ]
            for (path, file, line, says) in cases {
                let answer = try await server.send("POST", path, body: Data([0, 1]))
                #expect(answer.status == 500, "\(path): \(answer.text)")
                #expect(answer.header("Content-Type") == "application/json", "\(path)")
                let json = try answer.json()
                #expect(json["error"] == .string("stub not servable"), "\(path): \(answer.text)")
                #expect(json["file"] == .string(file), "\(path): \(answer.text)")
                #expect(json["line"] == .integer(Int64(line)), "\(path): \(answer.text)")
                #expect(json["message"]?.stringValue?.contains(says) == true, "\(path): \(answer.text)")
                #expect(json["stub"]?.stringValue == answer.header("Matched-Stub-Id"), "\(path)")
            }
            // Files that do not load are left out, and only they.
            #expect(try await server.send("GET", "/broken").status == 404)
            #expect(try await server.send("GET", "/invalid").status == 404)
            let health = try await server.admin("GET", "/health").1
            #expect(health["status"] == .string("degraded"))
            #expect(health["stubs"] == .integer(6))
            #expect(health["stubWarnings"] == .integer(5))
            let problems = health["lastReload"]?["problems"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(problems.count == 2, "\(problems)")
            #expect(problems.contains { $0.contains("mappings/broken.json:1: ") }, "\(problems)")
            #expect(problems.contains { $0.contains("mappings/invalid.json:1: response.status") }, "\(problems)")
            let warnings = health["lastReload"]?["warnings"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(
                warnings.contains {
                    $0.hasSuffix(
                        #"helper.json:5: response.body: response template: template line 1: unsupported helper "appHelper" in {{appHelper request.path}}"#
                    )
                }, "\(warnings)")
        }
    }

    @Test("strict: the same tree does not start, naming every problem and warning")
    func strictRefuses() async throws {
        let root = try Self.tree()
        defer { root.removeFolder() }
        let error = await #expect(throws: PokestubDaemon.Failure.self) {
            try await LiveServer.with(stubRoot: root.path, globalResponseTemplating: true, strict: true) { _ in }
        }
        guard case .stubProblems(_, let problems)? = error else { return }
        #expect(problems.count == 7, "\(problems)")
        #expect(problems.contains { $0.message.contains(#"unsupported helper "appHelper""#) })
    }

    /// Without templating WireMock reads `{{` in a body file name as it is: a file of that name is served,
    /// and a missing one answers 500 when hit.
    @Test("without templating, a bodyFileName holding {{ is a literal name, served when the file exists")
    func literalBraces() async throws {
        let root = try TemporaryDirectory.stubRoot(
            mappings: [
                "there.json": #"""
                {"request": {"urlPathPattern": "/assets/.*"}, "response": {"bodyFileName": "assets/{{request.pathSegments.[1]}}.txt"}}
                """#,
                "gone.json": #"""
                {"request": {"urlPathPattern": "/other/.*"}, "response": {"bodyFileName": "assets/{{request.pathSegments.[1]}}/x.json"}}
                """#,
            ],
            files: ["assets/{{request.pathSegments.[1]}}.txt": "literal braces"])
        defer { root.removeFolder() }
        try await LiveServer.with(stubRoot: root.path) { server in
            let there = try await server.send("GET", "/assets/q")
            #expect(there.status == 200 && there.text == "literal braces", "\(there.text)")
            let gone = try await server.send("GET", "/other/q")
            #expect(gone.status == 500)
            #expect(try gone.json()["file"] == .string("mappings/gone.json"), "\(gone.text)")
            #expect(gone.text.contains("__files/assets/{{request.pathSegments.[1]}}/x.json"), "\(gone.text)")
        }
    }

    @Test("a reload serves the files that load: a broken one is left out, health says degraded until it is fixed")
    func reloadServesWhatLoads() async throws {
        let root = try TemporaryDirectory.stubRoot()
        defer { root.removeFolder() }
        let mapping = { (path: String, body: String) in
            #"{"request": {"urlPath": "\#(path)"}, "response": {"body": "\#(body)"}}"#
        }
        try root.write(mapping("/a", "a1"), to: "mappings/a.json")
        try root.write(mapping("/b", "b1"), to: "mappings/b.json")
        try await LiveServer.with(stubRoot: root.path) { server in
            try root.write(mapping("/a", "a2"), to: "mappings/a.json")
            try root.write("{ broken", to: "mappings/b.json")
            try root.write(
                #"{"request": {"urlPath": "/c"}, "response": {"bodyFileName": "c.json"}}"#, to: "mappings/c.json")
            let (status, reset) = try await server.admin("POST", "/mappings/reset")
            #expect(status == 200)
            #expect(reset["stubs"] == .integer(2))
            #expect(reset["problems"]?.arrayValue?.count == 1)
            #expect(reset["warnings"]?.arrayValue?.first?.stringValue?.contains("mappings/c.json:1: ") == true)
            #expect(try await server.send("GET", "/a").text == "a2")
            #expect(try await server.send("GET", "/b").status == 404)
            #expect(try await server.send("GET", "/c").status == 500)
            var health = try await server.admin("GET", "/health").1
            #expect(health["status"] == .string("degraded"))
            #expect(health["lastReload"]?["succeeded"] == .bool(true))
            #expect(health["stubWarnings"] == .integer(1))

            try root.write(mapping("/b", "b2"), to: "mappings/b.json")
            try root.write("c", to: "__files/c.json")
            #expect(try await server.admin("POST", "/mappings/reset").0 == 200)
            #expect(try await server.send("GET", "/b").text == "b2")
            #expect(try await server.send("GET", "/c").text == "c")
            health = try await server.admin("GET", "/health").1
            #expect(health["status"] == .string("healthy"))
            #expect(health["stubWarnings"] == .integer(0))
        }
    }
}
