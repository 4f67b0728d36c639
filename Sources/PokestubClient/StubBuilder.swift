import Foundation

/// A stub to add: a request pattern and the response to send, built in Swift and sent as WireMock's stub
/// mapping JSON.
///
/// ```swift
/// let stub = StubBuilder.get("/api/v2/pokemon/")
///     .withQueryParameter("limit", .equalTo("20"))
///     .willReturn(
///         .json([
///             "count": 2, "next": nil, "previous": nil,
///             "results": [
///                 ["name": "bulbasaur", "url": "https://pokeapi.co/api/v2/pokemon/1/"],
///                 ["name": "ivysaur", "url": "https://pokeapi.co/api/v2/pokemon/2/"],
///             ],
///         ])
///     )
///     .withName("first page")
/// try await admin.addStub(stub)
/// ```
///
/// ``json`` gives
/// `{"name": "first page", "request": {"method": "GET", "urlPath": "/api/v2/pokemon/", "queryParameters":
/// {"limit": {"equalTo": "20"}}}, "response": {"status": 200, "headers": {"Content-Type": "application/json"},
/// "jsonBody": {...}}}`. Without ``willReturn(_:)`` the stub answers 200 with an empty body.
public struct StubBuilder: RequestPatternBuilding, StubMappingConvertible, Hashable {
    /// Which requests the stub answers.
    public var requestPattern: RequestPatternBuilder
    /// What it answers.
    public var response: StubResponse
    /// The stub's id; the server picks one when `nil`. Give one to replace a stub later with the same id.
    public var id: UUID?
    /// A name for people, shown in near misses and verification failures.
    public var name: String?
    /// 1 is the highest priority; the server's default is 5. Among matching stubs the lowest number wins, then
    /// the one added last.
    public var priority: Int?
    /// Free-form data kept with the stub (`metadata`).
    public var metadata: JSONValue?
    /// The scenario the stub takes part in (`scenarioName`), or `nil`.
    public var scenarioName: String?
    /// The state the scenario must be in for the stub to match (`requiredScenarioState`), or `nil` for any.
    public var requiredScenarioState: String?
    /// The state the scenario moves to when the stub answers (`newScenarioState`), or `nil` to stay.
    public var newScenarioState: String?

    /// The state every scenario starts in, and returns to on reset: `Started` (WireMock's `Scenario.STARTED`).
    public static let scenarioStarted = "Started"

    /// Creates a stub for a request pattern, answering 200 with an empty body until ``willReturn(_:)``.
    ///
    /// - Parameter requestPattern: Which requests the stub answers.
    public init(requestPattern: RequestPatternBuilder) {
        self.requestPattern = requestPattern
        response = StubResponse()
    }

    /// The same stub answering with this response.
    ///
    /// - Parameter response: The response, e.g. `.json([...])` or `.status(404)`.
    /// - Returns: The changed stub.
    public func willReturn(_ response: StubResponse) -> StubBuilder {
        var copy = self
        copy.response = response
        return copy
    }

    /// The same stub answering with a JSON body.
    ///
    /// - Parameters:
    ///   - json: The document.
    ///   - status: The status code; 200 by default.
    /// - Returns: The changed stub.
    public func willReturn(json: JSONValue, status: Int = 200) -> StubBuilder {
        willReturn(.json(json, status: status))
    }

    /// The same stub with a name.
    ///
    /// - Parameter name: A name for people.
    /// - Returns: The changed stub.
    public func withName(_ name: String) -> StubBuilder {
        var copy = self
        copy.name = name
        return copy
    }

    /// The same stub with a priority.
    ///
    /// - Parameter priority: 1 or more; 1 is the highest.
    /// - Returns: The changed stub.
    public func atPriority(_ priority: Int) -> StubBuilder {
        var copy = self
        copy.priority = priority
        return copy
    }

    /// The same stub with a fixed id.
    ///
    /// - Parameter id: The id.
    /// - Returns: The changed stub.
    public func withID(_ id: UUID) -> StubBuilder {
        var copy = self
        copy.id = id
        return copy
    }

    /// The same stub with metadata.
    ///
    /// - Parameter metadata: Free-form JSON kept with the stub.
    /// - Returns: The changed stub.
    public func withMetadata(_ metadata: JSONValue) -> StubBuilder {
        var copy = self
        copy.metadata = metadata
        return copy
    }

    /// The same stub taking part in a scenario: a state machine whose state decides which of its stubs match.
    /// Every scenario starts in ``scenarioStarted``.
    ///
    /// ```swift
    /// let empty = StubBuilder.get("/api/v2/team").inScenario("team")
    ///     .whenScenarioStateIs(StubBuilder.scenarioStarted).willReturn(.json([]))
    /// let add = StubBuilder.post("/api/v2/team").inScenario("team").willSetStateTo("has pikachu")
    /// let full = StubBuilder.get("/api/v2/team").inScenario("team")
    ///     .whenScenarioStateIs("has pikachu").willReturn(.json(["pikachu"]))
    /// ```
    ///
    /// - Parameter name: The scenario's name, e.g. `team`; stubs naming the same scenario share its state.
    /// - Returns: The changed stub.
    public func inScenario(_ name: String) -> StubBuilder {
        var copy = self
        copy.scenarioName = name
        return copy
    }

    /// The same stub matching only while its scenario is in a state. Needs ``inScenario(_:)``.
    ///
    /// - Parameter state: The required state, e.g. ``scenarioStarted`` or `has pikachu`.
    /// - Returns: The changed stub.
    public func whenScenarioStateIs(_ state: String) -> StubBuilder {
        var copy = self
        copy.requiredScenarioState = state
        return copy
    }

    /// The same stub moving its scenario to a state when it answers. Needs ``inScenario(_:)``.
    ///
    /// - Parameter state: The new state.
    /// - Returns: The changed stub.
    public func willSetStateTo(_ state: String) -> StubBuilder {
        var copy = self
        copy.newScenarioState = state
        return copy
    }

    /// The stub in WireMock's mapping JSON: `id`, `name`, `priority`, `metadata`, `scenarioName`,
    /// `requiredScenarioState` and `newScenarioState` when set, `request`, `response`.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["request": requestPattern.json, "response": response.json]
        if let id { members["id"] = .string(id.uuidString.lowercased()) }
        if let name { members["name"] = .string(name) }
        if let priority { members["priority"] = .integer(Int64(priority)) }
        if let metadata { members["metadata"] = metadata }
        if let scenarioName { members["scenarioName"] = .string(scenarioName) }
        if let requiredScenarioState { members["requiredScenarioState"] = .string(requiredScenarioState) }
        if let newScenarioState { members["newScenarioState"] = .string(newScenarioState) }
        return .object(members)
    }

    /// The stub in WireMock's mapping JSON (``json``).
    ///
    /// - Returns: The mapping.
    public func stubMappingJSON() -> JSONValue {
        json
    }
}
