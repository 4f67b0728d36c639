import Foundation
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

@Suite("A value without a regex stub's literal prefix is refused before ICU runs, with the answer ICU gives")
struct StubRegexPrefixRejectionTests {
    /// Patterns whose prefix ends at each kind of metacharacter, with quantified, escaped and non-ASCII
    /// characters, beside values that share part, all or none of the prefix.
    static let patterns = [
        "/api/v2/pokemon/?", "/api/v2/pokemon/[0-9]+/", "/api/v2/items?/", "/a/b{2}", "/a\\.json", "/a\\d+",
        "/pokémon/(\\d+)", "/pokemon\u{301}?/x", "/a/b|/c/d", "(/a)/b", "/a+b", "/a\\/b.*", "/a/*", "",
    ]
    static let values = [
        "", "/", "/api", "/api/v2/pokemon", "/api/v2/pokemon/", "/api/v2/pokemon/25/", "/api/v2/pokemonx",
        "/api/v2/item/", "/api/v2/items/", "/a/bb", "/a/b", "/a.json", "/ajson", "/a12", "/pokémon/7",
        "/poke\u{301}mon/7", "/pokemon/x", "/pokemon\u{301}/x", "/c/d", "/a/b/", "/aab", "/a/b/c", "/a//",
        "/API/V2/POKEMON/",
    ]

    @Test("every pattern and value get the same answer as ICU alone", arguments: patterns)
    func sameAnswer(pattern: String) throws {
        let regex = try StubRegex(pattern)
        let icu = try NSRegularExpression(pattern: "\\A(?:\(pattern))\\z", options: [.dotMatchesLineSeparators])
        for value in Self.values {
            let expected = icu.firstMatch(in: value, range: NSRange(value.startIndex..<value.endIndex, in: value))
            #expect(regex.matches(value) == (expected != nil), "\(pattern) on \(value)")
        }
    }

    @Test("a refused value is charged to the request's budget as a run of ICU would be")
    func chargesTheBudget() throws {
        let regex = try StubRegex("/api/v2/pokemon/?")
        let budget = MatchBudget(steps: 1_000_000)
        let before = budget.remaining
        let outcome = MatchBudget.with(budget) { regex.evaluate("/api/v2/berry/") }
        #expect(outcome.matched == false && outcome.exhaustedBudget == false)
        #expect(before - budget.remaining == 10_000)
    }
}
