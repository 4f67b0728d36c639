import Foundation
import PokestubClient
import PokestubTestSupport
import PokestubTesting
import Testing

/// `expectRequests` records a wrong count as a Swift Testing issue at the call, and throws where no test runs.
@Suite("expectRequests")
struct ExpectRequestsTests {
    @Test("a right count returns true and records nothing")
    func rightCount() async throws {
        try await withStubServer(mappings: [VerificationTests.anything]) { server in
            _ = try await HTTPFetch.send(server.url("/api/v2/pokemon/25/"))
            #expect(try await server.admin.expectRequests(count: 1, .get("/api/v2/pokemon/25/")))
            #expect(try await server.admin.expectRequests(.never, .get("/api/v2/pokemon/0/")))
        }
    }

    @Test("a wrong count is an issue at the call's line carrying the failure report, and the test goes on")
    func wrongCount() async throws {
        try await withStubServer(mappings: [VerificationTests.anything]) { server in
            _ = try await HTTPFetch.send(server.url("/api/v2/pokemon/25/"))
            let line = #line + 3
            var returned: Bool?
            try await withKnownIssue {
                returned = try await server.admin.expectRequests(count: 2, .get("/api/v2/pokemon/25/"))
            } matching: { issue in
                guard let failure = issue.error as? VerificationFailure else { return false }
                return issue.sourceLocation?.line == line && failure.actualCount == 1
                    && failure.description.hasPrefix("ExpectRequestsTests.swift:\(line): expected exactly 2")
            }
            #expect(returned == false)
        }
    }

    @Test("a wait that times out is an issue at the call's line carrying the closest requests, and the test goes on")
    func waitTimesOut() async throws {
        try await withStubServer(mappings: [VerificationTests.anything]) { server in
            _ = try await HTTPFetch.send(server.url("/api/v2/pokemon/26/"))
            let line = #line + 3
            var returned: Bool?
            try await withKnownIssue {
                returned = try await server.admin.expectRequests(
                    .atLeast(1), .get("/api/v2/pokemon/25/"), timeout: .milliseconds(200))
            } matching: { issue in
                guard
                    case .timedOut(_, _, let actualCount, _, let closest, let callSite)? =
                        issue.error as? PokestubClientError
                else { return false }
                return issue.sourceLocation?.line == line && callSite?.line == line && actualCount == 0
                    && closest.map(\.request.url) == ["/api/v2/pokemon/26/"]
                    && "\(issue.error!)".hasPrefix("ExpectRequestsTests.swift:\(line): timed out after 0.2 seconds")
            }
            #expect(returned == false)
        }
    }

    @Test("a wait that is met returns true at once and records nothing")
    func waitMet() async throws {
        try await withStubServer(mappings: [VerificationTests.anything]) { server in
            _ = try await HTTPFetch.send(server.url("/api/v2/pokemon/25/"))
            #expect(
                try await server.admin.expectRequests(.atLeast(1), .get("/api/v2/pokemon/25/"), timeout: .seconds(5)))
        }
    }

    @Test("outside a Swift Testing test a wrong count throws, naming the call")
    func outsideATest() async throws {
        try await withStubServer(mappings: [VerificationTests.anything]) { server in
            let admin = server.admin
            // A detached task does not inherit the task-local current test.
            let line = #line + 3
            let outcome = await Task.detached { () async -> Result<Bool, PokestubClientError> in
                do throws(PokestubClientError) {
                    return .success(try await admin.expectRequests(count: 1, .get("/nothing")))
                } catch {
                    return .failure(error)
                }
            }.value
            guard case .failure(.verificationFailed(let failure)) = outcome else {
                Issue.record("expected a thrown verification failure, got \(outcome)")
                return
            }
            #expect(failure.callSite?.line == line)
        }
    }

    @Test("outside a Swift Testing test a wait that times out throws, naming the call")
    func waitOutsideATest() async throws {
        try await withStubServer(mappings: [VerificationTests.anything]) { server in
            let admin = server.admin
            let line = #line + 3
            let outcome = await Task.detached { () async -> Result<Bool, PokestubClientError> in
                do throws(PokestubClientError) {
                    return .success(try await admin.expectRequests(.atLeast(1), .get("/nothing"), timeout: .zero))
                } catch {
                    return .failure(error)
                }
            }.value
            guard case .failure(.timedOut(_, _, _, _, _, let callSite)) = outcome else {
                Issue.record("expected a thrown timeout, got \(outcome)")
                return
            }
            #expect(callSite == CallSite(filePath: #filePath, line: line))
        }
    }
}
