import Foundation

/// An unmatched request and a stub that came close, with the fields that differ: an entry of
/// `GET /__admin/requests/unmatched/near-misses`.
public struct NearMissReport: Sendable, Hashable, CustomStringConvertible {
    /// The unmatched request.
    public var request: LoggedRequest
    /// The stub that came close, as the server shows it, when given.
    public var stub: JSONValue?
    /// How far the request is from the stub, from 0 (matches) to 1 (nothing alike).
    public var distance: Double?
    /// The differences in words, e.g. `query parameter limit: expected equalTo "20", got "21"`.
    public var differences: [String]
    /// What the request does wrong against the API's contract, one line each, e.g. `PokeAPI v2 has no endpoint
    /// /api/v2/pokemons/1; the closest is /api/v2/pokemon/{id}/ (/api/v2/pokemon/1/)` (`contractHints`).
    public var contractHints: [String]

    /// Reads a near miss.
    ///
    /// - Parameter json: `{"request": {...}, "stubMapping": {...}, "matchResult": {"distance": 0.2},
    ///   "differences": ["..."], "contractHints": ["..."]}` (`contractHints` only when there are any).
    /// - Throws: ``PokestubClientError/invalidJSON(what:reason:)`` when `request` is missing.
    public init(json: JSONValue) throws(PokestubClientError) {
        guard let request = json["request"] else {
            throw .invalidJSON(what: "a near miss", reason: "missing \"request\"")
        }
        self.request = try LoggedRequest(json: request)
        stub = json["stubMapping"]
        distance = json["matchResult"]?["distance"]?.doubleValue
        differences = json["differences"]?.arrayValue?.compactMap(\.stringValue) ?? []
        contractHints = json["contractHints"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// The stub in words: its name, else its method and URL.
    public var stubSummary: String {
        guard let stub else { return "no stub" }
        if let name = stub["name"]?.stringValue { return "stub \(name.debugDescription)" }
        let request = stub["request"]
        let url =
            ["url", "urlPath", "urlPattern", "urlPathPattern", "urlPathTemplate"].lazy.compactMap {
                request?[$0]?.stringValue
            }.first ?? "any URL"
        return "stub \(request?["method"]?.stringValue ?? "ANY") \(url)"
    }

    /// `GET /x is closest to stub "y":` followed by one indented line per contract hint, then per difference.
    public var description: String {
        let lines = ["\(request) is closest to \(stubSummary):"] + contractHints.map { "  \($0)" }
        return (lines + differences.map { "  \($0)" }).joined(separator: "\n")
    }
}
