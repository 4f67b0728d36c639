import Foundation
import PokestubCore
import Testing

@Suite("Scenarios: stubs with state, as in WireMock")
struct ScenarioTests {
    private static let stubs = [
        #"{"scenarioName": "To do list", "requiredScenarioState": "Started", "request": {"method": "GET", "url": "/todo/items"}, "response": {"status": 200, "body": "milk"}}"#,
        #"{"scenarioName": "To do list", "requiredScenarioState": "Started", "newScenarioState": "Newspaper added", "request": {"method": "POST", "url": "/todo/items"}, "response": {"status": 201}}"#,
        #"{"scenarioName": "To do list", "requiredScenarioState": "Newspaper added", "request": {"method": "GET", "url": "/todo/items"}, "response": {"status": 200, "body": "milk, newspaper"}}"#,
    ]

    @Test("a POST moves the scenario on; the admin API shows, sets and resets its state")
    func toDoList() async throws {
        try await LiveServer.with { server in
            for stub in Self.stubs { #expect(try await server.admin("POST", "/mappings", json: stub).0 == 201) }
            #expect(try await server.send("GET", "/todo/items").text == "milk")
            #expect(try await server.send("POST", "/todo/items").status == 201)
            #expect(try await server.send("GET", "/todo/items").text == "milk, newspaper")
            // The POST needs the state Started; it no longer matches.
            #expect(try await server.send("POST", "/todo/items").status == 404)

            let (_, listed) = try await server.admin("GET", "/scenarios")
            guard case .array(let scenarios)? = listed["scenarios"], let scenario = scenarios.first else {
                Issue.record("no scenarios in \(listed)")
                return
            }
            #expect(scenario["name"] == .string("To do list"))
            #expect(scenario["state"] == .string("Newspaper added"))
            #expect(scenario["possibleStates"] == .array([.string("Newspaper added"), .string("Started")]))

            #expect(
                try await server.admin("PUT", "/scenarios/To%20do%20list/state", json: #"{"state": "Started"}"#).0
                    == 200)
            #expect(try await server.send("GET", "/todo/items").text == "milk")
            _ = try await server.send("POST", "/todo/items")
            #expect(try await server.admin("POST", "/scenarios/reset").0 == 200)
            #expect(try await server.send("GET", "/todo/items").text == "milk")
            #expect(try await server.admin("PUT", "/scenarios/nope/state", json: "{}").0 == 404)
        }
    }

    @Test("each session keeps its own scenario states")
    func sessionsKeepTheirOwnStates() async throws {
        try await LiveServer.with { server in
            for stub in Self.stubs { _ = try await server.admin("POST", "/mappings", json: stub) }
            let first = try #require(try await server.admin("POST", "/sessions", json: "{}").1["id"]?.stringValue)
            let second = try #require(try await server.admin("POST", "/sessions", json: "{}").1["id"]?.stringValue)
            #expect(try await server.send("POST", "/__sessions/\(first)/todo/items").status == 201)
            #expect(try await server.send("GET", "/__sessions/\(first)/todo/items").text == "milk, newspaper")
            #expect(try await server.send("GET", "/__sessions/\(second)/todo/items").text == "milk")
            #expect(try await server.send("GET", "/todo/items").text == "milk")
        }
    }

    @Test("a scenario state without a scenario name is refused, naming the field")
    func stateNeedsName() throws {
        let json = try JSONValue.parse(
            #"{"requiredScenarioState": "Started", "request": {"url": "/x"}, "response": {}}"#)
        #expect(throws: StubDefinitionError.self) {
            _ = try StubMapping(json: json, defaultID: UUID(), source: .runtime, bodyFiles: BodyFileStore(root: nil))
        }
    }
}
