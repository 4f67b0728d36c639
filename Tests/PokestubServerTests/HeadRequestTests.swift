import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

/// Answers to `HEAD` over raw sockets: the header fields a `GET` of the same stub would get, `Content-Length`
/// included, and no body (RFC 9110 §9.3.2). Each `HEAD` is pipelined with a `GET` on the same connection, so a
/// body sent after the `HEAD` answer's head would show up before the second status line.
@Suite("HEAD answers carry the GET's header fields and no body")
struct HeadRequestTests {
    /// Adds the stubs, sends `HEAD target` then `GET /after` on one connection, and returns the bytes of the
    /// `HEAD` answer (everything before the second status line) and of the whole exchange.
    private static func head(
        _ target: String, stubs: [String], on server: LiveServer
    ) async throws -> (head: String, all: String) {
        for stub in stubs + [#"{"request": {"method": "GET", "url": "/after"}, "response": {"body": "after"}}"#] {
            #expect(try await server.admin("POST", "/mappings", json: stub).0 == 201)
        }
        let connection = try RawConnection(port: server.server.port)
        try connection.send(
            "HEAD \(target) HTTP/1.1\r\nHost: a\r\n\r\nGET /after HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        let all = String(decoding: await connection.receive(), as: UTF8.self)
        let second = try #require(all.range(of: "HTTP/1.1 ", range: all.index(after: all.startIndex)..<all.endIndex))
        return (String(all[..<second.lowerBound]), all)
    }

    /// The value of a header field in a response head, or `nil`.
    private static func field(_ name: String, in head: String) -> String? {
        head.split(separator: "\r\n").dropFirst().first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
            .map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
    }

    @Test("a HEAD stub with a body sends its Content-Length and headers, and not the body")
    func headStubWithBody() async throws {
        try await LiveServer.with { server in
            let stub = #"""
                {"request": {"method": "HEAD", "url": "/item"},
                 "response": {"status": 200, "headers": {"X-Kind": "item"}, "body": "hello world"}}
                """#
            let (head, all) = try await Self.head("/item", stubs: [stub], on: server)
            #expect(head.hasPrefix("HTTP/1.1 200"))
            #expect(Self.field("Content-Length", in: head) == "11")
            #expect(Self.field("X-Kind", in: head) == "item")
            #expect(head.hasSuffix("\r\n\r\n"), "nothing follows the head: \(head.debugDescription)")
            #expect(all.hasSuffix("\r\n\r\nafter"))
        }
    }

    @Test("a HEAD stub without a body sends the Content-Length it declares (a recorded HEAD's)")
    func headStubWithDeclaredLength() async throws {
        try await LiveServer.with { server in
            let stub = #"""
                {"request": {"method": "HEAD", "url": "/big"},
                 "response": {"status": 200, "headers": {"Content-Length": "123456", "Content-Type": "image/png"}}}
                """#
            let (head, _) = try await Self.head("/big", stubs: [stub], on: server)
            #expect(head.hasPrefix("HTTP/1.1 200"))
            #expect(Self.field("Content-Length", in: head) == "123456")
            #expect(Self.field("Content-Type", in: head) == "image/png")
            #expect(
                head.components(separatedBy: "\r\n").filter { $0.lowercased().hasPrefix("content-length:") }.count == 1)
            #expect(head.hasSuffix("\r\n\r\n"))
        }
    }

    @Test("HEAD matched by an ANY stub gets the GET's Content-Length and headers, without the body")
    func anyStubAnsweringHead() async throws {
        try await LiveServer.with { server in
            let stub = #"""
                {"request": {"method": "ANY", "url": "/either"},
                 "response": {"status": 200, "headers": {"X-Kind": "either"}, "jsonBody": {"name": "fire"}}}
                """#
            let (head, _) = try await Self.head("/either", stubs: [stub], on: server)
            let get = try await server.send("GET", "/either")
            #expect(Self.field("Content-Length", in: head) == String(get.body.count))
            #expect(Self.field("Content-Type", in: head) == get.header("Content-Type"))
            #expect(Self.field("X-Kind", in: head) == "either")
            #expect(Self.field("Matched-Stub-Id", in: head) == get.header("Matched-Stub-Id"))
            #expect(head.hasSuffix("\r\n\r\n"))
        }
    }

    @Test("a GET stub does not answer HEAD (WireMock 2.35 answers 404 too)")
    func getStubDoesNotAnswerHead() async throws {
        try await LiveServer.with { server in
            let stub = #"{"request": {"method": "GET", "url": "/only-get"}, "response": {"body": "x"}}"#
            let (head, _) = try await Self.head("/only-get", stubs: [stub], on: server)
            #expect(head.hasPrefix("HTTP/1.1 404"))
        }
    }
}
