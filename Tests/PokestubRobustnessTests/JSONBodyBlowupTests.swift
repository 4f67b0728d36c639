import Foundation
import Testing

@testable import PokestubCore

/// `matchesJsonPath` and `equalToJson` run on bodies a client sends, against documents and expressions an admin
/// client posts. Before their budgets, a 600-byte body made `$..*..*..*..*` select hundreds of millions of
/// values, and two arrays of 20,000 items made `ignoreArrayOrder` compare 400 million pairs and build a table of
/// as many bytes.
@Suite("JSON body matching on hostile bodies")
struct JSONBodyBlowupTests {
    static func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
    }

    /// Compares as `equalToJson` with `ignoreArrayOrder` does, and says how many value comparisons it took:
    /// the work, whatever the machine's speed or load.
    static func compare(
        _ expected: JSONValue, _ actualText: String, ignoreExtraElements: Bool
    ) throws -> (equal: Bool, comparisons: Int) {
        JSONComparison.measured(
            expected: expected, actual: try JSONValue.parse(Data(actualText.utf8)), ignoreArrayOrder: true,
            ignoreExtraElements: ignoreExtraElements)
    }

    @Test("runaway recursive descent stops at the visit budget")
    func recursiveDescent() throws {
        // 150 nested arrays, 300 bytes: without the budget `$..*..*..*..*` selects about 20 million values
        // (seconds of work and hundreds of megabytes; 300 arrays made it gigabytes).
        let document = try JSONValue.parse(Self.nested(150))
        let path = try JSONPath("$..*..*..*..*")
        #expect(path.evaluate(on: document).count <= JSONPath.visitBudget)
        let pattern = try StringValuePattern(json: .object(["matchesJsonPath": .string("$..*..*..*..*")]))
        _ = pattern.matches(Self.nested(150))
        // Within the budget the same kind of expression is exact: below the top array, 149 arrays and the
        // number; below each of those, 149 + 148 + … + 1 + 0 values.
        #expect(try JSONPath("$..*").evaluate(on: document).count == 150)
        #expect(try JSONPath("$..*..*").evaluate(on: document).count == 149 * 150 / 2)
    }

    @Test("recursive descent on a real PokeAPI-sized body is not cut short")
    func recursiveDescentOnARealBody() throws {
        let item: JSONValue = .object(["name": .string("x"), "url": .string("https://pokeapi.co/api/v2/x/1/")])
        let document: JSONValue = .object(["results": .array(Array(repeating: item, count: 20_000))])
        #expect(try JSONPath("$..name").evaluate(on: document).count == 20_000)
        #expect(try JSONPath("$.results[*].url").evaluate(on: document).count == 20_000)
    }

    @Test("unordered arrays of 20,000 plain values compare by counting", arguments: [false, true])
    func plainValues(ignoreExtraElements: Bool) throws {
        let expected = JSONValue.array((0..<20_000).map { .integer(Int64($0)) })
        let reversed = String(
            decoding: JSONValue.array((0..<20_000).reversed().map { .integer(Int64($0)) }).serialized(), as: UTF8.self)
        let pattern = StringValuePattern.equalToJson(
            expected, ignoreArrayOrder: true, ignoreExtraElements: ignoreExtraElements)
        #expect(pattern.matches(reversed))
        // Counting costs one comparison per item on each side; pairing would cost one per pair, 400 million
        // (about 50 s in a debug build).
        let (equal, comparisons) = try Self.compare(expected, reversed, ignoreExtraElements: ignoreExtraElements)
        #expect(equal)
        #expect(comparisons <= 2 * 20_000 + 1, "\(comparisons) comparisons")
    }

    @Test("a mismatch among 20,000 plain values is found without a pairing table")
    func plainValuesMismatch() throws {
        let expected = JSONValue.array(Array(repeating: .integer(1), count: 19_999) + [.integer(2)])
        let actual = "[" + String(repeating: "1,", count: 19_999) + "3]"
        let pattern = StringValuePattern.equalToJson(expected, ignoreArrayOrder: true, ignoreExtraElements: false)
        #expect(!pattern.matches(actual))
        // Without counting: 400 million comparisons and a 400 MB table, about 60 s in a debug build.
        let (equal, comparisons) = try Self.compare(expected, actual, ignoreExtraElements: false)
        #expect(!equal)
        #expect(comparisons <= 2 * 20_000 + 1, "\(comparisons) comparisons")
    }

    @Test("plain values keep JSON number equality (1 is 1.0, integers beyond 2^53 exact); strings compare scalars")
    func plainValueEquality() throws {
        let pattern = StringValuePattern.equalToJson(
            .array([.integer(1), .double(2.5), .string("é"), .null, .bool(true)]), ignoreArrayOrder: true,
            ignoreExtraElements: false)
        #expect(pattern.matches(#"[true, null, "\u00e9", 2.5, 1.0]"#))
        #expect(!pattern.matches(#"[true, null, "e\u0301", 2.5, 1.0]"#), "a decomposed é is not a precomposed one")
        #expect(!pattern.matches(#"[true, null, "e", 2.5, 1.0]"#))
        let big = StringValuePattern.equalToJson(
            .array([.integer(9_007_199_254_740_993), .integer(1)]), ignoreArrayOrder: true,
            ignoreExtraElements: false)
        #expect(big.matches("[1, 9007199254740993]"))
        #expect(!big.matches("[1, 9007199254740992]"))
    }

    @Test("unordered arrays of objects beyond the comparison budget give up instead of pairing for minutes")
    func objectsBeyondTheBudget() throws {
        let items = (0..<20_000).map { JSONValue.object(["id": .integer(Int64($0))]) }
        let pattern = StringValuePattern.equalToJson(.array(items), ignoreArrayOrder: true, ignoreExtraElements: false)
        let reversed = String(decoding: JSONValue.array(items.reversed()).serialized(), as: UTF8.self)
        #expect(!pattern.matches(reversed), "20,000 × 20,000 pairs exceed JSONComparison's budget")
        // Pairing everything would take 400 million comparisons (minutes) and a 400 MB table; the comparison
        // gives up once the budget is spent, a little past it (the calls that find it spent).
        let (equal, comparisons) = try Self.compare(.array(items), reversed, ignoreExtraElements: false)
        #expect(!equal)
        #expect(comparisons > JSONComparison.comparisonBudget, "gave up after \(comparisons) comparisons")
        #expect(comparisons < JSONComparison.comparisonBudget + 100_000, "\(comparisons) comparisons")
        // In the same order the greedy pairing takes one comparison per item and stays within the budget.
        let inOrder = String(decoding: JSONValue.array(items).serialized(), as: UTF8.self)
        #expect(pattern.matches(inOrder))
        let (equalInOrder, inOrderComparisons) = try Self.compare(.array(items), inOrder, ignoreExtraElements: false)
        #expect(equalInOrder)
        #expect(inOrderComparisons <= 3 * 20_000 + 1, "\(inOrderComparisons) comparisons")
    }

    @Test("unordered arrays of objects within the budget still pair exactly")
    func objectsWithinTheBudget() throws {
        let items = (0..<1_000).map { JSONValue.object(["id": .integer(Int64($0)), "tags": .array([.string("a")])]) }
        let pattern = StringValuePattern.equalToJson(.array(items), ignoreArrayOrder: true, ignoreExtraElements: true)
        let actual = JSONValue.array(items.reversed() + [.object(["id": .integer(-1)])])
        #expect(pattern.matches(String(decoding: actual.serialized(), as: UTF8.self)))
    }
}
