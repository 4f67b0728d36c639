import Foundation
import PokestubTestSupport
import Testing

@testable import PokestubCore

/// The shipped list page (`stubs/__files/list-page.hbs`, 1,351 pokemon) as a templated answer: what it costs
/// in budget steps, beside the page that walks every id (whose counts resolving templates at load must not
/// change), and the resolved form it renders from.
@Suite("Templates resolved at load, and the shipped list page's steps")
struct ListPageTemplateTests {
    /// The shipped pokemon list's templated stub, matched for `url`, with its template.
    private static func listPage(_ url: String) throws -> (StubIndex.Match, HTTPRequest) {
        let stubs = StubLoader(root: Repository.stubs).load().stubs.filter {
            $0.name == "GET /api/v2/pokemon/?offset=&limit= (any page)"
        }
        let request = HTTPRequest(method: "GET", rawURL: url)
        let match = try #require(StubIndex(stubs).match(request))
        return (match, request)
    }

    /// The answer within `steps` steps, or `nil` when rendering passes them.
    private static func render(_ match: StubIndex.Match, _ request: HTTPRequest, steps: Int) throws -> HTTPResponse? {
        let template = try #require(match.template)
        return template.render(
            match.response, for: request, serverBaseURL: "http://127.0.0.1:1", stub: nil,
            limits: TemplateLimits(maxSteps: steps), givingUp: true)
    }

    /// `source` rendered over the shipped pokemon list's parameters for `url`: the text and the steps it took.
    private static func rendered(
        _ source: String, _ url: String, steps: Int = TemplateLimits.defaultMaxSteps
    ) throws
        -> (text: String, steps: Int)?
    {
        let (match, _) = try Self.listPage(url)
        let stubTemplate = try #require(match.template)
        let parameters = try #require(stubTemplate.parameters)
        let model = TemplateRequestModel.model(
            for: HTTPRequest(method: "GET", rawURL: url), serverBaseURL: "http://127.0.0.1:1", parameters: parameters)
        var budget = TemplateBudget(limits: TemplateLimits(maxSteps: steps))
        guard let text = try? Template(source).render(model, budget: &budget) else { return nil }
        return (text, budget.steps)
    }

    @Test(
        "the list page that walks every id takes the steps it took before templates were resolved at load",
        arguments: [
            ("/api/v2/pokemon/?offset=0&limit=1351", 58_171), ("/api/v2/pokemon/?offset=1&limit=1350", 58_162),
            ("/api/v2/pokemon/?offset=7&limit=13", 27_426), ("/api/v2/pokemon/?offset=3&limit=17", 27_518),
        ])
    func walkingSteps(url: String, expected: Int) throws {
        // The counts are a stub's whole answer, which takes one step more than its body's template alone.
        let body = expected - 1
        let answer = try #require(try Self.rendered(ListPageFixture.walkingEveryID, url, steps: body))
        #expect(answer.steps == body)
        #expect(try Self.rendered(ListPageFixture.walkingEveryID, url, steps: body - 1) == nil)
    }

    @Test(
        "the shipped list page walks the page's indexes alone: a page's steps grow with the page, not the list",
        arguments: [
            ("/api/v2/pokemon/?offset=0&limit=1351", 28_485), ("/api/v2/pokemon/?offset=1&limit=1350", 28_478),
            ("/api/v2/pokemon/?offset=7&limit=13", 416), ("/api/v2/pokemon/?offset=3&limit=17", 500),
            ("/api/v2/pokemon/?offset=1351&limit=20", 105),
        ])
    func shippedSteps(url: String, expected: Int) throws {
        let (match, request) = try Self.listPage(url)
        let answer = try #require(try Self.render(match, request, steps: expected))
        #expect(answer.status == 200)
        #expect(try Self.render(match, request, steps: expected - 1) == nil, "\(url) takes fewer steps")
    }

    @Test("the shipped list page and the one that walks every id give the same bytes on any page")
    func sameBytes() throws {
        let file = URL(fileURLWithPath: Repository.stubs).appendingPathComponent("__files/list-page.hbs")
        let shipped = try String(contentsOf: file, encoding: .utf8)
        var queries = ["", "?offset=abc", "?limit=0", "?offset=1351&limit=5", "?offset=1350", "?offset=1349&limit=9"]
        var random = SplitMix(seed: 1_351)
        for _ in 0..<8 {
            queries.append(
                "?offset=\(random.next(1_401))&limit=\(random.next(61))")
        }
        for query in queries {
            let url = "/api/v2/pokemon/\(query)"
            let walking = try #require(try Self.rendered(ListPageFixture.walkingEveryID, url), "\(url)")
            let paged = try #require(try Self.rendered(shipped, url), "\(url)")
            #expect(paged.text == walking.text, "\(url)")
        }
    }

    @Test("a template is resolved when it loads: helpers bound, data variables and indexes read, literals made values")
    func resolvedAtLoad() throws {
        let template = try Template(
            "{{#each request.pathSegments}}{{#if (gte @index (math 1 '+' 0))}}{{request.pathSegments.[1]}}{{/if}}"
                + "{{/each}}")
        guard case .block(let each)? = template.nodes.first, case .each = each.kind else {
            Issue.record("expected an #each block")
            return
        }
        guard case .block(let conditional)? = each.body.first, case .conditional = conditional.kind,
            case .call(let gte)? = conditional.expression.parameters.first
        else {
            Issue.record("expected an #if block over a call")
            return
        }
        #expect(gte.helper == .gte)
        guard case .path(let index)? = gte.parameters.first, case .call(let math)? = gte.parameters.last else {
            Issue.record("expected @index and a math call")
            return
        }
        #expect(index.data == .index)
        #expect(math.helper == .math)
        guard case .literal(.string(let plus))? = math.parameters.dropFirst().first else {
            Issue.record("expected a literal '+'")
            return
        }
        #expect(plus == "+")
        guard case .output(let output, _)? = conditional.body.first else {
            Issue.record("expected an output")
            return
        }
        #expect(output.helper == nil)
        #expect(output.head.segments.map(\.index) == [nil, nil, 1])
        let rendered = try template.render(for: HTTPRequest(method: "GET", rawURL: "/a/b/c"))
        #expect(rendered == "bb")
    }
}
