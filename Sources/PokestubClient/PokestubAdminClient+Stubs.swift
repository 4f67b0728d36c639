import Foundation

extension PokestubAdminClient {
    /// Adds a stub (`POST /__admin/mappings`). A stub with the same id is replaced.
    ///
    /// ```swift
    /// try await admin.addStub(StubBuilder.get("/api/v2/pokemon/25/").willReturn(.file("pokemon/25.json")))
    /// ```
    ///
    /// - Parameter stub: A ``StubBuilder``, a `JSONValue` mapping or mapping JSON text.
    /// - Returns: The stub as the server holds it, with its id.
    /// - Throws: ``PokestubClientError``; `refused` with status 400 naming the field when the server rejects
    ///   the mapping (an unsupported matcher, a missing body file, …).
    @discardableResult
    public func addStub(_ stub: some StubMappingConvertible) async throws(PokestubClientError) -> RegisteredStub {
        let answer = try await send("POST", "/mappings", body: try stub.stubMappingJSON())
        return try RegisteredStub(json: answer)
    }

    /// Adds several stubs in order (one `POST /__admin/mappings` each).
    ///
    /// - Parameter stubs: The stubs.
    /// - Returns: The stubs as the server holds them.
    /// - Throws: ``PokestubClientError`` at the first stub the server rejects; the ones before it stay added.
    @discardableResult
    public func addStubs(_ stubs: [any StubMappingConvertible]) async throws(PokestubClientError) -> [RegisteredStub] {
        var added: [RegisteredStub] = []
        for stub in stubs { added.append(try await addStub(stub)) }
        return added
    }

    /// Replaces the stub with this id (`PUT /__admin/mappings/{id}`).
    ///
    /// - Parameters:
    ///   - id: The stub's id.
    ///   - stub: The new mapping; its own id, if any, is ignored.
    /// - Returns: The stub as the server now holds it.
    /// - Throws: ``PokestubClientError``; `refused` with status 404 when there is no such stub.
    @discardableResult
    public func updateStub(
        id: UUID, _ stub: some StubMappingConvertible
    ) async throws(PokestubClientError) -> RegisteredStub {
        let answer = try await send("PUT", "/mappings/\(id.uuidString.lowercased())", body: try stub.stubMappingJSON())
        return try RegisteredStub(json: answer)
    }

    /// Removes the stub with this id (`DELETE /__admin/mappings/{id}`).
    ///
    /// - Parameter id: The stub's id, as ``addStub(_:)`` returned it.
    /// - Throws: ``PokestubClientError``; `refused` with status 404 when there is no such stub.
    public func removeStub(id: UUID) async throws(PokestubClientError) {
        try await send("DELETE", "/mappings/\(id.uuidString.lowercased())")
    }

    /// Removes every stub, those from files too, until ``resetStubs()`` (`DELETE /__admin/mappings`).
    ///
    /// - Throws: ``PokestubClientError``.
    public func removeAllStubs() async throws(PokestubClientError) {
        try await send("DELETE", "/mappings")
    }

    /// Drops stubs added at run time and reads the stub files again (`POST /__admin/mappings/reset`).
    ///
    /// - Throws: ``PokestubClientError``; `refused` with status 422 listing the problems when the stub files
    ///   do not load (the previous stubs keep serving).
    public func resetStubs() async throws(PokestubClientError) {
        try await send("POST", "/mappings/reset")
    }

    /// The stubs the server holds, newest first (`GET /__admin/mappings`).
    ///
    /// - Parameters:
    ///   - offset: How many to skip.
    ///   - limit: The most to return; all when `nil`.
    /// - Returns: The stubs.
    /// - Throws: ``PokestubClientError``.
    public func stubs(offset: Int = 0, limit: Int? = nil) async throws(PokestubClientError) -> [RegisteredStub] {
        var query = [URLQueryItem(name: "offset", value: String(offset))]
        if let limit { query.append(URLQueryItem(name: "limit", value: String(limit))) }
        let answer = try await send("GET", "/mappings", query: query)
        return try PokestubAdminClient.list(answer, "mappings", method: "GET", url: adminURL("/mappings")) {
            (json) throws(PokestubClientError) in try RegisteredStub(json: json)
        }
    }

    /// One stub (`GET /__admin/mappings/{id}`).
    ///
    /// - Parameter id: The stub's id.
    /// - Returns: The stub.
    /// - Throws: ``PokestubClientError``; `refused` with status 404 when there is no such stub.
    public func stub(id: UUID) async throws(PokestubClientError) -> RegisteredStub {
        try RegisteredStub(json: try await send("GET", "/mappings/\(id.uuidString.lowercased())"))
    }

    /// Clears the request journal and drops stubs added at run time (`POST /__admin/reset`), so the next test
    /// starts from the stub files.
    ///
    /// - Throws: ``PokestubClientError``.
    public func reset() async throws(PokestubClientError) {
        try await send("POST", "/reset")
    }

    /// The server's health (`GET /__admin/health`).
    ///
    /// - Returns: The report.
    /// - Throws: ``PokestubClientError``; `transport` when nothing listens at ``baseURL``.
    public func health() async throws(PokestubClientError) -> HealthStatus {
        try HealthStatus(json: try await send("GET", "/health"))
    }
}
