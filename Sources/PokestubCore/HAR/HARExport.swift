import Foundation

/// The request journal as a HAR 1.2 log (HTTP Archive, http://www.softwareishard.com/blog/har-12-spec/):
/// what `GET /__admin/requests?format=har` answers, for Safari, Chrome, Proxyman, Charles or Pulse to open.
///
/// Shape: `{"log": {"version": "1.2", "creator": {"name": "pokestub", "version"}, "entries": [...]}}`, entries
/// oldest first (HAR viewers sort by `startedDateTime`). Each entry has every field the spec requires:
/// `startedDateTime` (ISO 8601 with milliseconds), `time` (ms), `request` (`method`, `url` absolute,
/// `httpVersion`, `cookies`, `headers`, `queryString`, `postData` when there is a body, `headersSize` -1,
/// `bodySize`), `response` (`status`, `statusText`, `httpVersion`, `cookies`, `headers`, `content`
/// {`size`, `mimeType`, `text`, `encoding`}, `redirectURL`, `headersSize` -1, `bodySize`), `cache` {} and
/// `timings` (`send` 0, `wait` the serve event's duration, `receive` 0; `blocked`, `dns`, `connect` -1, as the
/// spec writes for what does not apply). Bodies that are UTF-8 are `text` as they are; others are base64, with
/// `"encoding": "base64"` in `content` (the spec's field) and `"_encoding": "base64"` in `postData` (which the
/// spec gives no such field; custom fields start with `_`). `_pokestub` holds the serve event's id, whether it
/// was matched and the stub that answered.
///
/// Secrets are redacted as recordings redact them (``RecordingOptions``): the values of `Authorization`,
/// `Cookie`, `Set-Cookie` and the other configured header fields, and of query parameters named like
/// `token` or `secret`, in `headers`, `queryString` and the `url` alike. A response body the journal dropped
/// for its budget (``RequestJournal/maxResponseBodyBytes``) has `size` but no `text`, and a `comment` saying so.
package struct HARExport: Sendable {
    /// The redaction rules.
    package var options: RecordingOptions
    /// The base URL the journal's requests were sent to (a session's includes its `/__sessions/{id}`).
    package var baseURL: String

    /// Creates an export.
    ///
    /// - Parameters:
    ///   - options: What to redact.
    ///   - baseURL: The base URL for the entries' absolute `url`.
    package init(options: RecordingOptions, baseURL: String) {
        self.options = options
        self.baseURL = baseURL
    }

    /// The HAR log of `events`, given oldest first.
    package func log(_ events: [ServeEvent]) -> JSONValue {
        .object([
            "log": .object([
                "version": "1.2",
                "creator": .object(["name": "pokestub", "version": .string(PokestubVersion.current)]),
                "pages": .array([]),
                "entries": .array(events.map(entry)),
            ])
        ])
    }

    /// One serve event as a HAR entry.
    package func entry(_ event: ServeEvent) -> JSONValue {
        let milliseconds = (event.durationMilliseconds * 1000).rounded() / 1000
        var stub: JSONValue = .null
        if let reference = event.stub {
            var object: [String: JSONValue] = ["id": .string(reference.id.uuidString.lowercased())]
            if let name = reference.name { object["name"] = .string(name) }
            stub = .object(object)
        }
        return .object([
            "startedDateTime": .string(ServeEvent.timestamp(event.receivedAt)),
            "time": .double(milliseconds),
            "request": request(event.request),
            "response": response(event),
            "cache": .object([:]),
            "timings": .object([
                "blocked": -1, "dns": -1, "connect": -1, "send": 0, "wait": .double(milliseconds), "receive": 0,
            ]),
            "_pokestub": .object([
                "id": .string(event.id.uuidString.lowercased()), "wasMatched": .bool(event.wasMatched),
                "stubMapping": stub,
            ]),
        ])
    }

    private func request(_ request: HTTPRequest) -> JSONValue {
        var object: [String: JSONValue] = [
            "method": .string(request.method),
            "url": .string(baseURL + request.rawPath + (redactedQuery(request.rawQuery).map { "?" + $0 } ?? "")),
            "httpVersion": "HTTP/1.1",
            "cookies": .array([]),
            "headers": headers(request.headers),
            "queryString": .array(
                request.queryParameters.map { parameter in
                    .object([
                        "name": .string(parameter.name),
                        "value": .string(
                            options.isRedactedQueryParameter(parameter.name)
                                ? RecordingOptions.redactedValue : parameter.value),
                    ])
                }),
            "headersSize": -1,
            "bodySize": .integer(Int64(request.body.count)),
        ]
        if !request.body.isEmpty {
            var postData: [String: JSONValue] = [
                "mimeType": .string(request.headers["Content-Type"] ?? "application/octet-stream")
            ]
            if let text = request.bodyText {
                postData["text"] = .string(text)
            } else {
                postData["text"] = .string(request.body.base64EncodedString())
                postData["_encoding"] = "base64"
            }
            object["postData"] = .object(postData)
        }
        return .object(object)
    }

    private func response(_ event: ServeEvent) -> JSONValue {
        let answer = event.response
        let fields = answer?.headers ?? HTTPHeaders()
        var content: [String: JSONValue] = [
            "size": .integer(Int64(answer?.bodySize ?? 0)),
            "mimeType": .string(fields["Content-Type"] ?? ""),
        ]
        if let body = answer?.body {
            let data = body.data
            if let text = String(data: data, encoding: .utf8) {
                content["text"] = .string(text)
            } else {
                content["text"] = .string(data.base64EncodedString())
                content["encoding"] = "base64"
            }
        } else if answer != nil {
            content["comment"] = "the body was dropped from the request journal (its response-body budget)"
        } else {
            content["comment"] = "the journal kept no answer for this event"
        }
        return .object([
            "status": .integer(Int64(event.responseStatus)),
            "statusText": .string(HARExport.reasonPhrase(event.responseStatus)),
            "httpVersion": "HTTP/1.1",
            "cookies": .array([]),
            "headers": headers(fields),
            "content": .object(content),
            "redirectURL": .string(fields["Location"] ?? ""),
            "headersSize": -1,
            "bodySize": .integer(Int64(answer?.bodySize ?? -1)),
        ])
    }

    private func headers(_ fields: HTTPHeaders) -> JSONValue {
        .array(
            fields.map { field in
                .object([
                    "name": .string(field.name),
                    "value": .string(options.recordedValue(name: field.name, value: field.value)),
                ])
            })
    }

    /// The raw query with the values of secret parameters replaced by `%3Credacted%3E`; the rest as received.
    private func redactedQuery(_ rawQuery: String?) -> String? {
        guard let rawQuery else { return nil }
        return rawQuery.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = PercentDecoding.decode(pair[..<equals], plusAsSpace: true)
            guard options.isRedactedQueryParameter(name) else { return String(pair) }
            return String(pair[...equals]) + "%3Credacted%3E"
        }.joined(separator: "&")
    }

    /// The reason phrase of a status code (RFC 9110 §15), or an empty text for one it does not name.
    static func reasonPhrase(_ status: Int) -> String {
        let phrases = [
            200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 206: "Partial Content",
            301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
            307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized",
            403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 408: "Request Timeout", 409: "Conflict",
            410: "Gone", 413: "Content Too Large", 415: "Unsupported Media Type", 422: "Unprocessable Content",
            429: "Too Many Requests", 500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
            503: "Service Unavailable", 504: "Gateway Timeout",
        ]
        return phrases[status] ?? ""
    }
}
