import PokestubLocking

/// The current state of each scenario, for one stub set (the daemon's, or a session's).
package final class ScenarioStates: Sendable {
    private let states = Locked<[String: String]>([:])

    /// Creates a set where every scenario is in ``ScenarioRule/started``.
    package init() {}

    /// The scenario's state (``ScenarioRule/started`` until something moves it).
    package func state(of scenario: String) -> String {
        states.withLock { $0[scenario] } ?? ScenarioRule.started
    }

    /// Moves a scenario to a state.
    package func set(_ scenario: String, to state: String) {
        states.withLock { $0[scenario] = state }
    }

    /// Moves every scenario back to ``ScenarioRule/started``.
    package func reset() {
        states.withLock { $0 = [:] }
    }

    /// Whether a stub with this rule may answer now.
    func allows(_ rule: ScenarioRule) -> Bool {
        guard let required = rule.requiredState else { return true }
        return state(of: rule.name) == required
    }
}
