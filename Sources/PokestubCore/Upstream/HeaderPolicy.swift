import Foundation

/// Which header fields cross between the client, pokestub and the upstream, and which are written to
/// recordings.
///
/// - Hop-by-hop fields describe one connection and are never forwarded in either direction (RFC 9110
///   §7.6.1): `Connection` and every field it names, `Keep-Alive`, `TE`, `Trailer`, `Transfer-Encoding`,
///   `Upgrade`, and `Proxy-*` (`Proxy-Connection`, `Proxy-Authorization`, `Proxy-Authenticate`).
/// - Fields the HTTP client derives itself are not forwarded: `Host` (set from the upstream URL),
///   `Content-Length` (from the body), `Accept-Encoding` (libcurl advertises what it can decode and decodes
///   it), `Expect`.
/// - Recorded and proxied responses lose `Content-Length` (the server computes it from the stored bytes) and
///   `Content-Encoding` (the body is decoded before anyone sees it). An answer to `HEAD` has no body to
///   compute a length from, so it keeps the upstream's `Content-Length`, the size of the body a `GET` would
///   get (RFC 9110 §9.3.2, §8.6), unless a `Content-Encoding` says that size is of an encoded body.
package enum HeaderPolicy {
    /// Hop-by-hop field names, lower-cased (RFC 9110 §7.6.1); `proxy-*` is matched as a prefix.
    package static let hopByHop: Set<String> = [
        "connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade", "proxy-connection",
    ]

    /// Request fields the upstream client sets itself, lower-cased.
    package static let clientManagedRequestHeaders: Set<String> = [
        "host", "content-length", "accept-encoding", "expect",
    ]

    /// Response fields that stop being true once the body is decoded and stored, lower-cased.
    package static let bodyDescribingResponseHeaders: Set<String> = ["content-length", "content-encoding"]

    /// Response fields that change on every call and would make each re-recording a diff, lower-cased:
    /// dates and ages, tracing and request ids, CDN and cache bookkeeping.
    package static let defaultVolatileHeaders: [String] = [
        "date", "age", "expires", "server-timing", "x-request-id", "x-correlation-id", "x-amzn-trace-id",
        "x-amzn-requestid", "x-cloud-trace-context", "traceparent", "tracestate", "cf-ray", "cf-cache-status",
        "x-served-by", "x-cache", "x-cache-hits", "x-timer", "x-runtime", "function-execution-id", "report-to",
        "nel", "alt-svc", "via", "x-country-code", "x-orig-accept-language",
    ]

    /// Whether a field is hop-by-hop, given the names a `Connection` field lists.
    ///
    /// - Parameters:
    ///   - name: The field name, any case.
    ///   - connectionTokens: Lower-cased names listed in the message's `Connection` fields.
    /// - Returns: `true` when the field must not be forwarded.
    package static func isHopByHop(_ name: String, connectionTokens: Set<String> = []) -> Bool {
        isHopByHopLowercased(name.asciiLowercased, connectionTokens: connectionTokens)
    }

    /// ``isHopByHop(_:connectionTokens:)`` of a name already lower-cased.
    private static func isHopByHopLowercased(_ lower: String, connectionTokens: Set<String>) -> Bool {
        hopByHop.contains(lower) || lower.hasPrefix("proxy-") || connectionTokens.contains(lower)
    }

    /// The lower-cased field names listed in every `Connection` field (`Connection: close, X-Foo`).
    static func connectionTokens(_ headers: HTTPHeaders) -> Set<String> {
        var tokens = Set<String>()
        for value in headers.values(for: "Connection") {
            for token in value.split(separator: ",") {
                let trimmed = token.trimmingCharacters(in: .whitespaces)
                if !trimmed.isEmpty { tokens.insert(trimmed.asciiLowercased) }
            }
        }
        return tokens
    }

    /// The client's fields to send upstream: all but hop-by-hop and client-managed ones, in order.
    ///
    /// - Parameter headers: The fields as the client sent them.
    /// - Returns: The fields to forward.
    package static func forwardedRequestHeaders(_ headers: HTTPHeaders) -> HTTPHeaders {
        let tokens = connectionTokens(headers)
        return HTTPHeaders(
            headers.fields.filter {
                !isHopByHop($0.name, connectionTokens: tokens)
                    && !clientManagedRequestHeaders.contains($0.name.asciiLowercased)
            })
    }

    /// The upstream's fields to pass to the client in proxy mode: all but hop-by-hop ones and those that
    /// described the encoded body; an answer to `HEAD` keeps its `Content-Length` when no `Content-Encoding`
    /// came with it (RFC 9110 §9.3.2: a `HEAD` answer carries the length a `GET` would get).
    ///
    /// - Parameters:
    ///   - headers: The fields as the upstream sent them.
    ///   - requestMethod: The method of the request answered.
    /// - Returns: The fields to send on.
    package static func proxiedResponseHeaders(_ headers: HTTPHeaders, requestMethod: String = "GET") -> HTTPHeaders {
        let tokens = connectionTokens(headers)
        let keepsLength = requestMethod == "HEAD" && !headers.contains("Content-Encoding")
        return HTTPHeaders(
            headers.fields.filter {
                let name = $0.name.asciiLowercased
                if keepsLength && name == "content-length" { return true }
                return !isHopByHopLowercased(name, connectionTokens: tokens)
                    && !bodyDescribingResponseHeaders.contains(name)
            })
    }

    /// The upstream's fields to write into a recording: the proxied ones minus volatile ones.
    ///
    /// - Parameters:
    ///   - headers: The fields as the upstream sent them.
    ///   - volatile: Lower-cased names to drop (``RecordingOptions/volatileHeaders``).
    ///   - requestMethod: The method of the request answered (`HEAD` keeps `Content-Length`).
    /// - Returns: The fields to record, in the order received.
    package static func recordedResponseHeaders(
        _ headers: HTTPHeaders, volatile: Set<String>, requestMethod: String = "GET"
    ) -> HTTPHeaders {
        HTTPHeaders(
            proxiedResponseHeaders(headers, requestMethod: requestMethod).fields.filter {
                !volatile.contains($0.name.asciiLowercased)
            })
    }
}
