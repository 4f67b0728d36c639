/// A test on one text value of a request (a query parameter, a header, the body): a WireMock string value
/// pattern.
///
/// ```swift
/// let team = RequestPatternBuilder.post("/api/v2/team")
///     .withQueryParameter("limit", .equalTo("20"))
///     .withHeader("Accept", .contains("json"))
///     .withRequestBody(.equalToJson(["name": "bulbasaur"], ignoreExtraElements: true))
///     .withRequestBody(.matchesJsonPath("$.team[?(@.name == 'pikachu')]"))
/// ```
///
/// Each matcher is its WireMock JSON (``json``), e.g. `{"equalTo": "20"}` or `{"absent": true}`, so anything the
/// server accepts can also be written with ``init(json:)``.
public struct ValueMatcher: Sendable, Hashable, CustomStringConvertible {
    /// The matcher in WireMock's JSON form, e.g. `{"equalTo": "20"}`.
    public let json: JSONValue

    /// Wraps a matcher written as JSON, for operators without a factory here.
    ///
    /// - Parameter json: One WireMock string value pattern, e.g. `{"doesNotContain": "x"}`.
    public init(json: JSONValue) {
        self.json = json
    }

    /// The value equals `text`: `{"equalTo": text}` (with `"caseInsensitive": true` when asked).
    ///
    /// - Parameters:
    ///   - text: The expected value.
    ///   - caseInsensitive: Whether to compare with case folded.
    /// - Returns: The matcher.
    public static func equalTo(_ text: String, caseInsensitive: Bool = false) -> ValueMatcher {
        caseInsensitive
            ? ValueMatcher(json: ["equalTo": .string(text), "caseInsensitive": true])
            : ValueMatcher(json: ["equalTo": .string(text)])
    }

    /// The value contains `text`: `{"contains": text}`.
    ///
    /// - Parameter text: The text to look for.
    /// - Returns: The matcher.
    public static func contains(_ text: String) -> ValueMatcher {
        ValueMatcher(json: ["contains": .string(text)])
    }

    /// The value does not contain `text` (an absent value passes): `{"doesNotContain": text}`.
    ///
    /// - Parameter text: The text that must not appear.
    /// - Returns: The matcher.
    public static func doesNotContain(_ text: String) -> ValueMatcher {
        ValueMatcher(json: ["doesNotContain": .string(text)])
    }

    /// The whole value matches a regular expression (Java syntax, as WireMock): `{"matches": regex}`.
    ///
    /// - Parameter regex: The expression, e.g. `[0-9]+`.
    /// - Returns: The matcher.
    public static func matches(_ regex: String) -> ValueMatcher {
        ValueMatcher(json: ["matches": .string(regex)])
    }

    /// The whole value does not match a regular expression (an absent value passes): `{"doesNotMatch": regex}`.
    ///
    /// - Parameter regex: The expression.
    /// - Returns: The matcher.
    public static func doesNotMatch(_ regex: String) -> ValueMatcher {
        ValueMatcher(json: ["doesNotMatch": .string(regex)])
    }

    /// The value is absent: `{"absent": true}`.
    public static let absent = ValueMatcher(json: ["absent": true])

    /// The value is present, with any content: `{"absent": false}`.
    public static let present = ValueMatcher(json: ["absent": false])

    /// Any value, present or not: `{"anything": "anything"}`.
    public static let anything = ValueMatcher(json: ["anything": "anything"])

    /// The value is JSON equal to a document: `{"equalToJson": json, "ignoreArrayOrder": …,
    /// "ignoreExtraElements": …}`.
    ///
    /// - Parameters:
    ///   - json: The expected document.
    ///   - ignoreArrayOrder: Whether arrays compare as multisets.
    ///   - ignoreExtraElements: Whether the value's objects may have members the expected ones lack.
    /// - Returns: The matcher.
    public static func equalToJson(
        _ json: JSONValue, ignoreArrayOrder: Bool = false, ignoreExtraElements: Bool = false
    ) -> ValueMatcher {
        var members: [String: JSONValue] = ["equalToJson": json]
        if ignoreArrayOrder { members["ignoreArrayOrder"] = true }
        if ignoreExtraElements { members["ignoreExtraElements"] = true }
        return ValueMatcher(json: .object(members))
    }

    /// The value is JSON equal to a document given as text (WireMock accepts both forms).
    ///
    /// - Parameters:
    ///   - text: The expected document as JSON text, e.g. `#"{"name": "bulbasaur"}"#`. The server parses it
    ///     and rejects the stub or pattern when it is not JSON.
    ///   - ignoreArrayOrder: Whether arrays compare as multisets.
    ///   - ignoreExtraElements: Whether the value's objects may have members the expected ones lack.
    /// - Returns: The matcher.
    public static func equalToJson(
        text: String, ignoreArrayOrder: Bool = false, ignoreExtraElements: Bool = false
    ) -> ValueMatcher {
        equalToJson(.string(text), ignoreArrayOrder: ignoreArrayOrder, ignoreExtraElements: ignoreExtraElements)
    }

    /// The value is JSON in which a JSONPath expression finds something: `{"matchesJsonPath": expression}`.
    ///
    /// - Parameter expression: The JSONPath, e.g. `$.name` or `$.team[?(@.level > 5)]`.
    /// - Returns: The matcher.
    public static func matchesJsonPath(_ expression: String) -> ValueMatcher {
        ValueMatcher(json: ["matchesJsonPath": .string(expression)])
    }

    /// The value is JSON in which a JSONPath expression finds something that passes another matcher:
    /// `{"matchesJsonPath": {"expression": expression, "equalTo": "bulbasaur"}}`.
    ///
    /// - Parameters:
    ///   - expression: The JSONPath, e.g. `$.name`.
    ///   - matcher: The test for what the expression finds.
    /// - Returns: The matcher.
    public static func matchesJsonPath(_ expression: String, _ matcher: ValueMatcher) -> ValueMatcher {
        var members = matcher.json.objectValue ?? [:]
        members["expression"] = .string(expression)
        return ValueMatcher(json: ["matchesJsonPath": .object(members)])
    }

    /// Every matcher passes: `{"and": [...]}`.
    ///
    /// - Parameter matchers: The matchers; at least one.
    /// - Returns: The matcher.
    public static func and(_ matchers: ValueMatcher...) -> ValueMatcher {
        ValueMatcher(json: ["and": .array(matchers.map(\.json))])
    }

    /// At least one matcher passes: `{"or": [...]}`, e.g. `.or(.absent, .equalTo("0"))`.
    ///
    /// - Parameter matchers: The matchers; at least one.
    /// - Returns: The matcher.
    public static func or(_ matchers: ValueMatcher...) -> ValueMatcher {
        ValueMatcher(json: ["or": .array(matchers.map(\.json))])
    }

    /// The values of a query parameter or header field pair one to one with the matchers, in any order:
    /// `{"hasExactly": [...]}` (WireMock 3), e.g. `.hasExactly(.equalTo("1"), .equalTo("2"))` passes `?id=2&id=1`
    /// but not `?id=1` or `?id=1&id=2&id=3`. For query parameters and headers only, not bodies.
    ///
    /// - Parameter matchers: The matchers, one per value; at least one.
    /// - Returns: The matcher.
    public static func hasExactly(_ matchers: ValueMatcher...) -> ValueMatcher {
        ValueMatcher(json: ["hasExactly": .array(matchers.map(\.json))])
    }

    /// Each matcher passes some value of a query parameter or header field; other values may be present:
    /// `{"includes": [...]}` (WireMock 3). For query parameters and headers only, not bodies.
    ///
    /// - Parameter matchers: The matchers; at least one.
    /// - Returns: The matcher.
    public static func includes(_ matchers: ValueMatcher...) -> ValueMatcher {
        ValueMatcher(json: ["includes": .array(matchers.map(\.json))])
    }

    /// The matcher in words, as failures print it: `equalTo "20"`, `absent`, `matchesJsonPath "$.name"`.
    public var description: String {
        ValueMatcher.summary(json)
    }

    static func summary(_ json: JSONValue) -> String {
        guard let members = json.objectValue else { return json.serializedString() }
        if members["absent"] == true { return "absent" }
        if members["absent"] == false { return "present" }
        if members["anything"] != nil { return "anything" }
        for name in ["and", "or", "hasExactly", "includes"] {
            if let parts = members[name]?.arrayValue {
                return name + "(" + parts.map(summary).joined(separator: ", ") + ")"
            }
        }
        if let path = members["matchesJsonPath"] {
            if let expression = path.stringValue { return "matchesJsonPath \(expression.debugDescription)" }
            var inner = path.objectValue ?? [:]
            let expression = inner.removeValue(forKey: "expression")?.stringValue ?? "?"
            return "matchesJsonPath \(expression.debugDescription) with \(summary(.object(inner)))"
        }
        if let document = members["equalToJson"] {
            let text = document.stringValue ?? document.serializedString()
            var options: [String] = []
            if members["ignoreArrayOrder"] == true { options.append("ignoring array order") }
            if members["ignoreExtraElements"] == true { options.append("ignoring extra elements") }
            return "equalToJson \(text)" + (options.isEmpty ? "" : " (" + options.joined(separator: ", ") + ")")
        }
        for name in ["equalTo", "contains", "doesNotContain", "matches", "doesNotMatch"] {
            if let operand = members[name] {
                let text = operand.stringValue ?? operand.serializedString()
                let folded = name == "equalTo" && members["caseInsensitive"] == true ? " (case-insensitive)" : ""
                return "\(name) \(text.debugDescription)\(folded)"
            }
        }
        return json.serializedString()
    }
}
