/// Anything that can be turned into one WireMock stub mapping: a ``StubBuilder``, a `JSONValue` object, or JSON
/// text in a `String`.
///
/// Lets one list mix styles:
///
/// ```swift
/// let mappings: [any StubMappingConvertible] = [
///     StubBuilder.get("/api/v2/pokemon/1/").willReturn(.file("pokemon/1.json")),
///     #"{"request": {"method": "GET", "urlPath": "/api/v2/type/1/"}, "response": {"status": 404}}"#,
/// ]
/// ```
public protocol StubMappingConvertible: Sendable {
    /// The stub mapping as JSON: an object with `request` and `response` (and optionally `id`, `name`,
    /// `priority`, `metadata`).
    ///
    /// - Returns: The mapping.
    /// - Throws: ``PokestubClientError/invalidJSON(what:reason:)`` when the value is not a JSON object.
    func stubMappingJSON() throws(PokestubClientError) -> JSONValue
}

extension JSONValue: StubMappingConvertible {
    /// The value itself, when it is an object.
    ///
    /// - Returns: The mapping.
    /// - Throws: ``PokestubClientError/invalidJSON(what:reason:)`` when the value is not an object.
    public func stubMappingJSON() throws(PokestubClientError) -> JSONValue {
        guard case .object = self else {
            throw .invalidJSON(what: "a stub mapping", reason: "expected an object with request and response")
        }
        return self
    }
}

extension String: StubMappingConvertible {
    /// The string parsed as JSON text, which must be an object.
    ///
    /// - Returns: The mapping.
    /// - Throws: ``PokestubClientError/invalidJSON(what:reason:)`` when the text is not a JSON object.
    public func stubMappingJSON() throws(PokestubClientError) -> JSONValue {
        try JSONValue(parsing: self, what: "a stub mapping").stubMappingJSON()
    }
}
