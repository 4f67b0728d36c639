import Foundation

/// One request the server received and what it did with it: an entry of the request journal.
package struct ServeEvent: Sendable {
    /// The event's id.
    package var id: UUID
    /// When the request was received.
    package var receivedAt: Date
    /// The request as received.
    package var request: HTTPRequest
    /// The stub that answered, or `nil` when none matched.
    package var stub: StubReference?
    /// The status sent.
    package var responseStatus: Int
    /// The header fields sent, for an answer from the upstream (record and proxy modes), redacted as a
    /// recording is (``RecordingOptions/redactedHeaders``); `nil` for other answers.
    package var responseHeaders: HTTPHeaders?
    /// Time from receiving the request to having its response ready, in milliseconds (a stub's fixed delay
    /// is not included).
    package var durationMilliseconds: Double
    /// The header fields and body sent, or `nil` when the answer was not kept (an event made elsewhere).
    package var response: JournaledResponse?
    /// How an upstream answer (record, record-missing and proxy modes) fared against its endpoint's schema
    /// (``ContractMonitor``), or `nil` when it was not checked.
    package var schemaFinding: ContractMonitor.Finding?

    /// Which stub answered.
    package struct StubReference: Sendable, Hashable {
        /// The stub's id.
        package var id: UUID
        /// The stub's name, when it has one.
        package var name: String?
        /// The stub's `statusMessage` (``ResponseDefinition/statusMessage``), shown in the event's
        /// `responseDefinition` as WireMock shows it; the answer itself carried the standard reason phrase.
        package var statusMessage: String?

        /// Creates a reference to the stub (or other responder, such as a test route) that answered.
        ///
        /// - Parameters:
        ///   - id: The stub's id.
        ///   - name: The stub's name, when it has one.
        ///   - statusMessage: The stub's `statusMessage`, when it has one.
        package init(id: UUID, name: String?, statusMessage: String? = nil) {
            self.id = id
            self.name = name
            self.statusMessage = statusMessage
        }

        /// A reference to `stub`.
        package init(_ stub: StubMapping) {
            self.init(id: stub.id, name: stub.name, statusMessage: stub.response.statusMessage)
        }
    }

    /// Whether a stub answered.
    package var wasMatched: Bool { stub != nil }

    /// Creates an event.
    package init(
        id: UUID = UUID(), receivedAt: Date, request: HTTPRequest, stub: StubReference?, responseStatus: Int,
        responseHeaders: HTTPHeaders? = nil, durationMilliseconds: Double, response: JournaledResponse? = nil,
        schemaFinding: ContractMonitor.Finding? = nil
    ) {
        self.id = id
        self.receivedAt = receivedAt
        self.request = request
        self.stub = stub
        self.responseStatus = responseStatus
        self.responseHeaders = responseHeaders
        self.durationMilliseconds = durationMilliseconds
        self.response = response
        self.schemaFinding = schemaFinding
    }

    /// The response body bytes this event holds.
    var responseBodyBytes: Int { response?.body?.count ?? 0 }
}

extension ServeEvent {
    /// The event as the admin API shows it, in WireMock's serve-event shape:
    /// `{"id", "request": {"url", "absoluteUrl", "method", "clientIp", "headers", "queryParams", "body",
    /// "bodyAsBase64", "loggedDate", "loggedDateString"}, "responseDefinition": {"status", "statusMessage"
    /// (only when the stub has one)}, "response": {"status", "headers" (an answer from the upstream only)},
    /// "wasMatched", "stubMapping": {"id", "name"} | null, "timing": {"totalTime"}}`, and, for an upstream answer
    /// checked against its endpoint's schema, `"schemaViolations": [{"path": "$.stats[0].base_stat", "kind":
    /// "type", "message": "expected integer, got string", "schema": "pokemon/$id"}]` (empty when it fits; at
    /// most ``ContractMonitor/maxViolationsPerAnswer``).
    ///
    /// - Parameter baseURL: The server's base URL, for `absoluteUrl`.
    package func json(baseURL: String) -> JSONValue {
        var response: [String: JSONValue] = ["status": .integer(Int64(responseStatus))]
        if let responseHeaders { response["headers"] = HTTPRequest.headersJSON(responseHeaders) }
        var definition: [String: JSONValue] = ["status": .integer(Int64(responseStatus))]
        if let message = stub?.statusMessage { definition["statusMessage"] = .string(message) }
        var event: [String: JSONValue] = [
            "id": .string(id.uuidString.lowercased()),
            "request": request.journalJSON(baseURL: baseURL, receivedAt: receivedAt),
            "responseDefinition": .object(definition),
            "response": .object(response),
            "wasMatched": .bool(wasMatched),
            "timing": .object([
                "totalTime": .double((durationMilliseconds * 1000).rounded() / 1000),
                "serveTime": .double((durationMilliseconds * 1000).rounded() / 1000),
            ]),
            "stubMapping": .null,
        ]
        if let schemaFinding {
            event["schemaViolations"] = .array(
                schemaFinding.violations.map { violation in
                    .object([
                        "path": .string(violation.path), "kind": .string(violation.kind.rawValue),
                        "message": .string(violation.message), "schema": .string(schemaFinding.endpoint),
                    ])
                })
        }
        if let stub {
            var reference: [String: JSONValue] = ["id": .string(stub.id.uuidString.lowercased())]
            if let name = stub.name { reference["name"] = .string(name) }
            event["stubMapping"] = .object(reference)
        }
        return .object(event)
    }
}

extension HTTPRequest {
    /// The request as the admin API shows it (WireMock's logged request).
    package func journalJSON(baseURL: String, receivedAt: Date) -> JSONValue {
        var query: [String: JSONValue] = [:]
        for parameter in queryParameters {
            let existing =
                query[parameter.name]?["values"].flatMap { value -> [JSONValue]? in
                    if case .array(let values) = value { return values }
                    return nil
                } ?? []
            query[parameter.name] = .object([
                "key": .string(parameter.name), "values": .array(existing + [.string(parameter.value)]),
            ])
        }
        var object: [String: JSONValue] = [
            "url": .string(rawURL),
            "absoluteUrl": .string(baseURL + rawURL),
            "method": .string(method),
            "headers": HTTPRequest.headersJSON(headers),
            // WireMock's logged requests name their cookies too: `{"session": "abc"}`, a name sent twice an array.
            "cookies": HTTPRequest.headersJSON(HTTPHeaders(cookies)),
            "queryParams": .object(query),
            "bodyAsBase64": .string(body.base64EncodedString()),
            "loggedDate": .integer(Int64((receivedAt.timeIntervalSince1970 * 1000).rounded())),
            "loggedDateString": .string(ServeEvent.timestamp(receivedAt)),
        ]
        if let clientAddress { object["clientIp"] = .string(clientAddress) }
        if let text = bodyText {
            object["body"] = .string(text)
        } else {
            object["body"] = .null
        }
        return .object(object)
    }
}

extension HTTPRequest {
    /// Header fields as the journal shows them: one member per name, a repeated name as an array of values.
    static func headersJSON(_ headers: HTTPHeaders) -> JSONValue {
        var headerObject: [String: JSONValue] = [:]
        for field in headers {
            switch headerObject[field.name] {
            case nil: headerObject[field.name] = .string(field.value)
            case .string(let first)?: headerObject[field.name] = .array([.string(first), .string(field.value)])
            case .array(let values)?: headerObject[field.name] = .array(values + [.string(field.value)])
            default: break
            }
        }
        return .object(headerObject)
    }

    /// The request with the values of secret header fields redacted as a recording redacts them
    /// (``RecordingOptions/redactedHeaders``; cookies keep their names): what the journal keeps of a request
    /// sent upstream.
    func redactingHeaders(_ options: RecordingOptions) -> HTTPRequest {
        var redacted = self
        redacted.headers = headers.redacted(options)
        return redacted
    }
}

extension HTTPHeaders {
    /// The fields with secret values redacted as a recording redacts them (``RecordingOptions/redactedHeaders``).
    func redacted(_ options: RecordingOptions) -> HTTPHeaders {
        HTTPHeaders(fields.map { (name: $0.name, value: options.recordedValue(name: $0.name, value: $0.value)) })
    }
}

extension ServeEvent {
    /// ISO 8601 in UTC with milliseconds: `2026-11-29T15:03:43.123Z`.
    package static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
