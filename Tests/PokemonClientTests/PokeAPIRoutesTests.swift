import Foundation
import PokemonClient
import Testing

@Suite("Request URLs")
struct PokeAPIRoutesTests {
    let stub = PokeAPIRoutes(baseURL: URL(string: "http://127.0.0.1:8080")!)

    @Test func listURLPutsOffsetBeforeLimitAfterATrailingSlash() {
        #expect(
            stub.pokemonList(offset: 0, limit: 20).absoluteString
                == "http://127.0.0.1:8080/api/v2/pokemon/?offset=0&limit=20")
        #expect(
            stub.pokemonList(offset: 40, limit: 5).absoluteString
                == "http://127.0.0.1:8080/api/v2/pokemon/?offset=40&limit=5")
    }

    @Test func detailURLsEndInASlash() {
        #expect(stub.pokemon(id: 25).absoluteString == "http://127.0.0.1:8080/api/v2/pokemon/25/")
        #expect(stub.pokemon(name: "pikachu").absoluteString == "http://127.0.0.1:8080/api/v2/pokemon/pikachu/")
        #expect(stub.species(id: 669).absoluteString == "http://127.0.0.1:8080/api/v2/pokemon-species/669/")
        #expect(stub.species(name: "flabebe").absoluteString == "http://127.0.0.1:8080/api/v2/pokemon-species/flabebe/")
        #expect(stub.type(id: 1).absoluteString == "http://127.0.0.1:8080/api/v2/type/1/")
        #expect(stub.type(name: "normal").absoluteString == "http://127.0.0.1:8080/api/v2/type/normal/")
    }

    @Test func namesAreLowerCasedAndPercentEncodedAsOneSegment() {
        #expect(stub.pokemon(name: "Pikachu").absoluteString == "http://127.0.0.1:8080/api/v2/pokemon/pikachu/")
        #expect(
            stub.pokemon(name: "flabébé").absoluteString == "http://127.0.0.1:8080/api/v2/pokemon/flab%C3%A9b%C3%A9/")
        #expect(
            stub.species(name: "FLABÉBÉ").absoluteString
                == "http://127.0.0.1:8080/api/v2/pokemon-species/flab%C3%A9b%C3%A9/")
        #expect(stub.pokemon(name: "mr. mime").absoluteString == "http://127.0.0.1:8080/api/v2/pokemon/mr.%20mime/")
        #expect(stub.pokemon(name: "a/b?c#d").absoluteString == "http://127.0.0.1:8080/api/v2/pokemon/a%2Fb%3Fc%23d/")
    }

    @Test func defaultBaseBuildsThePokeAPIURLs() {
        let live = PokeAPIRoutes(baseURL: PokemonClientConfiguration.defaultBaseURL)
        #expect(
            live.pokemonList(offset: 0, limit: 20).absoluteString
                == "https://pokeapi.co/api/v2/pokemon/?offset=0&limit=20")
        #expect(live.pokemon(id: 1).absoluteString == "https://pokeapi.co/api/v2/pokemon/1/")
    }

    @Test func basePathPrefixIsKept() {
        let session = PokeAPIRoutes(baseURL: URL(string: "http://127.0.0.1:8080/__sessions/42/")!)
        #expect(session.pokemon(id: 1).absoluteString == "http://127.0.0.1:8080/__sessions/42/api/v2/pokemon/1/")
        #expect(
            session.pokemonList(offset: 0, limit: 20).absoluteString
                == "http://127.0.0.1:8080/__sessions/42/api/v2/pokemon/?offset=0&limit=20")
    }

    @Test func rebasesPokeAPINextLinkOntoTheConfiguredServer() {
        let next = URL(string: "https://pokeapi.co/api/v2/pokemon/?offset=20&limit=20")!
        #expect(stub.rebased(next).absoluteString == "http://127.0.0.1:8080/api/v2/pokemon/?offset=20&limit=20")
    }

    @Test func rebasesRootRelativeLinksFromTheDataDump() {
        let link = URL(string: "/api/v2/pokemon-species/1/")!
        #expect(stub.rebased(link).absoluteString == "http://127.0.0.1:8080/api/v2/pokemon-species/1/")
    }

    @Test func rebasingKeepsPercentEncodingOfThePath() {
        let link = URL(string: "https://pokeapi.co/api/v2/pokemon/flab%C3%A9b%C3%A9/")!
        #expect(stub.rebased(link).absoluteString == "http://127.0.0.1:8080/api/v2/pokemon/flab%C3%A9b%C3%A9/")
    }

    @Test func rebasesALinkOnTheSameHostButAnotherPort() {
        let link = URL(string: "http://127.0.0.1:9090/api/v2/type/1/")!
        #expect(stub.rebased(link).absoluteString == "http://127.0.0.1:8080/api/v2/type/1/")
    }

    @Test func leavesALinkOnTheConfiguredServerAlone() {
        let link = URL(string: "http://127.0.0.1:8080/api/v2/pokemon/?offset=40&limit=5")!
        #expect(stub.rebased(link) == link)
        let live = PokeAPIRoutes(baseURL: URL(string: "https://pokeapi.co")!)
        let pokeapi = URL(string: "https://pokeapi.co:443/api/v2/pokemon/1/")!
        #expect(live.rebased(pokeapi) == pokeapi)
    }

    @Test func rebasingAddsTheBasePathPrefixOnlyOnce() {
        let session = PokeAPIRoutes(baseURL: URL(string: "http://127.0.0.1:8080/__sessions/42")!)
        let foreign = URL(string: "https://pokeapi.co/api/v2/pokemon/?offset=20&limit=20")!
        #expect(
            session.rebased(foreign).absoluteString
                == "http://127.0.0.1:8080/__sessions/42/api/v2/pokemon/?offset=20&limit=20")
        let relativeUnderPrefix = URL(string: "/__sessions/42/api/v2/pokemon/1/")!
        #expect(
            session.rebased(relativeUnderPrefix).absoluteString
                == "http://127.0.0.1:8080/__sessions/42/api/v2/pokemon/1/")
    }
}
