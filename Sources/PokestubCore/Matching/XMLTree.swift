import Foundation

#if canImport(FoundationXML)
    // On Linux the XML classes are in their own module (swift-corelibs-foundation); on Darwin they are in
    // Foundation (https://developer.apple.com/documentation/foundation/xmlparser).
    import FoundationXML
#endif

/// An XML document as a tree of values, read with Foundation's `XMLParser` (libxml2 on Linux, Apple's parser on
/// Darwin): what `equalToXml` compares, and the check that a body is well-formed before an XPath runs on it.
///
/// The tree keeps what WireMock 2.35 compares (checked against its jar): elements by local name (the namespace
/// and the prefix are not compared), attributes by namespace and local name (namespace declarations are not
/// attributes), and text trimmed, with CDATA sections read as text and whitespace-only text dropped (XMLUnit's
/// `ignoreWhitespace`). Comments are dropped (`ignoreComments`). A document that declares entities
/// (`<!ENTITY`) is refused before it is parsed: libxml2 would expand them without a bound, so one 400 KB body
/// could make gigabytes of text (WireMock 2.35 expands them within the JDK's limits, 64,000 expansions). External
/// entities are never loaded.
struct XMLTree: Sendable, Hashable {
    /// The document element.
    var root: Element
    /// How many elements, attributes and texts the tree holds: the work comparing it takes.
    var size: Int
    /// How deeply elements nest: 1 for a document element without child elements.
    var depth: Int

    /// A child of an element.
    enum Node: Sendable, Hashable {
        case element(Element)
        /// Text and CDATA, trimmed; never empty.
        case text(String)
        /// A processing instruction (`<?target data?>`).
        case processingInstruction(String)
    }

    /// An element.
    struct Element: Sendable, Hashable {
        var localName: String
        var qualifiedName: String
        var attributes: [Attribute]
        var children: [Node]
    }

    /// An attribute other than a namespace declaration.
    struct Attribute: Sendable, Hashable {
        var namespaceURI: String
        var localName: String
        var qualifiedName: String
        var value: String
    }

    /// The deepest nesting of elements read: libxml2's own default limit (256), kept on every platform so
    /// comparing a tree never recurses deeper.
    static let maximumDepth = 256

    /// Why a text is not a well-formed XML document.
    struct ParseError: Error, Sendable, Hashable {
        /// What is wrong, with the line and column when the parser gave them.
        var message: String
    }

    /// Reads a document.
    ///
    /// - Throws: ``ParseError`` when the text is not one well-formed XML document, declares entities, or nests
    ///   elements deeper than ``maximumDepth``.
    static func parse(_ text: String) throws(ParseError) -> XMLTree {
        if declaresEntities(text) {
            throw ParseError(message: "the document declares entities (<!ENTITY), which pokestub does not expand")
        }
        let builder = Builder()
        let parser = XMLParser(data: Data(XMLTree.spacingEmptyInstructions(text).utf8))
        parser.delegate = builder
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.shouldResolveExternalEntities = false
        let parsed = parser.parse()
        if let failure = builder.failure { throw ParseError(message: failure) }
        // libxml2 may report an error (a mismatched end tag) and still say it parsed: both must agree.
        guard parsed, parser.parserError == nil, builder.open.isEmpty, let root = builder.root else {
            let position = "line \(parser.lineNumber), column \(parser.columnNumber)"
            let reason =
                builder.root == nil && parser.parserError == nil
                ? "no document element" : "not well-formed XML"
            throw ParseError(message: "\(reason) (\(position))")
        }
        return XMLTree(root: root, size: builder.size, depth: builder.depth)
    }

    /// Whether `text` holds an entity declaration, `<!ENTITY` (XML 1.0 §4.2): every entity, including one a
    /// parameter entity declares, needs one written out.
    static func declaresEntities(_ text: String) -> Bool {
        let declaration = Array("<!ENTITY".utf8)
        func search(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard bytes.count >= declaration.count else { return false }
            var index = 0
            let last = bytes.count - declaration.count
            while index <= last {
                if bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "!"),
                    declaration.indices.allSatisfy({ bytes[index + $0] == declaration[$0] })
                {
                    return true
                }
                index += 1
            }
            return false
        }
        if let found = text.utf8.withContiguousStorageIfAvailable(search) { return found }
        return Array(text.utf8).withUnsafeBufferPointer(search)
    }

    /// Builds the tree from the parser's events.
    private final class Builder: NSObject, XMLParserDelegate {
        var open: [Element] = []
        var root: Element?
        var size = 0
        var depth = 0
        var failure: String?
        private var text = ""
        /// Namespace prefixes in scope, innermost last, for the namespaces of prefixed attributes.
        private var prefixes: [(prefix: String, uri: String)] = []

        func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
            prefixes.append((prefix, namespaceURI))
        }

        func parser(_ parser: XMLParser, didEndMappingPrefix prefix: String) {
            if let index = prefixes.lastIndex(where: { $0.prefix == prefix }) { prefixes.remove(at: index) }
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            flushText()
            guard open.count < XMLTree.maximumDepth else {
                failure = "elements nested deeper than \(XMLTree.maximumDepth)"
                parser.abortParsing()
                return
            }
            var read: [Attribute] = []
            for (name, value) in attributes.sorted(by: { $0.key < $1.key }) {
                if name == "xmlns" || name.hasPrefix("xmlns:") { continue }
                let parts = name.split(separator: ":", maxSplits: 1).map(String.init)
                let uri = parts.count == 2 ? prefixes.last(where: { $0.prefix == parts[0] })?.uri ?? "" : ""
                read.append(
                    Attribute(namespaceURI: uri, localName: parts.last ?? name, qualifiedName: name, value: value))
            }
            size += 1 + read.count
            depth = max(depth, open.count + 1)
            open.append(
                Element(
                    localName: elementName, qualifiedName: qualifiedName ?? elementName, attributes: read,
                    children: []))
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            flushText()
            guard let element = open.popLast() else { return }
            if open.isEmpty {
                root = element
            } else {
                open[open.count - 1].children.append(.element(element))
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text += string
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            text += String(decoding: CDATABlock, as: UTF8.self)
        }

        func parser(_ parser: XMLParser, foundProcessingInstructionWithTarget target: String, data: String?) {
            flushText()
            guard !open.isEmpty else { return }  // before or after the document element: not compared
            size += 1
            open[open.count - 1].children.append(.processingInstruction(target + (data.map { " " + $0 } ?? "")))
        }

        /// Text between two markup events becomes one node, trimmed; whitespace alone is dropped.
        private func flushText() {
            defer { text = "" }
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, !open.isEmpty else { return }
            size += 1
            open[open.count - 1].children.append(.text(trimmed))
        }
    }
}
