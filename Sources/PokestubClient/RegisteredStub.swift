import Foundation

/// A stub the server holds, as `GET /__admin/mappings` lists it.
public struct RegisteredStub: Sendable, Hashable {
    /// The stub's id.
    public var id: UUID
    /// Its name, when it has one.
    public var name: String?
    /// Its priority (1 is highest; the server's default, 5, when the mapping gives none).
    public var priority: Int
    /// The whole mapping as the server shows it: `id`, `request`, `response`, and the rest.
    public var json: JSONValue

    /// The `request` object of the mapping, or `null`.
    public var request: JSONValue { json["request"] ?? .null }
    /// The `response` object of the mapping, or `null`.
    public var response: JSONValue { json["response"] ?? .null }

    /// Reads a mapping as the admin API returns it.
    ///
    /// - Parameter json: The mapping object; it must have a UUID `id`.
    /// - Throws: ``PokestubClientError/invalidJSON(what:reason:)`` when `id` is missing or not a UUID.
    public init(json: JSONValue) throws(PokestubClientError) {
        guard let text = json["id"]?.stringValue ?? json["uuid"]?.stringValue, let id = UUID(uuidString: text) else {
            throw .invalidJSON(what: "a stub mapping from the server", reason: "no UUID \"id\"")
        }
        self.id = id
        name = json["name"]?.stringValue
        priority = json["priority"]?.intValue ?? 5
        self.json = json
    }
}
