import Foundation
import PokemonClient
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The live client end to end, against a `URLProtocol` stub instead of a socket.
@Suite("PokemonClient over URLSession")
struct PokemonClientTests {
    /// A stub that serves the offline PokeAPI dump by path (`/api/v2/pokemon/1/` from
    /// `api/v2/pokemon/1/index.json`) and 404 for anything else.
    static func dumpServer() -> FakeTransport {
        FakeTransport { request in
            guard let path = request.url?.path, let body = try? PokeAPIFixtures.body(at: path) else {
                return .init(status: 404, body: Data("Not Found".utf8), headers: ["Content-Type": "text/plain"])
            }
            return .init(body: body)
        }
    }

    /// A stub that pages `total` entries by pokeapi.co's rule but, like a replayed recording,
    /// writes every link on `https://pokeapi.co`.
    static func pagingServer(total: Int) -> FakeTransport {
        FakeTransport { request in
            let components = URLComponents(url: request.url!, resolvingAgainstBaseURL: false)!
            func value(_ name: String) -> Int? {
                components.queryItems?.first { $0.name == name }?.value.flatMap { Int($0) }
            }
            let offset = value("offset") ?? 0
            let limit = value("limit") ?? 20
            let end = min(offset + limit, total)
            let results = (offset < end ? Array(offset..<end) : []).map { index in
                "{\"name\": \"pokemon-\(index + 1)\", \"url\": \"https://pokeapi.co/api/v2/pokemon/\(index + 1)/\"}"
            }
            let nextEnd = min(offset + 2 * limit, total)
            let next =
                nextEnd > offset + limit
                ? "\"https://pokeapi.co/api/v2/pokemon/?offset=\(offset + limit)&limit=\(nextEnd - offset - limit)\""
                : "null"
            let json = """
                {"count": \(total), "next": \(next), "previous": null, "results": [\(results.joined(separator: ","))]}
                """
            return .init(body: Data(json.utf8))
        }
    }

    static func client(for stub: FakeTransport) -> PokemonClient {
        PokemonClient(configuration: PokemonClientConfiguration(baseURL: stub.baseURL), session: stub.session)
    }

    @Test func fetchesPokemonByIdFromTheCanonicalURLAskingForJSON() async throws {
        let stub = Self.dumpServer()
        let pokemon = try await Self.client(for: stub).pokemon(id: 1)

        #expect(pokemon.name == "bulbasaur")
        #expect(stub.requestedURLs == ["\(stub.baseURL.absoluteString)/api/v2/pokemon/1/"])
        #expect(stub.requests.first?.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(stub.requests.first?.httpMethod == "GET")
    }

    @Test func fetchesSpeciesAndTypeFromTheirCanonicalURLs() async throws {
        let stub = Self.dumpServer()
        let client = Self.client(for: stub)

        #expect(try await client.species(id: 669).name(in: "en") == "Flabébé")
        #expect(try await client.type(id: 1).name == "normal")
        await #expect(throws: PokemonClientError.self) { try await client.type(name: "normal") }
        #expect(
            stub.requestedURLs.map { $0.replacingOccurrences(of: stub.baseURL.absoluteString, with: "") } == [
                "/api/v2/pokemon-species/669/",
                "/api/v2/type/1/",
                "/api/v2/type/normal/",
            ])
    }

    @Test func requestsNamesLowerCasedAndPercentEncoded() async throws {
        let stub = Self.dumpServer()
        await #expect(throws: PokemonClientError.self) {
            try await Self.client(for: stub).pokemon(name: "Flabébé")
        }
        #expect(stub.requestedURLs == ["\(stub.baseURL.absoluteString)/api/v2/pokemon/flab%C3%A9b%C3%A9/"])
    }

    @Test func unknownPokemonThrowsHTTPStatusWithURLAndBodyExcerpt() async throws {
        let stub = Self.dumpServer()
        let error = try await #require(throws: PokemonClientError.self) {
            try await Self.client(for: stub).pokemon(id: 99_999)
        }
        #expect(
            error
                == .httpStatus(
                    url: URL(string: "\(stub.baseURL.absoluteString)/api/v2/pokemon/99999/")!,
                    status: 404,
                    bodyExcerpt: "Not Found"
                ))
        #expect(error.httpStatusCode == 404)
        #expect(error.description.contains("404"))
        #expect(error.description.contains("/api/v2/pokemon/99999/"))
    }

    @Test(
        "a long error body is cut before the scalar that crosses 512 bytes, and says so",
        arguments: [
            // 511 ASCII bytes, then "é" (2 bytes, crossing byte 512): the cut is before it.
            (String(repeating: "x", count: 511) + "é" + String(repeating: "y", count: 100), 511),
            // 510, then "🐉" (4 bytes, 510 to 513): cut before it, not in it.
            (String(repeating: "x", count: 510) + "🐉" + String(repeating: "y", count: 100), 510),
            // "é" ending exactly at byte 512 stays whole.
            (String(repeating: "x", count: 510) + "é" + String(repeating: "y", count: 100), 512),
        ])
    func httpStatusExcerptCutsOnAScalarBoundary(text: String, shown: Int) async throws {
        let body = Data(text.utf8)
        let stub = FakeTransport { _ in .init(status: 500, body: body, headers: [:]) }
        let error = try await #require(throws: PokemonClientError.self) {
            try await Self.client(for: stub).pokemon(id: 1)
        }
        guard case .httpStatus(_, let status, let excerpt) = error else {
            Issue.record("expected .httpStatus, got \(error)")
            return
        }
        #expect(status == 500)
        let kept = String(decoding: body.prefix(shown), as: UTF8.self)
        #expect(excerpt == kept + "… (cut: \(shown) of \(body.count) bytes shown)")
        #expect(!excerpt.contains("\u{FFFD}"))
        #expect(error.description.contains("(cut: \(shown) of \(body.count) bytes shown)"))
    }

    @Test("an error body within 512 bytes is kept whole, with no cut note")
    func shortErrorBodyIsWhole() async throws {
        let body = Data((String(repeating: "x", count: 510) + "é").utf8)
        let stub = FakeTransport { _ in .init(status: 404, body: body, headers: [:]) }
        let error = try await #require(throws: PokemonClientError.self) {
            try await Self.client(for: stub).pokemon(id: 1)
        }
        guard case .httpStatus(_, 404, let excerpt) = error else {
            Issue.record("expected .httpStatus 404, got \(error)")
            return
        }
        #expect(excerpt == String(decoding: body, as: UTF8.self))
    }

    @Test func decodingErrorCarriesTheCodingPath() async throws {
        let json = """
            {"count": 4, "next": null, "previous": null, "results": [
              {"name": "a", "url": "/api/v2/pokemon/1/"}, {"name": "b", "url": "/api/v2/pokemon/2/"},
              {"name": "c", "url": "/api/v2/pokemon/3/"}, {"name": "d", "url": 4}]}
            """
        let stub = FakeTransport { _ in .init(body: Data(json.utf8)) }
        let error = try await #require(throws: PokemonClientError.self) {
            try await Self.client(for: stub).pokemonPage(offset: 0, limit: 20)
        }
        guard case .decoding(let url, let codingPath, let reason) = error else {
            Issue.record("expected .decoding, got \(error)")
            return
        }
        #expect(url.absoluteString == "\(stub.baseURL.absoluteString)/api/v2/pokemon/?offset=0&limit=20")
        #expect(codingPath == "results[3].url")
        #expect(!reason.isEmpty)
        #expect(error.description.contains("results[3].url"))
    }

    @Test func missingKeyIsReportedAtItsOwnPath() async throws {
        let json = #"{"count": 1, "next": null, "previous": null, "results": [{"url": "/api/v2/pokemon/1/"}]}"#
        let stub = FakeTransport { _ in .init(body: Data(json.utf8)) }
        let error = try await #require(throws: PokemonClientError.self) {
            try await Self.client(for: stub).pokemonPage(offset: 0, limit: 1)
        }
        guard case .decoding(_, let codingPath, let reason) = error else {
            Issue.record("expected .decoding, got \(error)")
            return
        }
        #expect(codingPath == "results[0].name")
        #expect(reason.contains("name"))
    }

    @Test func bodyThatIsNotJSONIsADecodingErrorAtTheRoot() async throws {
        let stub = FakeTransport { _ in
            .init(body: Data("<html>hello</html>".utf8), headers: ["Content-Type": "text/html"])
        }
        let error = try await #require(throws: PokemonClientError.self) {
            try await Self.client(for: stub).pokemon(id: 1)
        }
        guard case .decoding(_, let codingPath, _) = error else {
            Issue.record("expected .decoding, got \(error)")
            return
        }
        #expect(codingPath == "")
    }

    @Test func connectionFailureIsATransportError() async throws {
        // A session with the stub protocol but a host nobody registered: the protocol fails the load.
        let stub = FakeTransport { _ in .init() }
        let elsewhere = PokemonClient(
            configuration: PokemonClientConfiguration(baseURL: URL(string: "http://unregistered.test")!),
            session: stub.session
        )
        let error = try await #require(throws: PokemonClientError.self) {
            try await elsewhere.pokemon(id: 1)
        }
        guard case .transport(let url, let underlying) = error else {
            Issue.record("expected .transport, got \(error)")
            return
        }
        #expect(url.absoluteString == "http://unregistered.test/api/v2/pokemon/1/")
        #expect(!underlying.isEmpty)
    }

    @Test func followsPokeAPINextLinksOnTheConfiguredServer() async throws {
        let stub = Self.pagingServer(total: 45)
        let client = Self.client(for: stub)

        let first = try await client.pokemonPage(offset: 0, limit: 20)
        #expect(first.next?.host == "pokeapi.co")
        let second = try #require(try await client.page(after: first))
        let third = try #require(try await client.page(after: second))
        #expect(try await client.page(after: third) == nil)

        #expect(first.results.first?.name == "pokemon-1")
        #expect(second.results.first?.name == "pokemon-21")
        #expect(third.results.map(\.name) == (41...45).map { "pokemon-\($0)" })
        let base = stub.baseURL.absoluteString
        #expect(
            stub.requestedURLs == [
                "\(base)/api/v2/pokemon/?offset=0&limit=20",
                "\(base)/api/v2/pokemon/?offset=20&limit=20",
                "\(base)/api/v2/pokemon/?offset=40&limit=5",
            ])
    }

    @Test func allPokemonWalksEveryPage() async throws {
        let stub = Self.pagingServer(total: 45)
        let all = try await Self.client(for: stub).allPokemon(pageSize: 20)

        #expect(all.count == 45)
        #expect(all.map(\.name) == (1...45).map { "pokemon-\($0)" })
        #expect(stub.requests.count == 3)
    }

    @Test func allPokemonStopsWhenNextRepeats() async throws {
        let json = """
            {"count": 100, "next": "https://pokeapi.co/api/v2/pokemon/?offset=20&limit=20", "previous": null,
             "results": [{"name": "a", "url": "/api/v2/pokemon/1/"}]}
            """
        let stub = FakeTransport { _ in .init(body: Data(json.utf8)) }
        let error = try await #require(throws: PokemonClientError.self) {
            try await Self.client(for: stub).allPokemon(pageSize: 20)
        }
        guard case .decoding(_, let codingPath, _) = error else {
            Issue.record("expected .decoding, got \(error)")
            return
        }
        #expect(codingPath == "next")
        #expect(stub.requests.count == 2)
    }

    @Test func followsAResourceLinkFromABody() async throws {
        let stub = Self.dumpServer()
        let client = Self.client(for: stub)
        let bulbasaur = try await client.pokemon(id: 1)
        let species = try await client.resource(PokemonSpecies.self, at: bulbasaur.species.url)

        #expect(species.id == 1)
        #expect(stub.requestedURLs.last == "\(stub.baseURL.absoluteString)/api/v2/pokemon-species/1/")
    }
}
