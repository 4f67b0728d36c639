import Foundation
import Testing

@testable import PokestubCore

@Suite("HTTPRequest target parsing")
struct HTTPRequestTests {
    private func parameters(_ request: HTTPRequest) -> [[String]] {
        request.queryParameters.map { [$0.name, $0.value] }
    }

    @Test("keeps the raw path and query as received and decodes the path once")
    func rawAndDecodedPath() {
        let raw = "/api/v2/pokemon-species/flab%C3%A9b%C3%A9/?name=flab%C3%A9b%C3%A9"
        let request = HTTPRequest(method: "GET", rawURL: raw)
        #expect(request.rawURL == raw)
        #expect(request.rawPath == "/api/v2/pokemon-species/flab%C3%A9b%C3%A9/")
        #expect(request.rawQuery == "name=flab%C3%A9b%C3%A9")
        #expect(request.path == "/api/v2/pokemon-species/flabébé/")
        #expect(parameters(request) == [["name", "flabébé"]])
        #expect(request.decodedURL == "/api/v2/pokemon-species/flabébé/?name=flab%C3%A9b%C3%A9")
    }

    @Test("decodes %252F exactly once, to %2F")
    func decodesOnce() {
        let request = HTTPRequest(method: "GET", rawURL: "/files/a%252Fb/")
        #expect(request.path == "/files/a%2Fb/")
        #expect(request.rawPath == "/files/a%252Fb/")
    }

    @Test("keeps an encoded slash encoded so path segments keep their boundaries")
    func encodedSlashStays() {
        let request = HTTPRequest(method: "GET", rawURL: "/api/v2/pokemon/a%2Fb/")
        #expect(request.path == "/api/v2/pokemon/a%2Fb/")
        #expect(request.path.split(separator: "/") == ["api", "v2", "pokemon", "a%2Fb"])
        // Lower-case hex digits decode to the same path.
        #expect(HTTPRequest(method: "GET", rawURL: "/api/v2/pokemon/a%2fb/").path == "/api/v2/pokemon/a%2Fb/")
    }

    @Test("reads query parameters in order, repeated names included")
    func queryOrder() {
        let request = HTTPRequest(method: "GET", rawURL: "/api/v2/pokemon/?limit=5&offset=20&limit=20")
        #expect(parameters(request) == [["limit", "5"], ["offset", "20"], ["limit", "20"]])
        #expect(request.queryValues("limit") == ["5", "20"])
        #expect(request.queryValues("Limit") == [])
        #expect(request.queryValues("missing") == [])
    }

    @Test("reads + as a space in the query but not in the path")
    func plusAsSpace() {
        let request = HTTPRequest(method: "GET", rawURL: "/mr+mime/?q=mr+mime&plus=a%2Bb&name+with+space=1")
        #expect(request.path == "/mr+mime/")
        #expect(parameters(request) == [["q", "mr mime"], ["plus", "a+b"], ["name with space", "1"]])
    }

    @Test(
        "a parameter without = has an empty value, and = inside a value stays",
        arguments: [
            ("/x?flag", [["flag", ""]]),
            ("/x?a=&b", [["a", ""], ["b", ""]]),
            ("/x?a=1=2", [["a", "1=2"]]),
            ("/x?&&a=1&", [["a", "1"]]),
            ("/x?", []),
        ])
    func parameterShapes(rawURL: String, expected: [[String]]) {
        #expect(parameters(HTTPRequest(method: "GET", rawURL: rawURL)) == expected)
    }

    @Test(
        "keeps malformed escapes literally and never crashes",
        arguments: [
            ("/%G1/", "/%G1/"),
            ("/abc%", "/abc%"),
            ("/abc%4", "/abc%4"),
            ("/%%41", "/%A"),
            ("/%", "/%"),
            ("/caf%C3", "/caf\u{FFFD}"),
        ])
    func malformedPathEscapes(rawURL: String, path: String) {
        #expect(HTTPRequest(method: "GET", rawURL: rawURL).path == path)
    }

    @Test("keeps malformed escapes in the query literally")
    func malformedQueryEscapes() {
        let request = HTTPRequest(method: "GET", rawURL: "/x?a=%G1&b=%&c=%4&d%=1")
        #expect(parameters(request) == [["a", "%G1"], ["b", "%"], ["c", "%4"], ["d%", "1"]])
    }

    @Test(
        "reduces an absolute-form target to its path and query",
        arguments: [
            ("http://127.0.0.1:8080/api/v2/pokemon/?limit=1", "/api/v2/pokemon/", "limit=1"),
            ("https://pokeapi.co/api/v2/", "/api/v2/", nil),
            ("http://127.0.0.1:8080", "/", nil),
            ("http://127.0.0.1:8080?limit=1", "/", "limit=1"),
        ] as [(String, String, String?)])
    func absoluteForm(rawURL: String, path: String, query: String?) {
        let request = HTTPRequest(method: "GET", rawURL: rawURL)
        #expect(request.path == path)
        #expect(request.rawPath == path)
        #expect(request.rawQuery == query)
        #expect(request.rawURL == rawURL)
    }

    @Test("a URL in the query does not make the target absolute")
    func urlInQuery() {
        let request = HTTPRequest(method: "GET", rawURL: "/redirect?to=http://example.com/x")
        #expect(request.path == "/redirect")
        #expect(request.queryValues("to") == ["http://example.com/x"])
        let queryOnly = HTTPRequest(method: "GET", rawURL: "?to=http://example.com/x")
        #expect(queryOnly.rawPath == "")
        #expect(queryOnly.queryValues("to") == ["http://example.com/x"])
    }

    @Test("drops the fragment from path and query")
    func fragment() {
        let request = HTTPRequest(method: "GET", rawURL: "/api/v2/pokemon/1/?a=1#top")
        #expect(request.path == "/api/v2/pokemon/1/")
        #expect(request.rawQuery == "a=1")
        #expect(parameters(request) == [["a", "1"]])
        let noQuery = HTTPRequest(method: "GET", rawURL: "/x#frag?y=1")
        #expect(noQuery.path == "/x")
        #expect(noQuery.rawQuery == nil)
        #expect(noQuery.queryParameters.isEmpty)
    }

    @Test("headers are looked up by name without regard to case, repeated names kept in order")
    func headers() {
        let request = Fixtures.request(
            "/", headers: [("Set-Cookie", "a=1"), ("Accept", "application/json"), ("set-cookie", "b=2")])
        #expect(request.headers["accept"] == "application/json")
        #expect(request.headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        #expect(request.headers.contains("X-Missing") == false)
    }

    @Test("the body is text only when it is UTF-8")
    func bodyText() {
        #expect(Fixtures.request("POST", "/", body: "pikachu").bodyText == "pikachu")
        let binary = HTTPRequest(method: "POST", rawURL: "/", body: Data([0xFF, 0xFE, 0x00]))
        #expect(binary.bodyText == nil)
    }

    @Test(
        "an origin-form target, read by byte offsets, gives what the general reading gives for its absolute form",
        arguments: [
            "/", "/a", "/api/v2/pokemon/?offset=0&limit=20", "/a?", "/a?&&x=1&", "/a?=v&n", "/a?x=1#frag",
            "/a#frag?x=1", "/a?x=%41+b&y=c+d", "/a?x=1&x=2&%zz=%", "/flab%C3%A9b%C3%A9/?name=flab%C3%A9b%C3%A9",
            "/é?q=é&r=a=b", "/a?b?c=d",
        ])
    func originFormAsTheGeneralReading(target: String) {
        let origin = HTTPRequest(method: "GET", rawURL: target)
        let absolute = HTTPRequest(method: "GET", rawURL: "http://example.com" + target)
        #expect(origin.rawPath == absolute.rawPath)
        #expect(origin.rawQuery == absolute.rawQuery)
        #expect(parameters(origin) == parameters(absolute))
        #expect(origin.path == absolute.path)
        #expect(origin.normalizedPath == absolute.normalizedPath)
    }
}
