import Foundation
import PokestubCore
import PokestubLocking

/// The handler of an in-process test server: admin requests go to the engine; other requests go to the first
/// matching ``StubRoute``, else to the engine's stubs.
///
/// A request a route answers is journaled like a stubbed one, with the route as its stub
/// (`stubMapping: {"id": route.id, "name": "route GET /path"}`), so `find`, `count` and `verify` see it.
final class RoutingHandler: HTTPHandler {
    let engine: StubEngine
    private let routes: Locked<[StubRoute]>

    init(engine: StubEngine, routes: [StubRoute]) {
        self.engine = engine
        self.routes = Locked(routes)
    }

    func append(_ route: StubRoute) {
        routes.withLock { $0.append(route) }
    }

    func handle(_ request: HTTPRequest) -> HTTPReply {
        if AdminAPI.isAdmin(request) { return engine.handle(request) }
        guard let route = routes.withLock({ routes in routes.first { $0.matches(request) } }) else {
            return engine.handle(request)
        }
        let timing = ServeTiming()
        let journal = engine.journal
        @Sendable func finish(_ response: HTTPResponse) -> HTTPResponse {
            var response = response
            response.headers.replace(name: "Matched-Stub-Id", value: route.id.uuidString.lowercased())
            journal.recordAnswer(
                to: request, stub: ServeEvent.StubReference(id: route.id, name: "route \(route)"),
                status: response.status, timing: timing, response: response)
            return response
        }
        switch route.responder {
        case .immediate(let handler):
            return .response(finish(handler(request)))
        case .eventual(let handler):
            return .deferred { complete in
                Task { complete(finish(await handler(request))) }
            }
        }
    }
}
