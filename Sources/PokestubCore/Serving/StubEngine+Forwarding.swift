import Foundation

extension StubEngine {
    /// Answers a request through the upstream, later: records it, or passes the upstream's answer on, or
    /// answers 502/504 when there is none. The server's thread is released while the upstream works.
    ///
    /// A recorded answer reaches the client as the upstream sent it (`Set-Cookie`, tokens and all, links
    /// pointed at pokestub when links are rewritten): redaction is for what is written to disk and to the
    /// journal, whose serve event holds the request's and the upstream's header fields redacted.
    ///
    /// The serve event is journaled when the answer is ready. A recorded request names its new stub; a
    /// proxied one or a failure names none, so it is listed by `GET /__admin/requests/unmatched` (no stub
    /// answered it), and `POST /__admin/recordings/snapshot` can turn proxied ones into stubs later. An upstream
    /// answer is checked against its endpoint's schema (``contract``) before it is journaled, so the serve event
    /// carries what does not fit; the answer itself is recorded and passed on as it came.
    ///
    /// - Parameters:
    ///   - request: The request as received.
    ///   - scope: The scope it is served within (its journal).
    ///   - mode: The serve mode it is forwarded in.
    ///   - timing: When it arrived.
    /// - Returns: A deferred reply.
    func forward(_ request: HTTPRequest, in scope: ServingScope, mode: ServeMode, timing: ServeTiming) -> HTTPReply {
        let journal = scope.journal
        let eventID = journal.nextEventID()
        let plan = recordings.plan(for: request, in: mode)
        return .deferred { [self] complete in
            recordings.forward(request, plan: plan, eventID: eventID) { [self] outcome in
                var response: HTTPResponse
                var reference: ServeEvent.StubReference?
                var fromUpstream = false
                var finding: ContractMonitor.Finding?
                switch outcome {
                case .stub(let stub):
                    var fromStub = stub.response.httpResponse
                    fromStub.headers.add(name: "Matched-Stub-Id", value: stub.id.uuidString.lowercased())
                    response = linkRewriter?.rewrite(fromStub, recordedFrom: stub.recordedUpstream) ?? fromStub
                    reference = ServeEvent.StubReference(stub)
                case .recorded(let stub, let upstreamResponse):
                    response = proxiedResponse(upstreamResponse, to: request)
                    response.headers.add(name: "Matched-Stub-Id", value: stub.id.uuidString.lowercased())
                    reference = ServeEvent.StubReference(stub)
                    fromUpstream = true
                    finding = contract?.check(upstreamResponse, for: request)
                case .proxied(let upstreamResponse):
                    response = proxiedResponse(upstreamResponse, to: request)
                    fromUpstream = true
                    finding = contract?.check(upstreamResponse, for: request)
                case .failed(let error):
                    response = StubEngine.upstreamFailure(error, upstream: plan.upstream)
                }
                if request.method == "HEAD" { response = response.answeringHead() }
                // The client gets the upstream's header fields as sent; the journal keeps them redacted, as a
                // recording would, and the request's too.
                journal.recordAnswer(
                    to: request.redactingHeaders(plan.options), stub: reference, status: response.status,
                    responseHeaders: fromUpstream ? response.headers.redacted(plan.options) : nil, timing: timing,
                    response: response,
                    id: eventID, schemaFinding: finding)
                complete(response)
            }
        }
    }

    /// The upstream's response passed on, its links pointing at pokestub; the body is copied only when links
    /// are rewritten.
    ///
    /// The `Location` header and the body are rewritten with the daemon's compiled patterns
    /// (``LinkRewriter/daemonPatterns``), read once. The body is read once (``LinkPatterns/rewrite(_:)``, which
    /// copies nothing until it meets a link): rewritten when a base URL occurs, else the upstream's own bytes,
    /// shared with its ``ResponseBody`` (``ResponseBody/init(passingThrough:)``).
    ///
    /// - Parameters:
    ///   - upstream: The upstream's answer.
    ///   - request: The request it answers (an answer to `HEAD` keeps the upstream's `Content-Length`).
    func proxiedResponse(_ upstream: UpstreamResponse, to request: HTTPRequest) -> HTTPResponse {
        let headers = HeaderPolicy.proxiedResponseHeaders(upstream.headers, requestMethod: request.method)
        let empty = HTTPResponse(status: upstream.status, headers: headers, body: .empty)
        guard let linkRewriter else {
            var response = empty
            response.body = ResponseBody(passingThrough: upstream.body)
            return response
        }
        let patterns = linkRewriter.daemonPatterns
        var response = empty
        LinkRewriter.rewriteLocation(&response, with: patterns)
        var body = upstream.body
        if !LinkRewriter.isBinary(headers["Content-Type"]), let rewritten = patterns.rewrite(body) {
            body = rewritten
        }
        response.body = ResponseBody(passingThrough: body)
        return response
    }

    /// The answer when the upstream gave none: 502, or 504 after a timeout, with a JSON body naming the
    /// upstream and the error.
    ///
    /// ```json
    /// {"status": 502, "error": "unreachable", "upstream": "https://pokeapi.co",
    ///  "url": "https://pokeapi.co/api/v2/pokemon/1/", "message": "Failed to connect …", "code": 7}
    /// ```
    ///
    /// - Parameters:
    ///   - error: What went wrong.
    ///   - upstream: The upstream base URL.
    /// - Returns: The response.
    package static func upstreamFailure(_ error: UpstreamError, upstream: String) -> HTTPResponse {
        var body: [String: JSONValue] = [
            "status": .integer(Int64(error.status)),
            "error": .string(error.kind.rawValue),
            "upstream": .string(upstream),
            "url": .string(error.url),
            "message": .string(error.message),
        ]
        if let code = error.code { body["code"] = .integer(Int64(code)) }
        return .json(.object(body), status: error.status)
    }
}
