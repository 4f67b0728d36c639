import Testing

@testable import PokestubCore

@Suite("A regex stub is indexed by the literal text every match starts with")
struct StubRegexPrefixTests {
    @Test(
        "the prefix stops at the first metacharacter, drops a quantified character, and keeps escaped punctuation",
        arguments: [
            ("/api/v2/pokemon/[0-9]+/", "/api/v2/pokemon/"),
            ("^/api/v2/item/.*", "/api/v2/item/"),
            ("/api/v2/items?/", "/api/v2/item"),
            ("/a/b{2}", "/a/"),
            ("/a\\.json", "/a.json"),
            ("/a\\d+", "/a"),
            ("/pokémon/(\\d+)", "/pokémon/"),
            ("/a/b|/c/d", ""),
            ("(/a)/b", ""),
            ("", ""),
        ])
    func prefix(pattern: String, expected: String) throws {
        #expect(try StubRegex(pattern).literalPrefix == expected)
    }
}
