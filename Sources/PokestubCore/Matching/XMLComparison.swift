/// Compares an expected XML tree with a request's, as WireMock 2.35's `equalToXml` does through XMLUnit: it
/// counts the comparisons XMLUnit counts there (element names, attribute presence and values, the number of
/// children, child lookup, text values, processing instructions) and the differences among them.
///
/// Children pair by local name in document order, whatever order the names come in (WireMock's
/// order-invariant node matcher); an element with two or more children among which is a text or a processing
/// instruction is a difference on its own, because that matcher throws on such children and WireMock then
/// answers no match.
struct XMLComparison {
    /// Placeholders by the expected text that spells them (empty without `enablePlaceholders`).
    let placeholders: [String: XMLPlaceholder]
    /// XMLUnit comparison types whose differences do not count.
    let exempted: Set<String>
    /// Whether to stop at the first difference (matching) or count them all (near misses).
    let stopEarly: Bool
    /// Comparisons counted.
    private(set) var total = 0
    /// Differences among them.
    private(set) var differences = 0
    /// The first difference in words: `/order/id: text "8", expected "7"`.
    private(set) var first: String?

    init(placeholders: [String: XMLPlaceholder], exempted: Set<String>, stopEarly: Bool) {
        self.placeholders = placeholders
        self.exempted = exempted
        self.stopEarly = stopEarly
    }

    private var isDone: Bool { stopEarly && differences > 0 }

    private mutating func count(_ type: String?, equal: Bool, _ describe: @autoclosure () -> String) {
        if let type, exempted.contains(type) { return }
        total += 1
        guard !equal else { return }
        differences += 1
        if first == nil { first = describe() }
    }

    /// Compares two elements and everything under them.
    mutating func compare(_ expected: XMLTree.Element, _ actual: XMLTree.Element, path: String) {
        guard !isDone else { return }
        let here = path + "/" + expected.qualifiedName
        count(
            "ELEMENT_TAG_NAME", equal: expected.localName == actual.localName,
            "\(here): element <\(actual.qualifiedName)>, expected <\(expected.qualifiedName)>")
        compareAttributes(expected, actual, path: here)
        compareChildren(expected, actual, path: here)
    }

    private mutating func compareAttributes(_ expected: XMLTree.Element, _ actual: XMLTree.Element, path: String) {
        var expectedCount = expected.attributes.count
        for attribute in expected.attributes {
            guard !isDone else { return }
            let found = actual.attributes.first {
                $0.localName == attribute.localName && $0.namespaceURI == attribute.namespaceURI
            }
            if let placeholder = placeholders[attribute.value] {
                if found == nil, placeholder.acceptsAbsence {
                    expectedCount -= 1
                    continue
                }
                count(
                    "ATTR_VALUE", equal: found.map { placeholder.accepts($0.value) } ?? false,
                    "\(path)/@\(attribute.qualifiedName): \(found.map { $0.value.debugDescription } ?? "missing"), expected \(placeholder.summary)"
                )
                continue
            }
            guard let found else {
                count(
                    "ATTR_NAME_LOOKUP", equal: false,
                    "\(path): attribute \(attribute.qualifiedName) missing, expected \(attribute.value.debugDescription)"
                )
                continue
            }
            count(
                "ATTR_VALUE", equal: found.value.hasSameUTF8(as: attribute.value),
                "\(path)/@\(attribute.qualifiedName): \(found.value.debugDescription), expected \(attribute.value.debugDescription)"
            )
        }
        count(
            "ELEMENT_NUM_ATTRIBUTES", equal: expectedCount == actual.attributes.count,
            "\(path): \(actual.attributes.count) attributes, expected \(expectedCount)")
    }

    private mutating func compareChildren(_ expected: XMLTree.Element, _ actual: XMLTree.Element, path: String) {
        guard !isDone else { return }
        for element in [expected, actual] where element.children.count > 1 {
            if element.children.contains(where: { if case .element = $0 { false } else { true } }) {
                count(nil, equal: false, "\(path): text mixed with elements (WireMock 2.35 matches no such element)")
                return
            }
        }
        // A placeholder standing for the whole text also accepts no text at all (`<b/>` for `${xmlunit.ignore}`).
        if expected.children.count == 1, case .text(let text) = expected.children[0],
            let placeholder = placeholders[text]
        {
            switch actual.children.first {
            case nil:
                count(
                    "TEXT_VALUE", equal: placeholder.acceptsAbsence, "\(path): no text, expected \(placeholder.summary)"
                )
            case .text(let value)?:
                count(
                    "TEXT_VALUE", equal: placeholder.accepts(value),
                    "\(path): text \(value.debugDescription), expected \(placeholder.summary)")
            default:
                count("CHILD_LOOKUP", equal: false, "\(path): an element, expected \(placeholder.summary)")
            }
            return
        }
        count(
            "CHILD_NODELIST_LENGTH", equal: expected.children.count == actual.children.count,
            "\(path): \(actual.children.count) child nodes, expected \(expected.children.count)")
        var used = Set<Int>()
        for child in expected.children {
            guard !isDone else { return }
            switch child {
            case .element(let element):
                let index = actual.children.indices.first { index in
                    guard !used.contains(index), case .element(let candidate) = actual.children[index] else {
                        return false
                    }
                    return candidate.localName == element.localName
                }
                guard let index, case .element(let match) = actual.children[index] else {
                    count("CHILD_LOOKUP", equal: false, "\(path): element <\(element.qualifiedName)> missing")
                    continue
                }
                used.insert(index)
                compare(element, match, path: path)
            case .text(let text):
                guard case .text(let value)? = actual.children.first else {
                    count("CHILD_LOOKUP", equal: false, "\(path): text missing, expected \(text.debugDescription)")
                    continue
                }
                count(
                    "TEXT_VALUE", equal: value.hasSameUTF8(as: text),
                    "\(path): text \(value.debugDescription), expected \(text.debugDescription)")
            case .processingInstruction(let instruction):
                guard case .processingInstruction(let value)? = actual.children.first else {
                    count("CHILD_LOOKUP", equal: false, "\(path): processing instruction <?\(instruction)?> missing")
                    continue
                }
                count(
                    "PROCESSING_INSTRUCTION_DATA", equal: value == instruction,
                    "\(path): <?\(value)?>, expected <?\(instruction)?>")
            }
        }
    }
}
