import Foundation

/// The `request` a response template sees, built as WireMock 2.35's `RequestTemplateModel` is.
///
/// `url` is the path and query as received; `path` and `pathSegments` are percent-decoded; `query.NAME` and
/// `headers.NAME` are lists that print their first value (`.[n]` picks one; header names ignore case);
/// `cookies.NAME` from the `Cookie` header; `body` as UTF-8 text. `baseUrl`, `host`, `port` and `scheme`
/// come from the `Host` header the client sent (how WireMock's Jetty derives them), else from the address
/// the server listens on; `requestLine` repeats them with `path`, `pathSegments` and `query`.
enum TemplateRequestModel {
    /// The model: `{"request": …}` plus `parameters` (the stub's `transformerParameters`).
    ///
    /// - Parameter members: The members of `request` to build, in their usual order (the ones a template may
    ///   read, ``TemplateRequestReads``); `nil` for all of them.
    static func model(
        for request: HTTPRequest, serverBaseURL: String, parameters: JSONValue?, members: Set<String>? = nil
    ) -> TemplateValue {
        var entries: [(key: String, value: TemplateValue)] = [
            ("request", .map(requestMap(request, serverBaseURL: serverBaseURL, members: members)))
        ]
        if let parameters { entries.append(("parameters", TemplateValue(json: parameters))) }
        return .map(TemplateMap(distinctKeys: entries))
    }

    static func requestMap(_ request: HTTPRequest, serverBaseURL: String, members: Set<String>? = nil) -> TemplateMap {
        func wants(_ name: String) -> Bool { members?.contains(name) ?? true }
        let line = wants("requestLine")
        let scheme = serverBaseURL.hasPrefix("https://") ? "https" : "http"
        var host = "127.0.0.1"
        var port = scheme == "https" ? 443 : 80
        var baseURL = ""
        if line || wants("host") || wants("port") || wants("baseUrl") {
            let authority = request.headers["Host"] ?? String(serverBaseURL.drop { $0 != "/" }.drop { $0 == "/" })
            if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]"),
                let number = Int(authority[authority.index(after: colon)...])
            {
                host = String(authority[..<colon])
                port = number
            } else if !authority.isEmpty {
                host = authority
            }
            let defaultPort = scheme == "https" ? 443 : 80
            baseURL = "\(scheme)://\(host)" + (port == defaultPort ? "" : ":\(port)")
        }
        var pathSegments = TemplateValue.null
        if line || wants("pathSegments") {
            let segments = request.path.split(separator: "/", omittingEmptySubsequences: true).map {
                // Foundation's search only for a segment that may hold `%2F`.
                $0.utf8.contains(UInt8(ascii: "%"))
                    ? $0.replacingOccurrences(of: "%2F", with: "/").replacingOccurrences(of: "%2f", with: "/")
                    : String($0)
            }
            pathSegments = TemplateValue.pathSegments(path: request.path, segments: segments)
        }
        var query = TemplateMap()
        if line || wants("query") {
            for (name, _) in request.queryParameters where query.value(for: name) == nil {
                query.set(name, .multi(request.queryValues(name)))
            }
        }
        let method = TemplateValue.multi([request.method])
        let url = TemplateValue.string(request.rawTarget)
        var entries: [(key: String, value: TemplateValue)] = []
        entries.reserveCapacity(16)
        // Each member is made only when wanted, in the order WireMock's model lists them.
        func add(_ name: String, _ value: @autoclosure () -> TemplateValue) {
            if wants(name) { entries.append((name, value())) }
        }
        // WireMock's model holds the method as a `RequestMethod`, not a string: it prints as the method but
        // `{{eq request.method 'GET'}}` is false. A one-value list behaves the same way here.
        add("id", .string(lowercasedUUID()))
        add("url", url)
        add("path", .string(request.path))
        add("pathSegments", pathSegments)
        add("query", .map(query))
        add("method", method)
        add("scheme", .string(scheme))
        add("host", .string(host))
        add("port", .number(TemplateNumber(port)))
        add("baseUrl", .string(baseURL))
        add("headers", .map(headers(of: request)))
        add("cookies", .map(cookies(of: request)))
        add("body", .string(request.bodyText ?? ""))
        add("bodyAsBase64", .string(request.body.base64EncodedString()))
        add("clientIp", .string(request.clientAddress ?? ""))
        add(
            "requestLine",
            .map(
                TemplateMap(distinctKeys: [
                    ("method", method), ("scheme", .string(scheme)), ("host", .string(host)),
                    ("port", .number(TemplateNumber(port))), ("path", .string(request.path)),
                    ("pathSegments", pathSegments), ("query", .map(query)), ("url", url),
                    ("baseUrl", .string(baseURL)),
                ])))
        return TemplateMap(distinctKeys: entries)
    }

    /// `request.headers`: each field's values by its name, ignoring case.
    private static func headers(of request: HTTPRequest) -> TemplateMap {
        var headers = TemplateMap(caseInsensitive: true)
        for field in request.headers where headers.value(for: field.name) == nil {
            headers.set(field.name, .multi(request.headers.values(for: field.name)))
        }
        return headers
    }

    /// `request.cookies`: each cookie's values by its name, from the `Cookie` fields.
    private static func cookies(of request: HTTPRequest) -> TemplateMap {
        var cookies = TemplateMap()
        for line in request.headers.values(for: "Cookie") {
            for pair in line.split(separator: ";") {
                let trimmed = pair.trimmingCharacters(in: .whitespaces)
                guard let equals = trimmed.firstIndex(of: "=") else { continue }
                let name = String(trimmed[..<equals])
                let value = String(trimmed[trimmed.index(after: equals)...])
                if case .multi(let known)? = cookies.value(for: name) {
                    cookies.set(name, .multi(known + [value]))
                } else {
                    cookies.set(name, .multi([value]))
                }
            }
        }
        return cookies
    }

    /// A random UUID as `UUID().uuidString.lowercased()` writes it (8-4-4-4-12 lower-case hexadecimal digits),
    /// written from its bytes without making the upper-case text first (`UUID.lowercasedText`).
    static func lowercasedUUID() -> String {
        UUID().lowercasedText
    }
}
