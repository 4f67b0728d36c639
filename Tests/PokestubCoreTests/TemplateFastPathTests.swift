import Foundation
import PokestubTestSupport
import Testing

@testable import PokestubCore

/// Rendering's fast paths (loop-invariant calls and `../` paths worked out once per loop, `and`, `or`, `not` and the
/// comparisons without a parameter list, `lookup` of a list's element by a number) against the general path: the same output, or the same failure, and
/// the same steps, on the shipped list page's pages and on random small templates.
@Suite("Template fast paths give the general path's output and steps")
struct TemplateFastPathTests {
    /// What rendering gave: the text and the steps taken, or the failure's message with the mustache it names.
    private enum Outcome: Equatable {
        case rendered(String, steps: Int)
        case failed(String)
    }

    private static func outcome(_ template: Template, _ model: TemplateValue, _ limits: TemplateLimits) -> Outcome {
        var budget = TemplateBudget(limits: limits)
        do {
            let text = try template.render(model, budget: &budget)
            return .rendered(text, steps: budget.steps)
        } catch {
            return .failed(error.isOverBudget ? error.budgetMessage(stub: nil) : error.message)
        }
    }

    /// `source` rendered over `model` both ways, within `limits`.
    private static func compare(
        _ source: String, _ model: TemplateValue, _ limits: TemplateLimits = TemplateLimits(),
        fastModel: TemplateValue? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Outcome {
        let fast = try Template(source)
        let general = try Template(source, usesFastPaths: false)
        let expected = outcome(general, model, limits)
        let found = outcome(fast, fastModel ?? model, limits)
        #expect(found == expected, "\(source)", sourceLocation: sourceLocation)
        return found
    }

    /// The shipped pokemon list stub's `transformerParameters` and its list page's text.
    private static func listPage() throws -> (parameters: JSONValue, source: String) {
        let stubs = StubLoader(root: Repository.stubs).load().stubs.filter {
            $0.name == "GET /api/v2/pokemon/?offset=&limit= (any page)"
        }
        let request = HTTPRequest(method: "GET", rawURL: "/api/v2/pokemon/?offset=1&limit=2")
        let match = try #require(StubIndex(stubs).match(request))
        let template = try #require(match.template)
        let parameters = try #require(template.parameters)
        let file = URL(fileURLWithPath: Repository.stubs).appendingPathComponent("__files/list-page.hbs")
        return (parameters, try String(contentsOf: file, encoding: .utf8))
    }

    @Test("the list page that walks every id has its three math calls in #each found loop-invariant")
    func listPageInvariants() throws {
        let source = ListPageFixture.walkingEveryID
        let template = try Template(source)
        #expect(template.invariantSlots - template.invariantPaths == 3)
        #expect(try Template(source, usesFastPaths: false).invariantSlots == 0)
    }

    @Test("the shipped list page's four ../parameters paths in #each are found loop-invariant, and no call")
    func listPageInvariantPaths() throws {
        let (_, shipped) = try Self.listPage()
        let template = try Template(shipped)
        #expect(template.invariantPaths == 4)
        #expect(template.invariantSlots == 4)
        #expect(try Template(shipped, usesFastPaths: false).invariantPaths == 0)
    }

    @Test(
        "random pages of the shipped list page and of the one walking every id: the same answer and steps, and the same overrun on a smaller budget"
    )
    func listPages() throws {
        let (parameters, shipped) = try Self.listPage()
        var random = SplitMix(seed: 28)
        let queries = ["", "?offset=abc", "?limit=0", "?offset=1351&limit=5", "?offset=1350", "?offset=7&limit=13"]
        var urls = queries.map { "/api/v2/pokemon/\($0)" }
        for _ in 0..<40 {
            urls.append("/api/v2/pokemon/?offset=\(random.next(1_400))&limit=\(random.next(1_400))")
        }
        for (position, url) in urls.enumerated() {
            let model = TemplateRequestModel.model(
                for: HTTPRequest(method: "GET", rawURL: url), serverBaseURL: "http://127.0.0.1:1",
                parameters: parameters)
            // The page that walks every id costs 60 times the shipped one; a few of its pages suffice.
            let sources = position < 8 ? [shipped, ListPageFixture.walkingEveryID] : [shipped]
            for source in sources {
                let full = try Self.compare(source, model)
                guard case .rendered(_, let steps) = full else {
                    Issue.record("\(url) failed: \(full)")
                    continue
                }
                _ = try Self.compare(source, model, TemplateLimits(maxSteps: steps - 1))
                _ = try Self.compare(source, model, TemplateLimits(maxSteps: random.next(steps)))
                _ = try Self.compare(source, model, TemplateLimits(maxBytes: random.next(2_000)))
            }
        }
    }

    @Test("random small templates: the same output or failure, and the same steps, at any budget")
    func randomTemplates() throws {
        var random = SplitMix(seed: 2_035)
        let model = Self.randomModel(members: nil)
        var hoisting = 0
        var pathHoisting = 0
        var partialModels = 0
        for _ in 0..<600 {
            var generator = RandomTemplate(random: &random)
            let source = generator.template()
            let template = try Template(source)
            if template.invariantSlots > template.invariantPaths { hoisting += 1 }
            if template.invariantPaths > 0 { pathHoisting += 1 }
            // The fast path renders over a model built with the request members the template may read.
            // (One that may read the whole request reads its id, a new UUID in every model: the same model.)
            let fastModel = template.requestMembers.map { Self.randomModel(members: $0) }
            if template.requestMembers != nil { partialModels += 1 }
            let full = try Self.compare(source, model, fastModel: fastModel)
            let steps: Int
            if case .rendered(_, let taken) = full { steps = taken } else { steps = 200 }
            let fewerSteps = TemplateLimits(maxSteps: random.next(steps + 1))
            _ = try Self.compare(source, model, fewerSteps, fastModel: fastModel)
            let fewerBytes = TemplateLimits(maxBytes: random.next(400))
            _ = try Self.compare(source, model, fewerBytes, fastModel: fastModel)
        }
        #expect(hoisting >= 60, "only \(hoisting) of 600 templates have a loop-invariant call")
        #expect(pathHoisting >= 60, "only \(pathHoisting) of 600 templates have a loop-invariant path")
        #expect(partialModels >= 100, "only \(partialModels) of 600 templates read part of the request")
        #expect(partialModels <= 540, "only \(600 - partialModels) of 600 templates read the whole request")
    }

    /// A model whose parameters hold numbers, numeric text, objects that have (and lack) the variables'
    /// names, and a query with values.
    private static func randomModel(members: Set<String>?) -> TemplateValue {
        let objects: [JSONValue] = [
            .object(["a": .integer(1), "v": .integer(9)]), .object(["b": .string("x<y")]),
            .object(["a": .integer(3), "w": .string("4")]), .object([:]),
        ]
        let parameters: JSONValue = .object([
            "items": .array((0..<7).map { .integer(Int64($0 * 3 % 5)) }), "objects": .array(objects),
            "names": .array(["a", "b&c", "d", "'e'"].map { .string($0) }), "v": .integer(2), "w": .string("5"),
            "empty": .array([]),
        ])
        let request = HTTPRequest(method: "GET", rawURL: "/p/q?ids=1&ids=2&ids=3&x=7")
        return TemplateRequestModel.model(
            for: request, serverBaseURL: "http://127.0.0.1:1", parameters: parameters, members: members)
    }

    @Test("the request members a template may read: the names its paths hold, or all once it may read request whole")
    func requestMembers() throws {
        let (_, shipped) = try Self.listPage()
        let members = try #require(try Template(shipped).requestMembers)
        #expect(members.isSuperset(of: ["request", "query", "offset", "limit", "path", "parameters"]))
        #expect(members.isDisjoint(with: ["id", "headers", "cookies", "body", "bodyAsBase64", "requestLine"]))
        let partial = [
            "{{request.headers.host}}", "{{#with request.query}}{{x}}{{/with}}",
            "{{#each parameters.items}}{{this}}{{/each}}",
            "{{#with request.query}}{{this}}{{/with}}", "{{lookup request.query 'x'}}", "plain",
        ]
        for source in partial { #expect(try Template(source).requestMembers != nil, "\(source)") }
        let whole = [
            "{{request}}", "{{this}}", "{{#each request}}{{@key}}{{/each}}", "{{#with request}}{{this}}{{/with}}",
            "{{lookup request 'id'}}", "{{#with parameters}}{{../this}}{{/with}}", "{{#each this}}{{/each}}",
            "{{#request}}{{url}}{{/request}}", "{{size (lookup this 'request')}}", "{{#with request}}{{url}}{{/with}}",
        ]
        for source in whole { #expect(try Template(source).requestMembers == nil, "\(source)") }
        #expect(try Template("{{request.url}}", usesFastPaths: false).requestMembers == nil)
    }

    @Test("a request's model built with the members its template may read renders as the whole model does")
    func requestModelWithTheMembersRead() throws {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: "example.test:8443")
        headers.add(name: "Cookie", value: "a=1; b=2")
        let request = HTTPRequest(
            method: "POST", rawURL: "/p/a%2Fb/q?x=1&x=2&y=", headers: headers, body: Data("hi".utf8))
        let sources = [
            "{{request.url}} {{request.path}} {{request.pathSegments}} {{request.query.x}} {{request.query.x.[1]}}",
            "{{request.method}} {{request.scheme}} {{request.host}} {{request.port}} {{request.baseUrl}}",
            "{{request.headers.host}} {{request.cookies.b}} {{request.body}} {{request.bodyAsBase64}}",
            "{{request.clientIp}}|{{request.requestLine.baseUrl}}|{{request.requestLine.query}}",
            "{{#with request.requestLine}}{{path}}{{#each query}}{{@key}}={{this}};{{/each}}{{/with}}",
            "{{#with request.requestLine}}{{port}}{{pathSegments.[1]}}{{/with}}{{size request.headers}}",
        ]
        for source in sources {
            let template = try Template(source)
            let members = try #require(template.requestMembers, "\(source)")
            let partial = TemplateRequestModel.model(
                for: request, serverBaseURL: "http://127.0.0.1:1", parameters: nil, members: members)
            let whole = TemplateRequestModel.model(
                for: request, serverBaseURL: "http://127.0.0.1:1", parameters: nil)
            var budget = TemplateBudget(limits: TemplateLimits())
            let expected = try template.render(whole, budget: &budget)
            budget = TemplateBudget(limits: TemplateLimits())
            #expect(try template.render(partial, budget: &budget) == expected, "\(source)")
        }
    }
}

/// A small random template over ``TemplateFastPathTests``'s model: loops (nested too), conditions, `with`,
/// variables set before and inside loops, and expressions of paths, literals and calls.
private struct RandomTemplate {
    var random: SplitMix

    init(random: inout SplitMix) {
        self.random = SplitMix(seed: UInt64(random.next(Int.max)))
        random = SplitMix(seed: UInt64(random.next(Int.max)))
    }

    mutating func template() -> String {
        var text = ""
        if random.next(2) == 0 { text += "{{#assign 'v'}}\(random.next(6)){{/assign}}" }
        for _ in 0..<(1 + random.next(3)) { text += node(depth: 0) }
        return text
    }

    private mutating func pick(_ choices: [String]) -> String { choices[random.next(choices.count)] }

    private mutating func node(depth: Int) -> String {
        switch random.next(depth > 2 ? 4 : 8) {
        case 0: return pick(["x", ",", "&", ""])
        case 1: return "{{\(path())}}"
        case 2: return "{{{\(path())}}}"
        case 3: return "{{\(call(depth: 0))}}"
        case 4:
            let list = pick([
                "parameters.items", "parameters.objects", "request.query.ids", "../parameters.items",
                "parameters.empty", "parameters.names",
            ])
            return "{{#each \(list)}}\(body(depth: depth + 1)){{else}}none{{/each}}"
        case 5:
            return "{{#if \(expression(depth: 0))}}\(body(depth: depth + 1)){{else}}\(body(depth: depth + 1)){{/if}}"
        case 6:
            return
                "{{#with \(pick(["parameters", "parameters.objects.[0]", "this"]))}}\(body(depth: depth + 1)){{/with}}"
        default: return "{{#assign '\(pick(["v", "w", "a"]))'}}\(body(depth: depth + 1)){{/assign}}"
        }
    }

    private mutating func body(depth: Int) -> String {
        (0..<(1 + random.next(3))).map { _ in node(depth: depth) }.joined()
    }

    private mutating func expression(depth: Int) -> String {
        switch random.next(depth > 1 ? 2 : 3) {
        case 0: return pick(["1", "0", "'2'", "'x'", "-1.5", "true"])
        case 1: return path()
        default: return "(\(call(depth: depth + 1)))"
        }
    }

    private mutating func path() -> String {
        pick([
            "v", "w", "a", "this", "@index", "@first", "@last", "@key", "../v", "../a", "../../v", "parameters.v",
            "../parameters.w", "this.a", "request.query.x", "missing", "parameters.names", "request.query.ids",
            "request.pathSegments", "request", "../this", "request.method",
        ])
    }

    private mutating func call(depth: Int) -> String {
        let helper = pick(["math", "gt", "gte", "lt", "lte", "and", "or", "not", "eq", "size", "upper", "lookup"])
        if helper == "math" {
            return "math \(expression(depth: depth)) '\(pick(["+", "-", "*", "%"]))' \(expression(depth: depth))"
        }
        let count = helper == "not" || helper == "size" || helper == "upper" ? 1 : random.next(4)
        return ([helper] + (0..<count).map { _ in expression(depth: depth) }).joined(separator: " ")
    }
}
