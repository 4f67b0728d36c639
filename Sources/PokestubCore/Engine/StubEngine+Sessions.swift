import Foundation

extension StubEngine {
    /// Answers a request under `/__sessions/{id}`: the session's stubs first, then the stubs from disk; the
    /// serve event goes to the session's journal only. Upstream links in bodies point at the session's base
    /// URL. Sessions answer from stubs only (no upstream calls), whatever the daemon's mode.
    func handleInSession(_ request: HTTPRequest) -> HTTPReply {
        let started = ContinuousClock.now
        let receivedAt = Date()
        let afterPrefix = request.rawPath.dropFirst(Session.pathPrefix.count + 1)
        let id = String(afterPrefix.prefix { $0 != "/" })
        guard let session = sessions.session(id: id) else {
            return .response(
                AdminError(
                    status: 404, title: "No such session",
                    detail:
                        "session \(id.debugDescription) ended, expired or never existed; make one with POST /__admin/sessions"
                ).response)
        }
        var innerPath = String(afterPrefix.dropFirst(id.count))
        if innerPath.isEmpty { innerPath = "/" }
        var inner = HTTPRequest(
            method: request.method, rawURL: innerPath + (request.rawQuery.map { "?" + $0 } ?? ""),
            headers: request.headers, body: request.body)
        inner.clientAddress = request.clientAddress
        let sessionIndex = session.store.index
        let index = store.index
        let response: HTTPResponse
        var reference: ServeEvent.StubReference?
        // A session keeps its own scenario states, for its stubs and the daemon's alike.
        let scenarios = session.store.scenarios
        if let match = sessionIndex.match(inner, scenarios: scenarios) ?? index.match(inner, scenarios: scenarios) {
            response = linkRewriter?.rewrite(match.response, to: info.baseURL + session.basePath) ?? match.response
            reference = match.stub
            if let rule = match.scenario, let newState = rule.newState { scenarios.set(rule.name, to: newState) }
        } else {
            let closest = (NearMiss.closest(to: inner, in: sessionIndex) + NearMiss.closest(to: inner, in: index))
                .sorted { $0.result.distance < $1.result.distance }
                .prefix(3)
            response = .text(NearMiss.report(for: inner, nearMisses: Array(closest)), status: 404)
        }
        StubEngine.journal(
            inner, in: session.journal, stub: reference, status: response.status, since: started, at: receivedAt)
        return .response(response)
    }
}
