/// A test on one text value (a query parameter, a header, a body): WireMock's string value patterns.
///
/// In JSON a pattern is an object with one operator key and its options, e.g.
/// `{"equalTo": "20"}`, `{"matches": "[0-9]+"}`, `{"absent": true}`,
/// `{"equalToJson": {...}, "ignoreArrayOrder": true}`, `{"or": [{"absent": true}, {"equalTo": "0"}]}`.
package indirect enum StringValuePattern: Sendable, Hashable {
    /// Equal to the text; `caseInsensitive` compares with case folded.
    case equalTo(String, caseInsensitive: Bool)
    /// Contains the text.
    case contains(String)
    /// Does not contain the text (an absent value passes).
    case doesNotContain(String)
    /// The whole value matches the regular expression.
    case matches(StubRegex)
    /// The whole value does not match the regular expression (an absent value passes).
    case doesNotMatch(StubRegex)
    /// The value is absent (`true`) or present with any content (`false`).
    case absent(Bool)
    /// Any value, present or not.
    case anything
    /// The value is JSON equal to this document. `ignoreArrayOrder` compares arrays as multisets;
    /// `ignoreExtraElements` lets the value's objects have members the expected one lacks.
    case equalToJson(JSONValue, ignoreArrayOrder: Bool, ignoreExtraElements: Bool)
    /// The value is JSON and the JSONPath expression finds something, optionally something that passes
    /// `valuePattern`.
    case matchesJsonPath(JSONPath, valuePattern: StringValuePattern?)
    /// The value is an XML document equal to this one (``EqualToXmlPattern``).
    case equalToXml(EqualToXmlPattern)
    /// The value is an XML document in which the XPath selects something (``MatchesXPathPattern``).
    case matchesXPath(MatchesXPathPattern)
    /// Every pattern passes.
    case and([StringValuePattern])
    /// At least one pattern passes.
    case or([StringValuePattern])

    /// The operator names the loader accepts, for error messages.
    package static let operators = [
        "equalTo", "contains", "doesNotContain", "matches", "doesNotMatch", "absent", "anything",
        "equalToJson", "matchesJsonPath", "equalToXml", "matchesXPath", "and", "or",
    ]

    /// Whether the pattern passes for a value.
    ///
    /// Text compares by Unicode scalars (as UTF-8 bytes), never by Swift's canonical equivalence: a decomposed
    /// `é` (`e` + U+0301) is not equal to a precomposed one (U+00E9), as in WireMock (Java's `String.equals`).
    ///
    /// - Parameter value: The value, or `nil` when absent (a missing header or query parameter).
    package func matches(_ value: String?) -> Bool {
        switch self {
        case .absent(let wanted):
            return wanted ? value == nil : value != nil
        case .anything:
            return true
        case .doesNotContain(let text):
            return value.map { !$0.containsScalars(text) } ?? true
        case .doesNotMatch(let regex):
            return value.map { !regex.matches($0) } ?? true
        case .and(let patterns):
            return patterns.allSatisfy { $0.matches(value) }
        case .or(let patterns):
            return patterns.contains { $0.matches(value) }
        default:
            break
        }
        guard let value else { return false }
        switch self {
        case .equalTo(let expected, let caseInsensitive):
            return caseInsensitive
                ? value.lowercased().hasSameUTF8(as: expected.lowercased())
                : value.hasSameUTF8(as: expected)
        case .contains(let text):
            return value.containsScalars(text)
        case .matches(let regex):
            return regex.matches(value)
        case .equalToJson(let expected, let ignoreArrayOrder, let ignoreExtraElements):
            guard let actual = MatchBudget.json(of: value, pattern: "equalToJson") else { return false }
            return JSONComparison.equal(
                expected: expected, actual: actual, ignoreArrayOrder: ignoreArrayOrder,
                ignoreExtraElements: ignoreExtraElements)
        case .matchesJsonPath(let path, let valuePattern):
            guard let document = MatchBudget.json(of: value, pattern: "matchesJsonPath \(path.expression)") else {
                return false
            }
            let found = path.select(in: document)
            guard let valuePattern else {
                return found.contains { $0.kind != .null && !($0.kind == .array && $0.count == 0) }
            }
            return found.contains { valuePattern.matches($0.stringValue ?? $0.materialized().serializedString()) }
        case .equalToXml(let pattern):
            return pattern.matches(value)
        case .matchesXPath(let pattern):
            return pattern.matches(value)
        default:
            return false
        }
    }

    /// How far a value is from passing, from 0 (passes) to 1 (nothing alike), for near misses.
    package func distance(_ value: String?) -> Double {
        if matches(value) { return 0 }
        switch self {
        case .equalTo(let expected, _):
            return value.map { Levenshtein.normalizedDistance(expected, $0) } ?? 1
        case .contains(let text):
            return value.map { min(1, Levenshtein.normalizedDistance(text, $0) + 0.1) } ?? 1
        case .equalToXml(let pattern):
            return pattern.explain(value).distance
        case .matchesXPath(let pattern):
            return pattern.explain(value).distance
        case .or(let patterns):
            // As close as the closest alternative: `or(absent, equalTo "20")` against "21" is nearly there.
            return patterns.map { $0.distance(value) }.min() ?? 1
        case .and(let patterns):
            return patterns.isEmpty ? 1 : patterns.map { $0.distance(value) }.reduce(0, +) / Double(patterns.count)
        default:
            return 1
        }
    }

    /// What the pattern expects, in words, for near-miss reports: `equalTo "20"`.
    package var summary: String {
        switch self {
        case .equalTo(let text, let caseInsensitive):
            "equalTo \(text.debugDescription)\(caseInsensitive ? " (case-insensitive)" : "")"
        case .contains(let text): "contains \(text.debugDescription)"
        case .doesNotContain(let text): "doesNotContain \(text.debugDescription)"
        case .matches(let regex): "matches \(regex.pattern.debugDescription)"
        case .doesNotMatch(let regex): "doesNotMatch \(regex.pattern.debugDescription)"
        case .absent(let absent): absent ? "absent" : "present"
        case .anything: "anything"
        case .equalToJson(let json, _, _): "equalToJson \(json.serializedString())"
        case .matchesJsonPath(let path, let pattern):
            "matchesJsonPath \(path.expression.debugDescription)" + (pattern.map { " with \($0.summary)" } ?? "")
        case .equalToXml(let pattern): pattern.summary
        case .matchesXPath(let pattern): pattern.summary
        case .and(let patterns): "and(" + patterns.map(\.summary).joined(separator: ", ") + ")"
        case .or(let patterns): "or(" + patterns.map(\.summary).joined(separator: ", ") + ")"
        }
    }

    /// Why a value does not pass, beyond the summary, for the patterns that can say (the first XML difference,
    /// the nodes an XPath selected); `nil` for the others or when it passes.
    package func mismatchDetail(_ value: String?) -> String? {
        switch self {
        case .equalToXml(let pattern): pattern.explain(value).detail
        case .matchesXPath(let pattern): pattern.explain(value).detail
        default: nil
        }
    }
}

// MARK: - Reading and writing the JSON form

extension StringValuePattern {
    /// Reads a `bodyPatterns` array (a request pattern's, or a multipart part's), each pattern as
    /// ``init(json:)`` reads it.
    ///
    /// - Throws: ``StubDefinitionError`` under `bodyPatterns` (or `bodyPatterns[n]`) for a value that is not an
    ///   array of patterns.
    static func bodyPatterns(from value: JSONValue) throws(StubDefinitionError) -> [StringValuePattern] {
        guard case .array(let items) = value else {
            throw StubDefinitionError("must be an array of patterns", keyPath: ["bodyPatterns"])
        }
        var patterns: [StringValuePattern] = []
        for (index, item) in items.enumerated() {
            do { patterns.append(try StringValuePattern(json: item)) } catch {
                throw error.nested(under: "bodyPatterns[\(index)]")
            }
        }
        return patterns
    }

    /// Reads a pattern from its JSON form.
    ///
    /// - Throws: ``StubDefinitionError`` for an unknown operator, a wrong value type or a bad regex.
    package init(json: JSONValue) throws(StubDefinitionError) {
        var object = try StrictObject(json, what: "a value pattern")
        let present = StringValuePattern.operators.filter { object.keys.contains($0) }
        guard present.count == 1, let name = present.first else {
            if present.isEmpty {
                let first = object.keys.sorted().first
                let refusal = first.flatMap { WireMockFeatures.refusal($0, in: WireMockFeatures.matchers) }
                let found = refusal ?? first.map { "unsupported matcher \"\($0)\"" } ?? "empty pattern"
                throw StubDefinitionError(
                    "\(found) (supported: \(StringValuePattern.operators.joined(separator: ", ")))",
                    keyPath: first.map { [$0] } ?? [], failsWhenHit: refusal != nil)
            }
            throw StubDefinitionError("a pattern takes exactly one of \(present.joined(separator: ", "))")
        }
        var supported = [name]
        switch name {
        case "equalTo":
            let text = try StringValuePattern.text(object.take(name), key: name)
            supported.append("caseInsensitive")
            self = .equalTo(text, caseInsensitive: try object.bool("caseInsensitive") ?? false)
        case "contains":
            self = .contains(try StringValuePattern.text(object.take(name), key: name))
        case "doesNotContain":
            self = .doesNotContain(try StringValuePattern.text(object.take(name), key: name))
        case "matches":
            let pattern = try StringValuePattern.text(object.take(name), key: name)
            do { self = .matches(try StubRegex(pattern)) } catch { throw error.nested(under: name) }
        case "doesNotMatch":
            let pattern = try StringValuePattern.text(object.take(name), key: name)
            do { self = .doesNotMatch(try StubRegex(pattern)) } catch { throw error.nested(under: name) }
        case "absent":
            self = .absent(try object.bool(name) ?? true)
        case "anything":
            _ = object.take(name)
            self = .anything
        case "equalToJson":
            supported += ["ignoreArrayOrder", "ignoreExtraElements"]
            var expected = object.take(name) ?? .null
            // WireMock accepts the document inline or as a string holding JSON.
            if case .string(let text) = expected {
                do { expected = try JSONValue.parse(text) } catch {
                    throw StubDefinitionError("is a string but not valid JSON: \(error.message)", keyPath: [name])
                }
            }
            self = .equalToJson(
                expected, ignoreArrayOrder: try object.bool("ignoreArrayOrder") ?? false,
                ignoreExtraElements: try object.bool("ignoreExtraElements") ?? false)
        case "matchesJsonPath":
            let value = object.take(name) ?? .null
            switch value {
            case .string(let expression):
                do { self = .matchesJsonPath(try JSONPath(expression), valuePattern: nil) } catch {
                    throw error.nested(under: name)
                }
            case .object(var members):
                guard case .string(let expression)? = members.removeValue(forKey: "expression") else {
                    throw StubDefinitionError("needs a string \"expression\"", keyPath: [name])
                }
                do {
                    self = .matchesJsonPath(
                        try JSONPath(expression), valuePattern: try StringValuePattern(json: .object(members)))
                } catch { throw error.nested(under: name) }
            default:
                throw StubDefinitionError("must be a JSONPath string or an object", keyPath: [name])
            }
        case "equalToXml":
            let expected = try StringValuePattern.text(object.take(name), key: name)
            supported += EqualToXmlPattern.optionNames
            self = .equalToXml(try EqualToXmlPattern(expected: expected, reading: &object))
        case "matchesXPath":
            supported.append("xPathNamespaces")
            self = .matchesXPath(try MatchesXPathPattern(reading: &object))
        default:  // "and", "or"
            let patterns = try StringValuePattern.patterns(object.take(name), under: name)
            self = name == "and" ? .and(patterns) : .or(patterns)
        }
        try object.rejectUnknown(supported: supported)
    }

    private static func text(_ value: JSONValue?, key: String) throws(StubDefinitionError) -> String {
        switch value {
        case .string(let text): return text
        case .integer, .double, .bool: return value!.textForMatching
        default: throw StubDefinitionError("must be a string", keyPath: [key])
        }
    }

    /// The JSON form, as WireMock writes it.
    package var json: JSONValue {
        switch self {
        case .equalTo(let text, let caseInsensitive):
            caseInsensitive
                ? .object(["equalTo": .string(text), "caseInsensitive": .bool(true)])
                : .object(["equalTo": .string(text)])
        case .contains(let text): .object(["contains": .string(text)])
        case .doesNotContain(let text): .object(["doesNotContain": .string(text)])
        case .matches(let regex): .object(["matches": .string(regex.pattern)])
        case .doesNotMatch(let regex): .object(["doesNotMatch": .string(regex.pattern)])
        case .absent(let absent): .object(["absent": .bool(absent)])
        case .anything: .object(["anything": .string("anything")])
        case .equalToJson(let json, let ignoreArrayOrder, let ignoreExtraElements):
            .object([
                "equalToJson": json, "ignoreArrayOrder": .bool(ignoreArrayOrder),
                "ignoreExtraElements": .bool(ignoreExtraElements),
            ])
        case .matchesJsonPath(let path, nil): .object(["matchesJsonPath": .string(path.expression)])
        case .matchesJsonPath(let path, let pattern?):
            .object([
                "matchesJsonPath": .object(
                    (pattern.json.objectValue ?? [:]).merging(["expression": .string(path.expression)]) { $1 })
            ])
        case .equalToXml(let pattern): pattern.json
        case .matchesXPath(let pattern): pattern.json
        case .and(let patterns): .object(["and": .array(patterns.map(\.json))])
        case .or(let patterns): .object(["or": .array(patterns.map(\.json))])
        }
    }
}

extension JSONValue {
    /// The value as text to match: strings as they are, everything else as compact JSON.
    var textForMatching: String {
        if case .string(let text) = self { return text }
        return serializedString()
    }
}

extension StringValuePattern {
    /// The patterns of an operator that takes a list of them (`and`, `or`, `hasExactly`, `includes`).
    ///
    /// - Throws: ``StubDefinitionError`` when `value` is not a non-empty array of patterns, naming `name` and
    ///   the index of a pattern that does not read.
    static func patterns(_ value: JSONValue?, under name: String) throws(StubDefinitionError) -> [StringValuePattern] {
        guard case .array(let items)? = value, !items.isEmpty else {
            throw StubDefinitionError("must be a non-empty array of patterns", keyPath: [name])
        }
        var patterns: [StringValuePattern] = []
        for (index, item) in items.enumerated() {
            do { patterns.append(try StringValuePattern(json: item)) } catch {
                throw error.nested(under: "\(name)[\(index)]")
            }
        }
        return patterns
    }
}
