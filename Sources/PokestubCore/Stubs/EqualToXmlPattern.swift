import Foundation

/// WireMock's `equalToXml`: the value is an XML document equal to the expected one, as WireMock 2.35 compares
/// them with XMLUnit.
///
/// In JSON: `{"equalToXml": "<order><id>7</id></order>"}`, with the options 2.35 has: `enablePlaceholders`
/// (`${xmlunit.ignore}`, `${xmlunit.isNumber}`, `${xmlunit.matchesRegex(…)}`, `${xmlunit.isDateTime}` as the
/// whole of an expected text or attribute value), `placeholderOpeningDelimiterRegex` and
/// `placeholderClosingDelimiterRegex` (regular expressions for `${` and `}`), and `exemptedComparisons` (XMLUnit
/// `ComparisonType` names whose differences do not count).
///
/// What is compared, checked against WireMock 2.35.1's jar: element local names (not namespaces or prefixes),
/// attributes (in any order), and text trimmed at both ends (CDATA is text; comments, whitespace between
/// elements and the XML declaration are ignored). Children match in any order by name; children of the same
/// name pair in document order. As in 2.35, an element whose children mix text (or a processing instruction)
/// with other nodes never matches: WireMock's order-ignoring node matcher fails on them.
package struct EqualToXmlPattern: Sendable, Hashable {
    /// The expected document as written in the stub.
    package let expected: String
    /// Whether placeholders in the expected document are read.
    package let enablePlaceholders: Bool
    /// The placeholders' delimiters as regular expressions, when the stub sets them.
    package let openingDelimiter: String?
    package let closingDelimiter: String?
    /// The XMLUnit comparison types whose differences do not count.
    package let exemptedComparisons: Set<String>
    let tree: XMLTree
    private let placeholders: [String: XMLPlaceholder]

    /// XMLUnit 2's `ComparisonType` names, which `exemptedComparisons` takes (WireMock refuses any other).
    package static let comparisonTypes: Set<String> = [
        "ATTR_NAME_LOOKUP", "ATTR_VALUE", "ATTR_VALUE_EXPLICITLY_SPECIFIED", "CHILD_LOOKUP",
        "CHILD_NODELIST_LENGTH", "CHILD_NODELIST_SEQUENCE", "DOCTYPE_NAME", "DOCTYPE_PUBLIC_ID",
        "DOCTYPE_SYSTEM_ID", "ELEMENT_NUM_ATTRIBUTES", "ELEMENT_TAG_NAME", "HAS_DOCTYPE_DECLARATION",
        "NAMESPACE_PREFIX", "NAMESPACE_URI", "NODE_TYPE", "NO_NAMESPACE_SCHEMA_LOCATION",
        "PROCESSING_INSTRUCTION_DATA", "PROCESSING_INSTRUCTION_TARGET", "SCHEMA_LOCATION", "TEXT_VALUE",
        "XML_ENCODING", "XML_STANDALONE", "XML_VERSION",
    ]

    /// The JSON keys besides `equalToXml`.
    static let optionNames = [
        "enablePlaceholders", "placeholderOpeningDelimiterRegex", "placeholderClosingDelimiterRegex",
        "exemptedComparisons",
    ]

    /// Reads the pattern.
    ///
    /// - Throws: ``StubDefinitionError`` when the expected document is not well-formed XML (WireMock refuses
    ///   the stub too), a delimiter is not a regular expression, or an exempted comparison is not an XMLUnit
    ///   comparison type.
    package init(
        expected: String, enablePlaceholders: Bool = false, openingDelimiter: String? = nil,
        closingDelimiter: String? = nil, exemptedComparisons: Set<String> = []
    ) throws(StubDefinitionError) {
        self.expected = expected
        self.enablePlaceholders = enablePlaceholders
        self.openingDelimiter = openingDelimiter
        self.closingDelimiter = closingDelimiter
        self.exemptedComparisons = exemptedComparisons
        do { tree = try XMLTree.parse(expected) } catch {
            throw StubDefinitionError("is not well-formed XML: \(error.message)", keyPath: ["equalToXml"])
        }
        if let unknown = exemptedComparisons.subtracting(EqualToXmlPattern.comparisonTypes).sorted().first {
            throw StubDefinitionError(
                "\(unknown.debugDescription) is not an XMLUnit comparison type", keyPath: ["exemptedComparisons"])
        }
        placeholders =
            enablePlaceholders
            ? try XMLPlaceholder.all(
                in: tree, opening: openingDelimiter ?? #"\$\{"#, closing: closingDelimiter ?? #"\}"#)
            : [:]
    }

    /// Whether `value` is a document equal to the expected one. The work (the body's size and the nodes
    /// compared) is drawn from the current ``MatchBudget``.
    ///
    /// While the body's tree lives it holds ``XMLTree/parseCost(bytes:)`` of the request's memory budget; past
    /// that budget nothing is parsed and the request is answered 507.
    func matches(_ value: String?) -> Bool {
        guard let value, !value.isEmpty else { return false }
        let cost = XMLTree.parseCost(bytes: value.utf8.count)
        let equal = MatchBudget.withMemory(cost, for: "parsing the request body as XML for \(summary)") {
            () -> Bool? in
            guard let actual = XMLTree.chargedParse(value, pattern: summary) else { return false }
            var comparison = XMLComparison(placeholders: placeholders, exempted: exemptedComparisons, stopEarly: true)
            comparison.compare(tree.root, actual.root, path: "")
            MatchBudget.current?.charge(tree.size + actual.size, pattern: summary)
            return comparison.differences == 0
        }
        return equal ?? false
    }

    /// The share of comparisons that differ, and the first difference in words, for near misses.
    func explain(_ value: String?) -> (distance: Double, detail: String?) {
        guard let value, !value.isEmpty else { return (1, "no body") }
        guard value.utf8.count <= XMLTree.nearMissLimit else {
            return (1, "a body over \(XMLTree.nearMissLimit) bytes is not compared for near misses")
        }
        let actual: XMLTree
        do { actual = try XMLTree.parse(value) } catch { return (1, "the body is not XML: \(error.message)") }
        var comparison = XMLComparison(placeholders: placeholders, exempted: exemptedComparisons, stopEarly: false)
        comparison.compare(tree.root, actual.root, path: "")
        let distance = comparison.total == 0 ? 1 : Double(comparison.differences) / Double(comparison.total)
        return (comparison.differences == 0 ? 0 : max(distance, 0.01), comparison.first)
    }

    /// `equalToXml "<a>…</a>"`.
    var summary: String {
        let shown = expected.count > 120 ? String(expected.prefix(120)) + "…" : expected
        return "equalToXml \(shown.debugDescription)" + (enablePlaceholders ? " (placeholders)" : "")
    }

    /// The JSON form, as WireMock writes it.
    var json: JSONValue {
        var members: [String: JSONValue] = ["equalToXml": .string(expected)]
        if enablePlaceholders { members["enablePlaceholders"] = .bool(true) }
        if let openingDelimiter { members["placeholderOpeningDelimiterRegex"] = .string(openingDelimiter) }
        if let closingDelimiter { members["placeholderClosingDelimiterRegex"] = .string(closingDelimiter) }
        if !exemptedComparisons.isEmpty {
            members["exemptedComparisons"] = .array(exemptedComparisons.sorted().map { .string($0) })
        }
        return .object(members)
    }

    package static func == (lhs: EqualToXmlPattern, rhs: EqualToXmlPattern) -> Bool {
        lhs.expected == rhs.expected && lhs.enablePlaceholders == rhs.enablePlaceholders
            && lhs.openingDelimiter == rhs.openingDelimiter && lhs.closingDelimiter == rhs.closingDelimiter
            && lhs.exemptedComparisons == rhs.exemptedComparisons
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(expected)
        hasher.combine(enablePlaceholders)
    }
}

extension EqualToXmlPattern {
    /// Reads the options beside `equalToXml` from a value pattern object.
    init(expected: String, reading object: inout StrictObject) throws(StubDefinitionError) {
        var exempted: Set<String> = []
        if let value = object.take("exemptedComparisons") {
            guard case .array(let items) = value else {
                throw StubDefinitionError("must be an array of names", keyPath: ["exemptedComparisons"])
            }
            for item in items {
                guard case .string(let name) = item else {
                    throw StubDefinitionError("must be an array of names", keyPath: ["exemptedComparisons"])
                }
                exempted.insert(name)
            }
        }
        try self.init(
            expected: expected, enablePlaceholders: try object.bool("enablePlaceholders") ?? false,
            openingDelimiter: try object.string("placeholderOpeningDelimiterRegex"),
            closingDelimiter: try object.string("placeholderClosingDelimiterRegex"), exemptedComparisons: exempted)
    }
}

extension XMLTree {
    /// The largest body a near miss compares as XML: near misses are not under a ``MatchBudget``, and a request
    /// is compared with up to 24 stubs for them.
    static let nearMissLimit = 64 * 1024

    /// What parsing a body of `bytes` into a tree may hold at once: twelve times its size (an 8.8 MB body of
    /// small elements took 10 times it with `XMLParser`'s events, beside the request's own copies).
    static func parseCost(bytes: Int) -> Int { 12 * bytes }

    /// Parses a request's value, drawing one budget step per byte from the current ``MatchBudget``; `nil` when
    /// it is not XML or the budget is spent (before or by this parse).
    static func chargedParse(_ value: String, pattern: String) -> XMLTree? {
        if let budget = MatchBudget.current {
            if budget.isSpent { return nil }
            budget.charge(value.utf8.count, pattern: pattern)
            if budget.isSpent { return nil }
        }
        return try? XMLTree.parse(value)
    }
}
