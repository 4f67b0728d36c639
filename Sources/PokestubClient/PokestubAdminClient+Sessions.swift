import Foundation

extension PokestubAdminClient {
    /// Opens a session on the daemon (`POST /__admin/sessions` with `{"name"?, "idleTimeoutSeconds"?}`): a
    /// private set of runtime stubs and a private journal under its own base URL. End it with
    /// ``endSession(id:)``, or use ``withSession(name:idleTimeout:isolation:_:)``, which always does.
    ///
    /// Sessions are made on the daemon even when this client is scoped to a session.
    ///
    /// - Parameters:
    ///   - name: A name for people, e.g. the CI job's (`"job-42"`); shown by ``sessions()``.
    ///   - idleTimeout: How long the session may go without requests before the daemon ends it, sent in whole
    ///     seconds (rounded up, at least 1); the daemon's default (10 minutes unless configured) when `nil`.
    /// - Returns: The session, with ``PokestubSession/admin`` scoped to it.
    /// - Throws: ``PokestubClientError``; `refused` with status 429 when the daemon has as many sessions open as
    ///   it allows, 400 when the idle timeout is beyond its limit, 404 when the daemon has no sessions.
    public func createSession(
        name: String? = nil, idleTimeout: Duration? = nil
    ) async throws(PokestubClientError) -> PokestubSession {
        var body: [String: JSONValue] = [:]
        if let name { body["name"] = .string(name) }
        if let idleTimeout {
            let seconds = max(1, (PokestubAdminClient.milliseconds(idleTimeout) + 999) / 1000)
            body["idleTimeoutSeconds"] = .integer(Int64(seconds))
        }
        let daemon = self.daemon
        let answer = try await daemon.send("POST", "/sessions", body: .object(body))
        return try PokestubSession(json: answer, daemon: daemon, method: "POST", url: daemon.adminURL("/sessions"))
    }

    /// The daemon's open sessions, oldest first (`GET /__admin/sessions`, answering
    /// `{"sessions": [...], "meta": {"total"}}`).
    ///
    /// - Returns: The sessions, each with an ``PokestubSession/admin`` scoped to it.
    /// - Throws: ``PokestubClientError``; `refused` with status 404 when the daemon has no sessions.
    public func sessions() async throws(PokestubClientError) -> [PokestubSession] {
        let daemon = self.daemon
        let url = daemon.adminURL("/sessions")
        let answer = try await daemon.send("GET", "/sessions")
        return try PokestubAdminClient.list(answer, "sessions", method: "GET", url: url) {
            (json) throws(PokestubClientError) in
            try PokestubSession(json: json, daemon: daemon, method: "GET", url: url)
        }
    }

    /// One open session (`GET /__admin/sessions/{id}`).
    ///
    /// - Parameter id: The session's id.
    /// - Returns: The session.
    /// - Throws: ``PokestubClientError``; `refused` with status 404 when it has ended, expired or never existed.
    public func session(id: String) async throws(PokestubClientError) -> PokestubSession {
        let daemon = self.daemon
        let path = "/sessions/\(id)"
        let answer = try await daemon.send("GET", path)
        return try PokestubSession(json: answer, daemon: daemon, method: "GET", url: daemon.adminURL(path))
    }

    /// Ends a session (`DELETE /__admin/sessions/{id}`): its stubs and journal are dropped and its base URL
    /// answers 404.
    ///
    /// - Parameter id: The session's id.
    /// - Throws: ``PokestubClientError``; `refused` with status 404 when it has already ended or expired.
    public func endSession(id: String) async throws(PokestubClientError) {
        try await daemon.send("DELETE", "/sessions/\(id)")
    }

    /// Runs `body` with a new session and ends the session afterwards, also when `body` throws or the task is
    /// cancelled.
    ///
    /// ```swift
    /// try await admin.withSession(name: "job-42") { session in
    ///     try await session.admin.addStub(StubBuilder.get("/api/v2/pokemon/").willReturn(.json(page)))
    ///     let client = try PokemonClient(environment: session.environment)
    ///     _ = try await client.pokemonPage(offset: 0, limit: 20)
    ///     try await session.admin.verify(count: 1, .get("/api/v2/pokemon/"))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: A name for people, e.g. the CI job's.
    ///   - idleTimeout: How long the session may go without requests before the daemon ends it (whole seconds,
    ///     rounded up); the daemon's default when `nil`. It also bounds how long a session outlives a test
    ///     process that dies inside `body`.
    ///   - isolation: The caller's actor, inherited so `body` need not be `Sendable`.
    ///   - body: The test, given the session.
    ///     Its result is `sending` (SE-0430): handed to the caller's actor, which Swift 6.0 requires of a
    ///     value that is not `Sendable`; a value the body makes, or any `Sendable` one, qualifies.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws (a failure to end the session is then ignored); otherwise a
    ///   ``PokestubClientError`` from creating or ending the session (ending one that has already ended or
    ///   expired is not an error).
    public func withSession<Result>(
        name: String? = nil, idleTimeout: Duration? = nil, isolation: isolated (any Actor)? = #isolation,
        _ body: (PokestubSession) async throws -> sending Result
    ) async throws -> sending Result {
        let session = try await createSession(name: name, idleTimeout: idleTimeout)
        let result: Result
        do {
            result = try await body(session)
        } catch {
            try? await endEvenIfCancelled(session)
            throw error
        }
        try await endEvenIfCancelled(session)
        return result
    }

    /// Ends a session from a task of its own, so a cancelled caller still ends it; one already gone is fine.
    private func endEvenIfCancelled(_ session: PokestubSession) async throws(PokestubClientError) {
        let daemon = session.admin.daemon
        let ending = Task { () async -> PokestubClientError? in
            do throws(PokestubClientError) {
                try await daemon.endSession(id: session.id)
                return nil
            } catch {
                return error.httpStatus == 404 ? nil : error
            }
        }
        if let error = await ending.value { throw error }
    }
}
