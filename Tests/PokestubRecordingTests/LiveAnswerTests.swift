import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

/// In the record and proxy modes the client gets the upstream's answer as the upstream sent it; redaction
/// applies to what is written to disk and to the journal only.
@Suite("Live answers in record and proxy modes are the upstream's, unredacted")
struct LiveAnswerTests {
    private static let cookies = [
        "session=abc123; Path=/; HttpOnly", "theme=dark; Path=/", "tracking=xyz; Max-Age=60",
    ]
    private static let redactedCookies = [
        "session=<redacted>; Path=/; HttpOnly", "theme=<redacted>; Path=/", "tracking=<redacted>; Max-Age=60",
    ]
    private static let clientHeaders = [("Cookie", "sid=client-secret"), ("Authorization", "Bearer client-token")]

    /// The one serve event in the journal, as the admin API shows it, and its text.
    private static func journaledEvent(_ server: RecordingServer) async throws -> (JSONValue, String) {
        let response = try await server.send("GET", "/__admin/requests")
        let journal = try JSONValue.parse(response.body)
        guard case .array(let events)? = journal["requests"], events.count == 1 else {
            throw TestFailure("expected one serve event: \(String(decoding: response.body, as: UTF8.self))")
        }
        return (events[0], String(decoding: response.body, as: UTF8.self))
    }

    /// What every mode must show: the client got the upstream's cookies and body; the journal has them and the
    /// client's secrets redacted.
    private static func expectLiveAndJournal(
        _ server: RecordingServer, upstream: ScriptedUpstream
    ) async throws {
        let live = try await server.send("GET", "/cookies", headers: clientHeaders)
        let direct = try await TestHTTP.send("GET", upstream.baseURL + "/cookies")
        #expect(live.status == 200)
        #expect(live.headers.values(for: "Set-Cookie") == cookies)
        #expect(live.body == direct.body)

        let (event, text) = try await journaledEvent(server)
        #expect(event["response"]?["headers"]?["Set-Cookie"] == .array(redactedCookies.map { .string($0) }))
        #expect(event["request"]?["headers"]?["Cookie"] == .string("sid=<redacted>"))
        #expect(event["request"]?["headers"]?["Authorization"] == .string("<redacted>"))
        for secret in ["abc123", "xyz", "client-secret", "client-token"] {
            #expect(!text.contains(secret), "the journal holds \(secret)")
        }
    }

    @Test("record mode: the client gets the upstream's Set-Cookie; the mapping file and the journal redact it")
    func recordMode() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let server = try RecordingServer(root: folder.path, mode: .record, upstream: upstream.baseURL)
        defer { server.stop() }
        try await Self.expectLiveAndJournal(server, upstream: upstream)

        let mapping = try folder.json("mappings/cookies.GET.json")
        #expect(mapping["response"]?["headers"]?["Set-Cookie"] == .array(Self.redactedCookies.map { .string($0) }))
        let file = String(decoding: try folder.data("mappings/cookies.GET.json"), as: UTF8.self)
        #expect(!file.contains("abc123") && !file.contains("xyz"))

        // The same answer again reuses the recording, and the client still gets the upstream's cookies.
        let again = try await server.send("GET", "/cookies")
        #expect(again.headers.values(for: "Set-Cookie") == Self.cookies)
    }

    @Test("proxy mode: the client gets the upstream's Set-Cookie; the journal redacts it; nothing is written")
    func proxyMode() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let server = try RecordingServer(root: folder.path, mode: .proxy, upstream: upstream.baseURL)
        defer { server.stop() }
        try await Self.expectLiveAndJournal(server, upstream: upstream)
        #expect(folder.files.isEmpty)
    }
}
