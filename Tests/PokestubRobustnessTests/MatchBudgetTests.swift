import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

/// One request compared with many stubs whose patterns backtrack catastrophically: each evaluation has a
/// budget of its own, and the request as a whole has one too (``MatchBudget``), so the request is answered
/// 503, naming a stub, instead of taking a hundred evaluation budgets of server time.
@Suite("The matching budget of a request")
struct MatchBudgetTests {
    static let bomb = "(/)(a+)+$|z{3}"
    static let hostilePath = "/" + String(repeating: "a", count: 30) + "b"

    @Test("evaluations draw from the request's budget and stop at once when it is spent")
    func budgetIsShared() throws {
        let regex = try StubRegex(Self.bomb)
        let (outcomes, budget) = MatchBudget.measuring(steps: 5_000_000) {
            (0..<100).map { _ in regex.evaluate(Self.hostilePath) }
        }
        #expect(budget.isSpent)
        #expect(budget.spentBy?.pattern == Self.bomb)
        #expect(outcomes.allSatisfy { !$0.matched && $0.exhaustedBudget })
        // Once spent, no evaluation takes any more steps: the total stays within one evaluation's budget of
        // the request budget.
        #expect(budget.remaining > -StubRegex.stepBudget(forLength: Self.hostilePath.utf16.count))
        // Without a request budget, each evaluation has its own, and an ordinary value is not affected.
        #expect(regex.evaluate(Self.hostilePath).exhaustedBudget)
        #expect(MatchBudget.measuring { regex.matches("/a") }.0)
    }

    @Test("a hundred catastrophic stubs: the request gets 503 naming one, and other requests are still served")
    func manyBombsGet503() async throws {
        try await HostileServer.with { server in
            var ids: Set<String> = []
            for number in 0..<100 {
                let id = UUID().uuidString.lowercased()
                ids.insert(id)
                let response = try await server.admin(
                    "POST", "/mappings",
                    #"{"id":"\#(id)","priority":\#(number + 1),"request":{"urlPathPattern":"\#(Self.bomb)"},"#
                        + #""response":{"status":200,"body":"bomb"}}"#)
                #expect(response.status == 201)
            }
            _ = try await server.admin(
                "POST", "/mappings", #"{"request":{"urlPath":"/ok"},"response":{"status":200,"body":"ok"}}"#)

            let hostile = try await server.send("GET", Self.hostilePath)
            #expect(hostile.status == 503)
            let answer = try JSONValue.parse(Data(hostile.body))
            #expect(answer["error"] == .string("matching budget spent"))
            #expect(answer["pattern"] == .string(Self.bomb))
            #expect(answer["stub"]?.stringValue.map(ids.contains) == true, "\(answer)")
            #expect(server.engine.journal.events.last?.responseStatus == 503)

            let plain = try await server.send("GET", "/ok")
            #expect(plain.status == 200)
        }
    }
}
