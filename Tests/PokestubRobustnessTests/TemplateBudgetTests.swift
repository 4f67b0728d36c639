import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A templated stub, posted by one job or chosen by a request's content, cannot stop the daemon or hold it
/// for long: every request's templates share one work budget (`limits.maxTemplateSteps`, and
/// `limits.maxResponseBytes` for any string they make), and past it the answer is a 500 naming the stub and
/// the mustache.
@Suite("The work budget of a request's response templates")
struct TemplateBudgetTests {
    /// A runtime stub answering `path` (any method) with `template` as its templated body.
    static func stub(name: String, path: String, template: String, id: String? = nil) -> String {
        var members: [String: JSONValue] = [
            "name": .string(name), "request": .object(["urlPath": .string(path)]),
            "response": .object(["body": .string(template), "transformers": .array([.string("response-template")])]),
        ]
        if let id { members["id"] = .string(id) }
        return JSONValue.object(members).serializedString()
    }

    /// The `message` of a budget overrun's answer, after checking its status, `error` and `stub`.
    static func overrun(_ response: RawResponse, stub id: String? = nil) throws -> String {
        #expect(response.status == 500, "\(response.text.prefix(300))")
        let answer = try #require(response.json, "\(response.text.prefix(300))")
        #expect(answer["error"] == .string("response template passed its work budget"))
        if let id { #expect(answer["stub"] == .string(id)) }
        return answer["message"]?.stringValue ?? ""
    }

    @Test("randomValue with a length of 3,000,000,000, from the stub or from the query: 500, and the daemon serves on")
    func hugeRandomValue() async throws {
        let root = try TemporaryDirectory.stubRoot(mappings: [
            "huge.json": Self.stub(name: "huge", path: "/huge", template: "{{randomValue length=3000000000}}"),
            "asked.json": Self.stub(
                name: "asked", path: "/asked", template: "{{randomValue length=request.query.n}}"),
        ])
        // A child daemon: before the budget this request stopped the process it was served in.
        let daemon = try PokestubProcess(["serve", "--port", "0", "--stubs", root.path, "--watch-stubs", "false"])
        defer { daemon.signal(SIGKILL) }
        let base = try await daemon.waitUntilListening()

        let huge = try await HTTPFetch.send(base + "/huge")
        #expect(huge.status == 500)
        let message = try #require(try JSONValue.parse(huge.body)["message"]?.stringValue)
        #expect(message.hasPrefix("template of stub \"huge\" ("), "\(message)")
        #expect(message.contains("passed its work budget at {{randomValue length=3000000000}} (template line 1)"))
        #expect(message.hasSuffix("output larger than limits.maxResponseBytes (67108864 bytes)"))
        for n in ["3000000000", "99999999999999999999"] {
            let asked = try await HTTPFetch.send(base + "/asked?n=" + n)
            #expect(asked.status == 500, "n=\(n)")
            #expect(asked.text.contains("{{randomValue length=request.query.n}}"), "n=\(n)")
        }
        let small = try await HTTPFetch.send(base + "/asked?n=64")
        #expect(small.status == 200 && small.body.count == 64)
        #expect(try await HTTPFetch.send(base + "/__admin/health").status == 200)
        #expect(await daemon.exitStatus(within: .zero) == nil)
    }

    @Test("replace with the body as the replacement, on a 100 KB body (10 GB squared): 500 at once")
    func replaceSquared() async throws {
        try await HostileServer.with { server in
            let id = UUID().uuidString.lowercased()
            let mapping = Self.stub(
                name: "squared", path: "/squared", template: "{{replace request.body 'a' request.body}}", id: id)
            #expect(try await server.admin("POST", "/mappings", mapping).status == 201)
            let start = ContinuousClock.now
            let response = try await server.send(
                "POST", "/squared", body: Array(repeating: UInt8(ascii: "a"), count: 100_000))
            #expect(ContinuousClock.now - start < .seconds(10))
            let message = try Self.overrun(response, stub: id)
            #expect(message.contains("template of stub \"squared\" (\(id))"), "\(message)")
            #expect(message.contains("at {{replace request.body 'a' request.body}}"))
            #expect(message.contains("limits.maxResponseBytes (67108864 bytes)"))
            // An ordinary replace on the same stub is answered.
            let plain = try await server.send("POST", "/squared", body: Array("xay".utf8))
            #expect(plain.status == 200 && plain.text == "xxayy")
            #expect(try await server.admin("GET", "/health").status == 200)
        }
    }

    @Test("#each over a 10,000-element request array inside another: 500 at the inner #each, at once")
    func nestedEach() async throws {
        try await HostileServer.with { server in
            let template =
                "{{#each (jsonPath request.body '$.a')}}{{#each (jsonPath request.body '$.a')}}x{{/each}}"
                + "{{/each}}"
            _ = try await server.admin("POST", "/mappings", Self.stub(name: "nested", path: "/n", template: template))
            let numbers: String = (0..<10_000).map(String.init).joined(separator: ",")
            let array = "{\"a\":[\(numbers)]}"
            let start = ContinuousClock.now
            let response = try await server.send("POST", "/n", body: Array(array.utf8))
            #expect(ContinuousClock.now - start < .seconds(10))
            let message = try Self.overrun(response)
            #expect(message.contains("at {{#each (jsonPath request.body '$.a')}} (template line 1)"), "\(message)")
            #expect(message.hasSuffix("more than 500000 steps (limits.maxTemplateSteps)"))
            // The same template over a small array is answered in full.
            let small = try await server.send("POST", "/n", body: Array("{\"a\":[1,2,3]}".utf8))
            #expect(small.status == 200 && small.text == "xxxxxxxxx")
        }
    }

    @Test("#each repeating the request body 2,000 times (100 MB): 500 past limits.maxResponseBytes")
    func eachBody() async throws {
        try await HostileServer.with { server in
            let template = "{{#each (jsonPath request.body '$.a')}}{{{request.body}}}{{/each}}"
            _ = try await server.admin("POST", "/mappings", Self.stub(name: "echo", path: "/e", template: template))
            // In parts: as one expression, Swift 6.2 cannot type-check it in reasonable time.
            let numbers: String = (0..<2_000).map(String.init).joined(separator: ",")
            let pad = String(repeating: "p", count: 40_000)
            let array = "{\"a\":[\(numbers)],\"pad\":\"\(pad)\"}"
            let response = try await server.send("POST", "/e", body: Array(array.utf8))
            let message = try Self.overrun(response)
            #expect(message.contains("at {{#each (jsonPath request.body '$.a')}}"), "\(message)")
            #expect(message.hasSuffix("output larger than limits.maxResponseBytes (67108864 bytes)"))
            let small = try await server.send("POST", "/e", body: Array("{\"a\":[1,2]}".utf8))
            #expect(small.text == "{\"a\":[1,2]}{\"a\":[1,2]}")
        }
    }

    @Test("regexExtract into a variable, 1,000 groups each holding a 100 KB body (100 MB): 500, before copying")
    func regexExtractGroups() async throws {
        try await HostileServer.with { server in
            // Each lookahead's group captures the body after its first character: a copy each.
            let groups = "(?=.(.*))" + String(repeating: "(?=.(\\1))", count: 999)
            let template = "{{regexExtract request.body '\(groups)' 'g'}}{{size g}}"
            _ = try await server.admin("POST", "/mappings", Self.stub(name: "groups", path: "/g", template: template))
            let response = try await server.send(
                "POST", "/g", body: Array(repeating: UInt8(ascii: "a"), count: 100_000))
            let message = try Self.overrun(response)
            #expect(message.contains("at {{regexExtract request.body '(?=.(.*))"), "\(message.prefix(300))")
            #expect(message.hasSuffix("output larger than limits.maxResponseBytes (67108864 bytes)"))
            // The same template on a short body is answered: 1,000 groups of "bc".
            let small = try await server.send("POST", "/g", body: Array("abc".utf8))
            #expect(small.status == 200 && small.text == "1000", "\(small.text.prefix(300))")
        }
    }

    @Test("a helper call with 5,000 parameters in a loop over 2,000 items: 500 past the steps, at once")
    func manyParameters() async throws {
        try await HostileServer.with { server in
            let call = "{{eq " + String(repeating: "x ", count: 5_000) + "}}"
            let template = "{{#each (jsonPath request.body '$.a')}}" + call + "{{/each}}"
            _ = try await server.admin("POST", "/mappings", Self.stub(name: "wide", path: "/w", template: template))
            let numbers: String = (0..<2_000).map(String.init).joined(separator: ",")
            let response = try await server.send("POST", "/w", body: Array("{\"a\":[\(numbers)]}".utf8))
            let message = try Self.overrun(response)
            #expect(message.hasSuffix("more than 500000 steps (limits.maxTemplateSteps)"), "\(message.prefix(300))")
            // The same template over two items is answered.
            let small = try await server.send("POST", "/w", body: Array("{\"a\":[1,2]}".utf8))
            #expect(small.status == 200 && small.text == "truetrue", "\(small.text.prefix(300))")
        }
    }

    @Test("a templated bodyFileName of 4 MB (the request body): 500 naming its size, without quoting it all")
    func hugeBodyFileName() async throws {
        let root = try TemporaryDirectory.stubRoot(files: ["a.json": "{}"])
        try await HostileServer.with(stubRoot: root.path) { server in
            let mapping =
                #"{"request":{"urlPath":"/f"},"response":{"bodyFileName":"{{request.body}}","#
                + #""transformers":["response-template"]}}"#
            #expect(try await server.admin("POST", "/mappings", mapping).status == 201)
            let response = try await server.send(
                "POST", "/f", body: Array(repeating: UInt8(ascii: "a"), count: 4_000_000))
            #expect(response.status == 500)
            #expect(response.body.count < 10_000, "an answer of \(response.body.count) bytes")
            #expect(response.text.contains("is longer than 4096 (PATH_MAX)"), "\(response.text.prefix(300))")
            let small = try await server.send("POST", "/f", body: Array("a.json".utf8))
            #expect(small.status == 200 && small.text == "{}", "\(small.text.prefix(300))")
        }
    }

    @Test("the shipped list page renders all 1,351 pokemon within the budget")
    func shippedListPage() async throws {
        try await HostileServer.with(stubRoot: Repository.stubs) { server in
            let page = try await server.send("GET", "/api/v2/pokemon/?offset=0&limit=2000")
            #expect(page.status == 200, "\(page.text.prefix(300))")
            let answer = try #require(page.json)
            #expect(answer["count"] == .integer(1351))
            #expect(answer["next"] == .null)
            guard case .array(let results)? = answer["results"] else {
                Issue.record("no results in \(page.text.prefix(300))")
                return
            }
            #expect(results.count == 1351)
            #expect(results.first?["name"] == .string("bulbasaur"))
            #expect(results.last?["name"] == .string("meowstic-female-mega"))
        }
    }
}
