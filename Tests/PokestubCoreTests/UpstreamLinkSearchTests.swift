import Foundation
import Testing

@testable import PokestubCore

@Suite("Finding an upstream's base URL in a forwarded body")
struct UpstreamLinkSearchTests {
    private let base = "http://127.0.0.1:18081"

    private func found(_ text: String, bases: [String]? = nil) -> Bool {
        LinkRewriter.containsAny(of: bases ?? [base], in: Data(text.utf8))
    }

    @Test("found at the start, in the middle, in the last eight bytes and as the whole body")
    func positions() {
        #expect(found(base + #"/api/v2/", "x": 1}"#))
        #expect(found(#"{"url": ""# + base + #"/api/v2/pokemon/1/"}"#))
        #expect(found("h" + base))  // the last byte of the base is the body's last byte
        #expect(found(base))
        #expect(found(#"{"url": "http:\/\/127.0.0.1:18081\/api\/v2\/"}"#))  // JSON-escaped slashes
    }

    @Test("near misses are not matches: a shorter body, a prefix, another port, https, every h a candidate")
    func nearMisses() {
        #expect(!found(String(base.dropLast())))
        #expect(!found(#"{"url": "http://127.0.0.1:1808"}"#))
        #expect(!found(#"{"url": "http://127.0.0.1:18082/api/"}"#))
        #expect(!found(String(repeating: "https://pokeapi.co/api/v2/height/ ", count: 2_000)))
        #expect(!found(String(repeating: "h", count: 100)))
        #expect(!found(""))
    }

    @Test("bases shorter than the eight-byte comparison, and one base of several")
    func shortAndSeveral() {
        #expect(found("xxhttpyy", bases: ["http"]))
        #expect(!found("xxhttyy", bases: ["http"]))
        #expect(found("ab", bases: ["b"]))
        #expect(found("0123456789h1", bases: ["h1"]))  // past the last eight-byte window: compared by memcmp
        #expect(!found("0123456789h2", bases: ["h1"]))
        #expect(found("abc https://pokeapi.co/x", bases: [base, "https://pokeapi.co"]))
    }

    @Test("bases that start with different bytes are each found, in one body or alone")
    func differentFirstBytes() {
        let bases = ["https://pokeapi.co", "ftp://files.example", "H"]
        #expect(found("see ftp://files.example/x", bases: bases))
        #expect(found(#"{"a": "https:\/\/pokeapi.co\/api"}"#, bases: bases))
        #expect(found("lowercase h, then H", bases: bases))
        #expect(found("no base here, then ftp://files.example.org", bases: ["ftp://files.exampl", "Z"]))
        #expect(!found("http://pokeapi.co ftp://files.exampl", bases: bases))
    }
}
