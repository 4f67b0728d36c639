import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

/// A request body parsed as JSON for `equalToJson` and `matchesJsonPath` is read in place (`JSONDocument`):
/// built into Foundation's objects and then a `JSONValue`, a 7.2 MB body took 13.7 s and 2.84 GB, and the
/// process kept 2.79 GB resident afterwards. Its memory is charged to the daemon's memory budget while the
/// request's matching lasts, and past it the request gets 507.
@Suite("Parsed request body memory", .serialized)
struct ParsedBodyMemoryTests {
    static let mebibyte = 1 << 20

    /// A JSON array of `count` small objects, about 85 bytes each: `[{"id":0,"name":"pokemon-0","url":…},…]`.
    static func flatArray(count: Int) -> [UInt8] {
        var text = "["
        text.reserveCapacity(count * 90)
        for id in 0..<count {
            if id > 0 { text += "," }
            text += #"{"id":\#(id),"name":"pokemon-\#(id)","url":"https://pokeapi.co/api/v2/pokemon/\#(id)/"}"#
        }
        return Array((text + "]").utf8)
    }

    /// A stub for `POST /big` whose body must hold the array's first object (and may hold more).
    static let stub = #"""
        {"request": {"method": "POST", "url": "/big", "bodyPatterns": [{"equalToJson":
            [{"id": 0, "name": "pokemon-0", "url": "https://pokeapi.co/api/v2/pokemon/0/"}],
            "ignoreExtraElements": true}]},
         "response": {"status": 200, "body": "matched"}}
        """#

    @Test(
        "a 7 MB body against equalToJson peaks at a few times its size and gives its memory back",
        .enabled(if: ResidentMemory.isAvailable, "needs Linux's /proc"))
    func largeBodyMemory() async throws {
        let body = Self.flatArray(count: 83_000)
        #expect(body.count > 7_000_000)
        try await HostileServer.with { (server: HostileServer) async throws in
            #expect(try await server.admin("POST", "/mappings", Self.stub).status == 201)
            // A first request of the same size settles the allocator and libmicrohttpd's buffers.
            #expect(try await server.send("POST", "/big", body: body).status == 200)
            #expect(try await server.admin("DELETE", "/requests").status == 200)
            let before = try #require(ResidentMemory.residentBytes())
            try ResidentMemory.resetPeak()
            let started = ContinuousClock.now
            let answer = try await server.send("POST", "/big", body: body)
            let elapsed = ContinuousClock.now - started
            let peak = try #require(ResidentMemory.peakBytes())
            #expect(answer.status == 200)
            #expect(String(decoding: answer.body, as: UTF8.self) == "matched")
            // The journal keeps the body; let it go before measuring what stays.
            #expect(try await server.admin("DELETE", "/requests").status == 200)
            #expect(server.engine.memory.used.parsedBodies == 0)
            let after = try #require(ResidentMemory.residentBytes())
            // libmicrohttpd's buffer, the request's Data, its text for the body patterns and the client's
            // copy are each the body's size; the document about 1.7 times it. Foundation's objects took 37
            // times it for the parse alone.
            let growth = peak - before
            #expect(
                growth <= 6 * body.count,
                "peak grew by \(growth) bytes for a \(body.count)-byte body (it grew 101 MB before the document)")
            // Back within 10% of before, with one body's size of slack for the allocator.
            #expect(
                after <= before + before / 10 + body.count,
                "resident \(after) bytes after, \(before) before (\(elapsed) for the request)")
        }
    }

    @Test("a body the memory budget cannot hold parsed gets 507 with a JSON reason; the budget is given back")
    func parsedBodyPastTheBudget() async throws {
        // 4 MiB parses into at most five times its size: 20 MiB, more than the 16 MiB budget.
        try await HostileServer.with(maxMemoryBytes: 16 * Self.mebibyte) { (server: HostileServer) async throws in
            #expect(try await server.admin("POST", "/mappings", Self.stub).status == 201)
            let large = Self.flatArray(count: 50_000)
            #expect(large.count > 4 * Self.mebibyte)
            let refused = try await server.send("POST", "/big", body: large)
            #expect(refused.status == 507)
            #expect(refused.json?["error"] == "memory budget exceeded")
            let message = refused.json?["message"]?.stringValue ?? ""
            #expect(message.contains("limits.maxMemoryBytes"), "\(message)")
            #expect(message.contains("equalToJson"), "\(message)")
            #expect(server.engine.memory.used.parsedBodies == 0)
            // A body that fits is parsed and matched as before.
            let small = Self.flatArray(count: 1_000)
            #expect(try await server.send("POST", "/big", body: small).status == 200)
            #expect(server.engine.memory.used.parsedBodies == 0)
        }
    }

    @Test(
        "an XML body the memory budget cannot hold parsed gets 507, for equalToXml and matchesXPath alike",
        arguments: [#"{"equalToXml": "<a><b>1</b></a>"}"#, #"{"matchesXPath": "/a/b[1]"}"#])
    func xmlBodyPastTheBudget(pattern: String) async throws {
        // 1.1 MB of XML: a tree of twelve times that, 13 MiB, then the XPath's document as much again.
        try await HostileServer.with(maxMemoryBytes: 12 * Self.mebibyte) { (server: HostileServer) async throws in
            let stub =
                #"{"request": {"method": "POST", "url": "/xml", "bodyPatterns": [\#(pattern)]}, "#
                + #""response": {"status": 200, "body": "xml"}}"#
            #expect(try await server.admin("POST", "/mappings", stub).status == 201)
            let elements = (0..<100_000).map { "<b>\($0)</b>" }.joined()
            let large = Array(("<a>" + elements + "</a>").utf8)
            let refused = try await server.send("POST", "/xml", body: large)
            #expect(refused.status == 507, "\(refused.text.prefix(300))")
            #expect(refused.json?["error"] == "memory budget exceeded")
            #expect(refused.json?["message"]?.stringValue?.contains("as XML") == true, "\(refused.text.prefix(300))")
            #expect(server.engine.memory.used.parsedBodies == 0)
            // A body that fits is parsed and matched as before.
            #expect(try await server.send("POST", "/xml", body: Array("<a><b>1</b></a>".utf8)).status == 200)
        }
    }
}
