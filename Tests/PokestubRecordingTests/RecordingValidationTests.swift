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
