import Foundation
import Testing

@testable import PokestubCore

/// FuzzRecordingNames, "the loader's method rule is not RFC 9110's": the stub loader took a method when it was
/// made of Unicode letters, `-` and `_`, while the engine serves (and so records) exactly the RFC 9110 tokens.
/// A recording of a token method with a digit or another `tchar` (`GET2`, `M.SEARCH`) was refused by the
/// loader's rules and never written; a stub with the method `MéTHOD`, which no request can carry (the engine
/// answers 400), loaded.
@Suite("Recorded methods")
struct RecordedMethodTests {
    @Test("a stub's method is an RFC 9110 token", arguments: ["GET", "M-SEARCH", "GET2", "M.SEARCH", "X~Y!", "get"])
    func tokenMethodsLoad(_ method: String) throws {
        let pattern = try RequestPattern(json: .object(["method": .string(method), "urlPath": .string("/x")]))
        #expect(pattern.method == method)
    }

    @Test(
        "a method that is not a token is refused at load",
        arguments: ["MéTHOD", "GET/../../x", "GE T", "", "GET\u{0}", "(GET)"])
    func otherMethodsAreRefused(_ method: String) {
        #expect(throws: StubDefinitionError.self) {
            try RequestPattern(json: .object(["method": .string(method), "urlPath": .string("/x")]))
        }
    }

    @Test("the recording of a request with a token method passes the loader's rules", arguments: ["GET2", "M.SEARCH"])
    func recordingOfATokenMethodIsWritten(_ method: String) throws {
        let request = HTTPRequest(method: method, rawURL: "/api/v2/pokemon/1/")
        let recording = Recorder().recording(of: request, response: UpstreamResponse(status: 200))
        let checked = try RecordingWriter(root: FileManager.default.temporaryDirectory).check(recording.stubFile)
        #expect(checked.stub.request.method == method)
    }
}
