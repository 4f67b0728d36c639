import Foundation
import PokestubTestSupport
import Testing

@testable import PokestubCore

/// A recording the stub loader would refuse is never written: one bad exchange must not leave a tree that no
/// later load, `pokestub check` or `pokestub serve` accepts.
@Suite("Recordings are checked by the loader's rules before they are written")
struct RecordingValidationTests {
    @Test(
        "an exchange whose stub the loader refuses is not written, and the tree still loads",
        arguments: ["GET/../../x", "", "G ET"])
    func refusedRecordingIsNotWritten(method: String) throws {
        let folder = try TemporaryDirectory.stubRoot()
        defer { folder.removeFolder() }
        let store = StubStore(root: folder.path)
        let persistence = RecordingPersistence(store: store)
        let options = RecordingOptions()
        let request = HTTPRequest(method: method, rawURL: "/api/v2/pokemon/1/")
        let response = UpstreamResponse(
            status: 200, headers: HTTPHeaders([(name: "Content-Type", value: "application/json")]),
            body: Data(#"{"id":1}"#.utf8))
        #expect(throws: StubDefinitionError.self) {
            _ = try persistence.record(
                request, response, key: RecordingKey(request, options: options), options: options,
                upstream: "http://127.0.0.1:9")
        }
        #expect(folder.files.isEmpty, "written: \(folder.files)")
        #expect(StubLoader(root: folder.path).load().problems.isEmpty)
    }

    @Test("a body file whose folder leads out of __files through a symbolic link is not written")
    func bodyFileOutsideTheTreeIsNotWritten() throws {
        let folder = try TemporaryDirectory.stubRoot()
        defer { folder.removeFolder() }
        let outside = try TemporaryDirectory()
        defer { outside.removeFolder() }
        try folder.symlink("__files/sprites", to: outside.url)
        let persistence = RecordingPersistence(store: StubStore(root: folder.path))
        let options = RecordingOptions()
        let request = HTTPRequest(method: "GET", rawURL: "/sprites/1.png")
        let response = UpstreamResponse(
            status: 200, headers: HTTPHeaders([(name: "Content-Type", value: "image/png")]),
            body: Data([0x89, 0x50, 0x4E, 0x47, 0x00]))
        #expect(throws: StubDefinitionError.self) {
            _ = try persistence.record(
                request, response, key: RecordingKey(request, options: options), options: options,
                upstream: "http://127.0.0.1:9")
        }
        #expect(outside.files.isEmpty, "written outside the stub root: \(outside.files)")
        #expect(!folder.files.contains { $0.hasPrefix("mappings/") }, "written: \(folder.files)")
        #expect(StubLoader(root: folder.path).load().problems.isEmpty)
    }

    /// With `globalResponseTemplating` every body is a template, so the loader reads a recorded body as one: a
    /// page whose `{{` does not parse (a client-side template, say) would stop the tree from loading.
    @Test("with globalResponseTemplating, a recorded body the loader cannot read as a template is not written")
    func bodyThatIsNoTemplateIsNotWritten() throws {
        let folder = try TemporaryDirectory.stubRoot()
        defer { folder.removeFolder() }
        let persistence = RecordingPersistence(store: StubStore(root: folder.path, globalResponseTemplating: true))
        let options = RecordingOptions()
        let request = HTTPRequest(method: "GET", rawURL: "/page")
        let response = UpstreamResponse(
            status: 200, headers: HTTPHeaders([(name: "Content-Type", value: "text/html")]),
            body: Data("<ul>{{#each items}}<li>{{name}}</li></ul>".utf8))
        #expect(throws: StubDefinitionError.self) {
            _ = try persistence.record(
                request, response, key: RecordingKey(request, options: options), options: options,
                upstream: "http://127.0.0.1:9")
        }
        #expect(folder.files.isEmpty, "written: \(folder.files)")
        #expect(StubLoader(root: folder.path, globalResponseTemplating: true).load().problems.isEmpty)
    }

    @Test("an exchange the loader accepts is written and loads")
    func acceptedRecordingIsWritten() throws {
        let folder = try TemporaryDirectory.stubRoot()
        defer { folder.removeFolder() }
        let persistence = RecordingPersistence(store: StubStore(root: folder.path))
        let options = RecordingOptions()
        let request = HTTPRequest(method: "GET", rawURL: "/api/v2/pokemon/1/")
        _ = try persistence.record(
            request, UpstreamResponse(status: 200, body: Data(#"{"id":1}"#.utf8)),
            key: RecordingKey(request, options: options), options: options, upstream: "http://127.0.0.1:9")
        #expect(folder.files.contains("mappings/api/v2/pokemon/1/GET.json"))
        let loaded = StubLoader(root: folder.path).load()
        #expect(loaded.problems.isEmpty && loaded.stubs.count == 1)
    }
}
