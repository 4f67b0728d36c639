import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

/// One memory budget for the whole daemon (`limits.maxMemoryBytes`): journals give way, a runtime stub past
/// it gets 507, an admin answer that cannot be held now gets 429 with `Retry-After`.
@Suite("Memory budget")
struct MemoryBudgetTests {
    static let mebibyte = 1 << 20

    /// A stub whose mapping is about `bytes` long: a body of that many `x`s.
    static func stub(path: String, bytes: Int) -> String {
        #"{"request": {"method": "GET", "urlPath": "\#(path)"}, "response": {"status": 200, "body": ""#
            + String(repeating: "x", count: bytes) + #""}}"#
    }

    static func detail(_ response: RawResponse) -> String {
        guard case .array(let errors)? = response.json?["errors"], case .string(let detail)? = errors.first?["detail"]
        else { return "" }
        return detail
    }

    @Test("a runtime stub the memory budget cannot hold gets 507 with a JSON reason; removing a stub makes room")
    func stubsPastTheBudget() async throws {
        try await HostileServer.with(maxMemoryBytes: 4 * Self.mebibyte) { (server: HostileServer) async throws in
            // Each stub counts three times its 1 MiB mapping: one fits in 4 MiB, two do not.
            let first = try await server.admin("POST", "/mappings", Self.stub(path: "/one", bytes: Self.mebibyte))
            #expect(first.status == 201)
            let second = try await server.admin("POST", "/mappings", Self.stub(path: "/two", bytes: Self.mebibyte))
            #expect(second.status == 507)
            #expect(second.errorTitle == "Insufficient storage")
            #expect(Self.detail(second).contains("limits.maxMemoryBytes"))
            #expect(server.engine.store.index.count == 1)
            #expect(try await server.send("GET", "/two").status == 404)

            let id = try #require(first.json?["id"]?.stringValue)
            #expect(try await server.admin("DELETE", "/mappings/\(id)").status == 200)
            #expect(server.engine.memory.used.stubs == 0)
            let again = try await server.admin("POST", "/mappings", Self.stub(path: "/two", bytes: Self.mebibyte))
            #expect(again.status == 201)
            #expect(try await server.send("GET", "/two").status == 200)
        }
    }

    @Test("sessions' stubs count against the daemon's one budget, and ending a session gives its share back")
    func sessionsShareTheBudget() async throws {
        try await HostileServer.with(maxMemoryBytes: 8 * Self.mebibyte) { (server: HostileServer) async throws in
            var ids: [String] = []
            for _ in 0..<2 {
                let created = try await server.admin("POST", "/sessions", "{}")
                ids.append(try #require(created.json?["id"]?.stringValue))
            }
            // 2 MiB mappings count 6 MiB: the first session's fits, the second's does not.
            let mapping = Self.stub(path: "/big", bytes: 2 * Self.mebibyte)
            #expect(try await server.admin("POST", "/sessions/\(ids[0])/mappings", mapping).status == 201)
            let refused = try await server.admin("POST", "/sessions/\(ids[1])/mappings", mapping)
            #expect(refused.status == 507)
            #expect(refused.errorTitle == "Insufficient storage")
            #expect(try await server.admin("DELETE", "/sessions/\(ids[0])").status == 200)
            #expect(server.engine.memory.used.stubs == 0)
            #expect(try await server.admin("POST", "/sessions/\(ids[1])/mappings", mapping).status == 201)
        }
    }

    @Test("a listing the budget cannot hold now gets 429 with Retry-After; once answers in flight go, it is served")
    func answersWaitForRoom() async throws {
        try await HostileServer.with(maxMemoryBytes: 16 * Self.mebibyte) { (server: HostileServer) async throws in
            let body = Array(repeating: UInt8(ascii: "b"), count: 512 << 10)
            for number in 0..<4 {
                #expect(try await server.send("POST", "/upload/\(number)", body: body).status == 404)
            }
            // Another answer in flight holds what the listing needs: its largest piece, two 512 KiB bodies (1 MiB a
            // piece) counted three times, or all four for the HAR export.
            let inFlight = try #require(server.engine.memory.charge(13 * Self.mebibyte, for: .answer))
            for target in ["/requests", "/requests?format=har", "/requests/unmatched"] {
                let refused = try await server.admin("GET", target)
                #expect(refused.status == 429, "\(target)")
                #expect(refused.header("Retry-After") == "1", "\(target)")
                #expect(refused.errorTitle == "Too many admin answers at once", "\(target)")
                #expect(Self.detail(refused).contains("limits.maxMemoryBytes"), "\(target)")
            }
            inFlight.release()
            let listing = try await server.admin("GET", "/requests")
            #expect(listing.status == 200)
            #expect(listing.json?["requests"]?.arrayValue?.count == 4)
            #expect(try await server.admin("GET", "/requests?format=har").status == 200)
            // Sent and let go, the answers hold nothing.
            try await eventually("the answers' charges are given back") { server.engine.memory.used.answers == 0 }
        }
    }

    @Test("journals give way: their request and response bodies stay within three quarters of the budget, oldest first")
    func journalsGiveWay() async throws {
        try await HostileServer.with(maxMemoryBytes: 16 * Self.mebibyte) { (server: HostileServer) async throws in
            // The stub's 1 MiB body counts once per event in the journal, as the journal's own budget counts it.
            let mapping = Self.stub(path: "/answer", bytes: Self.mebibyte)
            #expect(try await server.admin("POST", "/mappings", mapping).status == 201)
            let body = Array(repeating: UInt8(ascii: "u"), count: Self.mebibyte)
            for _ in 0..<12 {
                #expect(try await server.send("POST", "/upload", body: body).status == 404)
                #expect(try await server.send("GET", "/answer").status == 200)
            }
            let used = server.engine.memory.used
            // 16 MiB less the stub's 3 MiB leaves 13, and journals may hold 12 of it at most.
            #expect(used.journals <= 12 * Self.mebibyte)
            #expect(used.total <= 16 * Self.mebibyte)
            #expect(server.engine.journal.count < 24)
            // The newest events stay.
            #expect(server.engine.journal.events.last?.request.path == "/answer")
        }
    }
}
