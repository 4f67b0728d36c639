/// A scenario as `GET /__admin/scenarios` lists it: its name, current state and the states its stubs name.
public struct ScenarioStatus: Sendable, Hashable, CustomStringConvertible {
    /// The scenario's name, e.g. `team`.
    public var name: String
    /// The state it is in now; ``StubBuilder/scenarioStarted`` until a stub moves it.
    public var state: String
    /// Every state its stubs require or set, sorted, `Started` included.
    public var possibleStates: [String]

    /// Creates a status.
    ///
    /// - Parameters:
    ///   - name: The scenario's name.
    ///   - state: Its current state.
    ///   - possibleStates: The states its stubs name.
    public init(name: String, state: String, possibleStates: [String]) {
        self.name = name
        self.state = state
        self.possibleStates = possibleStates
    }

    /// Reads one entry of `{"scenarios": [...]}`.
    init(json: JSONValue) throws(PokestubClientError) {
        guard let name = json["name"]?.stringValue, let state = json["state"]?.stringValue else {
            throw .invalidJSON(what: "a scenario from the server", reason: "no \"name\" and \"state\" strings")
        }
        self.init(
            name: name, state: state,
            possibleStates: json["possibleStates"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    }

    /// `team: has pikachu (of Started, has pikachu)`.
    public var description: String {
        "\(name): \(state) (of \(possibleStates.joined(separator: ", ")))"
    }
}
