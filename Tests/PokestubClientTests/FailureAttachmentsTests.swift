import Foundation
import PokestubClient
import PokestubLocking
import PokestubTestSupport
import PokestubTesting
import Testing

@Suite("Failure attachments")
struct FailureAttachmentsTests {
    static let pikachu = StubBuilder.get("/api/v2/pokemon/25/").willReturn(.json(["name": "pikachu"]))
        .withName("pikachu")

    /// The attachments a recorder was handed, in order, one list per failed check.
    final class Received: Sendable {
        let lists = Locked<[[FailureAttachment]]>([])

        var recorder: FailureAttachmentRecorder {
            { attachments in self.lists.withLock { $0.append(attachments) } }
        }

        var all: [[FailureAttachment]] { lists.withLock { $0 } }
    }

    @Test("a failed verify explains itself in the report, the journal as JSON and the journal as HAR")
    func verifyAttachments() async throws {
        try await withStubServer(mappings: [Self.pikachu]) { server in
            _ = try await HTTPFetch.send(server.url("/api/v2/pokemon/25/"))
            _ = try await HTTPFetch.send(server.url("/api/v2/pokemon/26/"))
            let received = Received()
            let admin = server.admin.recordingFailureAttachments(with: received.recorder)
            let error = await #expect(throws: PokestubClientError.self) {
                try await admin.verify(count: 1, .get("/api/v2/pokemon/1/"))
            }
            let lists = received.all
            #expect(lists.count == 1)
            let attachments = try #require(lists.first)
            #expect(
                attachments.map(\.name) == ["pokestub-failure.txt", "pokestub-journal.json", "pokestub-journal.har"])
            #expect(attachments.map(\.uniformTypeIdentifier) == ["public.plain-text", "public.json", "public.json"])

            // The report is the failure's, near misses included.
            let report = attachments[0].text
            #expect(report == (error?.description ?? "") + "\n")
            #expect(report.contains("Unmatched requests and the stubs closest to them:"), "\(report)")
            #expect(report.contains("GET /api/v2/pokemon/26/ is closest to stub \"pikachu\""), "\(report)")

            // The journal, newest first, as the admin API lists it.
            let journal = try JSONValue(parsing: attachments[1].data)
            let urls = journal["requests"]?.arrayValue?.compactMap { $0["request"]?["url"]?.stringValue }
            #expect(urls == ["/api/v2/pokemon/26/", "/api/v2/pokemon/25/"])

            // The same requests as a HAR 1.2 log, oldest first.
            let har = try JSONValue(parsing: attachments[2].data)
            #expect(har["log"]?["version"]?.stringValue == "1.2")
            let harURLs = har["log"]?["entries"]?.arrayValue?.compactMap { $0["request"]?["url"]?.stringValue } ?? []
            #expect(harURLs.count == 2)
            #expect(harURLs.first?.hasSuffix("/api/v2/pokemon/25/") == true, "\(harURLs)")
            #expect(harURLs.last?.hasSuffix("/api/v2/pokemon/26/") == true, "\(harURLs)")

            // A verification that passes asks for nothing and records nothing.
            try await admin.verify(count: 1, .get("/api/v2/pokemon/25/"))
            #expect(received.all.count == 1)
        }
    }

    @Test("a wait that times out explains itself, with the server's near misses after the closest requests")
    func waitAttachments() async throws {
        try await withStubServer(mappings: [Self.pikachu]) { server in
            _ = try await HTTPFetch.send(server.url("/api/v2/pokemon/26/"))
            let received = Received()
            let admin = server.admin.recordingFailureAttachments(with: received.recorder)
            let error = await #expect(throws: PokestubClientError.self) {
                try await admin.waitForRequests(.atLeast(1), .get("/api/v2/pokemon/1/"), timeout: .milliseconds(50))
            }
            let attachments = try #require(received.all.first)
            #expect(
                attachments.map(\.name) == ["pokestub-failure.txt", "pokestub-journal.json", "pokestub-journal.har"])
            let report = attachments[0].text
            let description = error?.description ?? "<no error>"
            #expect(report.hasPrefix(description), "\(report)")
            #expect(report.contains("timed out after"), "\(report)")
            #expect(report.contains("GET /api/v2/pokemon/26/ is closest to stub \"pikachu\""), "\(report)")
        }
    }

    @Test("expectRequests explains a wrong count and a timeout before it records the issue")
    func expectRequestsAttachments() async throws {
        try await withStubServer(mappings: [Self.pikachu]) { server in
            let received = Received()
            let admin = server.admin.recordingFailureAttachments(with: received.recorder)
            await withKnownIssue {
                try await admin.expectRequests(.exactly(1), .get("/api/v2/pokemon/1/"))
                try await admin.expectRequests(.atLeast(1), .get("/api/v2/pokemon/1/"), timeout: .milliseconds(50))
            }
            let names = received.all.map { $0.map(\.name) }
            let three = ["pokestub-failure.txt", "pokestub-journal.json", "pokestub-journal.har"]
            #expect(names == [three, three])
            let reports = received.all.map { $0.first?.text ?? "" }
            #expect(reports.first?.contains("expected exactly 1 request matching GET /api/v2/pokemon/1/") == true)
            #expect(reports.last?.contains("timed out after") == true, "\(reports)")
        }
    }

    @Test("a session's client keeps the recorder, and its attachments hold the session's journal only")
    func sessionAttachments() async throws {
        try await withStubServer(mappings: [Self.pikachu]) { server in
            _ = try await HTTPFetch.send(server.url("/api/v2/pokemon/25/"))
            let received = Received()
            let admin = server.admin.recordingFailureAttachments(with: received.recorder)
            try await admin.withSession(name: "attachments") { session in
                _ = try await HTTPFetch.send(URL(string: session.baseURL.absoluteString + "/api/v2/pokemon/7/")!)
                await #expect(throws: PokestubClientError.self) {
                    try await session.admin.verify(.get("/api/v2/pokemon/1/"))
                }
            }
            let attachments = try #require(received.all.first)
            let journal = try JSONValue(
                parsing: try #require(attachments.first { $0.name == "pokestub-journal.json" }).data)
            let urls = journal["requests"]?.arrayValue?.compactMap { $0["request"]?["url"]?.stringValue }
            #expect(urls?.count == 1)
            #expect(urls?.first?.hasSuffix("/api/v2/pokemon/7/") == true, "\(String(describing: urls))")
        }
    }

    @Test("the journal attached is the newest failureJournalLimit entries, in JSON and in HAR alike")
    func journalLimit() async throws {
        try await withStubServer(mappings: [Self.pikachu]) { server in
            let limit = PokestubAdminClient.failureJournalLimit
            for id in 0..<(limit + 2) { _ = try await HTTPFetch.send(server.url("/api/v2/type/\(id)/")) }
            let received = Received()
            let admin = server.admin.recordingFailureAttachments(with: received.recorder)
            await #expect(throws: PokestubClientError.self) { try await admin.verify(.get("/api/v2/pokemon/1/")) }
            let attachments = try #require(received.all.first)
            let journal = try JSONValue(
                parsing: try #require(attachments.first { $0.name == "pokestub-journal.json" }).data)
            let urls = journal["requests"]?.arrayValue?.compactMap { $0["request"]?["url"]?.stringValue } ?? []
            #expect(urls.count == limit)
            #expect(urls.first == "/api/v2/type/\(limit + 1)/")
            #expect(urls.last == "/api/v2/type/2/")
            let har = try JSONValue(parsing: try #require(attachments.first { $0.name == "pokestub-journal.har" }).data)
            let entries = har["log"]?["entries"]?.arrayValue ?? []
            #expect(entries.count == limit)
            #expect(entries.first?["request"]?["url"]?.stringValue?.hasSuffix("/api/v2/type/2/") == true)
        }
    }

    @Test("errors other than a failed check have no attachments")
    func otherErrors() async throws {
        let admin = PokestubAdminClient(baseURL: URL(string: "http://127.0.0.1:9")!)
        let refused = PokestubClientError.refused(
            method: "GET", url: admin.adminURL("/requests"), status: 409, errors: [])
        #expect(await admin.failureAttachments(for: refused).isEmpty)
    }
}
