import Foundation

/// What the upstream answered: status, header fields in the order received, and the decoded body.
package struct UpstreamResponse: Sendable, Hashable {
    /// The status code, e.g. 200 or 301.
    package var status: Int
    /// The header fields as received. A repeated name (`Set-Cookie`) stays as separate fields. When the body
    /// was decoded, `Content-Encoding` and `Content-Length` still describe the bytes on the wire; the
    /// recorder and the proxy drop them (``HeaderPolicy``).
    package var headers: HTTPHeaders
    /// The body bytes after content decoding (gzip, deflate, br, zstd as the client supports).
    package var body: Data {
        didSet { bodyDigest = ContentDigest(body) }
    }
    /// The digest of ``body``, made once when the response is made (on the upstream client's thread): what
    /// tells an answer the same as one recorded or schema-checked before (``ExchangeSignature``,
    /// ``ContractMonitor``) without another pass over the bytes.
    private(set) var bodyDigest: ContentDigest

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: The header fields as received.
    ///   - body: The decoded body.
    package init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
        bodyDigest = ContentDigest(body)
    }
}
