import Foundation
import PokestubClient
import PokestubTestSupport
import PokestubTesting
import Synchronization
import Testing

@Suite("Sessions through the admin client")
struct SessionClientTests {
    struct Boom: Error {}

    /// The URL the app would request: `POKEMON_URL` from the environment, then the canonical PokeAPI path.
    static func appURL(_ environment: [String: String], _ path: String) throws -> URL {
        let base = try #require(environment["POKEMON_URL"])
        return try #require(URL(string: base + path))
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

            let ashAnswer = try await HTTPFetch.send(try Self.appURL(ash.environment, "/api/v2/pokemon/25/"))
            let mistyAnswer = try await HTTPFetch.send(try Self.appURL(misty.environment, "/api/v2/pokemon/25/"))
            _ = try await HTTPFetch.send(try Self.appURL(misty.environment, "/api/v2/pokemon/25/"))
            #expect(try StubJSON(parsing: ashAnswer.body)["name"] == "pikachu")
            #expect(try StubJSON(parsing: mistyAnswer.body)["name"] == "psyduck")

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
            let seen = Mutex<PokestubSession?>(nil)
            await #expect(throws: Boom.self) {
                try await server.admin.withSession(name: "doomed") { session in
                    seen.withLock { $0 = session }
                    try await session.admin.addStub(StubBuilder.get("/api/v2/pokemon/1/").willReturn(.text("one")))
                    #expect(
                        try await HTTPFetch.send(try Self.appURL(session.environment, "/api/v2/pokemon/1/")).text
                            == "one")
                    throw Boom()
                }
            }
            let session = try #require(seen.withLock { $0 })
            let after = try await HTTPFetch.send(try Self.appURL(session.environment, "/api/v2/pokemon/1/"))
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
