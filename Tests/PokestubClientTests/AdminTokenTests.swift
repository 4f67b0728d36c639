import Foundation
import PokestubClient
import PokestubCore
import PokestubTestSupport
import Testing

@Suite("The admin token")
struct AdminTokenTests {
    static let token = "correct-horse-battery-staple"

    @Test("the token from POKESTUB_ADMIN_TOKEN is sent as a bearer token, to sessions too, with each session's secret")
    func tokenSent() async throws {
        try await OwnServer.with(adminAccess: AdminAccess(token: Self.token)) { baseURL in
            let admin = try PokestubAdminClient(environment: [
                "POKEMON_URL": baseURL.absoluteString, "POKESTUB_ADMIN_TOKEN": " \(Self.token)\n",
            ])
            #expect(admin.hasToken)
            try await admin.addStub(StubBuilder.get("/a"))
            #expect(try await admin.stubs().count == 1)
            try await admin.withSession { session in
                try await session.admin.addStub(StubBuilder.get("/b").willReturn(.text("b")))
                #expect(try await HTTPFetch.send(session.baseURL.appendingPathComponent("b")).text == "b")
                #expect(try await session.admin.waitForRequests(.atLeast(1), .get("/b"), timeout: .seconds(5)) == 1)
                // Another job holds the same token but not this session's secret.
                let otherJob = PokestubAdminClient(baseURL: baseURL, token: Self.token)
                await #expect(throws: PokestubClientError.self) {
                    try await otherJob.scoped(toSession: session.id).stubs()
                }
                #expect(try await otherJob.sessions().isEmpty)
                #expect(try await admin.scoped(toSession: session.id, secret: session.secret).stubs().count == 1)
            }
        }
    }

    @Test("no token or a wrong one is a 401 saying what to set")
    func unauthorized() async throws {
        try await OwnServer.with(adminAccess: AdminAccess(token: Self.token)) { baseURL in
            let missing = await #expect(throws: PokestubClientError.self) {
                try await PokestubAdminClient(baseURL: baseURL).stubs()
            }
            guard case .unauthorized(let method, let url, let tokenSent, _)? = missing else {
                Issue.record("expected unauthorized, got \(String(describing: missing))")
                return
            }
            #expect(method == "GET" && url.path == "/__admin/mappings" && !tokenSent)
            #expect(missing?.httpStatus == 401)
            let missingText = missing?.description ?? ""
            #expect(missingText.contains("(HTTP 401): the admin API needs a token; set POKESTUB_ADMIN_TOKEN"))
            #expect(missingText.contains("Admin token required"), "the server's reason: \(missingText)")

            let wrong = await #expect(throws: PokestubClientError.self) {
                try await PokestubAdminClient(baseURL: baseURL, token: "guess").createSession()
            }
            let wrongText = wrong?.description ?? ""
            #expect(wrongText.contains("(HTTP 401): the admin token was refused"), "\(wrongText)")
            #expect(!wrongText.contains("guess"), "the token is not shown")
        }
    }
}
