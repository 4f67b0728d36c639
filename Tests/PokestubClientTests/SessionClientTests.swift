import Foundation
import PokemonClient
import PokestubClient
import PokestubLocking
import PokestubTestSupport
import PokestubTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Sessions through the admin client")
struct SessionClientTests {
    struct Boom: Error {}

    /// The part of a Pokémon body the tests look at; the stubs answer with nothing more.
    struct Named: Decodable {
        var name: String
    }

    /// Requests without a cache, so a repeated request reaches the server and its journal.
    private static let uncached: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }()

    /// The app's client, configured from `POKEMON_URL` in the environment as an app launched with it would be.
    static func app(_ environment: [String: String]) throws -> PokemonClient {
        try #require(environment[PokemonClientConfiguration.environmentVariable] != nil, "no POKEMON_URL")
        return try PokemonClient(environment: environment, session: uncached)
    }

    @Test("two sessions with different stubs for the same path each get their own answer and journal")
    func sessionsAreIsolated() async throws {
        try await withStubServer { server in
            let ash = try await server.admin.createSession(name: "ash")
            let misty = try await server.admin.createSession(name: "misty")
            #expect(ash.id != misty.id)
            #expect(ash.baseURL.absoluteString == server.baseURL.absoluteString + "/__sessions/\(ash.id)")
            #expect(ash.environment == ["POKEMON_URL": ash.baseURL.absoluteString])
            #expect(ash.admin.sessionID == ash.id)

            try await ash.admin.addStub(StubBuilder.get("/api/v2/pokemon/25/").willReturn(.json(["name": "pikachu"])))
            try await misty.admin.addStub(StubBuilder.get("/api/v2/pokemon/25/").willReturn(.json(["name": "psyduck"])))

            // Each app asks for pokemon 25 through its own session's base URL.
            let ashApp = try Self.app(ash.environment)
            let mistyApp = try Self.app(misty.environment)
            let ashAnswer = try await ashApp.resource(Named.self, at: ashApp.routes.pokemon(id: 25))
            let mistyAnswer = try await mistyApp.resource(Named.self, at: mistyApp.routes.pokemon(id: 25))
            _ = try await mistyApp.resource(Named.self, at: mistyApp.routes.pokemon(id: 25))
            #expect(ashAnswer.name == "pikachu")
            #expect(mistyAnswer.name == "psyduck")

            // Each journal holds its own requests, with paths as the app sent them inside the session.
            try await ash.admin.verify(count: 1, .get("/api/v2/pokemon/25/"))
            try await misty.admin.verify(count: 2, .get("/api/v2/pokemon/25/"))
            #expect(try await ash.admin.stubs().count == 1)
            // The daemon's own journal and stubs saw none of it; the daemon answers 404 for the path.
            #expect(try await server.admin.requests().isEmpty)
            #expect(try await server.admin.stubs().isEmpty)
            #expect(try await HTTPFetch.send(server.url("/api/v2/pokemon/25/")).status == 404)

            let listed = try await server.admin.sessions()
            #expect(Set(listed.map(\.id)) == [ash.id, misty.id])
            #expect(listed.first { $0.id == misty.id }?.name == "misty")
            #expect(listed.first { $0.id == misty.id }?.requestCount == 2)
            try await server.admin.endSession(id: ash.id)
            try await misty.end()
            #expect(try await server.admin.sessions().isEmpty)
        }
    }

    @Test("withSession ends the session when the body throws, so its base URL answers 404")
    func withSessionEndsOnThrow() async throws {
        try await withStubServer { server in
            let seen = Locked<PokestubSession?>(nil)
            await #expect(throws: Boom.self) {
                try await server.admin.withSession(name: "doomed") { session in
                    seen.withLock { $0 = session }
                    try await session.admin.addStub(StubBuilder.get("/api/v2/pokemon/1/").willReturn(.text("one")))
                    #expect(
                        try await HTTPFetch.send(try Self.app(session.environment).routes.pokemon(id: 1)).text
                            == "one")
                    throw Boom()
                }
            }
            let session = try #require(seen.withLock { $0 })
            let after = try await HTTPFetch.send(try Self.app(session.environment).routes.pokemon(id: 1))
            #expect(after.status == 404)
            #expect(after.text.contains("No such session"), "\(after.text)")
            #expect(try await server.admin.sessions().isEmpty)
            let error = await #expect(throws: PokestubClientError.self) { try await session.admin.stubs() }
            #expect(error?.httpStatus == 404)
        }
    }

    @Test("withSession returns the body's value and ends the session, even one the body ended itself")
    func withSessionEndsOnReturn() async throws {
        try await withStubServer { server in
            let id = try await server.admin.withSession(name: "tidy", idleTimeout: .milliseconds(59_500)) { session in
                #expect(session.idleTimeoutSeconds == 60, "59.5 s rounds up to whole seconds")
                #expect(session.idleTimeout == .seconds(60))
                let fetched = try await server.admin.session(id: session.id)
                #expect(fetched.name == "tidy")
                return session.id
            }
            #expect(try await server.admin.sessions().isEmpty)
            let error = await #expect(throws: PokestubClientError.self) { try await server.admin.endSession(id: id) }
            #expect(error?.httpStatus == 404)

            try await server.admin.withSession { session in try await session.end() }
            #expect(try await server.admin.sessions().isEmpty)
        }
    }

    @Test("a client made from a session's environment acts on that session")
    func clientFromSessionEnvironment() async throws {
        try await withStubServer { server in
            try await server.admin.withSession { session in
                let admin = try PokestubAdminClient(environment: session.environment)
                #expect(admin.sessionID == session.id)
                #expect(admin.baseURL == server.baseURL)
                try await admin.addStub(StubBuilder.get("/x").willReturn(.text("in session")))
                #expect(try await session.admin.stubs().count == 1)
                #expect(try await server.admin.stubs().isEmpty)
                #expect(try await HTTPFetch.send(session.baseURL.appendingPathComponent("x")).text == "in session")
                // Sessions are made on the daemon even from a scoped client.
                let nested = try await admin.createSession(name: "sibling")
                #expect(try await server.admin.sessions().count == 2)
                try await nested.end()
            }
        }
    }
}
