import Foundation
import PokemonClient
import PokestubClient
import PokestubTesting
import Testing

/// An example that doubles as a test: the app POSTs JSON, and the test checks what it sent through the request
/// journal, with `equalToJson` and `matchesJsonPath`.
@Suite("Example: checking a POST body")
struct PostBodyExampleTests {
    static let accepted = StubBuilder.post("/api/v2/favorites/").willReturn(.status(201)).withName("favorites")

    static let favorites = FavoritesUploader.Favorites(
        trainer: "ash", favorites: [.init(id: 25, name: "pikachu"), .init(id: 1, name: "bulbasaur")])

    @Test("the favourites the app posts arrive as the JSON the backend expects")
    func postBody() async throws {
        try await withStubServer(mappings: [Self.accepted]) { server in
            let uploader = FavoritesUploader(
                configuration: try PokemonClientConfiguration(environment: server.environment))
            #expect(try await uploader.upload(Self.favorites) == 201)

            // The whole document, as the backend would read it.
            try await server.admin.verify(
                count: 1,
                .post("/api/v2/favorites/")
                    .withHeader("Content-Type", .equalTo("application/json"))
                    .withRequestBody(
                        .equalToJson(
                            [
                                "trainer": "ash",
                                "favorites": [["id": 1, "name": "bulbasaur"], ["id": 25, "name": "pikachu"]],
                            ], ignoreArrayOrder: true)))
            // Single facts, leaving the rest of the document free.
            try await server.admin.verify(
                count: 1, .post("/api/v2/favorites/").withRequestBody(.matchesJsonPath("$.trainer", .equalTo("ash"))))
            try await server.admin.verify(
                count: 1,
                .post("/api/v2/favorites/").withRequestBody(.matchesJsonPath("$.favorites[?(@.name == 'pikachu')]")))
            try await server.admin.verify(
                .never, .post("/api/v2/favorites/").withRequestBody(.matchesJsonPath("$.favorites[?(@.id == 150)]")))

            // The journal also hands the body back for checks in Swift.
            let sent = try #require(try await server.admin.findRequests(.post("/api/v2/favorites/")).first)
            #expect(sent.bodyJSON?["favorites"]?[0]?["name"] == "pikachu")
        }
    }

    @Test("a body that differs fails verification with the difference in the message")
    func postBodyMismatch() async throws {
        try await withStubServer(mappings: [Self.accepted]) { server in
            let uploader = FavoritesUploader(
                configuration: try PokemonClientConfiguration(environment: server.environment))
            _ = try await uploader.upload(Self.favorites)
            let error = await #expect(throws: PokestubClientError.self) {
                try await server.admin.verify(
                    count: 1,
                    .post("/api/v2/favorites/").withRequestBody(.matchesJsonPath("$.trainer", .equalTo("misty"))))
            }
            let text = error?.description ?? ""
            #expect(
                text.contains(#"body: expected matchesJsonPath "$.trainer" with equalTo "misty", got "{"#), "\(text)")
        }
    }
}
