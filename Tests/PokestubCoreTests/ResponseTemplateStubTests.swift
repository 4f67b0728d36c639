import Foundation
import PokestubTestSupport
import Testing

@testable import PokestubCore

@Suite("Response templating in stubs: when it is on, what it renders, and load errors")
struct ResponseTemplateStubTests {
    private func stub(
        _ response: String, global: Bool = false, bodyFiles: BodyFileStore = BodyFileStore(root: nil)
    )
        throws -> StubMapping
    {
        try StubMapping(
            json: JSONValue.parse(#"{"request": {"urlPathPattern": "/t/.*"}, "response": \#(response)}"#),
            defaultID: UUID(), source: .runtime, bodyFiles: bodyFiles, globalResponseTemplating: global)
    }

    private func served(_ stub: StubMapping, _ rawURL: String = "/t/7?q=x") -> HTTPResponse {
        let request = HTTPRequest(method: "GET", rawURL: rawURL, headers: HTTPHeaders([("Host", "h:9")]))
        let index = StubIndex([stub])
        let match = index.match(request)!
        return match.template?.render(match.response, for: request, serverBaseURL: "http://127.0.0.1:1")
            ?? match.response
    }

    @Test("without the transformer or global templating, {{…}} is served as written and costs no template")
    func offByDefault() throws {
        let plain = try stub(#"{"body": "{{request.path}}", "headers": {"X-A": "{{request.path}}"}}"#)
        #expect(plain.response.template == nil)
        #expect(served(plain).body.text == "{{request.path}}")
        #expect(served(plain).headers["X-A"] == "{{request.path}}")
    }

    @Test("a stub with templating on but no mustache gets no template either")
    func literalStaysPlain() throws {
        #expect(try stub(#"{"body": "plain", "headers": {"X-A": "b"}}"#, global: true).response.template == nil)
    }

    @Test("the response-template transformer renders body, header values and jsonBody strings")
    func perStub() throws {
        let templated = try stub(
            #"{"transformers": ["response-template"], "body": "{{request.pathSegments.[1]}} {{request.query.q}}", "headers": {"X-A": "{{request.baseUrl}}", "X-B": "fixed"}}"#
        )
        let response = served(templated)
        #expect(response.body.text == "7 x")
        #expect(response.headers["X-A"] == "http://h:9")
        #expect(response.headers["X-B"] == "fixed")
        #expect(response.headers["Matched-Stub-Id"] == templated.id.uuidString.lowercased())
        let json = try stub(#"{"jsonBody": {"id": "{{request.pathSegments.[1]}}", "n": 1}}"#, global: true)
        #expect(served(json).body.text == #"{"id":"7","n":1}"#)
        #expect(served(json).headers["Content-Type"] == "application/json")
    }

    @Test("transformerParameters are visible as parameters.NAME")
    func parameters() throws {
        let templated = try stub(
            #"{"transformers": ["response-template"], "transformerParameters": {"greeting": "hi"}, "body": "{{parameters.greeting}}"}"#
        )
        #expect(served(templated).body.text == "hi")
    }

    @Test("a templated bodyFileName picks the file per request, and the file's content is a template too")
    func bodyFiles() throws {
        try TemporaryDirectory.with { directory in
            _ = try directory.write(
                "order {{request.pathSegments.[1]}} for {{request.query.q}}", to: "__files/orders/7.json")
            _ = try directory.write("plain {{", to: "__files/broken.txt")
            let files = BodyFileStore(root: directory.url.appendingPathComponent("__files"))
            let byName = try stub(
                #"{"bodyFileName": "orders/{{request.pathSegments.[1]}}.json"}"#, global: true, bodyFiles: files)
            #expect(served(byName).body.text == "order 7 for x")
            let missing = served(byName, "/t/8")
            #expect(missing.status == 500)
            #expect(missing.body.text.contains("orders/8.json"))
            let literal = try stub(#"{"bodyFileName": "orders/7.json"}"#, global: true, bodyFiles: files)
            #expect(served(literal).body.text == "order 7 for x")
            let untemplated = try stub(#"{"bodyFileName": "orders/7.json"}"#, bodyFiles: files)
            #expect(served(untemplated).body.text == "order {{request.pathSegments.[1]}} for {{request.query.q}}")
            let broken = served(try stub(#"{"bodyFileName": "broken.txt"}"#, global: true, bodyFiles: files))
            #expect(broken.status == 500)
            #expect(broken.body.text.contains("__files/broken.txt"))
        }
    }

    @Test("a templated bodyFileName cannot leave __files, whatever the request's path holds")
    func bodyFileTraversal() throws {
        try TemporaryDirectory.with { directory in
            _ = try directory.write("secret", to: "secret.json")
            _ = try directory.write("ok", to: "__files/orders/7.json")
            let files = BodyFileStore(root: directory.url.appendingPathComponent("__files"))
            let byName = try stub(
                #"{"bodyFileName": "orders/{{request.pathSegments.[1]}}.json"}"#, global: true, bodyFiles: files)
            #expect(served(byName, "/t/7").body.text == "ok")
            let escaped = served(byName, "/t/..%2F..%2Fsecret")
            #expect(escaped.status == 500)
            #expect(!escaped.body.text.contains("secret\""))
            #expect(escaped.body.text.contains("must be a relative path inside __files"))
        }
    }

    @Test("a template error is a stub error at the field, naming the template line and the mustache")
    func loadErrors() throws {
        let error = Fixtures.definitionError(
            #"{"request": {"urlPath": "/a"}, "response": {"transformers": ["response-template"], "body": "ok\n{{nope 1}}"}}"#
        )
        #expect(error?.field == "response.body")
        #expect(error?.message == #"response template: template line 2: unsupported helper "nope" in {{nope 1}}"#)
        let transformer = Fixtures.definitionError(
            #"{"request": {"urlPath": "/a"}, "response": {"transformers": ["my-extension"]}}"#)
        #expect(transformer?.description.contains(#"unsupported transformer "my-extension""#) == true)
    }

    @Test("a stub file's template error is reported with the file and the line of the field")
    func loaderProblem() throws {
        try TemporaryDirectory.with { directory in
            _ = try directory.write(
                "{\n  \"request\": {\"urlPath\": \"/a\"},\n  \"response\": {\n    \"body\": \"{{#each request.query}}\"\n  }\n}",
                to: "mappings/bad.json")
            let result = StubLoader(root: directory.path, globalResponseTemplating: true, strict: true).load()
            #expect(result.problems.count == 1)
            #expect(result.problems.first?.line == 4)
            #expect(result.problems.first?.message.contains("{{#each}} is never closed") == true)
            #expect(StubLoader(root: directory.path).load().problems.isEmpty)
            // Not strict: WireMock compiles a template per request, so the stub loads and answers 500.
            let served = StubLoader(root: directory.path, globalResponseTemplating: true).load()
            #expect(served.problems.isEmpty)
            #expect(served.warnings.first?.line == 4)
            #expect(served.warnings.first?.message.contains("{{#each}} is never closed") == true)
            #expect(served.stubs.count == 1 && served.stubs.first?.response.status == 500)
        }
    }
}
