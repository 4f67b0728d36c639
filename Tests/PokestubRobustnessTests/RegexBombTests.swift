import Foundation
import PokestubCore
import Testing

/// Regular expressions in stubs backtrack, and a client chooses the values they run on. Before each match
/// had a step budget, `(a+)+$` against 30 `a`s and a `b` took about half a second on Linux (ICU gave up
/// there by itself) and a journal query paid that once per journaled request.
@Suite("Regex bombs in stub patterns")
struct RegexBombTests {
    /// Patterns known to backtrack catastrophically, with a value that makes them.
    static let bombs: [(pattern: String, value: String)] = [
        ("(a+)+$", String(repeating: "a", count: 30) + "b"),
        ("(a|aa)*c", String(repeating: "a", count: 40)),
        ("(x+x+)+y", String(repeating: "x", count: 30)),
        ("(\\w+\\s?)*$", String(repeating: "word ", count: 10) + "!"),
        ("(.*a){20}", String(repeating: "a", count: 30)),
    ]

    @Test("a catastrophic pattern stops at its step budget and counts as no match")
    func bombStops() throws {
        for bomb in Self.bombs {
            let regex = try StubRegex(bomb.pattern)
            // About 11 ms each with the budget; without it, ICU gave up by itself after about 500 ms each.
            let outcome = regex.evaluate(bomb.value)
            #expect(!outcome.matched, "\(bomb.pattern)")
            #expect(outcome.exhaustedBudget, "\(bomb.pattern) was not stopped by the step budget")
            #expect(!regex.matches(bomb.value), "\(bomb.pattern)")
        }
        // An ordinary match never comes near the budget.
        #expect(try StubRegex("(a+)+$").evaluate("aaaa") == (matched: true, exhaustedBudget: false))
    }

    @Test("doesNotMatch passes when the budget runs out, as it does when ICU gives up")
    func doesNotMatchOnABomb() throws {
        let pattern = try StringValuePattern(json: .object(["doesNotMatch": .string("(a+)+$")]))
        #expect(pattern.matches(String(repeating: "a", count: 30) + "b"))
        #expect(!pattern.matches("aaaa"))
    }

    @Test("the budget leaves room for patterns that scan long values")
    func legitimatePatternsOnLongValues() throws {
        let filler = String(repeating: "abcdefghij", count: 400_000)  // 4 MB
        #expect(try StubRegex("(?s).*pikachu.*").matches("pikachu" + filler))
        #expect(try StubRegex("(?s).*pikachu.*").matches(filler + "pikachu"))
        #expect(try StubRegex("[a-j]+").matches(filler))
        #expect(
            try StubRegex(".*\"id\"\\s*:\\s*25.*").matches(#"{"name": "pikachu", "id": 25, "x": ""# + filler + "\"}"))
        #expect(!(try StubRegex("(?s).*pikachu.*").matches(filler)))
        #expect(try StubRegex("[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}").matches(UUID().uuidString.lowercased()))
        #expect(StubRegex.stepBudget(forLength: 4_000_000) == 81_000_000)
    }

    @Test("counting journaled requests with a catastrophic pattern answers in seconds, not minutes")
    func journalQuery() throws {
        let store = StubStore(root: nil)
        let journal = RequestJournal(capacity: 100)
        let admin = AdminAPI(store: store, journal: journal, info: ServerInfo(mode: .replay))
        let hostile = "/" + String(repeating: "a", count: 30) + "b"
        for _ in 0..<50 {
            journal.append(
                ServeEvent(
                    receivedAt: Date(), request: HTTPRequest(method: "GET", rawURL: hostile), stub: nil,
                    responseStatus: 404, durationMilliseconds: 0))
        }
        let started = ContinuousClock.now
        let response = admin.handle(
            HTTPRequest(
                method: "POST", rawURL: "/__admin/requests/count", body: Data(#"{"urlPathPattern": "/(a+)+$"}"#.utf8)))
        let elapsed = ContinuousClock.now - started
        #expect(response.status == 200)
        #expect(try JSONValue.parse(response.body.data)["count"] == .integer(0))
        // 50 matches: about 0.6 s with the budget, about 25 s without.
        #expect(elapsed < .seconds(8), "count took \(elapsed)")
    }

    @Test("a stub with a regex bomb answers its hostile request quickly and the server keeps serving")
    func liveBombStub() async throws {
        try await HostileServer.with { server in
            let created = try await server.admin(
                "POST", "/mappings", #"{"request": {"urlPathPattern": "/bomb/(a+)+$"}, "response": {"status": 204}}"#)
            #expect(created.status == 201)
            let hostile = try await server.send("GET", "/bomb/" + String(repeating: "a", count: 30) + "b")
            #expect(hostile.status == 404)
            // Matching, then near misses: the pattern runs a few times. About 50 ms with the budget, 2 s without.
            #expect(hostile.elapsed < .milliseconds(1_000), "took \(hostile.elapsed)")
            #expect(try await server.send("GET", "/bomb/aaaa").status == 204)
            #expect(try await server.admin("GET", "/health").status == 200)
        }
    }
}
