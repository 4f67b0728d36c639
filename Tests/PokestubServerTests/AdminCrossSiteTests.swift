import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

@Suite("Web pages cannot drive the admin API (cross-site requests, DNS rebinding)")
struct AdminCrossSiteTests {
    private static let token = "0123456789abcdef0123456789abcdef"
    private static let stub = #"{"request": {"urlPath": "/csrf"}, "response": {"status": 200, "body": "pwned"}}"#

    /// The status of an admin request with the given extra header fields.
    private static func status(
        _ server: LiveServer, _ path: String, _ headers: [String: String], method: String = "GET",
        body: String? = nil
    ) async throws -> Int {
        try await server.send(method, "/__admin" + path, headers: headers, body: body.map { Data($0.utf8) }).status
    }

    /// The title of the first error in a JSON refusal.
    private static func errorTitle(_ response: LiveServer.Response) throws -> String? {
        guard case .array(let errors)? = try response.json()["errors"] else { return nil }
        return errors.first?["title"]?.stringValue
    }

    @Test("a cross-site simple POST gets 403 with a JSON reason and adds no stub")
    func crossSitePost() async throws {
        try await LiveServer.with { server in
            let refused = try await server.send(
                "POST", "/__admin/mappings",
                headers: ["Origin": "http://evil.example", "Content-Type": "text/plain"], body: Data(Self.stub.utf8))
            #expect(refused.status == 403)
            #expect(try Self.errorTitle(refused) == "Cross-origin admin request refused")
            #expect(refused.text.contains("http://evil.example"))
            #expect(try await server.send("GET", "/csrf").status == 404)
            #expect(try await server.admin("GET", "/mappings").1["meta"]?["total"] == .integer(0))
            for origin in ["null", "https://127.0.0.1.evil.example", "http://localhost.evil.example:8080", "garbage"] {
                #expect(try await Self.status(server, "/requests", ["Origin": origin]) == 403, "Origin \(origin)")
            }
        }
    }

    @Test("without a token, a Host that is not loopback gets 403 (DNS rebinding)")
    func rebinding() async throws {
        try await LiveServer.with { server in
            _ = try await server.send("GET", "/api/v2/pokemon/1/", headers: ["Authorization": "Bearer secret"])
            let port = server.server.port
            let refused = try await server.send(
                "GET", "/__admin/requests?limit=1", headers: ["Host": "evil.example:\(port)"])
            #expect(refused.status == 403)
            #expect(try Self.errorTitle(refused) == "Admin request for a foreign host refused")
            #expect(!refused.text.contains("secret"))
            for host in ["evil.example", "127.0.0.1.evil.example:\(port)", "localhost.evil.example", "[::2]:\(port)"] {
                #expect(try await Self.status(server, "/requests", ["Host": host]) == 403, "Host \(host)")
            }
            // The stubs themselves answer any Host.
            #expect(try await server.send("GET", "/csrf", headers: ["Host": "evil.example"]).status == 404)
        }
    }

    @Test("clients on loopback pass: no Origin, loopback names and addresses in Host and Origin")
    func loopbackClientsPass() async throws {
        try await LiveServer.with { (server: LiveServer) async throws in
            let port = server.server.port
            #expect(try await server.admin("POST", "/mappings", json: Self.stub).0 == 201)
            let allowed: [[String: String]] = [
                [:],
                ["Host": "127.0.0.1:\(port)"], ["Host": "localhost:\(port)"], ["Host": "LOCALHOST."],
                ["Host": "127.0.0.2"], ["Host": "[::1]:\(port)"], ["Host": "[0:0:0:0:0:0:0:1]"],
                ["Host": "[::ffff:127.0.0.1]:\(port)"],
                ["Origin": "http://localhost:3000"], ["Origin": "http://127.0.0.1:\(port)"],
                ["Origin": "http://[::1]:8080"],
            ]
            for headers in allowed {
                #expect(try await Self.status(server, "/requests", headers) == 200, "\(headers)")
            }
        }
    }

    @Test("a session's admin routes get the same check")
    func sessions() async throws {
        try await LiveServer.with { server in
            let (created, session) = try await server.admin("POST", "/sessions")
            #expect(created == 201)
            let id = try #require(session["id"]?.stringValue)
            #expect(try await Self.status(server, "/sessions/\(id)/requests", [:]) == 200)
            #expect(try await Self.status(server, "/sessions/\(id)/requests", ["Host": "evil.example"]) == 403)
            let refused = try await Self.status(
                server, "/sessions/\(id)/mappings", ["Origin": "http://evil.example"], method: "POST", body: Self.stub)
            #expect(refused == 403)
            #expect(try await server.send("GET", "/__sessions/\(id)/csrf").status == 404)
            #expect(
                try await Self.status(
                    server, "/sessions", ["Origin": "http://evil.example"], method: "POST", body: "{}") == 403)
        }
    }

    @Test("with a token, Host is not checked (machine names on CI hosts) but Origin still is")
    func withToken() async throws {
        try await LiveServer.with(adminAccess: AdminAccess(token: Self.token)) { (server: LiveServer) async throws in
            let bearer = "Bearer \(Self.token)"
            #expect(
                try await Self.status(server, "/requests", ["Host": "ci-runner-7:8080", "Authorization": bearer]) == 200
            )
            #expect(
                try await Self.status(server, "/requests", ["Origin": "http://evil.example", "Authorization": bearer])
                    == 403)
            #expect(try await Self.status(server, "/requests", ["Host": "ci-runner-7:8080"]) == 401)
        }
    }

    @Test("the configured host may be named in Host and Origin")
    func configuredHost() async throws {
        try await LiveServer.with(adminAccess: AdminAccess(host: "pokestub.lan")) { (server: LiveServer) async throws in
            #expect(try await Self.status(server, "/requests", ["Host": "pokestub.lan:8080"]) == 200)
            #expect(try await Self.status(server, "/requests", ["Origin": "http://PokeStub.lan:8080"]) == 200)
            #expect(try await Self.status(server, "/requests", ["Host": "other.lan:8080"]) == 403)
        }
    }

    @Test("opened to other machines on purpose: any Host passes without a token, Origin is still checked")
    func openedOnPurpose() async throws {
        let access = AdminAccess(host: "0.0.0.0", acceptsAnyHost: true)
        try await LiveServer.with(adminAccess: access) { (server: LiveServer) async throws in
            #expect(try await Self.status(server, "/requests", ["Host": "ci-runner-7:8080"]) == 200)
            #expect(try await Self.status(server, "/requests", ["Host": "10.1.2.3:8080"]) == 200)
            #expect(try await Self.status(server, "/requests", ["Origin": "http://evil.example"]) == 403)
        }
    }
}
