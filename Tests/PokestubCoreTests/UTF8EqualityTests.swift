import Foundation
import Testing

@testable import PokestubCore

@Suite("Byte equality of paths, names and values, as WireMock's String.equals")
struct UTF8EqualityTests {
    @Test("equal bytes are equal; canonically equivalent but different bytes are not")
    func bytesNotCanonicalEquivalence() {
        let precomposed = "/api/v2/pok\u{E9}mon/"
        let decomposed = "/api/v2/poke\u{301}mon/"
        #expect(precomposed == decomposed)  // Swift's == compares canonical equivalence
        #expect(!precomposed.hasSameUTF8(as: decomposed))
        #expect(precomposed.hasSameUTF8(as: "/api/v2/pok\u{E9}mon/"))
        #expect("".hasSameUTF8(as: ""))
        #expect(!"/a".hasSameUTF8(as: "/b"))
        #expect(!"/api".hasSameUTF8(as: "/api/"))
    }

    @Test("substrings compare by their own bytes")
    func substrings() {
        let path = "/api/v2/pokemon/?offset=0"
        let prefix = path.prefix { $0 != "?" }
        #expect(prefix.hasSameUTF8(as: "/api/v2/pokemon/"))
        #expect("/api/v2/pokemon/".hasSameUTF8(as: prefix))
        #expect(!path.dropFirst().hasSameUTF8(as: prefix))
    }

    @Test("a urlPath with a precomposed é matches it percent-encoded, not its decomposed form")
    func urlPathMatching() throws {
        let pattern = try RequestPattern(json: ["method": "GET", "urlPath": "/caf\u{E9}"])
        #expect(pattern.matches(HTTPRequest(method: "GET", rawURL: "/caf%C3%A9")))
        #expect(!pattern.matches(HTTPRequest(method: "GET", rawURL: "/cafe%CC%81")))
    }
}
