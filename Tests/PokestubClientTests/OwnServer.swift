import Foundation
import PokestubCore
import PokestubServer
import Synchronization

/// An in-process server on 127.0.0.1 built by the test itself, for what `withStubServer` does not set up: an
/// engine with an admin token, or a handler in front of the engine.
enum OwnServer {
    /// Runs `body` with the root URL of a server for `engine` (answered by `handler` when given), then stops it.
    static func with<Result>(
        engine: StubEngine, handler: (any HTTPHandler)? = nil, isolation: isolated (any Actor)? = #isolation,
        _ body: (URL) async throws -> Result
    ) async throws -> Result {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 2), handler: handler ?? engine)
        try server.start()
        engine.info.baseURL = server.baseURL
        let result: Result
        do {
            result = try await body(URL(string: server.baseURL)!)
        } catch {
            await server.shutdown(gracePeriod: .seconds(2))
            throw error
        }
        await server.shutdown(gracePeriod: .seconds(2))
        return result
    }
}

/// The engine as a daemon from before `POST /__admin/requests/wait` answered it: that route gets `status`
/// (405 from older pokestub builds, 404 from servers without the route); everything else goes to the engine.
final class NoWaitHandler: HTTPHandler {
    let engine: StubEngine
    let status: Int
    /// How many wait requests arrived.
    let waitRequests = Atomic<Int>(0)

    init(engine: StubEngine, status: Int) {
        self.engine = engine
        self.status = status
    }

    func handle(_ request: HTTPRequest) -> HTTPReply {
        guard request.path.hasSuffix("/requests/wait") else { return engine.handle(request) }
        waitRequests.add(1, ordering: .relaxed)
        let error: JSONValue = .object(["title": .string(status == 405 ? "Method not allowed" : "Not found")])
        return .response(.json(.object(["errors": .array([error])]), status: status))
    }
}
