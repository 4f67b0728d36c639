import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

/// What the admin API writes under the stub root (`"persistent": true`, `POST /__admin/mappings/save`) is read
/// by the loader's rules before it is written: a file it writes is one `pokestub check` accepts, holding the
/// stub that was served.
@Suite("Stubs the admin API writes load as the stubs served")
struct AdminWrittenStubTests {
    private static let id = "5a5a5a5a-0000-4000-8000-000000000001"

    /// A `PUT` names the stub's id in its path, whatever the body says: the file must name that id too.
    @Test(
        "a persistent stub replaced with PUT is written so that it loads, under the id it serves",
        arguments: [
            #"{"id": "not-a-uuid", "#, #"{"uuid": 5, "#, #"{"id": "5a5a5a5a-0000-4000-8000-0000000000ff", "#,
            #"{"#,
        ])
    func persistentReplacement(_ opening: String) async throws {
        let kept = #"{"id": "\#(Self.id)", "request": {"urlPath": "/kept"}, "response": {"body": "old"}}"#
        let root = try TemporaryDirectory.stubRoot(mappings: ["kept.json": kept])
        defer { root.removeFolder() }
        try await LiveServer.with(stubRoot: root.path) { server in
            let body =
                opening + #""request": {"urlPath": "/kept"}, "response": {"body": "new"}, "persistent": true}"#
            let response = try await server.send("PUT", "/__admin/mappings/\(Self.id)", body: Data(body.utf8))
            #expect(response.status == 200, "\(response.text)")
            #expect(response.header("Pokestub-Mapping-File") == "mappings/kept.json")
            let loaded = StubLoader(root: root.path).load()
            #expect(loaded.problems.isEmpty, "\(loaded.problems)")
            #expect(loaded.stubs.map { $0.id.uuidString.lowercased() } == [Self.id])
            #expect(try await server.send("GET", "/kept").text == "new")
            #expect(server.engine.store.resetToFiles().succeeded)
            #expect(try await server.send("GET", "/kept").header("Matched-Stub-Id") == Self.id)
        }
    }

    @Test("mappings/save refuses, writing nothing, a stub whose file would not load: its body file is gone")
    func saveRefusesWhatWouldNotLoad() async throws {
        let root = try TemporaryDirectory.stubRoot(files: ["gone.txt": "soon gone"])
        defer { root.removeFolder() }
        try await LiveServer.with(stubRoot: root.path) { server in
            let stub = #"{"id": "\#(Self.id)", "request": {"urlPath": "/f"}, "response": {"bodyFileName": "gone.txt"}}"#
            #expect(try await server.admin("POST", "/mappings", json: stub).0 == 201)
            try root.remove("__files/gone.txt")
            let (status, answer) = try await server.admin("POST", "/mappings/save")
            #expect(status == 422, "\(answer)")
            #expect(answer.serializedString().contains("gone.txt"), "\(answer)")
            #expect(root.files.isEmpty, "written: \(root.files)")
            #expect(StubLoader(root: root.path).load().problems.isEmpty)
            #expect(server.engine.store.runtimeStubs.count == 1, "the runtime stub is still served")
        }
    }
}
