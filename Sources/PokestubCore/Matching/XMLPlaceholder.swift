import Foundation

/// An XMLUnit placeholder in an `equalToXml` document with `enablePlaceholders`: an expected text or attribute
/// value that is, as a whole, `${xmlunit.KEYWORD}` or `${xmlunit.KEYWORD(ARGUMENT)}` between the delimiters
/// (XMLUnit 2's `PlaceholderDifferenceEvaluator`, which WireMock 2.35 uses; `id-${xmlunit.ignore}` is plain
/// text there, checked against its jar).
enum XMLPlaceholder: Sendable, Hashable {
    /// `${xmlunit.ignore}`: any value, or none.
    case ignore
    /// `${xmlunit.isNumber}`: a decimal number.
    case isNumber
    /// `${xmlunit.matchesRegex(REGEX)}`: the whole value matches.
    case matchesRegex(StubRegex)
    /// `${xmlunit.isDateTime}`: an ISO 8601 date or date-time.
    case isDateTime

    /// Whether no value at all passes (only `ignore`).
    var acceptsAbsence: Bool { self == .ignore }

    /// Whether a value passes.
    func accepts(_ value: String) -> Bool {
        switch self {
        case .ignore: return true
        case .isNumber: return Double(value.trimmingCharacters(in: .whitespaces)) != nil
        case .matchesRegex(let regex): return regex.matches(value)
        case .isDateTime: return XMLPlaceholder.isDateTime(value)
        }
    }

    /// `${xmlunit.isNumber}`, for near misses.
    var summary: String {
        switch self {
        case .ignore: "${xmlunit.ignore}"
        case .isNumber: "${xmlunit.isNumber}"
        case .matchesRegex(let regex): "${xmlunit.matchesRegex(\(regex.pattern))}"
        case .isDateTime: "${xmlunit.isDateTime}"
        }
    }

    private static func isDateTime(_ value: String) -> Bool {
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds], [.withFullDate],
        ] {
            formatter.formatOptions = options
            if formatter.date(from: value) != nil { return true }
        }
        return false
    }

    /// Every placeholder the texts and attribute values of `tree` spell, by the text that spells it.
    ///
    /// - Parameters:
    ///   - opening: The opening delimiter as a regular expression (`\$\{` by default).
    ///   - closing: The closing delimiter as a regular expression (`\}` by default).
    /// - Throws: ``StubDefinitionError`` for a delimiter that does not compile, an unknown keyword or a
    ///   `matchesRegex` argument that does not compile.
    static func all(in tree: XMLTree, opening: String, closing: String) throws(StubDefinitionError) -> [String: Self] {
        let syntax: NSRegularExpression
        do {
            syntax = try NSRegularExpression(
                pattern: #"\A\s*(?:"# + opening + #")\s*xmlunit\.([A-Za-z]+)(?:\((.*)\))?\s*(?:"# + closing
                    + #")\s*\z"#,
                options: [.dotMatchesLineSeparators])
        } catch {
            throw StubDefinitionError(
                "the placeholder delimiters \(opening.debugDescription) and \(closing.debugDescription) are not regular expressions",
                keyPath: ["placeholderOpeningDelimiterRegex"])
        }
        var found: [String: Self] = [:]
        var texts: [String] = []
        func collect(_ element: XMLTree.Element) {
            texts += element.attributes.map(\.value)
            for child in element.children {
                switch child {
                case .element(let inner): collect(inner)
                case .text(let text): texts.append(text)
                case .processingInstruction: break
                }
            }
        }
        collect(tree.root)
        for text in texts where found[text] == nil {
            let range = NSRange(text.startIndex..<text.endIndex, in: text)
            guard let match = syntax.firstMatch(in: text, range: range),
                let keywordRange = Range(match.range(at: 1), in: text)
            else { continue }
            let argument = Range(match.range(at: 2), in: text).map { String(text[$0]) }
            switch text[keywordRange] {
            case "ignore": found[text] = .ignore
            case "isNumber": found[text] = .isNumber
            case "isDateTime": found[text] = .isDateTime
            case "matchesRegex":
                do { found[text] = .matchesRegex(try StubRegex(argument ?? "")) } catch {
                    throw StubDefinitionError(
                        "placeholder \(text.debugDescription): \(error.message)", keyPath: ["equalToXml"])
                }
            default:
                throw StubDefinitionError(
                    "unsupported placeholder \(text.debugDescription) (supported: xmlunit.ignore, xmlunit.isNumber, xmlunit.matchesRegex(…), xmlunit.isDateTime)",
                    keyPath: ["equalToXml"])
            }
        }
        return found
    }
}
