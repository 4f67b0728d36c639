import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

@Suite("Writing recordings to disk")
struct RecordingWriterTests {
    private func recording(_ body: String, large: Bool = false) -> Recording {
        var options = RecordingOptions()
        if large { options.largeBodyBytes = 1 }
        return Recorder(options: options).recording(
            of: HTTPRequest(method: "GET", rawURL: "/api/v2/type/1/"),
            response: UpstreamResponse(
                status: 200, headers: HTTPHeaders([(name: "Content-Type", value: "application/json")]),
                body: Data(body.utf8)))
    }

    @Test("a recording is new, then unchanged, then changed, and leaves no temporary files")
    func newUnchangedChanged() throws {
        let folder = try TemporaryDirectory.stubRoot()
        let writer = RecordingWriter(root: URL(fileURLWithPath: folder.path))
        #expect(try writer.write(recording(#"{"name": "normal"}"#, large: true)) == .new)
        let before = try folder.data("mappings/api/v2/type/1/GET.json")
        #expect(try writer.write(recording(#"{"name": "normal"}"#, large: true)) == .unchanged)
        #expect(try writer.write(recording(#"{"name":"normal"}"#, large: true)) == .changed, "kept as received")
        #expect(try writer.write(recording(#"{"name": "normal"}"#, large: true)) == .changed)
        #expect(try writer.write(recording(#"{"name": "fighting"}"#, large: true)) == .changed)
        #expect(folder.files == ["__files/api/v2/type/1/GET.json", "mappings/api/v2/type/1/GET.json"])
        #expect(try folder.data("mappings/api/v2/type/1/GET.json") == before, "the mapping names the same body file")
        #expect(try folder.json("__files/api/v2/type/1/GET.json")["name"] == .string("fighting"))
    }

    @Test("the written folder loads with the stub loader and serves the recorded body")
    func loads() throws {
        let folder = try TemporaryDirectory.stubRoot()
        let writer = RecordingWriter(root: URL(fileURLWithPath: folder.path))
        try writer.write(recording(#"{"name": "normal"}"#))
        try writer.write(recording(#"{"big": true}"#, large: true))
        let store = StubStore(root: folder.path)
        let report = store.reload()
        #expect(report.problems.isEmpty)
        let stub = try #require(store.index.bestMatch(for: HTTPRequest(method: "GET", rawURL: "/api/v2/type/1/")))
        #expect(try JSONValue.parse(stub.response.body.data) == .object(["big": .bool(true)]))
    }

    @Test("an atomic write replaces a file whole and refuses a folder it cannot create")
    func atomic() throws {
        let folder = try TemporaryDirectory.stubRoot()
        let target = URL(fileURLWithPath: folder.path + "/mappings/a/b.json")
        try RecordingWriter.writeAtomically(Data("one".utf8), to: target)
        try RecordingWriter.writeAtomically(Data("two".utf8), to: target)
        #expect(try Data(contentsOf: target) == Data("two".utf8))
        #expect(folder.files == ["mappings/a/b.json"])
        try Data("file".utf8).write(to: URL(fileURLWithPath: folder.path + "/blocker"))
        #expect(throws: RecordingWriteError.self) {
            try RecordingWriter.writeAtomically(Data(), to: URL(fileURLWithPath: folder.path + "/blocker/x.json"))
        }
    }
}
