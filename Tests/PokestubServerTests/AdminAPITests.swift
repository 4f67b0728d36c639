import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

@Suite("The admin API over real sockets")
struct AdminAPITests {
    @Test("stubs can be added, read, replaced and removed at run time")
    func mappingLifecycle() async throws {
        try await LiveServer.with { server in
            let (created, mapping) = try await server.admin(
                "POST", "/mappings",
                json:
                    #"{"name": "pika", "request": {"method": "GET", "url": "/p"}, "response": {"status": 200, "body": "one"}}"#
            )
            #expect(created == 201)
            let id = try #require(mapping["id"]?.stringValue)
            #expect(try await server.send("GET", "/p").text == "one")
            #expect(try await server.admin("GET", "/mappings/\(id)").1["name"] == .string("pika"))
            let (listed, list) = try await server.admin("GET", "/mappings")
            #expect(listed == 200)
            #expect(list["meta"]?["total"] == .integer(1))

            let (replaced, _) = try await server.admin(
                "PUT", "/mappings/\(id)",
                json: #"{"request": {"method": "GET", "url": "/p"}, "response": {"status": 200, "body": "two"}}"#)
            #expect(replaced == 200)
            #expect(try await server.send("GET", "/p").text == "two")

            #expect(try await server.admin("DELETE", "/mappings/\(id)").0 == 200)
            #expect(try await server.send("GET", "/p").status == 404)
            #expect(try await server.admin("GET", "/mappings/\(id)").0 == 404)
            #expect(try await server.admin("DELETE", "/mappings/\(id)").0 == 404)
        }
    }

    @Test("bad admin input gets 400 with a JSON reason naming the problem")
    func badInput() async throws {
        try await LiveServer.with { server in
            let (syntax, syntaxError) = try await server.admin("POST", "/mappings", json: "{\"request\": ")
            #expect(syntax == 400)
            #expect(syntaxError["errors"].map { "\($0)" }?.contains("Invalid JSON") == true)

            let (unknown, unknownError) = try await server.admin(
                "POST", "/mappings", json: #"{"request": {"urlPath": "/x", "colour": "red"}, "response": {}}"#)
            #expect(unknown == 400)
            guard case .array(let errors)? = unknownError["errors"], let detail = errors.first?["detail"]?.stringValue
            else {
                Issue.record("no error detail in \(unknownError)")
                return
            }
            #expect(detail.contains("request.colour"))

            #expect(try await server.admin("GET", "/mappings/not-a-uuid").0 == 400)
            #expect(try await server.admin("GET", "/requests?limit=-1").0 == 400)
            #expect(try await server.admin("GET", "/nothing-here").0 == 404)
            #expect(try await server.admin("PATCH", "/mappings").0 == 405)
            #expect(try await server.admin("POST", "/requests/count", json: #"{"method": 5}"#).0 == 400)
        }
    }

    @Test("requests can be counted, found and removed by request pattern; admin calls are not journaled")
    func journalQueries() async throws {
        try await LiveServer.with(stubRoot: Repository.stubs) { server in
            _ = try await server.send("GET", "/api/v2/pokemon/?offset=0&limit=20")
            _ = try await server.send("GET", "/api/v2/pokemon/?offset=20&limit=20")
            _ = try await server.send("GET", "/api/v2/type/1/")
            _ = try await server.admin("GET", "/health")
            let pattern =
                #"{"method": "GET", "urlPath": "/api/v2/pokemon/", "queryParameters": {"limit": {"equalTo": "20"}}}"#
            #expect(try await server.admin("POST", "/requests/count", json: pattern).1["count"] == .integer(2))
            let (_, found) = try await server.admin("POST", "/requests/find", json: pattern)
            if case .array(let requests)? = found["requests"] {
                #expect(
                    Set(requests.compactMap { $0["url"]?.stringValue }) == [
                        "/api/v2/pokemon/?offset=0&limit=20", "/api/v2/pokemon/?offset=20&limit=20",
                    ])
            } else {
                Issue.record("no requests in \(found)")
            }
            #expect(try await server.admin("GET", "/requests").1["meta"]?["total"] == .integer(3))
            _ = try await server.admin("POST", "/requests/remove", json: pattern)
            #expect(try await server.admin("GET", "/requests").1["meta"]?["total"] == .integer(1))
            _ = try await server.admin("DELETE", "/requests")
            #expect(try await server.admin("GET", "/requests").1["meta"]?["total"] == .integer(0))
        }
    }

    @Test("unmatched requests are listed with their near misses")
    func unmatchedNearMisses() async throws {
        try await LiveServer.with { server in
            _ = try await server.admin(
                "POST", "/mappings",
                json: #"{"request": {"method": "GET", "urlPath": "/api/v2/pokemon/25/"}, "response": {"status": 200}}"#)
            _ = try await server.send("POST", "/api/v2/pokemon/25/")
            let (_, unmatched) = try await server.admin("GET", "/requests/unmatched")
            if case .array(let requests)? = unmatched["requests"] {
                #expect(requests.count == 1)
            } else {
                Issue.record("no unmatched requests")
            }
            let (_, nearMisses) = try await server.admin("GET", "/requests/unmatched/near-misses")
            guard case .array(let misses)? = nearMisses["nearMisses"], let first = misses.first else {
                Issue.record("no near misses in \(nearMisses)")
                return
            }
            #expect(first["differences"] == .array([.string(#"method: expected "GET", got "POST""#)]))
            #expect(first["request"]?["method"] == .string("POST"))
        }
    }

    @Test("filters since, limit, unmatched and matchingStub narrow the request list")
    func requestFilters() async throws {
        try await LiveServer.with(stubRoot: Repository.stubs) { server in
            let before = ServeEvent.timestamp(Date())
            _ = try await server.send("GET", "/api/v2/pokemon/1/")
            _ = try await server.send("GET", "/nope")
            let stubID = try #require(try await server.send("GET", "/api/v2/pokemon/2/").header("Matched-Stub-Id"))
            func urls(_ query: String) async throws -> [String] {
                let (_, list) = try await server.admin("GET", "/requests" + query)
                guard case .array(let items)? = list["requests"] else { return [] }
                return items.compactMap { $0["request"]?["url"]?.stringValue }
            }
            #expect(try await urls("?limit=1") == ["/api/v2/pokemon/2/"])
            #expect(try await urls("?unmatched=true") == ["/nope"])
            #expect(try await urls("?matchingStub=\(stubID)") == ["/api/v2/pokemon/2/"])
            #expect(try await urls("?since=\(before)").count == 3)
            #expect(try await urls("?since=2999-01-01T00:00:00Z").isEmpty)
        }
    }

    @Test("with the journal off, list, count, find, unmatched and near misses answer 409 as wait does")
    func journalOff() async throws {
        try await LiveServer.with(journalCapacity: 0) { server in
            _ = try await server.send("GET", "/nope")
            let pattern = #"{"urlPath": "/nope"}"#
            let answers = [
                try await server.admin("GET", "/requests"),
                try await server.admin("GET", "/requests?limit=1"),
                try await server.admin("POST", "/requests/count", json: pattern),
                try await server.admin("POST", "/requests/find", json: pattern),
                try await server.admin("GET", "/requests/unmatched"),
                try await server.admin("GET", "/requests/unmatched/near-misses"),
                try await server.admin("POST", "/requests/wait?timeoutMs=1", json: pattern),
            ]
            for (status, body) in answers {
                #expect(status == 409)
                guard case .array(let errors)? = body["errors"] else {
                    Issue.record("no JSON reason in \(body)")
                    continue
                }
                #expect(errors.first?["title"] == .string("The request journal is off"))
                #expect(errors.first?["detail"]?.stringValue?.contains("journal.maxEntries is 0") == true)
            }
            #expect(try await server.admin("GET", "/health").0 == 200)
        }
    }

    @Test("unmatched and near-misses honour limit; near-misses explain the most recent 100 by default")
    func unmatchedLimits() async throws {
        try await LiveServer.with { server in
            let stub = #"{"request": {"method": "GET", "urlPath": "/miss"}, "response": {"status": 200}}"#
            #expect(try await server.admin("POST", "/mappings", json: stub).0 == 201)
            for number in 0..<150 {
                _ = server.engine.handle(HTTPRequest(method: "GET", rawURL: "/miss/\(number)"))
            }
            _ = server.engine.handle(HTTPRequest(method: "GET", rawURL: "/miss"))
            func urls(_ path: String, _ key: String) async throws -> [String] {
                let (status, body) = try await server.admin("GET", path)
                #expect(status == 200, "\(path)")
                guard case .array(let items)? = body[key] else { return [] }
                return items.compactMap { (key == "requests" ? $0 : $0["request"])?["url"]?.stringValue }
            }
            #expect(try await urls("/requests/unmatched", "requests").count == 150)
            #expect(try await urls("/requests/unmatched?limit=2", "requests") == ["/miss/148", "/miss/149"])
            #expect(try await urls("/requests/unmatched?limit=0", "requests").isEmpty)
            #expect(Set(try await urls("/requests/unmatched/near-misses?limit=1", "nearMisses")) == ["/miss/149"])
            let byDefault = try await urls("/requests/unmatched/near-misses", "nearMisses")
            #expect(Set(byDefault) == Set((50..<150).map { "/miss/\($0)" }))
            #expect(Set(try await urls("/requests/unmatched/near-misses?limit=1000", "nearMisses")).count == 150)
            for bad in ["-1", "ten", ""] {
                #expect(try await server.admin("GET", "/requests/unmatched?limit=\(bad)").0 == 400)
                #expect(try await server.admin("GET", "/requests/unmatched/near-misses?limit=\(bad)").0 == 400)
            }
        }
    }

    @Test("reset clears the journal and the runtime stubs")
    func reset() async throws {
        try await LiveServer.with { server in
            _ = try await server.admin(
                "POST", "/mappings", json: #"{"request": {"url": "/a"}, "response": {"status": 200}}"#)
            _ = try await server.send("GET", "/a")
            #expect(try await server.admin("POST", "/reset").0 == 200)
            #expect(try await server.admin("GET", "/requests").1["meta"]?["total"] == .integer(0))
            #expect(try await server.admin("GET", "/mappings").1["meta"]?["total"] == .integer(0))
            #expect(try await server.send("GET", "/a").status == 404)
        }
    }
}
