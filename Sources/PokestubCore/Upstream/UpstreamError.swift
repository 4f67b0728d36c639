/// Why an upstream exchange produced no response. pokestub answers the client with 502 Bad Gateway, or
/// 504 Gateway Timeout when the upstream was too slow (RFC 9110 §15.6.3 and §15.6.5), and records nothing.
package struct UpstreamError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, which decides the status sent to the client.
    package enum Kind: String, Sendable, Hashable {
        /// No connection: refused, host not found, network unreachable. Answered with 502.
        case unreachable
        /// The connect or total timeout passed. Answered with 504.
        case timedOut = "timeout"
        /// A connection, then a failure: a response cut off midway, a TLS or protocol error, an encoding that
        /// cannot be decoded, a body over the size limit. Answered with 502.
        case failed
    }

    /// The kind of failure.
    package var kind: Kind
    /// The URL that was requested.
    package var url: String
    /// What went wrong, in the client library's words, e.g. `Failed to connect to 127.0.0.1 port 9 after
    /// 0 ms: Couldn't connect to server`.
    package var message: String
    /// The client library's error code (libcurl's `CURLcode`), when there is one.
    package var code: Int?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: The kind of failure.
    ///   - url: The URL that was requested.
    ///   - message: What went wrong.
    ///   - code: The client library's error code, if any.
    package init(kind: Kind, url: String, message: String, code: Int? = nil) {
        self.kind = kind
        self.url = url
        self.message = message
        self.code = code
    }

    /// The status to answer the client with: 504 for a timeout, otherwise 502.
    package var status: Int { kind == .timedOut ? 504 : 502 }

    package var description: String {
        let codeText = code.map { " (code \($0))" } ?? ""
        return "\(kind.rawValue) for \(url): \(message)\(codeText)"
    }
}
