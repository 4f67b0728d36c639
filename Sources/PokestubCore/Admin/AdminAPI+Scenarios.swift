import Foundation

extension AdminAPI {
    /// `/__admin/scenarios`: list scenarios, reset them all, set one's state.
    static let scenarioRoutes: [AdminRoute] = [
        .now("GET", "scenarios") { api, _ in api.listScenarios() },
        .now("POST", "scenarios/reset") { api, _ in
            api.store.scenarios.reset()
            return .json(.object([:]))
        },
        .now("PUT", "scenarios/{name}/state") { api, request throws(AdminError) in
            try api.setScenarioState(name: request.parameter("name"), body: request.http.body)
        },
    ]

    /// `GET /__admin/scenarios`: `{"scenarios": [{"id", "name", "state", "possibleStates": [...]}]}`, as WireMock
    /// lists them.
    private func listScenarios() -> HTTPResponse {
        let possible = store.index.scenarioStates()
        let scenarios = possible.keys.sorted().map { name -> JSONValue in
            .object([
                "id": .string(name), "name": .string(name), "state": .string(store.scenarios.state(of: name)),
                "possibleStates": .array(possible[name, default: []].sorted().map { .string($0) }),
            ])
        }
        return .json(.object(["scenarios": .array(scenarios)]))
    }

    /// `PUT /__admin/scenarios/{name}/state` with `{"state": "…"}` (no body or no state: back to `Started`).
    ///
    /// - Throws: ``AdminError``: 404 for a scenario no stub names, 400 for a body that is not `{"state": string}`.
    private func setScenarioState(name: String, body: Data) throws(AdminError) -> HTTPResponse {
        let decoded = PercentDecoding.decode(name)
        guard store.index.hasScenario(named: decoded) else {
            throw .notFound("no stub takes part in a scenario named \(decoded.debugDescription)")
        }
        var state = ScenarioRule.started
        if !body.isEmpty {
            guard case .object(let members) = try AdminAPI.parse(body, what: "scenario state") else {
                throw .badRequest("Invalid scenario state", "expected {\"state\": \"…\"}")
            }
            switch members["state"] {
            case nil, .null?: break
            case .string(let text)?: state = text
            default: throw .badRequest("Invalid scenario state", "state must be a string")
            }
        }
        store.scenarios.set(decoded, to: state)
        return .json(.object([:]))
    }
}
