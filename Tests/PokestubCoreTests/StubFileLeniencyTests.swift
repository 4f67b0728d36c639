import Foundation
import PokestubTestSupport
import Testing

@testable import PokestubCore

/// What WireMock 2.35 accepts in mapping files beyond strict stub JSON (each case also served by the jar in
/// `scripts/wiremock-compat/trees/lenient`).
@Suite("Mapping files: comments, bookkeeping fields and non-string bodies, as WireMock reads them")
struct StubFileLeniencyTests {
    private func load(_ text: String) throws -> StubLoader.Result {
        try TemporaryDirectory.with { directory in
            _ = try directory.write(text, to: "mappings/m.json")
            return StubLoader(root: directory.path, strict: true).load()
        }
    }

    @Test("// and /* */ comments are read as white space; slashes inside strings stay")
    func comments() throws {
        let result = try load(
            """
            // leading
            {
              /* block
                 over lines */
              "request": {"urlPath": "/c"}, // trailing
              "response": {"body": "a // b /* c */", "headers": {"X-Path": "c:\\\\", "X-Quote": "\\" // d"}} // e
            }
            """)
        #expect(result.problems.isEmpty)
        let stub = try #require(result.stubs.first)
        #expect(stub.response.body.text == "a // b /* c */")
        #expect(stub.response.headers["X-Path"] == #"c:\"#)
        #expect(stub.response.headers["X-Quote"] == #"" // d"#)
        #expect(stub.definition["response"]?["body"] == .string("a // b /* c */"))
    }

    @Test("a problem after a comment is reported on its own line")
    func linesKept() throws {
        let result = try load(
            "/* one\n two */\n{\n  \"request\": {\"urlPath\": \"/c\"},\n  \"response\": {\"status\": 9}\n}")
        #expect(result.problems.first?.line == 5)
    }

    @Test("WireMock's bookkeeping fields load: uuid, persistent, insertionIndex, metadata, postServeActions []")
    func bookkeeping() throws {
        let result = try load(
            #"""
            {"uuid": "0d4c2f8e-5b3a-4c1d-9e7f-2a6b8c0d1e2f", "persistent": true, "insertionIndex": 3,
             "metadata": {"team": "ios"}, "postServeActions": [],
             "request": {"url": "/saved"}, "response": {"body": "saved"}}
            """#)
        #expect(result.problems.isEmpty)
        #expect(result.stubs.first?.id.uuidString.lowercased() == "0d4c2f8e-5b3a-4c1d-9e7f-2a6b8c0d1e2f")
    }

    @Test("post-serve actions and a non-number insertionIndex are refused")
    func behaviourChangingFields() throws {
        let webhook = try load(
            #"{"request": {"url": "/a"}, "postServeActions": [{"name": "webhook", "parameters": {}}]}"#)
        #expect(
            webhook.problems.first?.message.contains(
                "postServeActions: WireMock feature not supported by pokestub: post-serve actions") == true)
        let index = try load(#"{"request": {"url": "/a"}, "insertionIndex": "3"}"#)
        #expect(index.problems.first?.message.contains("insertionIndex") == true)
    }

    @Test("a boolean or number body is served as its JSON text; an object body is refused, as by WireMock")
    func nonStringBodies() throws {
        let result = try load(
            #"""
            {"mappings": [
              {"request": {"urlPath": "/b"}, "response": {"body": true}},
              {"request": {"urlPath": "/n"}, "response": {"body": 42}},
              {"request": {"urlPath": "/d"}, "response": {"body": 1.5}}
            ]}
            """#)
        #expect(result.problems.isEmpty)
        #expect(result.stubs.map(\.response.body.text) == ["true", "42", "1.5"])
        let object = try load(#"{"request": {"urlPath": "/o"}, "response": {"body": {"a": 1}}}"#)
        #expect(object.problems.first?.message.contains("response.body: must be a string, not object") == true)
    }
}
