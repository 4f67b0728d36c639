import Foundation
import PokestubClient
import PokestubTestSupport
import PokestubTesting
import Testing

@Suite("Verification")
struct VerificationTests {
    static let anything = StubBuilder.any(.any).willReturn(.status(200)).withName("catch-all")

    @Test("verification passes when the count is as expected")
    func passes() async throws {
        try await withStubServer(mappings: [Self.anything]) { server in
            _ = try await HTTPFetch.send(server.url("/api/v2/pokemon/?offset=0&limit=20"))
            let pattern = RequestPatternBuilder.get("/api/v2/pokemon/").withQueryParameter("limit", .equalTo("20"))
            try await server.admin.verify(count: 1, pattern)
            try await server.admin.verify(pattern)
            try await server.admin.verify(.atMost(1), pattern)
            try await server.admin.verify(.never, .get("/api/v2/type/1/"))
        }
    }

    @Test("hasExactly verifies a repeated query parameter's values in any order, and no other values")
    func repeatedParameter() async throws {
        let stub = StubBuilder.get("/api/v2/pokemon/")
            .withQueryParameter("id", .hasExactly(.equalTo("1"), .equalTo("2")))
            .willReturn(.status(204))
        try await withStubServer(mappings: [Self.anything, stub]) { server in
            for query in ["id=2&id=1", "id=1&id=2", "id=1&id=3", "id=1"] {
                let answer = try await HTTPFetch.send(server.url("/api/v2/pokemon/?" + query))
                #expect(answer.status == (query.contains("2") ? 204 : 200), "\(query)")
            }
            try await server.admin.verify(
                count: 2, .get("/api/v2/pokemon/").withQueryParameter("id", .hasExactly(.equalTo("2"), .equalTo("1"))))
            try await server.admin.verify(
                count: 1, .get("/api/v2/pokemon/").withQueryParameter("id", .includes(.equalTo("3"))))
        }
    }

    @Test("a failed verification prints the actual count and how the closest request differs")
    func failureShowsDifferences() async throws {
        try await withStubServer(mappings: [Self.anything]) { server in
            _ = try await HTTPFetch.send(server.url("/api/v2/pokemon/?offset=0&limit=21"))
            _ = try await HTTPFetch.send(server.url("/api/v2/type/1/"))
            let pattern = RequestPatternBuilder.get("/api/v2/pokemon/").withQueryParameter("limit", .equalTo("20"))

            // A default `#line` inside a macro's closure argument is the line the macro starts on.
            let verifyLine = #line + 1
            let error = await #expect(throws: PokestubClientError.self) {
                try await server.admin.verify(count: 1, pattern)
            }
            guard case .verificationFailed(let failure)? = error else {
                Issue.record("expected a verification failure, got \(String(describing: error))")
                return
            }
            #expect(failure.actualCount == 0)
            #expect(failure.received.count == 2)
            let closest = try #require(failure.closest.first)
            #expect(closest.request.url == "/api/v2/pokemon/?offset=0&limit=21")
            #expect(closest.differences == [#"query parameter limit: expected equalTo "20", got "21""#])

            let text = failure.description
            #expect(failure.callSite == CallSite(filePath: #filePath, line: verifyLine))
            #expect(
                text.hasPrefix(
                    "VerificationTests.swift:\(verifyLine): "
                        + #"expected exactly 1 request matching GET /api/v2/pokemon/ with query limit equalTo "20", but 0 matched."#
                ), "\(text)")
            let thrown: any Error = failure
            #expect(String(describing: thrown) == text, "VerificationFailure is an Error that reads as its report")
            #expect(text.contains(#"  GET /api/v2/pokemon/?offset=0&limit=21 → 200 (stub "catch-all")"#), "\(text)")
            #expect(text.contains(#"    query parameter limit: expected equalTo "20", got "21""#), "\(text)")
            #expect(error?.description == text, "the error reads as the failure in a test log")
        }
    }

    @Test("a request a route answered that differs from the verified path only in its trailing slash leads the report")
    func trailingSlash() async throws {
        let route = StubRoute("GET /api/v2/pokemon/25") { _ in .json(["name": "pikachu"]) }
        try await withStubServer(routes: [route]) { server in
            // PokemonClient's form of the path, with its trailing slash, which the route answers.
            let answer = try await HTTPFetch.send(server.url("/api/v2/pokemon/25/"))
            #expect(answer.status == 200)
            let error = await #expect(throws: PokestubClientError.self) {
                try await server.admin.verify(count: 1, .get("/api/v2/pokemon/25"))
            }
            guard case .verificationFailed(let failure)? = error else {
                Issue.record("expected a verification failure, got \(String(describing: error))")
                return
            }
            #expect(failure.trailingSlashOnly.map(\.url) == ["/api/v2/pokemon/25/"])
            let lines = failure.description.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(
                lines.first?.hasSuffix(
                    "expected exactly 1 request matching GET /api/v2/pokemon/25, but 0 matched; 1 request differs "
                        + "only in the trailing slash.") == true, "\(failure)")
            #expect(lines.count > 3 && lines[2].hasPrefix("Requests that differ only in the trailing slash (urlPath"))
            #expect(lines.count > 3 && lines[3] == "  GET /api/v2/pokemon/25/", "\(failure)")
            // The same path with its slash passes.
            try await server.admin.verify(count: 1, .get("/api/v2/pokemon/25/"))
        }
    }

    @Test("a failed verification includes the server's near misses for unmatched requests")
    func failureShowsNearMisses() async throws {
        let stub = StubBuilder.get("/api/v2/pokemon/").withQueryParameter("limit", .equalTo("20")).withName("list")
        try await withStubServer(mappings: [stub]) { server in
            _ = try await HTTPFetch.send(server.url("/api/v2/pokemon/?limit=200"))
            let error = await #expect(throws: PokestubClientError.self) {
                try await server.admin.verify(.get("/api/v2/pokemon/").withQueryParameter("limit", .equalTo("20")))
            }
            let text = error?.description ?? ""
            #expect(text.contains("Unmatched requests and the stubs closest to them:"), "\(text)")
            #expect(text.contains(#"  GET /api/v2/pokemon/?limit=200 is closest to stub "list":"#), "\(text)")
            #expect(text.contains(#"    query parameter limit: expected equalTo "20", got "200""#), "\(text)")
        }
    }

    @Test("too many matching requests are listed")
    func tooMany() async throws {
        try await withStubServer(mappings: [Self.anything]) { server in
            _ = try await HTTPFetch.send(server.url("/a"))
            _ = try await HTTPFetch.send(server.url("/a"))
            let error = await #expect(throws: PokestubClientError.self) {
                try await server.admin.verify(count: 1, .get("/a"))
            }
            guard case .verificationFailed(let failure)? = error else {
                Issue.record("expected a verification failure")
                return
            }
            #expect(failure.actualCount == 2)
            #expect(failure.matching.count == 2)
            #expect(failure.closest.isEmpty)
            #expect(failure.description.contains("Requests that matched:\n  GET /a\n  GET /a"))
        }
    }

    @Test("body differences are reported for JSON body patterns")
    func bodyDifferences() async throws {
        try await withStubServer(mappings: [Self.anything]) { server in
            _ = try await HTTPFetch.send(
                server.url("/api/v2/team"), method: "POST", body: Data(#"{"name":"misty"}"#.utf8))
            let pattern = RequestPatternBuilder.post("/api/v2/team").withRequestBody(.equalToJson(["name": "ash"]))
            let error = await #expect(throws: PokestubClientError.self) {
                try await server.admin.verify(count: 1, pattern)
            }
            #expect(
                error?.description.contains(
                    #"    body: expected equalToJson {"name":"ash"}, got "{\"name\":\"misty\"}""#)
                    == true, "\(error?.description ?? "")")
        }
    }

    @Test("verify(.never, …) fails against a server whose journal is off, saying so")
    func journalOff() async throws {
        try await withStubServer(mappings: [Self.anything], journalCapacity: 0) { server in
            _ = try await HTTPFetch.send(server.url("/api/v2/pokemon/1/"))
            let error = await #expect(throws: PokestubClientError.self) {
                try await server.admin.verify(.never, .get("/api/v2/pokemon/1/"))
            }
            #expect(error?.httpStatus == 409)
            #expect(error?.description.contains("The request journal is off") == true, "\(String(describing: error))")
        }
    }

    @Test("an empty journal says so")
    func emptyJournal() {
        let failure = VerificationFailure(expected: .exactly(1), actualCount: 0, pattern: .get("/x"))
        #expect(
            failure.description
                == "Expected exactly 1 request matching GET /x, but 0 matched.\n\n"
                + "The request journal is empty: the server received no requests.")
    }
}

@Suite("Verification call sites")
struct VerificationCallSiteTests {
    @Test("a failed verify names the file and line of the call, and a helper can pass its caller's")
    func callSite() async throws {
        func verifyNoTypeRequests(
            _ admin: PokestubAdminClient, file: StaticString = #filePath, line: UInt = #line
        )
            async throws(PokestubClientError)
        {
            try await admin.verify(.never, .get("/api/v2/type/1/"), file: file, line: line)
        }
        try await withStubServer(mappings: [VerificationTests.anything]) { server in
            _ = try await HTTPFetch.send(server.url("/api/v2/type/1/"))
            do {
                try await server.admin.verify(count: 2, .get("/api/v2/type/1/"))
                Issue.record("one request is not two")
            } catch {
                guard case .verificationFailed(let failure)? = error as? PokestubClientError else { throw error }
                #expect(failure.callSite == CallSite(filePath: #filePath, line: #line - 4))
            }
            do {
                try await verifyNoTypeRequests(server.admin)
                Issue.record("the request was sent")
            } catch {
                guard case .verificationFailed(let failure)? = error as? PokestubClientError else { throw error }
                #expect(failure.callSite == CallSite(filePath: #filePath, line: #line - 4), "the helper's caller")
                #expect(failure.description.hasPrefix("VerificationTests.swift:\(#line - 5): expected no request"))
            }
        }
    }

    @Test("a wait that times out names the file and line of the call, and a helper can pass its caller's")
    func waitCallSite() async throws {
        func waitForTypeRequest(
            _ admin: PokestubAdminClient, file: StaticString = #filePath, line: UInt = #line
        )
            async throws(PokestubClientError)
        {
            try await admin.waitForRequests(
                .atLeast(1), .get("/api/v2/type/1/"), timeout: .zero, file: file, line: line)
        }
        try await withStubServer(mappings: [VerificationTests.anything]) { server in
            do {
                try await server.admin.waitForRequests(.atLeast(1), .get("/api/v2/type/2/"), timeout: .zero)
                Issue.record("no request was sent")
            } catch {
                guard case .timedOut(_, _, _, _, _, let callSite)? = error as? PokestubClientError else { throw error }
                #expect(callSite == CallSite(filePath: #filePath, line: #line - 4))
            }
            do {
                try await waitForTypeRequest(server.admin)
                Issue.record("no request was sent")
            } catch {
                guard case .timedOut(_, _, _, _, _, let callSite)? = error as? PokestubClientError else { throw error }
                #expect(callSite == CallSite(filePath: #filePath, line: #line - 4), "the helper's caller")
                #expect("\(error)".hasPrefix("VerificationTests.swift:\(#line - 5): timed out after 0.0 seconds"))
            }
        }
    }
}
