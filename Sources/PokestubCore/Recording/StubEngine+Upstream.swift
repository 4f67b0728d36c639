import Foundation

extension StubEngine {
    /// Answers a request through the upstream, later: records it, or passes the upstream's answer on, or
    /// answers 502/504 when there is none. The server's thread is released while the upstream works.
    ///
    /// The serve event is journaled when the answer is ready. A recorded request names its new stub; a
    /// proxied one or a failure names none, so it is listed by `GET /__admin/requests/unmatched` (no stub
    /// answered it), and `POST /__admin/recordings/snapshot` can turn proxied ones into stubs later.
    ///
    /// - Parameters:
    ///   - request: The request as received.
    ///   - record: Whether to record the answer.
    ///   - receivedAt: When the request arrived, for the journal.
    ///   - started: When handling started, for the journal's timing.
    /// - Returns: A deferred reply.
    func forward(
        _ request: HTTPRequest, record: Bool, receivedAt: Date, started: ContinuousClock.Instant
    ) -> HTTPReply {
        let eventID = UUID()
        let recheck = record && info.mode == .recordMissing
        return .deferred { [self] complete in
            recordings.forward(request, record: record, recheck: recheck, eventID: eventID) { [self] outcome in
                let response: HTTPResponse
                var reference: ServeEvent.StubReference?
                switch outcome {
                case .stub(let stub):
                    var fromStub = stub.response.httpResponse
                    fromStub.headers.add(name: "Matched-Stub-Id", value: stub.id.uuidString.lowercased())
                    response = linkRewriter?.rewrite(fromStub) ?? fromStub
                    reference = ServeEvent.StubReference(id: stub.id, name: stub.name)
                case .proxied(let upstreamResponse):
                    let proxied = HTTPResponse(
                        status: upstreamResponse.status,
                        headers: HeaderPolicy.proxiedResponseHeaders(upstreamResponse.headers),
                        body: ResponseBody(upstreamResponse.body))
                    response = linkRewriter?.rewriteOnce(proxied) ?? proxied
                case .failed(let error):
                    response = StubEngine.upstreamFailure(error, upstream: recordings.upstream)
                }
                let elapsed = ContinuousClock.now - started
                journal.append(
                    ServeEvent(
                        id: eventID, receivedAt: receivedAt, request: request, stub: reference,
                        responseStatus: response.status,
                        durationMilliseconds: Double(elapsed.components.attoseconds) / 1e15
                            + Double(elapsed.components.seconds) * 1000))
                complete(response)
            }
        }
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
    public static func upstreamFailure(_ error: UpstreamError, upstream: String) -> HTTPResponse {
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
