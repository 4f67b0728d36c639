import Foundation
import Testing

@testable import PokestubCore

/// Each filter here was first asked of WireMock 2.35.1's jar (Jayway JsonPath) on the same body.
@Suite("JSONPath filter expressions, as Jayway JsonPath in WireMock 2.35")
struct JSONPathFilterTests {
    static let body = #"""
        {"items": [{"name": "Pikachu", "tags": ["a", "b"], "n": 3}, {"name": "bulbasaur", "tags": [], "n": 10},
                   {"name": "x", "n": "3"}]}
        """#

    private func selects(_ filter: String, _ body: String = Self.body) throws -> Bool {
        try !JSONPath("$.items[?(\(filter))]").evaluate(on: JSONValue.parse(body)).isEmpty
    }

    @Test(
        "operators WireMock 2.35 accepts select the items it selects",
        arguments: [
            ("@.name =~ /pika.*/i", true), ("@.name =~ /pika.*/", false), ("@.name =~ /Pika/", false),
            ("@.name =~ /.*a.*/", true), ("@.name in ['x','y']", true), ("@.name in ['q']", false),
            ("@.n in [3, 4]", true), ("@.name nin ['x','Pikachu']", true), ("@.tags size 2", true),
            ("@.tags size 3", false), ("@.name size 7", true), ("@.tags empty true", true),
            ("@.tags empty false", true), ("@.n > 5 && @.name == 'bulbasaur'", true),
            ("@.n > 5 && @.name == 'x'", false), ("@.n > 50 || @.name == 'x'", true),
            ("@.n > 50 || @.name == 'q'", false), ("@.missing != 'a'", true), ("@.missing == 'a'", false),
            ("!@.tags", true), ("!@.name", false), ("@.tags contains 'a'", true), ("@.tags contains 'z'", false),
            ("@.name contains 'ika'", true), ("@.tags subsetof ['a','b','c']", true), ("@.tags anyof ['b']", true),
            ("@.tags anyof ['z']", false), ("(@.n > 5)", true),
            ("@.n > 5 && (@.name == 'q' || @.name == 'bulbasaur')", true), ("@.n >= 10", true), ("@.n >= 11", false),
        ])
    func operators(filter: String, selects expected: Bool) throws {
        #expect(try selects(filter) == expected)
    }

    @Test("a regular expression's . does not cross a line break unless the s flag is given, as in Java")
    func regexFlags() throws {
        let body = #"{"items": [{"text": "a\nb"}]}"#
        #expect(try !selects("@.text =~ /a.b/", body))
        #expect(try selects("@.text =~ /a.b/s", body))
        #expect(throws: StubDefinitionError.self) { try JSONPath("$.items[?(@.text =~ /a/q)]") }
    }

    @Test("deeply nested parentheses are a load error, not a stack overflow")
    func nesting() throws {
        let deep =
            "$.items[?(" + String(repeating: "(", count: 5000) + "@.n" + String(repeating: ")", count: 5000) + ")]"
        #expect(throws: StubDefinitionError.self) { try JSONPath(deep) }
        #expect(try selects(String(repeating: "(", count: 10) + "@.n > 5" + String(repeating: ")", count: 10)))
    }

    @Test("an unsupported operator is a load error naming the operator it saw")
    func unsupportedOperator() throws {
        for (expression, seen) in [("$.items[?(@.n ~ 3)]", #""~""#), ("$.items[?(@.n like 3)]", #""like""#)] {
            do {
                _ = try JSONPath(expression)
                Issue.record("\(expression) loaded")
            } catch {
                #expect(error.message.contains("unsupported filter operator \(seen)"), "\(error.message)")
            }
        }
    }
}
