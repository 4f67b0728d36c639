/// How a ``CurlUpstreamClient`` talks to the upstream.
public struct CurlUpstreamConfiguration: Sendable, Equatable {
    /// The longest wait for a connection (TCP and TLS), in milliseconds (`CURLOPT_CONNECTTIMEOUT_MS`).
    /// Config key `upstreamConnectTimeoutMs`, default 5,000.
    public var connectTimeoutMilliseconds: Int
    /// The longest a whole exchange may take, connection included, in milliseconds (`CURLOPT_TIMEOUT_MS`).
    /// Config key `upstreamTimeoutMs`, default 30,000.
    public var timeoutMilliseconds: Int
    /// Worker threads, each with its own libcurl easy handle and so its own reused connections: the most
    /// upstream exchanges in flight at once. Default 8.
    public var workers: Int
    /// The largest decoded response body accepted, in bytes; a larger one fails with 502. Default 256 MiB.
    public var maxResponseBytes: Int

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - connectTimeoutMilliseconds: Connect timeout in milliseconds.
    ///   - timeoutMilliseconds: Total timeout in milliseconds.
    ///   - workers: Worker threads (at least 1).
    ///   - maxResponseBytes: Largest response body in bytes.
    public init(
        connectTimeoutMilliseconds: Int = 5_000, timeoutMilliseconds: Int = 30_000, workers: Int = 8,
        maxResponseBytes: Int = 256 << 20
    ) {
        self.connectTimeoutMilliseconds = connectTimeoutMilliseconds
        self.timeoutMilliseconds = timeoutMilliseconds
        self.workers = max(1, workers)
        self.maxResponseBytes = maxResponseBytes
    }
}
