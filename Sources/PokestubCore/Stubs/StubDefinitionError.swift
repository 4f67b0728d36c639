/// A stub mapping that does not follow the supported format.
package struct StubDefinitionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the mapping the problem is, as a dotted key path (`request.queryParameters.limit`).
    package var keyPath: [String]
    /// What is wrong.
    package var message: String
    /// Whether WireMock 2.35 loads a mapping with this problem and fails only when its stub is hit: a feature
    /// pokestub lacks (``WireMockFeatures``, a transformer other than `response-template`), a response template
    /// that does not parse (WireMock compiles templates per request), or a body file pokestub cannot serve
    /// (missing, absolute, outside `__files`; WireMock reads body files per request). Unless `strict`, the
    /// loader loads such a stub and it answers 500 naming the problem (``StubLoader``); any other problem
    /// keeps its file from loading, as it keeps WireMock from starting.
    package var failsWhenHit: Bool

    /// Creates an error at the root of the mapping.
    ///
    /// - Parameters:
    ///   - message: What is wrong.
    ///   - keyPath: Where, from the mapping's root.
    ///   - failsWhenHit: Whether WireMock loads the mapping and fails only when it is hit (``failsWhenHit``).
    package init(_ message: String, keyPath: [String] = [], failsWhenHit: Bool = false) {
        self.message = message
        self.keyPath = keyPath
        self.failsWhenHit = failsWhenHit
    }

    /// The key path joined with dots.
    package var field: String { keyPath.joined(separator: ".") }

    package var description: String {
        keyPath.isEmpty ? message : "\(field): \(message)"
    }

    /// The same error seen from an enclosing key.
    func nested(under key: String) -> StubDefinitionError {
        StubDefinitionError(message, keyPath: [key] + keyPath, failsWhenHit: failsWhenHit)
    }

    /// The same error, as one WireMock 2.35 loads the mapping with and fails on only when it is hit.
    func failingWhenHit() -> StubDefinitionError {
        StubDefinitionError(message, keyPath: keyPath, failsWhenHit: true)
    }
}

/// Reads a JSON object field by field and reports fields nobody read, so an unsupported field is an error
/// and never silently ignored.
struct StrictObject {
    private let members: [String: JSONValue]
    /// The members read, each once. A list: an object has a few members, and comparing a few short names costs
    /// less than hashing each (hashing was a tenth of the instructions of loading the shipped stubs).
    private var consumed: [String] = []

    init(_ value: JSONValue, what: String) throws(StubDefinitionError) {
        guard case .object(let members) = value else {
            throw StubDefinitionError("\(what) must be a JSON object, not \(value.typeName)")
        }
        self.members = members
    }

    var keys: Dictionary<String, JSONValue>.Keys { members.keys }

    /// The member named `key`, marked as read; `nil` when it is absent or `null`. Only members present are
    /// remembered (what ``rejectUnknown(supported:)`` needs): a loader asks for every field it knows, most of them absent.
    mutating func take(_ key: String) -> JSONValue? {
        guard let value = member(key) else { return nil }
        if !consumed.contains(key) { consumed.append(key) }
        return value == .null ? nil : value
    }

    /// The member named `key`. In an object of a few members the names are compared one by one: a loader
    /// asks for every field it knows, most of them absent, and hashing each name it asks for cost more than
    /// comparing it with the few there are (a lookup in a mapping's dictionaries hashed the name: 8% of the
    /// instructions of loading the shipped stubs). Names compare as the dictionary compares them.
    private func member(_ key: String) -> JSONValue? {
        guard members.count <= StrictObject.membersComparedOneByOne else { return members[key] }
        for (name, value) in members where name == key { return value }
        return nil
    }

    /// Up to how many members a lookup compares names rather than hashing.
    private static let membersComparedOneByOne = 8

    mutating func string(_ key: String) throws(StubDefinitionError) -> String? {
        guard let value = take(key) else { return nil }
        guard case .string(let string) = value else {
            throw StubDefinitionError("must be a string, not \(value.typeName)", keyPath: [key])
        }
        return string
    }

    mutating func int(_ key: String) throws(StubDefinitionError) -> Int? {
        guard let value = take(key) else { return nil }
        guard let int = value.intValue else {
            throw StubDefinitionError("must be a whole number, not \(value.typeName)", keyPath: [key])
        }
        return int
    }

    mutating func bool(_ key: String) throws(StubDefinitionError) -> Bool? {
        guard let value = take(key) else { return nil }
        guard case .bool(let bool) = value else {
            throw StubDefinitionError("must be true or false, not \(value.typeName)", keyPath: [key])
        }
        return bool
    }

    mutating func object(_ key: String) throws(StubDefinitionError) -> [String: JSONValue]? {
        guard let value = take(key) else { return nil }
        guard case .object(let members) = value else {
            throw StubDefinitionError("must be a JSON object, not \(value.typeName)", keyPath: [key])
        }
        return members
    }

    /// Throws for the first field that was never read, naming the fields that are supported.
    func rejectUnknown(supported: [String]) throws(StubDefinitionError) {
        // Only members present are consumed, each once: when as many were read as there are, none is unknown.
        guard consumed.count < members.count else { return }
        if let unknown = members.keys.sorted().first(where: { !consumed.contains($0) }) {
            if let refusal = WireMockFeatures.refusal(unknown, in: WireMockFeatures.fields) {
                throw StubDefinitionError(refusal, keyPath: [unknown], failsWhenHit: true)
            }
            throw StubDefinitionError(
                "unsupported field \"\(unknown)\" (supported here: \(supported.joined(separator: ", ")))",
                keyPath: [unknown])
        }
    }
}
