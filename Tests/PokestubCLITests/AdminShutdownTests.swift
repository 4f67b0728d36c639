import Foundation
import PokestubTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("POST /__admin/shutdown stops pokestub serve after answering, with the token, never from a session")
struct AdminShutdownTests {
    static let token = "shutdown-token-0123456789abcdef"

    private static func stubRoot() throws -> TemporaryDirectory {
        try TemporaryDirectory.stubRoot(
            mappings: ["a.json": #"{"request": {"urlPath": "/a"}, "response": {"body": "a"}}"#])
    }

    private static func post(_ url: String, bearer: String? = nil, body: String? = nil) async throws -> HTTPFetch {
        try await HTTPFetch.send(
            url, method: "POST", body: body.map { Data($0.utf8) },
            headers: bearer.map { ["Authorization": "Bearer \($0)"] } ?? [:])
    }

    @Test("answers 200, then the daemon stops gracefully and exits 0")
    func stops() async throws {
        let root = try Self.stubRoot()
        defer { root.removeFolder() }
        let server = try PokestubProcess(["serve", "--port", "0", "--stubs", root.path, "--log-level", "notice"])
        let base = try await server.waitUntilListening()
        let answer = try await Self.post(base + "/__admin/shutdown")
        #expect(answer.status == 200)
        #expect(answer.text.contains("shutting down"))
        let status = await server.exitStatus(within: .seconds(20))
        #expect(status == 0, "pokestub did not exit by itself: \(server.stderr)")
        #expect(server.stderr.contains("shutdown requested through the admin API"))
        await server.stop()
    }

    @Test("with an admin token it needs the token; a session's admin URL is refused; adminAllowShutdown=false refuses")
    func guarded() async throws {
        let root = try Self.stubRoot()
        defer { root.removeFolder() }
        let server = try PokestubProcess(
            ["serve", "--port", "0", "--stubs", root.path], environment: ["POKESTUB_ADMIN_TOKEN": Self.token])
        defer { server.signal(SIGTERM) }
        let base = try await server.waitUntilListening()
        #expect(try await Self.post(base + "/__admin/shutdown").status == 401)
        let session = try await Self.post(base + "/__admin/sessions", bearer: Self.token, body: "{}")
        let json = try JSONSerialization.jsonObject(with: session.body) as? [String: Any]
        let id = try #require(json?["id"] as? String)
        let secret = try #require(json?["secret"] as? String)
        let fromSession = try await HTTPFetch.send(
            base + "/__admin/sessions/\(id)/shutdown", method: "POST",
            headers: ["Authorization": "Bearer \(Self.token)", "Pokestub-Session-Secret": secret])
        #expect(fromSession.status == 403, "\(fromSession.text)")
        #expect(fromSession.text.contains("session"))
        #expect(try await HTTPFetch.send(base + "/a").status == 200, "still serving")
        #expect(await server.exitStatus(within: .zero) == nil)

        let closed = try PokestubProcess([
            "serve", "--port", "0", "--stubs", root.path, "--admin-allow-shutdown", "false",
        ])
        defer { closed.signal(SIGTERM) }
        let closedBase = try await closed.waitUntilListening()
        let refused = try await Self.post(closedBase + "/__admin/shutdown")
        #expect(refused.status == 403)
        #expect(refused.text.contains("adminAllowShutdown"))
        #expect(try await HTTPFetch.send(closedBase + "/a").status == 200, "still serving")
    }
}
