import Foundation

extension AdminAPI {
    /// `GET /__admin/scenarios`: `{"scenarios": [{"id", "name", "state", "possibleStates": [...]}]}`, as WireMock
    /// lists them.
    func listScenarios() -> HTTPResponse {
        var possible: [String: Set<String>] = [:]
        for stub in store.index.stubs {
            guard let rule = stub.scenario else { continue }
            possible[rule.name, default: [ScenarioRule.started]].formUnion(
                [rule.requiredState, rule.newState].compactMap { $0 })
        }
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
    func setScenarioState(name: String, body: Data) throws(AdminError) -> HTTPResponse {
        let decoded = PercentDecoding.decode(name)
        guard store.index.stubs.contains(where: { $0.scenario?.name == decoded }) else {
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
