import Foundation

/// A request on its way to the upstream: method, absolute URL, header fields and body.
package struct UpstreamRequest: Sendable, Hashable {
    /// The method, sent as given (methods are case-sensitive, RFC 9110 §9.1).
    package var method: String
    /// The absolute URL: the upstream base URL followed by the raw path and query as received, never
    /// re-encoded (`https://pokeapi.co/api/v2/pokemon/?offset=20&limit=20`).
    package var url: String
    /// The header fields to send. `Host`, `Content-Length` and `Accept-Encoding` are left to the client,
    /// which derives them from the URL, the body and the encodings it can decode.
    package var headers: HTTPHeaders
    /// The body bytes (empty when there is none).
    package var body: Data

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: The method.
    ///   - url: The absolute URL.
    ///   - headers: The header fields to send.
    ///   - body: The body bytes.
    package init(method: String, url: String, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data()) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The request a client sent to pokestub, readied for the upstream.
    ///
    /// The path and query are taken as received (an absolute-form target is reduced to them); hop-by-hop
    /// fields and the fields the client computes itself are dropped (``HeaderPolicy/forwardedRequestHeaders(_:)``).
    ///
    /// - Parameters:
    ///   - request: The request as received.
    ///   - baseURL: The upstream base URL without a trailing slash, e.g. `https://pokeapi.co`; it may carry a
    ///     path prefix (`http://127.0.0.1:9000/mirror`).
    package init(forwarding request: HTTPRequest, to baseURL: String) {
        let target = request.rawPath + (request.rawQuery.map { "?" + $0 } ?? "")
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.init(
            method: request.method, url: base + (target.hasPrefix("/") ? target : "/" + target),
            headers: HeaderPolicy.forwardedRequestHeaders(request.headers), body: request.body)
    }
}
