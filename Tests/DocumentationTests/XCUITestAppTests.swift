import Foundation
import PokemonClient
import PokestubClient
import PokestubTestSupport
import PokestubTesting
import Testing

/// Docs/XCUITest.md's step 4 and 5, run: the stand-in app (`Tests/PokedexStandIn`, reading `POKEMON_URL` and
/// using `PokemonClient` as the guide's app does) is launched as a process through the `XCUIApplication`
/// stand-in, its `POKEMON_URL` pointing at a session of a daemon serving the shipped stubs, and the test checks
/// the session's journal as the guide's tests do. The guide's classes read the daemon from the test runner's
/// environment, which a test here must not set, so these tests repeat their steps with the session's admin.
@Suite("Docs/XCUITest.md, run through a stand-in app process")
struct XCUITestAppTests {
    @Test("the list test: the stubbed first page shows, and the app asked for it once")
    func listShowsFirstPage() async throws {
        try await withStubServer(stubsDirectory: Repository.stubs) { server in
            try await server.admin.withSession(name: "list") { session in
                let admin = session.admin
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

                // The session's POKEMON_URL (its base URL), as step 5 hands it to the app.
                let app = XCUIApplication()
                app.launchEnvironment = session.environment
                app.launch()
                defer { app.terminate() }

                XCTAssertTrue(app.staticTexts["bulbasaur"].waitForExistence(timeout: 20), "\(app.shownErrors)")
                XCTAssertTrue(app.staticTexts["ivysaur"].exists)
                // The stub's two entries, not the shipped first page of twenty.
                #expect(!app.staticTexts["venusaur"].exists)
                try await admin.verify(
                    count: 1,
                    .get("/api/v2/pokemon/")
                        .withQueryParameter("offset", .equalTo("0"))
                        .withQueryParameter("limit", .equalTo("20")))
            }
        }
    }

    @Test("the detail test: tapping bulbasaur fetches /api/v2/pokemon/1/ from the shipped stubs, once")
    func detailUsesShippedStubs() async throws {
        try await withStubServer(stubsDirectory: Repository.stubs) { server in
            try await server.admin.withSession(name: "detail") { session in
                let app = XCUIApplication()
                app.launchEnvironment = session.environment
                app.launch()
                defer { app.terminate() }
                // The shipped list answers the app's first page; tapping opens the detail.
                XCTAssertTrue(app.staticTexts["bulbasaur"].waitForExistence(timeout: 20), "\(app.shownErrors)")
                app.staticTexts["bulbasaur"].tap()

                try await session.admin.waitForRequests(
                    .atLeast(1), .get("/api/v2/pokemon/1/"), timeout: .seconds(20))
                XCTAssertTrue(app.staticTexts["#1"].waitForExistence(timeout: 20), "\(app.shownErrors)")
                try await session.admin.verify(count: 1, .get("/api/v2/pokemon/1/"))
                try await session.admin.verify(count: 1, .get("/api/v2/pokemon/"))
                #expect(try await session.admin.unmatchedRequests().isEmpty)
            }
        }
    }

    @Test("the report test: a verify without the slash fails, leads with that, and attaches the report and journal")
    func failureAttachments() async throws {
        try await withStubServer(stubsDirectory: Repository.stubs) { server in
            try await server.admin.withSession(name: "report") { session in
                let admin = session.admin.attachingFailuresToXCTest()
                let activity = XCTActivityStandIn()
                let app = XCUIApplication()
                app.launchEnvironment = session.environment
                app.launch()
                defer { app.terminate() }
                XCTAssertTrue(app.staticTexts["bulbasaur"].waitForExistence(timeout: 20), "\(app.shownErrors)")
                app.staticTexts["bulbasaur"].tap()
                XCTAssertTrue(app.staticTexts["#1"].waitForExistence(timeout: 20), "\(app.shownErrors)")

                let error = await XCTActivityStandIn.$current.withValue(activity) {
                    await #expect(throws: PokestubClientError.self) {
                        try await admin.verify(count: 1, .get("/api/v2/pokemon/1"))
                    }
                }
                let attachments = await activity.attachments
                #expect(
                    attachments.map(\.name) == [
                        "pokestub-failure.txt", "pokestub-journal.json", "pokestub-journal.har",
                    ])
                let report = attachments.first?.text ?? ""
                #expect(report == (error?.description ?? "") + "\n")
                let first = report.prefix { $0 != "\n" }
                #expect(first.hasSuffix("but 0 matched; 1 request differs only in the trailing slash."), "\(report)")
                #expect(report.contains("\n  GET /api/v2/pokemon/1/\n"), "\(report)")
            }
        }
    }
}
