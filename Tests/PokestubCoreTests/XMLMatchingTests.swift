import Foundation
import Testing

@testable import PokestubCore

/// Each expectation here was first asked of WireMock 2.35.1's jar with the same pattern and body.
@Suite("RequestPattern: equalToXml and matchesXPath, as WireMock 2.35")
struct XMLMatchingTests {
    private func matches(_ bodyPattern: String, body: String) throws -> Bool {
        let pattern = try Fixtures.pattern(#"{"method": "POST", "bodyPatterns": [\#(bodyPattern)]}"#)
        let request = Fixtures.request("POST", "/soap", body: body)
        let matched = pattern.matches(request)
        #expect(matched == pattern.evaluate(request).isMatch, "matches and evaluate disagree")
        return matched
    }

    private static let order = #"{"equalToXml": "<a x=\"1\" y=\"2\"><b>t</b><c>u</c></a>"}"#

    @Test(
        "equalToXml ignores attribute order, whitespace between elements and at text ends, comments, CDATA and the declaration"
    )
    func equalToXmlIgnores() throws {
        #expect(try matches(Self.order, body: #"<a x="1" y="2"><b>t</b><c>u</c></a>"#))
        #expect(try matches(Self.order, body: "<a y=\"2\" x=\"1\">\n  <b> t </b>\n  <c>u</c>\n</a>"))
        #expect(try matches(Self.order, body: #"<a x="1" y="2"><!-- hi --><b>t</b><c>u</c></a>"#))
        #expect(try matches(Self.order, body: #"<a x="1" y="2"><b><![CDATA[t]]></b><c>u</c></a>"#))
        #expect(
            try matches(Self.order, body: #"<?xml version="1.0" encoding="UTF-8"?><a x="1" y="2"><b>t</b><c>u</c></a>"#)
        )
        #expect(try matches(Self.order, body: #"<a x="1" y="2"><c>u</c><b>t</b></a>"#))
    }

    @Test("equalToXml fails on an extra or missing attribute or child, other text, inner whitespace and malformed XML")
    func equalToXmlDiffers() throws {
        #expect(try !matches(Self.order, body: #"<a x="1" y="2" z="3"><b>t</b><c>u</c></a>"#))
        #expect(try !matches(Self.order, body: #"<a x="1"><b>t</b><c>u</c></a>"#))
        #expect(try !matches(Self.order, body: #"<a x="1" y="2"><b>t</b><c>u</c><d/></a>"#))
        #expect(try !matches(Self.order, body: #"<a x="1" y="2"><b>t</b></a>"#))
        #expect(try !matches(Self.order, body: #"<a x="1" y="2"><b>T</b><c>u</c></a>"#))
        #expect(try !matches(Self.order, body: #"<a x="1" y="2"><b>t u</b><c>u</c></a>"#))
        #expect(try !matches(Self.order, body: #"<a x="1" y="2"><b>t</b><c>u</c></a"#))
        #expect(try !matches(Self.order, body: #"<a x="1" y="2"><b>t</c><c>u</c></a>"#))
        #expect(try !matches(Self.order, body: ""))
    }

    @Test("equalToXml compares element local names, not namespaces or prefixes; same-name children pair in order")
    func equalToXmlNamespacesAndRepeats() throws {
        let namespaced = #"{"equalToXml": "<p:a xmlns:p=\"urn:x\"><p:b>t</p:b></p:a>"}"#
        #expect(try matches(namespaced, body: #"<q:a xmlns:q="urn:x"><q:b>t</q:b></q:a>"#))
        #expect(try matches(namespaced, body: #"<a xmlns="urn:x"><b>t</b></a>"#))
        #expect(try matches(namespaced, body: "<a><b>t</b></a>"))
        let repeated = #"{"equalToXml": "<a><b>1</b><b>2</b></a>"}"#
        #expect(try matches(repeated, body: "<a><b>1</b><b>2</b></a>"))
        #expect(try !matches(repeated, body: "<a><b>2</b><b>1</b></a>"))
        // WireMock 2.35's node matcher throws on text beside elements: such an element never matches.
        #expect(try !matches(#"{"equalToXml": "<a>x<b>1</b>y</a>"}"#, body: "<a>x<b>1</b>y</a>"))
    }

    @Test("placeholders: ignore (even absent), isNumber, matchesRegex, only as the whole value, custom delimiters")
    func placeholders() throws {
        let pattern = #"""
            {"equalToXml": "<a><b>${xmlunit.ignore}</b><c>${xmlunit.isNumber}</c><d x=\"${xmlunit.ignore}\">${xmlunit.matchesRegex(^[a-z]+$)}</d></a>", "enablePlaceholders": true}
            """#
        #expect(try matches(pattern, body: #"<a><b>anything</b><c>12.5</c><d x="q">abc</d></a>"#))
        #expect(try matches(pattern, body: #"<a><b/><c>12</c><d x="q">abc</d></a>"#))
        #expect(try matches(pattern, body: "<a><b>z</b><c>1</c><d>abc</d></a>"))
        #expect(try !matches(pattern, body: #"<a><b>z</b><c>x12</c><d x="q">abc</d></a>"#))
        #expect(try !matches(pattern, body: #"<a><b>z</b><c>1</c><d x="q">ABC</d></a>"#))
        #expect(try !matches(#"{"equalToXml": "<a><b>${xmlunit.ignore}</b></a>"}"#, body: "<a><b>x</b></a>"))
        let partial = #"{"equalToXml": "<a><b>id-${xmlunit.ignore}</b></a>", "enablePlaceholders": true}"#
        #expect(try !matches(partial, body: "<a><b>id-7</b></a>"))
        let custom = #"""
            {"equalToXml": "<a><b>[[xmlunit.ignore]]</b></a>", "enablePlaceholders": true,
             "placeholderOpeningDelimiterRegex": "\\[\\[", "placeholderClosingDelimiterRegex": "]]"}
            """#
        #expect(try matches(custom, body: "<a><b>x</b></a>"))
    }

    @Test("exemptedComparisons lets those differences pass and refuses names XMLUnit does not have")
    func exempted() throws {
        let pattern = #"{"equalToXml": "<a x=\"1\"><b>t</b></a>", "exemptedComparisons": ["ATTR_VALUE", "TEXT_VALUE"]}"#
        #expect(try matches(pattern, body: #"<a x="2"><b>u</b></a>"#))
        #expect(try !matches(pattern, body: "<a><b>u</b></a>"))
        let error = try #require(
            Fixtures.definitionError(
                #"{"request": {"bodyPatterns": [{"equalToXml": "<a/>", "exemptedComparisons": ["NOPE"]}]}}"#))
        #expect(error.description.contains(#""NOPE" is not an XMLUnit comparison type"#))
    }

    @Test("malformed expected XML, an unknown placeholder and an unknown option are load errors naming the field")
    func loadErrors() throws {
        let malformed = try #require(
            Fixtures.definitionError(#"{"request": {"bodyPatterns": [{"equalToXml": "<a>"}]}}"#))
        #expect(malformed.field == "request.bodyPatterns[0].equalToXml")
        #expect(malformed.message.hasPrefix("is not well-formed XML"))
        let placeholder = try #require(
            Fixtures.definitionError(
                #"{"request": {"bodyPatterns": [{"equalToXml": "<a>${xmlunit.nope}</a>", "enablePlaceholders": true}]}}"#
            ))
        #expect(placeholder.message.contains("unsupported placeholder"))
        let option = try #require(
            Fixtures.definitionError(#"{"request": {"bodyPatterns": [{"equalToXml": "<a/>", "ignoreOrder": true}]}}"#))
        #expect(option.message.contains(#"unsupported field "ignoreOrder""#))
    }

    private static let things = #"<stuff><thing id="1">one</thing><thing id="2">two</thing><box><i>x</i></box></stuff>"#

    @Test("matchesXPath: plain selects nodes; a sub-matcher sees text and attribute values, elements as XML")
    func matchesXPath() throws {
        #expect(try matches(#"{"matchesXPath": "//thing[@id='2']"}"#, body: Self.things))
        #expect(try !matches(#"{"matchesXPath": "//thing[@id='3']"}"#, body: Self.things))
        #expect(try matches(#"{"matchesXPath": "/stuff/box/i"}"#, body: Self.things))
        #expect(
            try matches(#"{"matchesXPath": {"expression": "//thing/text()", "equalTo": "two"}}"#, body: Self.things))
        #expect(try !matches(#"{"matchesXPath": {"expression": "//thing", "equalTo": "two"}}"#, body: Self.things))
        #expect(try matches(#"{"matchesXPath": {"expression": "//thing", "contains": "tw"}}"#, body: Self.things))
        #expect(try matches(#"{"matchesXPath": {"expression": "//thing/@id", "equalTo": "2"}}"#, body: Self.things))
        #expect(
            try matches(#"{"matchesXPath": {"expression": "//box/i", "matches": "<i>x</i>\\s*"}}"#, body: Self.things))
        #expect(
            try matches(#"{"matchesXPath": {"expression": "//box/i", "equalToXml": "<i>x</i>"}}"#, body: Self.things))
        // Relative paths start at the document, as in WireMock (Foundation on Linux starts at the root element).
        #expect(try matches(#"{"matchesXPath": "stuff/box"}"#, body: Self.things))
        #expect(try !matches(#"{"matchesXPath": "box"}"#, body: Self.things))
        #expect(try matches(#"{"matchesXPath": ".//i"}"#, body: "<!-- first --><stuff><box><i>x</i></box></stuff>"))
        #expect(try matches(#"{"matchesXPath": "//box[i]"}"#, body: Self.things))
        #expect(try matches(#"{"matchesXPath": "//*[@xml:lang='en']"}"#, body: #"<a xml:lang="en"/>"#))
        #expect(try !matches(#"{"matchesXPath": "//thing"}"#, body: "not xml"))
        #expect(try !matches(#"{"matchesXPath": "//thing"}"#, body: "<stuff><thing>"))
    }

    @Test("matchesXPath binds xPathNamespaces prefixes; unprefixed names select no-namespace elements")
    func xPathNamespaces() throws {
        let envelope =
            #"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><m:Get xmlns:m="urn:m"><m:id>7</m:id></m:Get></s:Body></s:Envelope>"#
        #expect(
            try matches(
                #"{"matchesXPath": {"expression": "//m:id/text()", "equalTo": "7"}, "xPathNamespaces": {"m": "urn:m"}}"#,
                body: envelope))
        let soap = #""soap": "http://schemas.xmlsoap.org/soap/envelope/""#
        #expect(
            try matches(
                #"{"matchesXPath": "//soap:Body/x:Get", "xPathNamespaces": {\#(soap), "x": "urn:m"}}"#, body: envelope))
        #expect(
            try !matches(
                #"{"matchesXPath": "//soap:Body/x:Get", "xPathNamespaces": {\#(soap), "x": "urn:other"}}"#,
                body: envelope))
        #expect(try !matches(#"{"matchesXPath": "//Body"}"#, body: envelope))
        #expect(try matches(#"{"matchesXPath": "//*[local-name()='id']"}"#, body: envelope))
    }

    @Test("an XPath that cannot evaluate is refused at load, naming the problem (Foundation would crash on it)")
    func xPathLoadErrors() throws {
        for (expression, message) in [
            ("//[", "expected a name test"), ("//s:Body", #"namespace prefix "s" is not declared"#),
            ("count(//thing)", "selects a number"), ("//a[count(1)]", "count() takes a node-set"),
            ("//a[foo()]", "unsupported function foo()"), ("//a[$x]", "variables are not supported"),
            ("//a[substring('x')]", "does not take 1 argument"),
            ("//a/namespace::*", "namespace axis is not supported"),
            (String(repeating: "(", count: 5000) + "//a" + String(repeating: ")", count: 5000), "nests deeper than 64"),
            ("//thing[", "ends too soon"),
        ] {
            let error = try #require(
                Fixtures.definitionError(#"{"request": {"bodyPatterns": [{"matchesXPath": "\#(expression)"}]}}"#),
                "\(expression)")
            #expect(error.field == "request.bodyPatterns[0].matchesXPath", "\(expression)")
            #expect(error.message.contains(message), "\(expression): \(error.message)")
        }
    }

    @Test(
        "a body that declares entities is neither equal to XML nor searched by XPath, and is refused before parsing"
    )
    func entityDeclarations() throws {
        // WireMock 2.35 expands `&x;` to "hello" and matches both; libxml2 would expand without a bound.
        let declared = #"<!DOCTYPE a [<!ENTITY x "hello">]><a>&x;</a>"#
        #expect(try !matches(#"{"equalToXml": "<a>hello</a>"}"#, body: declared))
        #expect(try !matches(#"{"matchesXPath": "/a[text()='hello']"}"#, body: declared))
        #expect(try matches(#"{"equalToXml": "<a>hello</a>"}"#, body: "<!DOCTYPE a><a>hello</a>"))
        let pattern = try Fixtures.pattern(#"{"method": "POST", "bodyPatterns": [\#(Self.order)]}"#)
        let result = pattern.evaluate(Fixtures.request("POST", "/soap", body: declared))
        let difference = try #require(result.differences.first)
        #expect(difference.description.contains("declares entities"), "\(difference)")
    }

    @Test("an XPath whose estimated work on the body passes the budget is not evaluated; a plain one is")
    func xPathWorkEstimate() throws {
        // 250 nested elements around 10,000 empty ones (40 KB): libxml2 visits about 3 × 10⁸ nodes.
        let deep =
            String(repeating: "<a>", count: 250) + String(repeating: "<b/>", count: 10_000)
            + String(repeating: "</a>", count: 250)
        let request = Fixtures.request("POST", "/soap", body: deep)
        let expression = "//*[count(.//*[count(.//*) > 0]) > 0]"
        let nested = try Fixtures.pattern(
            #"{"method": "POST", "bodyPatterns": [{"matchesXPath": "\#(expression)"}]}"#)
        let (matched, budget) = MatchBudget.measuring { nested.matches(request) }
        #expect(!matched)
        #expect(budget.spentBy?.pattern == "matchesXPath \(expression.debugDescription)", "\(budget.spentBy as Any)")
        let plain = try Fixtures.pattern(#"{"method": "POST", "bodyPatterns": [{"matchesXPath": "//a[b]"}]}"#)
        let (plainMatched, plainBudget) = MatchBudget.measuring { plain.matches(request) }
        #expect(plainMatched)
        #expect(!plainBudget.isSpent)
        let stub = try Fixtures.stub(
            #"{"request": {"method": "POST", "bodyPatterns": [{"matchesXPath": "\#(expression)"}]}}"#)
        let nearMisses = NearMiss.closest(to: request, in: StubIndex([stub]))
        let detail = nearMisses.first?.result.differences.first?.detail ?? ""
        #expect(detail.contains("takes too long for a near miss"), "\(detail)")
    }

    @Test("the near miss names the first XML difference with its path")
    func nearMissDetail() throws {
        let pattern = try Fixtures.pattern(#"{"method": "POST", "bodyPatterns": [\#(Self.order)]}"#)
        let result = pattern.evaluate(Fixtures.request("POST", "/soap", body: #"<a x="1" y="2"><b>T</b><c>u</c></a>"#))
        let difference = try #require(result.differences.first)
        #expect(difference.description.contains(#"(/a/b: text "T", expected "t")"#), "\(difference)")
        #expect(result.distance > 0 && result.distance < 1)
    }

    @Test("XML parsing draws from the request's matching budget and stops once it is spent")
    func budget() throws {
        let pattern = try Fixtures.pattern(#"{"method": "POST", "bodyPatterns": [\#(Self.order)]}"#)
        let body = #"<a x="1" y="2"><b>t</b><c>u</c></a>"#
        let request = Fixtures.request("POST", "/soap", body: body)
        let (matched, budget) = MatchBudget.measuring(steps: 10_000) { pattern.matches(request) }
        #expect(matched)
        #expect(budget.remaining <= 10_000 - body.utf8.count)
        let (starved, spent) = MatchBudget.measuring(steps: 10) { pattern.matches(request) }
        #expect(!starved)
        #expect(spent.isSpent)
        #expect(spent.spentBy?.pattern.hasPrefix("equalToXml") == true)
    }
}
