/// What `GET /__admin/health` reports.
///
/// The JSON: `{"status": "healthy" | "degraded", "version", "mode", "baseUrl", "stubs", "stubWarnings",
/// "journal": {"entries", "maxEntries"}, "uptimeInSeconds", "message"}`; fields this type does not name stay in
/// ``json``.
public struct HealthStatus: Sendable, Hashable {
    /// `healthy`, or `degraded` when the last reload of the stub files failed or left a file out.
    public var status: String
    /// The server's version, e.g. `0.2.0`.
    public var version: String?
    /// The serve mode, e.g. `replay`.
    public var mode: String?
    /// The number of stubs served.
    public var stubCount: Int?
    /// The number of warnings of the last load: problems of stubs that answer 500 naming them (a feature
    /// pokestub lacks, a body file it cannot serve).
    public var stubWarnings: Int?
    /// The number of entries in the request journal.
    public var journalEntries: Int?
    /// A sentence for people, when given.
    public var message: String?
    /// Everything the server said.
    public var json: JSONValue

    /// Whether the status is `healthy`.
    public var isHealthy: Bool { status == "healthy" }

    /// Reads a health report.
    ///
    /// - Parameter json: The report.
    /// - Throws: ``PokestubClientError/invalidJSON(what:reason:)`` when `status` is missing.
    public init(json: JSONValue) throws(PokestubClientError) {
        guard let status = json["status"]?.stringValue else {
            throw .invalidJSON(what: "a health report", reason: "missing \"status\"")
        }
        self.status = status
        version = json["version"]?.stringValue
        mode = json["mode"]?.stringValue
        stubCount = json["stubs"]?.intValue
        stubWarnings = json["stubWarnings"]?.intValue
        journalEntries = json["journal"]?["entries"]?.intValue
        message = json["message"]?.stringValue
        self.json = json
    }
}
