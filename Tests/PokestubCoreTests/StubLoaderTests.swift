import Foundation
import PokestubTestSupport
import Testing

@testable import PokestubCore

@Suite("StubLoader: reading a stub tree")
struct StubLoaderTests {
    private static let pokemonOne = #"""
        {
          "name": "pokemon 1",
          "request": {"method": "GET", "urlPath": "/api/v2/pokemon/1/"},
          "response": {"status": 200, "jsonBody": {"id": 1, "name": "bulbasaur"}}
        }
        """#

    private static let list = #"""
        {
          "mappings": [
            {
              "name": "list page 1",
              "request": {"method": "GET", "urlPath": "/api/v2/pokemon/"},
              "response": {"status": 200, "body": "page 1"}
            },
            {
              "id": "6f1c2a3e-1111-4222-8333-944455556666",
              "name": "list page 2",
              "request": {"method": "GET", "urlPath": "/api/v2/pokemon/", "queryParameters": {"offset": {"equalTo": "20"}}},
              "response": {"status": 200, "body": "page 2"}
            }
          ]
        }
        """#

    /// Loads a tree holding `files` (path under the root → contents) and returns the result, strictly: every
    /// problem is one.
    private func load(_ files: [String: String]) throws -> StubLoader.Result {
        try TemporaryDirectory.with { directory in
            for (path, text) in files { try directory.write(text, to: path) }
            return StubLoader(root: directory.path, strict: true).load()
        }
    }

    /// Loads one broken mapping file and returns its single problem.
    private func problem(_ text: String, file: String = "mappings/broken.json") throws -> StubLoadProblem? {
        let result = try load([file: text, "mappings/good.json": Self.pokemonOne])
        #expect(result.problems.count == 1)
        let problem = result.problems.first
        #expect(problem?.path.hasSuffix("/" + file) == true, "the problem names the file")
        return problem
    }

    @Test("reads one-mapping files and mappings lists, files in path order")
    func readsBothShapes() throws {
        let result = try load(["mappings/pokemon/1.json": Self.pokemonOne, "mappings/list.json": Self.list])
        #expect(result.problems.isEmpty)
        #expect(result.fileCount == 2)
        #expect(result.stubs.map(\.name) == ["list page 1", "list page 2", "pokemon 1"])
        #expect(
            result.stubs.map(\.source) == [
                .file("mappings/list.json"), .file("mappings/list.json"),
                .file("mappings/pokemon/1.json"),
            ])
        #expect(result.stubs[1].id == UUID(uuidString: "6f1c2a3e-1111-4222-8333-944455556666"))
        #expect(result.stubs[2].response.body.text == #"{"id":1,"name":"bulbasaur"}"#)
    }

    @Test("skips files that are not .json and hidden files")
    func skipsOtherFiles() throws {
        let result = try load([
            "mappings/pokemon/1.json": Self.pokemonOne, "mappings/README.md": "not a stub",
            "mappings/.hidden.json": "{", "mappings/.git/x.json": "{",
        ])
        #expect(result.problems.isEmpty)
        #expect(result.fileCount == 1)
    }

    @Test(
        "a recording's temporary files left by a killed writer, mapping and body, are removed at load; a live writer's stay"
    )
    func leftoverTemporaryFiles() throws {
        try TemporaryDirectory.with { directory in
            try directory.write(Self.pokemonOne, to: "mappings/pokemon/1.json")
            // No process has the largest process id (above every system's pid_max); this one's is running.
            let leftover = "mappings/pokemon/.2.json.tmp-\(Int32.max)-17"
            let inProgress = "mappings/pokemon/.3.json.tmp-\(getpid())-18"
            let leftoverBody = "__files/pokemon/.2.json.tmp-\(Int32.max)-19"
            let inProgressBody = "__files/pokemon/.3.json.tmp-\(getpid())-20"
            for path in [leftover, inProgress, leftoverBody, inProgressBody] {
                try directory.write(#"{"request": {"url": "/partial""#, to: path)
            }
            let result = StubLoader(root: directory.path).load()
            #expect(result.problems.isEmpty)
            #expect(result.stubs.count == 1)
            #expect(!directory.files.contains(leftover))
            #expect(directory.files.contains(inProgress))
            #expect(!directory.files.contains(leftoverBody))
            #expect(directory.files.contains(inProgressBody))
        }
    }

    @Test("derives ids from the file path when absent: the same on every load, distinct per mapping")
    func stableIDs() throws {
        let files = ["mappings/pokemon/1.json": Self.pokemonOne, "mappings/list.json": Self.list]
        let first = try load(files)
        let second = try load(files)
        #expect(first.stubs.map(\.id) == second.stubs.map(\.id))
        #expect(Set(first.stubs.map(\.id)).count == 3)
        #expect(first.stubs[2].id == StubMapping.derivedID(from: "mappings/pokemon/1.json"))
        #expect(first.stubs[0].id == StubMapping.derivedID(from: "mappings/list.json#0"))
        #expect(first.stubs[2].definition["id"] == .string(first.stubs[2].id.uuidString.lowercased()))
    }

    @Test("an unknown top-level field is a problem naming the field, the file and its line")
    func unknownTopLevel() throws {
        let problem = try #require(
            try problem(
                #"""
                {
                  "name": "typo",
                  "request": {"method": "GET", "urlPath": "/a/"},
                  "responce": {"status": 200}
                }
                """#))
        #expect(problem.message.contains(#"unsupported field "responce""#))
        #expect(problem.line == 4)
        #expect(problem.description.hasSuffix("mappings/broken.json:4: " + problem.message))
    }

    @Test("an unknown field in the request names the field and its line")
    func unknownInRequest() throws {
        let problem = try #require(
            try problem(
                #"""
                {
                  "request": {
                    "method": "GET",
                    "urlPath": "/a/",
                    "queryParameter": {"limit": {"equalTo": "20"}}
                  }
                }
                """#))
        #expect(problem.message.contains("request.queryParameter"))
        #expect(problem.line == 5)
    }

    @Test("an unknown field in the response names the field and its line")
    func unknownInResponse() throws {
        let problem = try #require(
            try problem(
                #"""
                {
                  "request": {"urlPath": "/a/"},
                  "response": {
                    "status": 200,
                    "delayDistribution": {"type": "uniform", "lower": 1, "upper": 5}
                  }
                }
                """#))
        #expect(problem.message.contains("response.delayDistribution"))
        #expect(problem.line == 5)
    }

    @Test("an unknown field inside a matcher names the field and the line it is on, not an earlier mention")
    func unknownInMatcher() throws {
        let problem = try #require(
            try problem(
                #"""
                {
                  "name": "caseInsensitve",
                  "request": {
                    "urlPath": "/a/",
                    "headers": {
                      "Accept": {"equalTo": "json", "caseInsensitve": true}
                    }
                  }
                }
                """#))
        #expect(problem.message.contains("request.headers.Accept.caseInsensitve"))
        #expect(problem.line == 6)
    }

    @Test("malformed XML in equalToXml and a bad XPath are problems naming the file and the line")
    func malformedXMLPattern() throws {
        let xml = try #require(
            try problem(
                #"""
                {
                  "request": {
                    "urlPath": "/soap",
                    "bodyPatterns": [
                      {"equalToXml": "<order><id>7</id></orde>"}
                    ]
                  }
                }
                """#))
        #expect(xml.message.contains("request.bodyPatterns[0].equalToXml: is not well-formed XML"), "\(xml.message)")
        #expect(xml.line == 5)
        let xpath = try #require(
            try problem(
                #"""
                {
                  "request": {
                    "urlPath": "/soap",
                    "multipartPatterns": [
                      {"bodyPatterns": [
                        {"matchesXPath": "//m:id"}
                      ]}
                    ]
                  }
                }
                """#))
        #expect(xpath.message.contains(#"namespace prefix "m" is not declared"#), "\(xpath.message)")
        #expect(xpath.line == 6)
    }

    @Test("an unsupported matcher names the matcher and its line")
    func unsupportedMatcher() throws {
        let problem = try #require(
            try problem(
                #"""
                {
                  "request": {
                    "urlPath": "/a/",
                    "queryParameters": {
                      "limit": {"equalTo": "20"},
                      "offset": {"equalsTo": "0"}
                    }
                  }
                }
                """#))
        #expect(problem.message.contains(#"unsupported matcher "equalsTo""#))
        #expect(problem.message.contains("request.queryParameters.offset"))
        #expect(problem.line == 6)
    }

    @Test("a problem in the second mapping of a list names its position and its own line")
    func problemInList() throws {
        let problem = try #require(
            try problem(
                #"""
                {
                  "mappings": [
                    {
                      "request": {"urlPath": "/a/"},
                      "response": {"status": 200, "fixedDelayMilliseconds": 10}
                    },
                    {
                      "request": {"urlPath": "/b/"},
                      "response": {"status": 200, "fixedDelayMilliseconds": 900000}
                    }
                  ]
                }
                """#))
        #expect(problem.message.hasPrefix("mappings[1]: response.fixedDelayMilliseconds"))
        #expect(problem.line == 9)
    }

    @Test("a problem in a body pattern points at the pattern's line")
    func problemInBodyPattern() throws {
        let problem = try #require(
            try problem(
                #"""
                {
                  "request": {
                    "method": "POST",
                    "urlPath": "/a/",
                    "bodyPatterns": [
                      {"matches": "ok"},
                      {"matches": "([unclosed"}
                    ]
                  }
                }
                """#))
        #expect(problem.message.contains("request.bodyPatterns[1].matches"))
        #expect(problem.message.contains("invalid regular expression"))
        #expect(problem.line == 7)
    }

    @Test(
        "invalid JSON is a problem with the file and the line",
        arguments: [
            ("{\n  \"request\": {\"urlPath\": \"/a/\"},\n  \"response\": {\"status\": 200,}\n  x\n}", 4),
            ("{\n  \"request\": {\n    \"urlPath\": \"/a/\n\"\n  }\n}", 3),
            ("{\n  \"request\": {\n    \"urlPath\": \"/a/\"\n", 4),
            ("{\n  \"request\": {\"urlPath\": \"/a/\"},\n  \"response\": {\"status\": 200,}\n}", 3),
        ])
    func invalidJSON(text: String, line: Int) throws {
        let problem = try #require(try problem(text))
        #expect(problem.message.contains("invalid JSON"))
        #expect(problem.line == line)
    }

    @Test("a list entry that is not an object points at the entry's line")
    func listEntryNotObject() throws {
        let problem = try #require(
            try problem(
                #"""
                {
                  "mappings": [
                    {"request": {"urlPath": "/a/"}},
                    "not a mapping"
                  ]
                }
                """#))
        #expect(problem.message == "mappings[1]: a stub mapping must be a JSON object, not string")
        #expect(problem.line == 4)
    }

    @Test("field names with escapes and query parameter names with brackets are placed right")
    func unusualNames() throws {
        let problem = try #require(
            try problem(
                #"""
                {
                  "request": {
                    "urlPath": "/a/",
                    "queryParameters": {
                      "filter[name]": {"equalTo": "x"},
                      "ids[0]": {"equalTo": "1", "caseInsensitive": "yes"}
                    }
                  }
                }
                """#))
        #expect(problem.message.contains("request.queryParameters.ids[0].caseInsensitive"))
        #expect(problem.line == 6)
        let data = Data(#"{"a\"b": {"c": 1},\#n "x": [0,\#n {"c": 2}]}"#.utf8)
        #expect(TextPosition.line(ofKeyPath: ["x[1]", "c"], in: data) == 3)
        #expect(TextPosition.line(ofKeyPath: ["a\"b", "c"], in: data) == 1)
    }

    @Test("two URL fields are refused, naming both")
    func twoURLFields() throws {
        let problem = try #require(try problem(#"{"request": {"url": "/a/", "urlPath": "/a/"}}"#))
        #expect(problem.message.contains("url and urlPath"))
        #expect(problem.line == 1)
    }

    @Test("two body fields are refused, naming both")
    func twoBodyFields() throws {
        let problem = try #require(
            try problem(
                #"""
                {
                  "request": {"urlPath": "/a/"},
                  "response": {
                    "body": "text",
                    "jsonBody": {"a": 1}
                  }
                }
                """#))
        #expect(problem.message.contains("body and jsonBody"))
        #expect(problem.line == 5)
    }

    @Test("a bad regular expression in the URL is refused")
    func badRegex() throws {
        let problem = try #require(
            try problem("{\n  \"request\": {\n    \"urlPathPattern\": \"/api/(unclosed\"\n  }\n}"))
        #expect(problem.message.contains("request.urlPathPattern"))
        #expect(problem.message.contains("invalid regular expression"))
        #expect(problem.line == 3)
    }

    @Test("a mapping without a request is refused")
    func missingRequest() throws {
        let problem = try #require(try problem(#"{"response": {"status": 200}}"#))
        #expect(problem.message.contains("request: is missing"))
    }

    @Test("a stub root that is not a folder is one problem")
    func missingRoot() {
        let result = StubLoader(root: "/nonexistent/pokestub-\(UUID().uuidString)").load()
        #expect(result.stubs.isEmpty)
        #expect(result.problems.count == 1)
        #expect(result.problems.first?.message == "stub root is not a folder")
    }

    @Test("a root without mappings/ has no stubs and no problems")
    func emptyRoot() throws {
        let result = try load(["__files/x.json": "{}"])
        #expect(result.stubs.isEmpty)
        #expect(result.problems.isEmpty)
    }

    @Test("a mapping file's bytes read as Data(contentsOf:) reads them, and a file it cannot read fails as it does")
    func mappingFileBytes() throws {
        try TemporaryDirectory.with { directory in
            let sizes = [0, 1, 4_095, 4_096, 1_000_003]
            for size in sizes {
                let bytes = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) })
                let file = try directory.write(bytes, to: "mappings/\(size).json")
                #expect(try StubLoader.contents(ofFile: file.path) == bytes)
            }
            let missing = directory.url.appendingPathComponent("mappings/missing.json")
            let ours = #expect(throws: (any Error).self) { try StubLoader.contents(ofFile: missing.path) }
            let foundation = #expect(throws: (any Error).self) { try Data(contentsOf: missing) }
            #expect(ours.map(Self.described) == foundation.map(Self.described))
            let folder = directory.url.appendingPathComponent("mappings")
            let folderError = #expect(throws: (any Error).self) { try StubLoader.contents(ofFile: folder.path) }
            let foundationFolder = #expect(throws: (any Error).self) { try Data(contentsOf: folder) }
            #expect(folderError.map(Self.described) == foundationFolder.map(Self.described))
        }
    }

    @Test("a large file of mappings loads as it reads on one core: stubs, warnings and problems in file order")
    func largeFileInParallel() throws {
        // Every seventh mapping answers 500 (a transformer pokestub lacks); with `broken`, one does not load.
        func file(count: Int, broken: Int?) -> Data {
            let mappings = (0..<count).map { index -> String in
                let response =
                    index == broken
                    ? #"{"status": 1000}"#
                    : index % 7 == 3 ? #"{"transformers": ["other"], "body": "\#(index)"}"# : #"{"body": "\#(index)"}"#
                return #"{"request": {"urlPath": "/m/\#(index)"}, "response": \#(response)}"#
            }
            return Data(("{\"mappings\": [\n" + mappings.joined(separator: ",\n") + "\n]}").utf8)
        }
        let files = BodyFileStore(root: nil)
        for (data, broken) in [(file(count: 4_000, broken: nil), false), (file(count: 700, broken: 650), true)] {
            let serial = StubLoader.parse(
                data, source: "mappings/m.json", displayPath: "m.json", bodyFiles: files, strict: false)
            let parallel = StubLoader.parse(
                data, source: "mappings/m.json", displayPath: "m.json", bodyFiles: files, strict: false,
                inParallel: true)
            switch (serial, parallel) {
            case (.success(let one), .success(let every)):
                #expect(!broken)
                #expect(every.stubs.map(\.id) == one.stubs.map(\.id))
                #expect(every.stubs.map(\.response.status) == one.stubs.map(\.response.status))
                #expect(every.warnings.map(\.description) == one.warnings.map(\.description))
                #expect(one.stubs.count == 4_000 && one.warnings.count == 571)
            case (.failure(let one), .failure(let every)):
                #expect(broken)
                #expect(every.problems.map(\.description) == one.problems.map(\.description))
                #expect(one.problems.count == 101)
            default:
                Issue.record("one core and every core disagree")
            }
        }
        try TemporaryDirectory.with { directory in
            let data = file(count: 4_000, broken: nil)
            #expect(data.count >= StubLoader.largeFileBytes)
            try directory.write(data, to: "mappings/large.json")
            try directory.write(#"{"request": {"urlPath": "/small"}, "response": {}}"#, to: "mappings/small.json")
            let result = StubLoader(root: directory.path).load()
            #expect(result.problems.isEmpty)
            #expect(result.stubs.count == 4_001 && result.warnings.count == 571)
            #expect(result.stubs.first?.request.url?.literalPath == "/m/0")
            #expect(result.stubs.last?.request.url?.literalPath == "/small")
            let lines = result.warnings.compactMap(\.line)
            #expect(lines == lines.sorted() && lines.count == 571)
        }
    }

    /// An error's domain, code and user info (its entries sorted: their order is the dictionary's).
    private static func described(_ error: any Error) -> String {
        let error = error as NSError
        let info = error.userInfo.map { "\($0.key)=\($0.value)" }.sorted()
        return "\(error.domain) \(error.code) \(info)"
    }
}
