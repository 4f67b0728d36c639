import Foundation

extension PokestubAdminClient {
    /// Starts recording: requests no stub answers are sent to `targetBaseURL`, and each exchange becomes a
    /// stub (`POST /__admin/recordings/start` with `{"targetBaseUrl": …}`, WireMock's shape).
    ///
    /// ```swift
    /// try await admin.startRecording(from: URL(string: "https://pokeapi.co")!)
    /// // … run the app against the daemon …
    /// let recorded = try await admin.stopRecording()
    /// ```
    ///
    /// - Parameters:
    ///   - targetBaseURL: The upstream, e.g. `https://pokeapi.co`.
    ///   - options: More members of the WireMock recording spec (`filters`, `captureHeaders`, `persist`, …),
    ///     sent as given; the server rejects those it does not support.
    /// - Throws: ``PokestubClientError``; `refused` when the server cannot record (404 when this build has no
    ///   recording support, 409 when a recording is already running).
    public func startRecording(
        from targetBaseURL: URL, options: [String: JSONValue] = [:]
    ) async throws(PokestubClientError) {
        var body = options
        body["targetBaseUrl"] = .string(targetBaseURL.absoluteString)
        try await send("POST", "/recordings/start", body: .object(body))
    }

    /// Stops recording (`POST /__admin/recordings/stop`).
    ///
    /// - Returns: The stubs recorded (WireMock answers `{"mappings": [...]}`).
    /// - Throws: ``PokestubClientError``; `refused` when no recording is running.
    @discardableResult
    public func stopRecording() async throws(PokestubClientError) -> [RegisteredStub] {
        let answer = try await send("POST", "/recordings/stop")
        guard answer["mappings"] != nil else { return [] }
        return try PokestubAdminClient.list(answer, "mappings", method: "POST", url: adminURL("/recordings/stop")) {
            (json) throws(PokestubClientError) in try RegisteredStub(json: json)
        }
    }

    /// Whether the server is recording (`GET /__admin/recordings/status`).
    ///
    /// - Returns: The status.
    /// - Throws: ``PokestubClientError``.
    public func recordingStatus() async throws(PokestubClientError) -> RecordingStatus {
        let answer = try await send("GET", "/recordings/status")
        guard let status = answer["status"]?.stringValue else {
            throw .unexpectedResponse(
                method: "GET", url: adminURL("/recordings/status"), reason: "no \"status\" string in the answer")
        }
        return RecordingStatus(status)
    }
}
