import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

@Suite("Upstream answers that do not fit PokeAPI's schemas are recorded as they came and flagged")
struct SchemaDriftTests {
    /// A PokeAPI dump with `pokemon/25` changed: `stats[0].base_stat` a string, `name` gone; and a
    /// `pokemon-color/1` that fits.
    private static func driftedDump() throws -> (folder: TemporaryDirectory, pikachu: Data) {
        let original = try Data(
            contentsOf: URL(fileURLWithPath: Repository.pokeAPIDump + "/api/v2/pokemon/25/index.json"))
        guard case .object(var pikachu) = try JSONValue.parse(original), case .array(var stats)? = pikachu["stats"],
            case .object(var first)? = stats.first
        else { throw TestFailure("pokemon/25 of the dump is not as expected") }
        first["base_stat"] = .string("35")
        stats[0] = .object(first)
        pikachu["stats"] = .array(stats)
        pikachu.removeValue(forKey: "name")
        let body = JSONValue.object(pikachu).serialized()
        let folder = try TemporaryDirectory()
        _ = try folder.write(body, to: "api/v2/pokemon/25/index.json")
        _ = try folder.write(
            #"{"id": 1, "name": "black", "names": [], "pokemon_species": []}"#, to: "api/v2/pokemon-color/1/index.json")
        return (folder, body)
    }

    @Test("record-missing: the serve event, the log (once per endpoint and kind) and /__admin/contract flag it")
    func recordMissing() async throws {
        let (dump, drifted) = try SchemaDriftTests.driftedDump()
        defer { dump.removeFolder() }
        let folder = try TemporaryDirectory.stubRoot()
        defer { folder.removeFolder() }
        let upstream = try await ScriptedUpstream.start(staticRoot: dump.path)
        defer { upstream.stop() }
        let log = InMemoryLogHandler()
        let server = try RecordingServer(
            root: folder.path, mode: .recordMissing, upstream: upstream.baseURL, rewriteLinks: false,
            logger: Logger(handler: log, level: .info))
        defer { server.stop() }

        let answer = try await server.send("GET", "/api/v2/pokemon/25/")
        #expect(answer.status == 200)
        #expect(answer.body == drifted, "the answer is passed on as it came")
        let recorded = try #require(folder.files.first { $0.hasPrefix("__files/api/v2/pokemon/25/") })
        #expect(try folder.data(recorded) == drifted, "the recording keeps the upstream's bytes")
        #expect(try await server.send("GET", "/api/v2/pokemon-color/1/").status == 200)

        let (_, journal) = try await server.admin("GET", "/requests")
        let events = journal["requests"]?.arrayValue ?? []
        let pikachuEvent = try #require(events.first { $0["request"]?["url"] == .string("/api/v2/pokemon/25/") })
        let violations = pikachuEvent["schemaViolations"]?.arrayValue ?? []
        #expect(
            violations.contains(
                .object([
                    "path": "$.stats[0].base_stat", "kind": "type", "message": "expected integer, got string",
                    "schema": "pokemon/$id",
                ])), "\(pikachuEvent)")
        #expect(
            violations.contains(
                .object([
                    "path": "$.name", "kind": "required", "message": "required member missing", "schema": "pokemon/$id",
                ])), "\(pikachuEvent)")
        let colorEvent = try #require(events.first { $0["request"]?["url"] == .string("/api/v2/pokemon-color/1/") })
        #expect(colorEvent["schemaViolations"] == .array([]), "an answer that fits is checked and clean")

        let (status, contract) = try await server.admin("GET", "/contract")
        #expect(status == 200)
        #expect(contract["schemas"] == .string("PokeAPI v2"))
        let endpoints = contract["endpoints"]?.arrayValue ?? []
        let pokemon = try #require(endpoints.first { $0["endpoint"] == .string("pokemon/$id") })
        #expect(pokemon["answers"] == .integer(1))
        #expect(pokemon["answersNotFitting"] == .integer(1))
        #expect(pokemon["firstSeen"]?.stringValue != nil && pokemon["lastSeen"]?.stringValue != nil)
        let rows = pokemon["violations"]?.arrayValue ?? []
        let stat = try #require(rows.first { $0["path"] == .string("$.stats[*].base_stat") }, "\(pokemon)")
        #expect(stat["count"] == .integer(1))
        #expect(stat["kind"] == .string("type"))
        #expect(stat["lastRequest"] == .string("GET /api/v2/pokemon/25/"))
        #expect(rows.contains { $0["path"] == .string("$.name") && $0["kind"] == .string("required") })
        let color = try #require(endpoints.first { $0["endpoint"] == .string("pokemon-color/$id") })
        #expect(color["answersNotFitting"] == .integer(0))

        let warnings = log.messages(at: .warning).filter { $0.hasPrefix("schema drift: ") }
        #expect(warnings.count == 2, "one per kind: \(warnings)")
        #expect(warnings.contains { $0.contains("$.stats[0].base_stat: expected integer, got string") }, "\(warnings)")
    }

    @Test("proxy: every answer is counted, and the log does not repeat an endpoint's kind")
    func proxy() async throws {
        let (dump, drifted) = try SchemaDriftTests.driftedDump()
        defer { dump.removeFolder() }
        let folder = try TemporaryDirectory.stubRoot()
        defer { folder.removeFolder() }
        let upstream = try await ScriptedUpstream.start(staticRoot: dump.path)
        defer { upstream.stop() }
        let log = InMemoryLogHandler()
        let server = try RecordingServer(
            root: folder.path, mode: .proxy, upstream: upstream.baseURL, rewriteLinks: false,
            logger: Logger(handler: log, level: .info))
        defer { server.stop() }
        for _ in 0..<3 {
            let answer = try await server.send("GET", "/api/v2/pokemon/25/")
            #expect(answer.body == drifted)
        }
        let (_, journal) = try await server.admin("GET", "/requests")
        let events = journal["requests"]?.arrayValue ?? []
        #expect(events.count == 3)
        #expect(events.allSatisfy { ($0["schemaViolations"]?.arrayValue?.count ?? 0) == 2 }, "\(events)")
        let (_, contract) = try await server.admin("GET", "/contract")
        let pokemon = try #require(contract["endpoints"]?.arrayValue?.first)
        #expect(pokemon["answers"] == .integer(3))
        #expect(pokemon["answersNotFitting"] == .integer(3))
        let stat = try #require(
            pokemon["violations"]?.arrayValue?.first { $0["path"] == .string("$.stats[*].base_stat") })
        #expect(stat["count"] == .integer(3))
        #expect(log.messages(at: .warning).filter { $0.hasPrefix("schema drift: ") }.count == 2)
    }
}
