import Foundation
import PokestubCore
import PokestubDaemon
import PokestubServer
import PokestubTestSupport
import PokestubUpstream

/// pokestub in process: a ``StubEngine`` over a stub folder with a libcurl upstream client, served on
/// 127.0.0.1 with a port the system picked. Stop it with ``stop()``.
final class RecordingServer: Sendable {
    let engine: StubEngine
    let server: PokestubDaemon
    let root: String

    /// Starts a server.
    ///
    /// - Parameters:
    ///   - root: The stub folder (recordings are written here).
    ///   - mode: The serve mode.
    ///   - upstream: The upstream base URL.
    ///   - timeoutMilliseconds: The upstream total timeout.
    ///   - options: Recording options.
    ///   - rewriteLinks: Whether upstream links in served bodies point at the server.
    ///   - logger: Where the engine logs (recordings are logged at info level).
    init(
        root: String, mode: ServeMode, upstream: String, timeoutMilliseconds: Int = 10_000,
        options: RecordingOptions = RecordingOptions(), rewriteLinks: Bool = true, logger: Logger = .disabled
    ) throws {
        self.root = root
        var configuration = Configuration()
        configuration.port = 0
        configuration.stubs = root
        configuration.journalMaxEntries = 1_000
        configuration.mode = mode
        configuration.upstream = upstream
        configuration.upstreamConnectTimeoutMilliseconds = 2_000
        configuration.upstreamTimeoutMilliseconds = timeoutMilliseconds
        configuration.recording = options
        configuration.rewriteUpstreamLinks = rewriteLinks
        server = try PokestubDaemon(configuration: configuration, logger: logger)
        engine = server.engine
        try server.start()
    }

    var baseURL: String { server.baseURL }

    /// The daemon's upstream client.
    var client: CurlUpstreamClient { server.upstreamClient }

    /// Sends a request to the server (not following redirects).
    func send(
        _ method: String = "GET", _ target: String, headers: [(String, String)] = [], body: Data = Data()
    ) async throws -> UpstreamResponse {
        try await TestHTTP.send(method, baseURL + target, headers: headers, body: body)
    }

    /// Sends an admin request and parses the JSON answer.
    func admin(_ method: String, _ path: String, json: String? = nil) async throws -> (Int, JSONValue) {
        let response = try await send(method, "/__admin" + path, body: Data((json ?? "").utf8))
        return (response.status, response.body.isEmpty ? .null : try JSONValue.parse(response.body))
    }

    func stop() {
        server.stop(gracePeriod: .seconds(2))
    }
}
