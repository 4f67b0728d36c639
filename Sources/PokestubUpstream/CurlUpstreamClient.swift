import CCurl
import Dispatch
import Foundation
import PokestubCore
import PokestubLocking

/// An ``UpstreamClient`` built on libcurl's easy interface.
///
/// A pool of worker threads, each owning one easy handle for its whole life: libcurl keeps a connection
/// cache per handle, so sequential requests to the same upstream reuse connections (libcurl cannot share
/// connections between threads that transfer concurrently through `curl_share`, so each worker has its own).
/// ``send(_:completion:)`` only queues the exchange; a worker performs it and calls the completion, so no
/// server thread ever waits on the upstream. The threads start with the first request: a server that never
/// forwards (replay) never starts them and never opens a connection.
///
/// Every transfer:
/// - sets `CURLOPT_NOSIGNAL` (timeouts without `SIGALRM`, required with threads) and the connect and total
///   timeouts of ``CurlUpstreamConfiguration``;
/// - does not follow redirects: a 301 comes back as a 301;
/// - verifies TLS peers and host names against the system CA store libcurl was built with
///   (`/etc/ssl/certs/ca-certificates.crt` on Debian);
/// - advertises every content encoding this libcurl can decode (`CURLOPT_ACCEPT_ENCODING` set to `""`:
///   gzip and deflate with zlib, br with brotli, zstd) and hands back the decoded body;
/// - sends the method, the URL as given (`CURLOPT_PATH_AS_IS`, no re-encoding), the body, and the given
///   header fields, with `Accept`, `Content-Type` and `Expect` defaults of libcurl suppressed so only what
///   the client sent goes out; `Host` comes from the URL;
/// - only speaks http and https (`CURLOPT_PROTOCOLS_STR`).
///
/// After each transfer the handle's `WRITEDATA`, `HEADERDATA` and `HTTPHEADER` are cleared, and
/// `curl_easy_reset` starts the next transfer from defaults while keeping the connection cache. After a
/// failed transfer the worker discards its handle for a new one, so one request libcurl refuses (a URL with
/// a space, say) fails alone with 502 and never the requests after it.
///
/// ```swift
/// let client = CurlUpstreamClient(configuration: CurlUpstreamConfiguration(timeoutMilliseconds: 10_000))
/// defer { client.shutdown() }
/// client.send(UpstreamRequest(method: "GET", url: "https://pokeapi.co/api/v2/pokemon/1/")) { print($0) }
/// ```
package final class CurlUpstreamClient: UpstreamClient {
    /// Timeouts, pool size and limits.
    package let configuration: CurlUpstreamConfiguration
    /// The daemon's memory budget, which answers' bodies count against while they arrive, or `nil`.
    package let memory: MemoryBudget?
    private let logger: Logger
    private let queue: CurlJobQueue
    private let state = Locked(Lifecycle.idle)
    private let finished = DispatchSemaphore(value: 0)
    private let counts = Locked((transfers: 0, connectionsOpened: 0))

    private enum Lifecycle {
        case idle
        case running
        case stopped
    }

    /// Creates a client; no thread starts and no connection opens until the first request.
    ///
    /// - Parameters:
    ///   - configuration: Timeouts, pool size and limits.
    ///   - memory: The daemon's memory budget (``MemoryBudget``, config `limits.maxMemoryBytes`): each answer's
    ///     body counts against it while it arrives, and one it cannot hold fails with 502; `nil` for none.
    ///   - logger: Where transfer failures are logged at debug level.
    package init(
        configuration: CurlUpstreamConfiguration = CurlUpstreamConfiguration(), memory: MemoryBudget? = nil,
        logger: Logger = .disabled
    ) {
        self.configuration = configuration
        self.memory = memory
        self.logger = logger
        queue = CurlJobQueue(routeLimit: configuration.routeLimit)
    }

    deinit {
        _ = queue.close()
    }

    /// `curl_global_init`, once per process, before the first handle exists: at the first request, not at
    /// start, because it loads and configures OpenSSL (3 MB of resident memory and a few milliseconds), which
    /// a daemon in replay mode never needs.
    private static let globalInit: Void = {
        _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }()

    /// The content encodings this libcurl decodes, of gzip, deflate, br and zstd.
    package static var supportedEncodings: [String] {
        ["gzip", "deflate", "br", "zstd"].filter { pokestub_curl_supports_encoding($0) != 0 }
    }

    /// Transfers performed, and connections libcurl had to open for them (`CURLINFO_NUM_CONNECTS`): fewer
    /// connections than transfers means connections were reused.
    package var statistics: (transfers: Int, connectionsOpened: Int) {
        counts.withLock { $0 }
    }

    package func send(
        _ request: UpstreamRequest,
        completion: @escaping @Sendable (Result<UpstreamResponse, UpstreamError>) -> Void
    ) {
        let startWorkers: Bool = state.withLock { state in
            guard case .idle = state else { return false }
            state = .running
            return true
        }
        if startWorkers {
            _ = CurlUpstreamClient.globalInit
            for number in 0..<configuration.workers { startWorker(number) }
        }
        let job = CurlJob(
            request: request, timeoutMilliseconds: configuration.timeoutMilliseconds, completion: completion)
        switch queue.push(job) {
        case .closed:
            completion(
                .failure(UpstreamError(kind: .failed, url: request.url, message: "the upstream client was shut down")))
        case .queued(let expiryCheck?):
            CurlUpstreamClient.checkExpiry(of: queue, at: expiryCheck, configuration)
        case .queued(nil):
            break
        }
    }

    /// Answers the jobs still queued at their deadline (every worker was busy, or busy with their route, for
    /// the whole timeout) at `deadline`, then checks again at the next deadline while jobs are queued.
    private static func checkExpiry(
        of queue: CurlJobQueue, at deadline: DispatchTime, _ configuration: CurlUpstreamConfiguration
    ) {
        DispatchQueue.global().asyncAfter(deadline: deadline) {
            let (expired, nextCheck) = queue.expireDue()
            for job in expired {
                job.completion(.failure(CurlUpstreamClient.noFreeWorker(for: job.request, configuration)))
            }
            if let nextCheck { checkExpiry(of: queue, at: nextCheck, configuration) }
        }
    }

    /// The 504 material of a request that found no free worker before its deadline: taken out of the queue
    /// at the deadline, or taken by a worker only after it.
    private static func noFreeWorker(
        for request: UpstreamRequest, _ configuration: CurlUpstreamConfiguration
    ) -> UpstreamError {
        UpstreamError(
            kind: .timedOut, url: request.url,
            message: "no upstream worker was free within \(configuration.timeoutMilliseconds) ms "
                + "(\(configuration.workers) workers, at most \(configuration.routeLimit) per upstream path)")
    }

    /// Stops the workers after the transfers in progress; queued requests fail with 502 material.
    ///
    /// - Parameter timeout: How long to wait for transfers in progress (they end by their own timeouts).
    package func shutdown(timeout: Duration = .seconds(5)) {
        let wasRunning: Bool = state.withLock { state in
            defer { state = .stopped }
            if case .running = state { return true }
            return false
        }
        for job in queue.close() {
            job.completion(
                .failure(
                    UpstreamError(kind: .failed, url: job.request.url, message: "the upstream client was shut down")))
        }
        guard wasRunning else { return }
        let deadline = DispatchTime.now() + .milliseconds(Int(timeout.components.seconds * 1000))
        for _ in 0..<configuration.workers where finished.wait(timeout: deadline) == .timedOut { break }
    }

    private func startWorker(_ number: Int) {
        let queue = self.queue
        let configuration = self.configuration
        let memory = self.memory
        let finished = self.finished
        let counters = Counters(client: self)
        let thread = Thread {
            let worker = CurlWorker(configuration: configuration, memory: memory)
            while let job = queue.pop() {
                let remaining = job.remainingMilliseconds
                let result =
                    remaining > 0
                    ? worker.perform(job.request, timeoutMilliseconds: remaining)
                    : .failure(CurlUpstreamClient.noFreeWorker(for: job.request, configuration))
                queue.finish(job)
                if remaining > 0 { counters.record(transfers: 1, connections: worker.lastConnectionCount) }
                job.completion(result)
            }
            worker.close()
            finished.signal()
        }
        thread.name = "pokestub-upstream-\(number)"
        thread.start()
    }

    /// Adds to the client's counters without keeping the client alive from its threads.
    private struct Counters: Sendable {
        weak var client: CurlUpstreamClient?

        func record(transfers: Int, connections: Int) {
            client?.counts.withLock { counts in
                counts.transfers += transfers
                counts.connectionsOpened += connections
            }
        }
    }
}
