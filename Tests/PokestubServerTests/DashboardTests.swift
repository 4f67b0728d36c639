import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

@Suite("The dashboard under /__admin/dashboard, over real sockets")
struct DashboardTests {
    @Test("the page, script and style sheet come from the binary with a strict Content-Security-Policy")
    func assets() async throws {
        try await LiveServer.with { server in
            let page = try await server.send("GET", "/__admin/dashboard")
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            let policy = try #require(page.header("Content-Security-Policy"))
            #expect(policy.hasPrefix("default-src 'self'; script-src 'self'; style-src 'self';"))
            #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"))
            #expect(policy.contains("frame-ancestors 'none'"))
            #expect(page.header("X-Content-Type-Options") == "nosniff")
            // No inline script: the only script element loads the embedded file, from this origin.
            #expect(page.text.components(separatedBy: "<script").count == 2)
            #expect(page.text.contains(#"<script src="/__admin/dashboard/app.js" defer></script>"#))
            #expect(!page.text.contains("http://") && !page.text.contains("https://"), "nothing from a CDN")
            let script = try await server.send("GET", "/__admin/dashboard/app.js")
            #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
            #expect(script.text.contains("/dashboard/changes"))
            #expect(!script.text.contains("innerHTML"), "daemon data is only ever set as text")
            #expect(
                try await server.send("GET", "/__admin/dashboard/app.css").header("Content-Type")
                    == "text/css; charset=utf-8")
            // Dashboard requests are admin requests: not journaled.
            #expect(server.engine.journal.count == 0)
        }
    }

    @Test("the admin access rules hold: token (Bearer or Basic), Origin and Sec-Fetch-Site")
    func access() async throws {
        try await LiveServer.with(adminAccess: AdminAccess(token: "s3cret")) { server in
            let port = try #require(URL(string: server.baseURL)?.port)
            let connection = try RawConnection(port: port)
            try connection.send("GET /__admin/dashboard HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let refused = String(decoding: await connection.receive(), as: UTF8.self)
            #expect(refused.hasPrefix("HTTP/1.1 401"))
            #expect(refused.contains(#"WWW-Authenticate: Basic realm="pokestub admin""#))
            let basic = "Basic " + Data("dev:s3cret".utf8).base64EncodedString()
            #expect(try await server.send("GET", "/__admin/dashboard", headers: ["Authorization": basic]).status == 200)
            let wrongBasic = "Basic " + Data("dev:guess".utf8).base64EncodedString()
            #expect(
                try await server.send("GET", "/__admin/dashboard/stubs", headers: ["Authorization": wrongBasic])
                    .status == 401)
            let bearer = ["Authorization": "Bearer s3cret"]
            #expect(try await server.send("GET", "/__admin/dashboard/stubs", headers: bearer).status == 200)
            var foreign = bearer
            foreign["Origin"] = "https://evil.example"
            #expect(try await server.send("GET", "/__admin/dashboard", headers: foreign).status == 403)
            var crossSite = ["Authorization": basic]
            crossSite["Sec-Fetch-Site"] = "cross-site"
            let mapping = Data(#"{"request": {"urlPath": "/x"}, "response": {"status": 200}}"#.utf8)
            #expect(try await server.send("POST", "/__admin/mappings", headers: crossSite, body: mapping).status == 403)
            // Fetch Metadata's values are tokens, compared without regard to case as the admin API compares them.
            crossSite["Sec-Fetch-Site"] = "Cross-Site"
            #expect(try await server.send("POST", "/__admin/mappings", headers: crossSite, body: mapping).status == 403)
            var sameOrigin = ["Authorization": basic]
            sameOrigin["Sec-Fetch-Site"] = "same-origin"
            #expect(
                try await server.send("POST", "/__admin/mappings", headers: sameOrigin, body: mapping).status == 201)
        }
    }

    @Test("long polling: a wait for changes answers when a request is journaled, and unchanged on its timeout")
    func changes() async throws {
        try await LiveServer.with { server in
            let (_, now) = try await server.admin("GET", "/dashboard/changes")
            let sequence = try #require(now["sequence"]?.intValue)
            let (_, unchanged) = try await server.admin("GET", "/dashboard/changes?after=\(sequence)&timeoutMs=100")
            #expect(unchanged["sequence"]?.intValue == sequence)
            let waiting = Task { try await server.admin("GET", "/dashboard/changes?after=\(sequence)&timeoutMs=20000") }
            try await eventually("the wait is registered") { server.engine.journal.changeWaiterCount == 1 }
            _ = try await server.send("GET", "/anything")
            let (status, changed) = try await waiting.value
            #expect(status == 200)
            #expect(changed["sequence"]?.intValue == sequence + 1)
            #expect(try await server.admin("GET", "/dashboard/changes?after=0&timeoutMs=60001").0 == 400)
        }
    }

    @Test("near misses of one journaled request name each differing field with expected and actual values")
    func nearMisses() async throws {
        try await LiveServer.with { server in
            let mapping =
                #"{"request": {"method": "GET", "urlPath": "/api/v2/pokemon/9/"}, "response": {"status": 200}}"#
            let (_, stub) = try await server.admin("POST", "/mappings", json: mapping)
            _ = try await server.send("GET", "/api/v2/pokemon/9/")
            _ = try await server.send("GET", "/api/v2/pokemon/99/")
            let (_, journal) = try await server.admin("GET", "/requests")
            let missID = try #require(journal["requests"]?[0]?["id"]?.stringValue)
            let (status, answer) = try await server.admin("GET", "/dashboard/near-misses/\(missID)")
            #expect(status == 200)
            let closest = try #require(answer["nearMisses"]?[0])
            #expect(closest["stubMapping"]?["id"] == stub["id"])
            #expect(closest["differences"]?[0]?["field"] == "urlPath")
            #expect(closest["differences"]?[0]?["expected"] == "/api/v2/pokemon/9/")
            #expect(closest["differences"]?[0]?["actual"] == "/api/v2/pokemon/99/")
            let (_, stubs) = try await server.admin("GET", "/dashboard/stubs")
            #expect(stubs["stubs"]?[0]?["hits"]?.intValue == 1)
            #expect(stubs["stubs"]?[0]?["source"] == "admin API")
            #expect(try await server.admin("GET", "/dashboard/near-misses/\(UUID().uuidString)").0 == 404)
        }
    }

    @Test("the stub list names each stub's source (disk, admin API, recording), file and line, and scenario state")
    func stubListFields() async throws {
        let folder = try TemporaryDirectory()
        _ = try folder.write(
            """
            {"mappings": [
              {"request": {"method": "GET", "urlPath": "/first"}, "response": {"status": 200}},

              {"request": {"method": "GET", "urlPath": "/second"}, "response": {"status": 200},
               "scenarioName": "catch", "requiredScenarioState": "Started", "newScenarioState": "caught"}
            ]}
            """, to: "mappings/two.json")
        _ = try folder.write(
            """
            {"request": {"method": "GET", "urlPath": "/recorded"}, "response": {"status": 200},
             "metadata": {"recordedFrom": "https://pokeapi.co"}}
            """, to: "mappings/recorded.json")
        try await LiveServer.with(stubRoot: folder.path) { server in
            _ = try await server.admin(
                "POST", "/mappings", json: #"{"request": {"urlPath": "/runtime"}, "response": {"status": 200}}"#)
            _ = try await server.send("GET", "/second")
            let (status, answer) = try await server.admin("GET", "/dashboard/stubs")
            #expect(status == 200)
            var byURL: [String: JSONValue] = [:]
            if case .array(let stubs)? = answer["stubs"] {
                for stub in stubs { if let url = stub["url"]?.stringValue { byURL[url] = stub } }
            }
            #expect(byURL["/first"]?["source"] == "disk")
            #expect(byURL["/first"]?["file"] == "mappings/two.json")
            #expect(byURL["/first"]?["line"]?.intValue == 2)
            #expect(byURL["/second"]?["line"]?.intValue == 4)
            #expect(byURL["/second"]?["hits"]?.intValue == 1)
            #expect(byURL["/second"]?["scenario"]?["name"] == "catch")
            #expect(byURL["/second"]?["scenario"]?["state"] == "caught")
            #expect(byURL["/second"]?["scenario"]?["requiredState"] == "Started")
            #expect(byURL["/second"]?["scenario"]?["newState"] == "caught")
            #expect(byURL["/first"]?["scenario"] == .null)
            #expect(byURL["/recorded"]?["source"] == "recording")
            #expect(byURL["/recorded"]?["line"]?.intValue == 1)
            #expect(byURL["/runtime"]?["source"] == "admin API")
            #expect(byURL["/runtime"]?["file"] == .null)
            #expect(byURL["/runtime"]?["line"] == .null)
        }
    }

    @Test("a persistent stub is refused with 400 by a server without a stub root, and is not added")
    func persistentWithoutRoot() async throws {
        try await LiveServer.with { server in
            let mapping = #"{"request": {"urlPath": "/x"}, "response": {"status": 200}, "persistent": true}"#
            let (status, answer) = try await server.admin("POST", "/mappings", json: mapping)
            #expect(status == 400)
            #expect(answer["errors"]?[0]?["title"] == "Stub not persistent")
            #expect(try await server.admin("GET", "/mappings").1["meta"]?["total"]?.intValue == 0)
        }
    }

    @Test("a persistent stub's file is named from its name and id only, inside mappings/")
    func persistentFileNames() async throws {
        let folder = try TemporaryDirectory()
        _ = try folder.write("{}", to: "mappings/.keep.json")
        try await LiveServer.with(stubRoot: folder.path) { server in
            for (name, expected) in [
                ("../../../tmp/x", "tmp-x-"), ("/etc/passwd", "etc-passwd-"), ("Ünïcode ✓", "n-code-"), ("..", ""),
            ] {
                let mapping =
                    #"{"name": "\#(name)", "request": {"urlPath": "/y"}, "response": {"status": 200}, "persistent": true}"#
                let response = try await server.send("POST", "/__admin/mappings", body: Data(mapping.utf8))
                #expect(response.status == 201)
                let id = try #require(try response.json()["id"]?.stringValue)
                #expect(response.header("Pokestub-Mapping-File") == "mappings/\(expected)\(id).json")
                #expect(FileManager.default.fileExists(atPath: folder.path + "/mappings/\(expected)\(id).json"))
            }
        }
    }
}
