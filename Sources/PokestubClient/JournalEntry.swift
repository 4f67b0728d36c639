import Foundation

/// One entry of the request journal: a request and what the server did with it (WireMock's serve event, as
/// `GET /__admin/requests` lists it).
public struct JournalEntry: Sendable, Hashable, CustomStringConvertible {
    /// The entry's id.
    public var id: UUID
    /// The request.
    public var request: LoggedRequest
    /// The status sent, when given.
    public var responseStatus: Int?
    /// Whether a stub (or, in-process, a route) answered.
    public var wasMatched: Bool
    /// The id of the stub that answered, when one did.
    public var stubID: UUID?
    /// The name of the stub that answered, when it has one.
    public var stubName: String?

    /// Reads a serve event.
    ///
    /// - Parameter json: The serve-event object: `{"id", "request": {...}, "response": {"status"},
    ///   "wasMatched", "stubMapping": {"id", "name"} | null}`.
    /// - Throws: ``PokestubClientError/invalidJSON(what:reason:)`` when `id` or `request` is missing.
    public init(json: JSONValue) throws(PokestubClientError) {
        guard let text = json["id"]?.stringValue, let id = UUID(uuidString: text), let request = json["request"]
        else {
            throw .invalidJSON(what: "a serve event", reason: "missing UUID \"id\" or \"request\"")
        }
        self.id = id
        self.request = try LoggedRequest(json: request)
        responseStatus = json["response"]?["status"]?.intValue
        wasMatched = json["wasMatched"]?.boolValue ?? false
        stubID = json["stubMapping"]?["id"]?.stringValue.flatMap(UUID.init(uuidString:))
        stubName = json["stubMapping"]?["name"]?.stringValue
    }

    /// `GET /api/v2/pokemon/?limit=20 → 200 (stub "first page")` or `… → 404 (unmatched)`.
    public var description: String {
        let status = responseStatus.map { " → \($0)" } ?? ""
        let answeredBy =
            wasMatched
            ? " (stub \(stubName?.debugDescription ?? stubID?.uuidString.lowercased() ?? "?"))" : " (unmatched)"
        return "\(request)\(status)\(answeredBy)"
    }
}
