import Foundation
import Testing

@testable import PokestubCore

@Suite("StubIndex.bestMatch")
struct StubIndexTests {
    private func winner(_ stubs: [StubMapping], _ url: String, method: String = "GET") -> String? {
        StubIndex(stubs).bestMatch(for: Fixtures.request(method, url))?.name
    }

    private func stub(_ name: String, _ request: String, priority: Int = 5) throws -> StubMapping {
        try Fixtures.stub(#"{"name": "\#(name)", "priority": \#(priority), "request": \#(request)}"#)
    }

    @Test("the lowest priority number wins, wherever the stub was added")
    func priorityWins() throws {
        let high = try Fixtures.getStub(urlPath: "/api/v2/pokemon/1/", name: "high", priority: 1)
        let normal = try Fixtures.getStub(urlPath: "/api/v2/pokemon/1/", name: "normal")
        #expect(winner([high, normal], "/api/v2/pokemon/1/") == "high")
        #expect(winner([normal, high], "/api/v2/pokemon/1/") == "high")
    }

    @Test("among equal priorities the stub added last wins")
    func lastAddedWins() throws {
        let first = try Fixtures.getStub(urlPath: "/api/v2/pokemon/1/", name: "first")
        let second = try Fixtures.getStub(urlPath: "/api/v2/pokemon/1/", name: "second")
        #expect(winner([first, second], "/api/v2/pokemon/1/") == "second")
        #expect(winner([second, first], "/api/v2/pokemon/1/") == "first")
    }

    @Test("priority and order decide across literal, pattern, template and URL-less stubs alike")
    func acrossGroups() throws {
        let literal = try Fixtures.getStub(urlPath: "/api/v2/pokemon/1/", name: "literal")
        let template = try stub("template", #"{"urlPathTemplate": "/api/v2/pokemon/{id}/"}"#)
        let regex = try stub("regex", #"{"urlPathPattern": "/api/v2/pokemon/[0-9]+/"}"#)
        let any = try stub("any", #"{"method": "GET"}"#)
        #expect(winner([literal, template, regex, any], "/api/v2/pokemon/1/") == "any")
        #expect(winner([any, template, regex, literal], "/api/v2/pokemon/1/") == "literal")
        #expect(winner([any, literal, regex, template], "/api/v2/pokemon/1/") == "template")
        #expect(winner([any, literal, template, regex], "/api/v2/pokemon/1/") == "regex")
        let urgentTemplate = try stub("urgent", #"{"urlPathTemplate": "/api/v2/pokemon/{id}/"}"#, priority: 2)
        #expect(winner([urgentTemplate, any, literal, regex], "/api/v2/pokemon/1/") == "urgent")
        let fallback = try stub("fallback", #"{"method": "ANY"}"#, priority: 10)
        #expect(winner([literal, fallback], "/api/v2/pokemon/1/") == "literal")
        #expect(winner([literal, fallback], "/api/v2/other/") == "fallback")
    }

    @Test("a stub whose URL matches but whose other fields do not is passed over")
    func otherFieldsChecked() throws {
        let post = try stub("post", #"{"method": "POST", "urlPath": "/api/v2/pokemon/"}"#)
        let get = try stub("get", #"{"method": "GET", "urlPath": "/api/v2/pokemon/"}"#, priority: 6)
        #expect(winner([get, post], "/api/v2/pokemon/") == "get")
        #expect(winner([get, post], "/api/v2/pokemon/", method: "POST") == "post")
        #expect(winner([post], "/api/v2/pokemon/") == nil)
    }

    @Test(
        "literal, pattern, template and URL-less stubs are all found",
        arguments: [
            (#"{"url": "/api/v2/pokemon/?limit=20"}"#, "/api/v2/pokemon/?limit=20"),
            (#"{"urlPath": "/api/v2/pokemon/25/"}"#, "/api/v2/pokemon/25/?x=1"),
            (#"{"urlPattern": "/api/v2/pokemon/\\?limit=[0-9]+"}"#, "/api/v2/pokemon/?limit=5"),
            (#"{"urlPattern": "/api/v2/pokemon/\\?next=/api/v2/.*"}"#, "/api/v2/pokemon/?next=/api/v2/x"),
            (#"{"urlPathPattern": "/api/v2/pokemon/[0-9]+/"}"#, "/api/v2/pokemon/25/"),
            (#"{"urlPathPattern": "/api/v2/pokemon\\/?"}"#, "/api/v2/pokemon"),
            (#"{"urlPathPattern": "^/api/v2/(pokemon|type)/.*"}"#, "/api/v2/type/1/"),
            (#"{"urlPathPattern": ".*/encounters"}"#, "/api/v2/pokemon/1/encounters"),
            (#"{"urlPathTemplate": "/api/v2/pokemon/{id}/encounters"}"#, "/api/v2/pokemon/1/encounters"),
            (#"{"urlPathTemplate": "/{resource}/"}"#, "/pokemon/"),
            (
                #"{"urlPathTemplate": "/api/v2/pokemon-species/flab%C3%A9b%C3%A9/{form}/"}"#,
                "/api/v2/pokemon-species/flab%C3%A9b%C3%A9/blue/"
            ),
            (#"{"urlPath": "/api/v2/pokemon-species/flab%C3%A9b%C3%A9/"}"#, "/api/v2/pokemon-species/flabébé/"),
            (#"{"urlPath": "/api/v2/pokemon-species/flabébé/"}"#, "/api/v2/pokemon-species/flab%C3%A9b%C3%A9/"),
            (#"{"method": "DELETE"}"#, "/anything/at/all"),
        ])
    func found(request: String, url: String) throws {
        let method = request.contains("DELETE") ? "DELETE" : "GET"
        let target = try stub("target", request)
        let decoy = try Fixtures.getStub(urlPath: "/api/v2/decoy/", name: "decoy")
        #expect(try Fixtures.pattern(request).matches(Fixtures.request(method, url)), "the pattern itself must match")
        #expect(winner([target, decoy], url, method: method) == "target")
        #expect(winner([decoy, target], url, method: method) == "target")
    }

    @Test("an index of 10,000 generated stubs picks the right stub for sample requests")
    func tenThousandStubs() throws {
        var stubs: [StubMapping] = []
        stubs.append(try stub("catch-all", #"{"method": "ANY"}"#, priority: 9))
        for number in 1..<9_999 {
            let priority = number % 7 == 0 ? 3 : 5
            let request =
                switch number % 3 {
                case 0: #"{"method": "GET", "urlPath": "/api/v2/literal/\#(number)/"}"#
                case 1: #"{"method": "GET", "urlPathTemplate": "/api/v2/template-\#(number)/{id}/"}"#
                default: #"{"method": "GET", "urlPathPattern": "/api/v2/regex-\#(number)/[0-9]+/"}"#
                }
            stubs.append(try stub("stub-\(number)", request, priority: priority))
        }
        // Added last at the default priority: beats every literal stub of priority 5, none of priority 3.
        stubs.append(try stub("literal-shadow", #"{"method": "GET", "urlPathTemplate": "/api/v2/literal/{id}/"}"#))
        #expect(stubs.count == 10_000)
        let index = StubIndex(stubs)
        #expect(index.count == 10_000)

        for number in stride(from: 1, to: 9_999, by: 37) {
            let url =
                switch number % 3 {
                case 0: "/api/v2/literal/\(number)/"
                case 1: "/api/v2/template-\(number)/pikachu/"
                default: "/api/v2/regex-\(number)/42/?limit=1"
                }
            let expected = number % 3 == 0 && number % 7 != 0 ? "literal-shadow" : "stub-\(number)"
            #expect(index.bestMatch(for: Fixtures.request(url))?.name == expected, "for \(url)")
        }
        #expect(index.bestMatch(for: Fixtures.request("/api/v2/regex-5/pikachu/"))?.name == "catch-all")
        #expect(index.bestMatch(for: Fixtures.request("/api/v2/template-4/1/extra/"))?.name == "catch-all")
        #expect(index.bestMatch(for: Fixtures.request("/api/v2/literal/99999/"))?.name == "literal-shadow")
        #expect(index.bestMatch(for: Fixtures.request("POST", "/api/v2/literal/7/"))?.name == "catch-all")
        let some = stubs[4_321]
        #expect(index.stub(id: some.id)?.name == some.name)
        #expect(index.stub(id: UUID()) == nil)
    }

    @Test("many stubs at one path told apart by a query value are found by it, without losing rank order")
    func queryValueGroups() throws {
        let limit = #""limit": {"or": [{"absent": true}, {"equalTo": "20"}]}"#
        var stubs = try stride(from: 0, through: 200, by: 20).map { offset in
            let pattern = offset == 0 ? #"{"or": [{"absent": true}, {"equalTo": "0"}]}"# : #"{"equalTo": "\#(offset)"}"#
            return try stub(
                "page-\(offset)",
                #"{"urlPath": "/api/v2/pokemon/", "queryParameters": {"offset": \#(pattern), \#(limit)}}"#)
        }
        stubs.append(
            try stub("all", #"{"urlPath": "/api/v2/pokemon/", "queryParameters": {"limit": {"equalTo": "100000"}}}"#))
        #expect(winner(stubs, "/api/v2/pokemon/") == "page-0")
        #expect(winner(stubs, "/api/v2/pokemon/?offset=0") == "page-0")
        #expect(winner(stubs, "/api/v2/pokemon/?limit=20&offset=40") == "page-40")
        #expect(winner(stubs, "/api/v2/pokemon/?offset=200") == "page-200")
        #expect(winner(stubs, "/api/v2/pokemon/?offset=40&limit=21") == nil)
        #expect(winner(stubs, "/api/v2/pokemon/?offset=7") == nil)
        #expect(winner(stubs, "/api/v2/pokemon/?offset=7&offset=60") == "page-60")
        #expect(winner(stubs, "/api/v2/pokemon/?limit=100000&offset=20") == "all")
        let late = try stub(
            "late-40", #"{"urlPath": "/api/v2/pokemon/", "queryParameters": {"offset": {"equalTo": "40"}}}"#)
        #expect(winner(stubs + [late], "/api/v2/pokemon/?offset=40") == "late-40")
        #expect(winner([late] + stubs, "/api/v2/pokemon/?offset=40") == "page-40")
        let urgent = try stub(
            "urgent", #"{"urlPath": "/api/v2/pokemon/", "queryParameters": {"offset": {"matches": "[0-9]+"}}}"#,
            priority: 1)
        #expect(winner([urgent] + stubs, "/api/v2/pokemon/?offset=40") == "urgent")
        #expect(winner([urgent] + stubs, "/api/v2/pokemon/") == "page-0")
        let absentOnly = try stub(
            "no-offset", #"{"urlPath": "/api/v2/pokemon/", "queryParameters": {"offset": {"absent": true}}}"#)
        #expect(winner(stubs + [absentOnly], "/api/v2/pokemon/") == "no-offset")
        #expect(winner(stubs + [absentOnly], "/api/v2/pokemon/?offset=0") == "page-0")
        let index = StubIndex(stubs)
        let match = try #require(index.match(Fixtures.request("/api/v2/pokemon/?offset=20")))
        #expect(match.stub.name == "page-20")
        #expect(match.response.headers["Matched-Stub-Id"] == stubs[1].id.uuidString.lowercased())
        #expect(match.position == 1)
    }

    @Test("an empty index matches nothing")
    func empty() {
        #expect(StubIndex.empty.bestMatch(for: Fixtures.request("/")) == nil)
        #expect(StubIndex.empty.count == 0)
    }

    @Test(
        "a path's folder is cut at its last /, a / that begins a character with a combining mark not counting",
        arguments: [
            ("/", "/"), ("/a/b/c", "/a/b/"), ("/a/b/c/", "/a/b/"), ("abc", ""), ("", ""), ("/api/v2/", "/api/"),
            ("/caf\u{E9}/x", "/caf\u{E9}/"), ("/a/\u{301}b", "/"), ("/a/\u{301}b/", "/"),
        ])
    func folderOfPath(path: String, folder: String) {
        #expect(StubIndex.folder(of: path) == folder)
    }
}
