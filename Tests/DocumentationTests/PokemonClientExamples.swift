import Foundation
import PokemonClient
import Testing

// The examples of Sources/PokemonClient/PokemonClient.docc and the first one of Docs/XCUITest.md. The SwiftUI
// ones (the app and the preview) cannot build on Linux; the rest is here.

@Suite("PokemonClient: overview and getting started")
struct PokemonClientExamples {
    /// Compiled, not run: it asks pokeapi.co, or whatever POKEMON_URL names.
    func overview() async throws {
        let service: any PokemonService = try PokemonClient()  // POKEMON_URL, else https://pokeapi.co
        let page = try await service.pokemonPage(offset: 0, limit: 20)
        let first = try await service.pokemon(name: page.results[0].name)
        _ = first
    }

    @Test("a client made from an injected environment asks the server it names")
    func injectedEnvironment() throws {
        let client = try PokemonClient(environment: ["POKEMON_URL": "http://127.0.0.1:8080"])
        #expect(client.configuration.baseURL.absoluteString == "http://127.0.0.1:8080")
    }

    @Test("the table's calls request the URLs it shows")
    func requestTable() {
        let routes = PokeAPIRoutes(baseURL: URL(string: "http://127.0.0.1:8080")!)
        #expect(
            routes.pokemonList(offset: 0, limit: 20).absoluteString
                == "http://127.0.0.1:8080/api/v2/pokemon/?offset=0&limit=20")
        #expect(routes.pokemon(id: 25).absoluteString == "http://127.0.0.1:8080/api/v2/pokemon/25/")
        #expect(routes.pokemon(name: "Flabebe").absoluteString == "http://127.0.0.1:8080/api/v2/pokemon/flabebe/")
        #expect(routes.species(id: 669).absoluteString == "http://127.0.0.1:8080/api/v2/pokemon-species/669/")
        #expect(routes.type(name: "normal").absoluteString == "http://127.0.0.1:8080/api/v2/type/normal/")
    }

    /// Compiled, not run: Docs/XCUITest.md's app side.
    func xcuiTestAppSide() throws {
        let service: any PokemonService = try PokemonClient()  // POKEMON_URL, else https://pokeapi.co
        _ = service
    }
}

final class PokedexUITests: XCTestCase {
    func testListShowsBulbasaurFirst() throws {
        let app = XCUIApplication()
        app.launchEnvironment["POKEMON_URL"] = "http://127.0.0.1:8080"
        app.launch()

        XCTAssertTrue(app.staticTexts["bulbasaur"].waitForExistence(timeout: 5))
    }
}
