import Foundation
import PokemonClient
import Testing

@Suite("Configuration from POKEMON_URL")
struct PokemonClientConfigurationTests {
    @Test func usesPokeAPIWhenPokemonURLIsAbsent() throws {
        let configuration = try PokemonClientConfiguration(environment: ["HOME": "/root"])
        #expect(configuration.baseURL.absoluteString == "https://pokeapi.co")
    }

    @Test func usesPokeAPIWhenPokemonURLIsEmpty() throws {
        let configuration = try PokemonClientConfiguration(environment: ["POKEMON_URL": ""])
        #expect(configuration.baseURL.absoluteString == "https://pokeapi.co")
    }

    @Test func usesPokemonURLWhenSet() throws {
        let configuration = try PokemonClientConfiguration(environment: ["POKEMON_URL": "http://127.0.0.1:8080"])
        #expect(configuration.baseURL.absoluteString == "http://127.0.0.1:8080")
    }

    @Test func toleratesATrailingSlash() throws {
        let configuration = try PokemonClientConfiguration(environment: ["POKEMON_URL": "http://127.0.0.1:8080/"])
        #expect(configuration.baseURL.absoluteString == "http://127.0.0.1:8080")
        let client = PokemonClient(configuration: configuration)
        #expect(client.routes.pokemon(id: 1).absoluteString == "http://127.0.0.1:8080/api/v2/pokemon/1/")
    }

    @Test func keepsAPathPrefixWithoutItsTrailingSlash() throws {
        let configuration = try PokemonClientConfiguration(
            environment: ["POKEMON_URL": "http://127.0.0.1:8080/__sessions/42/"])
        #expect(configuration.baseURL.absoluteString == "http://127.0.0.1:8080/__sessions/42")
    }

    @Test func baseURLInitializerDropsATrailingSlash() {
        let configuration = PokemonClientConfiguration(baseURL: URL(string: "https://example.com/")!)
        #expect(configuration.baseURL.absoluteString == "https://example.com")
    }

    @Test(
        "rejects a value that is not an absolute http(s) URL with a host",
        arguments: [
            "not a url",
            "127.0.0.1:8080",
            "localhost:8080",
            "ftp://example.com",
            "/api/v2",
            "http://",
            "http://127.0.0.1:8080/?mode=replay",
        ]
    )
    func rejectsInvalidValueNamingTheVariable(value: String) throws {
        let error = try #require(throws: PokemonClientError.self) {
            try PokemonClientConfiguration(environment: ["POKEMON_URL": value])
        }
        guard case .invalidConfiguration(let variable, let reported, let reason) = error else {
            Issue.record("expected .invalidConfiguration, got \(error)")
            return
        }
        #expect(variable == "POKEMON_URL")
        #expect(reported == value)
        #expect(!reason.isEmpty)
    }

    @Test func invalidValueDescriptionNamesVariableAndValue() {
        let error = #expect(throws: PokemonClientError.self) {
            try PokemonClientConfiguration(environment: ["POKEMON_URL": "ftp://example.com"])
        }
        let description = error?.description ?? ""
        #expect(description.contains("POKEMON_URL"))
        #expect(description.contains("ftp://example.com"))
        #expect(description.contains("http or https"))
    }

    @Test func clientFromEnvironmentUsesPokemonURL() throws {
        let client = try PokemonClient(environment: ["POKEMON_URL": "http://127.0.0.1:9999"])
        #expect(client.configuration.baseURL.absoluteString == "http://127.0.0.1:9999")
    }

    @Test func clientFromEnvironmentRejectsInvalidPokemonURL() {
        #expect(throws: PokemonClientError.self) {
            try PokemonClient(environment: ["POKEMON_URL": "gopher://example.com"])
        }
    }
}
