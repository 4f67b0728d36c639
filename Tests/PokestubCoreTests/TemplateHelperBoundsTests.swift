import Foundation
import Testing

@testable import PokestubCore

/// Sizes a stub or a request chooses, handed to helpers: each is checked or held to a range before anything
/// is made from it, so a render fails with a message instead of stopping the process or running for minutes.
@Suite("Template helpers on sizes a stub or a request chooses")
struct TemplateHelperBoundsTests {
    private func render(_ text: String, _ rawURL: String = "/t", body: String = "") throws -> String {
        let request = HTTPRequest(
            method: "POST", rawURL: rawURL, headers: HTTPHeaders([("Host", "h:9")]), body: Data(body.utf8))
        return try Template(text).render(for: request)
    }

    /// The message of the failure rendering `text` gives, or `nil` when it renders.
    private func failure(_ text: String, _ rawURL: String = "/t", body: String = "") -> String? {
        do {
            _ = try render(text, rawURL, body: body)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("range: both bounds included, numbers only, and a span past the step budget refused before it is made")
    func range() throws {
        #expect(try render("{{#each (range 2 4)}}[{{@index}}:{{this}}]{{/each}}") == "[0:2][1:3][2:4]")
        #expect(
            try render("{{range (math 1 '+' 0) (math 2.7 '+' 0)}}|{{range 3 2}}|{{size (range -2 1)}}") == "[1, 2]|[]|4"
        )
        #expect(
            try render("{{range request.query.a 3}}", "/t?a=1")
                == "[ERROR: The range helper requires both lower and upper bounds as integer parameters]")
        let reversed = try #require(failure("{{range 5 1}}"))
        #expect(reversed.contains("the upper bound is below the lower"))
        let huge = try #require(failure("{{size (range 0 2000000000)}}"))
        #expect(huge.contains("passed its work budget"))
        #expect(try render("{{array 1 'two' true}}|{{array}}") == "[1, two, true]|[]")
    }

    @Test("randomValue: a length past limits.maxResponseBytes is refused before the value is made")
    func randomValueLength() throws {
        let refused = try #require(failure("{{randomValue length=3000000000}}"))
        #expect(refused.contains("passed its work budget at {{randomValue length=3000000000}} (template line 1)"))
        #expect(refused.contains("output larger than limits.maxResponseBytes (67108864 bytes)"))
        // Past Int's range the length was a trap when read as a whole number.
        let asked = try #require(failure("{{randomValue length=request.query.n}}", "/t?n=99999999999999999999"))
        #expect(asked.contains("limits.maxResponseBytes"))
        let value = try render("{{randomValue length=request.query.n type='HEXADECIMAL' uppercase=true}}", "/t?n=40")
        #expect(value.count == 40 && value.allSatisfy { "0123456789ABCDEF".contains($0) })
        #expect(try render("{{randomValue length=12 type='NUMERIC'}}").allSatisfy(\.isNumber))
    }

    @Test("randomInt bounds and epoch dates outside Int's range are held to it instead of trapping")
    func wholeNumbersOutOfRange() throws {
        let bound = try render("{{randomInt lower=-99999999999999999999 upper=99999999999999999999}}")
        #expect(bound.isEmpty == false)
        #expect(
            try render("{{date (parseDate request.query.t format='epoch') format='epoch'}}", "/t?t=1e300")
                == String(Int.max))
        #expect(try render("{{date (parseDate request.query.t format='unix') format='unix'}}", "/t?t=nan") == "0")
    }

    @Test("capitalizeFirst of an empty query value (a true list of one empty string) is empty")
    func capitalizeFirstEmpty() throws {
        #expect(try render("[{{capitalizeFirst request.query.x}}]", "/t?x=") == "[]")
        #expect(try render("{{capitalizeFirst request.query.x}}", "/t?x=%C3%A9t%C3%A9") == "Été")
    }

    @Test("math refuses a product whose decimal places double past 1,000, which once ran to a gigabyte")
    func productScale() throws {
        var template = "{{#assign 'x0'}}1.5{{/assign}}"
        for step in 1...12 { template += "{{#assign 'x\(step)'}}{{math x\(step - 1) '*' x\(step - 1)}}{{/assign}}" }
        let refused = try #require(failure(template + "{{x12}}"))
        #expect(
            refused.contains("a product with 1024 decimal places (at most 1000) in {{math x9 '*' x9}}"), "\(refused)")
        #expect(try render("{{math 1.25 '*' 2.5}}") == "3.125")
    }

    @Test("stripTags is one pass: 200,000 '<' without a '>' take well under a second")
    func stripTagsLinear() throws {
        let body = String(repeating: "<", count: 200_000)
        let start = ContinuousClock.now
        #expect(try render("{{{stripTags request.body}}}", body: body) == body)
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(try render("{{{stripTags 'a<b>c<d<e>f<g'}}}") == "acf<g")
    }

    @Test("regexExtract that backtracks catastrophically stops at the budget, naming the mustache")
    func regexExtractBomb() throws {
        let refused = try #require(
            failure("{{regexExtract request.body '(a+)+$'}}", body: String(repeating: "a", count: 40) + "b"))
        #expect(refused.contains("at {{regexExtract request.body '(a+)+$'}}"))
        #expect(refused.contains("steps (limits.maxTemplateSteps)"))
        #expect(try render("{{regexExtract request.body '[0-9]+'}}", body: "ab123c") == "123")
    }

    @Test("replace and contains compare text unit for unit, as Java's String does; an empty target changes nothing")
    func literalText() throws {
        #expect(try render("{{replace 'aXbXXc' 'X' '--'}}") == "a--b----c")
        #expect(try render("{{replace 'aaa' 'aa' 'b'}}") == "ba")
        #expect(try render("{{replace 'abc' '' 'x'}}") == "abc")
        // A combining accent after `e` does not hide the `e` from Java's replace.
        #expect(try render("{{replace request.body 'e' 'E'}}", body: "e\u{301}e") == "E\u{301}E")
        #expect(try render("{{#contains request.body 'e'}}yes{{/contains}}", body: "e\u{301}") == "yes")
        #expect(try render("{{urlEncode 'a b&é'}}") == "a+b%26%C3%A9")
    }

    @Test("blocks and sub-expressions nested more than 100 deep are refused when parsed, not recursed into")
    func nesting() throws {
        let deep =
            String(repeating: "{{#if true}}", count: 100_000) + "x" + String(repeating: "{{/if}}", count: 100_000)
        #expect(throws: TemplateSyntaxError.self) { try Template(deep) }
        let chained = "{{#if false}}" + String(repeating: "{{else if false}}", count: 100_000) + "{{else}}y{{/if}}"
        #expect(throws: TemplateSyntaxError.self) { try Template(chained) }
        let parens =
            "{{not " + String(repeating: "(not ", count: 100_000) + "true" + String(repeating: ")", count: 100_000)
            + "}}"
        #expect(throws: TemplateSyntaxError.self) { try Template(parens) }
        let allowed = String(repeating: "{{#if true}}", count: 100) + "x" + String(repeating: "{{/if}}", count: 100)
        #expect(try render(allowed) == "x")
    }
}
