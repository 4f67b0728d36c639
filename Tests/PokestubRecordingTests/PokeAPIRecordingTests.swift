import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

@Suite("Recording real PokeAPI data from a static upstream over the dump in shared/pokeapi")
struct PokeAPIRecordingTests {
    static let targets = [
        "/api/v2/pokemon/1/", "/api/v2/pokemon/1/encounters", "/api/v2/pokemon-species/669/", "/api/v2/type/1/",
        "/api/v2/berry/1/", "/api/v2/pokemon/671/encounters/", "/api/v2/pokemon/?offset=0&limit=2000",
        "/api/v2/pokemon-species/772/",
    ]

    @Test(
        "record-missing passes the upstream's bytes on, writes one file per request; replay serves the same JSON offline"
    )
    func recordAndReplay() async throws {
        let dump = Repository.pokeAPIDump
        #expect(FileManager.default.fileExists(atPath: dump + "/api/v2/pokemon/1/index.json"), "no dump at \(dump)")
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start(staticRoot: dump)
        let recorder = try RecordingServer(root: folder.path, mode: .recordMissing, upstream: upstream.baseURL)
        var recorded: [UpstreamResponse] = []
        for target in PokeAPIRecordingTests.targets { recorded.append(try await recorder.send("GET", target)) }
        // A second round is answered by the new stubs: no more upstream requests.
        for target in PokeAPIRecordingTests.targets { _ = try await recorder.send("GET", target) }
        #expect(upstream.requests() == PokeAPIRecordingTests.targets.count)
        recorder.stop()
        upstream.stop()

        for (target, response) in zip(PokeAPIRecordingTests.targets, recorded) {
            #expect(response.status == 200, "\(target)")
            let file = dump + (target.split(separator: "?").first.map(String.init) ?? target) + "/index.json"
            let original = try Data(contentsOf: URL(fileURLWithPath: file.replacingOccurrences(of: "//", with: "/")))
            #expect(response.body == original, "\(target): the live answer is not the upstream's bytes")
        }
        let files = folder.files
        #expect(files.contains("mappings/api/v2/pokemon/1/GET.json"))
        #expect(files.contains("__files/api/v2/pokemon/1/GET.json"), "a 400 KB body goes to __files")
        #expect(files.contains("mappings/api/v2/pokemon/1/encounters.GET.json"))
        #expect(files.contains("mappings/api/v2/pokemon/671/encounters/GET.json"))
        #expect(files.contains { $0.hasPrefix("mappings/api/v2/pokemon/GET-q") })
        #expect(files.filter { $0.hasPrefix("mappings/") }.count == PokeAPIRecordingTests.targets.count)
        let species = try folder.json("mappings/api/v2/pokemon-species/669/GET.json")
        #expect(species["response"]?["jsonBody"]?["name"] == .string("flabebe"))
        let text = String(decoding: try folder.data("mappings/api/v2/pokemon-species/669/GET.json"), as: UTF8.self)
        #expect(text.contains(#""name": "Flab\u00e9b\u00e9""#), "strings keep the upstream's escapes")

        let replayer = try RecordingServer(root: folder.path, mode: .replay, upstream: upstream.baseURL)
        defer { replayer.stop() }
        for (target, response) in zip(PokeAPIRecordingTests.targets, recorded) {
            let replayed = try await replayer.send("GET", target)
            #expect(replayed.status == 200, "\(target)")
            // A body beyond largeBodyBytes is kept in __files as received: the same bytes.
            if response.body.count > RecordingOptions().largeBodyBytes {
                #expect(replayed.body == response.body, "\(target) is not byte-identical on replay")
            }
            // The dump is pretty-printed JSON: an inline jsonBody replays compacted, in the same order.
            #expect(try JSONValue.parse(replayed.body) == JSONValue.parse(response.body), "\(target) differs on replay")
            #expect(replayed.headers["Content-Length"] == String(replayed.body.count))
        }
        let (_, unmatched) = try await replayer.admin("GET", "/requests/unmatched")
        #expect(unmatched["requests"] == .array([]))
        #expect(replayer.client.statistics.transfers == 0)
    }

    @Test("re-recording the same data rewrites nothing and reports every stub unchanged")
    func reRecordIsStable() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start(staticRoot: Repository.pokeAPIDump)
        defer { upstream.stop() }
        let targets = ["/api/v2/pokemon/1/", "/api/v2/type/1/", "/api/v2/berry/1/"]
        var snapshots: [[String: Data]] = []
        for _ in 0..<2 {
            let server = try RecordingServer(root: folder.path, mode: .record, upstream: upstream.baseURL)
            for target in targets { _ = try await server.send("GET", target) }
            let (_, stopped) = try await server.admin("POST", "/recordings/stop")
            server.stop()
            snapshots.append(Dictionary(uniqueKeysWithValues: try folder.files.map { ($0, try folder.data($0)) }))
            if snapshots.count == 2 {
                #expect(stopped["report"]?["unchanged"] == .integer(3), "\(stopped["report"] ?? .null)")
            } else {
                #expect(stopped["report"]?["new"] == .integer(3))
            }
        }
        #expect(snapshots[0] == snapshots[1])
    }
}
