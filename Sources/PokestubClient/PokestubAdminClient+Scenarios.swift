import Foundation

extension PokestubAdminClient {
    /// Every scenario the stubs name, with its current state (`GET /__admin/scenarios`). A session's client
    /// lists the session's own states.
    ///
    /// - Returns: The scenarios, sorted by name.
    /// - Throws: ``PokestubClientError`` when the server cannot be asked or answers something else.
    public func scenarios() async throws(PokestubClientError) -> [ScenarioStatus] {
        let answer = try await send("GET", "/scenarios")
        var statuses: [ScenarioStatus] = []
        for item in answer["scenarios"]?.arrayValue ?? [] { statuses.append(try ScenarioStatus(json: item)) }
        return statuses
    }

    /// Puts every scenario back in ``StubBuilder/scenarioStarted`` (`POST /__admin/scenarios/reset`).
    ///
    /// - Throws: ``PokestubClientError`` when the server cannot be asked.
    public func resetScenarios() async throws(PokestubClientError) {
        try await send("POST", "/scenarios/reset")
    }

    /// Moves a scenario to a state (`PUT /__admin/scenarios/{name}/state`), e.g. to start a test mid-way
    /// through a flow.
    ///
    /// - Parameters:
    ///   - name: The scenario's name.
    ///   - state: The state to move to; any text, though only states its stubs name make any stub match.
    /// - Throws: ``PokestubClientError``; `refused` with status 404 when no stub names the scenario.
    public func setScenarioState(_ name: String, to state: String) async throws(PokestubClientError) {
        let segment = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? name
        try await send("PUT", "/scenarios/\(segment)/state", body: ["state": .string(state)])
    }
}
