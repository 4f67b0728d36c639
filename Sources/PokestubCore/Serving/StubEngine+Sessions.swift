import Foundation

extension StubEngine {
    /// What a request under `/__sessions/{id}` is served within, or the 404 when there is no such session.
    enum SessionLookup {
        /// The request as the session sees it (without `/__sessions/{id}`), and the session's scope.
        case found(HTTPRequest, ServingScope)
        /// The answer: the session ended, expired or never existed.
        case missing(HTTPResponse)
    }

    /// The scope of the session a request names: the session's stubs first, then the daemon's; the session's
    /// journal, scenario states and near-miss cache; upstream links pointing at the session's base URL; no
    /// upstream calls, whatever the daemon's mode.
    func sessionScope(of request: HTTPRequest) -> SessionLookup {
        let afterPrefix = request.rawPath.dropFirst(Session.pathPrefix.count + 1)
        let id = String(afterPrefix.prefix { $0 != "/" })
        guard let session = sessions.session(id: id) else {
            return .missing(
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
        let serving = info.serving
        let scope = ServingScope(
            stubs: session.store.index, sharedStubs: serving.stubs ?? store.index, scenarios: session.store.scenarios,
            journal: session.journal, nearMisses: session.nearMisses, linkBase: info.baseURL + session.basePath,
            forwardsUpstream: false, serving: serving, contract: contract)
        return .found(inner, scope)
    }
}
