import Foundation

#if canImport(FoundationXML)
    // On Linux the XML classes are in their own module; on Darwin in Foundation
    // (https://developer.apple.com/documentation/foundation/xmlnode/nodes(forxpath:)).
    import FoundationXML
#endif

/// WireMock's `matchesXPath`: the value is an XML document in which the XPath 1.0 expression selects at least
/// one node, or, with a sub-matcher, a node whose value passes it.
///
/// In JSON: `{"matchesXPath": "//order[id='7']"}`, or with a sub-matcher
/// `{"matchesXPath": {"expression": "//order/id/text()", "equalTo": "7"}}`, each with an optional
/// `"xPathNamespaces": {"m": "urn:orders"}` beside `matchesXPath` to bind the prefixes the expression uses.
///
/// As WireMock 2.35 (checked against its jar): the sub-matcher sees a text or attribute node's value as it is
/// (not trimmed) and an element as its XML followed by a line break (`<i>x</i>\n`), and passes when any
/// selected node passes; an expression that selects a number, string or boolean (`count(//a)`) matches nothing
/// there, so it is refused when the stub loads, as are syntax errors and undeclared prefixes (WireMock loads
/// those and never matches). Unprefixed names select elements in no namespace. A body that declares entities
/// (`<!ENTITY`) is not evaluated.
package struct MatchesXPathPattern: Sendable, Hashable {
    /// The expression, checked and rewritten for Foundation.
    let xpath: XPathExpression
    /// Prefixes by namespace URI, as the stub writes them.
    package let namespaces: [String: String]
    /// The sub-matcher for the selected nodes' values, if any.
    package let valuePattern: StringValuePattern?

    /// The expression as written in the stub.
    package var expression: String { xpath.expression }

    /// Reads the pattern.
    ///
    /// - Throws: ``StubDefinitionError`` naming what ``XPathExpression`` refuses.
    package init(
        expression: String, namespaces: [String: String] = [:], valuePattern: StringValuePattern? = nil
    ) throws(StubDefinitionError) {
        xpath = try XPathExpression(expression, namespaces: namespaces)
        self.namespaces = namespaces
        self.valuePattern = valuePattern
    }

    /// Whether the expression selects a node in `value` (one whose value passes the sub-matcher, when there is
    /// one). The work is drawn from the current ``MatchBudget``: the body's bytes for the strict parse, then
    /// the expression's estimated work over the parsed document
    /// (``XPathExpression/estimatedWork(bytes:nodes:depth:)``) before `XMLDocument` parses it again and
    /// evaluates it; an expression whose estimate is over the budget is not evaluated.
    func matches(_ value: String?) -> Bool {
        guard let nodes = selectedValues(value) else { return false }
        guard let valuePattern else { return !nodes.isEmpty }
        return nodes.contains { valuePattern.matches($0) }
    }

    /// The values of the nodes selected in `value`, or `nil` when `value` is not a well-formed XML document or
    /// the budget does not cover the evaluation.
    ///
    /// While the body's tree and document live they hold twice ``XMLTree/parseCost(bytes:)`` of the request's
    /// memory budget (an 8.8 MB body took 24 times its size); past that budget nothing is parsed and the request
    /// is answered 507.
    func selectedValues(_ value: String?) -> [String]? {
        guard let value, !value.isEmpty else { return nil }
        let cost = 2 * XMLTree.parseCost(bytes: value.utf8.count)
        return MatchBudget.withMemory(cost, for: "parsing the request body as XML for \(summary)") {
            selectedValues(parsing: value)
        }
    }

    private func selectedValues(parsing value: String) -> [String]? {
        // Foundation's XMLDocument recovers from errors on Linux (libxml2's XML_PARSE_RECOVER), so the body is
        // first read strictly, as WireMock reads it.
        guard let tree = XMLTree.chargedParse(value, pattern: summary) else { return nil }
        if let budget = MatchBudget.current {
            budget.charge(
                xpath.estimatedWork(bytes: value.utf8.count, nodes: tree.size, depth: tree.depth), pattern: summary)
            if budget.isSpent { return nil }
        }
        guard
            let document = try? XMLDocument(
                data: Data(XMLTree.spacingEmptyInstructions(value).utf8), options: [.nodeLoadExternalEntitiesNever]),
            let nodes = try? document.nodes(forXPath: xpath.rewritten)
        else { return nil }
        return nodes.map { node in
            node.kind == .element ? node.xmlString + "\n" : node.stringValue ?? ""
        }
    }

    /// How far `value` is from passing, and why, for near misses.
    func explain(_ value: String?) -> (distance: Double, detail: String?) {
        if let value, value.utf8.count > XMLTree.nearMissLimit {
            return (1, "a body over \(XMLTree.nearMissLimit) bytes is not compared for near misses")
        }
        // Near misses share a budget (`NearMiss.closest`); a lone explanation gets one of its own.
        let (selected, budget) =
            MatchBudget.current.map { ($0.isSpent ? nil : selectedValues(value), $0) }
            ?? MatchBudget.measuring(steps: MatchBudget.nearMissSteps) { selectedValues(value) }
        if budget.isSpent { return (1, "evaluating the expression on this body takes too long for a near miss") }
        guard let values = selected else { return (1, "the body is not XML") }
        guard !values.isEmpty else { return (1, "the expression selects nothing") }
        guard let valuePattern else { return (0, nil) }
        if values.contains(where: { valuePattern.matches($0) }) { return (0, nil) }
        let shown = values.prefix(3).map { $0.debugDescription }.joined(separator: ", ")
        let distance = values.map { valuePattern.distance($0) }.min() ?? 1
        return (distance, "selected \(shown)" + (values.count > 3 ? " and \(values.count - 3) more" : ""))
    }

    /// `matchesXPath "//a" with equalTo "x"`.
    var summary: String {
        "matchesXPath \(expression.debugDescription)" + (valuePattern.map { " with \($0.summary)" } ?? "")
    }

    /// The JSON form, as WireMock writes it.
    var json: JSONValue {
        var members: [String: JSONValue] = [:]
        if let valuePattern {
            members["matchesXPath"] = .object(
                (valuePattern.json.objectValue ?? [:]).merging(["expression": .string(expression)]) { $1 })
        } else {
            members["matchesXPath"] = .string(expression)
        }
        if !namespaces.isEmpty { members["xPathNamespaces"] = .object(namespaces.mapValues { .string($0) }) }
        return .object(members)
    }

    package static func == (lhs: MatchesXPathPattern, rhs: MatchesXPathPattern) -> Bool {
        lhs.xpath == rhs.xpath && lhs.namespaces == rhs.namespaces && lhs.valuePattern == rhs.valuePattern
    }

    package func hash(into hasher: inout Hasher) { hasher.combine(xpath) }
}

extension MatchesXPathPattern {
    /// Reads `matchesXPath` and `xPathNamespaces` from a value pattern object.
    init(reading object: inout StrictObject) throws(StubDefinitionError) {
        var namespaces: [String: String] = [:]
        for (prefix, uri) in try object.object("xPathNamespaces") ?? [:] {
            guard case .string(let text) = uri else {
                throw StubDefinitionError("must map prefixes to namespace URIs", keyPath: ["xPathNamespaces", prefix])
            }
            namespaces[prefix] = text
        }
        let name = "matchesXPath"
        switch object.take(name) ?? .null {
        case .string(let expression):
            do { try self.init(expression: expression, namespaces: namespaces) } catch {
                throw error.nested(under: name)
            }
        case .object(var members):
            guard case .string(let expression)? = members.removeValue(forKey: "expression") else {
                throw StubDefinitionError("needs a string \"expression\"", keyPath: [name])
            }
            do {
                try self.init(
                    expression: expression, namespaces: namespaces,
                    valuePattern: try StringValuePattern(json: .object(members)))
            } catch { throw error.nested(under: name) }
        default:
            throw StubDefinitionError("must be an XPath string or an object", keyPath: [name])
        }
    }
}
