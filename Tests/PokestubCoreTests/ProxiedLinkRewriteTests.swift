import Foundation
import PokestubTestSupport
import Testing

@testable import PokestubCore

@Suite("A proxied body's upstream links pointed at pokestub, in one pass")
struct ProxiedLinkRewriteTests {
    private let base = "http://127.0.0.1:18081"
    /// Longer than the base, so every replacement moves the bytes after it.
    private let target = "http://127.0.0.1:9/prefix"

    private func rewritten(_ text: String, bases: [String]? = nil) -> String? {
        LinkRewriter.rewrite(Data(text.utf8), bases: bases ?? [base], to: target).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// The bytes that may follow a base URL for it to be a link (LinkRewriter's rule, written out here).
    private static let boundaries = Set(#"/"?#'\ <>),]}"#.utf8).union([0x0A, 0x0D, 0x09])

    /// The rewrite rule applied byte by byte, the slow and obvious way: at each offset the first pattern (each
    /// base, then its JSON-escaped form) that occurs there followed by a boundary or the end is replaced;
    /// `nil` when none occurs anywhere.
    private static func reference(_ bytes: [UInt8], bases: [String], target: String) -> [UInt8]? {
        var patterns: [(needle: [UInt8], replacement: [UInt8])] = []
        for base in bases {
            patterns.append((Array(base.utf8), Array(target.utf8)))
            let escaped = Array(base.replacingOccurrences(of: "/", with: "\\/").utf8)
            if escaped != Array(base.utf8) {
                patterns.append((escaped, Array(target.replacingOccurrences(of: "/", with: "\\/").utf8)))
            }
        }
        var output: [UInt8] = []
        var replacedAny = false
        var index = 0
        while index < bytes.count {
            let match = patterns.first { pattern in
                let end = index + pattern.needle.count
                return end <= bytes.count && Array(bytes[index..<end]) == pattern.needle
                    && (end == bytes.count || boundaries.contains(bytes[end]))
            }
            if let match {
                output += match.replacement
                index += match.needle.count
                replacedAny = true
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return replacedAny ? output : nil
    }

    @Test("a body without a link is not rewritten: nil, and a proxied answer keeps the upstream's own bytes")
    func noLinkNoRewrite() throws {
        for text in [
            "", "h", "hhhhhhhh", String(base.dropLast()), #"{"url": "http://127.0.0.1:1808"}"#,
            #"{"url": "http://127.0.0.1:18082/api/"}"#, base + "1", base + ".evil/x", "x" + base + "x",
            #"{"url": "http:\/\/127.0.0.1:1808\/"}"#,
            String(repeating: "https://pokeapi.co/api/v2/height/ ", count: 500),
        ] {
            #expect(rewritten(text) == nil, "\(text.prefix(60))")
        }
        // Through the engine: a large answer whose bytes hold no link is served from the upstream's buffer.
        let engine = StubEngine(
            store: StubStore(root: nil), journalCapacity: 0, rewriteUpstreamLinks: true, baseURL: target)
        let body = Data(String(repeating: #"{"name": "height", "url": "/api/v2/stat/1/"}, "#, count: 200).utf8)
        let upstream = UpstreamResponse(
            status: 200, headers: HTTPHeaders([(name: "Content-Type", value: "application/json")]), body: body)
        let served = engine.proxiedResponse(upstream, to: HTTPRequest(method: "GET", rawURL: "/api/v2/stat/"))
        let servedAddress = served.body.data.withUnsafeBytes { $0.baseAddress }
        let upstreamAddress = body.withUnsafeBytes { $0.baseAddress }
        #expect(served.body.count == body.count)
        #expect(servedAddress == upstreamAddress, "the body was copied though it holds no link")
    }

    @Test("links at the start, at the end, in the body's last eight bytes and across that window, escaped too")
    func linksAtTheEdges() {
        #expect(rewritten(base) == target)
        #expect(rewritten(base + #"/api/v2/", "x": 1}"#) == target + #"/api/v2/", "x": 1}"#)
        #expect(
            rewritten(#"{"url": ""# + base + #"/api/v2/pokemon/1/"}"#) == #"{"url": ""# + target
                + #"/api/v2/pokemon/1/"}"#)
        #expect(rewritten("h" + base) == "h" + target)
        #expect(rewritten("end: " + base) == "end: " + target)
        // Each cut of a body so that the last link starts 1 to 9 bytes before its end, or runs over it.
        let body = #"[""# + base + #"/a/", ""# + base + #"/b"]"#
        for cut in 0...body.utf8.count {
            let prefix = String(decoding: Array(body.utf8).prefix(cut), as: UTF8.self)
            let expected = ProxiedLinkRewriteTests.reference(Array(prefix.utf8), bases: [base], target: target)
            #expect(rewritten(prefix) == expected.map { String(decoding: $0, as: UTF8.self) }, "cut at \(cut)")
        }
        #expect(
            rewritten(#"{"a": "http:\/\/127.0.0.1:18081\/api\/v2\/"}"#)
                == #"{"a": "http:\/\/127.0.0.1:9\/prefix\/api\/v2\/"}"#)
        #expect(rewritten(#"http:\/\/127.0.0.1:18081"#) == #"http:\/\/127.0.0.1:9\/prefix"#)
    }

    @Test("bases shorter than eight bytes, bases with different first bytes, and one base of several")
    func shortAndSeveralBases() {
        #expect(rewritten("xx http yy", bases: ["http"]) == "xx " + target + " yy")
        #expect(rewritten("xxhttpyy", bases: ["http"]) == nil)
        #expect(rewritten("0123456789 h1", bases: ["h1"]) == "0123456789 " + target)
        #expect(rewritten("0123456789 h2", bases: ["h1"]) == nil)
        let bases = ["https://pokeapi.co", "ftp://files.example", "H"]
        #expect(rewritten("see ftp://files.example/x", bases: bases) == "see " + target + "/x")
        #expect(rewritten("lowercase h, then H", bases: bases) == "lowercase h, then " + target)
        #expect(rewritten("http://pokeapi.co ftp://files.exampl", bases: bases) == nil)
        #expect(
            rewritten("abc https://pokeapi.co/x " + base, bases: [base, "https://pokeapi.co"])
                == "abc \(target)/x \(target)")
    }

    @Test("the shipped pokemon/1 body (2,340 links) comes out as the byte-by-byte rule makes it")
    func largeBodyAgreesWithTheRule() throws {
        let body = try Data(contentsOf: URL(fileURLWithPath: Repository.stubs + "/__files/pokemon/1.json"))
        let bases = ["https://pokeapi.co", base]
        let expected = ProxiedLinkRewriteTests.reference(Array(body), bases: bases, target: target).map { Data($0) }
        let actual = LinkRewriter.rewrite(body, bases: bases, to: target)
        #expect(expected != nil, "the body holds no link")
        #expect(actual == expected, "\(actual?.count ?? 0) bytes, the rule makes \(expected?.count ?? 0)")
    }

    /// A small deterministic generator (SplitMix64), so a failing body can be made again from its seed.
    private struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// A random body for ``randomBodiesAgreeWithTheRule()``: filler with many `h`s and boundary bytes, and
    /// bases inserted whole, escaped, cut short, followed by a host-continuing byte (`.evil`), or at the very
    /// start and end.
    private static func randomBody(bases: [String], using random: inout SplitMix) -> [UInt8] {
        let filler = Array(#"hhtttpps:/\"?#,.x9 {}[]"#.utf8)
        var body: [UInt8] = []
        let pieces = Int.random(in: 0...12, using: &random)
        for _ in 0..<pieces {
            for _ in 0..<Int.random(in: 0...20, using: &random) { body.append(filler.randomElement(using: &random)!) }
            let base = Array(bases.randomElement(using: &random)!.utf8)
            let escaped = base.flatMap { $0 == UInt8(ascii: "/") ? [UInt8(ascii: "\\"), $0] : [$0] }
            switch Int.random(in: 0..<5, using: &random) {
            case 0: body += base
            case 1: body += escaped
            case 2: body += base.prefix(Int.random(in: 0...base.count, using: &random))
            case 3: body += base + Array(".evil".utf8)
            default: body += escaped + Array("/x".utf8)
            }
        }
        return body
    }

    @Test("random bodies, bases and targets come out as the byte-by-byte rule makes them")
    func randomBodiesAgreeWithTheRule() {
        let hosts = [
            "https://pokeapi.co", "http://127.0.0.1:9000", "http://h", "https://pokeapi.co.evil", "hx", "ftp://f",
        ]
        var random = SplitMix(state: 28)
        for round in 0..<3000 {
            let bases = Array(hosts.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)))
            let target = ["http://127.0.0.1:8080", "http://127.0.0.1:9/prefix", "h"].randomElement(using: &random)!
            let body = ProxiedLinkRewriteTests.randomBody(bases: bases, using: &random)
            let kept = bases.filter { $0 != target }
            let expected = ProxiedLinkRewriteTests.reference(body, bases: kept, target: target).map { Data($0) }
            let actual = LinkRewriter.rewrite(Data(body), bases: bases, to: target)
            #expect(
                actual == expected, "round \(round): \(bases) to \(target) in \(String(decoding: body, as: UTF8.self))")
        }
    }

    @Test("bases are compiled once per target: the daemon's come with its serving facts, others are kept")
    func patternsCompiledOnce() {
        let info = ServerInfo(mode: .replay, baseURL: "http://127.0.0.1:2222")
        let rewriter = LinkRewriter(upstreamBases: ["https://pokeapi.co/"], info: info)
        let daemon = rewriter.patterns(serving: info.serving, recordedFrom: nil, target: nil)
        #expect(daemon === info.serving.linkPatterns)
        #expect(daemon.bases == ["https://pokeapi.co"] && daemon.target == "http://127.0.0.1:2222")
        #expect(rewriter.patterns(serving: info.serving, recordedFrom: "https://pokeapi.co/", target: nil) === daemon)
        #expect(rewriter.patterns(serving: info.serving, recordedFrom: "", target: "http://127.0.0.1:2222") === daemon)
        // A stub recorded from an upstream not configured, and a session's own base URL.
        let recorded = rewriter.patterns(serving: info.serving, recordedFrom: "http://10.0.0.1:9/", target: nil)
        #expect(recorded.bases == ["https://pokeapi.co", "http://10.0.0.1:9"])
        #expect(rewriter.patterns(serving: info.serving, recordedFrom: "http://10.0.0.1:9", target: nil) === recorded)
        let session = rewriter.patterns(serving: info.serving, recordedFrom: nil, target: "http://127.0.0.1:3333")
        #expect(session.bases == ["https://pokeapi.co"] && session.target == "http://127.0.0.1:3333")
        #expect(
            rewriter.patterns(serving: info.serving, recordedFrom: nil, target: "http://127.0.0.1:3333") === session)
        rewriter.addUpstreamBase("http://10.0.0.1:9")
        let updated = rewriter.patterns(serving: info.serving, recordedFrom: "http://10.0.0.1:9", target: nil)
        #expect(updated === info.serving.linkPatterns && updated !== daemon)
        #expect(updated.bases == ["https://pokeapi.co", "http://10.0.0.1:9"])
    }

    @Test("a templated answer's links point at the daemon, rendered and rewritten for each request")
    func templatedAnswerRewritten() throws {
        let store = StubStore(root: nil)
        store.add(
            try Fixtures.stub(
                #"""
                {"request": {"method": "GET", "urlPath": "/api/v2/item/"},
                 "response": {"status": 200, "transformers": ["response-template"],
                  "body": "{\"next\": \"https://pokeapi.co/api/v2/item/?offset={{request.query.offset}}\"}"}}
                """#))
        let engine = StubEngine(store: store, journalCapacity: 0, rewriteUpstreamLinks: true, baseURL: target)
        for offset in [20, 40] {
            let request = HTTPRequest(method: "GET", rawURL: "/api/v2/item/?offset=\(offset)")
            guard case .response(let response) = engine.handle(request) else {
                Issue.record("no answer")
                return
            }
            #expect(response.body.text == #"{"next": "\#(target)/api/v2/item/?offset=\#(offset)"}"#)
        }
    }
}
