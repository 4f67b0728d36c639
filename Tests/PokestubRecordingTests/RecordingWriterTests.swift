import Foundation
import PokestubTestSupport
import Testing

@testable import PokestubCore

@Suite("Writing recordings to disk")
struct RecordingWriterTests {
    private func file(_ body: String, large: Bool = false) -> StubFile {
        var options = RecordingOptions()
        if large { options.largeBodyBytes = 1 }
        return Recorder(options: options).recording(
            of: HTTPRequest(method: "GET", rawURL: "/api/v2/type/1/"),
            response: UpstreamResponse(
                status: 200, headers: HTTPHeaders([(name: "Content-Type", value: "application/json")]),
                body: Data(body.utf8))
        ).stubFile
    }

    /// Checks and writes one stub file, as recordings are written.
    @discardableResult
    private func commit(_ file: StubFile, with writer: RecordingWriter) throws -> RecordingWriter.Change {
        try writer.commit(try writer.check(file), durability: .processCrash).change
    }

    @Test("a recording is new, then unchanged, then changed, and leaves no temporary files")
    func newUnchangedChanged() throws {
        let folder = try TemporaryDirectory.stubRoot()
        let writer = RecordingWriter(root: URL(fileURLWithPath: folder.path))
        #expect(try commit(file(#"{"name": "normal"}"#, large: true), with: writer) == .new)
        let before = try folder.data("mappings/api/v2/type/1/GET.json")
        #expect(try commit(file(#"{"name": "normal"}"#, large: true), with: writer) == .unchanged)
        #expect(try commit(file(#"{"name":"normal"}"#, large: true), with: writer) == .changed, "kept as received")
        #expect(try commit(file(#"{"name": "normal"}"#, large: true), with: writer) == .changed)
        #expect(try commit(file(#"{"name": "fighting"}"#, large: true), with: writer) == .changed)
        #expect(folder.files == ["__files/api/v2/type/1/GET.json", "mappings/api/v2/type/1/GET.json"])
        #expect(try folder.data("mappings/api/v2/type/1/GET.json") == before, "the mapping names the same body file")
        #expect(try folder.json("__files/api/v2/type/1/GET.json")["name"] == .string("fighting"))
    }

    @Test("the written folder loads with the stub loader and serves the recorded body")
    func loads() throws {
        let folder = try TemporaryDirectory.stubRoot()
        let writer = RecordingWriter(root: URL(fileURLWithPath: folder.path))
        try commit(file(#"{"name": "normal"}"#), with: writer)
        try commit(file(#"{"big": true}"#, large: true), with: writer)
        let store = StubStore(root: folder.path)
        let report = store.reload()
        #expect(report.problems.isEmpty)
        let stub = try #require(store.index.bestMatch(for: HTTPRequest(method: "GET", rawURL: "/api/v2/type/1/")))
        #expect(try JSONValue.parse(stub.response.body.data) == .object(["big": .bool(true)]))
    }

    @Test("stub files are all read by the loader's rules before any is written")
    func checkedBeforeWritten() throws {
        let folder = try TemporaryDirectory.stubRoot()
        let writer = RecordingWriter(root: URL(fileURLWithPath: folder.path))
        let good = file(#"{"name": "normal"}"#, large: true)
        let bad = StubFile(path: "mappings/bad.json", data: Data(#"{"request": {"method": "G T"}}"#.utf8))
        #expect {
            try writer.commit(checking: [good, bad], durability: .powerLoss)
        } throws: { error in
            "\(error)".contains("mappings/bad.json would not load: line 1: request.method")
        }
        #expect(folder.files.isEmpty, "written: \(folder.files)")
        let committed = try writer.commit(checking: [good], durability: .powerLoss)
        #expect(committed.map(\.change) == [.new])
        #expect(committed.first?.stub.source == .file("mappings/api/v2/type/1/GET.json"))
        #expect(try committed.first.map { try JSONValue.parse($0.stub.response.body.data) } == ["name": "normal"])
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
