import Foundation

extension StubEngine {
    /// Answers a request matched by a stub with `proxyBaseUrl`, later: forwards it through the upstream client
    /// (``Recordings/send(_:completion:)``), passes the answer on with the stub's `headers` added, and
    /// journals the serve event as served by that stub (the request as received, as for any stub answer; the
    /// upstream's fields redacted as in the proxy mode). Nothing is recorded or kept for a snapshot; a failing
    /// upstream answers 502, or 504 after a timeout (``upstreamFailure(_:upstream:)``), as in the proxy mode.
    ///
    /// - Parameters:
    ///   - request: The request as received.
    ///   - match: The stub's match; `match.proxy` says where to.
    ///   - scope: The scope it is served within (its journal, scenarios and settings).
    ///   - timing: When it arrived.
    func proxy(
        _ request: HTTPRequest, through proxy: StubProxy, match: StubIndex.Match, in scope: ServingScope,
        timing: ServeTiming
    ) -> HTTPReply {
        let journal = scope.journal
        let eventID = journal.nextEventID()
        let delay = scope.fixedDelayMilliseconds
        // The scenario moves when the stub matches, as for a stub that answers itself.
        if let rule = match.scenario, let newState = rule.newState { scope.scenarios.set(rule.name, to: newState) }
        let upstreamRequest = proxy.upstreamRequest(for: request)
        let options = recordings.options
        return .deferred { [self] complete in
            recordings.send(upstreamRequest) { [self] result in
                var response: HTTPResponse
                var fromUpstream = false
                switch result {
                case .success(let upstream):
                    response = proxiedResponse(upstream, to: request)
                    // The stub's own fields (with `Matched-Stub-Id`) come on top of the upstream's, as WireMock adds
                    // a proxying stub's headers.
                    for field in match.response.headers.fields {
                        response.headers.add(name: field.name, value: field.value)
                    }
                    fromUpstream = true
                case .failure(let error):
                    response = StubEngine.upstreamFailure(error, upstream: proxy.baseURL)
                }
                if request.method == "HEAD" { response = response.answeringHead() }
                response.delayMilliseconds += match.response.delayMilliseconds + delay
                journal.recordAnswer(
                    to: request, stub: match.stub, status: response.status,
                    responseHeaders: fromUpstream ? response.headers.redacted(options) : nil, timing: timing,
                    response: response, id: eventID)
                complete(response)
            }
        }
    }
}
