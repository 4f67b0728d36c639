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
    static func model(for request: HTTPRequest, serverBaseURL: String, parameters: JSONValue?) -> TemplateValue {
        var root = TemplateMap()
        root.set("request", .map(requestMap(request, serverBaseURL: serverBaseURL)))
        if let parameters { root.set("parameters", TemplateValue(json: parameters)) }
        return .map(root)
    }

    static func requestMap(_ request: HTTPRequest, serverBaseURL: String) -> TemplateMap {
        let scheme = serverBaseURL.hasPrefix("https://") ? "https" : "http"
        var host = "127.0.0.1"
        var port = scheme == "https" ? 443 : 80
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
        let baseURL = "\(scheme)://\(host)" + (port == defaultPort ? "" : ":\(port)")
        let segments = request.path.split(separator: "/", omittingEmptySubsequences: true).map {
            $0.replacingOccurrences(of: "%2F", with: "/").replacingOccurrences(of: "%2f", with: "/")
        }
        let pathSegments = TemplateValue.pathSegments(path: request.path, segments: segments)
        var query = TemplateMap()
        for (name, _) in request.queryParameters where query.value(for: name) == nil {
            query.set(name, .multi(request.queryValues(name)))
        }
        var headers = TemplateMap(caseInsensitive: true)
        for field in request.headers where headers.value(for: field.name) == nil {
            headers.set(field.name, .multi(request.headers.values(for: field.name)))
        }
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
        var requestLine = TemplateMap()
        requestLine.set("method", .multi([request.method]))
        requestLine.set("scheme", .string(scheme))
        requestLine.set("host", .string(host))
        requestLine.set("port", .number(TemplateNumber(port)))
        requestLine.set("path", .string(request.path))
        requestLine.set("pathSegments", pathSegments)
        requestLine.set("query", .map(query))
        requestLine.set("url", .string(request.rawTarget))
        requestLine.set("baseUrl", .string(baseURL))
        var map = TemplateMap()
        map.set("id", .string(UUID().uuidString.lowercased()))
        map.set("url", .string(request.rawTarget))
        map.set("path", .string(request.path))
        map.set("pathSegments", pathSegments)
        map.set("query", .map(query))
        // WireMock's model holds the method as a `RequestMethod`, not a string: it prints as the method but
        // `{{eq request.method 'GET'}}` is false. A one-value list behaves the same way here.
        map.set("method", .multi([request.method]))
        map.set("scheme", .string(scheme))
        map.set("host", .string(host))
        map.set("port", .number(TemplateNumber(port)))
        map.set("baseUrl", .string(baseURL))
        map.set("headers", .map(headers))
        map.set("cookies", .map(cookies))
        map.set("body", .string(request.bodyText ?? ""))
        map.set("bodyAsBase64", .string(request.body.base64EncodedString()))
        map.set("clientIp", .string(request.clientAddress ?? ""))
        map.set("requestLine", .map(requestLine))
        return map
    }
}
