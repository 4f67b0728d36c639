import Foundation
import PokestubCore
import PokestubServer
import PokestubUpstream

/// pokestub in process: a ``StubEngine`` over a stub folder with a libcurl upstream client, served on
/// 127.0.0.1 with a port the system picked. Stop it with ``stop()``.
final class RecordingServer: Sendable {
    let engine: StubEngine
    let server: HTTPServer
    let client: CurlUpstreamClient
    let root: String

    /// Starts a server.
    ///
    /// - Parameters:
    ///   - root: The stub folder (recordings are written here).
    ///   - mode: The serve mode.
    ///   - upstream: The upstream base URL.
    ///   - timeoutMilliseconds: The upstream total timeout.
    ///   - options: Recording options.
    init(
        root: String, mode: ServeMode, upstream: String, timeoutMilliseconds: Int = 10_000,
        options: RecordingOptions = RecordingOptions(), rewriteLinks: Bool = true
    ) throws {
        self.root = root
        let store = StubStore(root: root)
        let report = store.reload()
        guard report.succeeded else { throw TestFailure("stub problems: \(report.problems)") }
        client = CurlUpstreamClient(
            configuration: CurlUpstreamConfiguration(
                connectTimeoutMilliseconds: 2_000, timeoutMilliseconds: timeoutMilliseconds))
        engine = StubEngine(
            store: store, journalCapacity: 1_000, mode: mode, upstream: upstream, upstreamClient: client,
            recording: options, rewriteUpstreamLinks: rewriteLinks)
        server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0), handler: engine)
        try server.start()
        engine.info.baseURL = server.baseURL
    }

    var baseURL: String { server.baseURL }

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
        client.shutdown()
    }
}

/// An HTTP client for the tests: libcurl through ``CurlUpstreamClient``, so redirects are not followed and
/// bytes arrive as sent.
enum TestHTTP {
    static let client = CurlUpstreamClient(
        configuration: CurlUpstreamConfiguration(connectTimeoutMilliseconds: 2_000, timeoutMilliseconds: 20_000))

    static func send(
        _ method: String, _ url: String, headers: [(String, String)] = [], body: Data = Data()
    ) async throws -> UpstreamResponse {
        let request = UpstreamRequest(
            method: method, url: url, headers: HTTPHeaders(headers.map { (name: $0.0, value: $0.1) }), body: body)
        return try await withCheckedThrowingContinuation { continuation in
            client.send(request) { result in continuation.resume(with: result) }
        }
    }
}

/// A folder in the temporary directory with `mappings/` and `__files/`, removed at deinit.
final class TemporaryFolder: Sendable {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("pokestub-rec-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path + "/mappings", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: path + "/__files", withIntermediateDirectories: true)
    }

    /// Every file under the folder, as sorted relative paths.
    var files: [String] {
        let enumerator = FileManager.default.enumerator(atPath: path)
        var files: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path + "/" + relative, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                files.append(relative)
            }
        }
        return files.sorted()
    }

    func data(_ relative: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path + "/" + relative))
    }

    func json(_ relative: String) throws -> JSONValue {
        try JSONValue.parse(try data(relative))
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Paths in the repository, found from this file.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// `../shared/pokeapi` next to the repository.
    static var pokeAPIDump: String {
        root.deletingLastPathComponent().appendingPathComponent("shared/pokeapi").path
    }
}
