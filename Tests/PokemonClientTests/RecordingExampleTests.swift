import Foundation
import PokemonClient
import PokestubClient
import PokestubTestSupport
import PokestubTesting
import Testing

/// Recording through the admin client, against the `pokestub` daemon as a separate process. The "real API" is an
/// in-process server answering from the shipped stubs, so the test needs no network.
@Suite("Example: recording through the admin API")
struct RecordingExampleTests {
    @Test("requests made while recording reach the upstream and come back from stop as stubs")
    func recordAndStop() async throws {
        let stubs = try TemporaryDirectory.stubRoot()
        defer { stubs.removeFolder() }

        try await withStubServer(stubsDirectory: Repository.stubs) { upstream in
            try await PokestubProcess.serving(stubs: stubs.path) { baseURL in
                let environment = ["POKEMON_URL": baseURL.absoluteString]
                let admin = try PokestubAdminClient(environment: environment)
                #expect(try await admin.recordingStatus() == .neverStarted)

                try await admin.startRecording(from: upstream.baseURL, options: ["persist": false])
                #expect(try await admin.recordingStatus() == .recording)

                let pikachu = try await PokemonClient(environment: environment).pokemon(id: 25)
                #expect(pikachu.name == "pikachu")
                try await upstream.admin.verify(count: 1, .get("/api/v2/pokemon/25/"))

                let recorded = try await admin.stopRecording()
                #expect(try await admin.recordingStatus() == .stopped)
                let urls = recorded.map { $0.request["urlPath"]?.stringValue ?? $0.request["url"]?.stringValue ?? "" }
                #expect(urls.contains { $0.hasPrefix("/api/v2/pokemon/25/") }, "recorded: \(urls)")
                #expect(!FileManager.default.fileExists(atPath: stubs.path + "/mappings/pokemon"))
            }
        }
    }
}
