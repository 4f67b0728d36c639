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
/// A job still queued at its deadline is taken out by ``expireDue(now:)`` and answered as timed out by the
/// client, so a request never waits for a worker longer than the upstream timeout. One expiry check is armed
/// at a time, for the earliest deadline of the jobs queued when it was armed (``push(_:)`` asks for one when
/// none is armed), not a timer per job: a job a worker takes at once needs none, and every job's deadline is
/// its arrival plus the same timeout, so the earliest queued deadline is the oldest job's.
///
/// A worker is woken only when there is a job to take: ``push(_:)`` wakes one, and ``finish(_:)`` wakes them
/// all only when jobs are queued (one held back by its route's limit may run now). Waking every idle worker
/// after each exchange, to find nothing, was a context switch per idle worker per request.
final class CurlJobQueue: Sendable {
    private struct State {
        var jobs: [CurlJob] = []
        var running: [Substring: Int] = [:]
        var closed = false
        /// Whether an expiry check is armed (``push(_:)`` returned a deadline and ``expireDue(now:)`` has not
        /// disarmed it).
        var expiryArmed = false
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

    /// What became of a pushed job.
    enum Pushed {
        /// Queued; call ``CurlJobQueue/expireDue(now:)`` at `expiryCheck` when it is set (no check was armed).
        case queued(expiryCheck: DispatchTime?)
        /// The queue is closed: the caller answers the job.
        case closed
    }

    /// Queues a job and wakes one waiting worker.
    func push(_ job: CurlJob) -> Pushed {
        condition.lock()
        defer { condition.unlock() }
        guard !state.closed else { return .closed }
        state.jobs.append(job)
        condition.signal()
        guard !state.expiryArmed else { return .queued(expiryCheck: nil) }
        state.expiryArmed = true
        return .queued(expiryCheck: job.deadline)
    }

    /// Waits for a job whose route is under its limit, and counts it as running until ``finish(_:)``;
    /// `nil` once the queue is closed.
    func pop() -> CurlJob? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if state.closed { return nil }
            if let index = state.jobs.firstIndex(where: { (state.running[$0.route] ?? 0) < routeLimit }) {
                let job = state.jobs.remove(at: index)
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
        if !state.jobs.isEmpty { condition.broadcast() }
    }

    /// The armed expiry check: takes out the queued jobs whose deadline has passed, and says when to check
    /// again (the earliest deadline still queued), or disarms the check when nothing is queued.
    ///
    /// - Parameter now: The time to compare deadlines with.
    /// - Returns: The expired jobs, now the caller's to answer, and when to call again (`nil`: disarmed, the
    ///   next ``push(_:)`` arms it).
    func expireDue(now: DispatchTime = .now()) -> (expired: [CurlJob], nextCheck: DispatchTime?) {
        condition.lock()
        defer { condition.unlock() }
        let expired = state.jobs.filter { $0.deadline <= now }
        if !expired.isEmpty { state.jobs.removeAll { $0.deadline <= now } }
        guard let next = state.jobs.map(\.deadline).min() else {
            state.expiryArmed = false
            return (expired, nil)
        }
        return (expired, next)
    }

    /// Whether an expiry check is armed.
    var isExpiryArmed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return state.expiryArmed
    }

    /// Closes the queue, wakes the waiting workers, and returns the jobs nobody took.
    func close() -> [CurlJob] {
        condition.lock()
        defer { condition.unlock() }
        let jobs = state.jobs
        state.jobs = []
        state.closed = true
        condition.broadcast()
        return jobs
    }
}
