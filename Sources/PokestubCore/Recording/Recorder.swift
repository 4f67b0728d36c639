import Foundation

/// Turns an exchange with the upstream into a WireMock mapping fit to commit.
///
/// - The request pattern matches what made the request distinct: the method; the path (`url` when there is
///   no query, so the stub does not also answer the same path with a query, else `urlPath` with one
///   `queryParameters` entry per parameter, which compares order-insensitively: `equalTo`, or for a repeated
///   parameter `hasExactly` its values); captured headers (likewise); and the body (`equalToJson` for JSON,
///   `equalTo` for text).
/// - The response keeps status and headers minus hop-by-hop, body-describing and volatile ones, with secrets
///   redacted. JSON bodies become `jsonBody` up to ``RecordingOptions/largeBodyBytes``, indented but with
///   the upstream's member order, numbers and escapes (``Recording/jsonBodyText``), text becomes `body`;
///   larger or binary bodies go to `__files/` through `bodyFileName`, as received after content decoding.
/// - Secret query parameter values are matched with `{"matches": ".*"}` and shown as `<redacted>`.
package struct Recorder: Sendable {
    /// What to keep and how.
    package var options: RecordingOptions

    /// Creates a recorder.
    ///
    /// - Parameter options: Redaction, volatile headers, body placement.
    package init(options: RecordingOptions = RecordingOptions()) {
        self.options = options
    }

    /// The recording of one exchange.
    ///
    /// - Parameters:
    ///   - request: The request as the client sent it.
    ///   - response: The upstream's response, body decoded.
    ///   - key: The request's recording key under ``options``, when the caller has it already.
    ///   - upstream: The upstream base URL the exchange went to, kept in the mapping's `metadata` under
    ///     ``StubMapping/recordedFromKey`` so serving can point that upstream's links at the daemon.
    /// - Returns: The mapping and body file to write.
    package func recording(
        of request: HTTPRequest, response: UpstreamResponse, key: RecordingKey? = nil, upstream: String? = nil
    ) -> Recording {
        let key = key ?? RecordingKey(request, options: options)
        let fileName = RecordingFileName(key: key)
        let id = StubMapping.derivedID(from: fileName.mappingPath)
        var responseJSON: [String: JSONValue] = ["status": .integer(Int64(response.status))]
        let headers = recordedHeaders(response.headers, requestMethod: request.method)
        if case .object(let members) = headers, !members.isEmpty { responseJSON["headers"] = headers }
        let contentType = response.headers["Content-Type"]
        var bodyFile: Recording.BodyFileToWrite?
        var jsonBodyText: Data?
        if !response.body.isEmpty {
            let large = response.body.count > options.largeBodyBytes
            switch Recorder.classify(response.body, contentType: contentType) {
            case .json(let json):
                if large {
                    // As received: replayed byte for byte.
                    bodyFile = .init(name: fileName.bodyFileName(extension: "json"), data: response.body)
                } else {
                    responseJSON["jsonBody"] = json
                    jsonBodyText = response.body
                }
            case .text(let text):
                if large {
                    let fileExtension = Recorder.fileExtension(for: contentType, fallback: "txt")
                    bodyFile = .init(name: fileName.bodyFileName(extension: fileExtension), data: response.body)
                } else {
                    responseJSON["body"] = .string(text)
                }
            case .binary:
                let fileExtension = Recorder.fileExtension(for: contentType, fallback: "bin")
                bodyFile = .init(name: fileName.bodyFileName(extension: fileExtension), data: response.body)
            }
        }
        if let bodyFile { responseJSON["bodyFileName"] = .string(bodyFile.name) }
        var mappingJSON: [String: JSONValue] = [
            "id": .string(id.uuidString.lowercased()),
            "name": .string(displayName(of: request)),
            "request": requestPattern(for: request, key: key),
            "response": .object(responseJSON),
        ]
        if let upstream, !upstream.isEmpty {
            let base = upstream.hasSuffix("/") ? String(upstream.dropLast()) : upstream
            mappingJSON["metadata"] = .object([StubMapping.recordedFromKey: .string(base)])
        }
        let mapping: JSONValue = .object(mappingJSON)
        return Recording(
            key: key, fileName: fileName, id: id, mapping: mapping, bodyFile: bodyFile, jsonBodyText: jsonBodyText)
    }

    /// `GET /api/v2/pokemon/?offset=20&limit=20`, secret query values shown as `<redacted>`.
    func displayName(of request: HTTPRequest) -> String {
        guard let rawQuery = request.rawQuery else { return "\(request.method) \(request.rawPath)" }
        let pairs = rawQuery.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = PercentDecoding.decode(pair[..<equals], plusAsSpace: true)
            return options.isRedactedQueryParameter(name)
                ? String(pair[...equals]) + RecordingOptions.redactedValue : String(pair)
        }
        return "\(request.method) \(request.rawPath)?\(pairs.joined(separator: "&"))"
    }

    /// The request pattern of a recording.
    func requestPattern(for request: HTTPRequest, key: RecordingKey) -> JSONValue {
        var members: [String: JSONValue] = ["method": .string(request.method)]
        if request.queryParameters.isEmpty {
            // `url` is exact: this stub must not answer the same path with a query (`?limit=1351`).
            members["url"] = .string(request.rawPath + (request.rawQuery.map { "?" + $0 } ?? ""))
        } else {
            members["urlPath"] = .string(request.rawPath)
            var byName: [String: [String]] = [:]
            for parameter in request.queryParameters { byName[parameter.name, default: []].append(parameter.value) }
            var query: [String: JSONValue] = [:]
            for (name, values) in byName {
                if options.isRedactedQueryParameter(name) {
                    query[name] = .object(["matches": .string(".*")])
                } else if values.count == 1 {
                    query[name] = .object(["equalTo": .string(values[0])])
                } else {
                    // Exactly the recorded multiset of values (WireMock 3's `hasExactly`), in byte order so the
                    // mapping depends only on the recording key.
                    let sorted = values.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                    query[name] = .object(["hasExactly": .array(sorted.map { .object(["equalTo": .string($0)]) })])
                }
            }
            members["queryParameters"] = .object(query)
        }
        var headers: [String: JSONValue] = [:]
        for (name, caseInsensitive) in options.capturedHeaders {
            let values = request.headers.values(for: name)
            guard !values.isEmpty else { continue }
            func equalTo(_ value: String) -> JSONValue {
                var pattern: [String: JSONValue] = ["equalTo": .string(value)]
                if caseInsensitive { pattern["caseInsensitive"] = .bool(true) }
                return .object(pattern)
            }
            if options.isRedactedHeader(name) {
                headers[name] = .object(["matches": .string(".*")])
            } else if values.count == 1 {
                headers[name] = equalTo(values[0])
            } else {
                // A repeated field: exactly its recorded values, as for query parameters.
                let sorted = values.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                headers[name] = .object(["hasExactly": .array(sorted.map(equalTo))])
            }
        }
        if !headers.isEmpty { members["headers"] = .object(headers) }
        if !request.body.isEmpty {
            if let json = try? JSONValue.parse(request.body), json.isContainer {
                members["bodyPatterns"] = .array([.object(["equalToJson": json])])
            } else if let text = String(data: request.body, encoding: .utf8) {
                members["bodyPatterns"] = .array([.object(["equalTo": .string(text)])])
            }
            // A binary body cannot be matched by the string patterns; its digest still names the file.
        }
        return .object(members)
    }

    /// The response headers to record, as a JSON object: repeated names become arrays, secrets redacted.
    ///
    /// - Parameters:
    ///   - headers: The fields as the upstream sent them.
    ///   - requestMethod: The method of the request answered (an answer to `HEAD` keeps `Content-Length`).
    func recordedHeaders(_ headers: HTTPHeaders, requestMethod: String) -> JSONValue {
        var object: [String: JSONValue] = [:]
        for field in HeaderPolicy.recordedResponseHeaders(
            headers, volatile: options.volatileNames, requestMethod: requestMethod)
        {
            let value = JSONValue.string(options.recordedValue(name: field.name, value: field.value))
            switch object[field.name] {
            case nil: object[field.name] = value
            case .array(let values)?: object[field.name] = .array(values + [value])
            case let first?: object[field.name] = .array([first, value])
            }
        }
        return .object(object)
    }

    /// What a body is, for choosing where it goes.
    enum BodyKind {
        case json(JSONValue)
        case text(String)
        case binary
    }

    /// Classifies a body by its content type, then by its bytes.
    static func classify(_ body: Data, contentType: String?) -> BodyKind {
        let mediaType =
            (contentType ?? "").split(separator: ";").first.map {
                $0.trimmingCharacters(in: .whitespaces).asciiLowercased
            } ?? ""
        let jsonType = mediaType == "application/json" || mediaType.hasSuffix("+json") || mediaType == "text/json"
        if jsonType || mediaType.isEmpty, let json = try? JSONValue.parse(body), json.isContainer {
            return .json(json)
        }
        let textType =
            mediaType.hasPrefix("text/") || jsonType || mediaType.hasSuffix("+xml") || mediaType == "application/xml"
            || mediaType == "application/javascript" || mediaType == "application/x-www-form-urlencoded"
        if textType || mediaType.isEmpty, let text = String(data: body, encoding: .utf8),
            !text.contains(where: { $0 == "\0" })
        {
            return .text(text)
        }
        return .binary
    }

    /// A file extension for a content type.
    static func fileExtension(for contentType: String?, fallback: String) -> String {
        let mediaType =
            (contentType ?? "").split(separator: ";").first.map {
                $0.trimmingCharacters(in: .whitespaces).asciiLowercased
            } ?? ""
        let known: [String: String] = [
            "application/json": "json", "text/plain": "txt", "text/html": "html", "text/css": "css",
            "text/csv": "csv", "application/xml": "xml", "text/xml": "xml", "application/javascript": "js",
            "text/javascript": "js", "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp",
            "image/svg+xml": "svg", "image/x-icon": "ico", "audio/ogg": "ogg", "audio/mpeg": "mp3",
            "application/pdf": "pdf", "application/octet-stream": "bin",
        ]
        if let known = known[mediaType] { return known }
        if mediaType.hasSuffix("+json") { return "json" }
        if mediaType.hasSuffix("+xml") { return "xml" }
        return fallback
    }
}
