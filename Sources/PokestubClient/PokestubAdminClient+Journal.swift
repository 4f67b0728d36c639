import Foundation

extension PokestubAdminClient {
    /// The request journal, newest first (`GET /__admin/requests`). Admin requests are not journaled.
    ///
    /// - Parameters:
    ///   - limit: The most entries to return; all when `nil`.
    ///   - unmatchedOnly: Whether to return only requests no stub answered.
    ///   - since: Only requests received at or after this time.
    /// - Returns: The entries.
    /// - Throws: ``PokestubClientError``.
    public func requests(
        limit: Int? = nil, unmatchedOnly: Bool = false, since: Date? = nil
    ) async throws(PokestubClientError) -> [JournalEntry] {
        var query: [URLQueryItem] = []
        if let limit { query.append(URLQueryItem(name: "limit", value: String(limit))) }
        if unmatchedOnly { query.append(URLQueryItem(name: "unmatched", value: "true")) }
        if let since {
            let text = since.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            query.append(URLQueryItem(name: "since", value: text))
        }
        let answer = try await send("GET", "/requests", query: query)
        return try PokestubAdminClient.list(answer, "requests", method: "GET", url: adminURL("/requests")) {
            (json) throws(PokestubClientError) in try JournalEntry(json: json)
        }
    }

    /// One journal entry (`GET /__admin/requests/{id}`).
    ///
    /// - Parameter id: The entry's id.
    /// - Returns: The entry.
    /// - Throws: ``PokestubClientError``; `refused` with status 404 when there is no such entry.
    public func request(id: UUID) async throws(PokestubClientError) -> JournalEntry {
        try JournalEntry(json: try await send("GET", "/requests/\(id.uuidString.lowercased())"))
    }

    /// Empties the request journal (`DELETE /__admin/requests`).
    ///
    /// - Throws: ``PokestubClientError``.
    public func clearRequests() async throws(PokestubClientError) {
        try await send("DELETE", "/requests")
    }

    /// The journaled requests that match a pattern, oldest first (`POST /__admin/requests/find`).
    ///
    /// - Parameter pattern: The request pattern, e.g. `.get("/api/v2/pokemon/")`.
    /// - Returns: The requests.
    /// - Throws: ``PokestubClientError``; `refused` with status 400 when the server rejects the pattern.
    public func findRequests(_ pattern: RequestPatternBuilder) async throws(PokestubClientError) -> [LoggedRequest] {
        let answer = try await send("POST", "/requests/find", body: pattern.json)
        return try PokestubAdminClient.list(answer, "requests", method: "POST", url: adminURL("/requests/find")) {
            (json) throws(PokestubClientError) in try LoggedRequest(json: json)
        }
    }

    /// How many journaled requests match a pattern (`POST /__admin/requests/count`).
    ///
    /// - Parameter pattern: The request pattern.
    /// - Returns: The count.
    /// - Throws: ``PokestubClientError``.
    public func countRequests(_ pattern: RequestPatternBuilder) async throws(PokestubClientError) -> Int {
        let answer = try await send("POST", "/requests/count", body: pattern.json)
        guard let count = answer["count"]?.intValue else {
            throw .unexpectedResponse(
                method: "POST", url: adminURL("/requests/count"), reason: "no \"count\" number in the answer")
        }
        return count
    }

    /// Removes the journaled requests that match a pattern (`POST /__admin/requests/remove`).
    ///
    /// - Parameter pattern: The request pattern.
    /// - Returns: The requests removed.
    /// - Throws: ``PokestubClientError``.
    @discardableResult
    public func removeRequests(
        _ pattern: RequestPatternBuilder
    ) async throws(PokestubClientError) -> [LoggedRequest] {
        let answer = try await send("POST", "/requests/remove", body: pattern.json)
        return try PokestubAdminClient.list(answer, "requests", method: "POST", url: adminURL("/requests/remove")) {
            (json) throws(PokestubClientError) in try LoggedRequest(json: json)
        }
    }

    /// The requests no stub answered, oldest first (`GET /__admin/requests/unmatched`).
    ///
    /// - Returns: The requests.
    /// - Throws: ``PokestubClientError``.
    public func unmatchedRequests() async throws(PokestubClientError) -> [LoggedRequest] {
        let answer = try await send("GET", "/requests/unmatched")
        return try PokestubAdminClient.list(answer, "requests", method: "GET", url: adminURL("/requests/unmatched")) {
            (json) throws(PokestubClientError) in try LoggedRequest(json: json)
        }
    }

    /// For each of the most recent unmatched requests (the server's default, 100), the stubs that came closest
    /// and how they differ (`GET /__admin/requests/unmatched/near-misses`).
    ///
    /// - Returns: The near misses, grouped by request in journal order, closest stub first.
    /// - Throws: ``PokestubClientError``.
    public func nearMisses() async throws(PokestubClientError) -> [NearMissReport] {
        let path = "/requests/unmatched/near-misses"
        let answer = try await send("GET", path)
        return try PokestubAdminClient.list(answer, "nearMisses", method: "GET", url: adminURL(path)) {
            (json) throws(PokestubClientError) in try NearMissReport(json: json)
        }
    }
}
