import Foundation
import PokestubCore
import Testing

@Suite("Pointing upstream links at pokestub")
struct LinkRewriterTests {
    private func rewriter(base: String = "http://127.0.0.1:8080") -> LinkRewriter {
        LinkRewriter(
            upstreamBases: ["https://pokeapi.co"], info: ServerInfo(mode: .replay, baseURL: base))
    }

    @Test("links to the upstream point at the daemon; look-alike hosts and other hosts are left alone")
    func rewritesLinks() throws {
        let body =
            #"{"next":"https://pokeapi.co/api/v2/pokemon/?offset=20&limit=20","a":"https://pokeapi.co","b":"https://pokeapi.co.evil/x","c":"https://raw.githubusercontent.com/PokeAPI/sprites/1.png","d":"https:\/\/pokeapi.co\/api\/v2\/"}"#
        let response = HTTPResponse(
            status: 200, headers: HTTPHeaders([(name: "Content-Type", value: "application/json")]),
            body: ResponseBody(body))
        let text = rewriter().rewrite(response).body.text
        #expect(text.contains(#""next":"http://127.0.0.1:8080/api/v2/pokemon/?offset=20&limit=20""#))
        #expect(text.contains(#""a":"http://127.0.0.1:8080""#))
        #expect(text.contains("https://pokeapi.co.evil/x"))
        #expect(text.contains("https://raw.githubusercontent.com/PokeAPI/sprites/1.png"))
        #expect(text.contains(#""d":"http:\/\/127.0.0.1:8080\/api\/v2\/""#))
        #expect(
            try JSONValue.parse(Data(text.utf8))["next"]
                == .string("http://127.0.0.1:8080/api/v2/pokemon/?offset=20&limit=20"))
    }

    @Test("links at the start and the very end, every boundary byte, and bodies that grow past an eighth")
    func rewritesAtTheEdges() {
        let bases = ["http://a", "https://pokeapi.co"]
        let target = "http://127.0.0.1:8080/a/long/prefix"
        func rewritten(_ text: String) -> String? {
            LinkRewriter.rewrite(Data(text.utf8), bases: bases, to: target).map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(rewritten("https://pokeapi.co") == target)
        #expect(rewritten("x https://pokeapi.co") == "x " + target)
        #expect(rewritten("https://pokeapi.co/x") == target + "/x")
        for boundary in ["/", "\"", "?", "#", "'", "\\", " ", "<", ">", ")", ",", "\n", "\r", "\t", "]", "}"] {
            #expect(rewritten("(https://pokeapi.co" + boundary) == "(" + target + boundary, "boundary \(boundary)")
        }
        #expect(rewritten("https://pokeapi.co.evil https://pokeapi.cox http://ab hhh") == nil)
        // 2,000 eight-byte links each become 35 bytes: the output outgrows the eighth reserved beyond the input.
        let many = String(repeating: "http://a/", count: 2_000)
        #expect(rewritten(many) == String(repeating: target + "/", count: 2_000))
        #expect(rewritten("") == nil)
    }

    @Test("a body without links is served as the same object, and a rewritten one is prepared once")
    func cached() {
        let rewriter = rewriter()
        let plain = HTTPResponse(status: 200, body: ResponseBody(#"{"name": "bulbasaur", "url": "/api/v2/x/"}"#))
        #expect(rewriter.rewrite(plain).body === plain.body)
        #expect(rewriter.rewrite(plain).body === plain.body)
        let linked = HTTPResponse(status: 200, body: ResponseBody(#"{"url": "https://pokeapi.co/api/v2/x/"}"#))
        let first = rewriter.rewrite(linked).body
        let second = rewriter.rewrite(linked).body
        #expect(first !== linked.body)
        #expect(first === second)
    }

    @Test("a rewritten body lives exactly as long as the stub body it was made from")
    func rewrittenBodyLifetime() {
        let rewriter = rewriter()
        weak var rewritten: ResponseBody?
        do {
            // The stub set a reload replaces: its body, rewritten once, then the set is gone.
            let linked = HTTPResponse(status: 200, body: ResponseBody(#"{"url": "https://pokeapi.co/api/v2/x/"}"#))
            let served = rewriter.rewrite(linked).body
            rewritten = served
            #expect(served !== linked.body)
            #expect(rewritten != nil)
        }
        // Kept in a cache of the rewriter's own, it outlived its stub until the cache was next pruned.
        #expect(rewritten == nil)
    }

    @Test("a new upstream base is picked up")
    func followsChanges() {
        let info = ServerInfo(mode: .replay, baseURL: "http://127.0.0.1:2222")
        let rewriter = LinkRewriter(upstreamBases: ["https://pokeapi.co/"], info: info)
        let linked = HTTPResponse(status: 200, body: ResponseBody(#"["https://pokeapi.co/a", "http://10.0.0.1:9/b"]"#))
        #expect(rewriter.rewrite(linked).body.text == #"["http://127.0.0.1:2222/a", "http://10.0.0.1:9/b"]"#)
        rewriter.addUpstreamBase("http://10.0.0.1:9")
        #expect(rewriter.rewrite(linked).body.text == #"["http://127.0.0.1:2222/a", "http://127.0.0.1:2222/b"]"#)
    }

    @Test("binary bodies are never touched; redirects get their Location rewritten")
    func binaryAndLocation() {
        let bytes = Data("\u{89}PNGhttps://pokeapi.co/x".utf8)
        let image = HTTPResponse(
            status: 200, headers: HTTPHeaders([(name: "Content-Type", value: "image/png")]), body: ResponseBody(bytes))
        #expect(rewriter().rewrite(image).body.data == bytes)
        let redirect = HTTPResponse(
            status: 301, headers: HTTPHeaders([(name: "Location", value: "https://pokeapi.co/api/v2/pokemon/1/")]))
        #expect(rewriter().rewrite(redirect).headers["Location"] == "http://127.0.0.1:8080/api/v2/pokemon/1/")
    }
}
