import Dispatch
import Foundation
import PokestubCore

/// One queued exchange.
struct CurlJob: Sendable {
    let request: UpstreamRequest
    let completion: @Sendable (Result<UpstreamResponse, UpstreamError>) -> Void
    /// When the exchange must have been answered: the request's arrival plus the upstream timeout, so the wait
    /// for a free worker counts against the timeout.
    let deadline: DispatchTime
    /// What the per-route limit counts: the upstream's scheme, host and port, and the path, without the query.
    let route: Substring

    init(
        request: UpstreamRequest, timeoutMilliseconds: Int,
        completion: @escaping @Sendable (Result<UpstreamResponse, UpstreamError>) -> Void
    ) {
        self.request = request
        self.completion = completion
        deadline = .now() + .milliseconds(timeoutMilliseconds)
        route = request.url.prefix { $0 != "?" && $0 != "#" }
    }

    /// Milliseconds left before ``deadline``, 0 once it has passed.
    var remainingMilliseconds: Int {
        let now = DispatchTime.now().uptimeNanoseconds
        return deadline.uptimeNanoseconds > now ? Int((deadline.uptimeNanoseconds - now) / 1_000_000) : 0
    }
}

/// The workers' queue, with a limit per route: at most ``routeLimit`` exchanges to one upstream path run at
/// once, so an upstream path that never answers holds that many workers and no more, and requests for other
/// paths still find one free. Jobs are taken in arrival order among the routes under their limit.
///
/// A job still queued at its deadline is taken out by ``expire(_:)`` and answered as timed out by the
/// client, so a request never waits for a worker longer than the upstream timeout.
final class CurlJobQueue: Sendable {
    private struct State {
        var jobs: [(id: UInt64, job: CurlJob)] = []
        var running: [Substring: Int] = [:]
        var nextID: UInt64 = 0
        var closed = false
    }

    /// The most exchanges to one route at once.
    let routeLimit: Int
    // NSCondition: workers wait for a job whose route is under its limit, which a counting semaphore cannot
    // express. Its lock guards `state`.
    private let condition = NSCondition()
    private nonisolated(unsafe) var state = State()

    /// Creates a queue.
    ///
    /// - Parameter routeLimit: The most exchanges to one route at once (at least 1).
    init(routeLimit: Int) {
        self.routeLimit = max(1, routeLimit)
    }

    /// Queues a job; its id for ``expire(_:)``, or `nil` when the queue is closed.
    func push(_ job: CurlJob) -> UInt64? {
        condition.lock()
        defer { condition.unlock() }
        guard !state.closed else { return nil }
        state.nextID += 1
        state.jobs.append((state.nextID, job))
        condition.signal()
        return state.nextID
    }

    /// Waits for a job whose route is under its limit, and counts it as running until ``finish(_:)``;
    /// `nil` once the queue is closed.
    func pop() -> CurlJob? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if state.closed { return nil }
            if let index = state.jobs.firstIndex(where: { (state.running[$0.job.route] ?? 0) < routeLimit }) {
                let job = state.jobs.remove(at: index).job
                state.running[job.route, default: 0] += 1
                // Another job may be takeable now too (another route): pass the wake-up on.
                if !state.jobs.isEmpty { condition.signal() }
                return job
            }
            condition.wait()
        }
    }

    /// Marks a job taken by ``pop()`` as done, which may let a queued job of its route run.
    func finish(_ job: CurlJob) {
        condition.lock()
        defer { condition.unlock() }
        let remaining = (state.running[job.route] ?? 1) - 1
        state.running[job.route] = remaining > 0 ? remaining : nil
        condition.broadcast()
    }

    /// Takes a job out of the queue if no worker has taken it yet.
    ///
    /// - Parameter id: What ``push(_:)`` returned.
    /// - Returns: The job, now the caller's to answer, or `nil` when a worker took it or it was never queued.
    func expire(_ id: UInt64) -> CurlJob? {
        condition.lock()
        defer { condition.unlock() }
        guard let index = state.jobs.firstIndex(where: { $0.id == id }) else { return nil }
        return state.jobs.remove(at: index).job
    }

    /// Closes the queue, wakes the waiting workers, and returns the jobs nobody took.
    func close() -> [CurlJob] {
        condition.lock()
        defer { condition.unlock() }
        let jobs = state.jobs.map(\.job)
        state.jobs = []
        state.closed = true
        condition.broadcast()
        return jobs
    }
}
