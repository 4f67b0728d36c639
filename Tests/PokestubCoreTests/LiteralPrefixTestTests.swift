import Foundation
import PokestubTestSupport
import Testing

@testable import PokestubCore

@Suite("The stub index passes over a regex stub by its literal prefix with the answer and charge of a full match")
struct LiteralPrefixTestTests {
    /// The shipped stubs, loaded by each test that uses them: not kept in a `static let`, whose stubs would
    /// live to the process's exit. Loaded on Dispatch's threads, so LSan's suppression of what globals' one-time
    /// initializers hold (`_WZ`) does not reach them, and Swift keeps many of their references in enums' spare
    /// bits, which LSan's scan does not see as pointers: they would be reported as leaks.
    private static func shipped() -> [StubMapping] { StubLoader(root: Repository.stubs).load().stubs }

    /// Requests near the shipped stubs' URLs: each stub's path or regex prefix, cut, extended, percent-encoded
    /// (so the raw path differs from the decoded one), with a query, under several methods. Seeded, so a
    /// failure repeats.
    private static func requests(near shipped: [StubMapping], count: Int) -> [HTTPRequest] {
        var generator = SplitMix(seed: 28)
        let seeds: [String] = shipped.compactMap { stub in
            switch stub.request.url {
            case .url(let value)?, .urlPath(let value)?: value
            case .urlPattern(let regex)?, .urlPathPattern(let regex)?: regex.literalPrefix
            case .urlPathTemplate(let template)?: template.template
            case nil: nil
            }
        }
        let tails = ["", "/", "9999/", "1/", "?limit=20", "x", "%C3%A9/", "-species/", "/?offset=5"]
        let methods = ["GET", "GET", "GET", "POST", "HEAD", "DELETE"]
        var requests: [HTTPRequest] = []
        for _ in 0..<count {
            var path = seeds[generator.next(seeds.count)]
            let cut = generator.next(4)
            if cut > 0 { path = String(path.dropLast(min(cut, path.count))) }
            if path.isEmpty || !path.hasPrefix("/") { path = "/" + path }
            if generator.next(3) == 0 { path = path.replacingOccurrences(of: "o", with: "%6F") }
            path += tails[generator.next(tails.count)]
            requests.append(Fixtures.request(methods[generator.next(methods.count)], path))
        }
        return requests
    }

    @Test("a stub its test passes over fails its full pattern, and both charge the budget the same steps")
    func sameAnswerAndCharge() {
        let shipped = Self.shipped()
        let tested = shipped.compactMap { stub in LiteralPrefixTest(stub.request).map { (stub.request, $0) } }
        #expect(tested.count >= 40)
        var rejected = 0
        for request in Self.requests(near: shipped, count: 400) {
            for (pattern, test) in tested {
                let refusals = test.refusals(request)
                let fast = MatchBudget(steps: 1_000_000)
                LiteralPrefixTest.charge(refusals ?? 0, to: fast)
                let general = MatchBudget(steps: 1_000_000)
                let matches = MatchBudget.with(general) { pattern.matches(request) }
                let label = "\(request.method) \(request.rawURL) against \(test.pattern)"
                if refusals != nil {
                    rejected += 1
                    #expect(!matches, "\(label)")
                    #expect(fast.remaining == general.remaining, "\(label)")
                }
            }
        }
        #expect(rejected > 1_000)
    }

    @Test("a spent budget is charged nothing more, as a regex run on a spent budget charges nothing")
    func spentBudget() throws {
        let pattern = try Fixtures.pattern(#"{"method": "GET", "urlPathPattern": "/api/v2/pokemon/?"}"#)
        let test = try #require(LiteralPrefixTest(pattern))
        #expect(test.refusals(Fixtures.request("/api/v2/berry/")) == 1)
        #expect(test.refusals(Fixtures.request("/api/v2/pok%C3%A9mon/")) == 2)
        #expect(test.refusals(Fixtures.request("POST", "/api/v2/berry/")) == 0)
        #expect(test.refusals(Fixtures.request("/api/v2/pokemon/1/")) == nil)
        let budget = MatchBudget(steps: 0)
        budget.charge(1, pattern: "spend")
        #expect(budget.isSpent)
        let before = budget.remaining
        LiteralPrefixTest.charge(2, to: budget)
        #expect(budget.remaining == before)
    }

    @Test("the index answers many requests as a comparison with every shipped stub does")
    func indexAgreesWithEveryStub() {
        let shipped = Self.shipped()
        let index = StubIndex(shipped)
        for request in Self.requests(near: shipped, count: 300) {
            let everyStub = shipped.indices.filter { shipped[$0].request.matches(request) }
                .min { index.rank[$0] < index.rank[$1] }
            #expect(index.match(request)?.position == everyStub, "\(request.method) \(request.rawURL)")
        }
    }
}
