import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

@Suite("Near misses name what a request does wrong against PokeAPI's contract")
struct ContractHintTests {
    /// A stub for `GET /api/v2/pokemon/1/`, so near misses have a stub to name beside the hint.
    private static let pokemonOne =
        #"{"request": {"method": "GET", "urlPath": "/api/v2/pokemon/1/"}, "response": {"status": 200}}"#

    @Test(
        "a path no PokeAPI endpoint has gets a 404 that names the closest endpoint before the closest stubs",
        arguments: [
            (
                "/api/v2/pokemons/1",
                "PokeAPI v2 has no endpoint /api/v2/pokemons/1; the closest is /api/v2/pokemon/{id}/ (/api/v2/pokemon/1/)"
            ),
            (
                "/api/v2/pokemon/25/encounter",
                "PokeAPI v2 has no endpoint /api/v2/pokemon/25/encounter; the closest is "
                    + "/api/v2/pokemon/{id}/encounters/ (/api/v2/pokemon/25/encounters/)"
            ),
            (
                "/api/v2/pokemon-specie/",
                "PokeAPI v2 has no endpoint /api/v2/pokemon-specie/; the closest is /api/v2/pokemon-species/"
            ),
        ])
    func unknownEndpoint(path: String, hint: String) async throws {
        try await LiveServer.with { server in
            let (status, _) = try await server.admin("POST", "/mappings", json: Self.pokemonOne)
            #expect(status == 201)
            let response = try await server.send("GET", path)
            #expect(response.status == 404)
            let lines = response.text.components(separatedBy: "\n")
            #expect(lines.first == "No stub matched GET \(path)")
            #expect(Array(lines.dropFirst().prefix(4)) == ["", hint, "", "Closest stubs:"])
        }
    }

    @Test("limit and offset that are not whole numbers of 0 or more are flagged on a list, and only there")
    func pagingParameters() async throws {
        try await LiveServer.with { server in
            let flagged = try await server.send("GET", "/api/v2/pokemon/?offset=abc&limit=-5")
            #expect(flagged.status == 404)
            let lines = flagged.text.components(separatedBy: "\n")
            #expect(lines.count > 4)
            #expect(
                lines.dropFirst(2).first?.hasPrefix(#"PokeAPI v2 query parameter limit "-5" is not a whole number"#)
                    == true)
            #expect(
                lines.dropFirst(3).first?.hasPrefix(#"PokeAPI v2 query parameter offset "abc" is not a whole"#) == true)
            #expect(lines.dropFirst(4).first == "")
            for path in [
                "/api/v2/pokemon/?offset=40&limit=20", "/api/v2/pokemon/1/?limit=-5", "/other/?limit=-5",
                "/api/v2/pokemon/9999/",
            ] {
                let plain = try await server.send("GET", path)
                #expect(plain.status == 404, "\(path)")
                #expect(!plain.text.contains("PokeAPI v2"), "\(path): \(plain.text)")
            }
        }
    }

    @Test("the JSON near-miss answer carries the hints with each close stub, and alone when there is none")
    func jsonNearMisses() async throws {
        try await LiveServer.with { server in
            _ = try await server.send("GET", "/api/v2/pokemons/1")
            let (_, empty) = try await server.admin("GET", "/requests/unmatched/near-misses")
            let alone = try #require(empty["nearMisses"]?.arrayValue)
            #expect(alone.count == 1)
            let hint =
                "PokeAPI v2 has no endpoint /api/v2/pokemons/1; the closest is /api/v2/pokemon/{id}/ (/api/v2/pokemon/1/)"
            #expect(alone.first?["contractHints"] == .array([.string(hint)]))
            #expect(alone.first?["stubMapping"] == nil)
            #expect(alone.first?["request"]?["url"] == .string("/api/v2/pokemons/1"))

            let (status, _) = try await server.admin("POST", "/mappings", json: Self.pokemonOne)
            #expect(status == 201)
            let (_, withStub) = try await server.admin("GET", "/requests/unmatched/near-misses")
            let entries = try #require(withStub["nearMisses"]?.arrayValue)
            #expect(!entries.isEmpty)
            for entry in entries {
                #expect(entry["contractHints"] == .array([.string(hint)]))
                #expect(entry["stubMapping"]?["request"]?["urlPath"] == .string("/api/v2/pokemon/1/"))
            }
            _ = try await server.send("GET", "/api/v2/pokemon/2/")
            let (_, both) = try await server.admin("GET", "/requests/unmatched/near-misses?limit=1")
            #expect(both["nearMisses"]?[0]?["contractHints"] == nil, "a path PokeAPI has gets no hint")
        }
    }
}
