/// A response template, parsed once (Handlebars syntax as WireMock 2.35 reads it; see ``TemplateParser``).
package struct Template: Sendable {
    /// The template text as written.
    package let source: String
    let nodes: [TemplateNode]

    /// Parses a template.
    ///
    /// - Throws: ``TemplateSyntaxError`` naming the bad mustache and its line.
    package init(_ source: String) throws(TemplateSyntaxError) {
        self.source = source
        guard source.utf8.contains(UInt8(ascii: "{")) || source.utf8.contains(UInt8(ascii: "\\")) else {
            nodes = [.text(source)]
            return
        }
        var parser = TemplateParser(source)
        nodes = try parser.parse()
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
        var renderer = TemplateRenderer(model: model, budget: budget)
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
            let model = TemplateRequestModel.model(for: request, serverBaseURL: serverBaseURL, parameters: nil)
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
