import Foundation
import PokestubCore
import PokestubUpstream

/// An HTTP client for the tests: libcurl through ``CurlUpstreamClient``, so redirects are not followed and
/// bytes arrive as sent.
enum TestHTTP {
    static let client = CurlUpstreamClient(
        configuration: CurlUpstreamConfiguration(connectTimeoutMilliseconds: 2_000, timeoutMilliseconds: 20_000))

    /// Sends one request through `client` (the shared one unless given) and waits for the answer.
    static func send(
        _ method: String, _ url: String, headers: [(String, String)] = [], body: Data = Data(),
        through client: CurlUpstreamClient = TestHTTP.client
    ) async throws -> UpstreamResponse {
        let request = UpstreamRequest(
            method: method, url: url, headers: HTTPHeaders(headers.map { (name: $0.0, value: $0.1) }), body: body)
        return try await withCheckedThrowingContinuation { continuation in
            client.send(request) { result in continuation.resume(with: result) }
        }
    }
}
