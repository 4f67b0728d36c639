extension StubIndex {
    /// Every scenario a stub takes part in, by name, with the states its stubs require or move to, and
    /// ``ScenarioRule/started``.
    func scenarioStates() -> [String: Set<String>] {
        var possible: [String: Set<String>] = [:]
        for stub in stubs {
            guard let rule = stub.scenario else { continue }
            possible[rule.name, default: [ScenarioRule.started]].formUnion(
                [rule.requiredState, rule.newState].compactMap { $0 })
        }
        return possible
    }

    /// Whether a stub takes part in the scenario `name`.
    func hasScenario(named name: String) -> Bool {
        stubs.contains { $0.scenario?.name == name }
    }
}
