import Foundation
import PokestubCore
import PokestubDaemon
import PokestubLocking
import PokestubServer

/// An in-process daemon on 127.0.0.1 built by the test itself, for what `withStubServer` does not set up:
/// an admin token, or a handler in front of the engine.
enum OwnServer {
    /// Runs `body` with the root URL of a daemon (answered by `handler` when given), then stops it.
    ///
    /// - Parameters:
    ///   - adminAccess: Who may use the admin API; anyone by default.
    ///   - handler: Makes what answers in front of the engine.
    ///   - body: The test, given the daemon's root URL.
    static func with<Result>(
        adminAccess: AdminAccess = AdminAccess(), handler: (@Sendable (StubEngine) -> any HTTPHandler)? = nil,
        isolation: isolated (any Actor)? = #isolation, _ body: (URL) async throws -> sending Result
    ) async throws -> sending Result {
        var configuration = Configuration()
        configuration.port = 0
        configuration.journalMaxEntries = 100
        configuration.rewriteUpstreamLinks = false
        let daemon = try PokestubDaemon(
            configuration: configuration, stubFolder: .none, threads: 2, adminAccess: adminAccess, handler: handler)
        try daemon.start()
        let result: Result
        do {
            result = try await body(URL(string: daemon.baseURL)!)
        } catch {
            await daemon.shutdown(gracePeriod: .seconds(2))
            throw error
        }
        await daemon.shutdown(gracePeriod: .seconds(2))
        return result
    }
}

/// The engine as a daemon from before `POST /__admin/requests/wait` answered it: that route gets `status`
/// (405 from older pokestub builds, 404 from servers without the route); everything else goes to the engine.
final class NoWaitHandler: HTTPHandler {
    let engine: StubEngine
    let status: Int
    /// How many wait requests arrived.
    let waitRequests = Locked(0)

    init(engine: StubEngine, status: Int) {
        self.engine = engine
        self.status = status
    }

    func handle(_ request: HTTPRequest) -> HTTPReply {
        guard request.path.hasSuffix("/requests/wait") else { return engine.handle(request) }
        waitRequests.withLock { $0 += 1 }
        let error: JSONValue = .object(["title": .string(status == 405 ? "Method not allowed" : "Not found")])
        return .response(.json(.object(["errors": .array([error])]), status: status))
    }
}
