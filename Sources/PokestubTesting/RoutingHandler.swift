import Foundation
import PokestubCore
import PokestubLocking

/// The handler of an in-process test server: admin requests go to the engine; other requests go to the first
/// matching ``StubRoute``, else to the engine's stubs.
///
/// A request a route answers is journaled like a stubbed one, with the route as its stub
/// (`stubMapping: {"id": route.id, "name": "route GET /path"}`), so `find`, `count` and `verify` see it; a
/// handler that throws is journaled with the 500 it answered.
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

    func handle(_ request: PokestubCore.HTTPRequest) -> HTTPReply {
        if AdminAPI.isAdmin(request) { return engine.handle(request) }
        let plain = RouteRequest(received: request, parameters: [:])
        let found = routes.withLock { routes -> (StubRoute, [String: String])? in
            for route in routes {
                if let parameters = route.parameters(of: plain) { return (route, parameters) }
            }
            return nil
        }
        guard let (route, parameters) = found else { return engine.handle(request) }
        let timing = ServeTiming()
        let journal = engine.journal
        let routed = plain.with(parameters: parameters)
        return .deferred { complete in
            Task {
                var response: RouteResponse
                do {
                    response = try await route.handler(routed)
                } catch {
                    response = .failure(error)
                }
                response.headers.replace(name: "Matched-Stub-Id", value: route.id.uuidString.lowercased())
                journal.recordAnswer(
                    to: request, stub: ServeEvent.StubReference(id: route.id, name: "route \(route)"),
                    status: response.status, timing: timing, response: response.served)
                complete(response.served)
            }
        }
    }
}
