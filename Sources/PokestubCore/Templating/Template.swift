/// A response template, parsed once (Handlebars syntax as WireMock 2.35 reads it; see ``TemplateParser``).
package struct Template: Sendable {
    /// The template text as written.
    package let source: String
    let nodes: [TemplateNode]
    /// How many loop-invariant calls and paths the template holds (``TemplateLoopInvariants``).
    let invariantSlots: Int
    /// How many of them are paths (`../parameters.names` in an `#each`).
    let invariantPaths: Int
    /// The members of the `request` model the template may read (``TemplateRequestReads``), the ones a
    /// request's model is built with; `nil` for all of them (always so without fast paths).
    let requestMembers: Set<String>?

    /// Whether rendering takes the faster ways to the same output and steps: loop-invariant calls worked out
    /// once per run of their loop (``TemplateLoopInvariants``), the request model built with the members the
    /// template may read (``TemplateRequestReads``), `and`, `or`, `not` and the comparisons answered
    /// without a parameter list, `lookup` of a list's element by a number without the number's text. Off only
    /// in tests that compare the two.
    let usesFastPaths: Bool

    /// Parses a template.
    ///
    /// - Throws: ``TemplateSyntaxError`` naming the bad mustache and its line.
    package init(_ source: String) throws(TemplateSyntaxError) {
        try self.init(source, usesFastPaths: true)
    }

    /// Parses a template, resolving its loop-invariant calls when `usesFastPaths`.
    init(_ source: String, usesFastPaths: Bool) throws(TemplateSyntaxError) {
        self.source = source
        self.usesFastPaths = usesFastPaths
        guard source.utf8.contains(UInt8(ascii: "{")) || source.utf8.contains(UInt8(ascii: "\\")) else {
            nodes = [.text(source)]
            invariantSlots = 0
            invariantPaths = 0
            requestMembers = []
            return
        }
        var parser = TemplateParser(source)
        let parsed = try parser.parse()
        guard usesFastPaths else {
            nodes = parsed
            invariantSlots = 0
            invariantPaths = 0
            requestMembers = nil
            return
        }
        var invariants = TemplateLoopInvariants()
        nodes = invariants.resolve(parsed)
        invariantSlots = invariants.slotCount
        invariantPaths = invariants.pathCount
        requestMembers = TemplateRequestReads.members(of: parsed)
    }

    /// Whether the template is plain text (no mustache): rendering it gives ``source`` back.
    package var isLiteral: Bool {
        nodes.allSatisfy {
            if case .text = $0 { return true }
            return false
        }
    }

    /// Renders the template over a model, drawing from `budget`.
    func render(_ model: TemplateValue, budget: inout TemplateBudget) throws(TemplateRenderError) -> String {
        var renderer = TemplateRenderer(model: model, budget: budget, invariantSlots: invariantSlots)
        renderer.usesFastPaths = usesFastPaths
        defer { budget = renderer.budget }
        return try renderer.render(nodes)
    }

    /// Renders the template for a request (its `request` model, as WireMock builds it).
    ///
    /// - Parameters:
    ///   - request: The request being answered.
    ///   - serverBaseURL: Where the server listens, for `request.baseUrl` when the request has no `Host`.
    ///   - limits: The work rendering may do (``TemplateLimits``).
    /// - Throws: ``TemplateFailure`` naming the mustache when a helper fails or the budget is passed.
    package func render(
        for request: HTTPRequest, serverBaseURL: String = "http://127.0.0.1", limits: TemplateLimits = TemplateLimits()
    ) throws -> String {
        var budget = TemplateBudget(limits: limits)
        do {
            let model = TemplateRequestModel.model(
                for: request, serverBaseURL: serverBaseURL, parameters: nil, members: requestMembers)
            return try render(model, budget: &budget)
        } catch {
            throw TemplateFailure(message: error.isOverBudget ? error.budgetMessage(stub: nil) : error.message)
        }
    }
}

/// A template that failed while rendering, with what went wrong.
package struct TemplateFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the mustache.
    package var message: String
    package var description: String { message }
}
