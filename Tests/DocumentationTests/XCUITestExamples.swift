import Foundation
import PokemonClient
import PokestubClient
import PokestubTesting
import Testing

// The XCUITest classes of Docs/XCUITest.md, compiled against the stand-ins in XCUITestStandIns.swift.

final class PokemonListUITests: XCTestCase {
    /// The daemon named by POKEMON_URL in the test runner's environment (the scheme), else
    /// http://127.0.0.1:8080, with an empty journal and no stubs left over from the previous test
    /// (the stub files stay).
    static func freshPokestub() async throws -> PokestubAdminClient {
        let admin = try PokestubAdminClient()
        try await admin.reset()
        return admin
    }

    @MainActor
    func testListShowsFirstPage() async throws {
        let admin = try await Self.freshPokestub()

        // Stub: the first page of the list, with two entries.
        try await admin.addStub(
            StubBuilder.get("/api/v2/pokemon/")
                .withQueryParameter("offset", .equalTo("0"))
                .withQueryParameter("limit", .equalTo("20"))
                .willReturn(
                    .json([
                        "count": 2, "next": nil, "previous": nil,
                        "results": [
                            ["name": "bulbasaur", "url": "https://pokeapi.co/api/v2/pokemon/1/"],
                            ["name": "ivysaur", "url": "https://pokeapi.co/api/v2/pokemon/2/"],
                        ],
                    ])
                )
                .withName("list: first page"))

        // Launch: the app's process gets POKEMON_URL, so its PokemonClient talks to the daemon.
        let app = XCUIApplication()
        app.launchEnvironment["POKEMON_URL"] = admin.baseURL.absoluteString
        app.launch()

        // Assert on the screen.
        XCTAssertTrue(app.staticTexts["bulbasaur"].waitForExistence(timeout: 5))
        XCTAssertTrue(app.staticTexts["ivysaur"].exists)

        // Verify what the app sent: exactly one request for the first page.
        try await admin.verify(
            count: 1,
            .get("/api/v2/pokemon/")
                .withQueryParameter("offset", .equalTo("0"))
                .withQueryParameter("limit", .equalTo("20")))
    }

    @MainActor
    func testDetailScreenUsesShippedStubs() async throws {
        let admin = try await Self.freshPokestub()

        // No stub needed: the shipped stubs answer /api/v2/pokemon/1/ with the real bulbasaur.
        let app = XCUIApplication()
        app.launchEnvironment["POKEMON_URL"] = admin.baseURL.absoluteString
        app.launch()
        app.staticTexts["bulbasaur"].tap()

        // The app may fetch the detail after the screen appears: wait for the request (the daemon answers the
        // moment it arrives; no sleeps, no polling), then check it was the only one.
        try await admin.waitForRequests(.atLeast(1), .get("/api/v2/pokemon/1/"), timeout: .seconds(5))
        try await admin.verify(count: 1, .get("/api/v2/pokemon/1/"))
    }
}

final class PokemonDetailUITests: XCTestCase {
    @MainActor
    func testDetailShowsPikachu() async throws {
        let admin = try PokestubAdminClient()  // POKEMON_URL and POKESTUB_ADMIN_TOKEN from the scheme / CI job
        try await admin.withSession(
            name: "detail-\(UUID().uuidString.prefix(8))", idleTimeout: .seconds(600)
        ) {
            session in
            // Stubs and verification go through session.admin: they see this session only.
            try await session.admin.addStub(
                StubBuilder.get("/api/v2/pokemon/25/").willReturn(.json(encoding: Pokemon.pikachu)))

            // The app gets the session's base URL as POKEMON_URL.
            let app = XCUIApplication()
            app.launchEnvironment = session.environment
            app.launch()

            XCTAssertTrue(app.staticTexts["pikachu"].waitForExistence(timeout: 5))
            try await session.admin.waitForRequests(
                .atLeast(1), .get("/api/v2/pokemon/25/"), timeout: .seconds(5))
            try await session.admin.verify(count: 1, .get("/api/v2/pokemon/25/"))
        }
    }
}

/// What step 5's UI test relies on, run against a real server: the stub it adds to its session answers
/// `PokemonClient.pokemon(id: 25)`, as the app under test calls it, with pikachu.
@Suite("Docs/XCUITest.md: the session's pikachu stub")
struct XCUITestSessionStubTests {
    @Test("the app's client, given the session's environment, decodes pikachu from the stub")
    func pikachuDecodes() async throws {
        try await withStubServer { server in
            try await server.admin.withSession(name: "detail") { session in
                try await session.admin.addStub(
                    StubBuilder.get("/api/v2/pokemon/25/").willReturn(.json(encoding: Pokemon.pikachu)))
                let app = try PokemonClient(environment: session.environment)
                let pikachu = try await app.pokemon(id: 25)
                #expect(pikachu.name == "pikachu")
                #expect(pikachu == .pikachu)
                try await session.admin.verify(count: 1, .get("/api/v2/pokemon/25/"))
            }
        }
    }
}

final class PokemonDetailReportUITests: XCTestCase {
    @MainActor
    func testDetailFetchesBulbasaur() async throws {
        // A failed check of this client attaches what explains it to this test's report.
        let admin = try PokestubAdminClient().attachingFailuresToXCTest()
        try await admin.reset()

        let app = XCUIApplication()
        app.launchEnvironment["POKEMON_URL"] = admin.baseURL.absoluteString
        app.launch()
        app.staticTexts["bulbasaur"].tap()
        XCTAssertTrue(app.staticTexts["#1"].waitForExistence(timeout: 5))

        // The app asks for /api/v2/pokemon/1/, with the slash: this check fails, and says so.
        try await admin.verify(count: 1, .get("/api/v2/pokemon/1"))
    }
}
