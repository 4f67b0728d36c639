import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

/// On a daemon with an admin token every CI job holds the same token; each session's secret, told only to
/// its creator, keeps every job to the sessions it made.
@Suite("Sessions isolated by their secrets")
struct SessionIsolationTests {
    static let token = "ci-host-token"

    private func admin(
        _ server: LiveServer, _ method: String, _ path: String, secret: String? = nil, json: String? = nil
    ) async throws -> (Int, JSONValue) {
        var headers = ["Authorization": "Bearer \(Self.token)"]
        if let secret { headers[Session.secretHeader] = secret }
        let response = try await server.send(
            method, "/__admin" + path, headers: headers, body: json.map { Data($0.utf8) })
        return (response.status, response.body.isEmpty ? .null : try response.json())
    }

    @Test("with a token, a job reads, changes, lists and ends only the sessions whose secret it holds")
    func secretsIsolateJobs() async throws {
        try await LiveServer.with(adminAccess: AdminAccess(token: Self.token)) { server in
            let (createdA, a) = try await admin(server, "POST", "/sessions", json: #"{"name":"job-a"}"#)
            let (_, b) = try await admin(server, "POST", "/sessions", json: #"{"name":"job-b"}"#)
            #expect(createdA == 201)
            let idA = try #require(a["id"]?.stringValue)
            let secretA = try #require(a["secret"]?.stringValue)
            let idB = try #require(b["id"]?.stringValue)
            let secretB = try #require(b["secret"]?.stringValue)
            #expect(secretA.count == 48 && secretA != secretB)

            // Job A cannot reach job B's session, by any of its routes.
            let stub = #"{"request":{"url":"/x"},"response":{"status":200,"body":"a"}}"#
            for (method, path, json) in [
                ("GET", "/sessions/\(idB)", nil), ("DELETE", "/sessions/\(idB)", nil),
                ("GET", "/sessions/\(idB)/requests", nil), ("POST", "/sessions/\(idB)/mappings", stub),
                ("GET", "/sessions/\(idB)/mappings", nil),
            ] as [(String, String, String?)] {
                let (status, answer) = try await admin(server, method, path, secret: secretA, json: json)
                #expect(status == 403, "\(method) \(path): \(answer)")
                let (withoutSecret, _) = try await admin(server, method, path, json: json)
                #expect(withoutSecret == 403, "\(method) \(path) without a secret")
            }
            // Its own session works with its secret.
            #expect(try await admin(server, "POST", "/sessions/\(idA)/mappings", secret: secretA, json: stub).0 == 201)
            #expect(try await admin(server, "GET", "/sessions/\(idA)", secret: secretA).0 == 200)

            // A listing shows a job its own sessions only, and counts all; secrets are never listed.
            let (_, listed) = try await admin(server, "GET", "/sessions", secret: secretA)
            let ids = listed["sessions"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
            #expect(ids == [idA])
            #expect(listed["meta"]?["total"] == .integer(2))
            #expect(listed["sessions"]?[0]?["secret"] == nil)
            let (_, anonymous) = try await admin(server, "GET", "/sessions")
            #expect(anonymous["sessions"]?.arrayValue?.isEmpty == true)

            // The app's traffic needs no secret: the session's base URL is what it is given.
            #expect(try await server.send("GET", "/__sessions/\(idA)/x").text == "a")
            // B's creator ends B.
            #expect(try await admin(server, "DELETE", "/sessions/\(idB)", secret: secretB).0 == 200)
        }
    }

    @Test("without a token (one user on loopback), sessions need no secret, as before")
    func noTokenNoSecrets() async throws {
        try await LiveServer.with { server in
            let (_, created) = try await server.admin("POST", "/sessions", json: "{}")
            let id = try #require(created["id"]?.stringValue)
            #expect(created["secret"]?.stringValue != nil)
            #expect(try await server.admin("GET", "/sessions/\(id)/requests").0 == 200)
            #expect(try await server.admin("GET", "/sessions").1["sessions"]?.arrayValue?.count == 1)
            #expect(try await server.admin("DELETE", "/sessions/\(id)").0 == 200)
        }
    }
}
