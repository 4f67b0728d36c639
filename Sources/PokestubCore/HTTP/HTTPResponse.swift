import Foundation

/// A response to send: status, headers, body, and how to deliver it.
package struct HTTPResponse: Sendable {
    /// The status code, e.g. 200.
    package var status: Int
    /// Header fields to send. The server sets `Content-Length` itself, from the body (or ``headContentLength``).
    package var headers: HTTPHeaders
    /// The body bytes.
    package var body: ResponseBody
    /// A body sent from an open file instead of ``body`` (a large body file; see ``BodyFile``), or `nil`.
    package var streamedFile: StreamedFile?
    /// A body made piece by piece while it is sent, instead of ``body`` (a large admin listing), or `nil`.
    package var stream: ResponseStream?

    /// How long to wait before answering, in milliseconds (WireMock's `fixedDelayMilliseconds`). The server
    /// waits without holding one of its threads.
    package var delayMilliseconds: Int
    /// A deliberate failure instead of a response (WireMock's `fault`).
    package var fault: Fault?
    /// For an answer to `HEAD` with no body at hand (a recorded `HEAD`): the `Content-Length` to send, in
    /// bytes, with no body after the head. `nil` sends the body's own length. See ``answeringHead()``.
    package var headContentLength: Int?
    /// Whether this answer is served again as it is, its ``body`` object kept for the next request that gets
    /// the same answer: a stub's own answer (its body or body file, link-rewritten or not) and a cached
    /// near-miss answer. The server may then make its libmicrohttpd response once and queue that again
    /// (`PreparedResponses` in PokestubServer), still checking the status and header fields each time. A
    /// rendered template, a proxied or forwarded answer and an admin answer are made for one request and
    /// leave it `false`.
    package var isServedAgain = false

    /// Ways to fail deliberately, as WireMock's `fault` field names them.
    package enum Fault: String, Sendable, CaseIterable {
        /// Close the connection without sending anything.
        case emptyResponse = "EMPTY_RESPONSE"
        /// Close the connection abruptly (the peer sees a reset).
        case connectionResetByPeer = "CONNECTION_RESET_BY_PEER"
    }

    /// Creates a response.
    package init(
        status: Int, headers: HTTPHeaders = HTTPHeaders(), body: ResponseBody = .empty, delayMilliseconds: Int = 0,
        fault: Fault? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delayMilliseconds = delayMilliseconds
        self.fault = fault
    }

    /// This response as the answer to a `HEAD` request: the header fields a `GET` would get, `Content-Length`
    /// included, and no body (RFC 9110 §9.3.2).
    ///
    /// With a body, nothing changes: the server sends the body's length and leaves the body out. Without one,
    /// a `Content-Length` field the response declares (a recorded `HEAD` keeps the upstream's) becomes
    /// ``headContentLength``, since the server otherwise writes that field from the (empty) body.
    package func answeringHead() -> HTTPResponse {
        guard body.count == 0, let declared = headers["Content-Length"], !declared.isEmpty,
            declared.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let length = Int(declared)
        else { return self }
        var answer = self
        answer.headContentLength = length
        return answer
    }

    /// A JSON response with `Content-Type: application/json`, written by ``CanonicalJSON`` (keys sorted by
    /// their Unicode scalars), so an answer has the same bytes on every platform and needs no collator: the
    /// platform's `JSONSerialization` sorts keys with ICU's, which maps ICU's data on the first answer.
    package static func json(_ value: JSONValue, status: Int = 200, pretty: Bool = true) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: HTTPHeaders([(name: "Content-Type", value: "application/json")]),
            body: ResponseBody(pretty ? CanonicalJSON.pretty(value) : CanonicalJSON.compact(value)))
    }

    /// A plain-text response with `Content-Type: text/plain; charset=utf-8`.
    package static func text(_ text: String, status: Int) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: HTTPHeaders([(name: "Content-Type", value: "text/plain; charset=utf-8")]),
            body: ResponseBody(text))
    }
}

/// What a handler gives back for a request: a response now, or one that arrives later.
package enum HTTPReply: Sendable {
    /// Answer with this response (after its delay, if it has one).
    case response(HTTPResponse)
    /// Answer later: the server calls `start` with a completion that must be called exactly once, from any
    /// thread. The server holds none of its threads while waiting (used for upstream calls).
    case deferred(start: @Sendable (_ complete: @escaping @Sendable (HTTPResponse) -> Void) -> Void)
}

/// The seam between HTTP serving and the product: the server turns each received request into an
/// ``HTTPRequest`` and sends what the handler replies.
///
/// `handle` runs on the server's own threads and must not block on I/O; anything slow is a
/// ``HTTPReply/deferred(start:)``.
package protocol HTTPHandler: Sendable {
    /// Answers one request.
    func handle(_ request: HTTPRequest) -> HTTPReply
}
