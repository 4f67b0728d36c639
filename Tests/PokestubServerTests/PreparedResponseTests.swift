import Foundation
import PokestubCore
import PokestubServer
import PokestubTestSupport
import Testing

/// The libmicrohttpd responses made once for answers served again (``PreparedResponses``): reused only while
/// the answer is the same, never for an answer made for one request, and what goes out stays the answer.
@Suite("Prepared responses")
struct PreparedResponseTests {
    private static func answer(
        _ body: ResponseBody, status: Int = 200, contentType: String = "text/plain"
    ) -> HTTPResponse {
        var response = HTTPResponse(
            status: status, headers: HTTPHeaders([(name: "Content-Type", value: contentType)]), body: body)
        response.isServedAgain = true
        return response
    }

    @Test("an answer served again is made once, and made anew when its body, status or header fields change")
    func reusedWhileTheAnswerStays() {
        let set = PreparedResponses()
        let body = ResponseBody("one")
        let first = set.response(for: Self.answer(body))
        #expect(first != nil)
        #expect(set.response(for: Self.answer(body)) == first)
        #expect(set.made == 1)
        #expect(set.response(for: Self.answer(body, contentType: "text/html")) != nil)
        #expect(set.made == 2)
        #expect(set.response(for: Self.answer(body, status: 201)) != nil)
        #expect(set.made == 3)
        // The same bytes in another body object (a reloaded stub's) are another answer.
        #expect(set.response(for: Self.answer(ResponseBody("one"))) != nil)
        #expect(set.made == 4)
    }

    @Test("an answer made for one request, a fault, a stream or a HEAD answer with a declared length is not prepared")
    func answersForOneRequest() {
        let set = PreparedResponses()
        #expect(set.response(for: HTTPResponse(status: 200, body: ResponseBody("made once"))) == nil)
        var fault = Self.answer(ResponseBody("x"))
        fault.fault = .emptyResponse
        #expect(set.response(for: fault) == nil)
        var stream = Self.answer(.empty)
        stream.stream = ResponseStream(count: 1) { _ in Data("piece".utf8) }
        #expect(set.response(for: stream) == nil)
        var head = Self.answer(.empty)
        head.headContentLength = 10
        #expect(set.response(for: head) == nil)
        #expect(set.made == 0)
    }

    @Test("the set does not keep a body alive once its stubs let it go")
    func bodiesAreNotKept() {
        let set = PreparedResponses()
        weak var released: ResponseBody?
        do {
            let body = ResponseBody("let go")
            released = body
            #expect(set.response(for: Self.answer(body)) != nil)
        }
        #expect(released == nil)
    }

    private static func mapping(_ body: String, header: String) -> String {
        #"{"request": {"method": "GET", "urlPath": "/a"}, "response": {"status": 200, "body": "\#(body)", "#
            + #""headers": {"X-Answer": "\#(header)"}}}"#
    }

    @Test("after a reload changes a stub, its new answer is sent on the same connection and server thread")
    func reloadChangesTheAnswer() async throws {
        let root = try TemporaryDirectory.stubRoot()
        try root.write(Self.mapping("first", header: "1"), to: "mappings/a.json")
        try await LiveServer.with(stubRoot: root.path, threads: 1) { server in
            let connection = try RawConnection(port: server.server.port)
            let request = "GET /a HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            try connection.send(request + request)
            let before = await connection.receiveResponses(2)
            #expect(before.components(separatedBy: "X-Answer: 1\r\n").count == 3, "\(before)")
            #expect(before.hasSuffix("first"))
            try root.write(Self.mapping("other", header: "2"), to: "mappings/a.json")
            #expect(try await server.admin("POST", "/mappings/reset").0 == 200)
            try connection.send(request)
            let after = await connection.receiveResponses(1)
            #expect(after.contains("X-Answer: 2\r\n"), "\(after)")
            #expect(after.hasSuffix("\r\n\r\nother"), "\(after)")
        }
    }

    @Test("a templated stub's answer, header fields included, is made for each request, never prepared")
    func templatedAnswersAreMadeEachTime() async throws {
        let root = try TemporaryDirectory.stubRoot()
        try root.write(
            #"{"request": {"method": "GET", "urlPathPattern": "/t/.*"}, "response": {"status": 200, "#
                + #""body": "{{request.path}}", "headers": {"X-Path": "{{request.path}}"}, "#
                + #""transformers": ["response-template"]}}"#, to: "mappings/t.json")
        try root.write(Self.mapping("plain", header: "1"), to: "mappings/a.json")
        try await LiveServer.with(stubRoot: root.path, threads: 1) { server in
            guard case .response(let templated) = server.engine.handle(HTTPRequest(method: "GET", rawURL: "/t/1")),
                case .response(let plain) = server.engine.handle(HTTPRequest(method: "GET", rawURL: "/a"))
            else {
                Issue.record("a deferred reply")
                return
            }
            #expect(!templated.isServedAgain)
            #expect(plain.isServedAgain)
            let connection = try RawConnection(port: server.server.port)
            for path in ["/t/1", "/t/22", "/t/1"] {
                try connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                let answer = await connection.receiveResponses(1)
                #expect(answer.contains("X-Path: \(path)\r\n"), "\(answer)")
                #expect(answer.hasSuffix("\r\n\r\n\(path)"), "\(answer)")
            }
        }
    }
}
