/// How a ``CurlUpstreamClient`` talks to the upstream.
package struct CurlUpstreamConfiguration: Sendable, Equatable {
    /// The longest wait for a connection (TCP and TLS), in milliseconds (`CURLOPT_CONNECTTIMEOUT_MS`).
    /// Config key `upstreamConnectTimeoutMs`, default 5,000.
    package var connectTimeoutMilliseconds: Int
    /// The longest a request may wait for its upstream answer, in milliseconds: the wait for a free worker
    /// and the whole exchange, connection included (`CURLOPT_TIMEOUT_MS` is what is left after the wait).
    /// Config key `upstreamTimeoutMs`, default 30,000.
    package var timeoutMilliseconds: Int
    /// Worker threads, each with its own libcurl easy handle and so its own reused connections: the most
    /// upstream exchanges in flight at once. Default 8.
    package var workers: Int
    /// The largest decoded response body accepted, in bytes; a larger one fails with 502. Default 256 MiB.
    package var maxResponseBytes: Int
    /// The most exchanges with one upstream path (scheme, host, port and path, not the query) at once: half
    /// the workers, at least 1. An upstream path that never answers holds that many workers until the timeout,
    /// and the other half still serve every other path.
    package var routeLimit: Int { max(1, workers / 2) }

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - connectTimeoutMilliseconds: Connect timeout in milliseconds.
    ///   - timeoutMilliseconds: Total timeout in milliseconds.
    ///   - workers: Worker threads (at least 1).
    ///   - maxResponseBytes: Largest response body in bytes.
    package init(
        connectTimeoutMilliseconds: Int = 5_000, timeoutMilliseconds: Int = 30_000, workers: Int = 8,
        maxResponseBytes: Int = 256 << 20
    ) {
        self.connectTimeoutMilliseconds = connectTimeoutMilliseconds
        self.timeoutMilliseconds = timeoutMilliseconds
        self.workers = max(1, workers)
        self.maxResponseBytes = maxResponseBytes
    }
}
