import Foundation
import PokestubTestSupport
import Testing

@testable import PokestubCore

/// The shipped list page (`stubs/__files/list-page.hbs`, 1,351 pokemon) as a templated answer: what it costs
/// in budget steps, which resolving templates at load must not change, and the resolved form it renders from.
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

    @Test(
        "a page takes the steps it took before templates were resolved at load (the whole pokemon list 58,171)",
        arguments: [
            ("/api/v2/pokemon/?offset=0&limit=1351", 58_171), ("/api/v2/pokemon/?offset=1&limit=1350", 58_162),
            ("/api/v2/pokemon/?offset=7&limit=13", 27_426), ("/api/v2/pokemon/?offset=3&limit=17", 27_518),
        ])
    func steps(url: String, expected: Int) throws {
        let (match, request) = try Self.listPage(url)
        let answer = try #require(try Self.render(match, request, steps: expected))
        #expect(answer.status == 200)
        #expect(try Self.render(match, request, steps: expected - 1) == nil, "\(url) takes fewer steps")
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
