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

    @Test("counting journaled requests with a catastrophic pattern stops each evaluation at its step budget")
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
        // A budget far larger than the evaluations need, to count the engine steps they take: the work, whatever
        // the machine's speed or load.
        let steps = Int.max / 2
        let (response, budget) = MatchBudget.measuring(steps: steps) {
            admin.handle(
                HTTPRequest(
                    method: "POST", rawURL: "/__admin/requests/count",
                    body: Data(#"{"urlPathPattern": "/(a+)+$"}"#.utf8)))
        }
        #expect(response.status == 200)
        #expect(try JSONValue.parse(response.body.data)["count"] == .integer(0))
        // 50 evaluations, each stopped at its own budget (counted in ICU's progress calls of 10,000 steps):
        // about 0.6 s in all. Without the budget ICU ran each about 40 times longer (25 s in all).
        let spent = steps - budget.remaining
        let perEvaluation = StubRegex.stepBudget(forLength: hostile.utf16.count)
        #expect(spent >= 50 * perEvaluation, "the pattern did not run to its budget: \(spent) steps")
        #expect(spent <= 50 * (perEvaluation + 20_000), "\(spent) steps for 50 evaluations")
    }

    @Test("a stub with a regex bomb answers its hostile request and the server keeps serving")
    func liveBombStub() async throws {
        try await HostileServer.with { server in
            let created = try await server.admin(
                "POST", "/mappings", #"{"request": {"urlPathPattern": "/bomb/(a+)+$"}, "response": {"status": 204}}"#)
            #expect(created.status == 201)
            let hostile = try await server.send("GET", "/bomb/" + String(repeating: "a", count: 30) + "b")
            // Matching, then near misses: the pattern runs a few times, each stopped at its step budget (counted
            // above, not timed here): about 50 ms in all, 2 s without the budget.
            #expect(hostile.status == 404)
            #expect(try await server.send("GET", "/bomb/aaaa").status == 204)
            #expect(try await server.admin("GET", "/health").status == 200)
        }
    }
}
