import Foundation

/// `pokestub check --schema`: checks the bodies of a stub tree's stubs against the schemas of the endpoints
/// their request patterns name, and reports each misfit as `path:line: message`.
///
/// ```
/// stubs/mappings/pikachu.json:14: response body $.stats[0].base_stat: expected integer, got string (schema pokemon/$id)
/// stubs/__files/pokemon/25.json:1: response body $.base_experience: expected integer or null, got string (schema pokemon/$id)
/// ```
///
/// Which stubs are checked: those with a URL pattern under the schema set's API prefix (`url` or `urlPath`
/// naming the path; a `urlPathTemplate`, `urlPathPattern` or `urlPattern` naming the endpoints whose sample
/// paths it matches, ``SchemaSet/endpoints(answeredBy:)``), for `GET` (or any method), answering 2xx with a body
/// of their own (not a proxy, not a fault, not 204). A body file is checked once per endpoint however many
/// stubs serve it, and its problems name the body file and the line in it; an inline `jsonBody`'s name the
/// line in the mapping file; an inline `body` or `base64Body`'s the line of that field.
///
/// A stub whose path is under the prefix but that no schema describes, or whose pattern matches the paths of
/// several endpoints, is reported as such. A templated body is rendered for a sample request (the pattern's
/// path, or the sample path it matched) and the result checked; a template that does not render is reported.
package struct StubSchemaCheck: Sendable {
    /// The schemas to check against.
    package let schemas: SchemaSet
    /// The stub root as the user gave it; problems name files under it.
    package let root: String
    /// How many violations of one body are listed before the rest are counted.
    package var violationsPerBody = 20

    /// Creates a check.
    package init(schemas: SchemaSet, root: String) {
        self.schemas = schemas
        self.root = root
    }

    /// What a check found.
    package struct Report: Sendable {
        /// Every misfit and every stub that could not be checked, in stub order.
        package var problems: [StubLoadProblem] = []
        /// How many stubs were checked against a schema.
        package var checkedStubs = 0
        /// How many distinct bodies (inline, body files, rendered templates) were checked.
        package var checkedBodies = 0
    }

    /// Checks the stubs of a load (``StubLoader/Result/stubs``).
    package func check(_ stubs: [StubMapping]) -> Report {
        var report = Report()
        var checkedFiles = Set<String>()
        for stub in stubs {
            guard let url = stub.request.url, stub.request.method == nil || stub.request.method == "GET" else {
                continue
            }
            let response = stub.response
            guard response.proxy == nil, response.fault == nil, (200...299).contains(response.status),
                response.status != 204
            else { continue }
            let found = schemas.endpoints(answeredBy: url)
            let field = url.field
            let place = Place(stub: stub, root: root)
            guard found.count == 1, let (endpoint, path) = found.first else {
                guard isAPIPattern(url) else { continue }
                let message =
                    found.isEmpty
                    ? "request \(field.name) \(field.value): no \(schemas.name) schema describes this path"
                    : "request \(field.name) \(field.value) matches the paths of several \(schemas.name) endpoints ("
                        + found.map(\.endpoint.name).joined(separator: ", ") + "); its body is not checked"
                report.problems.append(place.problem(at: ["request", field.name], message))
                continue
            }
            report.checkedStubs += 1
            if let template = response.template {
                report.checkedBodies += 1
                report.problems += checkRendered(stub, template: template, path: path, endpoint: endpoint, at: place)
            } else if let bodyFile = response.bodyFile {
                guard checkedFiles.insert(bodyFile.name + "\n" + endpoint.document).inserted else { continue }
                report.checkedBodies += 1
                report.problems += checkBodyFile(bodyFile, endpoint: endpoint)
            } else {
                report.checkedBodies += 1
                report.problems += checkInline(stub, endpoint: endpoint, at: place)
            }
        }
        return report
    }

    /// Whether a URL pattern is about the API at all: its literal path, or the literal text its regex or
    /// template starts with, lies under the prefix.
    private func isAPIPattern(_ pattern: URLPattern) -> Bool {
        if let path = pattern.literalPath { return schemas.isAPIPath(path) }
        return pattern.indexPrefix.hasPrefix(schemas.apiPrefix)
    }

    private func checkBodyFile(_ bodyFile: BodyFile, endpoint: SchemaEndpoint) -> [StubLoadProblem] {
        let path = (root as NSString).appendingPathComponent("__files/\(bodyFile.name)")
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: bodyFile.path)) } catch {
            return [StubLoadProblem(path: path, line: nil, message: "cannot read the body file: \(error)")]
        }
        return problems(in: data, endpoint: endpoint, what: "response body") { keyPath in
            (path, keyPath.map { TextPosition.line(ofKeyPath: $0, in: data) ?? 1 } ?? 1)
        }
    }

    private func checkInline(_ stub: StubMapping, endpoint: SchemaEndpoint, at place: Place) -> [StubLoadProblem] {
        let data = stub.response.inlineBody.data
        let field = ["jsonBody", "body", "base64Body"].first { place.responseFields.contains($0) } ?? "body"
        return problems(in: data, endpoint: endpoint, what: "response body") { keyPath in
            guard field == "jsonBody", let keyPath else {
                return (place.path, place.line(of: ["response", field]))
            }
            return (place.path, place.line(of: ["response", "jsonBody"] + keyPath))
        }
    }

    private func checkRendered(
        _ stub: StubMapping, template: ResponseTemplate, path: String, endpoint: SchemaEndpoint, at place: Place
    ) -> [StubLoadProblem] {
        var target = path
        if case .url(let value)? = stub.request.url { target = value }
        let request = HTTPRequest(method: "GET", rawURL: target)
        let field = ["jsonBody", "body", "bodyFileName"].first { place.responseFields.contains($0) } ?? "body"
        let line = place.line(of: ["response", field])
        let rendered = template.render(
            stub.response.responseWithoutBodyFile, for: request, serverBaseURL: "http://localhost:8080")
        guard rendered.status == stub.response.status else {
            let why = (try? JSONValue.parse(rendered.body.data))?["message"]?.stringValue ?? "status \(rendered.status)"
            return [
                StubLoadProblem(
                    path: place.path, line: line,
                    message: "response template does not render for GET \(target), so its body is not checked: \(why)")
            ]
        }
        return problems(in: rendered.body.data, endpoint: endpoint, what: "response body (rendered for GET \(target))")
        { _ in (place.path, line) }
    }

    /// The problems of one body: not JSON, or each violation, placed by `locate` (given the violation's key
    /// path, or `nil` for the body as a whole).
    private func problems(
        in data: Data, endpoint: SchemaEndpoint, what: String, locate: ([String]?) -> (String, Int)
    ) -> [StubLoadProblem] {
        let schema = "(schema \(endpoint.name))"
        guard !data.isEmpty else {
            let (path, line) = locate(nil)
            return [StubLoadProblem(path: path, line: line, message: "\(what) is empty \(schema)")]
        }
        let value: JSONValue
        do { value = try JSONValue.parse(data) } catch {
            let (path, line) = locate(nil)
            return [StubLoadProblem(path: path, line: line, message: "\(what) is not JSON: \(error.message) \(schema)")]
        }
        let (violations, omitted) = schemas.violations(of: value, against: endpoint, limit: violationsPerBody)
        var problems = violations.map { violation -> StubLoadProblem in
            let (path, line) = locate(violation.keyPath)
            return StubLoadProblem(path: path, line: line, message: "\(what) \(violation) \(schema)")
        }
        if omitted > 0 {
            let (path, line) = locate(nil)
            problems.append(
                StubLoadProblem(path: path, line: line, message: "\(what): \(omitted) more violation(s) \(schema)"))
        }
        return problems
    }

    /// Where a stub is written: its mapping file, and its place in a `{"mappings": [...]}` file.
    private struct Place {
        let path: String
        let data: Data
        let prefix: [String]
        /// The names of the mapping's `response` members.
        let responseFields: Set<String>

        init(stub: StubMapping, root: String) {
            switch stub.source {
            case .file(let relative): path = (root as NSString).appendingPathComponent(relative)
            case .runtime: path = "(admin API stub \(stub.id.uuidString.lowercased()))"
            }
            data = stub.definitionSource.data
            prefix = stub.definitionSource.item.map { ["mappings", String($0)] } ?? []
            responseFields = Set(stub.definition["response"]?.objectValue?.keys.map { $0 } ?? [])
        }

        /// The line of a field of the mapping, or of the nearest enclosing one the text has.
        func line(of keyPath: [String]) -> Int {
            TextPosition.line(ofKeyPath: prefix + keyPath, in: data) ?? 1
        }

        func problem(at keyPath: [String], _ message: String) -> StubLoadProblem {
            StubLoadProblem(path: path, line: line(of: keyPath), message: message)
        }
    }
}
