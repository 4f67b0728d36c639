import Foundation
import PokestubLocking

/// The templated parts of a stub's response: what WireMock's `response-template` transformer renders per
/// request (the body, `jsonBody`'s text, header values, `bodyFileName` and the body file's content).
///
/// Built when the stub loads, only for a stub with templating on (`"transformers": ["response-template"]`, or
/// `globalResponseTemplating`) that has something to render; every template is parsed then. A body file's
/// content is parsed the first time it is served and kept with the stub set, like the file's bytes; a file
/// without any mustache is served as its bytes, without a copy.
package final class ResponseTemplate: Sendable {
    /// The body template (`body`, or `jsonBody` written out as text, as WireMock templates it), when it holds
    /// a mustache.
    let body: Template?
    /// Every header field, templated or not, in the stub's order, when any value holds a mustache.
    let headers: [(name: String, value: Template)]?
    /// The body file's name: a template, or a literal name.
    let bodyFileName: Template?
    /// Where body files are looked up.
    let bodyFiles: BodyFileStore
    /// The stub's `transformerParameters`, visible as `parameters.NAME`.
    let parameters: JSONValue?
    private let fileTemplates = Locked<[String: Template]>([:])
    /// For a `bodyFileName` without a mustache, the file's content and its template (`nil` when it is served
    /// as its bytes) once served: a name that is always the same is resolved and checked once, not on every
    /// request.
    private let literalBodyFile = Locked<
        (content: ResponseBody, template: Template?, requestMembers: Set<String>?)?
    >(nil)
    /// The members of the `request` model the headers, body and body file name may read; `nil` for all.
    private let fixedRequestMembers: Set<String>?

    init(
        body: Template?, headers: [(name: String, value: Template)]?, bodyFileName: Template?,
        bodyFiles: BodyFileStore, parameters: JSONValue?
    ) {
        self.body = body
        self.headers = headers
        self.bodyFileName = bodyFileName
        self.bodyFiles = bodyFiles
        self.parameters = parameters
        var templates = (headers ?? []).map(\.value)
        if let body { templates.append(body) }
        if let bodyFileName { templates.append(bodyFileName) }
        fixedRequestMembers = ResponseTemplate.requestMembers(of: templates)
    }

    /// Whether this template supplies the body file (the stub's own ``BodyFile`` is then not read).
    var rendersBodyFile: Bool { bodyFileName != nil }

    /// `response` rendered for `request`: templated header values and body put in, or a 500 naming what
    /// failed (`{"status": 500, "error": "response template failed", "message": "…"}`).
    ///
    /// Every template of the answer renders within one ``TemplateLimits`` budget; a render that passes it is
    /// answered `{"status": 500, "error": "response template passed its work budget", "stub": "…id…",
    /// "message": "template of stub 'name' (…id…) passed its work budget at {{#each items}} (template line
    /// 3): more than 2000000 steps (limits.maxTemplateSteps)"}`.
    ///
    /// - Parameters:
    ///   - response: The stub's prepared response (with `Matched-Stub-Id`), without a body file's bytes.
    ///   - request: The request being answered.
    ///   - serverBaseURL: Where the server listens, for `request.baseUrl` when the request has no `Host`.
    ///   - stub: The stub being served, named in a budget overrun's answer.
    ///   - limits: The work rendering may do.
    package func render(
        _ response: HTTPResponse, for request: HTTPRequest, serverBaseURL: String,
        stub: ServeEvent.StubReference? = nil, limits: TemplateLimits = TemplateLimits()
    ) -> HTTPResponse {
        render(response, for: request, serverBaseURL: serverBaseURL, stub: stub, limits: limits, givingUp: false)!
    }

    /// ``render(_:for:serverBaseURL:stub:limits:)``, or `nil` when `givingUp` and the templates pass `limits`
    /// (so that the caller may render again with more).
    func render(
        _ response: HTTPResponse, for request: HTTPRequest, serverBaseURL: String,
        stub: ServeEvent.StubReference?, limits: TemplateLimits, givingUp: Bool
    ) -> HTTPResponse? {
        let model = TemplateRequestModel.model(
            for: request, serverBaseURL: serverBaseURL, parameters: parameters, members: requestMembers)
        var budget = TemplateBudget(limits: limits)
        do {
            return try render(response, model: model, budget: &budget)
        } catch {
            guard error.isOverBudget else {
                return .json(
                    .object([
                        "status": .integer(500), "error": .string("response template failed"),
                        "message": .string(error.message),
                    ]), status: 500)
            }
            if givingUp { return nil }
            var members: [String: JSONValue] = [
                "status": .integer(500), "error": .string("response template passed its work budget"),
                "message": .string(error.budgetMessage(stub: stub.map(ResponseTemplate.describe) ?? "(unknown)")),
            ]
            if let stub { members["stub"] = .string(stub.id.uuidString.lowercased()) }
            return .json(.object(members), status: 500)
        }
    }

    /// The members of the `request` model this response's templates may read (``TemplateRequestReads``), the
    /// ones its model is built with: its headers', body's and body file name's, and with a literal body file
    /// name the file's template's once it is known; `nil` (all of them) until then, or when one of them may
    /// read the whole request.
    private var requestMembers: Set<String>? {
        guard bodyFileName != nil else { return fixedRequestMembers }
        return literalBodyFile.withLock { $0?.requestMembers }
    }

    /// The union of `templates`' ``Template/requestMembers``; `nil` when one of them is.
    private static func requestMembers(of templates: [Template]) -> Set<String>? {
        var members: Set<String> = []
        for template in templates {
            guard let reads = template.requestMembers else { return nil }
            members.formUnion(reads)
        }
        return members
    }

    /// A stub as a budget overrun names it: `'name' (id)`, or its id alone.
    private static func describe(_ stub: ServeEvent.StubReference) -> String {
        let id = stub.id.uuidString.lowercased()
        return stub.name.map { "\($0.debugDescription) (\(id))" } ?? id
    }

    private func render(
        _ response: HTTPResponse, model: TemplateValue, budget: inout TemplateBudget
    ) throws(TemplateRenderError) -> HTTPResponse {
        var result = response
        if let headers {
            for name in Set(headers.map { $0.name.lowercased() }) { result.headers.remove(name: name) }
            var added = HTTPHeaders()
            for (name, template) in headers {
                let value = try template.render(model, budget: &budget)
                guard HTTPSyntax.isFieldValue(value) else {
                    throw TemplateRenderError("header \(name) rendered to a value with a control character")
                }
                added.add(name: name, value: value)
            }
            // The stub's own fields first, then the ones pokestub adds (Matched-Stub-Id).
            for field in result.headers { added.add(name: field.name, value: field.value) }
            result.headers = added
        }
        if let body { result.body = ResponseBody(try body.render(model, budget: &budget)) }
        if let bodyFileName {
            let name = try bodyFileName.render(model, budget: &budget)
            let isLiteral = bodyFileName.isLiteral
            if isLiteral, let known = literalBodyFile.withLock({ $0 }) {
                if let template = known.template {
                    result.body = ResponseBody(try template.render(model, budget: &budget))
                } else {
                    result.body = known.content
                }
                return result
            }
            let file: BodyFile
            let content: ResponseBody
            do {
                file = try bodyFiles.bodyFile(rendered: name)
                content = try file.load()
            } catch {
                // A rendered name may be megabytes long: the message quotes its start.
                let shown =
                    name.utf8.count > 200
                    ? String(name.prefix(100)).debugDescription + "…" : name.debugDescription
                throw TemplateRenderError("bodyFileName \(shown): \(error.message)")
            }
            let template = try fileTemplate(named: file.name, content: content)
            if isLiteral {
                let members = fixedRequestMembers.flatMap { (fixed) -> Set<String>? in
                    guard let template else { return fixed }
                    return template.requestMembers.map { fixed.union($0) }
                }
                literalBodyFile.withLock { $0 = (content, template, members) }
            }
            if let template {
                result.body = ResponseBody(try template.render(model, budget: &budget))
            } else {
                result.body = content
            }
        }
        return result
    }

    /// The body file's content as a template, parsed at first use; `nil` when it has no mustache or is not
    /// UTF-8 text (served as its bytes then).
    private func fileTemplate(named name: String, content: ResponseBody) throws(TemplateRenderError) -> Template? {
        if let known = fileTemplates.withLock({ $0[name] }) { return known.isLiteral ? nil : known }
        guard let text = String(data: content.data, encoding: .utf8) else { return nil }
        let template: Template
        do { template = try Template(text) } catch {
            throw TemplateRenderError("__files/\(name): \(error.description)")
        }
        fileTemplates.withLock { $0[name] = template }
        return template.isLiteral ? nil : template
    }
}
