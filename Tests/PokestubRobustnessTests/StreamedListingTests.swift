import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

/// A full journal's listing is sent while it is made, so it never exists whole in memory.
@Suite("Streamed journal listings")
struct StreamedListingTests {

    /// Fetches a listing in a child process, which parses it and answers a summary as JSON, so the client's
    /// memory is not this process's.
    private static func summary(of url: String) throws -> JSONValue {
        let script = """
            import json, sys, urllib.request
            with urllib.request.urlopen(sys.argv[1]) as response:
                data = response.read()
                chunked = response.headers.get("Transfer-Encoding") == "chunked"
                answer = json.loads(data)
                requests = answer["requests"]
                print(json.dumps({"status": response.status, "chunked": chunked, "count": len(requests),
                    "first": requests[0]["request"]["url"], "last": requests[-1]["request"]["url"],
                    "total": answer["meta"]["total"], "disabled": answer["requestJournalDisabled"],
                    "bytes": len(data)}))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, url]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestFailure("fetching \(url) failed") }
        return try JSONValue.parse(data)
    }

    /// Journals `count` POSTs of `/n/{number}` with `bodies`, then fetches the listing in a child process: its
    /// summary, and how much this process's peak RSS grew while it was sent, in bytes.
    private static func listing(
        of count: Int, bodies: Data, on server: HostileServer
    ) async throws -> (summary: JSONValue, grown: Int) {
        for number in 0..<count {
            server.engine.journal.append(
                ServeEvent(
                    receivedAt: Date(), request: HTTPRequest(method: "POST", rawURL: "/n/\(number)", body: bodies),
                    stub: nil, responseStatus: 404, durationMilliseconds: 0))
        }
        try ResidentMemory.resetPeak()
        let before = try #require(ResidentMemory.peakBytes())
        let port = server.server.port
        let summary = try await onOwnThread { try Self.summary(of: "http://127.0.0.1:\(port)/__admin/requests") }
        let peak = try #require(ResidentMemory.peakBytes())
        return (summary, peak - before)
    }

    @Test(
        "GET /__admin/requests of 1,000 events (the journal's capacity here) with 32 KB bodies: the whole journal, newest first, in bounded memory",
        .enabled(if: ResidentMemory.isAvailable, "needs Linux's /proc"))
    func fullJournal() async throws {
        try await HostileServer.with { server in
            let body = Data(String(repeating: "pikachu ", count: 4_096).utf8)  // 32 KB
            let (summary, grown) = try await Self.listing(of: 1_000, bodies: body, on: server)
            #expect(summary["status"] == .integer(200))
            #expect(summary["chunked"] == .bool(true))
            #expect(summary["count"] == .integer(1_000))
            #expect(summary["first"] == .string("/n/999"))
            #expect(summary["last"] == .string("/n/0"))
            #expect(summary["total"] == .integer(1_000))
            #expect(summary["disabled"] == .bool(false))
            let bytes = try #require(summary["bytes"]?.intValue)
            // The same events as a short, unstreamed listing shows.
            let short = try JSONValue.parse(Data(try await server.send("GET", "/__admin/requests?limit=2").body))
            #expect(short["requests"]?[0]?["request"]?["url"] == .string("/n/999"))
            // Built whole, the answer and its JSON tree took several times its size.
            #expect(grown < bytes / 2, "peak RSS grew by \(grown) bytes for a \(bytes)-byte listing")
        }
    }

    @Test(
        "GET /__admin/requests of 24 events with 1 MiB bodies is streamed too: peak memory grows by a few pieces, not the answer",
        .enabled(if: ResidentMemory.isAvailable, "needs Linux's /proc"))
    func fewLargeEvents() async throws {
        try await HostileServer.with { server in
            let body = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
            let (summary, grown) = try await Self.listing(of: 24, bodies: body, on: server)
            #expect(summary["chunked"] == .bool(true))
            #expect(summary["count"] == .integer(Int64(server.engine.journal.count)))
            let bytes = try #require(summary["bytes"]?.intValue)
            // Built whole (fewer than 100 events were), the answer and its JSON tree took about 3 times its size.
            #expect(grown < bytes / 2, "peak RSS grew by \(grown) bytes for a \(bytes)-byte listing")
        }
    }

    @Test("a streamed listing's pieces hold at most 64 events or 1 MiB of bodies, and a larger event alone")
    func pieces() {
        func events(_ sizes: [Int]) -> [ServeEvent] {
            sizes.map {
                ServeEvent(
                    receivedAt: Date(), request: HTTPRequest(method: "POST", rawURL: "/", body: Data(count: $0)),
                    stub: nil, responseStatus: 404, durationMilliseconds: 0)
            }
        }
        #expect(AdminAPI.listingPieces(events(Array(repeating: 0, count: 130))) == [0..<64, 64..<128, 128..<130])
        #expect(AdminAPI.listingPieces(events([600_000, 600_000, 2 << 20, 10, 10])) == [0..<1, 1..<2, 2..<3, 3..<5])
        #expect(AdminAPI.listingPieces([]) == [])
    }
}
