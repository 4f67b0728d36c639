import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

@Suite("Serving runtime stubs over real sockets")
struct ServingTests {
    @Test("a binary base64Body comes back byte for byte")
    func binaryBody() async throws {
        try await LiveServer.with { server in
            let bytes = Data((0...255).map { UInt8($0) })
            let mapping = """
                {"request": {"method": "GET", "urlPath": "/bin"},
                 "response": {"status": 200, "base64Body": "\(bytes.base64EncodedString())",
                              "headers": {"Content-Type": "application/octet-stream"}}}
                """
            let (status, _) = try await server.admin("POST", "/mappings", json: mapping)
            #expect(status == 201)
            let response = try await server.send("GET", "/bin")
            #expect(response.body == bytes)
            #expect(response.header("Content-Length") == "256")
        }
    }

    @Test("a request body and query are matched and journaled as sent")
    func postWithBody() async throws {
        try await LiveServer.with { server in
            let mapping = """
                {"request": {"method": "POST", "urlPath": "/api/v2/team",
                             "queryParameters": {"dry": {"equalTo": "yes please"}},
                             "headers": {"content-type": {"contains": "json"}},
                             "bodyPatterns": [{"matchesJsonPath": "$.members[?(@.name == 'pikachu')]"}]},
                 "response": {"status": 201, "jsonBody": {"ok": true}}}
                """
            #expect(try await server.admin("POST", "/mappings", json: mapping).0 == 201)
            let body = #"{"members":[{"name":"pikachu"}]}"#
            let response = try await server.send(
                "POST", "/api/v2/team?dry=yes+please", headers: ["Content-Type": "application/json"],
                body: Data(body.utf8))
            #expect(response.status == 201)
            #expect(response.text == #"{"ok":true}"#)
            let (_, journal) = try await server.admin("GET", "/requests")
            #expect(
                journal["requests"].flatMap { value -> JSONValue? in
                    if case .array(let items) = value { return items.first?["request"]?["body"] }
                    return nil
                } == .string(body))
            let miss = try await server.send("POST", "/api/v2/team?dry=yes+please", body: Data(#"{"members":[]}"#.utf8))
            #expect(miss.status == 404)
            #expect(miss.text.contains("body: expected matchesJsonPath"))
        }
    }

    @Test("a body that is not UTF-8 is journaled as base64 with body null")
    func binaryRequestBody() async throws {
        try await LiveServer.with { server in
            let bytes = Data([0xFF, 0xFE, 0x00, 0x80])
            _ = try await server.send("PUT", "/upload", body: bytes)
            let (_, journal) = try await server.admin("GET", "/requests")
            guard case .array(let items)? = journal["requests"], let request = items.first?["request"] else {
                Issue.record("no request journaled")
                return
            }
            #expect(request["body"] == .null)
            #expect(request["bodyAsBase64"] == .string(bytes.base64EncodedString()))
        }
    }

    @Test("a fixed delay does not hold a server thread: other requests are answered meanwhile")
    func delayDoesNotBlock() async throws {
        // One server thread; a request delayed 10 s. If the delay held the thread, none of the fast requests
        // could be answered before it ends; they all are, while it is still waiting.
        try await LiveServer.with(threads: 1) { server in
            let slow =
                #"{"request": {"urlPath": "/slow"}, "response": {"status": 200, "body": "slow", "fixedDelayMilliseconds": 10000}}"#
            let fast = #"{"request": {"urlPath": "/fast"}, "response": {"status": 200, "body": "fast"}}"#
            _ = try await server.admin("POST", "/mappings", json: slow)
            _ = try await server.admin("POST", "/mappings", json: fast)
            let slowFinished = Flag()
            let slowRequest = Task {
                _ = try? await server.send("GET", "/slow")
                slowFinished.set()
            }
            // The engine journals a delayed request when it matches it, before the delay.
            try await eventually("/slow reached the engine") { server.engine.journal.count == 1 }
            for _ in 0..<20 {
                #expect(try await server.send("GET", "/fast").text == "fast")
            }
            #expect(!slowFinished.isSet)
            await server.server.shutdown(gracePeriod: .milliseconds(100))  // answers the waiting request with 503
            await slowRequest.value
            #expect(slowFinished.isSet)
        }
    }

    @Test("EMPTY_RESPONSE closes the connection without an answer")
    func emptyResponseFault() async throws {
        try await LiveServer.with { server in
            _ = try await server.admin(
                "POST", "/mappings",
                json: #"{"request": {"urlPath": "/broken"}, "response": {"fault": "EMPTY_RESPONSE"}}"#)
            await #expect(throws: (any Error).self) { _ = try await server.send("GET", "/broken") }
            #expect(try await server.send("GET", "/__admin/health").status == 200)
        }
    }

    @Test("header names match case-insensitively over the wire")
    func headerNames() async throws {
        try await LiveServer.with { server in
            _ = try await server.admin(
                "POST", "/mappings",
                json:
                    #"{"request": {"urlPath": "/h", "headers": {"X-Trainer": {"equalTo": "ash"}}}, "response": {"status": 204}}"#
            )
            #expect(try await server.send("GET", "/h", headers: ["x-trainer": "ash"]).status == 204)
            #expect(try await server.send("GET", "/h", headers: ["x-trainer": "misty"]).status == 404)
        }
    }

    @Test("many concurrent clients are all answered and all journaled")
    func concurrentClients() async throws {
        try await LiveServer.with(stubRoot: Repository.stubs) { server in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for task in 0..<8 {
                    group.addTask {
                        var ok = 0
                        for request in 0..<25 {
                            let id = (task * 25 + request) % 29 + 1
                            if try await server.send("GET", "/api/v2/pokemon/\(id)/").status == 200 { ok += 1 }
                        }
                        return ok
                    }
                }
                var total = 0
                for try await ok in group { total += ok }
                #expect(total == 200)
            }
            #expect(server.engine.journal.count == 200)
        }
    }

    @Test("the journal keeps only the newest maxEntries serve events")
    func journalRing() async throws {
        try await LiveServer.with(journalCapacity: 3) { server in
            for index in 0..<5 { _ = try await server.send("GET", "/r/\(index)") }
            let (_, journal) = try await server.admin("GET", "/requests")
            guard case .array(let items)? = journal["requests"] else {
                Issue.record("no requests")
                return
            }
            #expect(items.map { $0["request"]?["url"]?.stringValue ?? "" } == ["/r/4", "/r/3", "/r/2"])
        }
    }

    @Test("a stopped server's port refuses connections: its listening socket is closed, never leaked")
    func stopClosesTheSocket() async throws {
        for _ in 0..<20 {
            let server = try LiveServer(stubRoot: nil)
            let port = server.server.port
            #expect((try? RawConnection(port: port)) != nil)
            await server.server.shutdown(gracePeriod: .milliseconds(100))
            #expect(throws: (any Error).self, "port \(port) still accepts") { try RawConnection(port: port) }
        }
    }

    @Test("stopping the server lets a request in flight finish")
    func gracefulStop() async throws {
        let server = try LiveServer(stubRoot: nil)
        _ = try await server.admin(
            "POST", "/mappings",
            json:
                #"{"request": {"urlPath": "/slow"}, "response": {"status": 200, "body": "done", "fixedDelayMilliseconds": 500}}"#
        )
        async let response = server.send("GET", "/slow")
        try await eventually("/slow reached the engine") { server.engine.journal.count == 1 }
        let stopper = Task.detached { server.server.stop(gracePeriod: .seconds(5)) }
        let finished = try await response
        await stopper.value
        #expect(finished.text == "done")
        await #expect(throws: (any Error).self) { _ = try await server.send("GET", "/__admin/health") }
    }
}
