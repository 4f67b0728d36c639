import Foundation
import Testing

@testable import PokestubCore

@Suite("RequestPattern: method, URL, query and headers")
struct RequestPatternTests {
    private func matches(_ pattern: String, _ method: String, _ url: String) throws -> Bool {
        try Fixtures.pattern(pattern).matches(Fixtures.request(method, url))
    }

    private func matches(_ pattern: String, _ url: String) throws -> Bool {
        try matches(pattern, "GET", url)
    }

    @Test("method must be equal, exactly; ANY or no method takes every method")
    func method() throws {
        #expect(try matches(#"{"method": "GET"}"#, "GET", "/"))
        #expect(try !matches(#"{"method": "GET"}"#, "POST", "/"))
        #expect(try !matches(#"{"method": "GET"}"#, "get", "/"))
        #expect(try matches(#"{"method": "ANY"}"#, "DELETE", "/"))
        #expect(try matches(#"{}"#, "PATCH", "/anything"))
        #expect(try Fixtures.pattern(#"{"method": "ANY"}"#).method == nil)
    }

    @Test("url compares path and query as a whole")
    func url() throws {
        let pattern = #"{"url": "/api/v2/pokemon/?limit=20"}"#
        #expect(try matches(pattern, "/api/v2/pokemon/?limit=20"))
        #expect(try matches(pattern, "/api/v2/pokemon/?limit=20#fragment"))
        #expect(try !matches(pattern, "/api/v2/pokemon/?limit=20&offset=0"))
        #expect(try !matches(pattern, "/api/v2/pokemon/"))
        #expect(try !matches(#"{"url": "/api/v2/pokemon/"}"#, "/api/v2/pokemon/?limit=20"))
    }

    @Test("urlPath compares the path and takes any query")
    func urlPath() throws {
        let pattern = #"{"urlPath": "/api/v2/pokemon/"}"#
        #expect(try matches(pattern, "/api/v2/pokemon/"))
        #expect(try matches(pattern, "/api/v2/pokemon/?limit=20"))
        #expect(try !matches(pattern, "/api/v2/pokemon"))
        #expect(try !matches(pattern, "/api/v2/pokemon/1/"))
    }

    @Test("urlPattern is a regular expression over the whole path and query")
    func urlPattern() throws {
        let pattern = #"{"urlPattern": "/api/v2/pokemon/\\?limit=[0-9]+"}"#
        #expect(try matches(pattern, "/api/v2/pokemon/?limit=20"))
        #expect(try !matches(pattern, "/api/v2/pokemon/?limit=20&offset=0"))
        #expect(try !matches(pattern, "/x/api/v2/pokemon/?limit=20"))
        #expect(try !matches(#"{"urlPattern": "/api/v2/pokemon/[0-9]+/"}"#, "/api/v2/pokemon/1/?x=1"))
        #expect(try matches(#"{"urlPattern": "/api/v2/pokemon/[0-9]+/"}"#, "/api/v2/pokemon/1/"))
    }

    @Test("urlPathPattern is a regular expression over the whole path, anchored at both ends")
    func urlPathPattern() throws {
        let pattern = #"{"urlPathPattern": "/api/v2/pokemon/[0-9]+/"}"#
        #expect(try matches(pattern, "/api/v2/pokemon/25/"))
        #expect(try matches(pattern, "/api/v2/pokemon/25/?limit=1"))
        #expect(try !matches(pattern, "/prefix/api/v2/pokemon/25/"))
        #expect(try !matches(pattern, "/api/v2/pokemon/25/suffix"))
        #expect(try !matches(pattern, "/api/v2/pokemon/pikachu/"))
        // Alternation is anchored as a whole, not just its first and last branch.
        let alternation = #"{"urlPathPattern": "/a/|/b/"}"#
        #expect(try matches(alternation, "/b/"))
        #expect(try !matches(alternation, "/a/x"))
        #expect(try !matches(alternation, "/x/b/"))
    }

    @Test("urlPathTemplate needs exactly one non-empty segment for each variable")
    func urlPathTemplate() throws {
        let pattern = #"{"urlPathTemplate": "/api/v2/pokemon/{id}/"}"#
        #expect(try matches(pattern, "/api/v2/pokemon/25/"))
        #expect(try matches(pattern, "/api/v2/pokemon/pikachu/?x=1"))
        #expect(try matches(pattern, "/api/v2/pokemon/a%2Fb/"))
        #expect(try !matches(pattern, "/api/v2/pokemon//"))
        #expect(try !matches(pattern, "/api/v2/pokemon/1/2/"))
        #expect(try !matches(pattern, "/api/v2/pokemon/1"))
        #expect(try !matches(pattern, "/api/v2/pokemon/"))
        #expect(try !matches(pattern, "/api/v2/pokemon-species/1/"))
        let template = try PathTemplate("/api/v2/{resource}/{id}/")
        #expect(template.variables(in: "/api/v2/pokemon/25/") == ["resource": "pokemon", "id": "25"])
        #expect(template.variables(in: "/api/v2/pokemon/") == nil)
    }

    @Test("a UTF-8 stub path matches the percent-encoded request, and the other way round")
    func unicodePaths() throws {
        let utf8Stub = #"{"urlPath": "/api/v2/pokemon-species/flabébé/"}"#
        let encodedStub = #"{"urlPath": "/api/v2/pokemon-species/flab%C3%A9b%C3%A9/"}"#
        let encodedRequest = "/api/v2/pokemon-species/flab%C3%A9b%C3%A9/"
        let utf8Request = "/api/v2/pokemon-species/flabébé/"
        #expect(try matches(utf8Stub, encodedRequest))
        #expect(try matches(encodedStub, utf8Request))
        #expect(try matches(encodedStub, encodedRequest))
        #expect(try !matches(utf8Stub, "/api/v2/pokemon-species/flabebe/"))
        #expect(try matches(#"{"urlPathTemplate": "/api/v2/pokemon-species/flabébé/{id}"}"#, encodedRequest + "x"))
        #expect(try matches(#"{"url": "/api/v2/pokemon-species/flabébé/?a=1"}"#, encodedRequest + "?a=1"))
    }

    @Test("query parameters match in any order; names compare exactly")
    func queryOrder() throws {
        let pattern = #"""
            {"urlPath": "/api/v2/pokemon/",
             "queryParameters": {"limit": {"equalTo": "20"}, "offset": {"equalTo": "40"}}}
            """#
        #expect(try matches(pattern, "/api/v2/pokemon/?limit=20&offset=40"))
        #expect(try matches(pattern, "/api/v2/pokemon/?offset=40&limit=20"))
        #expect(try matches(pattern, "/api/v2/pokemon/?offset=40&extra=1&limit=20"))
        #expect(try !matches(pattern, "/api/v2/pokemon/?limit=20"))
        #expect(try !matches(pattern, "/api/v2/pokemon/?Limit=20&offset=40"))
    }

    @Test("a repeated query parameter passes when any of its values passes")
    func repeatedParameter() throws {
        let pattern = #"{"queryParameters": {"limit": {"equalTo": "20"}}}"#
        #expect(try matches(pattern, "/?limit=5&limit=20"))
        #expect(try matches(pattern, "/?limit=20&limit=5"))
        #expect(try !matches(pattern, "/?limit=5&limit=6"))
    }

    @Test("absent passes only without the parameter; present only with it")
    func absent() throws {
        let absent = #"{"queryParameters": {"debug": {"absent": true}}}"#
        #expect(try matches(absent, "/?x=1"))
        #expect(try !matches(absent, "/?debug=1"))
        #expect(try !matches(absent, "/?debug"))
        let present = #"{"queryParameters": {"debug": {"absent": false}}}"#
        #expect(try matches(present, "/?debug"))
        #expect(try !matches(present, "/"))
    }

    @Test("or passes when one pattern does; and when all do")
    func orAnd() throws {
        let or = #"{"queryParameters": {"offset": {"or": [{"absent": true}, {"equalTo": "0"}]}}}"#
        #expect(try matches(or, "/"))
        #expect(try matches(or, "/?offset=0"))
        #expect(try !matches(or, "/?offset=20"))
        let and = #"{"queryParameters": {"limit": {"and": [{"matches": "[0-9]+"}, {"doesNotMatch": "0+"}]}}}"#
        #expect(try matches(and, "/?limit=20"))
        #expect(try !matches(and, "/?limit=00"))
        #expect(try !matches(and, "/?limit=x"))
        #expect(try !matches(and, "/"))
    }

    @Test(
        "string operators on a query value",
        arguments: [
            (#"{"equalTo": "Pikachu", "caseInsensitive": true}"#, "pikachu", true),
            (#"{"equalTo": "Pikachu"}"#, "pikachu", false),
            (#"{"contains": "chu"}"#, "pikachu", true),
            (#"{"contains": "CHU"}"#, "pikachu", false),
            (#"{"doesNotContain": "chu"}"#, "pikachu", false),
            (#"{"doesNotContain": "saur"}"#, "pikachu", true),
            (#"{"matches": "pika"}"#, "pikachu", false),
            (#"{"matches": "pika.*"}"#, "pikachu", true),
            (#"{"doesNotMatch": "pika"}"#, "pikachu", true),
            (#"{"doesNotMatch": "[a-z]+"}"#, "pikachu", false),
            (#"{"anything": "anything"}"#, "pikachu", true),
        ])
    func operators(pattern: String, value: String, expected: Bool) throws {
        #expect(try matches(#"{"queryParameters": {"q": \#(pattern)}}"#, "/?q=\(value)") == expected)
    }

    @Test("header names compare without regard to case")
    func headerNames() throws {
        let pattern = try Fixtures.pattern(#"{"headers": {"accept": {"contains": "json"}}}"#)
        #expect(pattern.matches(Fixtures.request("/", headers: [("ACCEPT", "application/json")])))
        #expect(pattern.matches(Fixtures.request("/", headers: [("Accept", "text/html"), ("accept", "x/json")])))
        #expect(!pattern.matches(Fixtures.request("/", headers: [("Accept", "text/html")])))
        #expect(!pattern.matches(Fixtures.request("/")))
        let absent = try Fixtures.pattern(#"{"headers": {"X-Trace": {"absent": true}}}"#)
        #expect(absent.matches(Fixtures.request("/")))
        #expect(!absent.matches(Fixtures.request("/", headers: [("x-trace", "1")])))
    }

    @Test("evaluate lists each field that differs, in order, with expected and actual values")
    func evaluate() throws {
        let pattern = try Fixtures.pattern(
            #"""
            {"method": "POST", "urlPath": "/api/v2/pokemon/",
             "queryParameters": {"limit": {"equalTo": "20"}, "offset": {"absent": true}},
             "headers": {"Accept": {"equalTo": "application/json"}}}
            """#)
        let request = Fixtures.request("GET", "/api/v2/pokemon-x/?limit=50", headers: [("accept", "application/json")])
        let result = pattern.evaluate(request)
        #expect(!result.isMatch)
        #expect(result.differences.map(\.field) == ["method", "urlPath", "query parameter limit"])
        #expect(result.differences[0].expected == "POST")
        #expect(result.differences[0].actual == "GET")
        #expect(result.differences[1].expected == "/api/v2/pokemon/")
        #expect(result.differences[1].actual == "/api/v2/pokemon-x/")
        #expect(result.differences[2].expected == #"equalTo "20""#)
        #expect(result.differences[2].actual == "50")
        #expect(result.distance > 0 && result.distance < 1)
        #expect(!pattern.matches(request))

        let matching = Fixtures.request("POST", "/api/v2/pokemon/?limit=20", headers: [("Accept", "application/json")])
        #expect(pattern.evaluate(matching).isMatch)
        #expect(pattern.evaluate(matching).distance == 0)
        #expect(pattern.matches(matching))
    }

    @Test("evaluate tests a body that is not UTF-8 as matches does, and shows its size")
    func evaluateBinaryBody() throws {
        let pattern = try Fixtures.pattern(#"{"bodyPatterns": [{"contains": "bytes"}]}"#)
        let request = HTTPRequest(method: "POST", rawURL: "/", body: Data([0x62, 0x79, 0x74, 0x65, 0x73, 0xFF]))
        #expect(!pattern.matches(request))
        let result = pattern.evaluate(request)
        #expect(!result.isMatch)
        #expect(result.differences.first?.actual == "<6 bytes, not UTF-8>")
    }

    @Test("a wrong URL weighs more than a wrong query parameter or method")
    func weights() throws {
        let list = try Fixtures.pattern(
            #"{"urlPath": "/api/v2/pokemon/", "queryParameters": {"limit": {"equalTo": "20"}}}"#)
        let resource = try Fixtures.pattern(#"{"method": "GET", "urlPath": "/api/v2/pokemon/1/"}"#)
        let request = Fixtures.request("/api/v2/pokemon/?limit=21")
        #expect(list.evaluate(request).distance < resource.evaluate(request).distance)
        let post = try Fixtures.pattern(#"{"method": "POST", "urlPath": "/api/v2/pokemon/"}"#)
        let other = try Fixtures.pattern(#"{"method": "GET", "urlPath": "/api/v2/type/"}"#)
        #expect(post.evaluate(request).distance < other.evaluate(request).distance)
    }

    @Test("or is as far as its closest alternative, and is near for a near value")
    func orDistance() throws {
        let pattern = StringValuePattern.or([.absent(true), .equalTo("20", caseInsensitive: false)])
        #expect(pattern.distance("20") == 0)
        #expect(pattern.distance(nil) == 0)
        #expect(pattern.distance("21") == 0.5)
        #expect(StringValuePattern.and([.contains("a"), .contains("b")]).distance("a") > 0)
    }

    @Test("evaluate reports an absent value as nothing")
    func evaluateAbsent() throws {
        let pattern = try Fixtures.pattern(#"{"queryParameters": {"limit": {"equalTo": "20"}}}"#)
        let difference = try #require(pattern.evaluate(Fixtures.request("/")).differences.first)
        #expect(difference.actual == nil)
        #expect(difference.description == #"query parameter limit: expected equalTo "20", got nothing"#)
    }

    @Test(
        "matches and evaluate agree",
        arguments: [
            "/api/v2/pokemon/?limit=20", "/api/v2/pokemon/?limit=21", "/api/v2/pokemon/1/", "/", "/api/v2/pokemon/",
        ])
    func matchesAgreesWithEvaluate(url: String) throws {
        let pattern = try Fixtures.pattern(
            #"{"method": "GET", "urlPath": "/api/v2/pokemon/", "queryParameters": {"limit": {"equalTo": "20"}}}"#)
        let request = Fixtures.request(url)
        #expect(pattern.matches(request) == pattern.evaluate(request).isMatch)
    }

    @Test("a url or urlPath written as an absolute URL is compared literally, as by WireMock: it matches no path")
    func absoluteURLIsLiteral() throws {
        #expect(try !matches(#"{"url": "http://localhost:8080/my/path"}"#, "/my/path"))
        #expect(try !matches(#"{"urlPath": "http://localhost:8080/my/path"}"#, "/my/path"))
        #expect(try !matches(#"{"url": "http://localhost:8080/my/path"}"#, "http://localhost:8080/my/path"))
        #expect(try matches(#"{"url": "/my/path"}"#, "/my/path"))
        let stub = try Fixtures.stub(#"{"request": {"url": "http://localhost:8080/my/path"}}"#)
        #expect(StubIndex([stub]).match(Fixtures.request("/my/path")) == nil)
    }
}
