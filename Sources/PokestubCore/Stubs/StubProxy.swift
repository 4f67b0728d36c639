import Foundation

/// A stub that forwards the requests it matches to another server: WireMock's per-stub proxying.
///
/// In JSON, in `response`: `"proxyBaseUrl": "http://127.0.0.1:9000"`, with optionally
/// `"additionalProxyRequestHeaders": {"X-Api-Key": "..."}` (set on the forwarded request, replacing the
/// client's field of that name) and `"proxyUrlPrefixToRemove": "/mirror"` (cut from the start of the path
/// before it is appended to the base URL). As in WireMock 2.35, `status` and a body in the same response are
/// ignored (the upstream's answer is passed on), and the response's `headers` are added to the upstream's.
/// The exchange goes through the same libcurl upstream client as the proxy mode and is recorded nowhere; a
/// failing upstream answers 502, or 504 after a timeout. `removeProxyRequestHeaders` came after WireMock 2.35
/// and is refused by name.
package struct StubProxy: Sendable, Hashable {
    /// The base URL, an `http` or `https` URL without query (`https://pokeapi.co`, `http://host:9000/prefix`).
    package var baseURL: String
    /// Header fields set on the forwarded request.
    package var additionalRequestHeaders: [(name: String, value: String)]
    /// A prefix cut from the request's path and query before forwarding, or `nil`.
    package var urlPrefixToRemove: String?

    /// The response fields about proxying.
    static let fieldNames = ["proxyBaseUrl", "additionalProxyRequestHeaders", "proxyUrlPrefixToRemove"]

    package static func == (left: StubProxy, right: StubProxy) -> Bool {
        left.baseURL == right.baseURL && left.urlPrefixToRemove == right.urlPrefixToRemove
            && left.additionalRequestHeaders.elementsEqual(right.additionalRequestHeaders) { $0 == $1 }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(baseURL)
        hasher.combine(urlPrefixToRemove)
        for field in additionalRequestHeaders {
            hasher.combine(field.name)
            hasher.combine(field.value)
        }
    }

    /// Reads the proxy fields of a `response` object; `nil` without `proxyBaseUrl`.
    ///
    /// - Throws: ``StubDefinitionError`` naming the field: a base URL that is not an `http`/`https` URL, a header
    ///   that is not a string, a proxy field without `proxyBaseUrl`, or `removeProxyRequestHeaders`.
    init?(from object: inout StrictObject) throws(StubDefinitionError) {
        if object.keys.contains("removeProxyRequestHeaders") {
            throw StubDefinitionError(
                "is not a WireMock 2.35 field (it came later; pokestub follows 2.35, whose jar refuses it too)",
                keyPath: ["removeProxyRequestHeaders"])
        }
        let base = try object.string("proxyBaseUrl")
        let headers = try object.object("additionalProxyRequestHeaders")
        let prefix = try object.string("proxyUrlPrefixToRemove")
        guard let base else {
            if headers != nil || prefix != nil {
                throw StubDefinitionError(
                    "needs proxyBaseUrl: it says how requests are forwarded",
                    keyPath: [headers != nil ? "additionalProxyRequestHeaders" : "proxyUrlPrefixToRemove"])
            }
            return nil
        }
        guard let components = URLComponents(string: base), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
            components.query == nil, components.fragment == nil
        else {
            throw StubDefinitionError(
                "must be an http or https base URL such as http://127.0.0.1:9000, not \(base.debugDescription)",
                keyPath: ["proxyBaseUrl"])
        }
        var fields: [(name: String, value: String)] = []
        for (name, value) in (headers ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard HTTPSyntax.isToken(name) else {
                throw StubDefinitionError(
                    "is not a header field name (RFC 9110 §5.1)", keyPath: ["additionalProxyRequestHeaders", name])
            }
            guard case .string(let text) = value, HTTPSyntax.isFieldValue(text) else {
                throw StubDefinitionError(
                    "must be a string without control characters", keyPath: ["additionalProxyRequestHeaders", name])
            }
            fields.append((name, text))
        }
        baseURL = base.hasSuffix("/") ? String(base.dropLast()) : base
        additionalRequestHeaders = fields
        urlPrefixToRemove = prefix
    }

    /// The request to send upstream for `request`: its path and query as received, less
    /// ``urlPrefixToRemove``, after ``baseURL``; its fields as the proxy mode forwards them
    /// (``HeaderPolicy/forwardedRequestHeaders(_:)``), with ``additionalRequestHeaders`` set.
    package func upstreamRequest(for request: HTTPRequest) -> UpstreamRequest {
        var target = request.rawPath + (request.rawQuery.map { "?" + $0 } ?? "")
        if let prefix = urlPrefixToRemove, !prefix.isEmpty, target.hasPrefix(prefix) {
            target = String(target.dropFirst(prefix.count))
        }
        if !target.hasPrefix("/") { target = "/" + target }
        var headers = HeaderPolicy.forwardedRequestHeaders(request.headers)
        for field in additionalRequestHeaders {
            headers.remove(name: field.name)
            headers.add(name: field.name, value: field.value)
        }
        return UpstreamRequest(method: request.method, url: baseURL + target, headers: headers, body: request.body)
    }
}
