/// A stub's part in a scenario: WireMock's stateful behaviour (`scenarioName`, `requiredScenarioState`,
/// `newScenarioState`).
///
/// Every scenario starts in the state `Started`. A stub with a required state matches only while its scenario
/// is in that state; a stub with a new state moves its scenario there when it answers.
package struct ScenarioRule: Sendable, Hashable {
    /// The scenario, e.g. `"team building"`.
    package var name: String
    /// The state the scenario must be in for the stub to match, or `nil` for any.
    package var requiredState: String?
    /// The state the scenario moves to when the stub answers, or `nil` to stay.
    package var newState: String?

    /// The state every scenario starts in (WireMock's `Scenario.STARTED`).
    package static let started = "Started"
}
