import Foundation

/// What a stub answers: WireMock's response definition.
///
/// In JSON: `{"status": 200, "headers": {"Content-Type": "application/json"}, "bodyFileName": "pokemon/1.json",
/// "fixedDelayMilliseconds": 250}` with exactly one of `body` (text), `jsonBody` (any JSON), `base64Body` or
/// `bodyFileName` (a path under the stub root's `__files/`), or none for an empty body.
package struct ResponseDefinition: Sendable {
    /// The status code (100 to 599; default 200).
    package var status: Int
    /// WireMock's `statusMessage`: the reason phrase the mapping asks for, kept with the stub so it shows in
    /// `GET /__admin/mappings`, saved mapping files and serve events as written, but never sent. The status
    /// line always carries the standard reason phrase for ``status`` (RFC 9110 §15), because:
    ///
    /// - libmicrohttpd 0.9.x, which writes the status line, has no call to set a reason phrase (it looks the
    ///   phrase up by code itself);
    /// - RFC 9112 §4: "A client SHOULD ignore the reason-phrase content because it is not a reliable channel
    ///   for information", and HTTP/2 has no reason phrase at all (RFC 9113 §8.3.2);
    /// - an iOS or macOS app cannot observe it: Foundation's `HTTPURLResponse` gives the `statusCode` and
    ///   `localizedString(forStatusCode:)`, never the phrase received.
    package var statusMessage: String?
    /// Header fields. A JSON array value gives one field per element (several `Set-Cookie`s).
    package var headers: HTTPHeaders
    /// The body given in the definition (`body`, `jsonBody`, `base64Body`); empty when the body is a file.
    package var inlineBody: ResponseBody
    /// The body file, read at first use, when the definition names one.
    package var bodyFile: BodyFile?
    /// The body file's name, relative to `__files/`, when the body is a file.
    package var bodyFileName: String? { bodyFile?.name }
    /// Delay before answering, in milliseconds.
    package var delayMilliseconds: Int
    /// A deliberate failure instead of a response.
    package var fault: HTTPResponse.Fault?
    /// What is rendered per request, when templating is on for this stub and something holds a template
    /// (see ``ResponseTemplate``); `nil` for a stub served as written.
    package var template: ResponseTemplate?
    /// Where the request is forwarded (`proxyBaseUrl`), or `nil` for a stub that answers itself.
    package var proxy: StubProxy?

    /// The fields a response definition may have.
    package static let fieldNames =
        [
            "status", "statusMessage", "headers", "body", "jsonBody", "base64Body", "bodyFileName",
            "fixedDelayMilliseconds", "fault", "transformers", "transformerParameters",
        ] + StubProxy.fieldNames

    /// The one transformer pokestub has: WireMock's response templating.
    package static let responseTemplateTransformer = "response-template"

    /// Creates a definition.
    package init(
        status: Int = 200, headers: HTTPHeaders = HTTPHeaders(), body: ResponseBody = .empty,
        bodyFile: BodyFile? = nil, delayMilliseconds: Int = 0, fault: HTTPResponse.Fault? = nil
    ) {
        self.status = status
        self.headers = headers
        self.inlineBody = body
        self.bodyFile = bodyFile
        self.delayMilliseconds = delayMilliseconds
        self.fault = fault
    }

    /// The body: the inline bytes, or the body file's, read now if they have not been (empty when the file
    /// cannot be read; ``httpResponse`` answers 500 then). Setting it makes the body inline.
    package var body: ResponseBody {
        get {
            guard let bodyFile else { return inlineBody }
            return (try? bodyFile.load()) ?? .empty
        }
        set {
            inlineBody = newValue
            bodyFile = nil
        }
    }

    /// The response to send, without the body when that is a file (``bodyFile`` adds it at serve time).
    package var responseWithoutBodyFile: HTTPResponse {
        HTTPResponse(
            status: status, headers: headers, body: inlineBody, delayMilliseconds: delayMilliseconds, fault: fault)
    }

    /// The response to send, with a body file's bytes (read now if they have not been), or a 500 naming a body
    /// file that cannot be read. No copy of the body is made.
    package var httpResponse: HTTPResponse {
        bodyFile?.response(with: responseWithoutBodyFile) ?? responseWithoutBodyFile
    }
}

extension ResponseDefinition {
    /// Reads a response definition from JSON.
    ///
    /// - Parameters:
    ///   - json: The `response` object.
    ///   - bodyFiles: Where `bodyFileName` is looked up.
    ///   - globalTemplating: Whether every stub's response is a template (`globalResponseTemplating`, WireMock's
    ///     `--global-response-templating`); otherwise only one with `"transformers": ["response-template"]`.
    ///   - jsonBodyText: The `jsonBody` value as written in the source text, when known: served compacted
    ///     (``JSONText/compacted(_:)``), so key order, number spelling and string escapes stay as written;
    ///   without it the parsed value is serialised (keys sorted).
    /// - Throws: ``StubDefinitionError`` naming the field; a template that does not parse names its line and
    ///   mustache.
    init(
        json: JSONValue, bodyFiles: BodyFileStore, globalTemplating: Bool = false, jsonBodyText: Data? = nil
    ) throws(StubDefinitionError) {
        var object = try StrictObject(json, what: "response")
        self.init()
        var templating = globalTemplating
        if let transformers = object.take("transformers") {
            guard case .array(let names) = transformers, names.allSatisfy({ $0.stringValue != nil }) else {
                throw StubDefinitionError("must be an array of transformer names", keyPath: ["transformers"])
            }
            for name in names.compactMap(\.stringValue) {
                guard name == ResponseDefinition.responseTemplateTransformer else {
                    throw StubDefinitionError(
                        "unsupported transformer \(name.debugDescription) (supported: response-template)",
                        keyPath: ["transformers"], failsWhenHit: true)
                }
                templating = true
            }
        }
        let parameters = object.take("transformerParameters")
        if let parameters, parameters.objectValue == nil {
            throw StubDefinitionError("must be a JSON object", keyPath: ["transformerParameters"])
        }
        var headerTemplates: [(name: String, value: Template)] = []
        if let status = try object.int("status") {
            guard (100...599).contains(status) else {
                throw StubDefinitionError("must be between 100 and 599, not \(status)", keyPath: ["status"])
            }
            self.status = status
        }
        // Kept, not sent: see ``statusMessage``.
        statusMessage = try object.string("statusMessage")
        if let headers = try object.object("headers") {
            var headBytes = 0
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
                guard HTTPSyntax.isToken(name) else {
                    throw StubDefinitionError(
                        "is not a header field name (RFC 9110 §5.1: letters, digits and !#$%&'*+-.^_`|~)",
                        keyPath: ["headers", name])
                }
                let values: [String]
                switch value {
                case .array(let items): values = items.map(\.textForMatching)
                case .object, .null:
                    throw StubDefinitionError("must be a string or an array of strings", keyPath: ["headers", name])
                default: values = [value.textForMatching]
                }
                for item in values {
                    guard HTTPSyntax.isFieldValue(item) else {
                        throw StubDefinitionError(
                            "holds a control character (CR, LF, NUL, ...), which RFC 9110 §5.5 does not allow in a "
                                + "header field value", keyPath: ["headers", name])
                    }
                    guard item.utf8.count <= HTTPSyntax.maxFieldValueBytes else {
                        throw StubDefinitionError(
                            "is \(item.utf8.count) bytes; a header field value may have at most "
                                + "\(HTTPSyntax.maxFieldValueBytes)", keyPath: ["headers", name])
                    }
                    headBytes += name.utf8.count + item.utf8.count + 4
                    self.headers.add(name: name, value: item)
                    if templating {
                        headerTemplates.append(
                            (name, try ResponseDefinition.template(item, keyPath: ["headers", name])))
                    }
                }
            }
            guard headBytes <= HTTPSyntax.maxHeaderBytes else {
                throw StubDefinitionError(
                    "are \(headBytes) bytes; a stub's header fields may have at most \(HTTPSyntax.maxHeaderBytes)",
                    keyPath: ["headers"])
            }
        }
        let bodyFields = ["body", "jsonBody", "base64Body", "bodyFileName"].filter { object.keys.contains($0) }
        guard bodyFields.count <= 1 else {
            throw StubDefinitionError(
                "has \(bodyFields.joined(separator: " and ")); a response takes at most one body field",
                keyPath: [bodyFields[1]])
        }
        var bodyTemplate: Template?
        var fileNameTemplate: Template?
        if let value = object.take("body") {
            // WireMock serves a non-string body as its JSON text (`"body": true` answers `true`).
            let text: String
            switch value {
            case .string(let string): text = string
            case .object, .array:
                throw StubDefinitionError("must be a string, not \(value.typeName)", keyPath: ["body"])
            default: text = value.serializedString()
            }
            body = ResponseBody(text)
            if templating { bodyTemplate = try ResponseDefinition.template(text, keyPath: ["body"]) }
        } else if let json = object.take("jsonBody") {
            let data = jsonBodyText.map(JSONText.compacted) ?? json.serialized(pretty: false)
            body = ResponseBody(data)
            if templating {
                bodyTemplate = try ResponseDefinition.template(
                    String(decoding: data, as: UTF8.self), keyPath: ["jsonBody"])
            }
            if !headers.contains("Content-Type") {
                headers.add(name: "Content-Type", value: "application/json")
            }
        } else if let base64 = try object.string("base64Body") {
            // Line breaks and spaces are allowed (MIME-style wrapped text); any other character outside the
            // base64 alphabet is an error rather than skipped, or "@@@@" would load as an empty body.
            let compact = base64.filter { !$0.isWhitespace }
            guard let data = Data(base64Encoded: compact) else {
                throw StubDefinitionError("is not valid base64", keyPath: ["base64Body"])
            }
            body = ResponseBody(data)
        } else if let fileName = try object.string("bodyFileName") {
            if templating {
                fileNameTemplate = try ResponseDefinition.template(fileName, keyPath: ["bodyFileName"])
            }
            // A templated name is resolved per request; a literal one is checked now, by the rule its stub's
            // names follow: with templating on, where it leads (``BodyFileStore/bodyFile(rendered:)``).
            if fileNameTemplate?.isLiteral ?? true {
                do {
                    bodyFile =
                        try templating ? bodyFiles.bodyFile(rendered: fileName) : bodyFiles.bodyFile(named: fileName)
                } catch {
                    throw error.nested(under: "bodyFileName").failingWhenHit()
                }
            }
        }
        if let delay = try object.int("fixedDelayMilliseconds") {
            guard (0...600_000).contains(delay) else {
                throw StubDefinitionError(
                    "must be between 0 and 600000 ms, not \(delay)", keyPath: ["fixedDelayMilliseconds"])
            }
            delayMilliseconds = delay
        }
        if let faultName = try object.string("fault") {
            guard let fault = HTTPResponse.Fault(rawValue: faultName) else {
                let names = HTTPResponse.Fault.allCases.map(\.rawValue).joined(separator: ", ")
                let refusal = WireMockFeatures.refusal(faultName, in: WireMockFeatures.faults)
                let what = refusal ?? "unsupported fault \(faultName.debugDescription)"
                throw StubDefinitionError(
                    "\(what) (supported: \(names))", keyPath: ["fault"], failsWhenHit: refusal != nil)
            }
            self.fault = fault
        }
        proxy = try StubProxy(from: &object)
        try object.rejectUnknown(supported: ResponseDefinition.fieldNames)
        if templating {
            let literalHeaders = headerTemplates.allSatisfy(\.value.isLiteral)
            let body = bodyTemplate.flatMap { $0.isLiteral ? nil : $0 }
            if body != nil || !literalHeaders || fileNameTemplate != nil {
                template = ResponseTemplate(
                    body: body, headers: literalHeaders ? nil : headerTemplates, bodyFileName: fileNameTemplate,
                    bodyFiles: bodyFiles, parameters: parameters)
            }
        }
    }

    /// Parses a template, or throws a stub error at `keyPath` naming the template line and the mustache.
    private static func template(_ text: String, keyPath: [String]) throws(StubDefinitionError) -> Template {
        do { return try Template(text) } catch {
            throw StubDefinitionError(
                "response template: \(error.description)", keyPath: keyPath, failsWhenHit: true)
        }
    }
}
