import Foundation
import PokestubClient
import PokestubTestSupport
import PokestubTesting
import Testing

/// Scenarios, priorities and delays written with the builder and driven with the admin client, as a client
/// sees them over a socket.
@Suite("Scenarios, priorities and delays")
struct ScenarioTests {
    static let team: [StubBuilder] = [
        StubBuilder.get("/api/v2/team").inScenario("team").whenScenarioStateIs(StubBuilder.scenarioStarted)
            .willReturn(.json([])),
        StubBuilder.post("/api/v2/team").inScenario("team").willSetStateTo("has pikachu")
            .willReturn(.status(201)),
        StubBuilder.get("/api/v2/team").inScenario("team").whenScenarioStateIs("has pikachu")
            .willReturn(.json(["pikachu"])),
    ]

    @Test("the builder writes WireMock's scenario fields")
    func scenarioJSON() {
        let json = Self.team[1].json
        #expect(json["scenarioName"] == "team")
        #expect(json["newScenarioState"] == "has pikachu")
        #expect(json["requiredScenarioState"] == nil)
        #expect(Self.team[0].json["requiredScenarioState"] == "Started")
        #expect(StubBuilder.get("/a").json["scenarioName"] == nil, "no scenario unless asked")
    }

    @Test("a POST moves the scenario, the next GET sees the new state, and the admin client reads and sets it")
    func flow() async throws {
        try await withStubServer(mappings: Self.team) { server in
            func team() async throws -> JSONValue {
                try JSONValue(parsing: try await HTTPFetch.send(server.url("/api/v2/team")).body)
            }
            #expect(try await team() == [])
            #expect(
                try await server.admin.scenarios() == [
                    ScenarioStatus(name: "team", state: "Started", possibleStates: ["Started", "has pikachu"])
                ])

            #expect(try await HTTPFetch.send(server.url("/api/v2/team"), method: "POST").status == 201)
            #expect(try await team() == ["pikachu"])
            #expect(try await server.admin.scenarios().first?.state == "has pikachu")

            try await server.admin.resetScenarios()
            #expect(try await team() == [])

            try await server.admin.setScenarioState("team", to: "has pikachu")
            #expect(try await team() == ["pikachu"])

            let error = await #expect(throws: PokestubClientError.self) {
                try await server.admin.setScenarioState("no such scenario", to: "x")
            }
            guard case .refused(_, _, let status, _)? = error else {
                Issue.record("expected a refusal, got \(String(describing: error))")
                return
            }
            #expect(status == 404)
        }
    }

    @Test("among matching stubs the higher priority (lower number) answers, whatever the order added")
    func priorities() async throws {
        let stubs = [
            StubBuilder.get("/api/v2/pokemon/25/").willReturn(.text("high")).atPriority(1),
            StubBuilder.get("/api/v2/pokemon/25/").willReturn(.text("default")),
        ]
        try await withStubServer(mappings: stubs) { server async throws in
            #expect(try await HTTPFetch.send(server.url("/api/v2/pokemon/25/")).text == "high")
        }
    }

    @Test("withFixedDelay takes a Duration and holds the answer back at least that long")
    func fixedDelay() async throws {
        let response = StubResponse.text("late").withFixedDelay(.milliseconds(300))
        #expect(response.fixedDelayMilliseconds == 300)
        #expect(response.fixedDelay == .milliseconds(300))
        #expect(StubResponse.text("x").withFixedDelay(.microseconds(1500)).fixedDelayMilliseconds == 2, "rounded up")
        try await withStubServer(mappings: [StubBuilder.get("/late").willReturn(response)]) { server async throws in
            let clock = ContinuousClock()
            let started = clock.now
            #expect(try await HTTPFetch.send(server.url("/late")).text == "late")
            #expect(clock.now - started >= .milliseconds(300))
        }
    }
}
