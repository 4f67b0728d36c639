import Foundation
import PokestubTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("An admin API nobody else can drive")
struct AdminSecurityTests {
    private static let token = "0123456789abcdef0123456789abcdef"

    private static func status(_ url: String, method: String = "GET", bearer: String? = nil) async throws -> Int {
        let headers = bearer.map { ["Authorization": "Bearer \($0)"] } ?? [:]
        return try await HTTPFetch.send(url, method: method, headers: headers).status
    }

    @Test("binding off loopback without a token refuses to start, naming the key")
    func tokenRequiredOffLoopback() async throws {
        let refused = try await PokestubProcess.run([
            "serve", "--host", "0.0.0.0", "--port", "0", "--stubs", Repository.stubs,
        ])
        #expect(refused.status == 78)
        #expect(refused.stderr.contains("invalid configuration adminToken"))
    }

    @Test("with a token, admin calls without it or with a wrong one get 401; the right one passes")
    func bearerToken() async throws {
        let server = try PokestubProcess(
            ["serve", "--host", "0.0.0.0", "--port", "0", "--stubs", Repository.stubs],
            environment: ["POKESTUB_ADMIN_TOKEN": Self.token])
        defer { server.signal(SIGTERM) }
        let base = try await server.waitUntilListening()
        #expect(try await Self.status(base + "/__admin/requests") == 401)
        #expect(try await Self.status(base + "/__admin/requests", bearer: "wrong-token-wrong-token") == 401)
        #expect(try await Self.status(base + "/__admin/mappings", method: "DELETE", bearer: "nope") == 401)
        #expect(try await Self.status(base + "/__admin/requests", bearer: Self.token) == 200)
        #expect(try await Self.status(base + "/__admin/health") == 200)  // for liveness probes
        #expect(try await Self.status(base + "/api/v2/pokemon/1/") == 200)  // stubs need no token
        #expect(try await Self.status(base + "/api/v2/pokemon/1/", bearer: Self.token) == 200)
    }

    @Test("the opt-out serves an open admin API off loopback with a loud warning")
    func optOut() async throws {
        let server = try PokestubProcess(
            ["serve", "--host", "0.0.0.0", "--port", "0", "--stubs", Repository.stubs, "--admin-allow-unauthenticated"])
        defer { server.signal(SIGTERM) }
        let base = try await server.waitUntilListening()
        try await server.waitForError(containing: "THE ADMIN API IS OPEN")
        #expect(try await Self.status(base + "/__admin/requests") == 200)
    }

    @Test("with adminPort the admin API moves to its own port and the main port refuses it")
    func ownPort() async throws {
        let server = try PokestubProcess(["serve", "--port", "0", "--admin-port", "0", "--stubs", Repository.stubs])
        defer { server.signal(SIGTERM) }
        let base = try await server.waitUntilListening()
        let adminLine = try await server.waitForLine(startingWith: "pokestub admin API on ")
        let admin = String(adminLine.dropFirst("pokestub admin API on ".count).dropLast("/__admin".count))
        #expect(try await Self.status(base + "/__admin/requests") == 404)
        #expect(try await Self.status(admin + "/__admin/requests") == 200)
        #expect(try await Self.status(admin + "/api/v2/pokemon/1/") == 404)
        #expect(try await Self.status(base + "/api/v2/pokemon/1/") == 200)
    }

    @Test("without a token, a cross-site POST and a foreign Host get 403; the configured host is accepted")
    func crossSite() async throws {
        let server = try PokestubProcess(["serve", "--port", "0", "--stubs", Repository.stubs])
        defer { server.signal(SIGTERM) }
        let base = try await server.waitUntilListening()
        let port = try #require(base.split(separator: ":").last)
        let stub = Data(#"{"request":{"urlPath":"/csrf"},"response":{"status":200,"body":"pwned"}}"#.utf8)
        let post = try await HTTPFetch.send(
            base + "/__admin/mappings", method: "POST", body: stub,
            headers: ["Origin": "http://evil.example", "Content-Type": "text/plain"])
        #expect(post.status == 403)
        #expect(post.text.contains("Cross-origin admin request refused"))
        #expect(try await Self.status(base + "/csrf") == 404)
        let rebound = try await HTTPFetch.send(
            base + "/__admin/requests?limit=1", headers: ["Host": "evil.example:\(port)"])
        #expect(rebound.status == 403)
        #expect(try await Self.status(base + "/__admin/requests?limit=1") == 200)

        // Opened to other machines on purpose (the loud opt-out), they may name the daemon as they reach it, but
        // web pages are still kept out.
        let open = try PokestubProcess(
            ["serve", "--host", "0.0.0.0", "--port", "0", "--stubs", Repository.stubs, "--admin-allow-unauthenticated"])
        defer { open.signal(SIGTERM) }
        let openBase = try await open.waitUntilListening()
        let openPort = try #require(openBase.split(separator: ":").last)
        let named = try await HTTPFetch.send(openBase + "/__admin/requests", headers: ["Host": "ci-7:\(openPort)"])
        #expect(named.status == 200)
        let page = try await HTTPFetch.send(openBase + "/__admin/requests", headers: ["Origin": "http://evil.example"])
        #expect(page.status == 403)
    }

    @Test("with adminPort, a new session's adminUrl is on the admin port and answers there")
    func sessionAdminURLOnOwnPort() async throws {
        let server = try PokestubProcess(["serve", "--port", "0", "--admin-port", "0", "--stubs", Repository.stubs])
        defer { server.signal(SIGTERM) }
        let base = try await server.waitUntilListening()
        let adminLine = try await server.waitForLine(startingWith: "pokestub admin API on ")
        let admin = String(adminLine.dropFirst("pokestub admin API on ".count).dropLast("/__admin".count))
        let created = try await HTTPFetch.send(admin + "/__admin/sessions", method: "POST")
        #expect(created.status == 201)
        let session = try JSONSerialization.jsonObject(with: created.body) as? [String: Any]
        let adminURL = try #require(session?["adminUrl"] as? String)
        let baseURL = try #require(session?["baseUrl"] as? String)
        #expect(adminURL.hasPrefix(admin + "/__admin/sessions/"), "\(adminURL)")
        #expect(baseURL.hasPrefix(base + "/__sessions/"), "\(baseURL)")
        #expect(try await Self.status(adminURL + "/requests") == 200)
        #expect(try await Self.status(baseURL + "/api/v2/pokemon/1/") == 200)
    }

    @Test("a short token is refused as configuration")
    func shortToken() async throws {
        let refused = try await PokestubProcess.run(["serve", "--admin-token", "short", "--stubs", Repository.stubs])
        #expect(refused.status == 78)
        #expect(refused.stderr.contains("invalid configuration adminToken (from --admin-token)"))
    }
}
