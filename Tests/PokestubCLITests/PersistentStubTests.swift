import Foundation
import PokestubTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A stub created with `"persistent": true` (WireMock's field): written to `mappings/`, then loaded by the
/// running daemon's stub tree watcher, leaving one stub, not a runtime copy beside the file's.
@Suite("Persistent stubs, saved under mappings/ and loaded by the watcher")
struct PersistentStubTests {
    private static func json(_ fetch: HTTPFetch) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: fetch.body) as? [String: Any])
    }

    @Test("POST /__admin/mappings with persistent writes one file atomically, and the watcher's reload leaves one stub")
    func savedAndReloaded() async throws {
        let folder = try TemporaryDirectory()
        _ = try folder.write(
            #"{"request": {"method": "GET", "urlPath": "/old"}, "response": {"status": 200}}"#,
            to: "stubs/mappings/old.json")
        let server = try PokestubProcess(["serve", "--port", "0", "--stubs", folder.path + "/stubs"])
        defer { server.signal(SIGTERM) }
        let base = try await server.waitUntilListening()
        let firstReload =
            try Self.json(try await HTTPFetch.send(base + "/__admin/health"))["lastReload"] as? [String: Any]
        let firstReloadAt = try #require(firstReload?["at"] as? String)

        let mapping = """
            {
              // Made in the dashboard.
              "name": "Pikachu, saved ../../etc",
              "request": {"method": "GET", "urlPath": "/api/v2/pokemon/25/"},
              "response": {"status": 200, "jsonBody": {"name": "pikachu", "id": 25}},
              "persistent": true
            }
            """
        let created = try await HTTPFetch.send(base + "/__admin/mappings", method: "POST", body: Data(mapping.utf8))
        #expect(created.status == 201)
        let id = try #require(try Self.json(created)["id"] as? String)
        let file = try #require(created.headers["pokestub-mapping-file"])
        #expect(file == "mappings/pikachu-saved-etc-\(id).json")
        // The file is the body as posted (its comment and member order kept), with the id put first.
        let written = try String(contentsOfFile: folder.path + "/stubs/" + file, encoding: .utf8)
        #expect(written.hasPrefix("{\n  \"id\": \"\(id)\",\n  // Made in the dashboard."))
        #expect(written.contains(#""jsonBody": {"name": "pikachu", "id": 25}"#))
        // Nothing but the two mapping files: no temporary file left, nothing outside mappings/.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/stubs/mappings").sorted()
        #expect(names == ["old.json", "pikachu-saved-etc-\(id).json"])
        let served = try await HTTPFetch.send(base + "/api/v2/pokemon/25/")
        #expect(served.status == 200)
        #expect(served.text.contains(#""name":"pikachu""#), "\(served.text)")

        // The watcher reads the new file; its copy replaces the one added at run time.
        var reloaded = false
        for _ in 0..<1_000 where !reloaded {
            let health = try Self.json(try await HTTPFetch.send(base + "/__admin/health"))
            let last = health["lastReload"] as? [String: Any]
            reloaded = (last?["at"] as? String) != firstReloadAt && (last?["stubCount"] as? Int) == 2
            if !reloaded { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(reloaded, "the watcher did not load \(file)")
        let listing = try Self.json(try await HTTPFetch.send(base + "/__admin/mappings"))
        let ids = (listing["mappings"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(ids.filter { $0 == id }.count == 1, "one stub with the saved id: \(ids)")
        #expect((listing["meta"] as? [String: Any])?["total"] as? Int == 2)
        let stubs = try Self.json(try await HTTPFetch.send(base + "/__admin/dashboard/stubs"))
        let saved = (stubs["stubs"] as? [[String: Any]] ?? []).first { $0["id"] as? String == id }
        #expect(saved?["source"] as? String == "disk")
        #expect(saved?["file"] as? String == file)
        #expect(saved?["line"] as? Int == 1)
        // Dropping runtime stubs keeps it: it is a file stub now.
        #expect(try await HTTPFetch.send(base + "/__admin/mappings/reset", method: "POST").status == 200)
        #expect(try await HTTPFetch.send(base + "/api/v2/pokemon/25/").status == 200)

        // Saving it again under another name rewrites its own file rather than writing a second one.
        let renamed = mapping.replacingOccurrences(of: "Pikachu, saved ../../etc", with: "Renamed")
        let replaced = try await HTTPFetch.send(
            base + "/__admin/mappings/\(id)", method: "PUT", body: Data(renamed.utf8))
        #expect(replaced.status == 200)
        #expect(replaced.headers["pokestub-mapping-file"] == file)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/stubs/mappings").count == 2)
    }

    @Test("a session refuses persistent stubs with 400 and writes nothing")
    func sessionsRefuse() async throws {
        let folder = try TemporaryDirectory()
        _ = try folder.write(
            #"{"request": {"method": "GET", "urlPath": "/old"}, "response": {"status": 200}}"#,
            to: "stubs/mappings/old.json")
        let server = try PokestubProcess(["serve", "--port", "0", "--stubs", folder.path + "/stubs"])
        defer { server.signal(SIGTERM) }
        let base = try await server.waitUntilListening()
        let session = try Self.json(
            try await HTTPFetch.send(base + "/__admin/sessions", method: "POST", body: Data("{}".utf8)))
        let sessionID = try #require(session["id"] as? String)
        let mapping = #"{"request": {"urlPath": "/x"}, "response": {"status": 200}, "persistent": true}"#
        let refused = try await HTTPFetch.send(
            base + "/__admin/sessions/\(sessionID)/mappings", method: "POST", body: Data(mapping.utf8))
        #expect(refused.status == 400)
        #expect(refused.text.contains("a session's stubs live in memory only"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/stubs/mappings") == ["old.json"])
    }
}
